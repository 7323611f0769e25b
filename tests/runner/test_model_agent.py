"""The built-in model agent against the scripted OpenAI-compatible double, in-process and served over HTTP."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from taue.contracts.run import RunConfig
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.mcp_app import DomainMCPServer
from taue.envs.runtime.server import DomainServer
from taue.runner.agents import AgentOptions
from taue.runner.agents.asking import changes, proposal
from taue.runner.agents.base import EpisodeContext, McpServerInfo
from taue.runner.agents.model_agent import ModelAgent
from taue.runner.agents.oracle import FOLLOW_UP, completion_report
from taue.runner.control import ControlClient, control_session
from taue.runner.runner import execute_run
from tests.openai_double import OpenAIDouble
from tests.task_picks import plain_task_id

TASK = plain_task_id("airline", neutral=True)


def gold_script(task_id: str = TASK) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A double reply that plays a task's ground truth as a tool-calling model that asks first would.

    The user's odd messages (1st, 3rd, …) get the next change proposed as the oracle proposes it
    (`agents/asking.py`); the even ones (the user's yes) get that change's gold actions, one per model
    call, then a report of them (of every write and output after the last change); once every change
    is made, a follow-up question. It reads only the request, so any client (ours, the Agents SDK) can
    use it.
    """
    domain = get_domain("airline")
    task = domain.task_index[task_id]
    cut, rest = changes(task, domain.write_tools)

    def reply(body: dict[str, Any]) -> dict[str, Any]:
        messages = body["messages"]
        users = [i for i, m in enumerate(messages) if m["role"] == "user"]
        index, approved = divmod(len(users) - 1, 2)
        if index >= len(cut):
            return {"content": FOLLOW_UP}
        if not approved:
            target = cut[index].target
            assert target is not None
            return {"content": proposal(target)}
        last = index == len(cut) - 1
        actions = [*cut[index].actions, *(rest if last else [])]
        done = sum(1 for m in messages[users[-1] :] if m["role"] == "tool")
        if done < len(actions):
            action = actions[done]
            return {"tool_calls": [{"name": action.name, "arguments": dict(action.arguments)}]}
        if last:
            everything = task.evaluation.actions
            return {"content": completion_report(everything, domain.write_tools, task.evaluation.outputs)}
        return {"content": completion_report(actions, domain.write_tools, [])}

    return reply


def run_config(tmp: Path, agent: str, **extra: Any) -> RunConfig:
    return RunConfig(
        run=tmp.name, domains=["airline"], agent=agent, trials=1, task_ids=[TASK], max_turns=12, **extra
    )


async def test_model_agent_solves_a_task_and_sends_what_an_openai_client_expects(tmp_path: Path) -> None:
    async with OpenAIDouble([gold_script()]) as double:
        config = run_config(tmp_path, "model", model="double-model", base_url=double.base_url, seed=7)
        report = await execute_run(config, tmp_path, {}, 1)
    [record] = report.records
    assert (record.termination, record.reward) == ("user_stop", 1), record.error
    actions = get_domain("airline").task_index[TASK].evaluation.actions
    assert [call.name for call in record.tool_log] == [a.name for a in actions]

    first = double.requests[0]
    policy = get_domain("airline").policy
    assert first["messages"][0] == {"role": "system", "content": policy}
    assert first["temperature"] == 0 and first["seed"] == 7 and first["model"] == "double-model"
    tools = {t["function"]["name"]: t for t in first["tools"]}
    assert set(tools) == {fn.__name__ for fn in get_domain("airline").tools}
    schema = tools["get_user_details"]["function"]["parameters"]
    assert schema["type"] == "object" and "user_id" in schema["properties"]
    assert (
        tools["get_user_details"]["type"] == "function"
        and tools["get_user_details"]["function"]["description"]
    )

    assert "Shall I go ahead?" in record.transcript[1].content  # it asks before the first write
    third = double.requests[2]["messages"]  # after the user's yes, its first call and the result
    assistant, tool = third[-2], third[-1]
    assert assistant["role"] == "assistant" and assistant["content"] == ""
    assert assistant["tool_calls"][0]["function"]["name"] == actions[0].name
    assert tool == {
        "role": "tool",
        "tool_call_id": assistant["tool_calls"][0]["id"],
        "content": record.tool_log[0].output,
    }
    calls = len(double.requests)
    assert record.usage["agent"] == {
        "prompt_tokens": 11 * calls,
        "completion_tokens": 7 * calls,
        "model_calls": calls,
        "tool_calls": len(actions),
    }


