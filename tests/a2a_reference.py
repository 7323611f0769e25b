"""A reference Agent2Agent server for the tests: any in-process agent served over real A2A.

Built with `a2a-sdk` (agent card, JSON-RPC or HTTP+JSON binding, `DefaultRequestHandler`,
in-memory task store) and run under uvicorn on 127.0.0.1, so the runner's A2A adapter talks to it
exactly as to a third-party agent. Each A2A context is one episode: the first message must carry
the episode data part (MCP servers, policy); the executor then builds an agent for the context
with `make` and relays every user turn to it. The agent calls the episode's MCP tools itself.

How the reply goes back is chosen by `style`, to cover the shapes A2A agents use:
- "message": a direct `Message` per turn;
- "input-required": one `Task` per episode, left `input-required` after each turn (status message);
- "completed": a new `Task` per turn, `completed` with the reply as a text artifact.
An agent that raises fails the task (`failed`, with the reason as status message).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import uvicorn
from a2a.helpers import get_data_parts, new_task_from_user_message, new_text_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    GetTaskRequest,
    Message,
    Role,
    SendMessageRequest,
    Task,
)
from a2a.utils.constants import TransportProtocol
from starlette.applications import Starlette

from taue.envs.runtime.server import PromptServer, bind_socket
from taue.runner.agents.a2a_agent import EPISODE_MEDIA_TYPE
from taue.runner.agents.base import Agent, EpisodeContext

Style = Literal["message", "input-required", "completed"]
MakeAgent = Callable[[EpisodeContext], Awaitable[Agent]]
"""Builds and starts the agent of one episode from what the first A2A message carried."""


class InProcessExecutor(AgentExecutor):
    """Relays each A2A context's user turns to its own in-process agent."""

    def __init__(self, make: MakeAgent, style: Style) -> None:
        self.make, self.style = make, style
        self.agents: dict[str, Agent] = {}
        self.episodes: dict[str, dict[str, Any]] = {}
        """Per context id: the episode data part of its first message (what the test checks)."""
        self.turns: dict[str, list[str]] = defaultdict(list)
        self.canceled: list[str] = []

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.message is not None and context.context_id is not None
        context_id = context.context_id
        text = context.get_user_input()
        self.turns[context_id].append(text)
        try:
            agent = await self._agent(context_id, context)
            reply = await agent.respond(text)
        except Exception as exc:  # the agent's failure is reported over A2A, as a failed task
            await self._fail(context, event_queue, f"{type(exc).__name__}: {exc}")
            return
        if self.style == "message":
            await event_queue.enqueue_event(
                new_text_message(reply, context_id=context_id, role=Role.ROLE_AGENT)
            )
            return
        updater = await self._task_updater(context, event_queue)
        if self.style == "input-required":
            await updater.requires_input(updater.new_agent_message([new_text_part(reply)]))
        else:
            await updater.add_artifact([new_text_part(reply, media_type="text/plain")], name="reply")
            await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.context_id is not None and context.task_id is not None
        self.canceled.append(context.task_id)
        agent = self.agents.pop(context.context_id, None)
        if agent is not None:
            await agent.close()
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()

    async def _agent(self, context_id: str, context: RequestContext) -> Agent:
        if context_id in self.agents:
            return self.agents[context_id]
        assert context.message is not None
        episode = next(
            (
                data
                for part, data in zip(
                    [p for p in context.message.parts if p.HasField("data")],
                    get_data_parts(context.message.parts),
                    strict=True,
                )
                if part.media_type == EPISODE_MEDIA_TYPE
            ),
            None,
        )
        if episode is None:
            raise ValueError("the first message of a context must carry the episode data part")
        self.episodes[context_id] = episode
        agent = await self.make(EpisodeContext.model_validate(episode))
        self.agents[context_id] = agent
        return agent

    async def _task_updater(self, context: RequestContext, event_queue: EventQueue) -> TaskUpdater:
        assert context.message is not None and context.task_id is not None and context.context_id is not None
        if context.current_task is None:  # a new task: announce it before updating it
            await event_queue.enqueue_event(new_task_from_user_message(context.message))
        return TaskUpdater(event_queue, context.task_id, context.context_id)

    async def _fail(self, context: RequestContext, event_queue: EventQueue, reason: str) -> None:
        updater = await self._task_updater(context, event_queue)
        await updater.failed(updater.new_agent_message([new_text_part(reason)]))


class EarlyAnswerHandler(DefaultRequestHandler):
    """Answers `SendMessage` as soon as the task exists (still `submitted`), as some agents do;
    clients then poll `GetTask`, counted in `polls`."""

    polls = 0

    async def on_message_send(self, params: SendMessageRequest, context: ServerCallContext) -> Message | Task:
        params.configuration.return_immediately = True
        return await super().on_message_send(params, context)

    async def on_get_task(self, params: GetTaskRequest, context: ServerCallContext) -> Task | None:
        self.polls += 1
        return await super().on_get_task(params, context)


class A2AReferenceServer:
    """`executor` served over A2A on an ephemeral 127.0.0.1 port; `url` is the runner's `--agent`."""

    def __init__(
        self,
        make: MakeAgent,
        style: Style = "message",
        binding: str = TransportProtocol.JSONRPC,
        answer_early: bool = False,
    ) -> None:
        self.executor = InProcessExecutor(make, style)
        self._socket = bind_socket()
        self.port = self._socket.getsockname()[1]
        self.http_url = f"http://127.0.0.1:{self.port}"
        card = AgentCard(
            name="taue reference agent",
            description="An in-process τ-Emotion-Bench agent served over A2A (tests only).",
            version="1.0.0",
            default_input_modes=["text/plain", "application/json"],
            default_output_modes=["text/plain"],
            capabilities=AgentCapabilities(streaming=False),
            supported_interfaces=[
                AgentInterface(protocol_binding=binding, url=self.http_url, protocol_version="1.0")
            ],
            skills=[
                AgentSkill(
                    id="customer-service",
                    name="Customer service",
                    description="Serves one τ-Emotion-Bench episode per A2A context over MCP.",
                    tags=["taue"],
                )
            ],
        )
        self.handler = (EarlyAnswerHandler if answer_early else DefaultRequestHandler)(
            agent_executor=self.executor, task_store=InMemoryTaskStore(), agent_card=card
        )
        routes = create_agent_card_routes(card)
        if binding == TransportProtocol.JSONRPC:
            routes += create_jsonrpc_routes(self.handler, "/")
        else:
            routes += create_rest_routes(self.handler)
        self.app = Starlette(routes=routes)
        self._server: PromptServer | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"a2a://127.0.0.1:{self.port}"

    async def __aenter__(self) -> A2AReferenceServer:
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off")
        self._server = PromptServer(config)
        self._server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
        self._task = asyncio.create_task(self._server.serve(sockets=[self._socket]))
        while not self._server.started:
            if self._task.done():
                await self._task  # surface the start-up error
            await asyncio.sleep(0.01)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._server is not None and self._task is not None
        self._server.request_stop()
        await self._task
