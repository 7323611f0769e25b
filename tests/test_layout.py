"""The folder mapping, `taue.layout.mounts()`, is written once: every place that names the folders of
the `taue` namespace reads it or agrees with it (CONTRIBUTING.md, "The folder mapping"). setup.py's
use of it and the Dockerfile's copies are checked in tests/deploy/test_compose.py."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from importlib.util import find_spec
from pathlib import Path

import pytest

from taue.layout import mounts
from tests.paths import ROOT

Rows = set[tuple[str, str]]
"""A table's (package, folder) pairs."""

PACKAGE_CELL = re.compile(r"`(taue[\w.<>]*)`")
FOLDER_CELL = re.compile(r"`([^`]+)/`")
README_CELL = re.compile(r"`([^`]+)/` \(import `([^`]+)`\)")


def table_rows(text: str) -> Iterator[list[str]]:
    """The cells of each markdown table row in `text`."""
    for line in text.splitlines():
        if line.lstrip().startswith("|"):
            yield [cell.strip() for cell in line.strip().strip("|").split(" | ")]


def package_folder_rows(text: str) -> Rows:
    """Rows of a `| package | folder | concern |` table (taue/__init__.py, docs/architecture.md)."""
    rows = set()
    for cells in table_rows(text):
        package = PACKAGE_CELL.fullmatch(cells[0])
        folder = FOLDER_CELL.fullmatch(cells[1]) if len(cells) > 1 else None
        if package and folder:
            rows.add((package[1], folder[1]))
    return rows


def readme_rows(text: str) -> Rows:
    """Rows of the README's `| folder | concern |` table whose folder says what it imports as."""
    return {(m[2], m[1]) for cells in table_rows(text) if (m := README_CELL.fullmatch(cells[0]))}


def package_of(folder: str) -> str | None:
    """The import name of a repository folder under the mapping; None outside every mounted folder."""
    found = [(name, top) for name, top in mounts().items() if folder == top or folder.startswith(f"{top}/")]
    if not found:
        return None
    name, top = max(found, key=lambda pair: len(pair[1]))
    return name + folder.removeprefix(top).replace("/", ".")


def init_docstring() -> str:
    return ast.get_docstring(ast.parse((ROOT / "taue" / "__init__.py").read_text(encoding="utf-8"))) or ""


TABLES: dict[str, Callable[[], Rows]] = {
    "taue/__init__.py": lambda: package_folder_rows(init_docstring()),
    "docs/architecture.md": lambda: package_folder_rows((ROOT / "docs/architecture.md").read_text()),
    "README.md": lambda: readme_rows((ROOT / "README.md").read_text()),
}


@pytest.mark.parametrize("document", TABLES)
def test_the_table_lists_every_mount_and_no_wrong_folder(document: str) -> None:
    rows = TABLES[document]()
    wrong = sorted((package, folder) for package, folder in rows if package_of(folder) != package)
    assert not wrong, f"{document}: rows that taue/layout.py contradicts: {wrong}"
    missing = sorted(set(mounts().items()) - rows)
    assert not missing, f"{document}: no row for the mounts {missing}"


def test_the_table_readers_read_tables() -> None:
    assert package_folder_rows("| `taue.x` | `x/` | c |\n| `taue.y` | — | c |") == {("taue.x", "x")}
    assert readme_rows("| `x/` (import `taue.x`) | c |\n| `y/` | c |") == {("taue.x", "x")}
    assert package_of("agent-runner/agents") == "taue.runner.agents"
    assert package_of("taue/cli") == "taue.cli" and package_of("k8s") is None


@pytest.mark.parametrize("package", mounts())
def test_every_mount_is_the_package_it_names(package: str) -> None:
    spec = find_spec(package)
    assert spec is not None and spec.origin is not None, f"{package} is not importable"
    assert Path(spec.origin).resolve() == ROOT / mounts()[package] / "__init__.py"


def python_files() -> Iterator[Path]:
    yield ROOT / "setup.py"
    for folder in ("taue", "tests"):
        yield from (ROOT / folder).rglob("*.py")


def test_no_other_module_keeps_a_copy_of_the_mapping() -> None:
    """A bare "agent-runner" string is how a copy of the mapping starts; read taue.layout instead."""
    folder = mounts()["taue.runner"]
    copies = sorted(
        path.relative_to(ROOT).as_posix()
        for path in python_files()
        if path != ROOT / "taue" / "layout.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value == folder
    )
    assert not copies, f"modules that name the folders themselves: {copies}"
