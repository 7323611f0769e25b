"""`taue`: the command line of τ-Emotion-Bench."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from taue.cli import commands

if TYPE_CHECKING:
    from taue.runner.embedded import Services
    from taue.runner.runner import RunConfig

# Everything below the CLI is imported inside the commands that need it, so `taue --help` and every
# command start without loading servers, models or gRPC.

app = typer.Typer(
    help="τ-Emotion-Bench: evaluate tool-calling agents against emotional users.", no_args_is_help=True
)
tasks_app = typer.Typer(help="Inspect and validate task files.", no_args_is_help=True)
serve_app = typer.Typer(help="Run services as long-lived servers.", no_args_is_help=True)
app.add_typer(tasks_app, name="tasks")
app.add_typer(serve_app, name="serve")
console = Console(stderr=True, soft_wrap=True)


def _fail(message: str) -> typer.Exit:
    console.print(f"[red]error:[/red] {message}")
    return typer.Exit(2)


def _parse_domains(value: str, remote: frozenset[str] = frozenset()) -> list[str]:
    """The domain names of `value` (`all`: every registered domain and every one in `remote`); those in
    `remote` are served elsewhere and need no local code."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    if names and set(names) <= remote:
        return names
    from taue.envs.runtime.discovery import domain_names
    from taue.envs.task_sets.loader import is_task_set

    if names == ["all"]:
        return sorted(set(domain_names()) | remote)

    unknown = [
        name for name in names if name not in remote and name not in domain_names() and not is_task_set(name)
    ]
    if not names or unknown:
        raise _fail(
            f"unknown domain(s) {unknown or value!r}; known: {', '.join(domain_names())} "
            "or a task set imported with `taue import tau-bench`"
        )
    return names


