"""`--thinking/--no-thinking`: the exact chat-completions bodies the model agent and the LLM user send
(`chat_template_kwargs`, what vLLM hands to a Qwen3 chat template), recorded by the OpenAI double."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from taue.contracts.run import RunConfig
from taue.runner.runner import execute_run
from taue.simulator import llm
from taue.simulator.session import UserOptions
from taue.simulator.wire import options_from_message, options_message
from tests.factories import make_task
from tests.openai_double import OpenAIDouble
from tests.task_picks import plain_task_id

TASK = plain_task_id("airline", neutral=True)
SWITCH_OFF = {"chat_template_kwargs": {"enable_thinking": False}}


def agent_and_user(body: dict[str, Any]) -> dict[str, Any]:
    """One double for both: the agent's requests carry tools; the user stops on its second turn."""
    if "tools" in body:
        return {"content": "I have looked into it; is there anything else?"}
    replied = sum(1 for message in body["messages"] if message["role"] == "assistant")
    return {"content": "Hi, I need help with my booking." if not replied else "Thanks.###STOP###"}


async def test_no_thinking_on_the_command_line_reaches_both_endpoints(tmp_path: Path) -> None:
    async with OpenAIDouble([agent_and_user]) as double:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "taue", "run", "--domains", "airline", "--task-id", TASK, "--trials", "1",
            "--agent", "model", "--model", "agent-model", "--base-url", double.base_url,
            "--user", "llm", "--user-model", "user-model", "--user-base-url", double.base_url,
            "--no-thinking", "--out", str(tmp_path / "run"), "--quiet",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        output, _ = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode == 0, output.decode()
    models = [body["model"] for body in double.requests]
    assert "agent-model" in models and "user-model" in models
    for body in double.requests:
        assert body["chat_template_kwargs"] == SWITCH_OFF["chat_template_kwargs"], body
        assert "extra_body" not in body
    assert json.loads((tmp_path / "run" / "run.json").read_text())["enable_thinking"] is False


async def test_without_the_switch_nothing_is_sent(tmp_path: Path) -> None:
    async with OpenAIDouble([agent_and_user]) as double:
        config = RunConfig(
            run="no-switch", domains=["airline"], agent="model", model="agent-model",
            base_url=double.base_url, user="llm", user_model="user-model", user_base_url=double.base_url,
            trials=1, task_ids=[TASK], max_turns=4,
        )  # fmt: skip
        report = await execute_run(config, tmp_path, {}, 1)
    assert report.failed == 0
    assert {body["model"] for body in double.requests} == {"agent-model", "user-model"}
    assert all("chat_template_kwargs" not in body for body in double.requests), double.requests


@pytest.mark.parametrize("switch", [True, False])
async def test_the_llm_user_request_is_the_body_sent(switch: bool) -> None:
    options = UserOptions(backend="llm", model="user-model", enable_thinking=switch)
    async with OpenAIDouble([{"content": "Hello."}]) as double:
        user = llm.LLMUser(make_task(), 7, options.model_copy(update={"base_url": double.base_url}))
        await user.first_message()
    [body] = double.requests
    assert body["chat_template_kwargs"] == {"enable_thinking": switch}
    assert body == {**user.request(), "messages": body["messages"]}


@pytest.mark.parametrize("switch", [None, True, False])
def test_the_switch_crosses_the_simulator_service(switch: bool | None) -> None:
    """A remote simulator (the Kubernetes set-up) gets the same three states over gRPC."""
    options = UserOptions(
        backend="llm", model="m", base_url="http://vllm-user:8000/v1", enable_thinking=switch
    )
    assert options_from_message(options_message(options)) == options
