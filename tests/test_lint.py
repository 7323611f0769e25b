"""The code base is ruff clean and ruff formatted, mypy finds no error anywhere in `taue`, and every
`# type: ignore` says which error it silences and why (part of the one test command)."""

from __future__ import annotations

import re
import subprocess
import sys

from taue.layout import mounts
from tests.paths import ROOT
from tests.typecheck import mypy, real_paths


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", str(ROOT)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_applied() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", str(ROOT)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_no_error_in_any_part() -> None:
    result = mypy(["taue"])
    assert result.returncode == 0, real_paths(result.stdout + result.stderr)
    assert "Success: no issues found" in result.stdout


IGNORE = re.compile(r"#\s*type:\s*ignore(\[[a-z-]+(?:,\s*[a-z-]+)*\])?")


def _ignores_without_reason() -> list[str]:
    """`# type: ignore` comments with no error code, or no reason: a comment line above that starts
    with the code ("# attr-defined: …"), or words after the ignore on its own line."""
    bad = []
    for folder in mounts().values():
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "_pb2" in path.name:
                continue  # generated stubs
            lines = path.read_text(encoding="utf-8").splitlines()
            for number, line in enumerate(lines):
                found = IGNORE.search(line)
                if found is None:
                    continue
                codes = found.group(1)
                above = lines[number - 1].strip() if number else ""
                reason = line[found.end() :].strip(" #") or (
                    codes and above.startswith(f"# {codes.strip('[]').split(',')[0]}")
                )
                if not codes or not reason:
                    bad.append(f"{path.relative_to(ROOT)}:{number + 1}: {line.strip()}")
    return bad


def test_every_type_ignore_names_its_code_and_its_reason() -> None:
    assert not _ignores_without_reason()
