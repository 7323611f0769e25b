"""Only MCP is open to an agent: every control route needs the admin token, the servers answer only
Host headers that name them, the gRPC simulator and scorer need the token too, and `taue serve`
refuses to start without one."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import grpc
import httpx2
import pytest

from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.server import DomainServer
from taue.proto.serving import channel
from taue.proto.v1 import scorer_pb2, scorer_pb2_grpc, simulator_pb2, simulator_pb2_grpc
from taue.scorer.service import build_server as build_scorer
from taue.simulator.service import build_server as build_simulator
from tests.envs.served import free_port
from tests.paths import ROOT

CONTROL_ROUTES = [
    ("GET", "/domain"),
    ("GET", "/tasks"),
    ("GET", "/tasks/airline-001"),
    ("GET", "/tasks/airline-001/expected"),
    ("GET", "/policy"),
    ("GET", "/openapi.json"),
    ("GET", "/episodes"),
    ("POST", "/episodes"),
    ("DELETE", "/episodes?run_id=r"),
]


async def test_a_server_made_without_a_token_has_one_of_its_own() -> None:
    server = DomainServer(get_domain("airline"))
    await server.start()
    try:
        assert server.admin_token and len(server.admin_token) >= 32
        async with httpx2.AsyncClient(base_url=server.control_url, timeout=30) as http:
            assert (await http.get("/healthz")).status_code == 200
            for method, path in CONTROL_ROUTES:
                for headers in ({}, {"Authorization": "Bearer wrong"}):
                    answer = await http.request(method, path, headers=headers)
                    assert answer.status_code == 401, (method, path, answer.text)
            for path in ("/docs", "/redoc"):
                assert (await http.get(path)).status_code in (401, 404)
            admin = {"Authorization": f"Bearer {server.admin_token}"}
            assert (await http.get("/openapi.json", headers=admin)).json()["paths"]
    finally:
        await server.stop()


async def test_both_ports_answer_only_host_headers_that_name_the_server(servers, http) -> None:
    server = servers["airline"]
    created = (await http.post(server.control_url + "/episodes", json={})).json()
    episode = {"Authorization": f"Bearer {created['token']}"}
    rebound = {"Host": f"evil.example:{server.control_port}"}
    assert (await http.get(server.control_url + "/domain", headers=rebound)).status_code == 421
    assert (await http.get(server.control_url + "/healthz", headers=rebound)).status_code == 200
    assert (await http.get(server.control_url + "/domain", headers={"Host": "localhost"})).status_code == 200
    mcp_rebound = {**episode, "Host": f"evil.example:{server.mcp_port}", "Accept": "application/json"}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    assert (await http.post(created["mcp_url"], json=call, headers=mcp_rebound)).status_code == 421


async def test_the_simulator_and_the_scorer_refuse_calls_without_the_token() -> None:
    simulator, scorer = build_simulator(token="grpc-token"), build_scorer(token="grpc-token")
    await simulator.start()
    await scorer.start()
    try:
        for token in (None, "wrong"):
            sim = simulator_pb2_grpc.SimulatorStub(channel(simulator.address, token))
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await sim.StartSession(simulator_pb2.StartSessionRequest(), timeout=10)
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
            score = scorer_pb2_grpc.ScorerStub(channel(scorer.address, token))
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await score.Score(scorer_pb2.ScoreRequest(), timeout=10)
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with_token = scorer_pb2_grpc.ScorerStub(channel(scorer.address, "grpc-token"))
        with pytest.raises(grpc.aio.AioRpcError) as invalid:  # past the token: an empty request is invalid
            await with_token.Score(scorer_pb2.ScoreRequest(), timeout=10)
        assert invalid.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    finally:
        await simulator.stop(0)
        await scorer.stop(0)


@pytest.mark.parametrize("service", [["env", "airline"], ["simulator"], ["scorer"]])
def test_serve_refuses_to_start_without_a_token(service: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAUE_")}
    command = [sys.executable, "-m", "taue", "serve", *service, "--help"]
    assert "--insecure-no-token" in subprocess.run(command, capture_output=True, text=True, env=env).stdout
    command = [
        sys.executable,
        "-m",
        "taue",
        "serve",
        *service,
        "--port" if service[0] != "env" else "--mcp-port",
        "0",
    ]
    done = subprocess.run(command, capture_output=True, text=True, env={**env, "COLUMNS": "200"}, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith("error: ")
    assert (
        "needs an admin token: set TAUE_ADMIN_TOKEN" in done.stderr and "--insecure-no-token" in done.stderr
    )


def test_insecure_no_token_serves_open_with_a_warning_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAUE_")}
    control = free_port()
    command = [sys.executable, "-m", "taue", "serve", "env", "airline", "--insecure-no-token"]
    command += ["--mcp-port", str(free_port()), "--control-port", str(control)]
    log = tmp_path / "server.log"
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not ready(f"http://127.0.0.1:{control}"):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        assert httpx2.get(f"http://127.0.0.1:{control}/domain", timeout=5).status_code == 200
        said = log.read_text()
        assert "warning: airline domain server serves WITHOUT a token" in said
        assert "TAUE_SIGNING_KEY is not set, episode observations are not signed" in said
    finally:
        process.terminate()
        process.wait(30)


def ready(url: str) -> bool:
    try:
        return httpx2.get(f"{url}/healthz", timeout=1).status_code == 200
    except httpx2.HTTPError:
        return False


def test_serve_env_on_a_port_in_use_is_one_line_and_exit_2() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAUE_")}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "taue", "serve", "env", "airline", "--insecure-no-token"]
        command += ["--mcp-port", str(port), "--control-port", str(free_port())]
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: cannot listen on 127.0.0.1") and f"MCP port {port}" in last


@pytest.mark.parametrize("service", ["simulator", "scorer"])
def test_serve_grpc_on_a_port_in_use_is_one_line_and_exit_2(service: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAUE_")}
    command = [sys.executable, "-m", "taue", "serve", service, "--insecure-no-token", "--port"]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([*command, str(port)], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(f"error: cannot listen on 127.0.0.1, port {port}")


async def test_a_second_grpc_server_never_shares_a_port() -> None:
    first = build_scorer("127.0.0.1", 0)
    port = int(first.address.rsplit(":", 1)[1])
    await first.start()
    try:
        with pytest.raises(OSError, match="could not bind"):
            build_scorer("127.0.0.1", port)
    finally:
        await first.stop()
