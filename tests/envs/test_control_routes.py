"""The control port's lean per-episode routes (envs/runtime/control_routes.py) answer as FastAPI's do.

A query string the lean routes do not take (`?via=app`, which FastAPI ignores) sends the same request
to FastAPI, so each answer is compared with FastAPI's own, byte for byte, on one real server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx2
import pytest_asyncio

from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.server import DomainServer
from taue.runner.mcp_session import episode_session
from tests.task_picks import plain_task_id

TASK = plain_task_id("airline", neutral=True)
VIA_APP = {"via": "app"}


@pytest_asyncio.fixture
async def control() -> AsyncIterator[httpx2.AsyncClient]:
    server = DomainServer(get_domain("airline"))
    await server.start()
    admin = {"Authorization": f"Bearer {server.admin_token}"}
    async with httpx2.AsyncClient(base_url=server.control_url, headers=admin, timeout=30) as http:
        yield http
    await server.stop()


def answer(response: httpx2.Response) -> tuple[int, bytes, str | None, str | None]:
    return (
        response.status_code,
        response.content,
        response.headers.get("content-type"),
        response.headers.get("content-length"),
    )


async def played_episode(http: httpx2.AsyncClient) -> str:
    """An episode of TASK whose first gold action ran (its tool log has a call)."""
    created = (await http.post("/episodes", json={"task_id": TASK, "seed": 3, "run_id": "r-1"})).json()
    action = get_domain("airline").task_index[TASK].evaluation.actions[0]
    async with episode_session(created["mcp_url"], {"Authorization": f"Bearer {created['token']}"}) as client:
        await client.call_tool(action.name, dict(action.arguments))
    return created["episode_id"]


async def test_create_answers_as_the_app_does(control) -> None:
    body = {"task_id": TASK, "seed": 5, "run_id": "r-1"}
    lean = await control.post("/episodes", json=body)
    app = await control.post("/episodes", json=body, params=VIA_APP)
    assert lean.status_code == app.status_code == 201
    assert lean.headers["content-type"] == app.headers["content-type"] == "application/json"
    assert lean.json().keys() == app.json().keys() == {"episode_id", "mcp_url", "token", "task_id"}
    assert lean.json()["mcp_url"].endswith(f"/episodes/{lean.json()['episode_id']}/mcp")
    assert lean.json()["episode_id"] != app.json()["episode_id"]


async def test_tool_log_finish_and_delete_answer_as_the_app_does(control) -> None:
    episode_id = await played_episode(control)
    for since in (0, 1, 5):
        lean = await control.get(f"/episodes/{episode_id}/tool-log", params={"since": since})
        app = await control.get(f"/episodes/{episode_id}/tool-log", params={"since": since, **VIA_APP})
        assert answer(lean) == answer(app)
    assert len((await control.get(f"/episodes/{episode_id}/tool-log")).json()["calls"]) == 1
    lean = await control.post(f"/episodes/{episode_id}/finish")
    app = await control.post(f"/episodes/{episode_id}/finish", params=VIA_APP)
    assert lean.status_code == 200 and answer(lean) == answer(app)  # finishing again gives the same end
    deleted = await control.delete(f"/episodes/{episode_id}")
    assert (deleted.status_code, deleted.content, deleted.headers.get("content-length")) == (204, b"", None)
    for method, path in (("DELETE", ""), ("POST", "/finish"), ("GET", "/tool-log")):
        lean = await control.request(method, f"/episodes/{episode_id}{path}")
        app = await control.request(method, f"/episodes/{episode_id}{path}", params=VIA_APP)
        assert lean.status_code == 404 and answer(lean) == answer(app)


async def test_requests_the_lean_routes_refuse_get_the_apps_answer(control) -> None:
    no_token = {"Authorization": "Bearer wrong"}
    assert (await control.post("/episodes", json={}, headers=no_token)).status_code == 401
    assert (await control.delete("/episodes/x", headers=no_token)).status_code == 401
    bad_seed = await control.post("/episodes", json={"task_id": TASK, "seed": "5"})
    assert bad_seed.status_code == 422
    assert bad_seed.json()["problems"] == ["body.seed: Input should be a valid integer"]
    not_json = await control.post("/episodes", content=b"{", headers={"content-type": "application/json"})
    assert not_json.status_code == 422 and not_json.json()["error"] == "invalid request"
    unknown = await control.post("/episodes", json={"task_id": "no-such-task"})
    assert unknown.status_code == 404 and "no-such-task" in unknown.json()["error"]
    episode_id = (await control.post("/episodes", json={"task_id": TASK})).json()["episode_id"]
    negative = await control.get(f"/episodes/{episode_id}/tool-log", params={"since": -1})
    assert negative.status_code == 422 and negative.json()["problems"][0].startswith("query.since")
    assert (await control.get(f"/episodes/{episode_id}/tool-log/")).status_code in (307, 404)
