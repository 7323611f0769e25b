"""How every part reaches an OpenAI-compatible model endpoint: the model agent, the LLM user, the judge.

A `ModelClient` posts chat-completions bodies to one endpoint. `shared_model_client` hands out one
per endpoint and settings per event loop, all over the loop's one aiohttp session (connection
pool), so a run pays the set-up once instead of once per episode; the run closes them at its end
with `close_model_clients`. Every pool uses the one TLS context of the process
(`default_ssl_context`).

Why not the OpenAI SDK's client: a model call is the run's most frequent request, and the SDK's
request path (option merging, header building, an httpx request wrapped onto aiohttp, a recursive
response model construction) cost 0.69 ms of CPU per call against 0.16 ms for the same POST made
here (bench/llm_throughput.py's mock, 64 calls in flight). What the SDK gives callers is kept: the
body is posted as it is; answers are `openai.types.chat.ChatCompletion`s; failures raise the SDK's
own `openai.APIError` subclasses (`APIConnectionError`, `APITimeoutError`, `RateLimitError`, ...)
with its messages; retries follow its policy (408, 409, 429 and 5xx answers, connection errors and
timeouts; `Retry-After` up to 60 s, else 0.5 s doubling to 8 s less up to a quarter of jitter).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import weakref
from collections.abc import AsyncGenerator, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import aiohttp
import httpx2
import openai
import orjson
import pydantic
from openai.types.chat import ChatCompletion

from taue.contracts.http_transport import KEEPALIVE_EXPIRY, default_ssl_context

MAX_CONNECTIONS = 1000
"""Every request in flight has its own connection (a model call waits long), as with the SDK."""
INITIAL_RETRY_DELAY, MAX_RETRY_DELAY, MAX_RETRY_AFTER = 0.5, 8.0, 60.0
RETRIED_STATUSES = frozenset({408, 409, 429})
STATUS_ERRORS: dict[int, type[openai.APIStatusError]] = {
    400: openai.BadRequestError,
    401: openai.AuthenticationError,
    403: openai.PermissionDeniedError,
    404: openai.NotFoundError,
    409: openai.ConflictError,
    422: openai.UnprocessableEntityError,
    429: openai.RateLimitError,
}


def new_session() -> aiohttp.ClientSession:
    """A connection pool for model endpoints (call from a running event loop)."""
    connector = aiohttp.TCPConnector(
        limit=MAX_CONNECTIONS, keepalive_timeout=KEEPALIVE_EXPIRY, ssl=default_ssl_context()
    )
    return aiohttp.ClientSession(connector=connector)


class ModelClient:
    """Chat completions of one OpenAI-compatible endpoint (`base_url` ends before `/chat/completions`).

    `timeout` bounds connecting (a pool slot included) and each wait for the answer's next bytes, as
    the SDK's timeout does; `max_retries` is the retries after a first failure.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        max_retries: int,
        timeout: float,
        session: aiohttp.ClientSession | None = None,
    ) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.max_retries = max_retries
        self.headers = {
            "Authorization": f"Bearer {api_key}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        }
        self.timeout = aiohttp.ClientTimeout(total=None, connect=timeout, sock_read=timeout)
        self._session = session
        self._owns_session = session is None

    async def chat_completion(self, body: Mapping[str, Any]) -> ChatCompletion:
        """POST `body` as it is (JSON-encoded once, by orjson) and read the answer, retrying as the SDK
        would."""
        payload = orjson.dumps(body)
        for attempt in range(self.max_retries + 1):
            try:
                return await self._post(payload)
            except (openai.APIConnectionError, openai.APIStatusError) as exc:
                if attempt == self.max_retries or not should_retry(exc):
                    raise
                await asyncio.sleep(retry_delay(exc, attempt))
        raise AssertionError("unreachable")

    async def _post(self, payload: bytes) -> ChatCompletion:
        session = self._session = self._session or new_session()
        posting = session.post(self.url, data=payload, headers=self.headers, timeout=self.timeout)
        try:
            async with posting as answer:
                status, headers, raw = answer.status, answer.headers, await answer.read()
        except TimeoutError:
            raise openai.APITimeoutError(request=self._request()) from None
        except aiohttp.ClientError as exc:
            message = f"Connection error: {exc}"
            raise openai.APIConnectionError(message=message, request=self._request()) from exc
        if status >= 400:
            raise status_error(self._response(status, headers, raw))
        return self._completion(status, headers, raw)

    def _completion(self, status: int, headers: Mapping[str, str], raw: bytes) -> ChatCompletion:
        """The answer as the SDK's model: validated when it conforms (fast), else built leniently
        from whatever fields it has, as the SDK does."""
        try:
            return ChatCompletion.model_validate_json(raw)
        except pydantic.ValidationError:
            pass
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            response = self._response(status, headers, raw)
            raise openai.APIResponseValidationError(response, raw.decode("utf-8", "replace"))
        return ChatCompletion.construct(**data)

    def _request(self) -> httpx2.Request:
        return httpx2.Request("POST", self.url)

    def _response(self, status: int, headers: Mapping[str, str], raw: bytes) -> httpx2.Response:
        return httpx2.Response(status, headers=dict(headers), content=raw, request=self._request())

    async def close(self) -> None:
        """Close the connections of a client made without a session; a shared session stays open."""
        if self._owns_session and self._session is not None:
            await self._session.close()
            self._session = None

    async def __aenter__(self) -> ModelClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()


def status_error(response: httpx2.Response) -> openai.APIStatusError:
    """The SDK's error for an HTTP error answer: its class by status, its message and body."""
    message, text = f"Error code: {response.status_code}", response.text.strip()
    body: object = text
    with contextlib.suppress(ValueError):
        body = json.loads(text)
    data = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(data, dict) and isinstance(data.get("message"), str) and data["message"]:
        message += f" - {data['message']}"
    kind = STATUS_ERRORS.get(response.status_code)
    if kind is None:
        kind = openai.InternalServerError if response.status_code >= 500 else openai.APIStatusError
    return kind(message, response=response, body=data)


def should_retry(exc: openai.APIConnectionError | openai.APIStatusError) -> bool:
    """The SDK's rule: connection errors and timeouts, and 408, 409, 429 and 5xx answers (a server's
    `x-should-retry` header decides when present; a `Retry-After` beyond 60 s is not waited for)."""
    if isinstance(exc, openai.APIConnectionError):
        return True
    retry_after = _retry_after(exc.response.headers)
    if retry_after is not None and retry_after > MAX_RETRY_AFTER:
        return False
    said = exc.response.headers.get("x-should-retry")
    if said in ("true", "false"):
        return said == "true"
    return exc.status_code in RETRIED_STATUSES or exc.status_code >= 500


def retry_delay(exc: openai.APIError, attempt: int) -> float:
    """The server's `Retry-After` (up to 60 s), else 0.5 s doubling per attempt up to 8 s, less up to
    a quarter of jitter."""
    if isinstance(exc, openai.APIStatusError):
        retry_after = _retry_after(exc.response.headers)
        if retry_after is not None and 0 < retry_after <= MAX_RETRY_AFTER:
            return retry_after
    return min(INITIAL_RETRY_DELAY * 2.0**attempt, MAX_RETRY_DELAY) * (1 - 0.25 * random.random())


def _retry_after(headers: httpx2.Headers) -> float | None:
    """Seconds from `retry-after-ms` or a numeric `retry-after` (an HTTP date counts as absent)."""
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        try:
            value = float(headers.get(name, "")) / scale
        except ValueError:
            continue
        if math.isfinite(value):
            return value
    return None


@dataclass
class _LoopClients:
    session: aiohttp.ClientSession | None = None
    clients: dict[tuple[str, str, int, float], ModelClient] = field(default_factory=dict)
    closer: AsyncGenerator[None, None] | None = None
    closer_started: asyncio.Future[None] | None = None

    async def close(self) -> None:
        session, self.session, self.clients = self.session, None, {}
        if session is not None:
            await session.close()


_BY_LOOP: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopClients] = weakref.WeakKeyDictionary()


def shared_model_client(base_url: str, api_key: str, *, max_retries: int, timeout: float) -> ModelClient:
    """The running loop's client for these settings, made on first use; the caller must not close it."""
    loop_clients = _BY_LOOP.get(asyncio.get_running_loop()) or _new_loop_clients()
    key = (base_url, api_key, max_retries, timeout)
    client = loop_clients.clients.get(key)
    if client is None:
        loop_clients.session = loop_clients.session or new_session()
        client = loop_clients.clients[key] = ModelClient(
            base_url, api_key, max_retries=max_retries, timeout=timeout, session=loop_clients.session
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
