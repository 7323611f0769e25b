"""Fault injection: each seeded round kills one component with SIGKILL once the K-th record of a run is
written (the runner, one of its two workers, the simulator service or a domain server), resumes the
run, and checks that no episode is lost, none is recorded twice, and every record equals the one an
undisturbed run of the same settings made (wall-clock fields aside).

TAUE_FAULT_SEED and TAUE_FAULT_ROUNDS choose other and more rounds (the long form in
docs/reliability.md)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest
import pytest_asyncio

import taue.runner.runner as runner_module
from taue.contracts.run import EpisodeRecord, RunConfig
from taue.runner.embedded import Services, embedded_services
from taue.runner.results import ResultsFile
from taue.runner.runner import RunReport, execute_run, shard_by_task
from tests.faults.processes import (
    ADMIN_TOKEN,
    TAUE,
    Key,
    Service,
    descendants,
    end_processes,
    recorded_keys,
    sigkill,
    spawned_workers,
    start_logged,
    wait_for_records,
)

pytestmark = [
    pytest.mark.slow,  # starts runner, worker and service processes: ~1 min on 2 cores
    pytest.mark.xdist_group("faults"),  # the undisturbed reference run is made once, on one worker
]

SEED = int(os.environ.get("TAUE_FAULT_SEED", "16"))
ROUNDS = int(os.environ.get("TAUE_FAULT_ROUNDS", "10"))
TRIALS, LIMIT, CONCURRENCY = 2, 6, 4
PLANNED = TRIALS * LIMIT
CONFIG = RunConfig(
    run="faults", domains=["airline"], agent="oracle", user="scripted", trials=TRIALS, limit=LIMIT
)
RUN = [*TAUE, "run", "--domains", "airline", "--agent", "oracle", "--user", "scripted"]
RUN += ["--trials", str(TRIALS), "--limit", str(LIMIT), "--concurrency", str(CONCURRENCY)]
RUN += ["--name", "faults", "--quiet"]
"""`taue run` with the settings of CONFIG."""
COMPONENTS = ("runner", "simulator", "worker", "domain")


@dataclass(frozen=True)
class Fault:
    round: int
    component: str
    after: int
    """Kill once this many records are written (in worker rounds: records of the worker that dies)."""
    worker: int
    """Which of the two workers dies (worker rounds)."""

    @property
    def second_form(self) -> bool:
        """Every other round of a component: a runner with remote services, not embedded ones; a
        service restarted on new ports after the run gave up, not at once on the same ports."""
        return self.round // len(COMPONENTS) % 2 == 1

    @property
    def form(self) -> str:
        if self.component == "runner":
            return "remote" if self.second_form else "embedded"
        if self.component == "worker":
            return f"worker{self.worker}"
        return "restarted-later" if self.second_form else "restarted-at-once"

    def __str__(self) -> str:
        return f"{self.round:02d}-{self.component}-{self.form}-after{self.after}"


def schedule(seed: int, rounds: int) -> list[Fault]:
    """Components in turn; the kill point and the worker drawn from the seed, early enough that
    episodes are still to run when it lands (a worker has half the episodes, two at a time)."""
    rng = random.Random(seed)
    faults = []
    for index in range(rounds):
        component = COMPONENTS[index % len(COMPONENTS)]
        latest = PLANNED // 2 - (CONCURRENCY // 2 if component == "worker" else 0)
        faults.append(Fault(index, component, rng.randint(1, latest), rng.randrange(2)))
    return faults


@dataclass
class Counts:
    """What one (re)run reported: episodes it recorded, found done, gave up as infrastructure errors."""

    completed: int
    skipped: int
    failed: int

    @classmethod
    def of(cls, report: RunReport) -> Counts:
        return cls(report.completed, report.skipped, report.failed)


def comparable(record: EpisodeRecord) -> dict[str, Any]:
    data = record.without_clock()
    data.pop("run_id", None)  # each run directory's own id, should records carry it
    return data


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def shared() -> AsyncIterator[Services]:
    """An airline server, a simulator and a scorer in this process, for every run of the module that
    kills none of them (starting them once saves each run a second of start-up)."""
    async with embedded_services(["airline"], Services(), ADMIN_TOKEN) as services:
        yield services


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def reference(shared: Services, tmp_path_factory: pytest.TempPathFactory) -> dict[Key, dict[str, Any]]:
    """The records of one undisturbed run of the settings every round uses."""
    report = await execute_run(CONFIG, tmp_path_factory.mktemp("reference"), shared, CONCURRENCY)
    assert report.completed == PLANNED and all(record.reward == 1 for record in report.records)
    return {record.key: comparable(record) for record in report.records}


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Service]]:
    """One simulator and one airline server for the module's service rounds, each restarted by the
    round that kills it and reused by the next."""
    logs = tmp_path_factory.mktemp("services")
    running = {kind: Service(kind, logs / f"{kind}.log") for kind in ("simulator", "env")}
    yield running
    for service in running.values():
        service.stop()


@dataclass
class Disturbed:
    """How the run a fault hit ended, and the (task, trial) keys its results file held then."""

    ended: str
    recorded: list[Key]
    repeated: int
    """Episodes recorded more than once (a compacted file keeps one of each: counted from the report)."""
    outlived: list[str]
    """Command lines of the run's processes still alive 5 s after it ended (killed then)."""


