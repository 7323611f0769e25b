"""Limits of a domain server, over real HTTP and MCP: request bodies over 1 MiB are 413 on both ports,
no error repeats more than a short piece of its input, MCP GET streams are few and closed by the
server, and the per-episode tool log is bounded with a count of what it dropped."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import httpx2
import pytest_asyncio

from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.http_guard import MAX_BODY_BYTES
from taue.envs.runtime.mcp_app import MAX_STREAMS_PER_EPISODE
from taue.envs.runtime.server import DomainServer
from taue.runner.mcp_session import episode_session
from tests.conftest import CONTROL_TOKENS

LONG = "x" * 10_000
SHORT_REPLY = 400
"""Bytes an error answer may take when its input was 10,000 characters."""
STREAM_HEADERS = {"Accept": "text/event-stream"}


async def new_episode(http: httpx2.AsyncClient, server: DomainServer) -> dict:
    response = await http.post(server.control_url + "/episodes", json={})
    assert response.status_code == 201, response.text
    return response.json()


def auth(episode: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {episode['token']}"}


async def test_bodies_over_a_mebibyte_are_413_on_both_ports(servers, http) -> None:
    server = servers["airline"]
    episode = await new_episode(http, server)
    mcp_headers = {**auth(episode), "Content-Type": "application/json", "Accept": "application/json"}
    big = b"{" + b" " * (2 * MAX_BODY_BYTES) + b"}"

    async def chunked() -> AsyncIterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(32):
            yield b" " * 65_536

    started = time.monotonic()
    for url, headers in ((server.control_url + "/episodes", {}), (episode["mcp_url"], mcp_headers)):
        for body in (big, chunked()):
            async with httpx2.AsyncClient(timeout=10) as fresh:
                response = await fresh.post(url, content=body, headers=headers)
            assert response.status_code == 413, response.text
            assert "over the limit" in response.json()["error"]
    assert time.monotonic() - started < 10
    assert await declared_body_answer(server.control_port, 50 * MAX_BODY_BYTES) == b"HTTP/1.1 413"
    assert (await http.get(server.control_url + "/healthz")).json()["status"] == "ok"
    async with episode_session(episode["mcp_url"], auth(episode)) as client:
        assert not (await client.call_tool("think", {"thought": "still serving"})).is_error


async def declared_body_answer(port: int, length: int) -> bytes:
    """The status line answering headers that announce a body of `length` bytes, none of it sent."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"POST /episodes HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {length}\r\n\r\n".encode()
    )
    answer = await asyncio.wait_for(reader.read(), timeout=5)  # to the end: the server closes
    writer.close()
    return answer[:12]


async def test_errors_never_echo_long_input(servers, http) -> None:
    server = servers["airline"]
    control = server.control_url
    answers = [
        await http.get(f"{control}/episodes/{LONG}"),
        await http.get(f"{control}/episodes/{LONG}/tool-log"),
        await http.delete(f"{control}/episodes/{LONG}"),
        await http.post(f"{control}/episodes", json={"task_id": LONG}),
        await http.get(f"{control}/tasks", params={"split": LONG}),
        await http.get(f"{control}/tasks/{LONG}"),
        await http.post(f"{control}/episodes", json={LONG: 1, "seed": LONG}),
        await http.post(f"{server.mcp_url}/episodes/{LONG}/mcp", headers={"Authorization": "Bearer t"}),
    ]
    assert [a.status_code for a in answers] == [404, 404, 404, 404, 422, 404, 422, 404]
    for answer in answers:
        assert len(answer.content) < SHORT_REPLY, answer.text[:200]
    assert "10000 characters" in answers[0].json()["error"]

    episode = await new_episode(http, server)
    async with episode_session(episode["mcp_url"], auth(episode)) as client:
        unknown = await client.call_tool(LONG, {})
        missing = await client.call_tool("get_reservation_details", {"reservation_id": LONG})
    assert unknown.is_error and missing.is_error
    for result in (unknown, missing):
        assert LONG[:65] not in result.content[0].text and len(result.content[0].text) < 1000
    log = (await http.get(f"{control}/episodes/{episode['episode_id']}/tool-log")).json()["calls"]
    assert [len(call["output"]) < 1000 for call in log] == [True, True]

    headers = {**auth(episode), "Accept": "application/json, text/event-stream"}
    for method, params in (
        (LONG, {}),
        ("resources/read", {"uri": f"policy://{LONG}"}),
        ("prompts/get", {"name": LONG}),
    ):
        request = {"jsonrpc": "2.0", "id": 7, "method": method, "params": params}
        answer = await http.post(episode["mcp_url"], json=request, headers=headers)
        assert answer.json()["error"] and len(answer.content) < SHORT_REPLY, answer.text[:200]


