"""The package graph: `taue.contracts` depends on no other part, every part depends on the contracts
and only on the parts below it, and there is no import cycle between packages; the run format lives in
the contracts and one function reads run.json (docs/architecture.md)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from taue.layout import mounts
from tests.paths import ROOT

ROOT_PARTS = ("taue.contracts", "taue.deploy", "taue.cli")
"""The parts inside the namespace root's own folder; every other part is a mount (taue/layout.py)."""
FOLDERS = {
    **{name: f"{mounts()['taue']}/{name.removeprefix('taue.')}" for name in ROOT_PARTS},
    **{name: folder for name, folder in mounts().items() if name != "taue"},
}
ALLOWED = {
    "taue.contracts": set(),
    "taue.proto": {"taue.contracts"},
    "taue.simulator": {"taue.contracts", "taue.proto"},
    "taue.envs": {"taue.contracts"},
    "taue.scorer": {"taue.contracts", "taue.proto"},
    "taue.runner": {"taue.contracts", "taue.proto", "taue.envs", "taue.simulator", "taue.scorer"},
    "taue.tracer": {"taue.contracts", "taue.envs", "taue.simulator", "taue.runner"},
    "taue.report": {"taue.contracts", "taue.envs", "taue.simulator", "taue.scorer", "taue.runner"},
    "taue.deploy": {"taue.contracts"},
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


RUN_FORMAT = {
    "RunConfig",
    "RunManifest",
    "EpisodeRecord",
    "EpisodeOutcome",
    "LoadedRun",
    "RunMetrics",
    "RunSummary",
}
"""The run format's models: defined in taue/contracts/run.py only."""


def test_the_run_format_lives_in_the_contracts() -> None:
    defined = {
        (node.name, str(path.relative_to(ROOT)))
        for folder in FOLDERS.values()
        for path in (ROOT / folder).rglob("*.py")
        if "_pb2" not in path.name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name in RUN_FORMAT
    }
    assert defined == {(name, "taue/contracts/run.py") for name in RUN_FORMAT}


def test_only_the_results_module_reads_run_json() -> None:
    """Every reader goes through `taue.runner.results.load_run` (or its `stored_config`): run.json is
    parsed in one place."""
    readers = {
        str(path.relative_to(ROOT))
        for folder in FOLDERS.values()
        for path in (ROOT / folder).rglob("*.py")
        if "read_text(CONFIG)" in path.read_text(encoding="utf-8")
    }
    assert readers == {"agent-runner/results.py"}


def test_report_and_deploy_stand_below_the_tracer() -> None:
    """The report reads a domain's policy check from the domain's package, deploy takes the domain
    order from the contracts: neither needs the task factory."""
    graph = package_graph()
    assert "taue.tracer" not in graph["taue.report"] and "taue.tracer" not in graph["taue.deploy"]