@pytest.mark.parametrize("fault", schedule(SEED, ROUNDS), ids=str)
async def test_a_killed_component_loses_and_repeats_nothing(
    fault: Fault,
    reference: dict[Key, dict[str, Any]],
    shared: Services,
    services: dict[str, Service],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = time.monotonic()
    run_dir = tmp_path / "run"
    given = shared
    if fault.component == "runner":
        remote = shared if fault.second_form else None
        hit = await kill_the_runner(fault, remote, run_dir, tmp_path / "runner.log")
    elif fault.component == "worker":
        hit = await kill_a_worker(fault, list(reference), shared, run_dir)
    else:
        service = services["simulator" if fault.component == "simulator" else "env"]
        if fault.second_form:  # the run gives its episodes up at once rather than after 4 s of retries
            monkeypatch.setattr(runner_module, "RETRY_DELAYS", (0.05,))
        hit = await kill_a_service(fault, service, with_service(shared, service), list(reference), run_dir)
        monkeypatch.undo()
        given = with_service(shared, service)  # restarted, maybe on other ports: the rerun uses it
    done = set(hit.recorded)
    resumed = Counts.of(await execute_run(CONFIG, run_dir, given, CONCURRENCY))
    final = ResultsFile(run_dir).load()
    lost = PLANNED - len({record.key for record in final})
    duplicated = hit.repeated + len(done) + resumed.completed - len(final)
    print(
        f"\nfault {fault}: ended={hit.ended} records_before={len(hit.recorded)} resumed={resumed} "
        f"records_after={len(final)} lost={lost} duplicated={duplicated} outlived_5s={hit.outlived} "
        f"seconds={time.monotonic() - started:.1f}"
    )
    assert lost == 0 and duplicated == 0
    assert resumed == Counts(PLANNED - len(done), len(done), 0)
    assert sorted(recorded_keys(run_dir / "results.jsonl")) == sorted(reference)
    assert {record.key: comparable(record) for record in final} == reference


async def kill_the_runner(fault: Fault, remote: Services | None, run_dir: Path, log: Path) -> Disturbed:
    """`taue run` as a process, killed once the K-th record is written; with its own embedded
    services, or using `remote` ones (its episodes on the domain server are left behind then)."""
    where = []
    if remote is not None:
        where = [f"--env=airline={remote.env['airline']}", f"--simulator={remote.simulator}"]
        where.append(f"--scorer={remote.scorer}")
    runner = start_logged([*RUN, *where, "--out", str(run_dir)], log)
    try:
        await asyncio.to_thread(wait_for_records, run_dir / "results.jsonl", fault.after, runner, 120)
        family = descendants(runner.pid)
        sigkill(runner.pid)
        exit_code = await asyncio.to_thread(runner.wait, 30)
    finally:
        if runner.poll() is None:
            runner.kill()
    assert exit_code == -signal.SIGKILL, f"fault {fault}: the runner ended before the kill"
    recorded = recorded_keys(run_dir / "results.jsonl")
    assert len(recorded) < PLANNED, f"fault {fault} landed after the run had finished"
    outlived = await asyncio.to_thread(end_processes, family, 5.0)
    return Disturbed(f"exit {exit_code}", recorded, len(recorded) - len(set(recorded)), outlived)


async def kill_a_worker(fault: Fault, planned: list[Key], shared: Services, run_dir: Path) -> Disturbed:
    """The runner in this process with two worker processes, one of which is killed once K of its
    episodes are recorded: it still has episodes to run then (it runs two at a time). The workers
    use the module's services (else each would start its own)."""
    shards = shard_by_task([("airline", *key) for key in sorted(planned)], 2)
    mine = {(task, trial) for _, task, trial in shards[fault.worker]}
    results = run_dir / "results.jsonl"
    older = {child.pid for child in spawned_workers(os.getpid(), 0)}  # another test's, if any
    workers: list[psutil.Process] = []
    killed: list[psutil.Process] = []

    def kill_at_k(_done: int, _total: int) -> None:
        if not workers:  # at the first record both have started; one may finish early
            workers.extend(child for child in spawned_workers(os.getpid(), 2) if child.pid not in older)
        if not killed and sum(key in mine for key in recorded_keys(results)) >= fault.after:
            killed.append(workers[fault.worker])  # workers start in shard order
            sigkill(killed[0].pid)

    report = await asyncio.wait_for(
        execute_run(CONFIG, run_dir, shared, CONCURRENCY, kill_at_k, workers=2), 120
    )
    ended = f"returned {Counts.of(report)}"
    assert killed, f"fault {fault}: the run ended before record {fault.after}"
    recorded = recorded_keys(results)
    assert len(recorded) < PLANNED, f"fault {fault} landed after the run had finished"
    # the dead worker's unfinished episodes are infrastructure errors of the run, not a crash of it
    assert report.failed == PLANNED - len(set(recorded)), ended
    given_up = {(e["task_id"], e["trial"]) for e in ResultsFile(run_dir).errors() if is_infra_error(e)}
    assert given_up == set(planned) - set(recorded), ended
    outlived = await asyncio.to_thread(end_processes, workers, 5.0)
    return Disturbed(ended, recorded, len(recorded) - len(set(recorded)), outlived)


async def kill_a_service(
    fault: Fault, service: Service, given: Services, planned: list[Key], run_dir: Path
) -> Disturbed:
    """The runner in this process against a service of its own process, which is killed after the
    K-th record and restarted: at once on the same ports, as a supervisor would, while the runner
    retries; or (second form) on new ports once the run has given the rest up as infrastructure
    errors."""
    if not service.running():
        await asyncio.to_thread(service.start)
    restarts: list[asyncio.Future[None]] = []
    killed: list[int] = []

    def kill_at_k(done: int, _total: int) -> None:
        if done == fault.after and not killed:
            service.kill()
            killed.append(done)
            if not fault.second_form:
                restarts.append(asyncio.ensure_future(asyncio.to_thread(service.restart)))

    try:
        report = await execute_run(CONFIG, run_dir, given, CONCURRENCY, kill_at_k)
    finally:
        await asyncio.gather(*restarts)
        if killed and fault.second_form:
            await asyncio.to_thread(service.restart, False)
    assert killed, f"fault {fault}: the run ended before record {fault.after}"
    if fault.second_form:
        assert report.failed > 0, f"fault {fault}: no episode failed with the service down"
    # every planned episode is recorded or given up as an infrastructure error in errors.jsonl
    recorded = recorded_keys(run_dir / "results.jsonl")
    given_up = [(e["task_id"], e["trial"]) for e in ResultsFile(run_dir).errors() if is_infra_error(e)]
    assert report.completed + report.failed == PLANNED and len(given_up) == report.failed
    assert set(given_up) | set(recorded) == set(planned) and not set(given_up) & set(recorded)
    repeated = report.completed - len(set(recorded))
    return Disturbed(f"returned {Counts.of(report)}", recorded, repeated, [])


def is_infra_error(entry: dict[str, Any]) -> bool:
    return entry.get("termination") == "infra_error"  # not the runner's retry notes, if it writes them


def with_service(shared: Services, service: Service) -> Services:
    """The module's services with `service` (its own process) in place of the in-process one."""
    if service.kind == "simulator":
        tokens = {**shared.tokens, "simulator": ADMIN_TOKEN}
        return shared.model_copy(update={"simulator": service.address, "tokens": tokens})
    tokens = {**shared.tokens, service.domain: ADMIN_TOKEN}
    return shared.model_copy(update={"env": {service.domain: service.address}, "tokens": tokens})
