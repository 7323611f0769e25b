"""The ASGI layer in front of both ports of a domain server: bounded request bodies, quiet disconnects.

The body is read here, before any other layer sees it: one over `MAX_BODY_BYTES` is answered `413`
(at once when its Content-Length says so, else as soon as the bytes read pass the bound: a chunked
body is counted too). uvicorn then reads and discards the rest of the body (it is never held), so the
client, still sending, gets to read the answer; a body declared over `CLOSE_ABOVE_BYTES` is not
worth that, and its connection is closed at once. A client that goes away (mid-body, or while its
request runs) is one warning line on the server's log, never a traceback.

Given `allowed_hosts`, the guard also answers `421` to a request whose Host header is not one of
them (DNS rebinding: a web page whose name resolves to this machine), except `GET /healthz`, which
probes reach by address. An entry `name:*` allows the name on any port.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

import anyio
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 1024 * 1024
CLOSE_ABOVE_BYTES = 16 * 1024 * 1024
DISCONNECT_ERRORS = (ClientDisconnect, anyio.ClosedResourceError, anyio.BrokenResourceError, ConnectionError)
log = logging.getLogger("uvicorn.error")  # uvicorn's own log: one format for everything the server says


async def json_error(send: Send, status: int, message: str, close: bool = False) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="taue-episode"'))
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def host_allowed(host: str | None, allowed: Sequence[str]) -> bool:
    """Whether a Host header names this server: an exact entry, or `name:*` for any port."""
    if not host:
        return False
    host = host.lower()
    return any(host == entry or (entry.endswith(":*") and host.startswith(entry[:-1])) for entry in allowed)


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


def request_line(scope: Scope) -> str:
    """Method and path for the log, the path cut short (it is the client's)."""
    path = scope.get("path", "")
    return f"{scope.get('method', '?')} {path[:80]}{'…' if len(path) > 80 else ''}"


def declared_length(scope: Scope) -> int | None:
    value = header(scope, b"content-length")
    try:
        return None if value is None else int(value)
    except ValueError:
        return None


def is_disconnect(exc: BaseException) -> bool:
    if isinstance(exc, BaseExceptionGroup):
        return all(is_disconnect(inner) for inner in exc.exceptions)
    return isinstance(exc, DISCONNECT_ERRORS)


class BodyReplay:
    """`receive` for the app behind the guard: the whole body at once, then the client's messages."""

    def __init__(self, body: bytes, receive: Receive) -> None:
        self.body: bytes | None = body
        self._receive = receive
        self.disconnected = False

    async def receive(self) -> Message:
        if self.body is not None:
            body, self.body = self.body, None
            return {"type": "http.request", "body": body, "more_body": False}
        message = await self._receive()
        if message["type"] == "http.disconnect":
            self.disconnected = True
        return message


class RequestGuard:
    def __init__(
        self, app: ASGIApp, max_body_bytes: int | None = None, allowed_hosts: Sequence[str] | None = None
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes or MAX_BODY_BYTES
        self.allowed_hosts = None if allowed_hosts is None else [entry.lower() for entry in allowed_hosts]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self._misdirected(scope):
            message = "misdirected request: the Host header does not name this server"
            await json_error(send, 421, message, close=True)  # its body is never read
            return
        declared = declared_length(scope)
        if declared is not None and declared > self.max_body_bytes:
            await self._too_large(send, close=declared > CLOSE_ABOVE_BYTES)
            return
        body = await self._read_body(scope, receive, send)
        if body is None:
            return
        replay = BodyReplay(body, receive)
        try:
            await self.app(scope, replay.receive, send)
        except BaseException as exc:
            if not (replay.disconnected and is_disconnect(exc)):
                raise
            log.warning("client disconnected during %s (%s)", request_line(scope), type(exc).__name__)

    def _misdirected(self, scope: Scope) -> bool:
        if self.allowed_hosts is None or (scope["path"] == "/healthz" and scope["method"] == "GET"):
            return False
        return not host_allowed(header(scope, b"host"), self.allowed_hosts)

    async def _read_body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None when the client left or the body is too large (answered here)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                log.warning("client disconnected before sending the whole body of %s", request_line(scope))
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                await self._too_large(send)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _too_large(self, send: Send, close: bool = False) -> None:
        limit = self.max_body_bytes
        await json_error(send, 413, f"request body over the limit of {limit} bytes", close=close)
