"""The package graph: `taue.contracts` depends on no other part, every part depends on the contracts
and only on the parts below it, and there is no import cycle between packages (docs/architecture.md)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.paths import ROOT

FOLDERS = {
    "taue.contracts": "taue/contracts",
    "taue.proto": "proto",
    "taue.simulator": "simulator",
    "taue.envs": "envs",
    "taue.scorer": "scorer",
    "taue.runner": "agent-runner",
    "taue.tracer": "tracer",
    "taue.report": "report",
    "taue.deploy": "taue/deploy",
    "taue.cli": "taue/cli",
}
ALLOWED = {
    "taue.contracts": set(),
    "taue.proto": {"taue.contracts"},
    "taue.simulator": {"taue.contracts", "taue.proto"},
    "taue.envs": {"taue.contracts"},
    "taue.scorer": {"taue.contracts", "taue.proto"},
    "taue.runner": {"taue.contracts", "taue.proto", "taue.envs", "taue.simulator", "taue.scorer"},
    "taue.tracer": {"taue.contracts", "taue.envs", "taue.simulator", "taue.runner"},
    "taue.report": {"taue.contracts", "taue.envs", "taue.simulator", "taue.scorer", "taue.runner", "taue.tracer"},  # noqa: E501
    "taue.deploy": {"taue.tracer"},
    "taue.cli": set(FOLDERS) - {"taue.cli"},
}


def package_of(module: str) -> str | None:
    parts = module.split(".")
    name = ".".join(parts[:2])
    return name if name in FOLDERS else None


def imported_modules(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def package_graph() -> dict[str, dict[str, set[str]]]:
    """package -> imported package -> the files that import it."""
    graph: dict[str, dict[str, set[str]]] = {name: {} for name in FOLDERS}
    for name, folder in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            if "_pb2" in path.name:
                continue
            for module in imported_modules(path):
                target = package_of(module)
                if target is not None and target != name:
                    graph[name].setdefault(target, set()).add(str(path.relative_to(ROOT)))
    return graph


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of the graph as a path (first node repeated at the end), or None."""
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = "open"
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                return [*path[path.index(nxt) :], nxt] if nxt in path else [node, nxt]
            if nxt not in state and (cycle := visit(nxt, [*path, nxt])):
                return cycle
        state[node] = "done"
        return None

    for start in sorted(edges):
        if start not in state and (cycle := visit(start, [start])):
            return cycle
    return None


def test_every_package_imports_only_what_its_layer_allows() -> None:
    for package, targets in package_graph().items():
        for target, files in targets.items():
            assert target in ALLOWED[package], f"{package} imports {target} in {sorted(files)}"


def test_the_package_graph_has_no_cycle() -> None:
    graph = package_graph()
    assert find_cycle({name: set(targets) for name, targets in graph.items()}) is None


def test_the_cycle_finder_finds_cycles() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a"}}) is None


def test_the_contracts_need_no_other_part() -> None:
    assert package_graph()["taue.contracts"] == {}
