"""Smoke test of the Tracer's LLM refiner against a real model: llama.cpp serving SmolLM2-135M.

The model is tiny and its rewrites mostly drop facts; the test proves the plumbing (prompt, seed,
temperature, the fact check) against a real OpenAI-compatible server: every instruction is either
the model's rewrite holding every fact of the template, or the template itself.
"""

from __future__ import annotations

import pytest

from taue.envs.runtime.discovery import get_domain
from taue.tracer.build import Builder
from taue.tracer.refine import LlmRefiner
from tests.llama_server import LlamaServer

pytestmark = pytest.mark.slow  # a real model on llama.cpp


async def test_refiner_against_smollm2_keeps_facts_or_the_template(llama_server: LlamaServer) -> None:
    refiner = LlmRefiner(llama_server.model, llama_server.base_url, seed=0)
    plain = await Builder(get_domain("retail"), 0).build(3, 0, verify_with_agent=False)
    refined = await Builder(get_domain("retail"), 0, refiner=refiner).build(3, 0, verify_with_agent=False)
    kept = refined.rejections["refiner dropped a fact (template kept)"]
    rewritten = 0
    for before, after in zip(plain.eval_tasks, refined.eval_tasks, strict=True):
        assert before.user_scenario == after.user_scenario and before.evaluation == after.evaluation
        if after.instruction != before.instruction:
            rewritten += 1
            assert after.user_scenario.persona.split(",")[0] in after.instruction
    assert kept + rewritten // 2 >= 3  # every emotional task went through the model (twins copy it)
