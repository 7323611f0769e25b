"""How the taue.v1 gRPC services are served and reached: one place for the options every server
and client shares (message limits, health, reflection, deadlines, readiness, the bearer token).

A server given a token answers `UNAUTHENTICATED` to every call without `authorization: Bearer
<token>` in its metadata, except the health and reflection services (probes cannot send metadata,
and the schema is public); a client given a token sends it with every call.
"""

from __future__ import annotations

import asyncio
import hmac
import signal
from collections.abc import Callable, Iterable
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

MAX_MESSAGE = 16 * 1024 * 1024
CHANNEL_OPTIONS = [
    ("grpc.max_send_message_length", MAX_MESSAGE),
    ("grpc.max_receive_message_length", MAX_MESSAGE),
]
DEFAULT_DEADLINE = 60.0
"""Seconds every call may take before the client gives up (an LLM user can be slow)."""
SERVER_OPTIONS = [
    *CHANNEL_OPTIONS,
    # A call the server has not picked up within 30 s (its default) is cancelled, and CANCELLED is not
    # retried: on a busy event loop (the embedded services at high concurrency) let the client's
    # deadline, whose expiry is retried, decide instead.
    ("grpc.server_max_unrequested_time_in_server", int(DEFAULT_DEADLINE * 2)),
    # A port another server holds is an error, never silently shared (SO_REUSEPORT is gRPC's default).
    ("grpc.so_reuseport", 0),
]


OPEN_SERVICES = ("/grpc.health.v1.Health/", "/grpc.reflection.")
"""Method prefixes served without a token."""


class TokenCheck(grpc.aio.ServerInterceptor):
    """Refuses every call of our services that does not carry the server's bearer token."""

    def __init__(self, token: str) -> None:
        self._expected = f"Bearer {token}".encode()

    async def intercept_service(
        self, continuation: Callable[[Any], Any], details: grpc.HandlerCallDetails
    ) -> Any:
        if details.method.startswith(OPEN_SERVICES) or self._presented(details):
            return await continuation(details)
        return grpc.unary_unary_rpc_method_handler(_unauthenticated)

    def _presented(self, details: grpc.HandlerCallDetails) -> bool:
        for key, value in details.invocation_metadata or ():
            if key == "authorization":
                given = value.encode() if isinstance(value, str) else value
                return hmac.compare_digest(given, self._expected)
        return False


async def _unauthenticated(_request: Any, context: grpc.aio.ServicerContext) -> None:
    message = "token required: send 'authorization: Bearer <token>'"
    await context.abort(grpc.StatusCode.UNAUTHENTICATED, message)


class BearerToken(grpc.aio.UnaryUnaryClientInterceptor):
    """Adds `authorization: Bearer <token>` to every unary call of a channel."""

    def __init__(self, token: str) -> None:
        self._metadata = ("authorization", f"Bearer {token}")

    async def intercept_unary_unary(
        self, continuation: Callable[[Any, Any], Any], details: grpc.aio.ClientCallDetails, request: Any
    ) -> Any:
        metadata = grpc.aio.Metadata(*(details.metadata or ()), self._metadata)
        # attr-defined: a namedtuple at run time; its stub declares no _replace
        return await continuation(details._replace(metadata=metadata), request)  # type: ignore[attr-defined]


class GrpcServer:
    """A grpc.aio server with the standard health and reflection services, on one port; with a
    `token`, our services answer only calls that carry it."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, token: str | None = None) -> None:
        interceptors = [TokenCheck(token)] if token else []
        self.server = grpc.aio.server(options=SERVER_OPTIONS, interceptors=interceptors)
        self.token = token
        self.health = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        try:
            self.port = self.server.add_insecure_port(f"{host}:{port}")
        except RuntimeError:  # grpc's word for a port in use or an address not of this machine
            self.port = 0
        if self.port == 0:
            raise OSError(f"could not bind {host}:{port} (in use, or not an address of this machine)")
        self.address = f"{host if host not in ('0.0.0.0', '::') else '127.0.0.1'}:{self.port}"
        self._service_names: list[str] = []

    def add(self, service_names: Iterable[str]) -> None:
        """Record the full names of services added with their generated `add_..._to_server`."""
        self._service_names.extend(service_names)

    async def start(self) -> None:
        reflection.enable_server_reflection(
            [*self._service_names, health.SERVICE_NAME, reflection.SERVICE_NAME], self.server
        )
        await self.server.start()
        for name in ("", *self._service_names):
            await self.health.set(name, health_pb2.HealthCheckResponse.SERVING)

    async def stop(self, grace: float = 5.0) -> None:
        for name in ("", *self._service_names):
            await self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
        await self.server.stop(grace)

    async def serve_until_signalled(self) -> None:
        """Serve until SIGTERM or SIGINT, then drain in-flight calls and stop cleanly."""
        await self.start()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        await self.stop()


def channel(address: str, token: str | None = None) -> grpc.aio.Channel:
    interceptors = [BearerToken(token)] if token else None
    return grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS, interceptors=interceptors)


async def wait_until_serving(chan: grpc.aio.Channel, timeout: float = 30.0) -> None:
    """Block until the server behind `chan` reports SERVING (wait_for_ready at start-up)."""
    stub = health_pb2_grpc.HealthStub(chan)
    # attr-defined: types-grpcio-health-checking declares HealthStub without its methods
    response = await stub.Check(  # type: ignore[attr-defined]
        health_pb2.HealthCheckRequest(), timeout=timeout, wait_for_ready=True
    )
    if response.status != health_pb2.HealthCheckResponse.SERVING:
        raise ConnectionError("the gRPC server is not serving")
