"""Hypothesis keeps its caches outside the checkout; the run ends with how many fuzz examples ran (the
long soak's figures come from that line)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis.configuration import set_hypothesis_home_dir

from tests.fuzz.live_servers import TALLY

# The tests write no example database (`database=None`), but Hypothesis also caches Unicode tables and
# the constants of loaded modules under its home directory, by default `.hypothesis/` in the checkout.
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "taue-hypothesis")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TALLY:
        counts = ", ".join(f"{kind}: {count}" for kind, count in sorted(TALLY.items()))
        terminalreporter.write_line(f"fuzz examples run: {sum(TALLY.values())} ({counts})")
