"""The gRPC simulator and scorer services, their contracts, and the runner's remote mode."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

import taue.runner.runner as runner_module
from taue.contracts.episode import LoggedCall
from taue.contracts.run import RunConfig
from taue.envs.runtime.catalog import expected_outcome
from taue.envs.runtime.discovery import get_domain
from taue.proto.serving import channel
from taue.proto.v1 import common_pb2, scorer_pb2, scorer_pb2_grpc, simulator_pb2, simulator_pb2_grpc
from taue.runner.embedded import Services, embedded_domains
from taue.runner.runner import execute_run
from taue.scorer.client import ScorerClient
from taue.scorer.scoring import ScoreRequest, score_episode
from taue.scorer.service import build_server as build_scorer
from taue.simulator.disclosure import brief
from taue.simulator.service import build_server as build_simulator
from taue.simulator.wire import user_task_message
from tests.conftest import ADMIN_TOKEN
from tests.paths import ROOT


@pytest.fixture
async def simulator_server():
    server = build_simulator()
    await server.start()
    yield server
    await server.stop(0)


@pytest.fixture
async def scorer_server():
    server = build_scorer()
    await server.start()
    yield server
    await server.stop(0)


async def test_simulator_service_health_reflection_and_sessions(simulator_server) -> None:
    chan = channel(simulator_server.address)
    health = await health_pb2_grpc.HealthStub(chan).Check(health_pb2.HealthCheckRequest(), timeout=5)
    assert health.status == health_pb2.HealthCheckResponse.SERVING
    reflection = reflection_pb2_grpc.ServerReflectionStub(chan)
    responses = reflection.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")])
    )
    names = {s.name async for r in responses for s in r.list_services_response.service}
    assert {"taue.v1.Simulator", "grpc.health.v1.Health"} <= names

    stub = simulator_pb2_grpc.SimulatorStub(chan)
    task = get_domain("airline").tasks[0]
    started = await stub.StartSession(simulator_pb2.StartSessionRequest(task=user_task_message(task), seed=4))
    first = brief(task.user_scenario.goals[0].request, task.user_scenario.known_info)
    assert started.session_id and first.text in started.first_message  # its payment held back
    turn = await stub.Respond(
        simulator_pb2.RespondRequest(session_id=started.session_id, agent_message="Hm?")
    )
    assert not turn.done and turn.state.HasField("patience")
    ended = await stub.EndSession(simulator_pb2.EndSessionRequest(session_id=started.session_id))
    assert ended.usage.prompt_tokens == 0
    await chan.close()


def first_of_two_action_goals(domain_name: str):
    """The first task with two ordinary action goals, its first goal and the gold write that does it."""
    from taue.contracts.tasks import matches

    domain = get_domain(domain_name)
    for task in domain.tasks:
        goals = [g for g in task.user_scenario.goals if g.kind == "action" and not g.refusal_expected]
        if len(goals) >= 2 and len(goals[0].targets) == 1:
            target = goals[0].targets[0]
            write = next(a for a in task.evaluation.actions if matches(target, a.name, a.arguments))
            return task, goals[0], write
    raise AssertionError(f"no {domain_name} task with two action goals")


async def test_notifications_cross_the_service_and_confirm_goals_structurally(simulator_server) -> None:
    chan = channel(simulator_server.address)
    stub = simulator_pb2_grpc.SimulatorStub(chan)
    task, first, write = first_of_two_action_goals("airline")
    started = await stub.StartSession(simulator_pb2.StartSessionRequest(task=user_task_message(task), seed=0))
    ids = " ".join(str(v) for k, v in write.arguments.items() if k.endswith("_id"))
    claim = f"Done: that request is complete ({ids}), confirmation sent."
    confirmed = simulator_pb2.Notification(tool=write.name, arguments_json=json.dumps(write.arguments))
    turn = await stub.Respond(
        simulator_pb2.RespondRequest(
            session_id=started.session_id, agent_message=claim, notifications=[confirmed], successful_calls=1
        )
    )
    assert list(turn.state.goals_confirmed) == [first.id] and not turn.done
    bad = simulator_pb2.Notification(tool=write.name, arguments_json="{not json")
    with pytest.raises(grpc.aio.AioRpcError) as invalid:
        await stub.Respond(
            simulator_pb2.RespondRequest(
                session_id=started.session_id, agent_message="x", notifications=[bad]
            )
        )
    assert (
        invalid.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "notification" in invalid.value.details()
    )
    again = await stub.Respond(
        simulator_pb2.RespondRequest(session_id=started.session_id, agent_message="Hm?")
    )
    assert not again.done  # the bad request changed nothing and the session goes on
    await chan.close()


async def test_simulator_service_errors_are_clear_statuses_and_it_keeps_serving(simulator_server) -> None:
    chan = channel(simulator_server.address)
    stub = simulator_pb2_grpc.SimulatorStub(chan)
    with pytest.raises(grpc.aio.AioRpcError) as unknown:
        await stub.Respond(simulator_pb2.RespondRequest(session_id="nope", agent_message="hi"))
    assert (
        unknown.value.code() == grpc.StatusCode.NOT_FOUND
        and "unknown simulator session" in unknown.value.details()
    )
    with pytest.raises(grpc.aio.AioRpcError) as empty:
        await stub.StartSession(simulator_pb2.StartSessionRequest())
    assert empty.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "task_id" in empty.value.details()
    task = user_task_message(get_domain("retail").tasks[0])
    bad_backend = simulator_pb2.StartSessionRequest(
        task=task, options=simulator_pb2.UserOptions(backend="telepathy")
    )
    with pytest.raises(grpc.aio.AioRpcError) as backend:
        await stub.StartSession(bad_backend)
    assert backend.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "telepathy" in backend.value.details()
    ok = await stub.StartSession(simulator_pb2.StartSessionRequest(task=task))
    assert ok.first_message
    await chan.close()


async def test_scorer_service_matches_the_library(scorer_server) -> None:
    domain = get_domain("retail")
    task = next(t for t in domain.tasks if t.evaluation.outputs)
    outcome = await expected_outcome(domain, task)
    request = ScoreRequest(
        domain="retail",
        task_id=task.id,
        final_hash="0" * 64,
        termination="user_stop",
        transcript=[{"role": "agent", "content": " ".join(task.evaluation.outputs)}],
        tool_log=[
            LoggedCall(name=g.name, arguments=g.arguments, ok=True, writes=g.writes) for g in outcome.gold
        ],
        expected=outcome,
    )
    client = ScorerClient(scorer_server.address)
    await client.wait_ready()
    remote = (await client.score(request)).breakdown
    local = score_episode(request)
    assert remote == local and remote.reward == 0 and remote.outputs_found
    assert remote.diagnostics["gold_actions_matched"] == len(outcome.gold)
    right = (await client.score(request.model_copy(update={"final_hash": outcome.state_hash}))).breakdown
    assert right.reward == 1 and right.db_match
    stub = scorer_pb2_grpc.ScorerStub(channel(scorer_server.address))
    with pytest.raises(grpc.aio.AioRpcError) as no_expected:
        await stub.Score(
            scorer_pb2.ScoreRequest(domain="retail", task_id=task.id, termination=common_pb2.USER_STOP)
        )
    assert no_expected.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "expected is not set" in no_expected.value.details()
    with pytest.raises(grpc.aio.AioRpcError) as unset:
        await stub.Score(scorer_pb2.ScoreRequest(domain="retail", task_id=task.id))
    assert unset.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    await client.close()


def test_committed_stubs_equal_regenerated_ones(tmp_path: Path) -> None:
    """CI regenerates the stubs with the pinned grpcio-tools and fails on any difference."""
    result = subprocess.run(
        ["bash", str(ROOT / "proto" / "generate.sh"), str(tmp_path)],
        capture_output=True,
        text=True,
        env={"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    generated = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*_pb2*"))
    assert generated, "protoc produced nothing"
    for path in generated:
        committed = ROOT / "proto" / path
        assert committed.read_text() == (tmp_path / path).read_text(), (
            f"{path} is stale: run proto/generate.sh"
        )


def first_emotional(domain: str, count: int) -> list[str]:
    """A sample for tests of the runner's mechanics: the domain's first `count` emotional tasks."""
    return [t.id for t in get_domain(domain).tasks if t.emotion is not None][:count]


def comparable(records) -> list[dict]:
    return [{**r.without_clock(), "run": None} for r in sorted(records, key=lambda r: r.key)]


@pytest.mark.slow
async def test_sharded_runs_merge_into_the_unsharded_run(tmp_path: Path) -> None:
    async with embedded_domains(["airline", "retail"], ADMIN_TOKEN) as servers:
        await _sharded_runs_merge(servers, tmp_path)


async def _sharded_runs_merge(servers, tmp_path: Path) -> None:
    urls = {name: server.control_url for name, server in servers.items()}
    base = {
        "run": "sharded",
        "domains": ["airline", "retail"],
        "agent": "pester",
        "trials": 2,
        "tasks": "emotional",
        "condition": "sorrow.cold.high.skeptical",
        "task_ids": first_emotional("airline", 12) + first_emotional("retail", 12),
    }
    whole = await execute_run(
        RunConfig(**base), tmp_path / "whole", urls, concurrency=16, admin_token=ADMIN_TOKEN
    )
    for index in range(3):
        await execute_run(
            RunConfig(**base, shard=(index, 3)),
            tmp_path / f"shard-{index}",
            urls,
            concurrency=16,
            admin_token=ADMIN_TOKEN,
        )
    merged = subprocess.run(
        [
            sys.executable,
            "-m",
            "taue",
            "merge",
            *(str(tmp_path / f"shard-{i}") for i in range(3)),
            "--out",
            str(tmp_path / "merged"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert merged.returncode == 0, merged.stderr
    from taue.runner.results import ResultsFile

    merged_records = ResultsFile(tmp_path / "merged").load()
    assert len(merged_records) == len(whole.records) > 0
    assert comparable(merged_records) == comparable(whole.records)
    assert {r.reward for r in whole.records} == {-1}  # tolerance 0: pester fails everywhere
    partial = subprocess.run(
        [
            sys.executable,
            "-m",
            "taue",
            "merge",
            str(tmp_path / "shard-0"),
            "--out",
            str(tmp_path / "m2"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert partial.returncode == 1 and "missing" in partial.stderr
    mixed = subprocess.run(
        [
            sys.executable,
            "-m",
            "taue",
            "merge",
            str(tmp_path / "shard-0"),
            str(tmp_path / "nothing"),
            "--out",
            str(tmp_path / "m3"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert mixed.returncode == 2 and "not a run directory" in mixed.stderr


@pytest.mark.slow
async def test_killing_the_simulator_loses_nothing_and_a_rerun_completes(tmp_path: Path) -> None:
    # Domain servers of its own: the test kills a service, so it shares none with other tests.
    async with embedded_domains(["retail"], ADMIN_TOKEN) as servers:
        await _kill_the_simulator(servers, tmp_path)


async def _kill_the_simulator(servers, tmp_path: Path) -> None:
    urls = {name: server.control_url for name, server in servers.items()}
    config = RunConfig(
        run="kill", domains=["retail"], agent="oracle", trials=3, task_ids=first_emotional("retail", 20)
    )
    simulator = build_simulator()
    await simulator.start()
    written: list = []

    def progress(done: int, total: int) -> None:
        written.append(done)
        if done == 10:
            # The simulator dies in the middle of the run: abrupt, no grace period.
            import asyncio

            asyncio.get_running_loop().create_task(simulator.stop(0))

    original_delays = runner_module.RETRY_DELAYS
    runner_module.RETRY_DELAYS = (0.01,)
    try:
        first = await execute_run(
            config, tmp_path, Services(env=urls, simulator=simulator.address), 4, progress, ADMIN_TOKEN
        )
    finally:
        runner_module.RETRY_DELAYS = original_delays
    assert first.completed >= 10 and first.failed > 0 and first.completed + first.failed == first.planned
    lines = [json.loads(line) for line in (tmp_path / "errors.jsonl").read_text().splitlines()]
    errors = [e for e in lines if e.get("kind") != "retry"]
    assert len(errors) == first.failed and all(e["termination"] == "infra_error" for e in errors)
    assert all("simulator" in " ".join(e["errors"]) for e in errors)
    assert len(lines) - len(errors) == first.retries >= first.failed  # each give-up was retried once
    kept = {r.key: r.model_dump(exclude={"timings"}) for r in first.records}
    replacement = build_simulator()
    await replacement.start()
    try:
        second = await execute_run(
            config, tmp_path, Services(env=urls, simulator=replacement.address), 4, admin_token=ADMIN_TOKEN
        )
    finally:
        await replacement.stop(0)
    assert second.skipped == first.completed and second.completed == first.failed and second.failed == 0
    assert len(second.records) == second.planned and all(r.reward == 1 for r in second.records)
    assert all(kept[r.key] == r.model_dump(exclude={"timings"}) for r in second.records if r.key in kept)
