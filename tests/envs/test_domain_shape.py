"""Every domain of the project has one shape (docs/domains.md, "Adding a domain"): the same modules,
its parts registered on its one `Domain` (the Tracer parts loaded only when asked for), one rules
module that the tools and the policy checker both use, one clock, one record conversion (the runtime
table base's, which keeps the declared field order), and money rounded by the runtime's helper
only. The runner reaches domain code only where it serves a domain in-process."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from taue.envs.runtime.authoring import TracerSpec
from taue.envs.runtime.discovery import NOT_DOMAINS, get_domain
from taue.layout import mounts
from tests.paths import ROOT

ENVS = ROOT / "envs"
FOLDERS = sorted(
    path.name for path in ENVS.iterdir() if (path / "__init__.py").exists() and path.name not in NOT_DOMAINS
)
SHAPE = frozenset({
    "__init__.py", "models.py", "generate.py", "tools.py", "rules.py", "policy_check.py", "seed_view.py",
    "tracer.py", "phrases.py", "policy.md", "graph.json", "tasks.json", "train.json", "tracer_report.json",
})  # fmt: skip
"""What every domain folder holds; a domain may split its code further (reads.py, …)."""


def python_files(domain: str) -> Iterator[Path]:
    return iter(sorted((ENVS / domain).glob("*.py")))


@cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def domain_imports(path: Path, domain: str) -> set[str]:
    """The modules of `domain` that `path` imports (by file name without `.py`)."""
    package = f"taue.envs.{domain}"
    found: set[str] = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ImportFrom) and node.module == package:
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(package + "."):
            found.add(node.module.removeprefix(package + ".").split(".")[0])  # type: ignore[union-attr]
        elif isinstance(node, ast.Import):
            found |= {
                a.name.removeprefix(package + ".") for a in node.names if a.name.startswith(package + ".")
            }
    return {name for name in found if (ENVS / domain / f"{name}.py").exists()}


def reachable(domain: str, start: str) -> set[str]:
    """The domain's modules that importing `start` imports, itself included."""
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += domain_imports(ENVS / domain / f"{name}.py", domain)
    return seen


def test_the_project_has_its_ten_domains() -> None:
    assert len(FOLDERS) == 10, FOLDERS


@pytest.mark.parametrize("domain", FOLDERS)
def test_every_domain_has_the_same_modules(domain: str) -> None:
    present = {path.name for path in (ENVS / domain).iterdir()}
    assert present >= SHAPE, f"envs/{domain} lacks {sorted(SHAPE - present)}"


@pytest.mark.parametrize("domain", FOLDERS)
def test_a_domain_registers_its_tracer_parts(domain: str) -> None:
    found = get_domain(domain)
    assert found.tracer == f"taue.envs.{domain}.tracer:TRACER"
    assert isinstance(found.tracer_spec, TracerSpec)


