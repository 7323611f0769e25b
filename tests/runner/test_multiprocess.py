"""Every service in its own OS process on loopback, as in a deployment: the runner's remote mode
gives the same results as the embedded default, and an outside agent can drive an episode by hand."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from taue.contracts.run import EpisodeRecord
from taue.envs.runtime.discovery import get_domain
from taue.runner.agents.asking import changes, proposal
from taue.runner.agents.oracle import completion_report

pytestmark = [
    pytest.mark.slow,  # every service as its own OS process
    pytest.mark.xdist_group("multiprocess"),  # its module-scoped fixtures are built once, on one worker
]

TAUE = [sys.executable, "-m", "taue"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_http(url: str, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read() if process.stderr else "exited"
        try:
            if httpx2.get(url, timeout=1).status_code == 200:
                return
        except httpx2.HTTPError:
            time.sleep(0.1)
    raise TimeoutError(url)


def wait_grpc(address: str, process: subprocess.Popen, timeout: float = 60) -> None:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(address) as chan:
        stub = health_pb2_grpc.HealthStub(chan)
        response = stub.Check(health_pb2.HealthCheckRequest(), timeout=timeout, wait_for_ready=True)
        assert response.status == health_pb2.HealthCheckResponse.SERVING


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """airline, retail, simulator and scorer, each `taue serve ...` in its own process."""
    ports = {
        name: free_port()
        for name in ("airline_mcp", "airline", "retail_mcp", "retail", "simulator", "scorer")
    }
    commands = {
        "airline": [
            "serve",
            "env",
            "airline",
            "--mcp-port",
            str(ports["airline_mcp"]),
            "--control-port",
            str(ports["airline"]),
        ],
        "retail": [
            "serve",
            "env",
            "retail",
            "--mcp-port",
            str(ports["retail_mcp"]),
            "--control-port",
            str(ports["retail"]),
        ],
        "simulator": ["serve", "simulator", "--port", str(ports["simulator"])],
        "scorer": ["serve", "scorer", "--port", str(ports["scorer"])],
    }
    processes = {
        name: subprocess.Popen([*TAUE, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for name, args in commands.items()
    }
    try:
        for name in ("airline", "retail"):
            wait_http(f"http://127.0.0.1:{ports[name]}/healthz", processes[name])
        for name in ("simulator", "scorer"):
            wait_grpc(f"127.0.0.1:{ports[name]}", processes[name])
        yield {"ports": ports, "processes": processes, "home": tmp_path_factory.mktemp("taue-home")}
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.kill()


def remote_args(stack: dict) -> list[str]:
    p = stack["ports"]
    return [
        "--env",
        f"airline=http://127.0.0.1:{p['airline']}",
        "--env",
        f"retail=http://127.0.0.1:{p['retail']}",
        "--simulator",
        f"127.0.0.1:{p['simulator']}",
        "--scorer",
        f"127.0.0.1:{p['scorer']}",
    ]


def sample_args() -> list[str]:
    """The first 12 emotional tasks of airline and of retail: the comparison needs no full set."""
    from taue.envs.runtime.discovery import get_domain

    ids = [t.id for d in ("airline", "retail") for t in [t for t in get_domain(d).tasks if t.emotion][:12]]
    return [arg for task_id in ids for arg in ("--task-id", task_id)]


SAMPLE = sample_args()


def records(run_dir: Path) -> list[dict]:
    lines = (run_dir / "results.jsonl").read_text().splitlines()
    return [EpisodeRecord.model_validate_json(line).without_clock() for line in lines]


@pytest.mark.parametrize(
    "agent_args",
    [["--agent", "oracle"], ["--agent", "pester", "--condition", "frustration.cold.moderate.skeptical"]],
    ids=["oracle", "pester"],
)
def test_remote_services_give_the_embedded_results(
    stack: dict, tmp_path: Path, agent_args: list[str]
) -> None:
    common = [
        "run",
        "--domains",
        "airline,retail",
        *agent_args,
        *SAMPLE,
        "--trials",
        "1",
        "--seed",
        "5",
        "--name",
        "same",
        "--quiet",
    ]
    remote = subprocess.run(
        [*TAUE, *common, *remote_args(stack), "--out", str(tmp_path / "remote")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert remote.returncode == 0, remote.stderr
    embedded = subprocess.run(
        [*TAUE, *common, "--out", str(tmp_path / "embedded")], capture_output=True, text=True, timeout=600
    )
    assert embedded.returncode == 0, embedded.stderr
    remote_rows, embedded_rows = records(tmp_path / "remote"), records(tmp_path / "embedded")
    assert remote_rows == embedded_rows and len(remote_rows) > 0
    rewards = {row["reward"] for row in remote_rows}
    assert rewards == ({1} if agent_args[1] == "oracle" else {-1, 1})


def test_bring_your_own_agent_by_hand(stack: dict) -> None:
    """`taue episode new/say/score` with the agent's tool calls made over MCP from outside."""
    from mcp.client.streamable_http import streamable_http_client

    env = {
        **os.environ,
        "TAUE_HOME": str(stack["home"]),
        "TAUE_ENV_RETAIL": f"http://127.0.0.1:{stack['ports']['retail']}",
        "TAUE_SIMULATOR": f"127.0.0.1:{stack['ports']['simulator']}",
        "TAUE_SCORER": f"127.0.0.1:{stack['ports']['scorer']}",
    }
    domain = get_domain("retail")
    task = next(t for t in domain.tasks if t.evaluation.outputs and t.emotion is not None)
    created = subprocess.run(
        [*TAUE, "episode", "new", "--domain", "retail", "--task", task.id, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert created.returncode == 0, created.stderr
    episode = json.loads(created.stdout)
    assert episode["mcp_url"].endswith(f"/episodes/{episode['episode_id']}/mcp") and episode["user_message"]

    import asyncio

    from mcp import Client

    async def act(actions) -> None:
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {episode['token']}"}, timeout=30) as http,
            Client(streamable_http_client(episode["mcp_url"], http_client=http)) as client,
        ):
            for action in actions:
                result = await client.call_tool(action.name, dict(action.arguments))
                assert not result.is_error, result.content

    def say(text: str) -> str:
        said = subprocess.run(
            [*TAUE, "episode", "say", episode["episode_id"], text],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert said.returncode == 0, said.stderr
        return said.stdout

    # As the oracle does: propose each change, make it after the user's yes, report it.
    cut, rest = changes(task, domain.write_tools)
    for index, change in enumerate(cut):
        assert change.target is not None and "Yes" in say(proposal(change.target))
        last = index == len(cut) - 1
        asyncio.run(act([*change.actions, *(rest if last else [])]))
        if not last:
            say(completion_report(change.actions, domain.write_tools, []))
    report = completion_report(task.evaluation.actions, domain.write_tools, task.evaluation.outputs)
    stopped = say(report)
    assert "###STOP###" in stopped and "user_stop" in stopped
    again = subprocess.run(
        [*TAUE, "episode", "say", episode["episode_id"], "hello?"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert again.returncode == 2 and "has ended" in again.stderr
    scored = subprocess.run(
        [*TAUE, "episode", "score", episode["episode_id"]],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert scored.returncode == 0, scored.stderr
    breakdown = json.loads(scored.stdout)
    assert breakdown["reward"] == 1 and breakdown["db_match"] is True
    assert breakdown["policy_violations"] == [] and breakdown["policy_enforced"] is True
    unknown = subprocess.run(
        [*TAUE, "episode", "score", "nosuchepisode"], capture_output=True, text=True, env=env
    )
    assert unknown.returncode == 2 and "no episode" in unknown.stderr


def test_services_stop_cleanly_on_sigterm(stack: dict) -> None:
    for name, process in stack["processes"].items():
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0, (name, process.stderr.read() if process.stderr else "")
