"""The embedded default: whatever services a run needs but was not given, started inside this
process on 127.0.0.1 ephemeral ports.

They are the same servers that `taue serve env|simulator|scorer` run, reached over HTTP, MCP and
gRPC exactly as a remote deployment would be: one code path.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from taue.envs.runtime.server import DomainServer


class Services(BaseModel):
    """Where a run's services are: control URLs per domain, gRPC addresses of simulator and scorer."""

    env: dict[str, str] = Field(default_factory=dict)
    simulator: str | None = None
    scorer: str | None = None


@asynccontextmanager
async def embedded_domains(names: list[str]) -> AsyncIterator[dict[str, DomainServer]]:
    """Start one server per domain on ephemeral 127.0.0.1 ports; stop them on exit."""
    from taue.envs.runtime.discovery import get_domain  # only here: a remote run loads no domain code
    from taue.envs.runtime.server import DomainServer

    servers = {name: DomainServer(get_domain(name)) for name in names}
    try:
        for server in servers.values():
            await server.start()
        yield servers
    finally:
        for server in servers.values():
            await server.stop()


@asynccontextmanager
async def embedded_services(domains: list[str], given: Services) -> AsyncIterator[Services]:
    """`given`, completed with in-process servers for every missing piece."""
    from taue.scorer.service import build_server as build_scorer
    from taue.simulator.service import build_server as build_simulator

    async with AsyncExitStack() as stack:
        servers = await stack.enter_async_context(
            embedded_domains([d for d in domains if d not in given.env])
        )
        resolved = Services(
            env={**given.env, **{name: server.control_url for name, server in servers.items()}},
            simulator=given.simulator,
            scorer=given.scorer,
        )
        for field, build in (("simulator", build_simulator), ("scorer", build_scorer)):
            if getattr(resolved, field) is None:
                grpc_server = build()
                await grpc_server.start()
                stack.push_async_callback(grpc_server.stop, 0.5)
                setattr(resolved, field, grpc_server.address)
        yield resolved
