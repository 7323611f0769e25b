"""The agent-facing MCP port: only `/episodes/{episode_id}/mcp`, only with that episode's token.

One `MCPServer` per domain serves every episode; the episode is taken from the request path, and
the bearer-token check happens in an ASGI layer in front of the SDK, before any MCP processing.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.types import ASGIApp, Receive, Scope, Send

from taue.envs.runtime.episodes import Episode, EpisodeError, EpisodeRegistry
from taue.envs.runtime.execution import execute_logged

EPISODE_PATH = re.compile(r"^/episodes/([A-Za-z0-9_-]{1,64})/mcp$")


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
        )
        self.registry = registry
        self.resource(f"policy://{domain.name}", name="policy", mime_type="text/markdown")(
            lambda: domain.policy
        )

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context | None = None
    ) -> CallToolResult:
        episode = self._episode(context)
        async with episode.lock:
            if episode.ended:
                raise ToolError("this conversation has been transferred; no further actions are possible")
            result = await execute_logged(
                self.registry.domain, episode.db, episode.log, name, arguments, context
            )
            last = episode.log[-1]
            if last.ok and last.name in self.registry.domain.terminal_tools:
                episode.ended = True
            return result

    def _episode(self, context: Context | None) -> Episode:
        request = context.request_context.request if context is not None else None
        episode_id = request.path_params.get("episode_id") if request is not None else None
        if episode_id is None:
            raise ToolError("tool calls must come through an episode endpoint")
        return self.registry.get(episode_id)


class EpisodeGate:
    """ASGI layer: exact episode path, known episode, matching bearer token; else a JSON error."""

    def __init__(self, app: ASGIApp, registry: EpisodeRegistry) -> None:
        self.app = app
        self.registry = registry

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        match = EPISODE_PATH.match(scope["path"])
        if match is None:
            await _json_error(send, 404, "not found: the MCP endpoint is /episodes/{episode_id}/mcp")
            return
        headers = dict(scope["headers"])
        authorization = headers.get(b"authorization", b"").decode("latin-1")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token:
            await _json_error(send, 401, "missing bearer token: send 'Authorization: Bearer <episode token>'")
            return
        try:
            self.registry.authorize(match.group(1), token.strip())
        except EpisodeError as exc:
            # The same answer for an unknown episode and a wrong token: ids are not probeable.
            await _json_error(
                send, 401 if exc.status in (401, 404) else exc.status, "unknown episode or bad token"
            )
            return
        await self.app(scope, receive, send)


async def _json_error(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="taue-episode"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def build_mcp_app(registry: EpisodeRegistry, allowed_hosts: list[str] | None = None) -> ASGIApp:
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
    return EpisodeGate(app, registry)
