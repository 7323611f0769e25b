"""The simulator service's session cap (RESOURCE_EXHAUSTED beyond it) and idle expiry, over real gRPC."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest
import pytest_asyncio

from taue.envs.runtime.discovery import get_domain
from taue.proto.serving import GrpcServer, channel
from taue.proto.v1 import simulator_pb2, simulator_pb2_grpc
from taue.simulator.service import build_server
from taue.simulator.wire import user_task_message

TTL_S = 0.5


@pytest_asyncio.fixture
async def stub() -> AsyncIterator[simulator_pb2_grpc.SimulatorStub]:
    """A simulator holding at most 2 sessions, each expiring after 0.5 s without a request."""
    server: GrpcServer = build_server(session_ttl_s=TTL_S, max_sessions=2)
    await server.start()
    chan = channel(server.address)
    yield simulator_pb2_grpc.SimulatorStub(chan)
    await chan.close()
    await server.stop(0)


async def start(stub: simulator_pb2_grpc.SimulatorStub) -> str:
    task = user_task_message(get_domain("airline").tasks[0])
    response = await stub.StartSession(simulator_pb2.StartSessionRequest(task=task, seed=1), timeout=10)
    return response.session_id


async def respond(stub: simulator_pb2_grpc.SimulatorStub, session_id: str) -> simulator_pb2.UserTurn:
    request = simulator_pb2.RespondRequest(session_id=session_id, agent_message="How can I help?")
    return await stub.Respond(request, timeout=10)


async def test_beyond_the_cap_sessions_are_refused_until_one_ends(stub) -> None:
    first, _ = await start(stub), await start(stub)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await start(stub)
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "too many live user sessions (2" in refused.value.details()
    await stub.EndSession(simulator_pb2.EndSessionRequest(session_id=first), timeout=10)
    assert await start(stub)


async def test_idle_sessions_expire_and_used_ones_stay(stub) -> None:
    used, idle = await start(stub), await start(stub)
    for _ in range(4):  # 0.8 s in all, a request every 0.2 s
        await asyncio.sleep(0.2)
        await respond(stub, used)
    assert await start(stub)  # the cap is reached, but the idle session has expired: room for one
    with pytest.raises(grpc.aio.AioRpcError) as expired:
        await respond(stub, idle)
    assert expired.value.code() == grpc.StatusCode.NOT_FOUND
    assert (await respond(stub, used)).message


async def test_unknown_session_errors_do_not_echo_long_ids(stub) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as unknown:
        await respond(stub, "s" * 10_000)
    assert unknown.value.code() == grpc.StatusCode.NOT_FOUND
    assert len(unknown.value.details()) < 200 and "10000 characters" in unknown.value.details()
