"""Opening an MCP client session on one episode's endpoint, as any remote agent would."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import httpx2
import mcp
from mcp import Client, ClientSession
from mcp.client.caching import CacheConfig, CacheEntry, CacheKey, InMemoryResponseCacheStore
from mcp.client.streamable_http import streamable_http_client

MCP_PROTOCOL = "2026-07-28"
"""Our servers speak this version; pinning it skips the discovery round trip."""


class Served:
    """A stored listing that the SDK's "copy on serve" hands out as it is (see `SharedListingStore`)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Any:
        return self.value if update is None else self.value.model_copy(update=update, deep=deep)


class SharedListingStore(InMemoryResponseCacheStore):
    """The SDK's in-memory store, serving every session the one stored listing instead of a deep copy.

    The SDK deep-copies a cached result on every read (about a third of an agent's MCP client work per
    episode at C = 256), so that a session may change it. The only change a session makes is when it
    absorbs a tool listing: it sets `tools` to the tools it keeps, which for a listing the SDK already
    filtered when storing it is the same tools again. Our agents only read listings."""

    async def set(self, key: CacheKey, entry: CacheEntry) -> None:
        served = CacheEntry(value=Served(entry.value), scope=entry.scope, expires_at=entry.expires_at)
        await super().set(key, served)


LISTINGS = SharedListingStore()
"""The MCP listings every episode's sessions share: a server marks its listings public (the same for
every episode), so a session learns the tools' output schemas from here, not over HTTP."""
_VALIDATORS: dict[tuple[str, str], Any] = {}
"""(tool, output schema as canonical JSON) -> the SDK's compiled validator, shared by every session."""


def shared_listings(domain: str, url: str, episode_id: str) -> CacheConfig:
    """The response cache of an in-process agent's session on `url`: public listings shared by every
    episode of the domain's server, anything else kept to the episode."""
    server = urlsplit(url)
    return CacheConfig(
        store=LISTINGS,
        partition=episode_id,
        target_id=f"{domain}@{server.scheme}://{server.netloc}",
        share_public=True,
    )


def share_output_validators(session: ClientSession) -> None:
    """Let the session reuse the validators other sessions compiled for the same tool and schema.

    The SDK compiles a tool's output schema (checking it against its metaschema first) once per
    session, about 1 ms; an in-process agent opens a session per turn with tool calls. A compiled
    validator is immutable and depends only on the schema, so sharing it changes no result; a schema
    that fails to compile is not kept, and fails again in every session, as before.
    """
    compile_once: Callable[[str, dict[str, Any]], Any] = session._output_schema_validator

    def shared(name: str, output_schema: dict[str, Any]) -> Any:
        key = (name, json.dumps(output_schema, sort_keys=True))
        if (validator := _VALIDATORS.get(key)) is None:
            validator = _VALIDATORS[key] = compile_once(name, output_schema)
        return validator

    # method-assign: the SDK has no hook for a validator cache; this instance's method is replaced
    session._output_schema_validator = shared  # type: ignore[method-assign]


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
        share_output_validators(client.session)
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