def _parse_shard(value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    index, sep, count = value.partition("/")
    if not (sep and index.isdigit() and count.isdigit() and 0 <= int(index) < int(count)):
        raise _fail(f"--shard takes I/N with 0 <= I < N, got {value!r}")
    return int(index), int(count)


def _parse_env_urls(values: list[str]) -> dict[str, str]:
    urls = {}
    for value in values:
        name, sep, url = value.partition("=")
        if not sep or not url.startswith(("http://", "https://")):
            raise _fail(f"--env takes DOMAIN=http://HOST:CONTROL_PORT, got {value!r}")
        urls[name] = url
    return urls


@app.command()
def run(
    domains: Annotated[str, typer.Option(help="Comma-separated domains, or `all`.")] = "airline,retail",
    agent: Annotated[
        str, typer.Option(help="Agent under test: oracle, pester, model, http://HOST:PORT, a2a://HOST:PORT.")
    ] = "oracle",
    user: Annotated[str, typer.Option(help="User simulator backend: scripted or llm.")] = "scripted",
    user_model: Annotated[str | None, typer.Option(help="Model of the llm user backend.")] = None,
    user_base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible endpoint of the llm user (key: TAUE_USER_API_KEY).")
    ] = None,
    model: Annotated[str | None, typer.Option(help="Model of the built-in agent (--agent model).")] = None,
    base_url: Annotated[
        str | None,
        typer.Option(help="OpenAI-compatible endpoint of --agent model (key: TAUE_AGENT_API_KEY)."),
    ] = None,
    max_tool_calls_per_turn: Annotated[
        int, typer.Option(min=1, help="Built-in model agent's cap per turn.")
    ] = 30,
    trials: Annotated[int, typer.Option(min=1, help="Trials per task (k of pass^k).")] = 3,
    concurrency: Annotated[int, typer.Option(min=1, max=4096, help="Episodes in flight at once.")] = 32,
    seed: Annotated[int, typer.Option(help="Run seed: same seed, same conversations and results.")] = 0,
    out: Annotated[
        Path | None, typer.Option(help="Run directory (default runs/AGENT-USER-seedSEED).")
    ] = None,
    tasks: Annotated[str, typer.Option(help="all, emotional (no twins) or neutral (twins only).")] = "all",
    task_id: Annotated[
        list[str] | None, typer.Option("--task-id", help="Only these tasks (repeatable).")
    ] = None,
    condition: Annotated[
        str | None,
        typer.Option(help="Play every emotional task under this condition id (see taue emotion list)."),
    ] = None,
    max_turns: Annotated[int, typer.Option(min=1, help="Agent turns before the episode is cut.")] = 200,
    max_tool_calls: Annotated[int, typer.Option(min=1, help="Tool calls before the episode is cut.")] = 200,
    turn_timeout: Annotated[float, typer.Option(min=0.1, help="Seconds the agent has per turn.")] = 120.0,
    env: Annotated[
        list[str] | None, typer.Option(help="DOMAIN=URL of a running domain's control port (repeatable).")
    ] = None,
    simulator: Annotated[
        str | None, typer.Option(help="HOST:PORT of a running simulator service (default: in-process).")
    ] = None,
    scorer: Annotated[
        str | None, typer.Option(help="HOST:PORT of a running scorer service (default: in-process).")
    ] = None,
    name: Annotated[
        str | None, typer.Option(help="Run name stored in every record (default: the --out folder's name).")
    ] = None,
    shard: Annotated[
        str | None, typer.Option(help="I/N: run only shard I of N of the sorted (task, trial) list.")
    ] = None,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Worker processes (each with its own embedded servers).")
    ] = 1,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    task_set: Annotated[
        list[str] | None, typer.Option("--task-set", help="Imported task set to run (repeatable).")
    ] = None,
) -> None:
    """Run the benchmark; rerunning the same command completes only the missing episodes."""
    import asyncio

    from taue.contracts.emotions import BY_ID, CONDITIONS
    from taue.runner.agents import AgentOptions, validate_agent_spec
    from taue.runner.embedded import Services
    from taue.runner.runner import RunConfig
    from taue.scorer.metrics import summarize

    env_urls = _parse_env_urls(env or [])
    names = _parse_domains(",".join(task_set) if task_set else domains, frozenset(env_urls))
    try:
        validate_agent_spec(agent, AgentOptions(model=model, base_url=base_url))
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if user == "llm" and not (user_model and user_base_url):
        raise _fail(
            "--user llm needs --user-model NAME and --user-base-url URL (an OpenAI-compatible endpoint)"
        )
    run_dir = out or Path("runs") / re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{agent}-{user}-seed{seed}")
    config = RunConfig(
        run=name or run_dir.name,
        domains=names,
        agent=agent,
        user=user,
        user_model=user_model,
        user_base_url=user_base_url,
        model=model,
        base_url=base_url,
        max_tool_calls_per_turn=max_tool_calls_per_turn,
        trials=trials,
        seed=seed,
        tasks=tasks,
        task_ids=task_id or None,
        condition=condition,
        max_turns=max_turns,
        max_tool_calls=max_tool_calls,
        turn_timeout=turn_timeout,
    )
    if condition is not None and condition not in BY_ID:
        raise _fail(f"unknown condition {condition!r}; ids look like {CONDITIONS[0].id!r}")
    services = Services(env=env_urls, simulator=simulator, scorer=scorer)
    config.shard = _parse_shard(shard)
    try:
        report = asyncio.run(_run(config, run_dir, services, concurrency, workers, quiet))
    except ValueError as exc:
        raise _fail(str(exc)) from None
    console.print(
        f"{report.completed} episodes run, {report.skipped} already done, {report.failed} failed "
        f"(infrastructure; rerun to retry) -> {run_dir / 'results.jsonl'}"
    )
    _print_summary(summarize(r.outcome() for r in report.records))
    if report.failed:
        raise typer.Exit(1)


async def _run(
    config: RunConfig, run_dir: Path, services: Services, concurrency: int, workers: int, quiet: bool
):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from taue.runner.runner import execute_run

    admin_token = os.environ.get("TAUE_ADMIN_TOKEN")
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=quiet,
    ) as progress:
        bar = progress.add_task("episodes", total=None)

        def update(done: int, total: int) -> None:
            progress.update(bar, completed=done, total=total)

        return await execute_run(config, run_dir, services, concurrency, update, admin_token, workers)


