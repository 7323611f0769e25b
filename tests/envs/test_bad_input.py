"""Every tool of every registered domain, over real MCP: missing arguments, arguments of the wrong type
and ids that do not exist are clear errors, and none of them changes the episode's database."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from taue.envs.runtime.discovery import domain_names, get_domain
from taue.envs.runtime.server import DomainServer
from taue.runner.mcp_session import episode_session
from tests.conftest import CONTROL_TOKENS

WRONG_TYPE = {"string": [1, 2], "integer": "not-a-number", "number": "not-a-number", "array": 7, "object": 7}
"""A JSON value of another type for each JSON-schema type."""


def wrong_value(schema: dict[str, Any]) -> Any | None:
    """A value no parameter of this schema accepts, or None when the schema takes several types."""
    return WRONG_TYPE.get(schema.get("type", ""))


def _is_id(key: str, value: Any) -> bool:
    return key.endswith("_id") and isinstance(value, str)


def gold_calls_with_ids(name: str) -> dict[str, dict[str, Any]]:
    """tool -> the arguments of one gold call of it that names something by id."""
    calls: dict[str, dict[str, Any]] = {}
    for task in get_domain(name).tasks:
        for action in task.evaluation.actions:
            if any(_is_id(key, value) for key, value in action.arguments.items()):
                calls.setdefault(action.name, dict(action.arguments))
    return calls


async def state_hash(http: httpx2.AsyncClient, server: DomainServer, episode_id: str) -> str:
    response = await http.get(f"{server.control_url}/episodes/{episode_id}/state?include_state=false")
    return response.json()["sha256"]


@pytest.mark.parametrize("name", domain_names())
async def test_bad_input_to_every_tool_is_a_clear_error_and_changes_nothing(name: str) -> None:
    server = DomainServer(get_domain(name))
    await server.start()
    CONTROL_TOKENS.register(server)
    try:
        async with httpx2.AsyncClient(timeout=30, auth=CONTROL_TOKENS) as http:
            episode = (await http.post(server.control_url + "/episodes", json={})).json()
            before = await state_hash(http, server, episode["episode_id"])
            headers = {"Authorization": f"Bearer {episode['token']}"}
            async with episode_session(episode["mcp_url"], headers) as client:
                problems = await _bad_calls(client, name)
            assert await state_hash(http, server, episode["episode_id"]) == before
            log = (await http.get(f"{server.control_url}/episodes/{episode['episode_id']}/tool-log")).json()
    finally:
        await server.stop()
    assert problems == [], "\n".join(problems)
    assert log["calls"] and not any(call["ok"] for call in log["calls"] if call["writes"])


async def _bad_calls(client: Any, name: str) -> list[str]:
    """Make every bad call; return what did not fail cleanly."""
    problems: list[str] = []

    writes = get_domain(name).write_tools

    async def expect(tool: str, arguments: dict[str, Any], phrase: str, case: str) -> None:
        result = await client.call_tool(tool, arguments)
        text = result.content[0].text if result.content else ""
        # Telehealth's reads answer an unknown id in plain text, as published ("Patient with ID … not
        # found.", "No medical records found for patient …"): a clear answer naming the id.
        lower = text.lower()
        said_not_found = (
            tool not in writes
            and case == "unknown id"
            and "does-not-exist" in text
            and ("not found" in lower or lower.startswith("no "))
        )
        says = phrase.lower() in lower or (case == "unknown id" and " no " in f" {lower}")
        clear = (says or said_not_found) and "Traceback" not in text
        if not (result.is_error or said_not_found) or not clear:
            problems.append(f"{tool} ({case}): {'accepted' if not result.is_error else text[:200]}")

    terminal = get_domain(name).terminal_tools
    for tool in (await client.list_tools()).tools:
        if tool.name in terminal:
            continue  # a hand-over with bad input is still an error, but would end the episode's calls
        schema = tool.input_schema
        if schema.get("required"):
            await expect(tool.name, {}, "Field required", "no arguments")
        wrong = {key: wrong_value(prop) for key, prop in schema.get("properties", {}).items()}
        wrong = {key: value for key, value in wrong.items() if value is not None}
        if wrong:
            await expect(tool.name, wrong, "validation error", "wrong types")
    for tool, arguments in gold_calls_with_ids(name).items():
        unknown = {k: "does-not-exist" if _is_id(k, v) else v for k, v in arguments.items()}
        await expect(tool, unknown, "not", "unknown id")  # "… not found", "no student matches …"
    return problems
