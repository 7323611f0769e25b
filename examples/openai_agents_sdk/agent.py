"""A customer-service agent built with the OpenAI Agents SDK, served over τ-Emotion-Bench agent protocol v1.

It is written as a third party would write it: it depends only on `openai-agents`, FastAPI and
uvicorn, not on the benchmark's code. Per turn it connects the SDK's `MCPServerStreamableHttp` to the
episode's MCP endpoint (with the episode's bearer token), runs the SDK's agent loop on a chat model
at any OpenAI-compatible endpoint, and answers the user with the final output.

    python examples/openai_agents_sdk/agent.py --model NAME --base-url http://HOST:PORT/v1 --port 8080
    taue agent check http://127.0.0.1:8080
    taue run --agent http://127.0.0.1:8080 --domains airline --trials 1
"""

from __future__ import annotations

import argparse
import asyncio
import os
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from agents import Agent, ModelSettings, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from agents.exceptions import AgentsException
from agents.mcp import MCPServerStreamableHttp
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from openai import AsyncOpenAI
from pydantic import BaseModel

MCP_TIMEOUT_S = 60.0
"""The SDK's MCP client gives up after 5 s by default; a busy benchmark server can take longer."""


class McpServerSpec(BaseModel):
    name: str
    transport: str = "streamable-http"
    url: str
    headers: dict[str, str] = {}


class StartEpisode(BaseModel):
    episode_id: str
    domain: str
    mcp_servers: list[McpServerSpec]
    policy: str


class TurnRequest(BaseModel):
    user_message: str
    turn_index: int = 0


@dataclass
class Episode:
    start: StartEpisode
    history: list[Any] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _run_turn(
    episode: Episode,
    user_message: str,
    chat_model: OpenAIChatCompletionsModel,
    settings: ModelSettings,
    max_steps: int,
) -> str:
    # Connected per turn: the SDK's MCP session must open and close in the same task.
    async with AsyncExitStack() as stack:
        servers = []
        for spec in episode.start.mcp_servers:
            server = MCPServerStreamableHttp(
                {"url": spec.url, "headers": spec.headers, "timeout": MCP_TIMEOUT_S},
                name=spec.name,
                cache_tools_list=True,
                client_session_timeout_seconds=MCP_TIMEOUT_S,
            )
            servers.append(await stack.enter_async_context(server))
        agent = Agent(
            name=f"{episode.start.domain} customer service",
            instructions=episode.start.policy,
            model=chat_model,
            model_settings=settings,
            mcp_servers=servers,
        )
        inputs = [*episode.history, {"role": "user", "content": user_message}]
        result = await Runner.run(agent, inputs, max_turns=max_steps)
    episode.history = result.to_input_list()
    return str(result.final_output)


def build_app(
    model: str, base_url: str, api_key: str | None = None, max_steps: int = 30, seed: int | None = 0
) -> FastAPI:
    """The protocol v1 app; `max_steps` bounds the SDK's model calls per user turn."""
    set_tracing_disabled(True)  # the SDK would otherwise upload traces to OpenAI
    client = AsyncOpenAI(base_url=base_url, api_key=api_key or os.environ.get("OPENAI_API_KEY") or "unused")
    chat_model = OpenAIChatCompletionsModel(model=model, openai_client=client)
    settings = ModelSettings(temperature=0.0, extra_args={"seed": seed} if seed is not None else None)
    episodes: dict[str, Episode] = {}
    app = FastAPI(title="Agents SDK example (agent protocol v1)")

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(422, f"invalid request: {exc.errors()[:3]}")

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/v1/episodes", status_code=201, response_model=None)
    async def start_episode(body: StartEpisode) -> dict[str, str] | JSONResponse:
        if body.episode_id in episodes:
            return _error(409, f"episode {body.episode_id} already exists")
        episodes[body.episode_id] = Episode(body)
        return {"episode_id": body.episode_id}

    @app.post("/v1/episodes/{episode_id}/turns", response_model=None)
    async def turn(episode_id: str, body: TurnRequest) -> dict[str, str] | JSONResponse:
        episode = episodes.get(episode_id)
        if episode is None:
            return _error(404, f"unknown episode {episode_id}")
        async with episode.lock:
            try:
                message = await _run_turn(episode, body.user_message, chat_model, settings, max_steps)
            except AgentsException as exc:
                return _error(500, f"{type(exc).__name__}: {exc}")
        return {"message": message}

    @app.delete("/v1/episodes/{episode_id}", status_code=204, response_model=None)
    async def end_episode(episode_id: str) -> Response:
        if episodes.pop(episode_id, None) is None:
            return _error(404, f"unknown episode {episode_id}")
        return Response(status_code=204)

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="Chat model name at the endpoint.")
    parser.add_argument(
        "--base-url", required=True, help="OpenAI-compatible endpoint, e.g. http://host:8000/v1."
    )
    parser.add_argument("--host", default="127.0.0.1", help="Address to bind.")
    parser.add_argument("--port", type=int, default=8080, help="Port to listen on.")
    parser.add_argument("--max-steps", type=int, default=30, help="Model calls allowed per user turn.")
    args = parser.parse_args()
    app = build_app(args.model, args.base_url, max_steps=args.max_steps)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", timeout_keep_alive=75)


if __name__ == "__main__":
    main()
