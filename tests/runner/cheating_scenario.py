"""One `taue run` on the embedded default against an agent served over HTTP, as a script to run inside
a network and process namespace of its own (`unshare --net --pid --mount-proc`): the machine holds
nothing but this run, the agent and their processes, as an agent's container would see it.

    python tests/runner/cheating_scenario.py cheater|honest OUT_DIR

Writes OUT_DIR/results.jsonl (the run) and OUT_DIR/scenario.json: the ports the runner listened on
and every attempt the agent made.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import socket
import struct
import sys
from dataclasses import asdict
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from taue.runner.agent_server import AppServer, build_agent_app  # noqa: E402
from tests.runner.cheater import HONEST_REPLY, Cheater  # noqa: E402

SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1


def loopback_up() -> None:
    """A new network namespace starts with its loopback interface down."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14s", b"lo", 0, b"\0" * 14)
        flags = struct.unpack("16sH14s", fcntl.ioctl(sock, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14s", b"lo", flags | IFF_UP, b"\0" * 14))


class Honest:
    """The cheater's replies without the cheating."""

    async def start(self, context: object) -> None:
        return None

    async def respond(self, user_message: str) -> str:
        return HONEST_REPLY

    async def close(self) -> None:
        return None


async def sample_listening(pid: int, done: asyncio.Event, found: set[int]) -> None:
    process = psutil.Process(pid)
    while not done.is_set():
        try:
            connections = process.net_connections(kind="inet")
        except psutil.Error:
            return
        found |= {c.laddr.port for c in connections if c.status == psutil.CONN_LISTEN}
        await asyncio.sleep(0.05)


async def main(mode: str, out: Path) -> int:
    loopback_up()
    cheaters: list[Cheater] = []
    holder: dict[str, int] = {}

    def make_agent():  # type: ignore[no-untyped-def]
        if mode == "honest":
            return Honest()
        cheaters.append(Cheater(own_port=holder["port"]))
        return cheaters[-1]

    server = AppServer(build_agent_app(make_agent))
    holder["port"] = server.port
    ports: set[int] = set()
    async with server:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "taue", "run", "--domains", "airline", "--limit", "2", "--trials", "1",
            "--agent", server.url, "--out", str(out), "--quiet", "--workers", "1",
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        done = asyncio.Event()
        sampling = asyncio.create_task(sample_listening(process.pid, done, ports))
        _, err = await process.communicate()
        done.set()
        await sampling
    attempts = [asdict(attempt) for cheater in cheaters for attempt in cheater.attempts]
    report = {"returncode": process.returncode, "stderr": err.decode()[-2000:], "runner_ports": sorted(ports)}
    (out / "scenario.json").write_text(json.dumps({**report, "attempts": attempts}))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], Path(sys.argv[2]))))
