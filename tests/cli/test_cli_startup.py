"""`taue --help` and every command start without loading servers, models or gRPC: command modules
import what they need inside the command (the CPU figure is measured by bench/cli_startup.py)."""

from __future__ import annotations

import json
import subprocess
import sys

from taue.cli.commands.emotion import ROUTE_HELP
from taue.cli.commands.gate import METRICS
from taue.runner.gate import Metric
from taue.simulator.classifier import ROUTES

HEAVY = (
    "mcp",
    "sqlmodel",
    "sqlalchemy",
    "grpc",
    "numpy",
    "httpx2",
    "openai",
    "fastapi",
    "uvicorn",
    "asyncio",
)


def test_the_cli_imports_no_heavy_module() -> None:
    code = (
        "import sys, json; import taue.cli; "
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))"
    )
    loaded = json.loads(
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    )
    assert loaded == []


def test_help_still_lists_every_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "taue", "--help"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0
    for command in (
        "run",
        "summary",
        "tasks",
        "serve",
        "merge",
        "emotion",
        "episode",
        "gate",
        "judge",
        "agent",
    ):
        assert command in result.stdout, command


def test_choices_written_out_for_speed_match_their_sources() -> None:
    assert tuple(m.value for m in Metric) == METRICS
    assert f"Features: {' | '.join(ROUTES)}." == ROUTE_HELP
