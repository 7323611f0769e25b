"""A run: every (task, trial) of the chosen domains, concurrently, resumable.

Episodes already in the results file are skipped, so rerunning a command completes only what is
missing. Infrastructure failures are retried with backoff, each retry logged to errors.jsonl with its
cause; if they persist, the episode is logged there and left missing (a rerun retries it), never
recorded as the agent's failure.
"""

from __future__ import annotations

import asyncio
import gc
import traceback
import uuid
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx2

from taue.contracts.emotions import condition
from taue.contracts.episode import utc_now
from taue.contracts.http_transport import KEEPALIVE_EXPIRY, http_transport
from taue.contracts.integrity import task_set_hash as hash_of_tasks
from taue.contracts.model_clients import close_model_clients
from taue.contracts.run import EndpointChange, EpisodeRecord, RunConfig
from taue.contracts.run_seal import ManifestBody, SignedManifest, seal_manifest
from taue.contracts.tasks import Task
from taue.runner.agents import AgentOptions
from taue.runner.catalog import DomainCatalog, fetch_catalog, local_catalog
from taue.runner.control import ControlClient, InfraError, control_session
from taue.runner.embedded import Services, embedded_services, with_signing_key
from taue.runner.episode import Harness, Limits, episode_seed, run_episode
from taue.runner.lifecycle import delete_run_episodes
from taue.runner.manifest import run_manifest, without_secrets
from taue.runner.pricing import warm_catalogue
from taue.runner.results import CONFIG, ResultsFile, stored_config, write_config
from taue.runner.run_lock import holding_run_lock
from taue.runner.run_seal import ensure_seal, manifest_body
from taue.runner.storage import RunLocation, StorageError
from taue.scorer.client import ScorerCallError, ScorerClient
from taue.simulator.client import SimulatorCallError, SimulatorClient
from taue.simulator.session import UserOptions

RETRY_DELAYS = (0.2, 1.0, 3.0)
OPENING_AT_ONCE = 32
"""Episodes one process opens at the same time (`Harness.opening`); the others queue for it."""


ENDPOINT_SETTINGS = ("base_url", "user_base_url")
"""Settings a run may change on resume with `--allow-endpoint-change` (with the keys, which run.json
never holds): where the same model is served, not what the run is."""


@dataclass
class Plan:
    domains: dict[str, DomainCatalog]
    episodes: list[tuple[DomainCatalog, Task, int]] = field(default_factory=list)


def with_condition(task: Task, condition_id: str) -> Task:
    """The task played under another emotion condition (neutral twins stay neutral), with an emotion
    text of that condition fitting the task's situation."""
    if task.emotion is None:
        return task
    from taue.simulator.anchors.fit import text_under

    chosen = condition(condition_id)
    stages = task.provenance.stages if task.provenance else {}
    text = text_under(chosen, task.domain, stages)
    emotion = task.emotion.model_copy(update={**chosen.model_dump(), "instruction": text})
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
            raise ValueError(_unknown_task_ids(unknown, config.domains))
        left_out = sorted(set(config.task_ids) - {task.id for _, task, _ in plan.episodes})
        if left_out:
            limit = "" if config.limit is None else f" --limit {config.limit}"
            raise ValueError(f"task ids that --tasks {config.tasks}{limit} leaves out: {', '.join(left_out)}")
    plan.episodes.sort(key=lambda item: (item[1].id, item[2]))
    if config.shard is not None:
        index, count = config.shard
        plan.episodes = plan.episodes[index::count]
    return plan


def _unknown_task_ids(unknown: list[str], domains: list[str]) -> str:
    """One line: which ids belong to another domain (and which), which to none."""
    from taue.envs.runtime.discovery import a_task_of, home_domain

    foreign = [f"{task_id} is {a_task_of(home)}" for task_id in unknown if (home := home_domain(task_id))]
    if not foreign:
        return f"unknown task ids: {', '.join(unknown)}"
    others = [task_id for task_id in unknown if home_domain(task_id) is None]
    listed = ", ".join([*foreign, *(f"{task_id} is unknown" for task_id in others)])
    return f"{listed}, not {', '.join(domains)}"


def task_set_hash(catalogs: dict[str, DomainCatalog], domains: list[str]) -> str:
    """sha256 of every task of `domains` (each domain's tasks sorted by id, as JSON)."""
    return hash_of_tasks({name: catalogs[name].tasks for name in domains})


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