@app.command()
def summary(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (holding results.jsonl).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the metrics as JSON.")] = False,
) -> None:
    """Metrics of a finished or partial run: Avg@k, pass^k, average reward, UNSATISFIED rate."""
    from taue.runner.results import ResultsFile
    from taue.scorer.metrics import summarize

    results = ResultsFile(run_dir)
    if not results.path.exists():
        raise _fail(f"{results.path} does not exist")
    metrics = summarize(record.outcome() for record in results.load())
    if as_json:
        typer.echo(json.dumps(metrics, indent=2, sort_keys=True))
    else:
        _print_summary(metrics)


def _print_summary(metrics: dict) -> None:
    """The run summary: headline, neutral twins, the breakdowns of the headline, the emotion delta."""
    from rich.table import Table

    table = Table(title=f"τ-Emotion-Bench summary (headline: {metrics['headline']} tasks)")
    for column in ("group", "episodes", "avg reward", "Avg@k", "pass^k", "UNSATISFIED"):
        table.add_column(column, justify="right" if column != "group" else "left")

    def row(name: str, m: dict) -> None:
        top = str(m["trials"]) if m["trials"] else None
        pass_k = f"{m['pass_hat_k'][top]:.3f}" if top else "-"
        table.add_row(
            name,
            str(m["episodes"]),
            f"{m['avg_reward']:.3f}",
            f"{m['avg_at_k']:.3f}",
            pass_k,
            f"{m['unsatisfied_rate']:.1%}",
        )

    row(metrics["headline"], metrics)
    if metrics["neutral"] is not None and metrics["headline"] != "neutral":
        row("neutral twins", metrics["neutral"])
    for key in ("by_domain", "by_family", "by_politeness", "by_urgency", "by_trust"):
        for name, group in metrics.get(key, {}).items():
            row(f"{key[3:]}: {name}", group)
    Console().print(table)
    delta = metrics["emotion_delta"]
    if delta is not None:
        Console().print(
            f"emotion delta (emotional − neutral pass^1, {delta['pairs']} twin pairs): "
            f"{delta['delta']:+.3f}, 95% CI [{delta['ci_low']:+.3f}, {delta['ci_high']:+.3f}]"
        )


