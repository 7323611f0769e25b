"""Serving a domain: the MCP app and the control app, each on its own port.

`DomainServer` runs both under uvicorn inside the current event loop. The embedded default and
`taue serve env` use the same class; only the sockets differ.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from dataclasses import dataclass, field

import uvicorn

from taue.contracts.tasks import Task
from taue.envs.runtime.control_app import build_control_app
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.episodes import EpisodeRegistry
from taue.envs.runtime.mcp_app import build_mcp_app

logging.getLogger("uvicorn.access").disabled = True


def bind_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening TCP socket; port 0 picks a free ephemeral port."""
    # proto must say TCP: asyncio only sets TCP_NODELAY on accepted sockets whose proto is TCP, and
    # without it every keep-alive response waits ~40 ms for a delayed ACK.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.setblocking(False)
    return sock


class PromptServer(uvicorn.Server):
    """uvicorn's server, stopped as soon as `request_stop` is called.

    uvicorn looks at `should_exit` every 100 ms, and its shutdown waits 100 ms for open connections
    to close even when there are none: 0.2 s for every embedded run, which starts and stops its own.
    """

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._stop_requested = asyncio.Event()

    def request_stop(self) -> None:
        self.should_exit = True
        self._stop_requested.set()

    async def main_loop(self) -> None:
        counter = 0
        while not await self.on_tick(counter):  # the tick also refreshes the Date header each second
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop_requested.wait(), 0.1)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.server_state.tasks:  # requests in flight: uvicorn's graceful shutdown lets them finish
            await super().shutdown(sockets)
            return
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()  # idle keep-alive connections close at once
        for server in self.servers:
            await server.wait_closed()
        if not self.force_exit:
            await self.lifespan.shutdown()


@dataclass
class DomainServer:
    domain: Domain
    host: str = "127.0.0.1"
    mcp_port: int = 0
    control_port: int = 0
    public_host: str | None = None
    """Host name agents use to reach the MCP port (a compose service name, say)."""
    allowed_hosts: list[str] | None = None
    admin_token: str | None = None
    tasks: list[Task] | None = None
    """The tasks to serve instead of the domain's own (the Tracer verifies candidates this way)."""
    registry: EpisodeRegistry = field(init=False)
    _servers: list[PromptServer] = field(init=False, default_factory=list)
    _tasks: list[asyncio.Task[None]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        tasks = None if self.tasks is None else {task.id: task for task in self.tasks}
        self.registry = EpisodeRegistry(self.domain, tasks)
        self._mcp_socket = bind_socket(self.host, self.mcp_port)
        self._control_socket = bind_socket(self.host, self.control_port)
        self.mcp_port = self._mcp_socket.getsockname()[1]
        self.control_port = self._control_socket.getsockname()[1]

    @property
    def mcp_url(self) -> str:
        return f"http://{self.public_host or self.host}:{self.mcp_port}"

    @property
    def control_url(self) -> str:
        return f"http://{self.host}:{self.control_port}"

    async def start(self) -> None:
        """Start serving; returns once both ports accept requests."""
        _ = self.domain.seed_image  # build the seed before the first request, not during it
        mcp_app = build_mcp_app(self.registry, self.allowed_hosts)
        control_app = build_control_app(self.registry, self.mcp_url, self.admin_token)
        for app, sock in ((mcp_app, self._mcp_socket), (control_app, self._control_socket)):
            config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", backlog=2048)
            server = PromptServer(config)
            server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
            self._servers.append(server)
            self._tasks.append(asyncio.create_task(server.serve(sockets=[sock])))
        while not all(server.started for server in self._servers):
            if any(task.done() for task in self._tasks):
                await asyncio.gather(*self._tasks)  # surface the start-up error
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        for server in self._servers:
            server.request_stop()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.registry.close()

    async def serve_until_signalled(self) -> None:
        """Serve until SIGTERM or SIGINT, then finish in-flight requests and stop cleanly."""
        await self.start()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        await self.stop()
