"""The OpenAI Agents SDK example: a third-party MCP client, run end to end through the real runner."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from taue.contracts.run import RunConfig
from taue.envs.runtime.discovery import get_domain
from taue.runner.agent_server import AppServer
from taue.runner.conformance import check_agent
from taue.runner.runner import execute_run
from tests.openai_double import OpenAIDouble
from tests.paths import ROOT
from tests.runner.test_model_agent import TASK, gold_script

EXAMPLE = ROOT / "examples" / "openai_agents_sdk" / "agent.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("openai_agents_sdk_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


async def test_the_agents_sdk_example_solves_a_task_through_the_runner(tmp_path: Path) -> None:
    example = load_example()
    async with OpenAIDouble([gold_script()]) as double:
        agent = AppServer(example.build_app("double-model", double.base_url))
        async with agent:
            config = RunConfig(
                run="sdk", domains=["airline"], agent=agent.url, trials=1, task_ids=[TASK], max_turns=12
            )
            report = await execute_run(config, tmp_path, {}, 1)
    [record] = report.records
    # Scored from the server's observations only: its database hash and its tool log.
    assert (record.termination, record.reward) == ("user_stop", 1), record.error
    assert record.breakdown.db_match is True and record.breakdown.outputs_found == {}  # a plain task
    gold = get_domain("airline").task_index[TASK].evaluation.actions
    assert [(c.name, c.ok) for c in record.tool_log] == [(a.name, True) for a in gold]

    first = double.requests[0]
    assert first["model"] == "double-model" and first["temperature"] == 0 and first["seed"] == 0
    assert first["messages"][0] == {"role": "system", "content": get_domain("airline").policy}
    listed = {tool["function"]["name"] for tool in first["tools"]}
    assert listed == {fn.__name__ for fn in get_domain("airline").tools}
    # It asked first (request 0 proposes the first change); request 2 follows its first call.
    fed_back = [m for m in double.requests[2]["messages"] if m["role"] == "tool"]
    assert len(fed_back) == 1 and record.tool_log[0].output in str(fed_back[0]["content"])


async def test_the_agents_sdk_example_passes_the_conformance_check() -> None:
    example = load_example()
    async with OpenAIDouble([{"content": "Hello! How can I help you today?"}]) as double:
        agent = AppServer(example.build_app("double-model", double.base_url))
        async with agent:
            report = await check_agent(agent.url, turn_timeout=30, max_turns=2)
    assert report.ok, [v.detail for v in report.violations]
    assert report.turns == 2
