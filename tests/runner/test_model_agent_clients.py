"""The model agent's and the LLM user's OpenAI clients: one per endpoint for a run, closed at its end."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx2
import openai
import pytest
from fastapi import FastAPI, Request

from taue.contracts.http_transport import http_transport
from taue.contracts.model_clients import ModelClient, open_model_clients
from taue.contracts.run import RunConfig
from taue.envs.runtime.server import bind_socket
from taue.runner.runner import execute_run
from tests.openai_double import OpenAIDouble
from tests.task_picks import plain_task_id

TASK = plain_task_id("airline", neutral=True)


class ConnectionCountingDouble(OpenAIDouble):
    """The double, remembering the client port of every request: one port is one TCP connection."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.ports: list[int] = []

    def app(self) -> FastAPI:
        app = super().app()

        @app.middleware("http")
        async def remember_port(request: Request, call_next):
            assert request.client is not None
            self.ports.append(request.client.port)
            return await call_next(request)

        return app


def agent_or_user(body: dict) -> dict:
    """The agent (a request with tools) answers in words; the LLM user stops on its second line."""
    if "tools" in body:
        return {"content": "Let me check that for you."}
    said = sum(1 for m in body["messages"] if m["role"] == "assistant")
    return {"content": "Thanks, bye. ###STOP###" if said else "Hi, I need help with my booking."}


async def test_episodes_of_a_run_share_one_client_and_connection_closed_at_the_end(tmp_path: Path) -> None:
    async with ConnectionCountingDouble([agent_or_user]) as double:
        config = RunConfig(
            run="clients", domains=["airline"], agent="model", model="m", base_url=double.base_url,
            user="llm", user_model="u", user_base_url=double.base_url, trials=3, task_ids=[TASK],
        )  # fmt: skip
        report = await execute_run(config, tmp_path, {}, 1)
        assert open_model_clients() == 0  # the run closed its clients
    assert len(report.records) == 3 and all(r.termination == "user_stop" for r in report.records)
    agent_calls = sum(1 for body in double.requests if "tools" in body)
    assert agent_calls == 3 and len(double.requests) == 9
    # One episode at a time: a client shared by the run (agent and user alike) reuses one
    # keep-alive connection, where a client per episode would open a connection per episode.
    assert len(set(double.ports)) == 1, double.ports


def refused_url() -> str:
    sock = bind_socket()  # a port with no listener once closed
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    sock.close()
    return url


@asynccontextmanager
async def raw_server(answer: bytes | None) -> AsyncIterator[str]:
    """An endpoint that answers every request with these bytes, or never answers (None)."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        if answer is None:
            await asyncio.sleep(30)
        writer.write(answer or b"")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    async with server:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1"


BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


async def test_a_client_posts_the_body_as_it_is_and_reports_a_refused_connection_as_such() -> None:
    async with (
        OpenAIDouble([{"content": "hello"}]) as double,
        ModelClient(double.base_url, "k", max_retries=0, timeout=10) as client,
    ):
        completion = await client.chat_completion(BODY)
    assert completion.choices[0].message.content == "hello" and double.requests == [BODY]
    assert double.headers[0]["authorization"] == "Bearer k"
    async with ModelClient(refused_url(), "k", max_retries=0, timeout=10) as client:
        with pytest.raises(openai.APIConnectionError) as raised:
            await client.chat_completion(BODY)
    assert not isinstance(raised.value, openai.APITimeoutError)  # refused, not timed out


async def test_server_errors_are_retried_and_client_errors_are_not() -> None:
    async with (
        OpenAIDouble([{"status": 503}, {"content": "after a retry"}]) as double,
        ModelClient(double.base_url, "k", max_retries=2, timeout=10) as client,
    ):
        completion = await client.chat_completion(BODY)
    assert completion.choices[0].message.content == "after a retry" and len(double.requests) == 2
    async with (
        OpenAIDouble([{"status": 400}]) as double,
        ModelClient(double.base_url, "k", max_retries=2, timeout=10) as client,
    ):
        with pytest.raises(openai.BadRequestError) as raised:
            await client.chat_completion(BODY)
    assert len(double.requests) == 1 and str(raised.value) == "Error code: 400 - scripted failure"
    assert raised.value.body == {"message": "scripted failure"}


async def test_a_silent_endpoint_times_out() -> None:
    async with raw_server(None) as url, ModelClient(url, "k", max_retries=0, timeout=0.3) as client:
        with pytest.raises(openai.APITimeoutError):
            await client.chat_completion(BODY)


async def test_an_answer_missing_fields_is_read_leniently_and_one_that_is_not_json_is_an_error() -> None:
    envelope = b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": "terse"}}]}'
    http = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n"
    async with (
        raw_server(http % len(envelope) + envelope) as url,
        ModelClient(url, "k", max_retries=0, timeout=10) as client,
    ):
        completion = await client.chat_completion(BODY)
    assert completion.choices[0].message.content == "terse" and completion.usage is None
    async with (
        raw_server(http % 5 + b"hello") as url,
        ModelClient(url, "k", max_retries=0, timeout=10) as client,
    ):
        with pytest.raises(openai.APIResponseValidationError):
            await client.chat_completion(BODY)


async def test_the_runner_transport_reports_a_refused_connection_as_such() -> None:
    transport = http_transport(httpx2.Limits(max_connections=2))
    async with httpx2.AsyncClient(transport=transport) as http:
        with pytest.raises(httpx2.ConnectError):
            await http.get(refused_url())
