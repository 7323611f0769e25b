"""A real `taue serve env` process (one per module): episodes that only read copy no database, and its
memory falls back after episodes that wrote expire (RSS read with psutil); clients that go away are
one warning line in its log, never a traceback."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator

import httpx2
import psutil
import pytest

from taue.envs.runtime.discovery import get_domain
from taue.runner.mcp_session import episode_session
from tests.envs.served import ServedDomain, served_domain

MB = 1024 * 1024
SETTINGS = {"TAUE_EPISODE_TTL": "3", "TAUE_MAX_EPISODES": "250"}
pytestmark = pytest.mark.xdist_group("served-airline")  # one server process for the module


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedDomain]:
    with served_domain("airline", tmp_path_factory.mktemp("served") / "server.log", env=SETTINGS) as server:
        yield server


def rss(served: ServedDomain) -> int:
    return psutil.Process(served.process.pid).memory_info().rss


def test_settings_come_from_the_environment(served: ServedDomain) -> None:
    health = httpx2.get(served.control_url + "/healthz").json()
    assert (health["max_episodes"], health["episode_ttl_s"]) == (250, 3.0)


def test_memory_returns_to_baseline_after_expiry(served: ServedDomain) -> None:
    """Airline episodes that read only share the seed (no copy); 60 that called a write tool hold
    ~3 MB of database each, and once they expire the server's RSS falls back."""
    with httpx2.Client(base_url=served.control_url, headers=served.admin, timeout=30) as http:
        for _ in range(5):  # warm-up: what every server allocates on first use
            http.delete(f"/episodes/{http.post('/episodes', json={}).json()['episode_id']}")
        baseline = rss(served)
        for _ in range(200):
            assert http.post("/episodes", json={}).status_code == 201
        assert rss(served) - baseline < 200 * 0.5 * MB, "an episode that has not written copies nothing"
        wait_for_expiry(http)
        baseline = rss(served)
        started = time.monotonic()
        asyncio.run(create_and_write(served, 60))
        peak, live = rss(served), len(http.get("/episodes").json()["episodes"])
        created_s = time.monotonic() - started
        assert live >= 30, f"creating took {created_s:.1f} s: most episodes expired on the way"
        assert peak - baseline > live * 2.5 * MB, "each live episode that wrote should hold ~3 MB"
        wait_for_expiry(http)
        time.sleep(0.5)
        after = rss(served)
    figures = f"baseline {baseline // MB}, peak {peak // MB} ({live} live), after {after // MB}"
    assert after - baseline < 0.15 * (peak - baseline), f"RSS MB: {figures}"


def wait_for_expiry(http: httpx2.Client) -> None:
    deadline = time.monotonic() + 15
    while http.get("/episodes").json()["episodes"] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert http.get("/episodes").json() == {"episodes": []}


async def create_and_write(served: ServedDomain, count: int) -> None:
    """`count` episodes, each calling a write tool once over MCP (the call copies the seed for it,
    whether or not the write succeeds)."""
    domain = get_domain("airline")
    name = sorted(domain.write_tools)[0]
    async with httpx2.AsyncClient(base_url=served.control_url, headers=served.admin, timeout=30) as http:

        async def one() -> None:
            created = (await http.post("/episodes", json={})).json()
            auth = {"Authorization": f"Bearer {created['token']}"}
            async with episode_session(created["mcp_url"], auth) as client:
                await client.call_tool(name, {})

        await asyncio.gather(*(one() for _ in range(count)))


def send_and_drop(port: int, head: str, body: bytes, reset: bool = False, wait: float = 0.2) -> None:
    """Send a request (maybe only part of its body), then go away: a close, or a reset."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(head.encode() + b"\r\n" + body)
        time.sleep(wait)
        if reset:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")


def served_admin(served: ServedDomain) -> str:
    return "".join(f"{name}: {value}\r\n" for name, value in served.admin.items())


def test_clients_that_go_away_are_one_line_each(served: ServedDomain) -> None:
    episode = httpx2.post(served.control_url + "/episodes", json={}, headers=served.admin).json()
    path = f"/episodes/{episode['episode_id']}/mcp"
    auth = f"Authorization: Bearer {episode['token']}\r\n"
    mcp_host = f"Host: 127.0.0.1:{served.mcp_port}\r\n"
    mcp_head = (
        f"{mcp_host}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{auth}"
    )
    call = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "think", "arguments": {}}}
    ).encode()
    before = served.output()
    # mid-body, on both ports, with a Content-Length and chunked, closed and reset
    send_and_drop(served.mcp_port, f"POST {path} HTTP/1.1\r\n{mcp_head}Content-Length: 1000\r\n", b'{"js')
    chunked = "Transfer-Encoding: chunked\r\n"
    send_and_drop(
        served.mcp_port, f"POST {path} HTTP/1.1\r\n{mcp_head}{chunked}", b'4\r\n{"js\r\n', reset=True
    )
    control_head = (
        f"POST /episodes HTTP/1.1\r\nHost: 127.0.0.1:{served.control_port}\r\n{served_admin(served)}"
        "Content-Type: application/json\r\n"
    )
    send_and_drop(served.control_port, f"{control_head}Content-Length: 500\r\n", b'{"task_id":', reset=True)
    # a whole request, gone before its answer; a GET stream, dropped
    send_and_drop(
        served.mcp_port, f"POST {path} HTTP/1.1\r\n{mcp_head}Content-Length: {len(call)}\r\n", call, True, 0
    )
    stream_head = f"GET {path} HTTP/1.1\r\n{mcp_host}Accept: text/event-stream\r\n{auth}"
    send_and_drop(served.mcp_port, stream_head, b"", reset=True, wait=0.3)
    time.sleep(0.5)
    assert httpx2.get(served.control_url + "/healthz").json()["status"] == "ok"

    logged = served.output()[len(before) :]
    lines = logged.splitlines()
    assert len([line for line in lines if "client disconnected before sending the whole body" in line]) == 3
    for noise in ("Traceback", "Exception in ASGI", "Error handling", "without completing", "╭"):
        assert noise not in logged, logged
    assert len(lines) <= 5, logged
