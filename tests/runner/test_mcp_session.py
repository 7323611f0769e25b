"""In-process agents' MCP sessions share the public tool listing (agent-runner/mcp_session.py): every
session is served the one stored listing, the same as the server's own, and still validates results."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2

from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.server import DomainServer
from taue.runner.mcp_session import LISTINGS, episode_session, list_all_tools, shared_listings
from tests.task_picks import plain_task_id

TASK = plain_task_id("airline", neutral=True)


@asynccontextmanager
async def _episodes(count: int) -> AsyncIterator[list[dict[str, Any]]]:
    """`count` episodes of an airline server on loopback, with an empty shared listing store."""
    await LISTINGS.clear()
    server = DomainServer(get_domain("airline"))
    await server.start()
    admin = {"Authorization": f"Bearer {server.admin_token}"}
    try:
        async with httpx2.AsyncClient(base_url=server.control_url, headers=admin, timeout=30) as http:
            yield [(await http.post("/episodes", json={"task_id": TASK})).json() for _ in range(count)]
    finally:
        await server.stop()
        await LISTINGS.clear()


async def test_sessions_share_one_listing_equal_to_the_servers() -> None:
    async with _episodes(3) as created:
        listings = []
        for episode in created:
            auth = {"Authorization": f"Bearer {episode['token']}"}
            cache = shared_listings("airline", episode["mcp_url"], episode["episode_id"])
            async with episode_session(episode["mcp_url"], auth, cache=cache) as client:
                listings.append(await client.list_tools())
                fresh = await client.list_tools(cache_mode="bypass")
                action = get_domain("airline").task_index[TASK].evaluation.actions[0]
                result = await client.call_tool(action.name, dict(action.arguments))
                assert not result.is_error and result.structured_content is not None
        assert listings[1] is listings[2], "the second and third sessions were served the stored listing"
        assert listings[0].model_dump() == listings[1].model_dump() == fresh.model_dump()
        assert [tool.name for tool in listings[2].tools] == sorted(get_domain("airline").mcp_tools)


async def test_a_listing_read_through_the_shared_store_is_a_full_listing() -> None:
    async with _episodes(1) as (episode,):
        auth = {"Authorization": f"Bearer {episode['token']}"}
        cache = shared_listings("airline", episode["mcp_url"], episode["episode_id"])
        for _ in range(2):
            async with episode_session(episode["mcp_url"], auth, cache=cache) as client:
                tools = await list_all_tools(client)
                assert len(tools) == len(get_domain("airline").mcp_tools)
                assert all(tool.input_schema.get("type") == "object" for tool in tools)
