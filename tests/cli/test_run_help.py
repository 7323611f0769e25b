"""`taue run --help` groups its options into panels: the common ones first, then the model agent, the
LLM user, tasks, limits, workers and storage, in a terminal (rich panels) and in a pipe (sections)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.cli.options import RUN_PANELS

COMMON = ["--domains", "--agent", "--user", "--trials", "--out", "--seed", "--concurrency"]


def _in_order(text: str, needles: list[str] | tuple[str, ...]) -> list[int]:
    return [text.index(needle) for needle in needles]


def test_rich_help_lists_the_panels_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app, "rich_markup_mode", "rich")
    result = CliRunner().invoke(app, ["run", "--help"], env={"COLUMNS": "140"}, terminal_width=140)
    assert result.exit_code == 0, result.output
    titles = re.findall(r"╭─ (.+?) ─", result.output)
    assert titles == list(RUN_PANELS)
    common = result.output[: result.output.index(f"╭─ {RUN_PANELS[1]} ")]
    positions = _in_order(common, [f"{flag} " for flag in COMMON])
    assert positions == sorted(positions)
    assert "--user-model" not in common and "--max-turns" not in common


def test_plain_help_keeps_the_panels_as_sections_in_order() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "taue", "run", "--help"], capture_output=True, text=True, check=True
    )
    headings = [line[:-1] for line in done.stdout.splitlines() if line and not line[0].isspace()]
    assert headings[1:] == list(RUN_PANELS)  # after "Usage: ..."
    sections = done.stdout.split("\n\n")
    options = next(section for section in sections if section.startswith("Options:"))
    positions = _in_order(options, [f"  {flag} " for flag in COMMON])
    assert positions == sorted(positions)
    limits = next(section for section in sections if section.startswith("Limits:"))
    assert "--max-turns" in limits and "--turn-timeout" in limits and "--domains" not in limits
