"""JSON-RPC error answers of the MCP port, cut to a bounded echo on their way out.

The SDK's own errors repeat what they were sent: `Method not found` carries the method name, `Unknown
resource` the URI (twice). `BoundedErrors` wraps `send` for one request and passes every answer
through `bounded_answer`, which shortens the `message` and `data` of each JSON-RPC error in it (see
`bounded_error`). Only a body that mentions `"error"` is parsed; the request id is kept as sent (the
client needs it to match the answer; the 1 MiB request limit bounds it).
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import Message, Send

from taue.envs.runtime.limits import bounded_error

DATA_LIMIT = 200


def _bounded_data(data: Any) -> Any:
    if isinstance(data, str):
        return bounded_error(data)
    if len(json.dumps(data)) <= DATA_LIMIT:
        return data
    return bounded_error(json.dumps(data))[:DATA_LIMIT]


def _bound(message: Any) -> bool:
    """Shorten one JSON-RPC message's error in place; True if anything changed."""
    error = message.get("error") if isinstance(message, dict) else None
    if not isinstance(error, dict):
        return False
    before = dict(error)
    if isinstance(error.get("message"), str):
        error["message"] = bounded_error(error["message"])
    if "data" in error:
        error["data"] = _bounded_data(error["data"])
    return error != before


def bounded_answer(body: bytes) -> bytes:
    if b'"error"' not in body:
        return body
    try:
        answer = json.loads(body)
    except ValueError:
        return body
    messages = answer if isinstance(answer, list) else [answer]
    changed = [_bound(message) for message in messages]
    return json.dumps(answer, separators=(",", ":")).encode() if any(changed) else body


class BoundedErrors:
    """`send` of one request: a one-piece answer goes out through `bounded_answer`, its
    Content-Length set to match; a streamed answer goes out unchanged."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self._start: Message | None = None

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self._start = message
            return
        if self._start is not None and message["type"] == "http.response.body":
            start, self._start = self._start, None
            if not message.get("more_body", False):
                body = bounded_answer(message.get("body", b""))
                message = {**message, "body": body}
                start = {**start, "headers": _with_length(start.get("headers", []), len(body))}
            await self._send(start)
        await self._send(message)


def _with_length(headers: Any, length: int) -> list[tuple[bytes, bytes]]:
    kept = [(name, value) for name, value in headers if name.lower() != b"content-length"]
    return [*kept, (b"content-length", str(length).encode())]
