"""`taue run` and `taue summary`; `taue tracer rollout` is `run` on the training split.

One factory makes both run commands, so every flag of an evaluation run (sharding, workers,
remote services, resume) works the same for rollouts that collect training data.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from taue.cli.options import (
    LIMITS_PANEL,
    MODEL_PANEL,
    STORAGE_PANEL,
    TASKS_PANEL,
    USER_PANEL,
    WORKERS_PANEL,
    console,
    fail,
    parse_location,
    stdout_console,
)
from taue.cli.run_options import PlannedRun, RunOptions, plan_run
from taue.cli.settings import SettingsCommand, SettingsFile
from taue.cli.tables import print_summary
from taue.cli.trust_options import AllowUnverified, KeyFile, TrustedKeys, check_runs, key_ring, status_of
from taue.runner.worker_count import WAITING_WORKER_CONCURRENCY, WORKER_CONCURRENCY

if TYPE_CHECKING:
    from taue.contracts.run import LoadedRun, Split
    from taue.report.failure_tables import RunFailures
    from taue.report.llm_judge import JudgeSettings
    from taue.runner.runner import RunReport
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
    default_split: Split, default_trials: int, out_prefix: str, doc: str
) -> Callable[..., None]:
    """A run command whose --split, --trials and run-directory name default as given."""

    def run(
        domains: Annotated[str, typer.Option(help="Comma-separated domains, or `all`.")] = "airline,retail",
        agent: Annotated[
            str,
            typer.Option(help="Agent under test: oracle, pester, model, http://HOST:PORT, a2a://HOST:PORT."),
        ] = "oracle",
        user: Annotated[str, typer.Option(help="User simulator backend: scripted or llm.")] = "scripted",
        trials: Annotated[int, typer.Option(min=1, help="Trials per task (k of pass^k).")] = default_trials,
        out: Annotated[
            str | None,
            typer.Option(
                help="Run directory, or an object-store URL: s3://BUCKET/PREFIX, gs://…, az://…, file://… "
                "(default: runs/AGENT-USER-seedSEED, rollout-… for rollouts)."
            ),
        ] = None,
        seed: Annotated[int, typer.Option(help="Run seed: same seed, same conversations and results.")] = 0,
        concurrency: Annotated[int, typer.Option(min=1, max=4096, help="Episodes in flight at once.")] = 32,
        quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
        model: Annotated[
            str | None,
            typer.Option(rich_help_panel=MODEL_PANEL, help="Model of the built-in agent (--agent model)."),
        ] = None,
        base_url: Annotated[
            str | None,
            typer.Option(
                rich_help_panel=MODEL_PANEL,
                help="OpenAI-compatible endpoint of --agent model (key: TAUE_AGENT_API_KEY).",
            ),
        ] = None,
        max_tool_calls_per_turn: Annotated[
            int, typer.Option(rich_help_panel=MODEL_PANEL, min=1, help="Built-in model agent's cap per turn.")
        ] = 30,
        enable_thinking: Annotated[
            bool | None,
            typer.Option(
                "--thinking/--no-thinking",
                rich_help_panel=MODEL_PANEL,
                help="Send chat_template_kwargs enable_thinking true/false to the model agent's and the "
                "llm user's endpoints (Qwen3-family models; default: send nothing).",
            ),
        ] = None,
        price_table: Annotated[
            Path | None,
            typer.Option(
                rich_help_panel=MODEL_PANEL,
                help='JSON {"MODEL": {"input": $/1M tokens, "output": $/1M}}: agent and user cost.',
            ),
        ] = None,
        user_model: Annotated[
            str | None, typer.Option(rich_help_panel=USER_PANEL, help="Model of the llm user backend.")
        ] = None,
        user_base_url: Annotated[
            str | None,
            typer.Option(
                rich_help_panel=USER_PANEL,
                help="OpenAI-compatible endpoint of the llm user (key: TAUE_USER_API_KEY).",
            ),
        ] = None,
        split: Annotated[
            str,
            typer.Option(
                rich_help_panel=TASKS_PANEL,
                help="eval (the benchmark's tasks) or train (the training split).",
            ),
        ] = default_split,
        tasks: Annotated[
            str,
            typer.Option(
                rich_help_panel=TASKS_PANEL, help="all, emotional (no twins) or neutral (twins only)."
            ),
        ] = "all",
        limit: Annotated[
            int | None,
            typer.Option(
                rich_help_panel=TASKS_PANEL,
                min=1,
                help="Only the first N selected tasks of each domain (by id).",
            ),
        ] = None,
        task_id: Annotated[
            list[str] | None,
            typer.Option("--task-id", rich_help_panel=TASKS_PANEL, help="Only these tasks (repeatable)."),
        ] = None,
        condition: Annotated[
            str | None,
            typer.Option(
                rich_help_panel=TASKS_PANEL,
                help="Play every emotional task under this condition id (see taue emotion list).",
            ),
        ] = None,
        task_set: Annotated[
            list[str] | None,
            typer.Option(
                "--task-set", rich_help_panel=TASKS_PANEL, help="Imported task set to run (repeatable)."
            ),
        ] = None,
        strict_policy: Annotated[
            bool,
            typer.Option(
                "--strict-policy",
                rich_help_panel=TASKS_PANEL,
                help="A write the user had not approved costs the episode (reward 0) in imported task "
                "sets too; in the benchmark's own domains it always does.",
            ),
        ] = False,
        max_turns: Annotated[
            int,
            typer.Option(rich_help_panel=LIMITS_PANEL, min=1, help="Agent turns before the episode is cut."),
        ] = 200,
        max_tool_calls: Annotated[
            int,
            typer.Option(rich_help_panel=LIMITS_PANEL, min=1, help="Tool calls before the episode is cut."),
        ] = 200,
        turn_timeout: Annotated[
            float, typer.Option(rich_help_panel=LIMITS_PANEL, min=0.1, help="Seconds the agent has per turn.")
        ] = 120.0,
        workers: Annotated[
            str,
            typer.Option(
                rich_help_panel=WORKERS_PANEL,
                help="Worker processes, each with its own embedded servers: N (1-64), or auto: one per "
                f"core once --concurrency gives each {WORKER_CONCURRENCY} episodes in flight "
                f"({WAITING_WORKER_CONCURRENCY} when they wait on models or a remote agent), else 1.",
            ),
        ] = "auto",
        shard: Annotated[
            str | None,
            typer.Option(
                rich_help_panel=WORKERS_PANEL,
                help="I/N: run only shard I of N of the sorted (task, trial) list.",
            ),
        ] = None,
        env: Annotated[
            list[str] | None,
            typer.Option(
                rich_help_panel=WORKERS_PANEL,
                help="DOMAIN=URL of a running domain's control port (repeatable).",
            ),
        ] = None,
        simulator: Annotated[
            str | None,
            typer.Option(
                rich_help_panel=WORKERS_PANEL,
                help="HOST:PORT of a running simulator service (default: in-process).",
            ),
        ] = None,
        scorer: Annotated[
            str | None,
            typer.Option(
                rich_help_panel=WORKERS_PANEL,
                help="HOST:PORT of a running scorer service (default: in-process).",
            ),
        ] = None,
        name: Annotated[
            str | None,
            typer.Option(
                rich_help_panel=STORAGE_PANEL,
                help="Run name stored in every record (default: the --out folder's name); without --out "
                "the run goes to runs/NAME (a shard: runs/NAME/shard-I).",
            ),
        ] = None,
        repair: Annotated[
            bool,
            typer.Option(
                "--repair",
                rich_help_panel=STORAGE_PANEL,
                help="First drop the lines of results.jsonl and errors.jsonl that are not valid records "
                "(a backup copy is kept); their episodes then run again.",
            ),
        ] = False,
        allow_endpoint_change: Annotated[
            bool,
            typer.Option(
                rich_help_panel=STORAGE_PANEL,
                help="Resume a run whose settings differ only in a model endpoint's URL (--base-url, "
                "--user-base-url); the change is recorded in run.json.",
            ),
        ] = False,
        config: SettingsFile = None,
    ) -> None:
        options = RunOptions(
            domains=domains,
            agent=agent,
            user=user,
            trials=trials,
            out=out,
            seed=seed,
            concurrency=concurrency,
            quiet=quiet,
            model=model,
            base_url=base_url,
            max_tool_calls_per_turn=max_tool_calls_per_turn,
            enable_thinking=enable_thinking,
            price_table=price_table,
            user_model=user_model,
            user_base_url=user_base_url,
            split=split,
            tasks=tasks,
            limit=limit,
            task_id=task_id,
            condition=condition,
            task_set=task_set,
            strict_policy=strict_policy,
            max_turns=max_turns,
            max_tool_calls=max_tool_calls,
            turn_timeout=turn_timeout,
            workers=workers,
            shard=shard,
            env=env,
            simulator=simulator,
            scorer=scorer,
            name=name,
            repair=repair,
            allow_endpoint_change=allow_endpoint_change,
        )
        execute(plan_run(options, out_prefix))

    run.__doc__ = doc
    return run


def execute(plan: PlannedRun) -> None:
    """Repair first when asked, run the episodes to the end and print what the run did."""
    if plan.repair:
        repair_results(plan.run_dir)
    report = run_to_end(plan)
    print_run_report(report, plan.run_dir)


def run_to_end(plan: PlannedRun) -> RunReport:
    """Run the episodes; a bad setting, a lost store or a signal ends the command with its message."""
    import asyncio

    from taue.runner.lifecycle import Interrupted
    from taue.runner.runner import StorageLost, before_exit

    try:
        report = asyncio.run(_run(plan))
        before_exit()
    except ValueError as exc:
        raise fail(str(exc)) from None
    except StorageLost as exc:
        raise fail(str(exc), 1) from None
    except Interrupted as exc:
        console.print(
            f"{exc}: episodes in flight cancelled and deleted, finished ones kept in "
            f"{plan.run_dir.shown('results.jsonl')}; rerun the same command to run the rest"
        )
        raise typer.Exit(exc.exit_code) from None
    return report


def print_run_report(report: RunReport, run_dir: RunLocation) -> None:
    """What the run did and its summary; exit 1 when episodes failed."""
    from taue.runner.interaction import interaction_stats
    from taue.scorer.metrics import summarize

    retried = f", {report.retries} retried (errors.jsonl)" if report.retries else ""
    console.print(
        f"{report.completed} episodes run, {report.skipped} already done, {report.failed} failed "
        f"(infrastructure; rerun to retry){retried} -> {run_dir.shown('results.jsonl')}"
    )
    print_summary(summarize(r.outcome() for r in report.records), interaction_stats(report.records))
    if report.failed:
        raise typer.Exit(1)


async def _run(plan: PlannedRun) -> RunReport:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from taue.runner.endpoints import endpoint_problems
    from taue.runner.lifecycle import until_signalled
    from taue.runner.runner import execute_run

    config, settings = plan.config, plan.settings
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
            plan.run_dir,
            plan.services,
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
    key_file: KeyFile = None,
    trusted_keys: TrustedKeys = None,
    allow_unverified: AllowUnverified = False,
) -> None:
    """Metrics of a finished or partial run: Avg@k, pass^k, average reward, UNSATISFIED rate, and how
    the agent talked (`interaction`: tool calls against questions to the user), and its verification
    status: signed, self-signed, consistent or UNVERIFIED (refused unless --allow-unverified)."""
    from taue.contracts.run import RunSummary
    from taue.report.failure_tables import failures_table
    from taue.runner.interaction import interaction_stats
    from taue.runner.results import ResultsFile, load_run
    from taue.runner.storage import StorageError
    from taue.scorer.metrics import summarize

    judge = judge_settings(judge_model, judge_base_url, judge_cache)
    ring = key_ring(key_file, trusted_keys)
    location = parse_location(run_dir)
    try:
        results = ResultsFile(location)
        if not results.exists():
            raise fail(f"{results.shown} does not exist")
        run = load_run(location)
    except (StorageError, ValueError) as exc:  # ValueError: a bad line, a damaged run.json
        raise fail(str(exc)) from None
    (trust,) = check_runs([location], ring, allow_unverified, "summarises")
    try:
        failures = failure_categories(run, judge)
    except (StorageError, ValueError) as exc:
        raise fail(str(exc)) from None
    metrics = summarize(record.outcome() for record in run.records)
    interaction = interaction_stats(run.records)
    extra = {
        "interaction": interaction,
        "failure_categories": failures.categories,
        "retries": run.retries,
        "verification": status_of(trust),
    }
    result = RunSummary.model_validate({**metrics.model_dump(), **extra})
    if as_json:
        typer.echo(result.to_json())
        return
    stdout_console().print(trust.line(), markup=False, highlight=False)
    print_summary(metrics, interaction)
    if (table := failures_table(failures.categories)) is not None:
        stdout_console().print(table)
    if run.retries:
        console.print(f"retries: {run.retries} episodes rerun after infrastructure errors (errors.jsonl)")


def judge_settings(model: str | None, base_url: str | None, cache: Path | None) -> JudgeSettings | None:
    """The LLM judge of `taue summary` (--judge-model and --judge-base-url, together), or None."""
    if (model is None) != (base_url is None):
        raise fail("--judge-model and --judge-base-url go together")
    if base_url is not None and not base_url.startswith(("http://", "https://")):
        raise fail(f"--judge-base-url must start with http:// or https://, got {base_url!r}")
    if not (model and base_url):
        return None
    from taue.report.llm_judge import JudgeSettings

    return JudgeSettings.from_env(model, base_url, cache)


def failure_categories(run: LoadedRun, judge: JudgeSettings | None) -> RunFailures:
    """`taue.report.failure_tables.run_failure_categories`, its judge's problems as one-line errors
    (exit 1 when the judge's endpoint fails) and its use of the judge printed."""
    from taue.report.failure_tables import JudgeCacheError, run_failure_categories
    from taue.report.llm_judge import JudgeUnavailable

    try:
        failures = run_failure_categories(run, judge)
    except JudgeUnavailable as exc:
        raise fail(str(exc), 1) from None
    except JudgeCacheError as exc:
        raise fail(str(exc)) from None
    if failures.judge is not None:
        console.print(failures.judge.line())
    return failures


def _admin_token() -> str | None:
    """The admin token of the services this command talks to (TAUE_ADMIN_TOKEN or its file)."""
    from taue.contracts.integrity import admin_token_from_env

    try:
        return admin_token_from_env()
    except ValueError as exc:
        raise fail(str(exc)) from None