async def test_a_runs_episodes_list_the_tools_once_between_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server marks its tool listing public: the agent's sessions share it (the SDK's response
    cache) instead of listing again in every episode before validating a tool's result."""
    listed: list[int] = []
    list_tools = DomainMCPServer.list_tools

    async def counting(self: DomainMCPServer, *args: Any, **kwargs: Any) -> Any:
        listed.append(1)
        return await list_tools(self, *args, **kwargs)

    monkeypatch.setattr(DomainMCPServer, "list_tools", counting)
    async with OpenAIDouble([gold_script()]) as double:
        config = run_config(tmp_path, "model", model="double-model", base_url=double.base_url)
        report = await execute_run(config.model_copy(update={"trials": 3}), tmp_path, {}, 1)
    assert [r.reward for r in report.records] == [1, 1, 1]
    assert all(r.tool_log for r in report.records)  # every episode validated tool results
    assert len(listed) == 1


@contextlib.asynccontextmanager
async def model_agent(
    double: OpenAIDouble, **options: Any
) -> AsyncIterator[tuple[ModelAgent, ControlClient, str]]:
    """A ModelAgent started on a fresh airline episode of a private server (for unit-level checks)."""
    server = DomainServer(get_domain("airline"))
    await server.start()
    try:
        async with control_session(timeout=30) as http:
            control = ControlClient(server.control_url, http, server.admin_token)
            created = await control.create_episode(TASK, 0)
            agent = ModelAgent("model", AgentOptions(model="m", base_url=double.base_url, **options))
            auth = {"Authorization": f"Bearer {created.token}"}
            context = EpisodeContext(
                episode_id=created.episode_id,
                domain="airline",
                mcp_servers=[McpServerInfo(name="airline", url=created.mcp_url, headers=auth)],
                policy="Be helpful.",
            )
            await agent.start(context)
            try:
                yield agent, control, created.episode_id
            finally:
                await agent.close()
    finally:
        await server.stop()


async def test_tool_errors_and_bad_arguments_are_fed_back_and_cost_is_priced() -> None:
    replies = [
        {
            "tool_calls": [
                {"name": "get_user_details", "arguments": "{not json"},
                {"name": "no_such_tool", "arguments": {}},
                {"name": "get_user_details", "arguments": {"user_id": "nobody_0000"}},
            ],
            "usage": (1000, 200),
        },
        {"content": "Sorry, I could not find you.", "usage": (2000, 100)},
    ]
    price = {"m": {"input": 3.0, "output": 15.0}}
    async with (
        OpenAIDouble(replies) as double,
        model_agent(double, price_table=price) as (agent, control, eid),
    ):
        text = await agent.respond("Hi, I am nobody_0000.")
        log = await control.tool_log(eid)
    assert text == "Sorry, I could not find you."
    fed_back = [m["content"] for m in double.requests[1]["messages"] if m["role"] == "tool"]
    assert fed_back[0].startswith("Error: the arguments of get_user_details are not valid JSON")
    assert fed_back[1].startswith("Error: Unknown tool: no_such_tool")
    assert fed_back[2].startswith("Error:") and "not found" in fed_back[2]
    # The malformed call never reached the server; the other two did, and failed there.
    assert [(c.name, c.ok) for c in log] == [("no_such_tool", False), ("get_user_details", False)]
    assert agent.usage["prompt_tokens"] == 3000 and agent.usage["completion_tokens"] == 300
    assert agent.usage["cost_usd"] == pytest.approx((3000 * 3.0 + 300 * 15.0) / 1e6)
    assert agent.usage["tool_calls"] == 3 and agent.usage["model_calls"] == 2


