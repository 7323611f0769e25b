"""A run: every (task, trial) of the chosen domains, concurrently, resumable.

Episodes already in the results file are skipped, so rerunning a command completes only what is
missing. Infrastructure failures are retried with backoff; if they persist, the episode is logged
to errors.jsonl and left missing (a rerun retries it), never recorded as the agent's failure.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import multiprocessing
import ssl
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from queue import Empty
from typing import Any

import httpx2
from pydantic import BaseModel

from taue.contracts.emotions import condition
from taue.contracts.tasks import Task
from taue.runner.agents import AgentOptions
from taue.runner.catalog import DomainCatalog, fetch_catalog, local_catalog
from taue.runner.control import ControlClient, InfraError
from taue.runner.embedded import Services, embedded_services
from taue.runner.episode import Harness, Limits, episode_seed, run_episode
from taue.runner.manifest import RunManifest, run_manifest
from taue.runner.results import CONFIG, EpisodeRecord, ResultsFile
from taue.runner.storage import RunLocation, StorageError
from taue.scorer.client import ScorerCallError, ScorerClient
from taue.simulator.client import SimulatorCallError, SimulatorClient
from taue.simulator.session import UserOptions

RETRY_DELAYS = (0.2, 1.0, 3.0)


class RunConfig(BaseModel):
    """What defines a run; stored as run.json and checked when a run directory is reused."""

    run: str
    domains: list[str]
    agent: str
    user: str = "scripted"
    user_model: str | None = None
    user_base_url: str | None = None
    model: str | None = None
    """Model of the built-in model agent (`--agent model`)."""
    base_url: str | None = None
    max_tool_calls_per_turn: int = 30
    trials: int = 3
    seed: int = 0
    split: str = "eval"
    """eval (the benchmark's tasks) or train (the training split, for rollouts that make training data)."""
    tasks: str = "all"
    """Which tasks: all, emotional (no neutral twins) or neutral (twins only)."""
    limit: int | None = None
    """Only the first N selected tasks of each domain (by id)."""
    task_ids: list[str] | None = None
    shard: tuple[int, int] | None = None
    """(I, N): only the I-th of N deterministic slices of the sorted (task, trial) list."""
    condition: str | None = None
    """Play every emotional task under this emotion condition instead of its own (a sweep)."""
    max_turns: int = 200
    max_tool_calls: int = 200
    turn_timeout: float = 120.0
    price_table: dict[str, dict[str, float]] | None = None
    """$ per million input and output tokens by model name: the agent's and the LLM user's cost."""
    enable_thinking: bool | None = None
    """Qwen3-family thinking on/off for the model agent and the LLM user (None: nothing sent)."""
    task_set_hash: str | None = None
    """sha256 of the tasks of the run's domains and split, as the servers serve them (set by the
    runner): runs are comparable only on the same task set. None in runs made before it was kept."""
    manifest: RunManifest | None = None
    """What the run was made with (version, commit, image, models and endpoints), set by the runner
    when the run directory is made; never compared when a run resumes or shards merge."""


@dataclass
class Plan:
    domains: dict[str, DomainCatalog]
    episodes: list[tuple[DomainCatalog, Task, int]] = field(default_factory=list)


def with_condition(task: Task, condition_id: str) -> Task:
    """The task played under another emotion condition (neutral twins stay neutral)."""
    if task.emotion is None:
        return task
    chosen = condition(condition_id)
    emotion = task.emotion.model_copy(update=chosen.model_dump())
    return task.model_copy(update={"emotion": emotion})


def select_tasks(domain: DomainCatalog, which: str, task_ids: list[str] | None) -> list[Task]:
    tasks = domain.tasks
    if which == "emotional":
        tasks = [t for t in tasks if t.emotion is not None]
    elif which == "neutral":
        tasks = [t for t in tasks if t.emotion is None]
    elif which != "all":
        raise ValueError(f"--tasks must be all, emotional or neutral, not {which!r}")
    if task_ids is not None:
        tasks = [t for t in tasks if t.id in set(task_ids)]
    return tasks


def planned_tasks(config: RunConfig, catalogs: dict[str, DomainCatalog]) -> list[tuple[DomainCatalog, Task]]:
    """The tasks of the run's domains it selects, each as it will be played (its condition applied)."""
    chosen = []
    for name in config.domains:
        selected = select_tasks(catalogs[name], config.tasks, config.task_ids)
        if config.limit is not None:
            selected = sorted(selected, key=lambda task: task.id)[: config.limit]
        for task in selected:
            if config.condition is not None:
                task = with_condition(task, config.condition)
            chosen.append((catalogs[name], task))
    return chosen


def make_plan(config: RunConfig, catalogs: dict[str, DomainCatalog]) -> Plan:
    """The run's (task, trial) list, sorted, then sliced to its shard.

    Task ids are checked against the whole run, never the shard: a shard may hold none of them.
    """
    plan = Plan(domains={name: catalogs[name] for name in config.domains})
    for catalog, task in planned_tasks(config, catalogs):
        plan.episodes.extend((catalog, task, trial) for trial in range(config.trials))
    if config.task_ids is not None:
        served = {task.id for name in config.domains for task in catalogs[name].tasks}
        unknown = sorted(set(config.task_ids) - served)
        if unknown:
            raise ValueError(f"unknown task ids: {', '.join(unknown)}")
        left_out = sorted(set(config.task_ids) - {task.id for _, task, _ in plan.episodes})
        if left_out:
            limit = "" if config.limit is None else f" --limit {config.limit}"
            raise ValueError(f"task ids that --tasks {config.tasks}{limit} leaves out: {', '.join(left_out)}")
    plan.episodes.sort(key=lambda item: (item[1].id, item[2]))
    if config.shard is not None:
        index, count = config.shard
        plan.episodes = plan.episodes[index::count]
    return plan


def task_set_hash(catalogs: dict[str, DomainCatalog], domains: list[str]) -> str:
    """sha256 of every task of `domains` (each domain's tasks sorted by id, as JSON)."""
    tasks = {
        name: [task.model_dump(mode="json") for task in sorted(catalogs[name].tasks, key=lambda t: t.id)]
        for name in sorted(domains)
    }
    return hashlib.sha256(json.dumps(tasks, sort_keys=True).encode()).hexdigest()


def with_task_set_hash(config: RunConfig, catalogs: dict[str, DomainCatalog]) -> RunConfig:
    found = task_set_hash(catalogs, config.domains)
    if config.task_set_hash not in (None, found):
        raise ValueError(
            f"the servers' tasks (task-set hash {found[:12]}) are not the run's ({config.task_set_hash[:12]})"
        )
    return config.model_copy(update={"task_set_hash": found})


def with_manifest(config: RunConfig) -> RunConfig:
    if config.manifest is not None:
        return config
    remote_agent = config.agent if "://" in config.agent else None  # an http:// or a2a:// agent
    agent_url = config.base_url if config.agent == "model" else remote_agent
    manifest = run_manifest(config.model, agent_url, config.user_model, config.user_base_url)
    return config.model_copy(update={"manifest": manifest})


def prepare_run_dir(run_dir: Path | RunLocation, config: RunConfig) -> None:
    """Create the run directory, or check that an existing one holds the same run."""
    location = RunLocation.parse(run_dir)
    location.make()
    stored = config.model_dump(mode="json")
    if location.exists(CONFIG):
        # Settings added since the directory was made read as their defaults, so old runs resume.
        previous = RunConfig.model_validate(json.loads(location.read_text(CONFIG))).model_dump(mode="json")
        _check_task_set(run_dir, previous.get("task_set_hash"), stored.get("task_set_hash"))
        previous["task_set_hash"] = stored["task_set_hash"]  # a run from before the hash was kept gets it
        stored["manifest"] = previous.get("manifest") or stored["manifest"]  # the first session's
        previous["manifest"] = stored["manifest"]
        if previous != stored:
            changed = sorted(k for k in stored if previous.get(k) != stored[k])
            raise ValueError(
                f"{run_dir} holds a run with different settings ({', '.join(changed)}); "
                "use another --out or the same settings"
            )
    location.write_text(CONFIG, json.dumps(stored, indent=2, sort_keys=True) + "\n")


def _check_task_set(run_dir: Path | RunLocation, before: str | None, now: str | None) -> None:
    if before is not None and now is not None and before != now:
        raise ValueError(
            f"{run_dir} was run on other tasks (task-set hash {before[:12]}, now {now[:12]}); "
            "use another --out"
        )


@dataclass
class RunReport:
    planned: int
    skipped: int
    completed: int
    failed: int
    records: list[EpisodeRecord]


EpisodeKey = tuple[str, str, int]
"""(domain, task id, trial): what a worker process is told to run."""


@dataclass
class Outcome:
    """What running one episode produced: a record, or the infrastructure errors that stopped it."""

    key: EpisodeKey
    record: EpisodeRecord | None = None
    errors: list[str] = field(default_factory=list)


class StorageLost(RuntimeError):
    """The run's object store failed after episodes had started; the ones stored so far are kept."""


async def execute_run(
    config: RunConfig,
    run_dir: Path | RunLocation,
    services: Services | dict[str, str] | None,
    concurrency: int,
    on_progress: Callable[[int, int], None] | None = None,
    admin_token: str | None = None,
    workers: int = 1,
) -> RunReport:
    """Run every episode of `config` missing from `run_dir`.

    `services` says where running services are (a plain dict is read as domain -> control URL);
    whatever is missing is served in-process (the embedded default). With `workers > 1` the
    episodes are spread over that many worker processes, each with its own embedded servers.
    """
    given = services if isinstance(services, Services) else Services(env=services or {})
    catalogs = await load_catalogs(config.domains, given, admin_token, config.split)
    config = with_manifest(with_task_set_hash(config, catalogs))
    plan = make_plan(config, catalogs)
    prepare_run_dir(run_dir, config)
    results = ResultsFile(run_dir)
    results.repair()
    done = {record.key for record in results.load()}
    todo = [(d.name, t.id, trial) for d, t, trial in plan.episodes if (t.id, trial) not in done]
    counts = {"completed": 0, "failed": 0}

    def collect(outcome: Outcome) -> None:
        if outcome.record is not None:
            results.append(outcome.record)
            counts["completed"] += 1
        else:
            domain, task_id, trial = outcome.key
            entry = {"domain": domain, "task_id": task_id, "trial": trial, "termination": "infra_error"}
            results.append_error({**entry, "errors": outcome.errors})
            counts["failed"] += 1
        if on_progress is not None:
            on_progress(counts["completed"] + counts["failed"], len(todo))

    try:
        if workers > 1 and len(todo) > 1:
            await _run_in_workers(config, todo, given, concurrency, admin_token, workers, collect)
        else:
            await run_episodes(config, todo, given, concurrency, admin_token, collect)
        records = results.compact()
    except StorageError as exc:
        raise StorageLost(f"{exc}; the episodes stored before are kept: rerun to resume") from exc
    return RunReport(
        len(plan.episodes), len(plan.episodes) - len(todo), counts["completed"], counts["failed"], records
    )


async def run_episodes(
    config: RunConfig,
    keys: list[EpisodeKey],
    given: Services,
    concurrency: int,
    admin_token: str | None,
    sink: Callable[[Outcome], None],
) -> None:
    """Run the given episodes from this process, reporting each outcome to `sink` as it ends."""
    domains = sorted({domain for domain, _, _ in keys})
    size = min(concurrency, 16) + 4  # httpcore scans every pooled connection per request: keep it small
    transport = httpx2.AsyncHTTPTransport(
        verify=default_ssl_context(),
        limits=httpx2.Limits(max_connections=size, max_keepalive_connections=size),
    )
    async with (
        embedded_services(domains, given) as services,
        httpx2.AsyncClient(transport=transport, timeout=httpx2.Timeout(60.0)) as http,
    ):
        simulator, scorer = SimulatorClient(services.simulator), ScorerClient(services.scorer)
        try:
            await asyncio.gather(simulator.wait_ready(), scorer.wait_ready())
            controls = {name: ControlClient(services.env[name], http, admin_token) for name in domains}
            catalogs = {
                name: await fetch_catalog(control, name, config.split) for name, control in controls.items()
            }
            mine = config.model_copy(update={"domains": domains})
            tasks = {(d.name, t.id): (d, t) for d, t in planned_tasks(mine, catalogs)}
            harness = Harness(
                run=config.run,
                agent=config.agent,
                user=UserOptions(
                    backend=config.user,
                    model=config.user_model,
                    base_url=config.user_base_url,
                    enable_thinking=config.enable_thinking,
                ),
                agent_options=agent_options(config),
                controls=controls,
                simulator=simulator,
                scorer=scorer,
                limits=Limits(config.max_turns, config.max_tool_calls, config.turn_timeout),
                transport=transport,
            )
            semaphore = asyncio.Semaphore(concurrency)

            async def one(key: EpisodeKey) -> None:
                domain, task = tasks[key[:2]]
                async with semaphore:
                    sink(await _with_retries(harness, domain, task, key[2], config.seed))

            await asyncio.gather(*(one(key) for key in keys))
        finally:
            await simulator.close()
            await scorer.close()


async def _with_retries(
    harness: Harness, domain: DomainCatalog, task: Task, trial: int, run_seed: int
) -> Outcome:
    key = (domain.name, task.id, trial)
    seed = episode_seed(run_seed, task.id, trial)
    errors: list[str] = []
    for delay in (*RETRY_DELAYS, None):
        try:
            return Outcome(key, record=await run_episode(harness, domain, task, trial, seed))
        except (InfraError, httpx2.HTTPError, OSError) as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
        except (SimulatorCallError, ScorerCallError) as exc:
            errors.append(str(exc))
            if not exc.retryable:
                break
        except Exception as exc:  # a harness bug must not pass for the agent's failure
            errors.append("".join(traceback.format_exception_only(exc)).strip())
        if delay is not None:
            await asyncio.sleep(delay)
    return Outcome(key, errors=errors)


async def _run_in_workers(
    config: RunConfig,
    todo: list[EpisodeKey],
    given: Services,
    concurrency: int,
    admin_token: str | None,
    workers: int,
    sink: Callable[[Outcome], None],
) -> None:
    """Spread `todo` over worker processes by task; their outcomes stream back through a queue."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    shards = shard_by_task(todo, workers)
    per_worker = max(1, concurrency // workers)
    processes = [
        context.Process(
            target=_worker_main,
            args=(config.model_dump(), shard, given.model_dump(), per_worker, admin_token, queue),
            daemon=True,
        )
        for shard in shards
        if shard
    ]
    for process in processes:
        process.start()
    loop = asyncio.get_running_loop()
    try:
        for _ in range(len(todo)):
            item = await loop.run_in_executor(None, _next_outcome, queue, processes)
            sink(item)
    finally:
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()


async def load_catalogs(
    domains: list[str], given: Services, admin_token: str | None = None, split: str = "eval"
) -> dict[str, DomainCatalog]:
    """Each domain's catalog: from its server when one is given, else from its package (embedded)."""
    catalogs = {name: local_catalog(name, split) for name in domains if name not in given.env}
    remote = [name for name in domains if name in given.env]
    if remote:
        async with httpx2.AsyncClient(verify=default_ssl_context(), timeout=httpx2.Timeout(60.0)) as http:
            for name in remote:
                try:
                    control = ControlClient(given.env[name], http, admin_token)
                    catalogs[name] = await fetch_catalog(control, name, split)
                except InfraError as exc:  # before any episode: a setting to fix, not a failure to retry
                    raise ValueError(f"domain {name!r}: {exc}") from exc
    return catalogs


@cache
def default_ssl_context() -> ssl.SSLContext:
    """The default TLS settings, loaded once per process (loading the CA store takes ~30 ms a run)."""
    return httpx2.create_ssl_context()


def agent_options(config: RunConfig) -> AgentOptions:
    return AgentOptions(
        model=config.model,
        base_url=config.base_url,
        max_tool_calls_per_turn=config.max_tool_calls_per_turn,
        turn_timeout=config.turn_timeout,
        seed=config.seed,
        price_table=config.price_table,
        enable_thinking=config.enable_thinking,
    )


def shard_by_task(keys: list[EpisodeKey], shards: int) -> list[list[EpisodeKey]]:
    """Split keys into `shards` lists, all trials of a task in the same one (one replay per task)."""
    tasks = sorted({(domain, task_id) for domain, task_id, _ in keys})
    owner = {task: index % shards for index, task in enumerate(tasks)}
    result: list[list[EpisodeKey]] = [[] for _ in range(shards)]
    for key in keys:
        result[owner[key[:2]]].append(key)
    return result


def _next_outcome(queue: Any, processes: list[Any]) -> Outcome:
    while True:
        try:
            key, record_json, errors = queue.get(timeout=1.0)
        except Empty:
            if not any(process.is_alive() for process in processes):
                raise RuntimeError("every worker process exited before the run finished") from None
            continue
        record = EpisodeRecord.model_validate_json(record_json) if record_json else None
        return Outcome(tuple(key), record, errors)


def _worker_main(
    config: dict[str, Any],
    keys: list[EpisodeKey],
    given: dict[str, Any],
    concurrency: int,
    admin_token: str | None,
    queue: Any,
) -> None:
    def send(outcome: Outcome) -> None:
        record = outcome.record.model_dump_json() if outcome.record else None
        queue.put((outcome.key, record, outcome.errors))

    services = Services.model_validate(given)
    asyncio.run(
        run_episodes(RunConfig.model_validate(config), keys, services, concurrency, admin_token, send)
    )