def prepare_run_dir(
    run_dir: Path | RunLocation, config: RunConfig, allow_endpoint_change: bool = False
) -> RunConfig:
    """Create the run directory, or check that an existing one holds the same run; the run as stored
    (with the first session's manifest and run id). With `allow_endpoint_change`, a run whose settings
    differ only in a model endpoint's URL resumes, the change recorded in `endpoint_changes`."""
    location = RunLocation.parse(run_dir)
    location.make()
    stored = config.model_dump(mode="json")
    stored["run_id"] = stored["run_id"] or uuid.uuid4().hex
    if location.exists(CONFIG):
        # Settings added since the directory was made read as their defaults, so old runs resume.
        previous = stored_config(location).model_dump(mode="json")
        _check_task_set(run_dir, previous.get("task_set_hash"), stored.get("task_set_hash"))
        previous["task_set_hash"] = stored["task_set_hash"]  # a run from before the hash was kept gets it
        stored["manifest"] = previous.get("manifest") or stored["manifest"]  # the first session's
        previous["manifest"] = stored["manifest"]
        stored["run_id"] = previous.get("run_id") or stored["run_id"]  # None in runs made before it was kept
        previous["run_id"] = stored["run_id"]
        stored["merged_run_ids"] = previous["merged_run_ids"] = previous.get("merged_run_ids")
        stored["endpoint_changes"] = previous["endpoint_changes"] = previous.get("endpoint_changes")
        changed = sorted(k for k in stored if previous.get(k) != stored[k])
        if changed and allow_endpoint_change and set(changed) <= set(ENDPOINT_SETTINGS):
            stored["endpoint_changes"] = (previous["endpoint_changes"] or []) + [
                EndpointChange(
                    at=utc_now(),
                    setting=key,
                    before=without_secrets(previous.get(key)),
                    after=without_secrets(stored[key]),
                ).model_dump()
                for key in changed
            ]
        elif changed:
            endpoint_only = set(changed) <= set(ENDPOINT_SETTINGS)
            hint = "; --allow-endpoint-change resumes it at the new endpoint" if endpoint_only else ""
            raise ValueError(
                f"{run_dir} holds a run with different settings ({', '.join(changed)}); "
                f"use another --out or the same settings{hint}"
            )
    write_config(location, stored)
    return RunConfig.model_validate(stored)


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
    retries: int = 0
    """Episodes rerun after an infrastructure error (each one a `retry` line of errors.jsonl)."""


EpisodeKey = tuple[str, str, int]
"""(domain, task id, trial): what a worker process is told to run."""


@dataclass
class Outcome:
    """What running one episode produced: a record, or the infrastructure errors that stopped it."""

    key: EpisodeKey
    record: EpisodeRecord | None = None
    errors: list[str] = field(default_factory=list)
    """The cause of each failed attempt, in order."""

    @property
    def retried(self) -> list[str]:
        """The causes of the failed attempts that were run again (all but a final failure)."""
        return self.errors if self.record is not None else self.errors[:-1]

    def error_entries(self) -> list[dict[str, Any]]:
        """Its lines of errors.jsonl: one per retry, then the give-up when no attempt succeeded."""
        domain, task_id, trial = self.key
        episode = {"domain": domain, "task_id": task_id, "trial": trial}
        entries = [
            {**episode, "kind": "retry", "attempt": attempt, "error": cause}
            for attempt, cause in enumerate(self.retried, start=1)
        ]
        if self.record is None:
            entries.append({**episode, "termination": "infra_error", "errors": self.errors})
        return entries


class StorageLost(RuntimeError):
    """The run's object store failed after episodes had started; the ones stored so far are kept."""


