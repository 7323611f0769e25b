"""The agent-facing MCP port: only `/episodes/{episode_id}/mcp`, only with that episode's token.

One `MCPServer` per domain serves every episode; the episode is taken from the request path, and
the bearer-token check happens in an ASGI layer in front of the SDK, before any MCP processing.

The server is stateless and answers in JSON, so a GET (a server-sent-events stream) carries nothing
but pings: at most `MAX_STREAMS_PER_EPISODE` are open per episode, and each is closed when the
episode ends, is deleted or expires, or after `STREAM_IDLE_S` without data.

Every episode of a server sees the same tools and resources, so their listings are marked public
and fresh for `LISTING_TTL_MS` (MCP 2026-07-28 response caching): a client that keeps a shared
cache lists them once per server, not once per episode.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.caching import CacheHint
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, GetPromptResult
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.types import ASGIApp, Receive, Scope, Send

from taue.contracts.text import shown
from taue.envs.runtime.episodes import Episode, EpisodeError, EpisodeRegistry
from taue.envs.runtime.execution import execute_logged, log_refused
from taue.envs.runtime.http_guard import RequestGuard, json_error
from taue.envs.runtime.rpc_errors import BoundedErrors
from taue.envs.runtime.sse_streams import STREAM_IDLE_S, StreamWatch

EPISODE_PATH = re.compile(r"^/episodes/([A-Za-z0-9_-]{1,64})/mcp$")
MAX_STREAMS_PER_EPISODE = 2
TRANSFERRED = "this conversation has been transferred; no further actions are possible"
FINISHED = "this conversation is over; no further actions are possible"
LISTING_TTL_MS = 60_000
"""How long a client may reuse a listing: a redeployed server's new tools are seen within it."""
PUBLIC_LISTING = CacheHint(ttl_ms=LISTING_TTL_MS, scope="public")


class DomainMCPServer(MCPServer):
    """An MCP server whose tool calls run against the calling episode's database."""

    def __init__(self, registry: EpisodeRegistry) -> None:
        domain = registry.domain
        super().__init__(
            name=f"taue-{domain.name}",
            instructions=f"Customer-service tools of the {domain.name} domain. "
            f"Read the policy resource policy://{domain.name} before acting.",
            tools=list(domain.mcp_tools.values()),
            log_level="WARNING",
            cache_hints={"tools/list": PUBLIC_LISTING, "resources/list": PUBLIC_LISTING},
        )
        self.registry = registry
        self.resource(f"policy://{domain.name}", name="policy", mime_type="text/markdown")(
            lambda: domain.policy
        )

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context | None = None
    ) -> CallToolResult:
        episode = self._episode(context)
        domain = self.registry.domain
        async with episode.lock:
            if episode.finished:  # its observation is final: nothing may change or join the log now
                raise ToolError(FINISHED)
            bound = self.registry.max_logged_calls
            if len(episode.log) >= bound:
                episode.dropped += 1
                raise ToolError(f"this episode reached its limit of {bound} tool calls; no more are possible")
            if episode.ended:
                log_refused(domain, episode.log, name, arguments, TRANSFERRED)
                raise ToolError(TRANSFERRED)
            result = await execute_logged(domain, episode.db, episode.log, name, arguments, context)
            last = episode.log[-1]
            if last.ok and last.name in domain.terminal_tools:
                episode.end()
            return result

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Context | None = None
    ) -> GetPromptResult:
        # There are no prompts; the SDK's own answer would log a traceback quoting the whole name.
        raise MCPError(code=INVALID_PARAMS, message=f"Unknown prompt: {shown(name)}; this server has none")

    def _episode(self, context: Context | None) -> Episode:
        request = context.request_context.request if context is not None else None
        episode_id = request.path_params.get("episode_id") if request is not None else None
        if episode_id is None:
            raise ToolError("tool calls must come through an episode endpoint")
        return self.registry.get(episode_id)


class EpisodeGate:
    """ASGI layer: exact episode path, known episode, matching bearer token; else a JSON error.
    GET streams are limited per episode and closed by the server (see the module's docstring)."""

    def __init__(self, app: ASGIApp, registry: EpisodeRegistry, stream_idle_s: float = STREAM_IDLE_S) -> None:
        self.app = app
        self.registry = registry
        self.stream_idle_s = stream_idle_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        match = EPISODE_PATH.match(scope["path"])
        if match is None:
            await json_error(send, 404, "not found: the MCP endpoint is /episodes/{episode_id}/mcp")
            return
        headers = dict(scope["headers"])
        authorization = headers.get(b"authorization", b"").decode("latin-1")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token:
            await json_error(send, 401, "missing bearer token: send 'Authorization: Bearer <episode token>'")
            return
        try:
            episode = self.registry.authorize(match.group(1), token.strip())
        except EpisodeError as exc:
            # The same answer for an unknown episode and a wrong token: ids are not probeable.
            await json_error(
                send, 401 if exc.status in (401, 404) else exc.status, "unknown episode or bad token"
            )
            return
        if scope["method"] == "GET":
            await self._stream(episode, scope, receive, send)
            return
        await self.app(scope, receive, BoundedErrors(send).send)

    async def _stream(self, episode: Episode, scope: Scope, receive: Receive, send: Send) -> None:
        if episode.open_streams >= MAX_STREAMS_PER_EPISODE:
            message = f"at most {MAX_STREAMS_PER_EPISODE} GET streams per episode; close one first"
            await json_error(send, 429, message)
            return
        episode.open_streams += 1
        watch = StreamWatch(episode.streams_closed, self.stream_idle_s, receive, send)
        try:
            await self.app(scope, watch.receive, watch.send)
        finally:
            episode.open_streams -= 1
            await watch.finish()


def build_mcp_app(
    registry: EpisodeRegistry,
    allowed_hosts: list[str] | None = None,
    stream_idle_s: float = STREAM_IDLE_S,
    max_body_bytes: int | None = None,
) -> ASGIApp:
    """The agent-facing ASGI app of one domain server."""
    server = DomainMCPServer(registry)
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=allowed_hosts is not None,
        allowed_hosts=allowed_hosts or [],
        allowed_origins=[f"http://{host}" for host in allowed_hosts or []],
    )
    inner = server.streamable_http_app(
        streamable_http_path="/mcp", stateless_http=True, json_response=True, transport_security=security
    )

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with server.session_manager.run():
            yield

    app = Starlette(routes=[Mount("/episodes/{episode_id}", app=inner)], lifespan=lifespan)
    return RequestGuard(EpisodeGate(app, registry, stream_idle_s), max_body_bytes)
