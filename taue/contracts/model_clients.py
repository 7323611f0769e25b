"""How every part reaches an OpenAI-compatible model endpoint: the model agent, the LLM user, the judge.

`shared_model_client` hands out one `openai.AsyncOpenAI` per endpoint and settings per event loop,
all clients of an endpoint over one connection pool, so a run pays the client's set-up once
instead of once per episode (about 20 ms of CPU each: a connection pool and, by default, a freshly
loaded TLS context even for http://). Every pool uses the one TLS context of the process
(`default_ssl_context`). The run closes them at its end with `close_model_clients`.

The pools speak HTTP through aiohttp when it is installed (the aiohttp transport the SDK ships for
`openai.DefaultAioHttpClient`): a model call then costs about half the CPU it costs through
httpx2's own pool, which also probes every idle pooled connection on every request.

`chat_completion` posts a request body as it is: the SDK's `chat.completions.create` first walks
the whole body (every message and tool schema) through its parameter transformation, which costs
more CPU than the rest of a model call.
"""

from __future__ import annotations

import asyncio
import ssl
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import httpx2
import openai
from openai.types.chat import ChatCompletion

KEEPALIVE_EXPIRY = 4.0
"""Seconds an idle pooled connection is kept. Model servers close idle keep-alive connections
themselves (uvicorn, and so vLLM, after 5 s by default): a client that keeps one longer may send a
request on it just as the server closes it, and the request fails with a read error. Under load a
connection is never idle this long, so the short expiry costs nothing."""
MAX_CONNECTIONS = 1000
"""As the SDK's default: every request in flight has its own connection (a model call waits long)."""


@cache
def default_ssl_context() -> ssl.SSLContext:
    """The default TLS settings, loaded once per process (loading the CA store takes ~30 ms)."""
    return httpx2.create_ssl_context()


def connection_pool() -> httpx2.AsyncClient:
    """A fresh HTTP client for one model endpoint, with the process's TLS context."""
    limits = httpx2.Limits(
        max_connections=MAX_CONNECTIONS,
        max_keepalive_connections=MAX_CONNECTIONS,
        keepalive_expiry=KEEPALIVE_EXPIRY,
    )
    return httpx2.AsyncClient(transport=http_transport(limits), follow_redirects=True)


def http_transport(limits: httpx2.Limits) -> httpx2.AsyncBaseTransport:
    """An HTTP/1.1 transport with the process's TLS context: aiohttp's when it is installed (half the
    CPU per request, and no probe of every idle pooled connection per request), else httpx2's."""
    return (aiohttp_transport() or httpx2.AsyncHTTPTransport)(verify=default_ssl_context(), limits=limits)


@cache
def aiohttp_transport() -> type[httpx2.AsyncBaseTransport] | None:
    """The SDK's aiohttp transport, its connection errors told apart from timeouts; None without aiohttp."""
    try:
        import aiohttp
        from openai._vendor.httpx_aiohttp import AiohttpTransport
    except ImportError:
        return None

    @contextmanager
    def connection_errors_as_such() -> Iterator[None]:
        # The vendored transport reports every aiohttp connection error as a connect timeout: a refused
        # connection would read "timed out", and a dropped one too.
        try:
            yield
        except httpx2.ConnectTimeout as exc:
            cause = exc.__cause__
            if isinstance(cause, TimeoutError) or not isinstance(cause, aiohttp.ClientConnectionError):
                raise
            error = (
                httpx2.ConnectError if isinstance(cause, aiohttp.ClientConnectorError) else httpx2.ReadError
            )
            raise error(str(cause)) from cause

    class ErrorsKept(httpx2.AsyncByteStream):
        def __init__(self, stream: httpx2.AsyncByteStream) -> None:
            self.stream = stream

        async def __aiter__(self) -> AsyncIterator[bytes]:
            with connection_errors_as_such():
                async for chunk in self.stream:
                    yield chunk

        async def aclose(self) -> None:
            with connection_errors_as_such():
                await self.stream.aclose()

    class Transport(AiohttpTransport):
        async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
            with connection_errors_as_such():
                response = await super().handle_async_request(request)
            response.stream = ErrorsKept(response.stream)  # type: ignore[arg-type]
            return response

    return Transport


def new_model_client(
    base_url: str, api_key: str, *, max_retries: int, timeout: float, pool: httpx2.AsyncClient | None = None
) -> openai.AsyncOpenAI:
    """A client of its own (its caller closes it), over `pool` or a new connection pool."""
    return openai.AsyncOpenAI(
        base_url=base_url,
        api_key=api_key,
        max_retries=max_retries,
        timeout=timeout,
        http_client=pool or connection_pool(),
    )


@dataclass
class _LoopClients:
    pools: dict[str, httpx2.AsyncClient] = field(default_factory=dict)
    clients: dict[tuple[str, str, int, float], openai.AsyncOpenAI] = field(default_factory=dict)
    closer: AsyncGenerator[None, None] | None = None
    closer_started: asyncio.Future[None] | None = None

    async def close(self) -> None:
        pools, self.pools, self.clients = list(self.pools.values()), {}, {}
        for pool in pools:
            await pool.aclose()


_BY_LOOP: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopClients] = weakref.WeakKeyDictionary()


def shared_model_client(
    base_url: str, api_key: str, *, max_retries: int, timeout: float
) -> openai.AsyncOpenAI:
    """The running loop's client for these settings, made on first use; the caller must not close it."""
    loop_clients = _BY_LOOP.get(asyncio.get_running_loop()) or _new_loop_clients()
    key = (base_url, api_key, max_retries, timeout)
    client = loop_clients.clients.get(key)
    if client is None:
        pool = loop_clients.pools.get(base_url)
        if pool is None:
            pool = loop_clients.pools[base_url] = connection_pool()
        client = loop_clients.clients[key] = new_model_client(
            base_url, api_key, max_retries=max_retries, timeout=timeout, pool=pool
        )
    return client


def _new_loop_clients() -> _LoopClients:
    """The running loop's registry, closed at the latest when the loop shuts down.

    A run closes its clients itself (`close_model_clients`); servers (`taue serve simulator`, `taue
    agent serve`) just end. asyncio.run finalizes every unfinished async generator of its loop
    before closing it: the registry's `closer` is one, so its connections are closed then too.
    """
    loop = asyncio.get_running_loop()
    loop_clients = _BY_LOOP[loop] = _LoopClients()

    async def close_at_loop_end() -> AsyncGenerator[None, None]:
        try:
            yield
        finally:
            await loop_clients.close()

    loop_clients.closer = close_at_loop_end()
    loop_clients.closer_started = asyncio.ensure_future(loop_clients.closer.__anext__())  # to its yield
    return loop_clients


def open_model_clients() -> int:
    """How many shared clients the running loop holds (tests)."""
    loop_clients = _BY_LOOP.get(asyncio.get_running_loop())
    return len(loop_clients.clients) if loop_clients else 0


async def close_model_clients() -> None:
    """Close the running loop's shared clients and their connections; later calls make new ones."""
    loop_clients = _BY_LOOP.pop(asyncio.get_running_loop(), None)
    if loop_clients is not None:
        await loop_clients.close()


async def chat_completion(client: openai.AsyncOpenAI, body: dict[str, Any]) -> ChatCompletion:
    """POST `body` to the endpoint's /chat/completions as it is (JSON-encoded once), with the client's
    retries and timeout; raises the SDK's `openai.APIError`s like `chat.completions.create`."""
    return await client.post("/chat/completions", body=body, cast_to=ChatCompletion)
