"""`taue agent ...`: check an agent against protocol v1, or serve the built-in model agent over it."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from taue.cli.options import check_base_url, fail, parse_price_table

if TYPE_CHECKING:
    from taue.runner.conformance import CheckReport

agent_app = typer.Typer(
    help="Black-box agents over agent protocol v1 (docs/agent-protocol.md).", no_args_is_help=True
)
console = Console(stderr=True, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.add_typer(agent_app, name="agent")


_fail = fail


@agent_app.command("check")
def check(
    url: Annotated[str, typer.Argument(help="The agent's base URL, e.g. http://127.0.0.1:8080.")],
    turn_timeout: Annotated[
        float, typer.Option(min=0.1, help="Seconds a turn may take; slower replies are violations.")
    ] = 30.0,
    max_turns: Annotated[int, typer.Option(min=1, max=50, help="User turns to play at most.")] = 4,
    task_id: Annotated[
        str | None, typer.Option(help="Airline task to play (default: the shortest neutral task).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Run one short airline episode against the agent; list every violation and warning.

    A failed MUST (what the runner relies on) is a violation, a failed SHOULD a warning. Exit 0 when
    no MUST fails (warnings or not), 1 on any violation, 2 on bad arguments.
    """
    import asyncio

    from taue.runner.conformance import check_agent

    if not url.startswith(("http://", "https://")):
        raise _fail(f"URL must start with http:// or https://, got {url!r}")
    try:
        report = asyncio.run(check_agent(url, turn_timeout, max_turns, task_id))
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(report.as_json(), indent=2))
    else:
        _print_report(report)
    if not report.ok:
        raise typer.Exit(1)


MARKS = {"ok": "[green]ok  [/green]", "must": "[red]FAIL[/red]", "should": "[yellow]warn[/yellow]"}


def _print_report(report: CheckReport) -> None:
    for result in report.results:
        mark = MARKS["ok" if result.ok else result.level]
        console.print(f"{mark} {result.detail}", markup=True, highlight=False)
    console.print(
        f"episode: task {report.task_id}, {_count(report.turns, 'turn')}, "
        f"{_count(report.tool_calls, 'MCP tool call')}, ended by {report.ended_by}"
    )
    warnings = f"[yellow]{_count(len(report.warnings), 'warning')}[/yellow] (SHOULD points)"
    if report.ok:
        verdict = "[green]conforms to agent protocol v1[/green]"
        console.print(f"{verdict}, {warnings}" if report.warnings else verdict)
    else:
        violations = f"[red]{_count(len(report.violations), 'protocol violation')}[/red] (MUST points)"
        console.print(f"{violations}, {warnings}" if report.warnings else violations)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


@agent_app.command("serve")
def serve(
    model: Annotated[str, typer.Option(help="Model name sent to the endpoint.")],
    base_url: Annotated[
        str, typer.Option(help="OpenAI-compatible endpoint (key: TAUE_AGENT_API_KEY or OPENAI_API_KEY).")
    ],
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")] = 8080,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    temperature: Annotated[float, typer.Option(min=0.0, max=2.0, help="Sampling temperature.")] = 0.0,
    seed: Annotated[int | None, typer.Option(help="Seed passed to the endpoint.")] = 0,
    max_tool_calls_per_turn: Annotated[int, typer.Option(min=1, help="Tool calls allowed per turn.")] = 30,
    turn_timeout: Annotated[
        float, typer.Option(min=0.1, help="Timeout of one model request, seconds.")
    ] = 120.0,
    price_table: Annotated[
        Path | None, typer.Option(help='JSON {"MODEL": {"input": $/1M tokens, "output": $/1M tokens}}.')
    ] = None,
) -> None:
    """Serve the built-in model agent over agent protocol v1 (then: taue run --agent http://HOST:PORT)."""
    import asyncio

    from taue.runner.agent_server import AgentServer
    from taue.runner.agents import AgentOptions
    from taue.runner.agents.model_agent import ModelAgent

    check_base_url("--base-url", base_url)
    options = AgentOptions(
        model=model,
        base_url=base_url,
        temperature=temperature,
        seed=seed,
        max_tool_calls_per_turn=max_tool_calls_per_turn,
        turn_timeout=turn_timeout,
        price_table=parse_price_table(price_table),
    )
    try:
        server = AgentServer(lambda: ModelAgent("model", options), host=host, port=port)
    except OSError as exc:
        raise _fail(f"cannot listen on {host}:{port}: {exc}") from None

    async def main() -> None:
        await server.start()
        console.print(f"model agent ({model} at {base_url}) serving agent protocol v1 on {server.url}")
        await server.wait()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