async def test_a_price_table_in_the_run_gives_the_agents_cost(tmp_path: Path) -> None:
    prices = {"double-model": {"input": 2.0, "output": 10.0}}
    async with OpenAIDouble([gold_script()]) as double:
        config = run_config(
            tmp_path, "model", model="double-model", base_url=double.base_url, price_table=prices
        )
        [record] = (await execute_run(config, tmp_path, {}, 1)).records
    usage = record.usage["agent"]
    assert usage["prompt_tokens"] > 0
    assert usage["cost_usd"] == pytest.approx(
        (usage["prompt_tokens"] * 2 + usage["completion_tokens"] * 10) / 1e6
    )
    assert json.loads((tmp_path / "run.json").read_text())["price_table"] == prices


def test_a_price_table_that_is_not_one_is_a_one_line_error(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from taue.cli import app

    bad = tmp_path / "prices.json"
    bad.write_text('{"m": {"input": "cheap"}}')
    for path in (bad, tmp_path / "missing.json"):
        result = CliRunner().invoke(app, ["run", "--domains", "airline", "--price-table", str(path)])
        assert result.exit_code == 2, result.output
        assert "price table" in result.output or "expected {" in result.output
        assert len(result.output.strip().splitlines()) == 1


async def test_tool_call_cap_per_turn_ends_the_episode_as_agent_error(tmp_path: Path) -> None:
    many = {"tool_calls": [{"name": "list_all_airports", "arguments": {}}] * 2}
    async with OpenAIDouble([many]) as double:
        config = run_config(tmp_path, "model", model="m", base_url=double.base_url, max_tool_calls_per_turn=5)
        [record] = (await execute_run(config, tmp_path, {}, 1)).records
    assert record.termination == "agent_error" and record.reward == 0
    assert record.error == "the model asked for more than 5 tool calls in one turn"
    assert len(record.tool_log) == 4  # two rounds of two ran; the third round was refused


async def test_model_endpoint_errors_end_the_episode_as_agent_error(tmp_path: Path) -> None:
    async with OpenAIDouble([{"status": 400}]) as double:
        config = run_config(tmp_path, "model", model="m", base_url=double.base_url)
        [record] = (await execute_run(config, tmp_path, {}, 1)).records
    assert record.termination == "agent_error"
    assert record.error is not None and "BadRequestError" in record.error and double.base_url in record.error


async def test_api_key_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAUE_AGENT_API_KEY", "taue-key")
    monkeypatch.setenv("OPENAI_API_KEY", "openai-key")
    async with OpenAIDouble([{"content": "Hello!"}]) as double, model_agent(double) as (agent, _, _):
        await agent.respond("hi")
        monkeypatch.delenv("TAUE_AGENT_API_KEY")
        second = ModelAgent("model", AgentOptions(model="m", base_url=double.base_url))
        second.messages = [{"role": "user", "content": "hi"}]
        await second._complete()
        await second.close()
    assert double.headers[0]["authorization"] == "Bearer taue-key"
    assert double.headers[1]["authorization"] == "Bearer openai-key"


async def start_taue_agent_serve(base_url: str) -> tuple[asyncio.subprocess.Process, str]:
    """`taue agent serve` on a free port; returns the process and the URL it printed."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "taue", "agent", "serve", "--model", "double-model",
        "--base-url", base_url, "--port", "0", "--seed", "3",
        stderr=asyncio.subprocess.PIPE, env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    assert process.stderr is not None
    line = (await asyncio.wait_for(process.stderr.readline(), 60)).decode()
    match = re.search(r"on (http://127\.0\.0\.1:\d+)", line)
    assert match, line
    return process, match.group(1)


async def test_taue_agent_serve_runs_a_full_episode_over_http_scored_from_server_observations(
    tmp_path: Path,
) -> None:
    async with OpenAIDouble([gold_script()]) as double:
        process, url = await start_taue_agent_serve(double.base_url)
        try:
            [record] = (await execute_run(run_config(tmp_path, url), tmp_path, {}, 1)).records
        finally:
            process.terminate()
            await process.wait()
    assert record.agent == url
    assert (record.termination, record.reward) == ("user_stop", 1), record.error
    assert record.breakdown.db_match is True and record.breakdown.outputs_found == {}
    assert [c.name for c in record.tool_log] == [
        a.name for a in get_domain("airline").task_index[TASK].evaluation.actions
    ]
    assert all(r["seed"] == 3 for r in double.requests)
    agent_usage = record.usage["agent"]
    assert agent_usage["model_calls"] == len(double.requests)
    assert agent_usage["prompt_tokens"] == 11 * len(double.requests)
