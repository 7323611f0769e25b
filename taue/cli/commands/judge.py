"""`taue judge matrix`: how the scripted user and the scorer judge the reference behaviours."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Annotated

import typer

WORDING_NAMES = ("natural", "stepwise", "markdown", "verbatim", "everyday", "terse", "empathetic", "numbered")
"""The wordings of `taue.runner.agents.wordings` (named here so that `--help` imports nothing)."""

judge_app = typer.Typer(
    help="Check the judge (scripted user + scorer) against reference behaviours.", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    app.add_typer(judge_app, name="judge")


MATRIX_HELP = (
    "Run the oracle and every judge-suite agent (careful agents in three wordings, acts-without-asking, "
    "liar, honest failer, stall proposer, echo, silent worker, silent transferer, done-spammer; the style "
    "agents asks-payment, offers-options, plan-announcer, policy-paraphraser, warm-verbose, over-claimer) "
    "with the scripted user, one trial of each emotional task, and print average reward (UNSATISFIED rate) "
    "per agent and domain."
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
    wordings: Annotated[
        str | None,
        typer.Option(
            help="Play every fair agent (one-shot, the careful agents, asks-payment, offers-options, "
            "policy-paraphraser) in these wordings (`all`, or "
            "comma-separated: " + ", ".join(WORDING_NAMES) + ") beside the oracle and the gaming agents; "
            "prints one row per agent: average, difference to the oracle, pass rate (refusal-only tasks "
            "left out), UNSATISFIED rate, policy violation rate, per-domain averages."
        ),
    ] = None,
    every: Annotated[int, typer.Option(min=1, help="Play every N-th emotional task of each domain.")] = 1,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes per run.")] = 1,
) -> None:
    import asyncio

    from taue.cli import _parse_domains
    from taue.runner.judge import judge_matrix, matrix_markdown, replace_between_markers

    names = _parse_domains(domains)
    chosen = _agents(agents, wordings)
    if write is not None and not write.is_file():
        typer.echo(f"error: {write} is not a file", err=True)
        raise typer.Exit(2)
    with tempfile.TemporaryDirectory() as scratch:
        result = asyncio.run(
            judge_matrix(names, chosen, out or Path(scratch), concurrency, workers=workers, every=every)
        )
    if wordings is not None:
        _print_wording_matrix(result, names, as_json, write)
        return
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


def _agents(agents: str | None, wordings: str | None) -> list[str]:
    """The agents to play: `--agents`, else the wording matrix's or the judge matrix's own."""
    from taue.runner.agents import BUILT_IN
    from taue.runner.judge import MATRIX_AGENTS, parse_wordings, wording_matrix_agents

    if wordings is not None:
        try:
            default = wording_matrix_agents(parse_wordings(wordings))
        except ValueError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
    else:
        default = list(MATRIX_AGENTS)
    chosen = [a.strip() for a in agents.split(",")] if agents else default
    known = set(MATRIX_AGENTS) | {a for a in BUILT_IN if "@" in a}
    unknown = [a for a in chosen if a not in known]
    if unknown:
        typer.echo(
            f"error: unknown agent(s) {unknown}; known: {', '.join(MATRIX_AGENTS)}, AGENT@WORDING", err=True
        )
        raise typer.Exit(2)
    return chosen


def _print_wording_matrix(result, names: list[str], as_json: bool, write: Path | None) -> None:
    from taue.runner.judge import WORDING_MARKERS, replace_between_markers, rows_markdown, wording_rows

    rows = wording_rows(result, names)
    if as_json:
        typer.echo(json.dumps([row.model_dump() for row in rows], indent=2))
    else:
        typer.echo(rows_markdown(rows))
    if write is not None:
        try:
            text = replace_between_markers(
                write.read_text(encoding="utf-8"), rows_markdown(rows), WORDING_MARKERS
            )
        except ValueError as exc:
            typer.echo(f"error: {write}: {exc}", err=True)
            raise typer.Exit(2) from None
        write.write_text(text, encoding="utf-8")
