"""Closing an MCP GET stream from the server side.

The SDK's server-sent-events response ends only when its `receive` says the client disconnected.
`StreamWatch` stands between the SDK and the client: its `receive` answers `http.disconnect` once
the episode's `closed` event is set (the episode ended, was deleted or expired) or the stream has
sent no data for `idle_s` (pings do not count), and `finish` completes the HTTP response that the
SDK leaves open when it stops that way, so the client sees the stream end cleanly.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from starlette.types import Message, Receive, Send

STREAM_IDLE_S = 60.0
"""Seconds a GET stream may go without data before the server closes it."""


class StreamWatch:
    def __init__(self, closed: asyncio.Event, idle_s: float, receive: Receive, send: Send) -> None:
        self.closed = closed
        self.idle_s = idle_s
        self._receive = receive
        self._send = send
        self.last_data = time.monotonic()
        self.started = self.complete = self.ended_by_server = False
        self._pending: asyncio.Future[Message] | None = None

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
        elif message["type"] == "http.response.body":
            body = message.get("body", b"")
            if body and not body.startswith(b":"):  # an SSE comment (":") is a ping, not data
                self.last_data = time.monotonic()
            self.complete = not message.get("more_body", False)
        await self._send(message)

    async def receive(self) -> Message:
        while True:
            remaining = self.last_data + self.idle_s - time.monotonic()
            if self.closed.is_set() or remaining <= 0:
                self.ended_by_server = True
                return {"type": "http.disconnect"}
            if self._pending is None:
                self._pending = asyncio.ensure_future(self._receive())
            closing = asyncio.ensure_future(self.closed.wait())
            try:
                waiting: set[asyncio.Future[Any]] = {self._pending, closing}
                await asyncio.wait(waiting, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
            finally:
                closing.cancel()
            if self._pending.done():
                message, self._pending = self._pending.result(), None
                return message

    async def finish(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
        if self.ended_by_server and self.started and not self.complete:
            await self._send({"type": "http.response.body", "body": b"", "more_body": False})
