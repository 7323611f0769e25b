"""Create an episode on a running domain server, list its tools and call one, with the MCP Python SDK.

It imports nothing from this repository: only `mcp` and `httpx2` (what the SDK itself uses).

    export TAUE_ADMIN_TOKEN=$(openssl rand -hex 24)
    taue serve env retail &                      # MCP on 8000, control on 9000
    python examples/mcp_client.py --control http://127.0.0.1:9000

The same code is in docs/agent-protocol.md ("An MCP client in Python"); tests/test_mcp_client_example.py
runs this file against a real domain server on a loopback port.
"""

from __future__ import annotations

import argparse
import asyncio
import os

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


async def main(control_url: str, admin_token: str, task_id: str | None = None) -> None:
    # 1. The control port (the runner's side; never give it or its token to an agent) creates the episode.
    admin = {"Authorization": f"Bearer {admin_token}"}
    async with httpx2.AsyncClient(base_url=control_url, headers=admin, timeout=30) as control:
        answer = await control.post("/episodes", json={"task_id": task_id} if task_id else {})
        answer.raise_for_status()
        episode = answer.json()  # {episode_id, mcp_url, token, task_id}
        try:
            # 2. The agent's side: the episode's MCP URL and bearer token, nothing else.
            agent = {"Authorization": f"Bearer {episode['token']}"}
            async with (
                httpx2.AsyncClient(headers=agent, timeout=30) as http,
                Client(streamable_http_client(episode["mcp_url"], http_client=http)) as client,
            ):
                tools = (await client.list_tools()).tools
                print(f"episode {episode['episode_id']} (task {episode['task_id']}): {len(tools)} tools")
                print(", ".join(sorted(tool.name for tool in tools)))
                result = await client.call_tool("calculate", {"expression": "2 * (3 + 4)"})
                print(
                    "calculate 2 * (3 + 4) ->", result.content[0].text, "(error)" if result.is_error else ""
                )
        finally:
            await control.delete(f"/episodes/{episode['episode_id']}")  # or let it expire


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--control", default="http://127.0.0.1:9000", help="the domain's control URL")
    parser.add_argument("--task", default=None, help="task id (default: none, the bare seed database)")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.control, os.environ["TAUE_ADMIN_TOKEN"], arguments.task))
