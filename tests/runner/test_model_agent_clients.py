"""The model agent's and the LLM user's OpenAI clients: one per endpoint for a run, closed at its end."""

from __future__ import annotations

from pathlib import Path

import openai
import pytest
from fastapi import FastAPI, Request

from taue.contracts import model_clients
from taue.contracts.model_clients import open_model_clients
from taue.envs.runtime.server import bind_socket
from taue.runner.runner import RunConfig, execute_run
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


@pytest.fixture(params=["aiohttp", "httpx2"])
def transport_kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Model pools over aiohttp (when installed, the default) and over httpx2 (the fallback)."""
    if request.param == "httpx2":
        monkeypatch.setattr(model_clients, "aiohttp_transport", lambda: None)
    elif model_clients.aiohttp_transport() is None:
        pytest.skip("aiohttp is not installed (an optional engine of the model clients)")
    return request.param


async def test_either_transport_answers_and_reports_a_refused_connection_as_such(transport_kind: str) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    async with OpenAIDouble([{"content": "hello"}]) as double:
        client = model_clients.new_model_client(double.base_url, "k", max_retries=0, timeout=10)
        async with client:
            completion = await model_clients.chat_completion(client, body)
    assert completion.choices[0].message.content == "hello" and double.requests == [body]
    sock = bind_socket()  # a port with no listener
    nobody = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    sock.close()
    async with model_clients.new_model_client(nobody, "k", max_retries=0, timeout=10) as client:
        with pytest.raises(openai.APIConnectionError) as raised:
            await model_clients.chat_completion(client, body)
    assert not isinstance(raised.value, openai.APITimeoutError)  # refused, not timed out