@holding_run_lock  # first of all: a second runner on the same directory stops at once
async def execute_run(
    config: RunConfig,
    run_dir: Path | RunLocation,
    services: Services | dict[str, str] | None,
    concurrency: int,
    on_progress: Callable[[int, int], None] | None = None,
    admin_token: str | None = None,
    workers: int = 1,
    allow_endpoint_change: bool = False,
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
    config = prepare_run_dir(run_dir, config, allow_endpoint_change)
    given = with_signing_key(given, config.domains, config.run_id)
    manifest = await sealed_manifest(RunLocation.parse(run_dir), config, catalogs, plan, given, admin_token)
    tokens = {name: given.token(name, admin_token) for name in given.env}
    digest = manifest.digest()
    results = ResultsFile(run_dir)
    results.repair()
    done = {record.key for record in results.load()}
    todo = [(d.name, t.id, trial) for d, t, trial in plan.episodes if (t.id, trial) not in done]
    counts = {"completed": 0, "failed": 0, "retries": 0}

    def collect(outcome: Outcome) -> None:
        for entry in outcome.error_entries():
            results.append_error(entry)
        counts["retries"] += len(outcome.retried)
        if outcome.record is not None:
            results.append(outcome.record)
            counts["completed"] += 1
        else:
            counts["failed"] += 1
        if on_progress is not None:
            on_progress(counts["completed"] + counts["failed"], len(todo))

    try:
        await delete_run_episodes(given.env, config.run_id, tokens)  # a killed session's leftovers
        try:
            if workers > 1 and len(todo) > 1:
                from taue.runner.workers import run_in_workers  # it imports this module

                await run_in_workers(config, todo, given, concurrency, admin_token, workers, collect, digest)
            else:
                await run_episodes(config, todo, given, concurrency, admin_token, collect, digest)
        except asyncio.CancelledError:  # a signal: the records finished before it, in order
            results.compact()
            raise
        records = results.compact()
    except StorageError as exc:
        raise StorageLost(f"{exc}; the episodes stored before are kept: rerun to resume") from exc
    finally:
        await delete_run_episodes(given.env, config.run_id, tokens)
    planned, skipped = len(plan.episodes), len(plan.episodes) - len(todo)
    return RunReport(planned, skipped, counts["completed"], counts["failed"], records, counts["retries"])


async def sealed_manifest(
    location: RunLocation,
    config: RunConfig,
    catalogs: dict[str, DomainCatalog],
    plan: Plan,
    given: Services,
    admin_token: str | None,
) -> SignedManifest:
    """The run's signed manifest (agent-runner/run_seal.py): the stored one on resume, else sealed by
    the run's scorer (the embedded default's scorer signs with the key this process holds)."""
    whole = make_plan(config.model_copy(update={"shard": None}), catalogs)
    body = manifest_body(
        config,
        [(task.id, trial) for _, task, trial in plan.episodes],
        [(task.id, trial) for _, task, trial in whole.episodes],
    )

    async def seal(body: ManifestBody) -> SignedManifest:
        if given.scorer is None:
            return seal_manifest(body, given.key())
        scorer = ScorerClient(given.scorer, token=given.token("scorer", admin_token))
        try:
            return await scorer.seal_manifest(body)
        except ScorerCallError as exc:
            raise ValueError(
                f"the scorer at {given.scorer} could not seal the run's manifest: {exc}"
            ) from None
        finally:
            await scorer.close()

    return await ensure_seal(location, body, seal)


async def run_episodes(
    config: RunConfig,
    keys: list[EpisodeKey],
    given: Services,
    concurrency: int,
    admin_token: str | None,
    sink: Callable[[Outcome], None],
    manifest_sha256: str | None = None,
) -> None:
    """Run the given episodes from this process, reporting each outcome to `sink` as it ends."""
    domains = sorted({domain for domain, _, _ in keys})
    size = min(concurrency, 16) + 4  # our servers answer in milliseconds: a few connections serve many
    limits = httpx2.Limits(
        max_connections=size, max_keepalive_connections=size, keepalive_expiry=KEEPALIVE_EXPIRY
    )
    transport = http_transport(limits)
    async with embedded_services(domains, given) as services, control_session(size) as http:
        # embedded_services starts whatever `given` lacks: both addresses are set
        simulator_address, scorer_address = cast(str, services.simulator), cast(str, services.scorer)
        simulator = SimulatorClient(simulator_address, token=services.token("simulator", admin_token))
        scorer = ScorerClient(scorer_address, token=services.token("scorer", admin_token))
        try:
            await asyncio.gather(simulator.wait_ready(), scorer.wait_ready())
            controls = {
                name: ControlClient(services.env[name], http, services.token(name, admin_token))
                for name in domains
            }
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
                run_id=config.run_id,
                manifest_sha256=manifest_sha256,
                opening=asyncio.Semaphore(OPENING_AT_ONCE),
                strict_policy=config.strict_policy,
            )
            warm_catalogue([(config.model, config.base_url), (config.user_model, config.user_base_url)])
            semaphore = asyncio.Semaphore(concurrency)

            async def one(key: EpisodeKey) -> None:
                domain, task = tasks[key[:2]]
                async with semaphore:
                    sink(await _with_retries(harness, domain, task, key[2], config.seed))

            with settled_heap():
                await _run_all([one(key) for key in keys])
        finally:
            await simulator.close()
            await scorer.close()
            await close_model_clients()
            await transport.aclose()  # the agents' MCP sessions shared it


