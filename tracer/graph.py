"""The tool dependency graph of a domain: nodes are tools, an edge a -> b says b may follow a in a
legal workflow. Stored as reviewed data beside the domain (`envs/<d>/graph.json`).

`infer_graph` proposes edges: it runs every tool once on the seed database with arguments taken from
the seed, and adds a -> b when a value a returns can feed a parameter of b (an output key named like
the parameter, or an id found in the seed column of that name). Utility tools (`think`,
`calculate`) and conversation-ending tools are not workflow steps and are left out; so are edges
into identification tools (those that take no id), which only ever come first, and edges from a
write to a write: every policy asks to look a record up before changing it. A read without
parameters (a catalogue) may follow any step after identification.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from taue.contracts.tasks import Action
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.task_checks import replay

UTILITY_TOOLS = frozenset({"think", "calculate"})
GRAPH_FILE = "graph.json"


class ToolGraph(BaseModel):
    domain: str
    nodes: list[str]
    edges: list[tuple[str, str]]

    @property
    def density(self) -> float:
        """Edges over ordered pairs of distinct nodes."""
        n = len(self.nodes)
        return round(len(self.edges) / (n * (n - 1)), 3) if n > 1 else 0.0

    def successors(self, node: str) -> list[str]:
        return [b for a, b in self.edges if a == node]

    def has_edge(self, a: str, b: str) -> bool:
        return a == b or (a, b) in self._edge_set

    @property
    def _edge_set(self) -> frozenset[tuple[str, str]]:
        return frozenset(self.edges)

    def summary(self) -> dict[str, Any]:
        return {
            "domain": self.domain,
            "nodes": len(self.nodes),
            "edges": len(self.edges),
            "density": self.density,
        }

    def dumps(self) -> str:
        body = {"domain": self.domain, "nodes": sorted(self.nodes), "edges": sorted(self.edges)}
        lines = [
            "{",
            f'  "domain": {json.dumps(body["domain"])},',
            f'  "nodes": {json.dumps(body["nodes"])},',
            '  "edges": [',
            ",\n".join(f"    {json.dumps(list(edge))}" for edge in body["edges"]),
            "  ]",
            "}",
        ]
        return "\n".join(lines) + "\n"


def graph_path(domain: Domain) -> Path:
    return domain.folder / GRAPH_FILE


def load_graph(domain: Domain) -> ToolGraph:
    path = graph_path(domain)
    if not path.exists():
        raise FileNotFoundError(
            f"{path} does not exist; propose one with `taue tracer graph {domain.name} --infer`"
        )
    return ToolGraph.model_validate_json(path.read_text(encoding="utf-8"))


def workflow_tools(domain: Domain) -> list[str]:
    return sorted(
        fn.__name__
        for fn in domain.tools
        if fn.__name__ not in UTILITY_TOOLS and fn.__name__ not in domain.terminal_tools
    )


def parameters(domain: Domain, tool: str) -> list[str]:
    fn = next(f for f in domain.tools if f.__name__ == tool)
    return [p for p in inspect.signature(fn).parameters if p != "db"]


def infer_graph(domain: Domain) -> ToolGraph:
    nodes = workflow_tools(domain)
    rows = [row.model_dump() for row in domain.generate(domain.seed)]
    ids = _id_index(rows)
    produced = {tool: asyncio.run(_produced(domain, tool, rows, ids)) for tool in nodes}
    params = {tool: set(parameters(domain, tool)) for tool in nodes}
    entries = {tool for tool in nodes if params[tool] and not any(_is_id(p) for p in params[tool])}
    edges = [
        (a, b)
        for a in nodes
        for b in nodes
        if a != b
        and b not in entries
        and not (a in domain.write_tools and b in domain.write_tools)
        and (_feeds(produced[a], params[b]) or (not params[b] and a not in entries))
    ]
    return ToolGraph(domain=domain.name, nodes=nodes, edges=sorted(edges))


def _feeds(produced: set[str], params: set[str]) -> bool:
    """A produced name feeds a parameter of the same name, or its plural list (`item_id` -> `item_ids`)."""
    return any(p in produced or (p.endswith("_ids") and p[:-1] in produced) for p in params)


def graph_difference(stored: ToolGraph, inferred: ToolGraph) -> dict[str, list]:
    return {
        "nodes_only_stored": sorted(set(stored.nodes) - set(inferred.nodes)),
        "nodes_only_inferred": sorted(set(inferred.nodes) - set(stored.nodes)),
        "edges_only_stored": sorted(set(map(tuple, stored.edges)) - set(map(tuple, inferred.edges))),
        "edges_only_inferred": sorted(set(map(tuple, inferred.edges)) - set(map(tuple, stored.edges))),
    }


def _is_id(name: str) -> bool:
    return name == "id" or name.endswith("_id") or name.endswith("_ids")


def _id_index(rows: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Seed value -> the id-like column names it occurs under."""
    index: dict[str, set[str]] = {}
    for row in rows:
        for name, value in _scalars(row):
            if _is_id(name) and isinstance(value, str):
                index.setdefault(value, set()).add(name)
    return index


def _scalars(value: Any, name: str = "") -> Iterable[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _scalars(item, str(key))
    elif isinstance(value, list):
        for item in value:
            yield from _scalars(item, name)
    else:
        yield name, value


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(map(str, value)) | {k for item in value.values() for k in _keys(item)}
    if isinstance(value, list):
        return {k for item in value for k in _keys(item)}
    return set()


def _sample_arguments(params: list[str], rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Arguments for `params` from one seed row holding all of them (at any depth), or None."""
    for row in rows:
        values = dict(_scalars(row))
        found = {p: values[p] for p in params if p in values}
        lists = {
            p: [values[p[:-1]]] for p in params if p not in found and p.endswith("_ids") and p[:-1] in values
        }
        found.update(lists)
        if len(found) == len(params):
            return found
    return None


async def _produced(
    domain: Domain, tool: str, rows: list[dict[str, Any]], ids: dict[str, set[str]]
) -> set[str]:
    """Names of the values `tool` returns: output keys and the id columns of the ids it returns."""
    params = parameters(domain, tool)
    arguments = _sample_arguments(params, rows) if params else {}
    if arguments is None:
        return set(params)
    db, log = await replay(domain, [Action(name=tool, arguments=arguments)])
    db.close()
    call = log[0]
    if not call.ok:
        return set(params)
    try:
        output: Any = json.loads(call.output)
    except ValueError:
        output = call.output
    names = _keys(output)
    for _, value in _scalars([output, sorted(_keys(output))]):  # ids appear as values and as keys
        if isinstance(value, str):
            names |= ids.get(value, set())
    return names
