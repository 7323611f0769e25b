"""`taue episode new --mcp-host` (`TAUE_MCP_HOST`; docker compose sets it to localhost for the runner):
the printed MCP URL names the host an agent outside the servers' network uses, the server's own URL is
printed beside it, and the official MCP SDK lists and calls tools at the printed URL (real servers)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from taue.cli.commands.episode import host_url
from taue.runner.embedded import embedded_domains
from taue.simulator.service import build_server as build_simulator
from tests.conftest import ADMIN_TOKEN
from tests.paths import ROOT


async def taue(tmp_path: Path, *args: str, **env: str) -> tuple[int, str, str]:
    environ = {**os.environ, "TAUE_HOME": str(tmp_path / "home"), "TAUE_ADMIN_TOKEN": ADMIN_TOKEN, **env}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "taue", *args, env=environ, cwd=ROOT, stdout=-1, stderr=-1
    )
    out, err = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode, out.decode(), err.decode()


def test_host_url_replaces_only_the_host_name() -> None:
    url = "http://airline:8001/episodes/abc/mcp"
    assert host_url(url, "localhost") == "http://localhost:8001/episodes/abc/mcp"
    assert host_url(url, None) == url and host_url(url, "") == url
    assert host_url(url, "::1") == "http://[::1]:8001/episodes/abc/mcp"
    assert host_url("https://airline/episodes/abc/mcp", "h.example") == "https://h.example/episodes/abc/mcp"


async def test_episode_new_prints_the_agents_url_and_the_servers(tmp_path: Path) -> None:
    simulator = build_simulator()
    await simulator.start()
    try:
        async with embedded_domains(["airline"], ADMIN_TOKEN) as servers:
            server = servers["airline"]
            task = next(iter(server.registry.tasks))
            new = ["episode", "new", "--domain=airline", f"--task={task}", f"--env={server.control_url}"]
            new.append(f"--simulator={simulator.address}")
            code, out, err = await taue(tmp_path, *new, "--json", TAUE_MCP_HOST="localhost")
            assert code == 0, err
            episode = json.loads(out)
            assert episode["mcp_url_in_network"].startswith("http://127.0.0.1:")
            assert episode["mcp_url"] == episode["mcp_url_in_network"].replace("127.0.0.1", "localhost", 1)
            assert await tool_names(episode["mcp_url"], episode["token"]) >= {"calculate"}
            code, out, err = await taue(tmp_path, *new, "--mcp-host=localhost")
            assert code == 0, err
            [url] = [line.split()[-1] for line in out.splitlines() if line.startswith("mcp url:")]
            assert url.startswith("http://localhost:")
            assert "(in the servers' network: http://127.0.0.1:" in out
            code, out, err = await taue(tmp_path, *new)
            assert code == 0 and "in the servers' network" not in out, err
    finally:
        await simulator.stop(0)


async def tool_names(mcp_url: str, token: str) -> set[str]:
    """List the episode's tools and call one, with the official MCP SDK, at `mcp_url`."""
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30) as http,
        Client(streamable_http_client(mcp_url, http_client=http)) as client,
    ):
        names = {tool.name for tool in (await client.list_tools()).tools}
        result = await client.call_tool("calculate", {"expression": "2 * (3 + 4)"})
        assert not result.is_error and "14" in result.content[0].text
    return names
