"""The Agent2Agent adapter: `--agent a2a://HOST:PORT[/PATH]` evaluates an agent that speaks A2A.

One episode is one A2A context (`contextId` = `taue-<episode id>`). The first message of the context
carries the user's first turn as a text part and the episode as a data part (`EPISODE_MEDIA_TYPE`:
episode id, domain, MCP servers with their bearer headers, policy); every later user turn is a
plain text message in the same context. The agent calls the MCP tools itself and answers with a
`Message`, or with a `Task` that waits for the next turn (`input-required`) or is `completed`; the
text of its reply is what the user sees. See docs/agent-protocol.md (A2A section).

Uses `a2a-sdk` (the `a2a` extra): agent card at `/.well-known/agent-card.json`, JSON-RPC or
HTTP+JSON binding, blocking `SendMessage` (no streaming, so any A2A server works).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx
from a2a.client import AgentCardResolutionError, Client, ClientCallContext, ClientConfig
from a2a.client.client_factory import ClientFactory
from a2a.helpers import get_text_parts, new_data_part, new_text_part
from a2a.types import (
    CancelTaskRequest,
    GetTaskRequest,
    Message,
    Role,
    SendMessageRequest,
    StreamResponse,
    Task,
    TaskState,
)
from a2a.utils.constants import TransportProtocol
from a2a.utils.errors import A2AError
from google.protobuf.json_format import ParseError

from taue.runner.agents import AgentOptions
from taue.runner.agents.base import AgentError, EpisodeContext
from taue.runner.control import InfraError

EPISODE_MEDIA_TYPE = "application/vnd.taue.episode+json"
"""Media type of the data part that opens an episode's context."""
EPISODE_FIELDS = {"episode_id", "domain", "mcp_servers", "policy"}

WAITING = {TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_COMPLETED}
"""Task states in which the agent has finished its turn."""
PENDING = {TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING}
"""Task states in which the agent is still working: polled with GetTask until they change."""
POLL_DELAYS = (0.02, 0.05, 0.1, 0.2, 0.5)
CANCEL_TIMEOUT = 5.0


def agent_base_url(spec: str) -> str:
    """`a2a://HOST:PORT[/PATH]` -> `http://HOST:PORT[/PATH]` (the agent card lives below it)."""
    rest = spec.removeprefix("a2a://").rstrip("/")
    host = rest.split("/", 1)[0]
    if not host or ":" not in host or not host.rsplit(":", 1)[1].isdigit():
        raise ValueError(f"an A2A agent is given as a2a://HOST:PORT[/PATH], not {spec!r}")
    return f"http://{rest}"


