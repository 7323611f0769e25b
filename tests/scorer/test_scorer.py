"""Reward rules on real airline and retail tasks (their expected outcomes computed as the domain
server computes them); expected outputs; the scorer needs nothing but the request."""

from __future__ import annotations

import asyncio

import pytest

from taue.contracts.episode import LoggedCall, Message
from taue.contracts.tasks import Action
from taue.envs.runtime.catalog import ExpectedOutcomes, expected_outcome
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.task_checks import output_problems, replay, too_short
from taue.scorer.reward import outputs_found, score
from taue.scorer.scoring import ScoreRequest, score_episode


def task_with_outputs(domain_name: str):
    """A task with expected outputs and at least one write (its end state differs from the seed)."""
    domain = get_domain(domain_name)
    writes = domain.write_tools
    chosen = [
        t for t in domain.tasks if t.evaluation.outputs and {a.name for a in t.evaluation.actions} & writes
    ]
    return domain, chosen[0]


async def expected(domain, task):
    return await expected_outcome(domain, task)


def said(*texts: str) -> list[Message]:
    return [Message(role="user", content="hi")] + [Message(role="agent", content=t) for t in texts]


async def test_expected_hash_is_the_replayed_state_and_differs_from_seed() -> None:
    domain, task = task_with_outputs("airline")
    db, log = await replay(domain, task.evaluation.actions)
    assert all(call.ok for call in log)
    outcome = await expected(domain, task)
    assert outcome.state_hash == db.state_hash()
    assert outcome.state_hash != domain.new_database().state_hash()
    assert outcome.outputs == task.evaluation.outputs and len(outcome.gold) == len(task.evaluation.actions)
    assert {g.name for g in outcome.gold if g.writes} == {
        a.name for a in task.evaluation.actions if a.name in domain.write_tools
    }


async def test_expected_outcomes_are_computed_once_per_task() -> None:
    domain, task = task_with_outputs("retail")
    outcomes = ExpectedOutcomes(domain)
    first, second = await asyncio.gather(outcomes.get(task), outcomes.get(task))
    assert first is second and first == await expected(domain, task)


@pytest.mark.parametrize("domain_name", ["airline", "retail"])
async def test_reward_rules(domain_name: str) -> None:
    domain, task = task_with_outputs(domain_name)
    outcome = await expected(domain, task)
    gold = outcome.state_hash
    everything = " ".join(task.evaluation.outputs)
    # 1: right database and every output said.
    assert score(outcome, gold, said(everything), [], "user_stop").reward == 1
    # -1: UNSATISFIED wins even with the right database and outputs.
    unsat = score(outcome, gold, said(everything), [], "user_unsatisfied")
    assert unsat.reward == -1 and unsat.db_match is None
    # 0: wrong database.
    wrong_db = score(outcome, "0" * 64, said(everything), [], "user_stop")
    assert wrong_db.reward == 0 and wrong_db.db_match is False
    # 0: an output never said.
    missing = score(outcome, gold, said("nothing useful"), [], "user_stop")
    assert missing.reward == 0 and not all(missing.outputs_found.values())
    # 0: any other termination, even with everything right.
    for termination in ("max_turns", "max_tool_calls", "timeout", "agent_error"):
        assert score(outcome, gold, said(everything), [], termination).reward == 0
    # 0: a transfer where the ground truth does not transfer.
    assert not outcome.transfer_expected
    assert score(outcome, gold, said(everything), [], "agent_transfer").reward == 0


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
    outcome = await expected(domain, task)
    gold = outcome.state_hash
    everything = said(" ".join(task.evaluation.outputs))
    assert not outcome.transfer_expected
    # The agent did every write and said everything, then handed the user off: abandoned, 0.
    abandoned = score(outcome, gold, everything, [], "agent_transfer")
    assert abandoned.reward == 0 and abandoned.db_match is True and all(abandoned.outputs_found.values())
    transfer = Action(name="transfer_to_human_agents", arguments={"summary": "needs a human"})
    actions = [*task.evaluation.actions, transfer]
    transferring = task.model_copy(
        update={"evaluation": task.evaluation.model_copy(update={"actions": actions})}
    )
    with_transfer = await expected(domain, transferring)
    assert with_transfer.transfer_expected and with_transfer.state_hash == gold  # no state change
    assert score(with_transfer, gold, everything, [], "agent_transfer").reward == 1
    assert score(with_transfer, "0" * 64, everything, [], "agent_transfer").reward == 0
    assert score(with_transfer, gold, said("bye"), [], "agent_transfer").reward == 0
    assert score(with_transfer, gold, everything, [], "user_stop").reward == 1
    assert score(outcome, gold, everything, [], "user_stop").reward == 1


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
    breakdown = score_episode(
        ScoreRequest(
            domain="retail",
            task_id=task.id,
            final_hash=None,
            transcript=said("Is it done?"),
            tool_log=log,
            termination="user_stop",
            expected=await expected(domain, task),
        )
    )
    d = breakdown.diagnostics
    assert breakdown.reward == 0 and breakdown.db_match is False
    assert d["gold_actions"] == len(task.evaluation.actions)
    assert d["gold_actions_matched"] == len(task.evaluation.actions) - 1
    assert d["extra_writes"] == [{"name": gold_writes[0].name, "arguments": {"bogus": 1}}]
    assert d["questions_to_user"] == 1 and d["tool_calls"] == len(log)


async def test_scorer_rejects_the_expected_outcome_of_another_task() -> None:
    domain, task = task_with_outputs("retail")
    with pytest.raises(ValueError, match="expected outcome is of task"):
        score_episode(
            ScoreRequest(
                domain="retail",
                task_id="nope",
                final_hash=None,
                transcript=[],
                termination="user_stop",
                expected=await expected(domain, task),
            )
        )