def test_serving_a_domain_loads_none_of_its_tracer_parts() -> None:
    """Building every domain's tools imports no grounder, seed view or policy check."""
    script = (
        "import sys\n"
        "from taue.envs.runtime.discovery import all_domains\n"
        "for domain in all_domains():\n"
        "    domain.mcp_tools\n"
        "loaded = sorted(m for m in sys.modules if m.rsplit('.', 1)[-1] in\n"
        "                ('tracer', 'seed_view', 'policy_check', 'phrases') and m.startswith('taue.envs.'))\n"
        "print(loaded)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]", result.stdout


@pytest.mark.parametrize("domain", FOLDERS)
def test_the_tools_and_the_policy_checker_share_the_rules_module(domain: str) -> None:
    assert "rules" in domain_imports(ENVS / domain / "policy_check.py", domain)
    assert "rules" in reachable(domain, "tools"), f"envs/{domain}/tools.py does not reach rules.py"


def _clock_of(domain: str) -> str:
    for node in tree(ENVS / domain / "rules.py").body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["CLOCK"]:
            assert isinstance(node.value, ast.Constant), f"envs/{domain}/rules.py: CLOCK is not a literal"
            return str(node.value.value)
    raise AssertionError(f"envs/{domain}/rules.py defines no CLOCK")


def _constants(*nodes: ast.AST) -> list[object]:
    return [node.value for node in nodes if isinstance(node, ast.Constant)]


def _clock_uses(path: Path, clock: str) -> Iterator[str]:
    """Where `path` writes the clock itself: the literal, its date assigned to a name, or its date
    built with `date(...)` / `datetime(...)`."""
    day = clock[:10]
    numbers = [int(part) for part in day.split("-")]
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and clock in node.value:
            yield f"line {node.lineno}: {node.value[:40]!r}"
        elif isinstance(node, ast.Assign) and getattr(node.value, "value", None) == day:
            yield f"line {node.lineno}: a name set to {day!r}"
        elif isinstance(node, ast.Compare) and day in _constants(node.left, *node.comparators):
            yield f"line {node.lineno}: {ast.unparse(node)}"
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("date", "datetime"):
            values = [a.value for a in node.args[:3] if isinstance(a, ast.Constant)]
            if values == numbers:
                yield f"line {node.lineno}: {ast.unparse(node)}"


@pytest.mark.parametrize("domain", FOLDERS)
def test_one_clock_per_domain(domain: str) -> None:
    clock = _clock_of(domain)
    assert get_domain(domain).clock == clock
    elsewhere = {
        path.name: list(_clock_uses(path, clock)) for path in python_files(domain) if path.name != "rules.py"
    }
    assert not {name: uses for name, uses in elsewhere.items() if uses}, f"{domain}: clock outside rules.py"


def _is_round(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", "") == "round"


def _rounding_helpers(path: Path) -> Iterator[str]:
    """Functions that only return a `round(...)`: a domain's own money helper."""
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.FunctionDef):
            body = [s for s in node.body if not isinstance(getattr(s, "value", None), ast.Constant)]
            if len(body) == 1 and isinstance(body[0], ast.Return) and _is_round(body[0].value):
                yield f"{path.name}: {node.name}() only rounds"


def _round_calls(path: Path) -> Iterator[str]:
    for node in ast.walk(tree(path)):
        if _is_round(node):
            yield f"{path.name} line {node.lineno}: {ast.unparse(node)}"


@pytest.mark.parametrize("domain", FOLDERS)
def test_money_is_rounded_by_the_runtime_helper_only(domain: str) -> None:
    """No domain writes a rounding helper of its own, and the tools, the rules and the policy check
    round through `taue.envs.runtime.money` only."""
    helpers = [found for path in python_files(domain) for found in _rounding_helpers(path)]
    assert not helpers, helpers
    direct = [
        found
        for name in ("tools.py", "rules.py", "policy_check.py")
        for found in _round_calls(ENVS / domain / name)
    ]
    assert not direct, direct


def _module_level_imports(path: Path) -> Iterator[str]:
    """The modules `path` imports when it is imported (not in functions, not for type checking)."""
    for node in tree(path).body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                break
            if isinstance(inner, ast.ImportFrom) and inner.module:
                yield inner.module
            elif isinstance(inner, ast.Import):
                yield from (alias.name for alias in inner.names)


def test_the_runner_imports_domain_code_only_where_it_serves() -> None:
    """No module of the runner imports `taue.envs` when it is imported: the embedded servers, the agent
    check and the database export load it in the functions that serve a domain in-process."""
    eager = {
        str(path.relative_to(ROOT)): module
        for path in (ROOT / mounts()["taue.runner"]).rglob("*.py")
        for module in _module_level_imports(path)
        if module.startswith("taue.envs")
    }
    assert not eager, eager


def test_nothing_outside_a_domain_imports_its_parts_by_name() -> None:
    """A domain's parts are reached through its `Domain`, so an outside package is a full domain."""
    pattern = "taue.envs.{"
    offenders = [
        str(path.relative_to(ROOT))
        for package, folder in mounts().items()
        if package != "taue.envs"
        for path in (ROOT / folder).rglob("*.py")
        if pattern in path.read_text(encoding="utf-8")
    ]
    assert not offenders, offenders


RECORD_METHODS = ("to_record", "from_record")
BARE_RECORDS = {("telehealth", "MedicationSupplierList"), ("telehealth", "DrugInteraction")}
"""Tables whose published record is a column's value (an array, a bare object), not an object of
fields: the only ones that write their own conversion."""


def _record_overrides(domain: str) -> set[tuple[str, str]]:
    return {
        (domain, node.name)
        for path in python_files(domain)
        for node in ast.walk(tree(path))
        if isinstance(node, ast.ClassDef)
        and any(isinstance(f, ast.FunctionDef) and f.name in RECORD_METHODS for f in node.body)
    }


@pytest.mark.parametrize("domain", FOLDERS)
def test_one_record_conversion_keeps_the_declared_field_order(domain: str) -> None:
    assert _record_overrides(domain) <= BARE_RECORDS
    rows = get_domain(domain).generate(0)
    for table in get_domain(domain).tables:
        row = next((r for r in rows if type(r) is table), None)
        if row is None or (domain, table.__name__) in BARE_RECORDS:
            continue
        record = row.to_record()
        declared = [name for name in (table.record_fields or tuple(table.model_fields)) if name in record]
        assert list(record) == declared, (domain, table.__name__)
