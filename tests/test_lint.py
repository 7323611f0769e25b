"""The code base is ruff clean, and mypy clean in the parts listed in `TYPED` (part of the one test
command)."""

from __future__ import annotations

import subprocess
import sys

from tests.paths import ROOT
from tests.typecheck import mypy, real_paths


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", str(ROOT)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


TYPED = [
    "taue.contracts",
    "taue.deploy",
    "taue.proto",
    "taue.scorer",
    "taue.tracer",
    "taue.report",
    "taue.runner",
    "taue.simulator",
    "taue.cli",
]
"""The parts with no mypy error (CONTRIBUTING.md, "Type checking", counts the others' errors)."""


def test_typed_parts_have_no_mypy_error() -> None:
    # silent: the parts these import are analysed for their types, but only these parts' errors count
    result = mypy(TYPED, "--follow-imports=silent")
    assert result.returncode == 0, real_paths(result.stdout + result.stderr)
    assert "Success: no issues found" in result.stdout
