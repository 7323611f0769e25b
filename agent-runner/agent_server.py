"""Serving any in-process agent over agent protocol v1, so it becomes a black box to the runner.

`taue agent serve` uses it for the built-in model agent; tests use it for reference agents. Each
`POST /v1/episodes` makes a fresh agent from the factory; its turns run one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Self

import uvicorn
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.types import ASGIApp

from taue.runner.agent_protocol import (
    EPISODES_PATH,
    HEALTH_PATH,
    PROTOCOL_VERSION,
    StartEpisode,
    TurnReply,
    TurnRequest,
    Usage,
)
from taue.runner.agents.base import Agent, AgentError, EpisodeContext, McpServerInfo

AgentFactory = Callable[[], Agent]


class _SignalsLeftAlone(uvicorn.Server):
    """A uvicorn server that leaves SIGINT/SIGTERM to the process: uvicorn's own handlers would stop
    the agent under in-flight episodes and raise the signal again."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


@dataclass
class LiveEpisode:
    agent: Agent
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def build_agent_app(factory: AgentFactory, title: str = "taue agent") -> FastAPI:
    """A FastAPI app serving protocol v1 for agents made by `factory`."""
    episodes: dict[str, LiveEpisode] = {}

    app = FastAPI(title=title, version=PROTOCOL_VERSION, lifespan=_closing_agents(episodes))

    app.exception_handler(RequestValidationError)(_bad_request)

    @app.get(HEALTH_PATH)
    async def healthz() -> dict[str, object]:
        return {"status": "ok", "protocol": PROTOCOL_VERSION, "episodes": len(episodes)}

    @app.post(EPISODES_PATH, status_code=201, response_model=None)
    async def start_episode(body: StartEpisode) -> dict[str, str] | JSONResponse:
        if body.episode_id in episodes:
            return _error(409, f"episode {body.episode_id} already exists")
        started = await _start_agent(factory, body)
        if isinstance(started, JSONResponse):
            return started
        episodes[body.episode_id] = started
        return {"episode_id": body.episode_id}

    @app.post(f"{EPISODES_PATH}/{{episode_id}}/turns", response_model=None)
    async def turn(episode_id: str, body: TurnRequest) -> TurnReply | JSONResponse:
        live = episodes.get(episode_id)
        if live is None:
            return _error(404, f"unknown episode {episode_id}")
        return await _take_turn(live, body)

    @app.delete(f"{EPISODES_PATH}/{{episode_id}}", status_code=204, response_model=None)
    async def end_episode(episode_id: str) -> Response:
        live = episodes.pop(episode_id, None)
        if live is None:
            return _error(404, f"unknown episode {episode_id}")
        await live.agent.close()
        return Response(status_code=204)

    return app


def _closing_agents(
    episodes: dict[str, LiveEpisode],
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's lifespan: at shutdown it closes the agents of the episodes still live."""

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        for live in episodes.values():
            with contextlib.suppress(Exception):
                await live.agent.close()
        episodes.clear()

    return lifespan


async def _bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
    where = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:3])
    return _error(422, f"invalid request: {where}")


async def _start_agent(factory: AgentFactory, body: StartEpisode) -> LiveEpisode | JSONResponse:
    """A new agent started on the episode `body` describes, or the 500 of an agent that cannot start."""
    agent = factory()
    context = EpisodeContext(
        episode_id=body.episode_id,
        domain=body.domain,
        mcp_servers=[McpServerInfo.model_validate(s.model_dump()) for s in body.mcp_servers],
        policy=body.policy,
    )
    try:
        await agent.start(context)
    except Exception as exc:
        await agent.close()
        return _error(500, f"the agent could not start: {type(exc).__name__}: {exc}")
    return LiveEpisode(agent)


async def _take_turn(live: LiveEpisode, body: TurnRequest) -> TurnReply | JSONResponse:
    """The agent's reply to one user message (one turn at a time), or the 500 of a failed turn."""
    async with live.lock:
        try:
            message = await live.agent.respond(body.user_message)
        except AgentError as exc:
            return _error(500, str(exc))
        except Exception as exc:
            return _error(500, f"{type(exc).__name__}: {exc}")
    usage = getattr(live.agent, "usage", None)
    return TurnReply(message=message, usage=Usage.model_validate(usage) if usage else None)


class AppServer:
    """Runs an ASGI app under uvicorn inside the current event loop, on `host:port` (0: a free port)."""

    def __init__(self, app: ASGIApp, host: str = "127.0.0.1", port: int = 0) -> None:
        from taue.envs.runtime.server import bind_socket  # the socket helper only, no domain code

        self.app = app
        self._socket = bind_socket(host, port)
        self.host = host
        self.port = self._socket.getsockname()[1]
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> str:
        config = uvicorn.Config(
            self.app, log_level="warning", access_log=False, lifespan="on", timeout_keep_alive=75
        )  # keep-alive above every client's idle expiry: a client never reuses a closing connection
        self._server = _SignalsLeftAlone(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[self._socket]))
        while not self._server.started:
            if self._task.done():
                await self._task  # surface the start-up error
            await asyncio.sleep(0.01)
        return self.url

    async def stop(self) -> None:
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            await self._task

    async def wait(self) -> None:
        """Until the server stops (after `start`)."""
        assert self._task is not None, "start the server first"
        await self._task

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


class AgentServer(AppServer):
    """Serves agents made by `factory` over protocol v1."""

    def __init__(self, factory: AgentFactory, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__(build_agent_app(factory), host, port)
