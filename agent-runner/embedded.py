"""The embedded default: the needed domain servers, started inside this process on loopback.

They are the same `DomainServer`s that `taue serve env` runs, reached over HTTP and MCP exactly as
a remote deployment would be.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from envs.runtime.registry import get_domain
from envs.runtime.server import DomainServer


@asynccontextmanager
async def embedded_domains(names: list[str]) -> AsyncIterator[dict[str, DomainServer]]:
    """Start one server per domain on ephemeral 127.0.0.1 ports; stop them on exit."""
    servers = {name: DomainServer(get_domain(name)) for name in names}
    try:
        for server in servers.values():
            await server.start()
        yield servers
    finally:
        for server in servers.values():
            await server.stop()
