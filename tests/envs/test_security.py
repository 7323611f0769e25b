"""Bad input gets a clear error, changes no database, and the servers keep serving.

Everything here goes over real HTTP and MCP to domain servers on loopback.
"""

from __future__ import annotations

import httpx2
import pytest

from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.server import DomainServer
from taue.runner.mcp_session import episode_session


async def new_episode(http: httpx2.AsyncClient, server: DomainServer, task_id: str | None = None) -> dict:
    response = await http.post(server.control_url + "/episodes", json={"task_id": task_id})
    assert response.status_code == 201, response.text
    return response.json()


async def state_hash(http: httpx2.AsyncClient, server: DomainServer, episode_id: str) -> str:
    response = await http.get(
        f"{server.control_url}/episodes/{episode_id}/state", params={"include_state": "false"}
    )
    assert response.status_code == 200, response.text
    return response.json()["sha256"]


def auth(episode: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {episode['token']}"}


def first_write(domain_name: str):
    """The first gold write of the domain's tasks that names a record by id."""
    domain = get_domain(domain_name)
    for task in domain.tasks:
        for action in task.evaluation.actions:
            if action.name in domain.write_tools and any(k.endswith("_id") for k in action.arguments):
                return task, action
    raise AssertionError("no write action with an id in any task")


@pytest.fixture(params=["airline", "retail"])
def domain_name(request: pytest.FixtureRequest) -> str:
    return request.param


async def test_bad_tool_calls_are_errors_and_change_nothing(servers, http, domain_name: str) -> None:
    server = servers[domain_name]
    task, write = first_write(domain_name)
    mine, other = await new_episode(http, server), await new_episode(http, server)
    before = (
        await state_hash(http, server, mine["episode_id"]),
        await state_hash(http, server, other["episode_id"]),
    )
    wrong_types = {key: ["not", "a", "scalar"] for key in write.arguments}
    missing_id = {k: ("does-not-exist" if k.endswith("_id") else v) for k, v in write.arguments.items()}
    async with episode_session(mine["mcp_url"], auth(mine)) as client:
        unknown = await client.call_tool("drop_all_tables", {})
        assert unknown.is_error and "Unknown tool: drop_all_tables" in unknown.content[0].text
        typed = await client.call_tool(write.name, wrong_types)
        assert typed.is_error and "validation error" in typed.content[0].text
        absent = await client.call_tool(write.name, missing_id)
        assert absent.is_error and "not found" in absent.content[0].text.lower()
        missing_args = await client.call_tool(write.name, {})
        assert missing_args.is_error and "Field required" in missing_args.content[0].text
    after = (
        await state_hash(http, server, mine["episode_id"]),
        await state_hash(http, server, other["episode_id"]),
    )
    assert after == before
    log = (await http.get(f"{server.control_url}/episodes/{mine['episode_id']}/tool-log")).json()["calls"]
    assert [c["ok"] for c in log] == [False, False, False, False]
    assert [c["name"] for c in log] == ["drop_all_tables", write.name, write.name, write.name]
    # Still serving: the real call works and changes only this episode.
    async with episode_session(mine["mcp_url"], auth(mine)) as client:
        for action in task.initial_state + task.evaluation.actions:
            result = await client.call_tool(action.name, dict(action.arguments))
            assert not result.is_error, result.content[0].text
            if action is write:
                break
    assert await state_hash(http, server, mine["episode_id"]) != before[0]
    assert await state_hash(http, server, other["episode_id"]) == before[1]


async def test_other_episodes_token_and_unknown_episode_are_refused(servers, http) -> None:
    server = servers["airline"]
    mine, other = await new_episode(http, server), await new_episode(http, server)
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"}
    cases = {
        "other token": (mine["mcp_url"], auth(other)),
        "no token": (mine["mcp_url"], {}),
        "unknown episode": (mine["mcp_url"].replace(mine["episode_id"], "0" * 24), auth(mine)),
        "basic auth": (mine["mcp_url"], {"Authorization": "Basic Zm9vOmJhcg=="}),
    }
    for name, (url, extra) in cases.items():
        response = await http.post(url, json=body, headers={**headers, **extra})
        assert response.status_code == 401, name
        assert "error" in response.json(), name
    ok = await http.post(mine["mcp_url"], json=body, headers={**headers, **auth(mine)})
    assert ok.status_code == 200 and "tools" in ok.json()["result"]


async def test_mcp_port_serves_only_episode_endpoints(servers, http) -> None:
    server = servers["airline"]
    episode = await new_episode(http, server)
    base = server.mcp_url
    for path in (
        "/healthz",
        "/episodes",
        f"/episodes/{episode['episode_id']}/state",
        "/mcp",
        f"/episodes/{episode['episode_id']}/mcp/",
        f"/episodes/{episode['episode_id']}/tool-log",
        "/policy",
    ):
        response = await http.get(base + path, headers=auth(episode))
        assert response.status_code == 404, path


async def test_control_port_rejects_malformed_requests_cleanly(servers, http) -> None:
    server = servers["retail"]
    count = (await http.get(server.control_url + "/healthz")).json()["episodes"]
    bad_json = await http.post(
        server.control_url + "/episodes", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert bad_json.status_code == 422 and bad_json.json()["error"] == "invalid request"
    wrong_type = await http.post(server.control_url + "/episodes", json={"task_id": ["x"], "seed": "many"})
    assert wrong_type.status_code == 422 and len(wrong_type.json()["problems"]) == 2
    unknown_task = await http.post(server.control_url + "/episodes", json={"task_id": "no-such-task"})
    assert unknown_task.status_code == 404 and "unknown task" in unknown_task.json()["error"]
    for method, path in (("GET", "state"), ("GET", "tool-log"), ("POST", "reset"), ("DELETE", "")):
        response = await http.request(method, f"{server.control_url}/episodes/nope/{path}".rstrip("/"))
        assert response.status_code == 404 and "unknown episode" in response.json()["error"], (method, path)
    assert (await http.get(server.control_url + "/healthz")).json()["episodes"] == count


async def test_reset_restores_the_task_initial_state(servers, http) -> None:
    server = servers["airline"]
    task, _ = first_write("airline")
    episode = await new_episode(http, server, task.id)
    fresh = await state_hash(http, server, episode["episode_id"])
    async with episode_session(episode["mcp_url"], auth(episode)) as client:
        for action in task.evaluation.actions:
            assert not (await client.call_tool(action.name, dict(action.arguments))).is_error
    assert await state_hash(http, server, episode["episode_id"]) != fresh
    reset = await http.post(f"{server.control_url}/episodes/{episode['episode_id']}/reset")
    assert reset.status_code == 200 and reset.json()["reset_ms"] >= 0
    assert await state_hash(http, server, episode["episode_id"]) == fresh
    assert (await http.get(f"{server.control_url}/episodes/{episode['episode_id']}/tool-log")).json()[
        "calls"
    ] == []


async def test_deleted_episode_is_gone_everywhere(servers, http) -> None:
    server = servers["airline"]
    episode = await new_episode(http, server)
    assert (await http.delete(f"{server.control_url}/episodes/{episode['episode_id']}")).status_code == 204
    assert (await http.get(f"{server.control_url}/episodes/{episode['episode_id']}/state")).status_code == 404
    response = await http.post(
        episode["mcp_url"], json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers=auth(episode)
    )
    assert response.status_code == 401


async def test_policy_is_served_on_control_port_and_as_mcp_resource(servers, http) -> None:
    server = servers["retail"]
    policy = (await http.get(server.control_url + "/policy")).text
    assert policy == get_domain("retail").policy and len(policy) > 500
    episode = await new_episode(http, server)
    async with episode_session(episode["mcp_url"], auth(episode)) as client:
        resource = await client.read_resource("policy://retail")
        assert resource.contents[0].text == policy


async def test_admin_token_guards_the_control_port() -> None:
    server = DomainServer(get_domain("airline"), admin_token="s3cret")
    await server.start()
    try:
        async with httpx2.AsyncClient(timeout=30) as http:
            assert (await http.get(server.control_url + "/healthz")).status_code == 200
            refused = await http.post(server.control_url + "/episodes", json={})
            assert refused.status_code == 401 and "admin token" in refused.json()["detail"]
            wrong = await http.post(
                server.control_url + "/episodes", json={}, headers={"Authorization": "Bearer no"}
            )
            assert wrong.status_code == 401
            allowed = await http.post(
                server.control_url + "/episodes", json={}, headers={"Authorization": "Bearer s3cret"}
            )
            assert allowed.status_code == 201
    finally:
        await server.stop()


async def test_conversation_ending_tool_blocks_further_calls(servers, http) -> None:
    server = servers["airline"]
    domain = get_domain("airline")
    (terminal,) = domain.terminal_tools
    episode = await new_episode(http, server)
    async with episode_session(episode["mcp_url"], auth(episode)) as client:
        assert not (await client.call_tool(terminal, {"summary": "customer wants a human"})).is_error
        after = await client.call_tool("think", {"thought": "more"})
        assert after.is_error and "transferred" in after.content[0].text
    status = (await http.get(f"{server.control_url}/episodes/{episode['episode_id']}")).json()
    assert status["ended"] is True and status["tool_calls"] == 2
    log = (await http.get(f"{server.control_url}/episodes/{episode['episode_id']}/tool-log")).json()
    refused = log["calls"][1]
    assert (refused["name"], refused["ok"], refused["writes"]) == ("think", False, False)
    assert "transferred" in refused["output"] and log["dropped"] == 0
