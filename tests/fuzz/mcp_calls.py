"""Calling one episode's tools over real MCP and classifying the outcome.

Two ways in, both to the episode's MCP endpoint over HTTP:
- the MCP SDK's `Client` (as the runner's agents call tools), for every argument object it can send;
- a hand-built JSON-RPC request, identical to the client's on the wire, for what the client refuses to
  build (arguments that are not a JSON object).
Every HTTP status is recorded, so a 5xx hidden behind the client's generic error is still seen.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import re
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import encode_header_value
from pydantic import BaseModel

from taue.runner.mcp_session import MCP_PROTOCOL, list_all_tools
from tests.fuzz.live_servers import CALL_TIMEOUT_S, BackgroundLoop, Episode

CLIENT_SIDE_ERRORS = (-32602, -32601, -32600)
"""JSON-RPC errors a server may answer bad requests with: invalid params, unknown method, bad request."""
LEAKED_INTERNALS = re.compile(r"internal error|traceback \(most recent call last\)|exception in asgi", re.I)


class CallOutcome(BaseModel):
    """What one tool call came back as, over the wire."""

    statuses: list[int]
    result_error: bool | None = None
    """`isError` of the tool result; None when no tool result came back."""
    text: str = ""
    rpc_error: int | None = None
    """The JSON-RPC error code, when the server answered with an error instead of a result."""
    transport_error: str | None = None
    """An exception below MCP: a dropped connection, a malformed answer."""

    @property
    def failed(self) -> bool:
        return self.result_error is not False

    def server_fault(self) -> str | None:
        """Why this outcome shows a server fault (a 5xx, a dropped call, leaked internals), or None."""
        if any(status >= 500 for status in self.statuses):
            return f"HTTP {self.statuses} from the MCP port"
        if self.transport_error is not None:
            return f"transport error: {self.transport_error}"
        refused = any(400 <= status < 500 for status in self.statuses)  # e.g. 413: the client says -32603
        if self.rpc_error is not None and self.rpc_error not in CLIENT_SIDE_ERRORS and not refused:
            return f"JSON-RPC error {self.rpc_error}: {self.text}"
        if self.result_error is None and self.rpc_error is None:
            return "neither a tool result nor a JSON-RPC error"
        if LEAKED_INTERNALS.search(self.text):
            return f"internal error text: {self.text[:500]}"
        return None


class EpisodeCaller:
    """Tool calls on one episode: an open MCP `Client` kept on the background loop, reopened when a
    call breaks it, plus a raw JSON-RPC path."""

    def __init__(self, loop: BackgroundLoop, episode: Episode) -> None:
        self.loop = loop
        self.episode = episode
        self.statuses: list[int] = []
        self._client: Client | None = None
        self._close: asyncio.Event | None = None
        self._session: concurrent.futures.Future[None] | None = None
        self._raw = httpx2.Client(timeout=CALL_TIMEOUT_S, headers=self._headers())

    def _headers(self) -> dict[str, str]:
        return {
            "Authorization": f"Bearer {self.episode.token}",
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "mcp-protocol-version": MCP_PROTOCOL,
        }

    def call(self, name: str, arguments: Any) -> CallOutcome:
        if isinstance(arguments, dict):
            return self._call_with_client(name, arguments)
        return self.call_raw(name, arguments)

    def _call_with_client(self, name: str, arguments: dict[str, Any]) -> CallOutcome:
        client = self._open_client()
        self.statuses.clear()
        try:
            result = self.loop.run(client.call_tool(name, arguments))
        except MCPError as exc:
            if exc.code not in CLIENT_SIDE_ERRORS:
                self.close_client()  # the client may be broken (connection closed): a fresh one next time
            return CallOutcome(statuses=list(self.statuses), rpc_error=exc.code, text=str(exc))
        except Exception as exc:
            self.close_client()
            return CallOutcome(statuses=list(self.statuses), transport_error=f"{type(exc).__name__}: {exc}")
        text = "".join(getattr(block, "text", "") for block in result.content)
        return CallOutcome(statuses=list(self.statuses), result_error=result.is_error, text=text)

    def call_raw(self, name: str, arguments: Any) -> CallOutcome:
        """The call as a hand-built JSON-RPC request (JSON with \\u escapes, so any Python string goes)."""
        meta = {
            "io.modelcontextprotocol/protocolVersion": MCP_PROTOCOL,
            "io.modelcontextprotocol/clientInfo": {"name": "taue-fuzz", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments, "_meta": meta},
        }
        headers = {"mcp-method": "tools/call", "mcp-name": encode_header_value(name)}
        try:
            response = self._raw.post(self.episode.mcp_url, content=json.dumps(body), headers=headers)
            answer = response.json()
        except Exception as exc:
            return CallOutcome(statuses=[], transport_error=f"{type(exc).__name__}: {exc}")
        outcome = CallOutcome(statuses=[response.status_code])
        if isinstance(answer, dict) and isinstance(answer.get("error"), dict):
            error = answer["error"]
            return outcome.model_copy(update={"rpc_error": error.get("code"), "text": str(error)})
        result = answer.get("result") if isinstance(answer, dict) else None
        if isinstance(result, dict) and "content" in result:
            text = "".join(str(block.get("text", "")) for block in result["content"])
            return outcome.model_copy(update={"result_error": bool(result.get("isError")), "text": text})
        return outcome.model_copy(update={"text": response.text[:500]})

    def _open_client(self) -> Client:
        if self._client is None:
            self._close = asyncio.Event()
            ready: concurrent.futures.Future[Client] = concurrent.futures.Future()
            self._session = asyncio.run_coroutine_threadsafe(self._hold_session(ready), self.loop.loop)
            self._client = ready.result(CALL_TIMEOUT_S)
        return self._client

    async def _hold_session(self, ready: concurrent.futures.Future[Client]) -> None:
        """Open the client, hand it out, and keep its context open until `close_client`."""

        async def record(response: httpx2.Response) -> None:
            self.statuses.append(response.status_code)

        http = httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {self.episode.token}"},
            timeout=CALL_TIMEOUT_S,
            event_hooks={"response": [record]},
        )
        close = self._close
        assert close is not None
        transport = streamable_http_client(self.episode.mcp_url, http_client=http)
        try:
            async with Client(transport, mode=MCP_PROTOCOL) as client:
                await list_all_tools(client)  # as agents do; the 2026 protocol wants tools listed first
                ready.set_result(client)
                await close.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
        finally:
            await http.aclose()

    def close_client(self) -> None:
        """Close the client's session and wait for it (a broken one just ends)."""
        if self._close is not None:
            self.loop.loop.call_soon_threadsafe(self._close.set)
        if self._session is not None:
            with contextlib.suppress(Exception):
                self._session.result(CALL_TIMEOUT_S)
        self._client = self._close = self._session = None

    def close(self) -> None:
        self.close_client()
        self._raw.close()
