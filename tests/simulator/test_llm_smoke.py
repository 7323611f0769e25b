"""Smoke test of the LLM user against a real model: llama.cpp serving SmolLM2-135M-Instruct.

One episode (oracle agent, `--user llm`) must run to a valid termination with tokens counted. The
model's words are nonsense; this proves the plumbing (prompt, role flip, seed, stop-token parsing,
token usage, gRPC simulator service, runner) against a real OpenAI-compatible server.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taue.contracts.run import RunConfig
from taue.runner.runner import execute_run
from tests.conftest import ADMIN_TOKEN
from tests.llama_server import LlamaServer

pytestmark = pytest.mark.slow  # a real model on llama.cpp

VALID = {"user_stop": 1, "user_unsatisfied": -1, "max_turns": 0}
"""Terminations an oracle episode with a working user can end in, with their reward."""


async def test_llm_user_episode_against_smollm2(llama_server: LlamaServer, servers, tmp_path: Path) -> None:
    config = RunConfig(
        run="llm-smoke",
        domains=["airline"],
        agent="oracle",
        user="llm",
        user_model=llama_server.model,
        user_base_url=llama_server.base_url,
        trials=1,
        task_ids=["airline-001"],
        max_turns=3,
    )
    urls = {"airline": servers["airline"].control_url}
    report = await execute_run(config, tmp_path / "run", urls, 1, admin_token=ADMIN_TOKEN)
    assert report.failed == 0, (tmp_path / "run" / "errors.jsonl").read_text()
    (record,) = report.records
    assert record.user == "llm"
    assert record.termination in VALID and record.reward == VALID[record.termination]
    user_messages = [m.content for m in record.transcript if m.role == "user"]
    assert user_messages and all(m.strip() for m in user_messages)
    assert len(user_messages) <= config.max_turns + 1
    usage = record.usage["user"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
