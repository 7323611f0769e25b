"""Reward rules (DESIGN §8) and the ground-truth replay, on real airline and retail tasks."""

from __future__ import annotations

import pytest

from envs.runtime.database import state_hash
from envs.runtime.registry import get_domain
from envs.runtime.task_checks import replay
from scorer.replay import ExpectedStates
from scorer.reward import LoggedCall, Message, outputs_found, score
from scorer.scorer import Scorer, ScoreRequest


def task_with_outputs(domain_name: str):
    domain = get_domain(domain_name)
    return domain, next(t for t in domain.tasks if t.evaluation.outputs)


async def expected(domain, task) -> str:
    return await ExpectedStates().hash_for(domain, task)


def said(*texts: str) -> list[Message]:
    return [Message(role="user", content="hi")] + [Message(role="agent", content=t) for t in texts]


async def test_expected_hash_is_the_replayed_state_and_differs_from_seed() -> None:
    domain, task = task_with_outputs("airline")
    db, log = await replay(domain, task.evaluation.actions)
    assert all(call.ok for call in log)
    assert await expected(domain, task) == state_hash(db.canonical_state())
    assert await expected(domain, task) != state_hash(domain.new_database().canonical_state())


@pytest.mark.parametrize("domain_name", ["airline", "retail"])
async def test_reward_rules(domain_name: str) -> None:
    domain, task = task_with_outputs(domain_name)
    gold = await expected(domain, task)
    everything = " ".join(task.evaluation.outputs)
    # 1: right database and every output said.
    assert score(domain, task, gold, gold, said(everything), [], "user_stop").reward == 1
    # -1: UNSATISFIED wins even with the right database and outputs.
    unsat = score(domain, task, gold, gold, said(everything), [], "user_unsatisfied")
    assert unsat.reward == -1 and unsat.db_match is None
    # 0: wrong database.
    wrong_db = score(domain, task, gold, "0" * 64, said(everything), [], "user_stop")
    assert wrong_db.reward == 0 and wrong_db.db_match is False
    # 0: an output never said.
    missing = score(domain, task, gold, gold, said("nothing useful"), [], "user_stop")
    assert missing.reward == 0 and not all(missing.outputs_found.values())
    # 0: any other termination, even with everything right.
    for termination in ("max_turns", "max_tool_calls", "timeout", "agent_error"):
        assert score(domain, task, gold, gold, said(everything), [], termination).reward == 0


def test_outputs_match_case_insensitive_with_commas_removed() -> None:
    transcript = [
        Message(role="agent", content="Your total is $1,234.50 and status PENDING."),
        Message(role="user", content="the code is 777"),
    ]
    found = outputs_found(["1234.50", "pending", "777"], transcript)
    assert found == {"1234.50": True, "pending": True, "777": False}  # user messages never count


async def test_diagnostics_compare_server_log_with_gold() -> None:
    domain, task = task_with_outputs("retail")
    gold_writes = [a for a in task.evaluation.actions if a.name in domain.write_tools]
    log = [
        LoggedCall(name=a.name, arguments=a.arguments, ok=True, writes=a.name in domain.write_tools)
        for a in task.evaluation.actions[:-1]
    ]
    log.append(LoggedCall(name="think", arguments={"thought": "x"}, ok=True))
    log.append(LoggedCall(name=gold_writes[0].name, arguments={"bogus": 1}, ok=True, writes=True))
    breakdown = await Scorer().score(
        ScoreRequest(
            domain="retail",
            task_id=task.id,
            final_hash=None,
            transcript=said("Is it done?"),
            tool_log=log,
            termination="user_stop",
        )
    )
    d = breakdown.diagnostics
    assert breakdown.reward == 0 and breakdown.db_match is False
    assert d["gold_actions"] == len(task.evaluation.actions)
    assert d["gold_actions_matched"] == len(task.evaluation.actions) - 1
    assert d["extra_writes"] == [{"name": gold_writes[0].name, "arguments": {"bogus": 1}}]
    assert d["questions_to_user"] == 1 and d["tool_calls"] == len(log)


async def test_scorer_rejects_unknown_task() -> None:
    with pytest.raises(KeyError, match="unknown task"):
        await Scorer().score(
            ScoreRequest(
                domain="retail", task_id="nope", final_hash=None, transcript=[], termination="user_stop"
            )
        )
