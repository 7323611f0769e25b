"""The options of `taue run` and `taue tracer rollout` as one typed value, and what they make: the
run's `RunConfig`, where it is stored, the services it talks to and how it is carried out.

The command function only gathers its options into `RunOptions`; `plan_run` parses and checks them
(one-line errors, exit 2, before anything is made).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from taue.cli.options import (
    check_base_url,
    fail,
    parse_choice,
    parse_domains,
    parse_env_urls,
    parse_location,
    parse_price_table,
    parse_shard,
    parse_workers,
)

if TYPE_CHECKING:
    from taue.contracts.run import RunConfig
    from taue.runner.embedded import Services
    from taue.runner.storage import RunLocation


@dataclass(frozen=True, kw_only=True)
class RunOptions:
    """Every option of a run command as given (flag, `TAUE_<OPTION>` or `--config` file), unparsed.
    The fields follow the help's panels: common, model agent, LLM user, tasks, limits, workers and
    services, storage."""

    domains: str
    agent: str
    user: str
    trials: int
    out: str | None
    seed: int
    concurrency: int
    quiet: bool
    model: str | None
    base_url: str | None
    max_tool_calls_per_turn: int
    enable_thinking: bool | None
    price_table: Path | None
    user_model: str | None
    user_base_url: str | None
    split: str
    tasks: str
    limit: int | None
    task_id: list[str] | None
    condition: str | None
    task_set: list[str] | None
    max_turns: int
    max_tool_calls: int
    turn_timeout: float
    workers: str
    shard: str | None
    env: list[str] | None
    simulator: str | None
    scorer: str | None
    name: str | None
    repair: bool
    allow_endpoint_change: bool
    strict_policy: bool = False

    def default_out(self, prefix: str) -> Path:
        """`runs/NAME` with --name (a shard: `runs/NAME/shard-I`), else `runs/AGENT-USER-seedSEED`
        (with `prefix`: `rollout-` for rollouts), made safe as a name."""
        if self.name:
            folder = Path("runs") / _safe_name(f"{prefix}{self.name}")
            return folder if self.shard is None else folder / f"shard-{self.shard.partition('/')[0]}"
        return Path("runs") / _safe_name(f"{prefix}{self.agent}-{self.user}-seed{self.seed}")


def _safe_name(name: str) -> str:
    """`name` as one folder name: runs of other characters become `_`, and never `.` or `..`."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)
    return "_" if set(safe) <= {"."} else safe


@dataclass(frozen=True)
class RunSettings:
    """How a run is carried out (none of it changes its results)."""

    concurrency: int
    workers: int
    quiet: bool
    allow_endpoint_change: bool


@dataclass(frozen=True)
class PlannedRun:
    """A run command's options, parsed and checked."""

    config: RunConfig
    run_dir: RunLocation
    services: Services
    settings: RunSettings
    repair: bool


def plan_run(options: RunOptions, out_prefix: str) -> PlannedRun:
    """Parse and check the options (exit 2 on the first bad one); nothing is made yet."""
    from taue.contracts.run import SPLITS, TASK_SELECTIONS, RunConfig
    from taue.runner.embedded import Services
    from taue.runner.worker_count import run_workers

    env_urls = parse_env_urls(options.env or [])
    task_sets = ",".join(options.task_set) if options.task_set else None
    names = parse_domains(task_sets or options.domains, frozenset(env_urls))
    check_models(options)
    split = parse_choice("--split", options.split, SPLITS)
    tasks = parse_choice("--tasks", options.tasks, TASK_SELECTIONS)
    workers = parse_workers(options.workers)
    out = options.default_out(out_prefix) if options.out is None else options.out
    run_dir = parse_location(out)  # `--out ''` is refused, not defaulted
    config = RunConfig(
        run=options.name or run_dir.name,
        domains=names,
        agent=options.agent,
        user=options.user,
        user_model=options.user_model,
        user_base_url=options.user_base_url,
        model=options.model,
        base_url=options.base_url,
        max_tool_calls_per_turn=options.max_tool_calls_per_turn,
        trials=options.trials,
        seed=options.seed,
        split=split,
        tasks=tasks,
        limit=options.limit,
        task_ids=options.task_id or None,
        shard=parse_shard(options.shard),
        condition=check_condition(options.condition),
        max_turns=options.max_turns,
        max_tool_calls=options.max_tool_calls,
        turn_timeout=options.turn_timeout,
        price_table=parse_price_table(options.price_table),
        enable_thinking=options.enable_thinking,
        strict_policy=options.strict_policy,
    )
    services = Services(env=env_urls, simulator=options.simulator, scorer=options.scorer)
    count = run_workers(workers, options.concurrency, config)
    settings = RunSettings(options.concurrency, count, options.quiet, options.allow_endpoint_change)
    return PlannedRun(config, run_dir, services, settings, options.repair)


def check_models(options: RunOptions) -> None:
    """The agent spec (with the model agent's model and endpoint) and the llm user's model."""
    from taue.runner.agents import AgentOptions, validate_agent_spec

    check_base_url("--base-url", options.base_url)
    check_base_url("--user-base-url", options.user_base_url)
    try:
        validate_agent_spec(options.agent, AgentOptions(model=options.model, base_url=options.base_url))
    except ValueError as exc:
        raise fail(str(exc)) from None
    if options.user == "llm" and not (options.user_model and options.user_base_url):
        raise fail(
            "--user llm needs --user-model NAME and --user-base-url URL (an OpenAI-compatible endpoint)"
        )


def check_condition(condition: str | None) -> str | None:
    """`--condition`: None, or a condition id of the taxonomy."""
    from taue.contracts.emotions import BY_ID, CONDITIONS

    if condition is not None and condition not in BY_ID:
        raise fail(f"unknown condition {condition!r}; ids look like {CONDITIONS[0].id!r}")
    return condition
