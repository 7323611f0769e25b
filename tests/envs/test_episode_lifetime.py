"""Episode lifetime on a domain server: run ids, listing and deleting a run's episodes, idle expiry and
the cap (429). Memory given back after expiry: tests/envs/test_served_process.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx2
import pytest
import pytest_asyncio

from taue.envs.runtime import limits
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.server import DomainServer
from tests.conftest import CONTROL_TOKENS

MB = 1024 * 1024


@pytest_asyncio.fixture
async def short_lived() -> AsyncIterator[DomainServer]:
    """An airline server whose episodes expire after 0.6 s idle, with room for 3 of them."""
    server = DomainServer(get_domain("airline"), episode_ttl_s=0.6, max_episodes=3)
    await server.start()
    CONTROL_TOKENS.register(server)
    yield server
    await server.stop()


async def create(http: httpx2.AsyncClient, server: DomainServer, **body: object) -> httpx2.Response:
    return await http.post(server.control_url + "/episodes", json=body)


async def test_episodes_carry_run_ids_and_a_run_is_listed_and_deleted(servers, http) -> None:
    server = servers["airline"]
    task_id = get_domain("airline").tasks[0].id
    mine = [(await create(http, server, run_id="run-a:1", task_id=task_id)).json() for _ in range(2)]
    other = (await create(http, server, run_id="run-b")).json()
    listed = (await http.get(server.control_url + "/episodes", params={"run_id": "run-a:1"})).json()
    assert sorted(e["episode_id"] for e in listed["episodes"]) == sorted(e["episode_id"] for e in mine)
    entry = listed["episodes"][0]
    assert entry["run_id"] == "run-a:1" and entry["task_id"] == task_id
    assert entry["tool_calls"] == 0 and entry["ended"] is False and 0 <= entry["idle_s"] < 30
    every = {e["episode_id"] for e in (await http.get(server.control_url + "/episodes")).json()["episodes"]}
    assert {e["episode_id"] for e in [*mine, other]} <= every

    deleted = await http.delete(server.control_url + "/episodes", params={"run_id": "run-a:1"})
    assert deleted.status_code == 200 and deleted.json() == {"deleted": 2}
    again = await http.delete(server.control_url + "/episodes", params={"run_id": "run-a:1"})
    assert again.json() == {"deleted": 0}
    gone = await http.get(f"{server.control_url}/episodes/{mine[0]['episode_id']}")
    assert gone.status_code == 404
    assert (await http.get(f"{server.control_url}/episodes/{other['episode_id']}")).status_code == 200
    await http.delete(f"{server.control_url}/episodes/{other['episode_id']}")


@pytest.mark.parametrize("run_id", ["", "has space", "a/b", "x" * 129])
async def test_bad_run_ids_are_refused(servers, http, run_id: str) -> None:
    server = servers["airline"]
    created = await create(http, server, run_id=run_id)
    assert created.status_code == 422 and "run_id" in created.text
    listed = await http.get(server.control_url + "/episodes", params={"run_id": run_id})
    deleted = await http.delete(server.control_url + "/episodes", params={"run_id": run_id})
    assert listed.status_code == deleted.status_code == 422
    assert len(created.text) < 400


async def test_deleting_a_run_needs_its_id(servers, http) -> None:
    response = await http.delete(servers["airline"].control_url + "/episodes")
    assert response.status_code == 422 and "run_id" in response.text


async def test_idle_episodes_expire_and_used_ones_stay(short_lived: DomainServer, http) -> None:
    health = (await http.get(short_lived.control_url + "/healthz")).json()
    assert health["episode_ttl_s"] == 0.6 and health["max_episodes"] == 3
    used, idle = [(await create(http, short_lived)).json()["episode_id"] for _ in range(2)]
    for _ in range(8):  # 1.6 s, each request within the TTL of the last
        await asyncio.sleep(0.2)
        assert (await http.get(f"{short_lived.control_url}/episodes/{used}/tool-log")).status_code == 200
    assert (await http.get(f"{short_lived.control_url}/episodes/{idle}")).status_code == 404
    listed = (await http.get(short_lived.control_url + "/episodes")).json()["episodes"]
    assert [e["episode_id"] for e in listed] == [used]


async def test_the_cap_answers_429_until_an_episode_goes(short_lived: DomainServer, http) -> None:
    ids = [(await create(http, short_lived)).json()["episode_id"] for _ in range(3)]
    refused = await create(http, short_lived)
    assert refused.status_code == 429
    message = refused.json()["error"]
    assert "too many live episodes (3" in message and "\n" not in message
    await http.delete(f"{short_lived.control_url}/episodes/{ids[0]}")
    assert (await create(http, short_lived)).status_code == 201


def test_the_cap_follows_the_memory_limit() -> None:
    image = len(get_domain("airline").seed_image.image_bytes)
    # limits far above what this (test) process holds, so that both are above the budget's floor
    small, large = limits.derived_max_episodes(image, 8192), limits.derived_max_episodes(image, 16384)
    assert limits.MIN_EPISODES <= small < large
    # above what the process already holds, each episode is budgeted its measured footprint
    assert large - small == pytest.approx((16384 - 8192) * MB * 0.9 / limits.episode_footprint(image), abs=2)
    assert limits.derived_max_episodes(image, 1) == limits.MIN_EPISODES


def test_memory_limit_comes_from_the_cgroup(tmp_path: Path) -> None:
    v2, v1 = tmp_path / "memory.max", tmp_path / "memory.limit_in_bytes"
    assert limits.cgroup_memory_limit(v2, v1) is None  # neither file: no limit
    v2.write_text("max\n")
    assert limits.cgroup_memory_limit(v2, v1) is None
    v2.write_text(f"{512 * MB}\n")
    assert limits.cgroup_memory_limit(v2, v1) == 512 * MB
    v2.unlink()
    v1.write_text("9223372036854771712\n")  # cgroup v1's "unlimited"
    assert limits.cgroup_memory_limit(v2, v1) is None
    v1.write_text(f"{256 * MB}\n")
    assert limits.cgroup_memory_limit(v2, v1) == 256 * MB
