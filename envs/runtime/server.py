"""Serving a domain: the MCP app and the control app, each on its own port.

`DomainServer` runs both under uvicorn inside the current event loop. The embedded default and
`taue serve env` use the same class; only the sockets differ. The control port always needs an admin
token (a random one unless given; `insecure_no_token` opens it), and both ports answer only Host
headers that name the server: the given `allowed_hosts`, else, on a loopback address, the loopback
names. A background sweep deletes episodes
idle for longer than the TTL; the episode cap comes from the memory the server may use
(envs/runtime/limits.py) unless given.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import secrets
import signal
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field

import uvicorn

from taue.contracts.integrity import SigningKey
from taue.contracts.tasks import Task
from taue.envs.runtime.control_app import build_control_app
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.episodes import EpisodeRegistry
from taue.envs.runtime.limits import (
    DEFAULT_EPISODE_TTL_S,
    derived_max_episodes,
    release_freed_memory,
    sweep_interval,
)
from taue.envs.runtime.mcp_app import build_mcp_app
from taue.envs.runtime.sse_streams import STREAM_IDLE_S

logging.getLogger("uvicorn.access").disabled = True
KEEP_ALIVE_S = 75
"""Idle keep-alive connections stay open this long: above every client's idle expiry (30 s at most),
so a client never reuses a connection the server is closing at that moment."""


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def is_wildcard(host: str) -> bool:
    return host in ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        # The process's own handlers decide (`taue run` winds its episodes down, `serve` stops):
        # uvicorn's would stop embedded servers under in-flight episodes and raise the signal again.
        yield

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
    """Host headers the MCP port answers (`host:port`); the control port answers their names on any
    port. None: on a loopback address the loopback names, else any."""
    admin_token: str | None = None
    """The control port's bearer token; None: a random one (`admin_token` tells it to the runner)."""
    insecure_no_token: bool = False
    """Serve the control port without a token (`taue serve env --insecure-no-token`)."""
    signing_key: SigningKey | None = None
    """Signs each finished episode's observation; None: observations go unsigned."""
    tasks: list[Task] | None = None
    """The tasks to serve instead of the domain's own (the Tracer verifies candidates this way)."""
    episode_ttl_s: float = DEFAULT_EPISODE_TTL_S
    max_episodes: int | None = None
    """None: derived from `memory_limit_mb` and the domain's per-episode footprint at start."""
    memory_limit_mb: int | None = None
    """None: the cgroup's memory limit, else half the machine's memory."""
    stream_idle_s: float = STREAM_IDLE_S
    max_body_bytes: int | None = None
    registry: EpisodeRegistry = field(init=False)
    _servers: list[PromptServer] = field(init=False, default_factory=list)
    _tasks: list[asyncio.Task[None]] = field(init=False, default_factory=list)
    _sweeper: asyncio.Task[None] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        tasks = None if self.tasks is None else {task.id: task for task in self.tasks}
        self.registry = EpisodeRegistry(
            self.domain, tasks, episode_ttl_s=self.episode_ttl_s, signing_key=self.signing_key
        )
        if self.insecure_no_token:
            self.admin_token = None
        elif not self.admin_token:
            self.admin_token = secrets.token_urlsafe(32)
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
        seed = self.domain.seed_image  # build the seed before the first request, not during it
        self.registry.max_episodes = self.max_episodes or derived_max_episodes(
            len(seed.image_bytes), self.memory_limit_mb
        )
        mcp_hosts, control_hosts = self.host_checks()
        mcp_app = build_mcp_app(self.registry, mcp_hosts, self.stream_idle_s, self.max_body_bytes)
        control_app = build_control_app(
            self.registry, self.mcp_url, self.admin_token, self.max_body_bytes, control_hosts
        )
        for app, sock in ((mcp_app, self._mcp_socket), (control_app, self._control_socket)):
            config = uvicorn.Config(
                app,
                log_level="warning",
                access_log=False,
                lifespan="on",
                backlog=2048,
                timeout_keep_alive=KEEP_ALIVE_S,
            )
            server = PromptServer(config)
            self._servers.append(server)
            self._tasks.append(asyncio.create_task(server.serve(sockets=[sock])))
        while not all(server.started for server in self._servers):
            if any(task.done() for task in self._tasks):
                await asyncio.gather(*self._tasks)  # surface the start-up error
            await asyncio.sleep(0.01)
        self._sweeper = asyncio.create_task(self._sweep_forever())

    def host_checks(self) -> tuple[list[str] | None, list[str] | None]:
        """The Host headers the MCP port and the control port answer (None: any)."""
        if self.allowed_hosts:
            names = {entry.rsplit(":", 1)[0] for entry in self.allowed_hosts}
        elif is_loopback(self.host):
            names = set()
        else:
            return None, None
        names |= {*LOOPBACK_NAMES, *([self.public_host] if self.public_host else [])}
        if not is_wildcard(self.host):
            names.add(self.host if ":" not in self.host else f"[{self.host}]")
        mcp = list(self.allowed_hosts or []) + [f"{name}:{self.mcp_port}" for name in sorted(names)]
        return mcp, [f"{name}:*" for name in sorted(names)] + sorted(names)

    async def _sweep_forever(self) -> None:
        """Delete idle episodes now and then, and give their memory back to the OS."""
        while True:
            await asyncio.sleep(sweep_interval(self.registry.episode_ttl_s))
            if self.registry.expire_idle():
                release_freed_memory()

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.registry.close_streams()  # open GET streams end now, not at uvicorn's shutdown
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