RUN_GC_THRESHOLD = 10_000
"""Net allocations between collections of the youngest generation while a run's episodes run."""


@contextmanager
def settled_heap() -> Iterator[None]:
    """Take what start-up made (modules, task sets, seed databases, the embedded servers) out of the
    garbage collector's sight while the episodes run: a collection then walks what the episodes made,
    not the whole heap (without this, collections took a fifth or more of a model run's CPU at C = 64;
    docs/performance.md). Given back at the end, so that a process running many runs (tests, the
    Tracer) still collects each run's servers, and start-up's garbage, once they are gone. (No
    collection first: on a test process's heap it cost more than the run.)

    Meanwhile the youngest generation is collected every 10,000 net allocations instead of 700: each
    collection walks every young object of the episodes in flight, so at C = 1,000 they took 13 % of
    the CPU (3.6 of 27 s over 1,000 episodes, 1.5 s at 10,000). The older generations keep their
    ratios, so cyclic garbage is still collected, later; resident memory rose by about 20 MB."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(RUN_GC_THRESHOLD, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def before_exit() -> None:
    """For a process about to exit after a run: freeze the heap, so that the interpreter's last
    garbage collection does not walk all of it (about a second of CPU after a run of 128 episodes)."""
    gc.freeze()


async def _run_all(coroutines: list[Coroutine[Any, Any, None]]) -> None:
    """Run the coroutines concurrently. When one fails or the run is cancelled (a signal), the others
    are cancelled once and awaited: their cleanup (deleting their episodes) needs the clients still
    open, which a bare gather, returning at the first cancelled or failed one, would close under them."""
    tasks = [asyncio.ensure_future(coroutine) for coroutine in coroutines]
    if not tasks:
        return
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks)
    for task in done:
        task.result()  # the first failure, if any


async def _with_retries(
    harness: Harness, domain: DomainCatalog, task: Task, trial: int, run_seed: int
) -> Outcome:
    key = (domain.name, task.id, trial)
    seed = episode_seed(run_seed, task.id, trial)
    errors: list[str] = []
    for delay in (*RETRY_DELAYS, None):
        try:
            return Outcome(key, await run_episode(harness, domain, task, trial, seed), errors)
        except (InfraError, httpx2.HTTPError, OSError) as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
        except (SimulatorCallError, ScorerCallError) as exc:
            errors.append(str(exc))
            if not exc.retryable:
                break
        except Exception as exc:  # a harness bug must not pass for the agent's failure
            errors.append("".join(traceback.format_exception_only(exc)).strip())
        if _stopping():
            raise asyncio.CancelledError  # the cancellation surfaced as another error: no rerun
        if delay is not None:
            await asyncio.sleep(delay)
    return Outcome(key, errors=errors)


def _stopping() -> bool:
    """Whether this task is being cancelled (a signal stops the run)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def load_catalogs(
    domains: list[str], given: Services, admin_token: str | None = None, split: str = "eval"
) -> dict[str, DomainCatalog]:
    """Each domain's catalog: from its server when one is given, else from its package (embedded)."""
    catalogs = {name: local_catalog(name, split) for name in domains if name not in given.env}
    remote = [name for name in domains if name in given.env]
    if remote:
        async with control_session() as http:
            for name in remote:
                try:
                    control = ControlClient(given.env[name], http, given.token(name, admin_token))
                    catalogs[name] = await fetch_catalog(control, name, split)
                except InfraError as exc:  # before any episode: a setting to fix, not a failure to retry
                    raise ValueError(f"domain {name!r}: {exc}") from exc
    return catalogs


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