async def open_stream(http: httpx2.AsyncClient, episode: dict) -> httpx2.Response:
    request = http.build_request("GET", episode["mcp_url"], headers={**auth(episode), **STREAM_HEADERS})
    return await http.send(request, stream=True)


async def read_to_end(response: httpx2.Response) -> None:
    async for _ in response.aiter_bytes():
        pass
    await response.aclose()


async def test_get_streams_are_limited_and_end_with_their_episode(servers, http) -> None:
    server = servers["airline"]
    episode = await new_episode(http, server)
    streams = [await open_stream(http, episode) for _ in range(MAX_STREAMS_PER_EPISODE)]
    assert [s.status_code for s in streams] == [200] * MAX_STREAMS_PER_EPISODE
    assert all(s.headers["content-type"].startswith("text/event-stream") for s in streams)
    refused = await http.get(episode["mcp_url"], headers={**auth(episode), **STREAM_HEADERS})
    assert refused.status_code == 429 and "GET streams" in refused.json()["error"]

    deleted_at = time.monotonic()
    await http.delete(f"{server.control_url}/episodes/{episode['episode_id']}")
    await asyncio.wait_for(asyncio.gather(*(read_to_end(s) for s in streams)), timeout=2)
    assert time.monotonic() - deleted_at < 2


async def test_get_streams_end_with_a_transfer_and_free_their_place(servers, http) -> None:
    server = servers["airline"]
    episode = await new_episode(http, server)
    first = await open_stream(http, episode)
    await asyncio.sleep(0.1)
    await first.aclose()  # a client that closes its stream frees its place
    streams = [await open_stream(http, episode) for _ in range(MAX_STREAMS_PER_EPISODE)]
    assert [s.status_code for s in streams] == [200] * MAX_STREAMS_PER_EPISODE
    (terminal,) = get_domain("airline").terminal_tools
    async with episode_session(episode["mcp_url"], auth(episode)) as client:
        assert not (await client.call_tool(terminal, {"summary": "wants a human"})).is_error
    await asyncio.wait_for(asyncio.gather(*(read_to_end(s) for s in streams)), timeout=2)


async def test_a_stopping_server_ends_its_get_streams_cleanly(http) -> None:
    server = DomainServer(get_domain("airline"))
    await server.start()
    CONTROL_TOKENS.register(server)
    episode = await new_episode(http, server)
    stream = await open_stream(http, episode)
    assert stream.status_code == 200
    reading = asyncio.create_task(read_to_end(stream))
    await asyncio.wait_for(server.stop(), timeout=3)
    await asyncio.wait_for(reading, timeout=1)  # a complete response: no read error


@pytest_asyncio.fixture
async def strict_server() -> AsyncIterator[DomainServer]:
    """GET streams idle for 0.5 s close; the tool log keeps 5 calls."""
    server = DomainServer(get_domain("airline"), stream_idle_s=0.5)
    await server.start()
    CONTROL_TOKENS.register(server)
    server.registry.max_logged_calls = 5
    yield server
    await server.stop()


async def test_an_idle_get_stream_is_closed(strict_server: DomainServer, http) -> None:
    episode = await new_episode(http, strict_server)
    stream = await open_stream(http, episode)
    assert stream.status_code == 200
    started = time.monotonic()
    await asyncio.wait_for(read_to_end(stream), timeout=3)
    assert 0.4 < time.monotonic() - started < 2


async def test_the_tool_log_is_bounded_and_counts_what_it_dropped(strict_server: DomainServer, http) -> None:
    episode = await new_episode(http, strict_server)
    async with episode_session(episode["mcp_url"], auth(episode)) as client:
        results = [await client.call_tool("think", {"thought": f"thought {n}"}) for n in range(7)]
    assert [r.is_error for r in results] == [False] * 5 + [True] * 2
    assert "limit of 5 tool calls" in results[-1].content[0].text
    log = (await http.get(f"{strict_server.control_url}/episodes/{episode['episode_id']}/tool-log")).json()
    assert (log["total"], log["dropped"], len(log["calls"])) == (5, 2, 5)
    reset = await http.post(f"{strict_server.control_url}/episodes/{episode['episode_id']}/reset")
    assert reset.status_code == 200
    log = (await http.get(f"{strict_server.control_url}/episodes/{episode['episode_id']}/tool-log")).json()
    assert (log["total"], log["dropped"]) == (0, 0)
