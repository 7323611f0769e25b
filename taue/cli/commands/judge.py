"""`taue judge matrix`: how the scripted user and the scorer judge the reference behaviours."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Annotated

import typer

judge_app = typer.Typer(
    help="Check the judge (scripted user + scorer) against reference behaviours.", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    app.add_typer(judge_app, name="judge")


MATRIX_HELP = (
    "Run the oracle and every judge-suite agent (careful agents in three wordings, liar, honest failer, "
    "stall proposer, echo, silent worker, silent transferer, done-spammer) with the scripted user, one "
    "trial of each emotional task, and print average reward (UNSATISFIED rate) per agent and domain."
)


@judge_app.command("matrix", help=MATRIX_HELP)
def matrix(
    domains: Annotated[str, typer.Option(help="Comma-separated domains or task sets, or `all`.")] = "all",
    agents: Annotated[str | None, typer.Option(help="Comma-separated agents (default: all).")] = None,
    out: Annotated[
        Path | None, typer.Option(help="Keep the runs here (default: a temporary folder).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the matrix as JSON.")] = False,
    write: Annotated[
        Path | None,
        typer.Option(help="Replace the judge-matrix block of this Markdown file (docs/simulator.md)."),
    ] = None,
    concurrency: Annotated[int, typer.Option(min=1)] = 32,
) -> None:
    import asyncio

    from taue.cli import _parse_domains
    from taue.runner.judge import MATRIX_AGENTS, judge_matrix, matrix_markdown, replace_between_markers

    names = _parse_domains(domains)
    chosen = [a.strip() for a in agents.split(",")] if agents else list(MATRIX_AGENTS)
    unknown = [a for a in chosen if a not in MATRIX_AGENTS]
    if unknown:
        typer.echo(f"error: unknown agent(s) {unknown}; known: {', '.join(MATRIX_AGENTS)}", err=True)
        raise typer.Exit(2)
    if write is not None and not write.is_file():
        typer.echo(f"error: {write} is not a file", err=True)
        raise typer.Exit(2)
    with tempfile.TemporaryDirectory() as scratch:
        result = asyncio.run(judge_matrix(names, chosen, out or Path(scratch), concurrency))
    if as_json:
        typer.echo(
            json.dumps(
                {a: {d: c.model_dump() for d, c in row.items()} for a, row in result.items()}, indent=2
            )
        )
    else:
        typer.echo(matrix_markdown(result))
    if write is not None:
        try:
            write.write_text(
                replace_between_markers(write.read_text(encoding="utf-8"), matrix_markdown(result)),
                encoding="utf-8",
            )
        except ValueError as exc:
            typer.echo(f"error: {write}: {exc}", err=True)
            raise typer.Exit(2) from None
