"""`POST /episodes/{id}/finish`: the episode's end as one signed snapshot, and nothing the agent does
afterwards counts."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx2
import pytest_asyncio

from taue.contracts.integrity import (
    SERVER_LABEL,
    EpisodeEnd,
    SigningKey,
    expected_digest,
    task_set_hash,
    tool_log_digest,
)
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.server import DomainServer
from taue.runner.mcp_session import episode_session
from tests.task_picks import plain_task_id

KEY = SigningKey("test-signing-key-0123456789")
TASK = plain_task_id("airline", neutral=True)


@pytest_asyncio.fixture
async def signing() -> AsyncIterator[tuple[DomainServer, httpx2.AsyncClient]]:
    server = DomainServer(get_domain("airline"), signing_key=KEY)
    await server.start()
    admin = {"Authorization": f"Bearer {server.admin_token}"}
    async with httpx2.AsyncClient(base_url=server.control_url, headers=admin, timeout=30) as http:
        yield server, http
    await server.stop()


async def test_finish_is_one_signed_snapshot_and_later_calls_are_refused(signing) -> None:
    _, http = signing
    created = (await http.post("/episodes", json={"task_id": TASK, "seed": 7, "run_id": "run-1"})).json()
    episode_id, auth = created["episode_id"], {"Authorization": f"Bearer {created['token']}"}
    task = get_domain("airline").task_index[TASK]
    async with episode_session(created["mcp_url"], auth) as client:
        for action in task.evaluation.actions:
            assert not (await client.call_tool(action.name, dict(action.arguments))).is_error
    answer = await http.post(f"/episodes/{episode_id}/finish")
    assert answer.status_code == 200, answer.text
    end = EpisodeEnd.model_validate_json(answer.content)
    observation = end.observation
    assert (observation.task_id, observation.run_id, observation.seed) == (TASK, "run-1", 7)
    assert end.final_hash == observation.final_hash == end.expected.state_hash  # the gold was played
    assert observation.tool_log_sha256 == tool_log_digest(end.tool_log)
    assert observation.expected_sha256 == expected_digest(end.expected)
    eval_tasks = get_domain("airline").tasks
    assert observation.task_set_hash == task_set_hash({"airline": eval_tasks})
    assert observation.key_id == KEY.id and KEY.signed(
        SERVER_LABEL, observation.payload(), observation.server_signature
    )
    forged = observation.model_copy(update={"final_hash": "0" * 64})
    assert not KEY.signed(SERVER_LABEL, forged.payload(), observation.server_signature)

    async with episode_session(created["mcp_url"], auth) as client:
        late = await client.call_tool("think", {"thought": "one more"})
    assert late.is_error and "conversation is over" in late.content[0].text
    again = EpisodeEnd.model_validate_json((await http.post(f"/episodes/{episode_id}/finish")).content)
    assert again == end  # nothing joined the log, nothing changed
    reset = await http.post(f"/episodes/{episode_id}/reset")
    assert reset.status_code == 200
    async with episode_session(created["mcp_url"], auth) as client:
        assert not (await client.call_tool("think", {"thought": "a fresh start"})).is_error


async def test_an_episode_without_a_task_has_nothing_to_finish(signing) -> None:
    _, http = signing
    created = (await http.post("/episodes", json={})).json()
    answer = await http.post(f"/episodes/{created['episode_id']}/finish")
    assert answer.status_code == 409 and "plays no task" in answer.json()["error"]
    assert (await http.post("/episodes/nope/finish")).status_code == 404


async def test_a_server_without_a_key_leaves_observations_unsigned(servers, http) -> None:
    created = (await http.post(servers["airline"].control_url + "/episodes", json={"task_id": TASK})).json()
    end = (
        await http.post(f"{servers['airline'].control_url}/episodes/{created['episode_id']}/finish")
    ).json()
    assert end["observation"]["server_signature"] is None and end["observation"]["key_id"] is None
