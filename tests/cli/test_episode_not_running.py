"""`taue episode new|score` when a service is not running: one line naming the `taue serve ...` command
that starts it, exit 2, no gRPC or aiohttp traceback. The services that do run are real (loopback)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from pathlib import Path

from taue.runner.embedded import embedded_domains
from taue.simulator.service import build_server as build_simulator
from tests.conftest import ADMIN_TOKEN
from tests.paths import ROOT


def free_port() -> int:
    """A loopback port nothing listens on (bound and released at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def taue(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    env = {**os.environ, "TAUE_HOME": str(tmp_path / "home"), "TAUE_ADMIN_TOKEN": ADMIN_TOKEN}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "taue", *args, env=env, cwd=ROOT, stdout=-1, stderr=-1
    )
    out, err = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode, out.decode(), err.decode()


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


async def test_no_domain_server_names_taue_serve_env(tmp_path: Path) -> None:
    port = free_port()
    code, _, err = await taue(
        tmp_path, "episode", "new", "--domain=retail", "--task=retail-001", f"--env=http://127.0.0.1:{port}"
    )
    assert code == 2
    assert f"`taue serve env retail --control-port {port}`" in one_line(err)


async def test_no_simulator_then_no_scorer_name_their_serve_commands(tmp_path: Path) -> None:
    dead = free_port()
    async with embedded_domains(["retail"], ADMIN_TOKEN) as servers:
        task = next(iter(servers["retail"].registry.tasks))
        new = [
            "episode",
            "new",
            "--domain=retail",
            f"--task={task}",
            f"--env={servers['retail'].control_url}",
        ]
        code, out, err = await taue(tmp_path, *new, f"--simulator=127.0.0.1:{dead}")
        assert code == 2 and out == ""
        line = one_line(err)
        assert f"`taue serve simulator --port {dead}`" in line and "UNAVAILABLE" not in line

        simulator = build_simulator()
        await simulator.start()
        try:
            code, out, err = await taue(
                tmp_path, *new, f"--simulator={simulator.address}", f"--scorer=127.0.0.1:{dead}", "--json"
            )
            assert code == 0, err
            episode = json.loads(out)["episode_id"]
            code, out, err = await taue(tmp_path, "episode", "score", episode, "--force")
        finally:
            await simulator.stop(0)
    assert code == 2 and out == ""
    assert f"`taue serve scorer --port {dead}`" in one_line(err)
