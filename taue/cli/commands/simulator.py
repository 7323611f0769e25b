"""`taue simulator ...`: checks of the user simulator on finished runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

simulator_app = typer.Typer(help="Checks of the user simulator on finished runs.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(simulator_app, name="simulator")


AUDIT_HELP = (
    "Flag user messages that state facts absent from the scenario (hallucinations): emails, ids, numbers "
    "and names found neither in the task's scenario nor in an earlier agent message. Reports the rate of "
    "flagged user messages overall and per emotion."
)


@simulator_app.command("audit", help=AUDIT_HELP)
def audit(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (holding results.jsonl).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the whole report, every flag included, as JSON.")
    ] = False,
    show: Annotated[int, typer.Option(min=0, help="How many flagged messages to print (text output).")] = 10,
) -> None:
    from taue.runner.audit import audit_run

    if not run_dir.is_dir():
        typer.echo(f"error: {run_dir} is not a directory", err=True)
        raise typer.Exit(2)
    try:
        report = audit_run(run_dir)
    except FileNotFoundError as exc:
        typer.echo(f"error: {exc}; give the folder a `taue run --out` wrote", err=True)
        raise typer.Exit(2) from None
    except (ValidationError, json.JSONDecodeError) as exc:
        typer.echo(
            f"error: {run_dir / 'results.jsonl'} is not a results file: {exc}".splitlines()[0], err=True
        )
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
        return
    typer.echo(
        f"{report.episodes} episodes, {report.user_messages} user messages, "
        f"{report.flagged_messages} flagged ({report.rate:.1%})"
    )
    typer.echo(f"{'emotion':20} {'user msgs':>10} {'flagged':>8} {'rate':>7}")
    for emotion, row in report.by_emotion.items():
        typer.echo(
            f"{emotion:20} {row['user_messages']:>10.0f} {row['flagged_messages']:>8.0f} {row['rate']:>7.1%}"
        )
    for flag in report.flags[:show]:
        typer.echo(
            f"- {flag.task_id}#{flag.trial} turn {flag.turn}: {flag.kind} {flag.value!r} in {flag.message!r}"
        )
    if len(report.flags) > show:
        typer.echo(f"... {len(report.flags) - show} more (--show N or --json)")
    if report.skipped:
        typer.echo(f"skipped {len(report.skipped)} episodes whose task is not installed", err=True)
