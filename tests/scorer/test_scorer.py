"""Reward rules and the ground-truth replay, on real airline and retail tasks; expected outputs."""

from __future__ import annotations

import pytest

from taue.contracts.episode import LoggedCall, Message
from taue.contracts.tasks import Action
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.task_checks import output_problems, replay, too_short
from taue.scorer.replay import ExpectedStates
from taue.scorer.reward import outputs_found, score
from taue.scorer.scoring import Scorer, ScoreRequest


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
    assert await expected(domain, task) == db.state_hash()
    assert await expected(domain, task) != domain.new_database().state_hash()


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


def test_outputs_match_by_tokens_numbers_by_value() -> None:
    transcript = said(
        "Your refund of $85 is on its way, and 1,568 miles were added.",
        "Status: PENDING... the   Speed-Test passed.",
    )
    transcript.append(Message(role="user", content="the code is 777"))
    outputs = [
        "85",
        "$85",
        "85.00",
        "85.0",
        "1568",
        "1,568",
        "pending",
        "status pending",
        "777",
        "speed-test",
    ]
    found = outputs_found(outputs, transcript)
    assert found == {output: output != "777" for output in outputs}  # user messages never count
    for agent_said in ("$850 in all", "8.5 per day", "order 185", "85th"):
        assert outputs_found(["85"], said(agent_said)) == {"85": False}, agent_said
    assert outputs_found(["8.5"], said("85")) == {"8.5": False}
    assert outputs_found(["$1,234.50"], said("That is 1234.5 dollars")) == {"$1,234.50": True}
    assert outputs_found(["refund issued"], said("refund was issued")) == {"refund issued": False}


async def test_transfer_scores_only_when_the_gold_transfers() -> None:
    domain, task = task_with_outputs("airline")
    gold = await expected(domain, task)
    everything = said(" ".join(task.evaluation.outputs))
    assert not any(a.name in domain.terminal_tools for a in task.evaluation.actions)
    # The agent did every write and said everything, then handed the user off: abandoned, 0.
    abandoned = score(domain, task, gold, gold, everything, [], "agent_transfer")
    assert abandoned.reward == 0 and abandoned.db_match is True and all(abandoned.outputs_found.values())
    transfer = Action(name="transfer_to_human_agents", arguments={"summary": "needs a human"})
    actions = [*task.evaluation.actions, transfer]
    transferring = task.model_copy(
        update={"evaluation": task.evaluation.model_copy(update={"actions": actions})}
    )
    assert await expected(domain, transferring) == gold  # the transfer changes no state
    assert score(domain, transferring, gold, gold, everything, [], "agent_transfer").reward == 1
    assert score(domain, transferring, gold, "0" * 64, everything, [], "agent_transfer").reward == 0
    assert score(domain, transferring, gold, gold, said("bye"), [], "agent_transfer").reward == 0
    assert score(domain, transferring, gold, gold, everything, [], "user_stop").reward == 1
    assert score(domain, task, gold, gold, everything, [], "user_stop").reward == 1


def test_short_outputs_need_numeric_context() -> None:
    for output in ("5", "no", "Yes", "SFO", "$5", "5.00", "85", "N/A", "", "!!"):
        assert too_short(output), output
    for output in ("$85", "85.00", "8.5", "470", "1568", "HAT042", "none", "speed test", "€12"):
        assert not too_short(output), output


def test_outputs_the_user_says_are_rejected() -> None:
    _, task = task_with_outputs("airline")
    scenario = task.user_scenario
    value = next(iter(scenario.known_info.values()))
    evaluation = task.evaluation.model_copy(update={"outputs": ["7", value.upper(), "a refund of $1,234.50"]})
    changed = task.model_copy(
        update={
            "evaluation": evaluation,
            "instruction": task.instruction + " You were promised a refund of 1234.5 dollars.",
        }
    )
    problems = output_problems(changed)
    assert any("'7' is too short" in p for p in problems)
    assert any(f"{value.upper()!r} occurs in the user's own scenario text" in p for p in problems)
    assert any("'a refund of $1,234.50' occurs" in p for p in problems)
    assert len(problems) == 3


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
