"""The simulator as a gRPC service (`taue serve simulator`): sessions of any user backend."""

from __future__ import annotations

import grpc

from taue.proto.serving import GrpcServer
from taue.proto.v1 import common_pb2, simulator_pb2, simulator_pb2_grpc
from taue.simulator.session import (
    DEFAULT_MAX_SESSIONS,
    DEFAULT_SESSION_TTL_S,
    Simulator,
    SimulatorError,
    SimulatorFull,
    SimulatorUnavailable,
    UnknownSession,
)
from taue.simulator.wire import (
    agent_turn_from_request,
    notifications_from_messages,
    options_from_message,
    task_from_message,
    tools_from_message,
    turn_message,
)


class SimulatorService(simulator_pb2_grpc.SimulatorServicer):
    def __init__(self, simulator: Simulator | None = None) -> None:
        self.simulator = simulator if simulator is not None else Simulator()

    async def StartSession(self, request, context):
        if not request.HasField("task") or not request.task.task_id:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "StartSession needs a task with a task_id")
        try:
            task = task_from_message(request.task)
        except ValueError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"invalid task: {exc}")
        options = options_from_message(request.options)
        tools = tools_from_message(request.task)
        session_id, first = await self._call(
            context, self.simulator.start(task, request.seed, options, tools)
        )
        return simulator_pb2.StartSessionResponse(session_id=session_id, first_message=first)

    async def Respond(self, request, context):
        try:
            agent_turn = agent_turn_from_request(request)
        except ValueError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"invalid notification: {exc}")
        turn = await self._call(context, self.simulator.respond(request.session_id, agent_turn))
        return turn_message(turn)

    async def EndSession(self, request, context):
        try:
            notifications = notifications_from_messages(request.notifications)
        except ValueError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"invalid notification: {exc}")
        try:
            usage = self.simulator.usage(request.session_id)
            violations = self.simulator.policy_violations(request.session_id, notifications)
        except SimulatorError as exc:
            await context.abort(grpc.StatusCode.NOT_FOUND, str(exc))
        self.simulator.end(request.session_id)
        return simulator_pb2.EndSessionResponse(
            usage=common_pb2.Usage(
                prompt_tokens=int(usage.get("prompt_tokens", 0)),
                completion_tokens=int(usage.get("completion_tokens", 0)),
            ),
            policy_violations=violations,
        )

    @staticmethod
    async def _call(context, awaitable):
        try:
            return await awaitable
        except SimulatorUnavailable as exc:
            await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
        except UnknownSession as exc:
            await context.abort(grpc.StatusCode.NOT_FOUND, str(exc))
        except SimulatorFull as exc:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc))
        except SimulatorError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))


def build_server(
    host: str = "127.0.0.1",
    port: int = 0,
    session_ttl_s: float = DEFAULT_SESSION_TTL_S,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    token: str | None = None,
) -> GrpcServer:
    """The simulator's gRPC server; sessions idle for `session_ttl_s` expire, at most `max_sessions` live;
    calls need `token` when one is given."""
    server = GrpcServer(host, port, token)
    service = SimulatorService(Simulator(session_ttl_s, max_sessions))
    simulator_pb2_grpc.add_SimulatorServicer_to_server(service, server.server)
    server.add([simulator_pb2.DESCRIPTOR.services_by_name["Simulator"].full_name])
    return server
