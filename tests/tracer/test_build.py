"""The builder on a small retail set: deterministic, verified, entity-disjoint, with an LLM refiner."""

from __future__ import annotations

import pytest

from taue.envs.runtime.discovery import get_domain
from taue.tracer.build import Builder, task_file_text, train_file_text
from taue.tracer.verify import duplicate_key, task_rejection, underivable_arguments
from tests.openai_double import OpenAIDouble

pytestmark = pytest.mark.slow  # several builds with careful-agent episodes

RETAIL = get_domain("retail")


async def small_build(seed: int = 0, refiner=None, agent_check: bool = False):
    return await Builder(RETAIL, seed, refiner=refiner).build(
        eval_count=8, train_count=6, verify_with_agent=agent_check
    )


async def test_the_same_seed_gives_the_same_files_and_another_seed_others() -> None:
    first, again, other = await small_build(0), await small_build(0), await small_build(1)
    assert task_file_text(first.eval_tasks) == task_file_text(again.eval_tasks)
    assert train_file_text(first.train_tasks) == train_file_text(again.train_tasks)
    assert first.rejections == again.rejections and first.candidates == again.candidates
    assert task_file_text(first.eval_tasks) != task_file_text(other.eval_tasks)


async def test_built_tasks_pass_every_check_and_record_their_stages() -> None:
    result = await small_build(agent_check=True)
    emotional = [t for t in result.eval_tasks if t.emotion]
    assert [t.id for t in emotional] == [f"retail-{n:03d}" for n in range(1, 9)]
    assert len(result.eval_tasks) == 16 and all(t.twin for t in emotional)
    for task in [*result.eval_tasks, *result.train_tasks]:
        assert await task_rejection(RETAIL, task) is None, task.id
        stages = task.provenance.stages
        assert task.provenance.source == "tracer" and stages["intents"] and stages["paths"]
        assert stages["condition"] == task.condition_id or task.emotion is None
        needs = len(stages["intents"]) + len(stages["alternatives"])  # an accepted alternative: a goal
        assert len(stages["paths"]) == needs == len(task.user_scenario.goals)
    challenge = emotional[3]  # every 7th evaluation position from the 4th holds a policy challenge
    assert challenge.provenance.stages["challenges"] and challenge.provenance.stages["broken_rules"]
    assert any(goal.refusal_expected and goal.refusal_reason for goal in challenge.user_scenario.goals)
    eval_entities = {e for t in emotional for e in t.provenance.stages["entities"]}
    assert not eval_entities & {e for t in result.train_tasks for e in t.provenance.stages["entities"]}
    assert len({t.provenance.stages["customer"] for t in emotional}) == len(emotional)
    rephrased = "feeling classified as another condition"  # counts rephrasings, not candidates
    rejected = sum(n for reason, n in result.rejections.items() if reason != rephrased)
    assert rejected == result.candidates - len(emotional) - len(result.train_tasks)


async def test_an_argument_nobody_can_know_is_caught() -> None:
    result = await small_build()
    task = next(t for t in result.eval_tasks if t.emotion and not t.provenance.stages["challenges"])
    assert await underivable_arguments(RETAIL, task) == []
    actions = list(task.evaluation.actions)
    index = max(i for i, a in enumerate(actions) if a.name in RETAIL.write_tools)
    write = actions[index]
    key = next(k for k, v in write.arguments.items() if isinstance(v, str) and k.endswith("_id"))
    actions[index] = write.model_copy(update={"arguments": {**write.arguments, key: "made-up-7781"}})
    tampered = task.model_copy(update={"evaluation": task.evaluation.model_copy(update={"actions": actions})})
    assert any("made-up-7781" in item for item in await underivable_arguments(RETAIL, tampered))
    assert duplicate_key(task, RETAIL.write_tools) != duplicate_key(tampered, RETAIL.write_tools)


@pytest.mark.parametrize("keeps_facts", [True, False])
async def test_the_llm_refiner_rewrites_instructions_only_when_every_fact_survives(keeps_facts: bool) -> None:
    from taue.tracer.refine import LlmRefiner

    def rewrite(body: dict) -> dict:
        original = body["messages"][0]["content"].rsplit("\n\n", 1)[1]
        return {
            "content": f"In your own words: {original}" if keeps_facts else "You want help with an order."
        }

    async with OpenAIDouble([rewrite]) as double:
        refiner = LlmRefiner("double-model", double.base_url, seed=5)
        result = await small_build(refiner=refiner)
    emotional = [t for t in result.eval_tasks if t.emotion]
    assert double.requests and all(r["temperature"] == 0 and r["seed"] == 5 for r in double.requests)
    refined = [t.instruction.startswith("In your own words: ") for t in emotional]
    assert all(refined) if keeps_facts else not any(refined)
    dropped = result.rejections["refiner dropped a fact (template kept)"]
    assert (dropped == 0) if keeps_facts else dropped >= len(emotional)
