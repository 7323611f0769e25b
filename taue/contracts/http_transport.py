"""The HTTP transport of the runner's httpx2 clients (the agents' MCP sessions), the TLS settings of
every client of the process, and how long any of them keeps an idle connection.

httpx2's own connection pool probes every idle pooled connection on every request; the aiohttp
transport the OpenAI SDK ships (`openai._vendor.httpx_aiohttp`) costs about half the CPU per
request and does not. It reports every aiohttp connection error as a connect timeout, though: here a
refused connection is a `ConnectError` and a dropped one a `ReadError`, as with httpx2's pool.
"""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from functools import cache

import aiohttp
import httpx2
from openai._vendor.httpx_aiohttp import AiohttpTransport

KEEPALIVE_EXPIRY = 4.0
"""Seconds an idle pooled connection is kept. Servers close idle keep-alive connections themselves
(uvicorn, and so vLLM, after 5 s by default; ours after 75 s): a client that keeps one longer may
send a request on it just as the server closes it, and the request fails with a read error. Under
load a connection is never idle this long, so the short expiry costs nothing."""


@cache
def default_ssl_context() -> ssl.SSLContext:
    """The default TLS settings, loaded once per process (loading the CA store takes ~30 ms)."""
    return httpx2.create_ssl_context()


def http_transport(limits: httpx2.Limits) -> httpx2.AsyncBaseTransport:
    """An HTTP/1.1 transport over aiohttp with the process's TLS context."""
    return _Transport(verify=default_ssl_context(), limits=limits)


@contextmanager
def _connection_errors_as_such() -> Iterator[None]:
    try:
        yield
    except httpx2.ConnectTimeout as exc:
        cause = exc.__cause__
        if isinstance(cause, TimeoutError) or not isinstance(cause, aiohttp.ClientConnectionError):
            raise
        error = httpx2.ConnectError if isinstance(cause, aiohttp.ClientConnectorError) else httpx2.ReadError
        raise error(str(cause)) from cause


class _ErrorsKept(httpx2.AsyncByteStream):
    def __init__(self, stream: httpx2.AsyncByteStream) -> None:
        self.stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _connection_errors_as_such():
            async for chunk in self.stream:
                yield chunk

    async def aclose(self) -> None:
        with _connection_errors_as_such():
            await self.stream.aclose()


class _Transport(AiohttpTransport):
    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        with _connection_errors_as_such():
            response = await super().handle_async_request(request)
        # arg-type: httpx types `stream` as its own stream classes; the wrapper keeps their interface
        response.stream = _ErrorsKept(response.stream)  # type: ignore[arg-type]
        return response
