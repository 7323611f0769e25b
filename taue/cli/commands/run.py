"""`taue run` and `taue summary`; `taue tracer rollout` is `run` on the training split.

One factory makes both run commands, so every flag of an evaluation run (sharding, workers,
remote services, resume) works the same for rollouts that collect training data.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer

from taue.cli.options import (
    console,
    fail,
    parse_domains,
    parse_env_urls,
    parse_location,
    parse_price_table,
    parse_shard,
    stdout_console,
)
from taue.cli.settings import SettingsCommand, SettingsFile

if TYPE_CHECKING:
    from taue.runner.embedded import Services
    from taue.runner.runner import RunConfig
    from taue.runner.storage import RunLocation


def register(app: typer.Typer) -> None:
    run_command = make_run_command(
        default_split="eval",
        default_trials=3,
        out_prefix="",
        doc="Run the benchmark; rerunning the same command completes only the missing episodes.",
    )
    app.command("run", cls=SettingsCommand)(run_command)
    app.command("summary")(summary)


def make_run_command(
    default_split: str, default_trials: int, out_prefix: str, doc: str
) -> Callable[..., None]:
    """A run command whose --split, --trials and run-directory name default as given."""

    def run(
        domains: Annotated[str, typer.Option(help="Comma-separated domains, or `all`.")] = "airline,retail",
        agent: Annotated[
            str,
            typer.Option(help="Agent under test: oracle, pester, model, http://HOST:PORT, a2a://HOST:PORT."),
        ] = "oracle",
        user: Annotated[str, typer.Option(help="User simulator backend: scripted or llm.")] = "scripted",
        user_model: Annotated[str | None, typer.Option(help="Model of the llm user backend.")] = None,
        user_base_url: Annotated[
            str | None,
            typer.Option(help="OpenAI-compatible endpoint of the llm user (key: TAUE_USER_API_KEY)."),
        ] = None,
        model: Annotated[
            str | None, typer.Option(help="Model of the built-in agent (--agent model).")
        ] = None,
        base_url: Annotated[
            str | None,
            typer.Option(help="OpenAI-compatible endpoint of --agent model (key: TAUE_AGENT_API_KEY)."),
        ] = None,
        max_tool_calls_per_turn: Annotated[
            int, typer.Option(min=1, help="Built-in model agent's cap per turn.")
        ] = 30,
        enable_thinking: Annotated[
            bool | None,
            typer.Option(
                "--thinking/--no-thinking",
                help="Send chat_template_kwargs enable_thinking true/false to the model agent's and the "
                "llm user's endpoints (Qwen3-family models; default: send nothing).",
            ),
        ] = None,
        trials: Annotated[int, typer.Option(min=1, help="Trials per task (k of pass^k).")] = default_trials,
        concurrency: Annotated[int, typer.Option(min=1, max=4096, help="Episodes in flight at once.")] = 32,
        seed: Annotated[int, typer.Option(help="Run seed: same seed, same conversations and results.")] = 0,
        out: Annotated[
            str | None,
            typer.Option(
                help="Run directory, or an object-store URL: s3://BUCKET/PREFIX, gs://…, az://…, file://… "
                "(default: runs/AGENT-USER-seedSEED, rollout-… for rollouts)."
            ),
        ] = None,
        split: Annotated[
            str, typer.Option(help="eval (the benchmark's tasks) or train (the training split).")
        ] = default_split,
        tasks: Annotated[
            str, typer.Option(help="all, emotional (no twins) or neutral (twins only).")
        ] = "all",
        limit: Annotated[
            int | None, typer.Option(min=1, help="Only the first N selected tasks of each domain (by id).")
        ] = None,
        task_id: Annotated[
            list[str] | None, typer.Option("--task-id", help="Only these tasks (repeatable).")
        ] = None,
        condition: Annotated[
            str | None,
            typer.Option(help="Play every emotional task under this condition id (see taue emotion list)."),
        ] = None,
        max_turns: Annotated[int, typer.Option(min=1, help="Agent turns before the episode is cut.")] = 200,
        max_tool_calls: Annotated[
            int, typer.Option(min=1, help="Tool calls before the episode is cut.")
        ] = 200,
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
            str | None,
            typer.Option(help="Run name stored in every record (default: the --out folder's name)."),
        ] = None,
        shard: Annotated[
            str | None, typer.Option(help="I/N: run only shard I of N of the sorted (task, trial) list.")
        ] = None,
        workers: Annotated[
            str,
            typer.Option(
                help="Worker processes, each with its own embedded servers: N (1-64), or auto: one per "
                f"core once --concurrency gives each {WORKER_CONCURRENCY} episodes in flight "
                f"({WAITING_WORKER_CONCURRENCY} when they wait on models or a remote agent), else 1."
            ),
        ] = "auto",
        price_table: Annotated[
            Path | None,
            typer.Option(help='JSON {"MODEL": {"input": $/1M tokens, "output": $/1M}}: agent and user cost.'),
        ] = None,
        quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
        repair: Annotated[
            bool,
            typer.Option(
                "--repair",
                help="First drop the lines of results.jsonl and errors.jsonl that are not valid records "
                "(a backup copy is kept); their episodes then run again.",
            ),
        ] = False,
        task_set: Annotated[
            list[str] | None, typer.Option("--task-set", help="Imported task set to run (repeatable).")
        ] = None,
        allow_endpoint_change: Annotated[
            bool,
            typer.Option(
                help="Resume a run whose settings differ only in a model endpoint's URL (--base-url, "
                "--user-base-url); the change is recorded in run.json."
            ),
        ] = False,
        config: SettingsFile = None,
    ) -> None:
        import asyncio

        from taue.contracts.emotions import BY_ID, CONDITIONS
        from taue.runner.agents import AgentOptions, validate_agent_spec
        from taue.runner.embedded import Services
        from taue.runner.interaction import interaction_stats
        from taue.runner.lifecycle import Interrupted
        from taue.runner.runner import RunConfig, StorageLost, before_exit
        from taue.scorer.metrics import summarize

        env_urls = parse_env_urls(env or [])
        names = parse_domains(",".join(task_set) if task_set else domains, frozenset(env_urls))
        try:
            validate_agent_spec(agent, AgentOptions(model=model, base_url=base_url))
        except ValueError as exc:
            raise fail(str(exc)) from None
        if user == "llm" and not (user_model and user_base_url):
            raise fail(
                "--user llm needs --user-model NAME and --user-base-url URL (an OpenAI-compatible endpoint)"
            )
        if split not in ("eval", "train"):
            raise fail(f"--split must be eval or train, not {split!r}")
        default_out = Path("runs") / re.sub(
            r"[^A-Za-z0-9_.-]+", "_", f"{out_prefix}{agent}-{user}-seed{seed}"
        )
        run_dir = parse_location(default_out if out is None else out)  # `--out ''` is refused, not defaulted
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
            split=split,
            tasks=tasks,
            limit=limit,
            task_ids=task_id or None,
            condition=condition,
            max_turns=max_turns,
            max_tool_calls=max_tool_calls,
            turn_timeout=turn_timeout,
            price_table=parse_price_table(price_table),
            enable_thinking=enable_thinking,
        )
        if condition is not None and condition not in BY_ID:
            raise fail(f"unknown condition {condition!r}; ids look like {CONDITIONS[0].id!r}")
        services = Services(env=env_urls, simulator=simulator, scorer=scorer)
        config.shard = parse_shard(shard)
        tasks_at_most = limit * len(names) if limit else len(task_id) if task_id else None
        in_flight = concurrency if tasks_at_most is None else min(concurrency, tasks_at_most * trials)
        worker_count = resolve_workers(workers, in_flight, episodes_wait(config.agent, config.user))
        if repair:
            repair_results(run_dir)
        try:
            settings = RunSettings(concurrency, worker_count, quiet, allow_endpoint_change)
            report = asyncio.run(_run(config, run_dir, services, settings))
            before_exit()
        except ValueError as exc:
            raise fail(str(exc)) from None
        except StorageLost as exc:
            raise fail(str(exc), 1) from None
        except Interrupted as exc:
            console.print(
                f"{exc}: episodes in flight cancelled and deleted, finished ones kept in "
                f"{run_dir.shown('results.jsonl')}; rerun the same command to run the rest"
            )
            raise typer.Exit(exc.exit_code) from None
        retried = f", {report.retries} retried (errors.jsonl)" if report.retries else ""
        console.print(
            f"{report.completed} episodes run, {report.skipped} already done, {report.failed} failed "
            f"(infrastructure; rerun to retry){retried} -> {run_dir.shown('results.jsonl')}"
        )
        print_summary(summarize(r.outcome() for r in report.records), interaction_stats(report.records))
        if report.failed:
            raise typer.Exit(1)

    run.__doc__ = doc
    return run


WORKER_CONCURRENCY = 32
"""Episodes in flight each worker gets under `--workers auto`: a worker costs its start-up (seconds of
CPU) and its own servers, which fewer episodes in flight do not pay back (docs/performance.md)."""
WAITING_WORKER_CONCURRENCY = 64
"""The same for episodes that wait on a model or a remote agent: each takes little CPU, so a second
worker pays back only from about 128 in flight (at 64 it matched one process's rate at 1.7x the CPU
per episode; docs/performance.md)."""


def episodes_wait(agent: str, user: str) -> bool:
    """Whether the run's episodes spend their time waiting: on a model (the model agent, the LLM
    user) or on a remote agent."""
    return agent == "model" or user == "llm" or "://" in agent


def resolve_workers(value: str, concurrency: int, waiting: bool = False) -> int:
    """`--workers`: N, or auto: one per usable core, each with WORKER_CONCURRENCY episodes in flight,
    WAITING_WORKER_CONCURRENCY when the episodes wait (`episodes_wait`); `concurrency` is the
    episodes that can be in flight, fewer than --concurrency in a small run."""
    if value == "auto":
        per_worker = WAITING_WORKER_CONCURRENCY if waiting else WORKER_CONCURRENCY
        return max(1, min(usable_cores(), concurrency // per_worker))
    if not value.isdigit() or not 1 <= int(value) <= 64:
        raise fail(f"--workers must be a number from 1 to 64 or auto, not {value!r}")
    return int(value)


def usable_cores() -> int:
    """The cores this process may run on, fewer when a cgroup CPU quota (a container's) says so."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()
        if quota != "max":
            cores = min(cores, max(1, -(-int(quota) // int(period))))
    except (OSError, ValueError):
        pass
    return cores


class RunSettings(NamedTuple):
    """How a run is carried out (none of it changes its results)."""

    concurrency: int
    workers: int
    quiet: bool
    allow_endpoint_change: bool


async def _run(config: RunConfig, run_dir: RunLocation, services: Services, settings: RunSettings):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from taue.runner.endpoints import endpoint_problems
    from taue.runner.lifecycle import until_signalled
    from taue.runner.runner import execute_run

    admin_token = _admin_token()
    problems = await endpoint_problems(config)  # before anything is written
    if problems:
        raise ValueError("; ".join(problems))
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=settings.quiet,
    ) as progress:
        bar = progress.add_task("episodes", total=None)

        def update(done: int, total: int) -> None:
            progress.update(bar, completed=done, total=total)

        # SIGTERM/SIGINT: in-flight episodes are cancelled and deleted, then `Interrupted` (exit 143/130).
        running = execute_run(
            config,
            run_dir,
            services,
            settings.concurrency,
            update,
            admin_token,
            settings.workers,
            settings.allow_endpoint_change,
        )
        return await until_signalled(running)


def repair_results(run_dir: RunLocation) -> None:
    """`--repair`: drop the run's bad lines (keeping a copy), holding the run directory's lock."""
    from taue.runner.results import ResultsFile
    from taue.runner.run_lock import RunLock

    if not run_dir.exists():
        return  # a new run: nothing to repair
    results = ResultsFile(run_dir)
    try:
        with RunLock(run_dir):
            dropped = results.drop_bad_lines()
    except ValueError as exc:  # the lock held by another run, a file that cannot be written, a store
        raise fail(str(exc)) from None
    for part in dropped:
        entries = "entry" if part.count == 1 else "entries"
        console.print(f"repair: dropped {part.count} bad {entries} of {part.shown} (a copy: {part.backup})")
    if not dropped:
        console.print(f"repair: no bad entries in {results.shown}")


def summary(
    run_dir: Annotated[
        str, typer.Argument(help="A run directory (holding results.jsonl), or its object-store URL.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the metrics as JSON.")] = False,
    judge_model: Annotated[
        str | None,
        typer.Option(help="Optional LLM judge: adds intent_misread and emotion_ignored labels to failures."),
    ] = None,
    judge_base_url: Annotated[
        str | None,
        typer.Option(help="OpenAI-compatible endpoint of --judge-model (key: TAUE_JUDGE_API_KEY)."),
    ] = None,
    judge_cache: Annotated[
        Path | None,
        typer.Option(
            help="The judge's answers file (default: ~/.cache/taue/llm-judge.jsonl; never one inside a run)."
        ),
    ] = None,
) -> None:
    """Metrics of a finished or partial run: Avg@k, pass^k, average reward, UNSATISFIED rate, and how
    the agent talked (`interaction`: tool calls against questions to the user)."""
    from taue.runner.interaction import interaction_stats
    from taue.runner.results import ResultsFileError
    from taue.runner.storage import StorageError
    from taue.scorer.metrics import summarize

    if (judge_model is None) != (judge_base_url is None):
        raise fail("--judge-model and --judge-base-url go together")
    if judge_base_url is not None and not judge_base_url.startswith(("http://", "https://")):
        raise fail(f"--judge-base-url must start with http:// or https://, got {judge_base_url!r}")
    location = parse_location(run_dir)
    judge = (judge_model, judge_base_url, judge_cache) if judge_model and judge_base_url else None
    try:
        records = _records(location)
        failures = run_failure_categories(location, records, judge)
        retries = _retries(location)
    except (StorageError, ResultsFileError) as exc:
        raise fail(str(exc)) from None
    metrics = summarize(record.outcome() for record in records)
    interaction = interaction_stats(records)
    if as_json:
        extra = {"interaction": interaction, "failure_categories": failures, "retries": retries}
        typer.echo(json.dumps({**metrics, **extra}, indent=2, sort_keys=True))
    else:
        print_summary(metrics, interaction)
        print_failures(failures)
        if retries:
            console.print(f"retries: {retries} episodes rerun after infrastructure errors (errors.jsonl)")


def _records(location: RunLocation) -> list:
    from taue.runner.results import ResultsFile

    results = ResultsFile(location)
    if not results.exists():
        raise fail(f"{results.shown} does not exist")
    return results.load()


def _retries(location: RunLocation) -> int:
    """Episode-level retries: the runner reran an episode after an infrastructure error."""
    from taue.runner.results import ResultsFile

    return sum(1 for entry in ResultsFile(location).errors() if entry.get("kind") == "retry")


def run_failure_categories(
    run_dir: Path | RunLocation, records: list, judge: tuple[str, str, Path | None] | None = None
) -> dict:
    """The failure categories of a run: its records, plus its infrastructure errors not rerun since;
    with `judge` (model, base URL, cache file or None), the LLM judge's labels too (exit 1 when its
    endpoint fails)."""
    from taue.report.failures import attribute_records, failure_categories
    from taue.report.run_data import open_infra_errors
    from taue.runner.results import CONFIG
    from taue.runner.storage import RunLocation

    location = RunLocation.parse(run_dir)
    config = json.loads(location.read_text(CONFIG)) if location.exists(CONFIG) else {}
    open_errors = open_infra_errors(location, records)
    failures = attribute_records(records, config.get("split", "eval"))
    if judge is None:
        return failure_categories(failures, infra_errors=len(open_errors))
    from taue.report.llm_judge import JudgeSettings, JudgeUnavailable, judge_failures

    settings = JudgeSettings.from_env(*judge)
    try:
        result = judge_failures(records, failures, settings, config.get("split", "eval"))
    except JudgeUnavailable as exc:
        raise fail(str(exc), 1) from None
    except OSError as exc:
        raise fail(f"cannot use the judge cache {settings.cache_file}: {exc.strerror or exc}") from None
    reused = len(result.failures) - result.asked
    console.print(f"llm judge {settings.model}: {result.asked} asked, {reused} from {settings.cache_file}")
    stats = failure_categories(result.failures, infra_errors=len(open_errors))
    return {**stats, "llm_judge": result.block()}


def print_failures(stats: dict) -> None:
    """Why the failed episodes failed: one category each (docs/reports.md); then the LLM judge's
    labels, as shares of the failures it judged, when it was asked."""
    from rich.table import Table

    if not stats["failed"]:
        return
    table = Table(title=f"failure categories ({stats['failed']} failed episodes)")
    for column in ("category", "episodes", "share"):
        table.add_column(column, justify="left" if column == "category" else "right")
    for name, count in stats["counts"].items():
        table.add_row(name, str(count), f"{stats['shares'][name]:.1%}")
    judge = stats.get("llm_judge")
    if judge is not None:
        table.caption = f"judge: {judge['model']}, {judge['judged']} judged, {judge['errors']} judge errors"
        table.rows[-1].end_section = True
        for label, count in judge["counts"].items():
            table.add_row(f"judge: {label}", str(count), f"{judge['shares'][label]:.1%}")
    stdout_console().print(table)


def print_summary(metrics: dict, interaction: dict | None = None) -> None:
    """The run summary: headline, neutral twins, the breakdowns of the headline, the emotion delta,
    then the interaction figures."""
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
    stdout_console().print(table)
    delta = metrics["emotion_delta"]
    if delta is not None:
        stdout_console().print(
            f"emotion delta (emotional − neutral pass^1, {delta['pairs']} twin pairs): "
            f"{delta['delta']:+.3f}, 95% CI [{delta['ci_low']:+.3f}, {delta['ci_high']:+.3f}]"
        )
    if interaction is not None and interaction["episodes"]:
        print_interaction(interaction)


def print_interaction(stats: dict) -> None:
    """Tool calls against questions to the user, overall, by domain and by emotion family."""
    from rich.table import Table

    table = Table(title="interaction (questions: agent messages with a question mark)")
    columns = ("group", "episodes", "calls/ep", "questions/ep", "calls/question", "calls > questions")
    for column in (*columns, "needless q/ep"):
        table.add_column(column, justify="right" if column != "group" else "left")

    def cell(value: float | None, form: str = ".2f") -> str:
        return "-" if value is None else format(value, form)

    def row(name: str, m: dict) -> None:
        table.add_row(
            name,
            str(m["episodes"]),
            cell(m["tool_calls_per_episode"]),
            cell(m["questions_per_episode"]),
            cell(m["tool_calls_per_question"]),
            cell(m["more_calls_than_questions"], ".1%"),
            cell(m["needless_questions_per_episode"]),
        )

    row("all", stats)
    for key in ("by_domain", "by_family"):
        for name, group in stats[key].items():
            row(f"{key[3:]}: {name}", group)
    stdout_console().print(table)


def _admin_token() -> str | None:
    """The admin token of the services this command talks to (TAUE_ADMIN_TOKEN or its file)."""
    from taue.contracts.integrity import admin_token_from_env

    try:
        return admin_token_from_env()
    except ValueError as exc:
        raise fail(str(exc)) from None
