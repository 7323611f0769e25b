"""Remote mode meets the domains only through their servers: the runner, the scorer and the by-hand
episode commands run in processes where importing a domain's code fails, and still score the oracle 1."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import httpx2

from taue.runner.embedded import embedded_domains
from taue.runner.results import ResultsFile
from taue.simulator.service import build_server as build_simulator
from tests.conftest import ADMIN_TOKEN
from tests.paths import ROOT

BLOCKED = [sys.executable, str(ROOT / "tests" / "runner" / "without_domain_code.py")]


async def blocked_taue(env: dict[str, str], *args: str, timeout: float = 240) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        *BLOCKED, *args, env=env, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout)
    return process.returncode, out.decode(), err.decode()


async def start_blocked_scorer(env: dict[str, str]) -> tuple[asyncio.subprocess.Process, str]:
    """`taue serve scorer` on a free port; its address is read from the line it logs (on stderr)."""
    process = await asyncio.create_subprocess_exec(
        *BLOCKED, "serve", "scorer", "--port", "0", env=env, cwd=ROOT, stderr=asyncio.subprocess.PIPE
    )
    try:
        line = (await asyncio.wait_for(process.stderr.readline(), 60)).decode()
    except TimeoutError:
        process.kill()
        raise
    assert "gRPC on " in line, line
    return process, line.split("gRPC on ")[1].split()[0]


def process_env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "TAUE_BLOCKED_LOG": str(tmp_path / "blocked.log"),
        "TAUE_HOME": str(tmp_path / "home"),
        "COLUMNS": "200",
    }


async def test_the_blocker_stops_domain_code(tmp_path: Path) -> None:
    env = process_env(tmp_path)
    code, _, err = await blocked_taue(
        env, "serve", "env", "airline", "--mcp-port", "0", "--control-port", "0"
    )
    assert code != 0 and "domain code is blocked in this process: taue.envs." in err
    assert "taue.envs." in (tmp_path / "blocked.log").read_text()


async def test_remote_run_and_scorer_import_no_domain_code(tmp_path: Path) -> None:
    env = process_env(tmp_path)
    simulator = build_simulator()
    await simulator.start()
    scorer, scorer_address = await start_blocked_scorer(env)
    try:
        async with embedded_domains(["airline", "retail"], ADMIN_TOKEN) as servers:
            urls = [f"--env={name}={server.control_url}" for name, server in servers.items()]
            code, out, err = await blocked_taue(
                env,
                "run",
                "--domains=airline,retail",
                "--agent=oracle",
                "--trials=1",
                "--tasks=emotional",
                *urls,
                f"--simulator={simulator.address}",
                f"--scorer={scorer_address}",
                f"--out={tmp_path / 'run'}",
                "--quiet",
            )
            assert code == 0, err + out
            records = ResultsFile(tmp_path / "run").load()
            expected = sum(
                1 for server in servers.values() for t in server.registry.tasks.values() if t.emotion
            )
            assert len(records) == expected > 0
            assert all(r.reward == 1 for r in records), [r.task_id for r in records if r.reward != 1]
            await _by_hand_episode(env, servers["retail"], simulator.address, scorer_address)
    finally:
        scorer.terminate()
        await scorer.wait()
        await simulator.stop(0)
    assert not (tmp_path / "blocked.log").exists()


async def _by_hand_episode(env: dict[str, str], server, simulator: str, scorer: str) -> None:
    task = next(iter(server.registry.tasks))
    services = [f"--env={server.control_url}", f"--simulator={simulator}", f"--scorer={scorer}"]
    code, out, err = await blocked_taue(
        env, "episode", "new", "--domain=retail", f"--task={task}", *services, "--json"
    )
    assert code == 0, err
    episode = json.loads(out)["episode_id"]
    code, out, err = await blocked_taue(env, "episode", "score", episode, "--force")
    assert code == 0, err
    breakdown = json.loads(out)
    assert breakdown["termination"] == "max_turns" and breakdown["reward"] == 0
    assert breakdown["diagnostics"]["gold_actions"] > 0
    code, _, err = await blocked_taue(env, "episode", "new", "--domain=retail", "--task=nope", *services)
    assert code == 2 and "unknown task 'nope'" in err
    other = ("episode", "new", "--domain=retail", "--task=airline-001")
    code, _, err = await blocked_taue(env, *other, *services)
    assert code == 2 and "airline-001 is an airline task, not retail" in err, err


async def test_the_control_port_serves_card_tasks_and_expected_outcomes() -> None:
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    async with (
        embedded_domains(["telecom"], ADMIN_TOKEN) as servers,
        httpx2.AsyncClient(headers=admin) as http,
    ):
        server = servers["telecom"]
        card = (await http.get(f"{server.control_url}/domain")).json()
        domain = server.domain
        assert card["name"] == "telecom" and card["policy"] == domain.policy
        assert {t["name"] for t in card["tools"] if t["writes"]} == domain.write_tools
        assert {t["name"] for t in card["tools"] if t["ends_conversation"]} == domain.terminal_tools
        tasks = (await http.get(f"{server.control_url}/tasks")).json()["tasks"]
        assert [t["id"] for t in tasks] == [t.id for t in domain.tasks] and card["tasks"] == len(tasks)
        task = domain.tasks[0]
        one = (await http.get(f"{server.control_url}/tasks/{task.id}")).json()
        assert one == task.model_dump(mode="json")
        expected = (await http.get(f"{server.control_url}/tasks/{task.id}/expected")).json()
        episode = (await http.post(f"{server.control_url}/episodes", json={"task_id": task.id})).json()
        seed_hash = (await http.get(f"{server.control_url}/episodes/{episode['episode_id']}/state")).json()
        assert expected["task_id"] == task.id and expected["state_hash"] != seed_hash["sha256"]
        assert expected["outputs"] == task.evaluation.outputs
        missing = await http.get(f"{server.control_url}/tasks/nope/expected")
        assert missing.status_code == 404 and "unknown task 'nope'" in missing.json()["error"]
