"""Opening an MCP client session on one episode's endpoint, as any remote agent would."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx2
import mcp
from mcp import Client
from mcp.client.caching import CacheConfig
from mcp.client.streamable_http import streamable_http_client

MCP_PROTOCOL = "2026-07-28"
"""Our servers speak this version; pinning it skips the discovery round trip."""


@asynccontextmanager
async def episode_session(
    url: str,
    headers: dict[str, str],
    transport: httpx2.AsyncBaseTransport | None = None,
    timeout: float = 60.0,
    cache: CacheConfig | None = None,
) -> AsyncIterator[Client]:
    """An MCP `Client` connected to `url` with `headers` (the episode's bearer token).

    `transport` lets many sessions share one connection pool; it is not closed here. `cache` is the
    client's response cache (the SDK's default: its own, for this session only).
    """
    http = httpx2.AsyncClient(headers=headers, timeout=timeout, transport=transport)
    transport_of_session = streamable_http_client(url, http_client=http)
    async with Client(transport_of_session, mode=MCP_PROTOCOL, cache=cache or CacheConfig()) as client:
        yield client
    if transport is None:
        await http.aclose()


async def list_all_tools(client: Client) -> list[mcp.types.Tool]:
    """Every tool of the session, following pagination."""
    tools: list[mcp.types.Tool] = []
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            return tools