def _is_connection_failure(exc: BaseException) -> bool:
    """The agent could not be reached at all (refused, unresolvable): not the agent's answer."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, httpx.ConnectError | httpx.ConnectTimeout):
            return True
        cause = cause.__cause__
    return False


class A2AAgent:
    """One episode's conversation with an A2A agent."""

    def __init__(self, spec: str, options: AgentOptions) -> None:
        self.base_url = agent_base_url(spec)
        self.options = options
        self.context_id = ""
        self.episode: dict[str, Any] = {}
        self.turn = 0
        self.open_task: str | None = None
        """A task waiting for the next user turn (input-required); the next message continues it."""
        self.seen_artifacts: dict[str, str] = {}
        self.http: httpx.AsyncClient | None = None
        self.client: Client | None = None

    async def start(self, context: EpisodeContext) -> None:
        self.context_id = f"taue-{context.episode_id}"
        self.episode = context.model_dump(mode="json", include=EPISODE_FIELDS)
        # httpx's default 5 s would cut slow turns short; the runner enforces the real per-turn limit.
        self.http = httpx.AsyncClient(timeout=httpx.Timeout(self.options.turn_timeout + 10.0, connect=10.0))
        config = ClientConfig(
            streaming=False,
            httpx_client=self.http,
            supported_protocol_bindings=[TransportProtocol.JSONRPC, TransportProtocol.HTTP_JSON],
        )
        try:
            self.client = await ClientFactory(config).create_from_url(self.base_url)
        except AgentCardResolutionError as exc:
            if _is_connection_failure(exc):
                raise InfraError(f"A2A agent at {self.base_url} unreachable: {exc.message}") from exc
            raise AgentError(f"A2A agent card: {exc.message}") from exc
        except ValueError as exc:  # no interface the client can use
            raise AgentError(
                f"A2A agent card at {self.base_url} offers no JSONRPC or HTTP+JSON interface: {exc}"
            ) from exc

    async def respond(self, user_message: str) -> str:
        assert self.client is not None, "start() first"
        self.turn += 1
        request = SendMessageRequest(message=self._message(user_message))
        try:
            result = await self._send(request)
            if result.HasField("message"):
                self.open_task = None
                return self._text_of_message(result.message)
            task = await self._settled(result.task)
            return self._text_of_task(task)
        except (A2AError, ParseError, ValueError) as exc:
            if self.turn == 1 and _is_connection_failure(exc):
                raise InfraError(f"A2A agent at {self.base_url} unreachable: {exc}") from exc
            raise AgentError(f"A2A {type(exc).__name__}: {exc}") from exc

    async def close(self) -> None:
        try:
            if self.client is not None and self.open_task is not None:
                # The episode is over: release the task the agent still holds open (best effort).
                with contextlib.suppress(A2AError, ParseError, ValueError):
                    await self.client.cancel_task(
                        CancelTaskRequest(id=self.open_task),
                        context=ClientCallContext(timeout=CANCEL_TIMEOUT),
                    )
            if self.client is not None:
                with contextlib.suppress(A2AError):
                    await self.client.close()
        finally:
            if self.http is not None:
                await self.http.aclose()

    def _message(self, text: str) -> Message:
        parts = [new_text_part(text, media_type="text/plain")]
        if self.turn == 1:
            parts.append(new_data_part(self.episode, media_type=EPISODE_MEDIA_TYPE))
        return Message(
            role=Role.ROLE_USER,
            parts=parts,
            message_id=f"{self.context_id}-user-{self.turn}",
            context_id=self.context_id,
            task_id=self.open_task or "",
        )

    async def _send(self, request: SendMessageRequest) -> StreamResponse:
        assert self.client is not None
        responses = [response async for response in self.client.send_message(request)]
        if len(responses) != 1 or not (responses[0].HasField("message") or responses[0].HasField("task")):
            raise AgentError("A2A SendMessage answered with neither a message nor a task")
        return responses[0]

    async def _settled(self, task: Task) -> Task:
        """The task once the agent has finished its turn (polled while submitted or working).

        The runner's per-turn timeout bounds the polling.
        """
        assert self.client is not None
        attempt = 0
        while task.status.state in PENDING:
            await asyncio.sleep(POLL_DELAYS[min(attempt, len(POLL_DELAYS) - 1)])
            attempt += 1
            task = await self.client.get_task(GetTaskRequest(id=task.id))
        return task

    def _text_of_message(self, message: Message) -> str:
        text = "\n".join(get_text_parts(message.parts)).strip()
        if not text:
            raise AgentError("the A2A agent's reply message has no text part")
        return text

    def _text_of_task(self, task: Task) -> str:
        state = task.status.state
        status_text = "\n".join(get_text_parts(task.status.message.parts)).strip()
        if state not in WAITING:
            self.open_task = None
            reason = f": {status_text}" if status_text else ""
            raise AgentError(f"the A2A task {task.id} ended {TaskState.Name(state)}{reason}")
        self.open_task = task.id if state == TaskState.TASK_STATE_INPUT_REQUIRED else None
        pieces = self._new_artifact_texts(task)
        if status_text and status_text not in pieces:
            pieces.append(status_text)
        text = "\n".join(pieces).strip()
        if not text:
            raise AgentError(f"the A2A task {task.id} ({TaskState.Name(state)}) carries no text for the user")
        return text

    def _new_artifact_texts(self, task: Task) -> list[str]:
        """Text of the artifacts that are new (or changed) since the previous turn."""
        texts = []
        for artifact in task.artifacts:
            key = f"{task.id}/{artifact.artifact_id}"
            text = "\n".join(get_text_parts(artifact.parts)).strip()
            if text and self.seen_artifacts.get(key) != text:
                texts.append(text)
            self.seen_artifacts[key] = text
        return texts