@tasks_app.command("list")
def tasks_list(
    domain: Annotated[str | None, typer.Option(help="Only this domain.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    task_set: Annotated[str | None, typer.Option(help="Only this imported task set.")] = None,
    split: Annotated[
        str, typer.Option(help="eval (the benchmark tasks and twins) or train (the Tracer training split).")
    ] = "eval",
) -> None:
    """Each task's id, domain, emotion condition (null for a neutral twin), twin, gold call count and
    whether it is a policy challenge (part of the request must be refused)."""
    from rich.table import Table

    from taue.envs.runtime.discovery import domain_names

    if split not in ("eval", "train"):
        raise _fail(f"--split must be eval or train, not {split!r}")
    domain = task_set or domain
    names = _parse_domains(domain) if domain else list(domain_names())
    rows = []
    for name in names:
        for task in _load_tasks(name, split):
            rows.append(
                {
                    "id": task.id,
                    "domain": task.domain,
                    "condition": task.condition_id,
                    "twin": task.twin,
                    "actions": len(task.evaluation.actions),
                    "refusal": any(goal.refusal_expected for goal in task.user_scenario.goals),
                    "provenance": task.provenance.model_dump(),
                }
            )
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table()
    for column in ("id", "domain", "condition", "twin", "actions", "refusal"):
        table.add_column(column)
    for r in rows:
        cells = (r["id"], r["domain"], r["condition"] or "-", r["twin"] or "-", str(r["actions"]))
        table.add_row(*cells, "yes" if r["refusal"] else "")
    Console().print(table)


def _load_tasks(name: str, split: str = "eval"):
    from taue.contracts.tasks import TaskFileError
    from taue.envs.runtime.discovery import get_domain

    try:
        domain = get_domain(name)
        return domain.train_tasks if split == "train" else domain.tasks
    except TaskFileError as exc:
        raise _fail(str(exc)) from None


@tasks_app.command("validate")
def tasks_validate(
    domain: Annotated[str | None, typer.Option(help="Only this domain.")] = None,
    task_set: Annotated[str | None, typer.Option(help="Only this imported task set.")] = None,
) -> None:
    """Check schema, twins, goal targets, outputs, and that every ground-truth action replays."""
    import asyncio

    from taue.envs.runtime.discovery import domain_names, get_domain
    from taue.envs.runtime.task_checks import task_set_problems

    domain = task_set or domain
    names = _parse_domains(domain) if domain else list(domain_names())
    bad = 0
    for name in names:
        tasks = _load_tasks(name)
        problems = asyncio.run(task_set_problems(get_domain(name), tasks))
        for problem in problems:
            console.print(f"[red]{name}[/red]: {problem}")
        bad += len(problems)
        console.print(f"{name}: {len(tasks)} tasks, {len(problems)} problems")
    if bad:
        raise typer.Exit(1)


@app.command()
def merge(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories to combine (e.g. the shards).")],
    out: Annotated[Path, typer.Option(help="Directory for the merged run.")],
) -> None:
    """Combine shard runs into one run, identical to an unsharded run of the same settings."""
    from taue.runner.merge import MergeError, merge_runs

    try:
        report = merge_runs(run_dirs, out)
    except MergeError as exc:
        raise _fail(str(exc)) from None
    console.print(f"{report.episodes} episodes from {len(run_dirs)} runs -> {out / 'results.jsonl'}")
    if report.missing:
        console.print(
            f"[yellow]{report.missing} planned episodes are missing; rerun the shards that lack them"
        )
        raise typer.Exit(1)


@serve_app.command("simulator")
def serve_simulator(
    port: Annotated[int, typer.Option(help="gRPC port.")] = 50051,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
) -> None:
    """Serve the user simulator over gRPC (taue.v1.Simulator, health, reflection)."""
    from taue.simulator.service import build_server

    _serve_grpc(build_server, host, port, "simulator")


@serve_app.command("scorer")
def serve_scorer(
    port: Annotated[int, typer.Option(help="gRPC port.")] = 50052,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
) -> None:
    """Serve the scorer over gRPC (taue.v1.Scorer, health, reflection); it owns the tasks."""
    from taue.scorer.service import build_server

    _serve_grpc(build_server, host, port, "scorer")


def _serve_grpc(build, host: str, port: int, name: str) -> None:
    import asyncio

    async def serve() -> None:
        server = build(host, port)  # grpc.aio servers belong to the loop they are created in
        console.print(f"{name}: gRPC on {server.address} (SIGTERM stops it cleanly)")
        await server.serve_until_signalled()

    asyncio.run(serve())


@serve_app.command("env")
def serve_env(
    domain: Annotated[str, typer.Argument(help="The domain to serve.")],
    mcp_port: Annotated[int, typer.Option(help="Agent-facing MCP port.")] = 8000,
    control_port: Annotated[int, typer.Option(help="Control port (never give it to agents).")] = 9000,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    public_host: Annotated[str | None, typer.Option(help="Host name agents use for the MCP port.")] = None,
    allowed_host: Annotated[
        list[str] | None, typer.Option(help="Allowed Host header on the MCP port (repeatable; host:port).")
    ] = None,
) -> None:
    """Serve one domain: MCP on --mcp-port, control API on --control-port (admin token: TAUE_ADMIN_TOKEN)."""
    import asyncio

    from taue.envs.runtime.discovery import get_domain
    from taue.envs.runtime.server import DomainServer

    _parse_domains(domain)
    server = DomainServer(
        get_domain(domain),
        host=host,
        mcp_port=mcp_port,
        control_port=control_port,
        public_host=public_host,
        allowed_hosts=allowed_host,
        admin_token=os.environ.get("TAUE_ADMIN_TOKEN"),
    )
    console.print(f"{domain}: MCP {server.mcp_url}/episodes/<id>/mcp, control {server.control_url}")
    asyncio.run(server.serve_until_signalled())


def _register_command_modules() -> None:
    """Each module of `taue.cli.commands` adds its commands with `register(app)`."""
    for module in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{module.name}").register(app)


_register_command_modules()


def main() -> None:
    try:
        app()
    except BrokenPipeError:  # e.g. `taue tasks list --json | head`
        sys.exit(0)
