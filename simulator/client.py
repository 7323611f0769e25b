"""gRPC client of the simulator service; the runner's only way to talk to a user simulator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import grpc

from taue.contracts.episode import AgentTurn, Notification, UserTurn
from taue.contracts.tasks import Task
from taue.proto.serving import DEFAULT_DEADLINE, channel, wait_until_serving
from taue.proto.v1 import simulator_pb2, simulator_pb2_grpc
from taue.simulator.session import UserOptions
from taue.simulator.wire import (
    notification_messages,
    options_message,
    respond_request,
    turn_from_message,
    user_task_message,
)

TOOL_DESCRIPTIONS: dict[str, dict[str, str]] = {}
"""Domain -> write tool -> description, as the runner learned them from the domain's card
(`describe_tools`); sent with each session so that a remote simulator has them too."""


def describe_tools(domain: str, descriptions: dict[str, str]) -> None:
    """Record what the write tools of `domain` do (the runner calls it when it reads a domain's card)."""
    TOOL_DESCRIPTIONS[domain] = dict(descriptions)


RETRYABLE = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.CANCELLED,  # a server stopping cancels the calls it is serving
}


class SimulatorCallError(RuntimeError):
    """A simulator call failed; `retryable` says whether it was the infrastructure."""

    def __init__(self, method: str, error: grpc.aio.AioRpcError) -> None:
        super().__init__(f"simulator {method}: {error.code().name}: {error.details()}")
        self.retryable = error.code() in RETRYABLE


@dataclass(frozen=True)
class SessionEnd:
    """What a closed session leaves: the user backend's tokens and the session's policy violations."""

    usage: dict[str, int]
    policy_violations: list[str] = field(default_factory=list)


class SimulatorClient:
    def __init__(self, address: str, deadline: float = DEFAULT_DEADLINE, token: str | None = None) -> None:
        self.address = address
        self.deadline = deadline
        self._channel = channel(address, token)
        self._stub = simulator_pb2_grpc.SimulatorStub(self._channel)

    async def wait_ready(self, timeout: float = 30.0) -> None:
        await wait_until_serving(self._channel, timeout)

    async def start(self, task: Task, seed: int, options: UserOptions) -> tuple[str, str]:
        tools = TOOL_DESCRIPTIONS.get(task.domain)
        request = simulator_pb2.StartSessionRequest(
            task=user_task_message(task, tools), seed=seed, options=options_message(options)
        )
        response = await self._call("StartSession", self._stub.StartSession, request)
        return response.session_id, response.first_message

    async def respond(self, session_id: str, turn: AgentTurn) -> UserTurn:
        request = respond_request(session_id, turn)
        return turn_from_message(await self._call("Respond", self._stub.Respond, request))

    async def end(self, session_id: str, notifications: Sequence[Notification] = ()) -> SessionEnd:
        """Close the session, passing the writes of an agent turn the user never answered (the episode
        ended after it); returns the tokens the user backend used and the session's policy violations."""
        request = simulator_pb2.EndSessionRequest(
            session_id=session_id, notifications=notification_messages(notifications)
        )
        response = await self._call("EndSession", self._stub.EndSession, request)
        usage = {
            "prompt_tokens": response.usage.prompt_tokens,
            "completion_tokens": response.usage.completion_tokens,
        }
        return SessionEnd(usage=usage, policy_violations=list(response.policy_violations))

    async def _call(self, method: str, rpc, request):
        try:
            return await rpc(request, timeout=self.deadline)
        except grpc.aio.AioRpcError as exc:
            raise SimulatorCallError(method, exc) from None

    async def close(self) -> None:
        await self._channel.close()
