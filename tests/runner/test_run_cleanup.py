"""A run deletes its episodes from remote domain servers by run id: on start-up, what a killed earlier
session of the same run left there, before any episode of its own; at the end, whatever is left."""

from __future__ import annotations

import json
from pathlib import Path

import httpx2

from taue.contracts.run import RunConfig
from taue.runner.embedded import Services, embedded_domains
from taue.runner.runner import execute_run
from tests.conftest import ADMIN_TOKEN

CONFIG = RunConfig(run="cleanup", domains=["airline"], agent="oracle", trials=1, limit=2)


async def test_a_resumed_run_first_deletes_what_a_killed_session_left(tmp_path: Path) -> None:
    async with (
        embedded_domains(["airline"], ADMIN_TOKEN) as servers,
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}) as http,
    ):
        server = servers["airline"]
        services = Services(env={"airline": server.control_url})
        await execute_run(CONFIG, tmp_path, services, 1, admin_token=ADMIN_TOKEN)
        run_id = json.loads((tmp_path / "run.json").read_text())["run_id"]
        # What a session killed with SIGKILL leaves: one record fewer, and live episodes carrying the run's
        # id (next to another run's).
        results = tmp_path / "results.jsonl"
        results.write_text(results.read_text().splitlines(keepends=True)[0])
        for owner in (run_id, run_id, "someone-else"):
            body = {"task_id": None, "seed": 0, "run_id": owner}
            assert (await http.post(f"{server.control_url}/episodes", json=body)).status_code == 201
        live_at_first_episode: list[int] = []

        def progress(done: int, total: int) -> None:
            live_at_first_episode.append(len(server.registry.listed(run_id)))

        resumed = await execute_run(CONFIG, tmp_path, services, 1, progress, admin_token=ADMIN_TOKEN)
        assert resumed.skipped == 1 and resumed.completed == 1
        assert live_at_first_episode == [0]  # deleted before the resumed session's first episode ended
        assert [episode.run_id for episode in server.registry.listed()] == ["someone-else"]
