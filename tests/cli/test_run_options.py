"""`taue run` and `taue tracer rollout` gather every option into `RunOptions`, and nothing else: the
command function only parses and calls (taue/cli/run_options.py)."""

from __future__ import annotations

from dataclasses import fields

import pytest
import typer.main

from taue.cli import app
from taue.cli.run_options import RunOptions


@pytest.mark.parametrize("path", [("run",), ("tracer", "rollout")])
def test_run_options_hold_every_option_of_the_run_commands(path: tuple[str, ...]) -> None:
    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]  # type: ignore[attr-defined]  # a group's subcommand
    options = {param.name for param in command.params} - {"config"}  # --config only sets defaults
    assert options == {field.name for field in fields(RunOptions)}
