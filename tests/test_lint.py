"""The code base is ruff clean (part of the one test command)."""

from __future__ import annotations

import subprocess
import sys

from tests.paths import ROOT


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", str(ROOT)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
