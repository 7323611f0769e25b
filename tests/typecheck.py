"""mypy over the `taue` namespace (CONTRIBUTING.md, "Type checking").

The package's parts live in top-level folders that setup.py mounts under `taue` (`agent-runner/` is
`taue.runner`), and the editable install finds them with an import hook that static tools cannot
read. So this module mirrors the mapping (`taue.layout.mounts()`) as a tree of symbolic links,
`build/typecheck/taue/`, which pyproject.toml's `[tool.mypy] mypy_path` points at; the links point at
the folders themselves, so the tree never goes stale (only a new mount needs a rebuild, which every
run does).

    .venv/bin/python -m tests.typecheck                       # every part of `taue`
    .venv/bin/python -m tests.typecheck taue.tracer taue.scorer   # some of them
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from taue.layout import mounts
from tests.paths import ROOT

TREE = ROOT / "build" / "typecheck"
"""The link tree (`mypy_path` in pyproject.toml)."""


def links() -> dict[str, Path]:
    """The tree's entries: name in `build/typecheck/taue/` -> what it links to."""
    folders = mounts()
    wanted = {
        entry.name: entry for entry in (ROOT / folders.pop("taue")).iterdir() if entry.name != "__pycache__"
    }
    wanted.update({name.removeprefix("taue."): ROOT / folder for name, folder in folders.items()})
    return wanted


def build_tree() -> Path:
    """Bring `build/typecheck/taue/` up to date: a link per entry of `taue/` and per other mount."""
    package = TREE / "taue"
    package.mkdir(parents=True, exist_ok=True)
    wanted = links()
    for present in package.iterdir():
        target = wanted.get(present.name)
        if target is None or not present.is_symlink() or present.readlink() != target:
            if present.is_dir() and not present.is_symlink():
                shutil.rmtree(present)
            else:
                present.unlink()
    for name, target in wanted.items():
        if not (package / name).is_symlink():
            (package / name).symlink_to(target, target_is_directory=target.is_dir())
    return TREE


def mypy(packages: list[str], *options: str) -> subprocess.CompletedProcess[str]:
    """Run mypy (pyproject.toml's config, then `options`) over `packages`, from the repository root."""
    build_tree()
    arguments = [arg for package in packages for arg in ("-p", package)]
    return subprocess.run(
        [sys.executable, "-m", "mypy", *options, *arguments], cwd=ROOT, capture_output=True, text=True
    )


def real_paths(output: str) -> str:
    """mypy's report with each `build/typecheck/…` path replaced by the file's own path."""
    lines = []
    for line in output.splitlines():
        path, sep, rest = line.partition(":")
        if sep and path.startswith(os.path.join("build", "typecheck")):
            path = os.path.relpath(os.path.realpath(ROOT / path), ROOT)
        lines.append(path + sep + rest)
    return "\n".join(lines)


def main() -> int:
    packages = sys.argv[1:] or ["taue"]
    result = mypy(packages)
    print(real_paths(result.stdout + result.stderr))
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
