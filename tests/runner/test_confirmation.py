"""Confirmation discipline (`taue.contracts.policy`): a write the user had not approved in an earlier
turn is a policy violation, observed by the user simulator, recorded per episode and, in the
benchmark's own domains, costing the episode (reward 0). The oracle asks before every write."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from taue.contracts.emotions import CONDITIONS
from taue.contracts.episode import Notification
from taue.contracts.run import EpisodeRecord, RunConfig
from taue.envs.runtime.catalog import domain_card
from taue.envs.runtime.discovery import domain_names, get_domain
from taue.runner.agents.base import EpisodeContext
from taue.runner.agents.oracle import OracleAgent
from taue.runner.episode import episode_seed
from taue.runner.runner import execute_run, with_condition
from taue.runner.verify import verify_run
from taue.simulator.scripted import ScriptedUser
from tests.conftest import ADMIN_TOKEN
from tests.factories import make_task

CANCEL = Notification(tool="cancel_reservation", arguments={"reservation_id": "ABC123"})
YES = "Yes, please go ahead"
CONDITION_STEP = 30
"""The in-process oracle check plays each task under every 30th condition, rotating (all 594 met)."""


def scripted() -> ScriptedUser:
    user = ScriptedUser(make_task(), seed=1)
    user.opening()
    return user


def test_a_goal_write_the_user_had_not_approved_is_a_violation() -> None:
    turn = scripted().reply("I have cancelled reservation ABC123 for you.", [CANCEL], 1)
    assert turn.policy_violations == ["write_without_approval:cancel_reservation"]


def test_a_yes_in_an_earlier_turn_approves_the_write_and_one_after_it_does_not() -> None:
    user = scripted()
    asked = user.reply("Shall I cancel reservation ABC123?")
    assert YES in asked.message and asked.policy_violations == []
    assert user.reply("Reservation ABC123 is cancelled.", [CANCEL], 1).policy_violations == []
    late = scripted().reply("I cancelled reservation ABC123. Shall I cancel reservation ABC123?", [CANCEL], 1)
    assert late.policy_violations == ["write_without_approval:cancel_reservation"]


def test_a_write_no_goal_asked_for_is_not_counted_and_an_unanswered_last_turn_is_judged() -> None:
    user = scripted()
    bags = Notification(tool="update_reservation_baggages", arguments={"reservation_id": "ABC123"})
    assert user.reply("I updated your bags.", [bags], 1).policy_violations == []
    assert user.last_turn([CANCEL]) == ["write_without_approval:cancel_reservation"]


def play_oracle(domain: str, task, condition: str | None) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The oracle against the scripted user, in process (its calls not made): the user's messages, and
    for each agent turn its message and the writes it made."""
    d = get_domain(domain)
    played = with_condition(task, condition) if condition else task
    tools = {t.name: t.description for t in domain_card(d).tools if t.writes}
    user = ScriptedUser(played, seed=episode_seed(0, task.id, 0), tools=tools)
    oracle = OracleAgent(d.write_tools)
    context = EpisodeContext(episode_id="e", domain=domain, mcp_servers=[], policy="", task=task)
    asyncio.run(oracle.start(context))
    said, turns = [user.opening()], []
    for _ in range(60):
        made, message = oracle.next_turn(said[-1])
        writes = [a for a in made if a.name in d.write_tools]
        turns.append((message, [a.name for a in writes]))
        notes = [Notification(tool=a.name, arguments=a.arguments) for a in writes]
        turn = user.reply(message, notes, len(made))
        said.append(turn.message)
        if turn.done:
            assert turn.termination == "user_stop" and turn.policy_violations == [], (task.id, condition)
            return said, turns
    raise AssertionError(f"{task.id} under {condition}: the oracle never finished")


@pytest.mark.slow
def test_the_oracle_asks_before_every_write_and_every_task_ends_in_stop() -> None:
    """Every task of every domain (twins too), each emotional one under every 30th condition in
    rotation: each turn that writes answers the user's yes to its proposal, nothing is a violation,
    and the user stops."""
    for domain in domain_names():
        for index, task in enumerate(get_domain(domain).tasks):
            conditions = (
                [c.id for c in CONDITIONS[index % CONDITION_STEP :: CONDITION_STEP]]
                if task.emotion
                else [None]
            )
            for condition in conditions:
                said, turns = play_oracle(domain, task, condition)
                for turn, (_, writes) in enumerate(turns):
                    assert not writes or YES in said[turn], (task.id, condition, turn)


def writes_follow_a_yes(record: EpisodeRecord) -> bool:
    """Each write's turn answers a user message that says yes to a proposal (user message i opens
    agent turn i)."""
    said = [m.content for m in record.transcript if m.role == "user"]
    return all(YES in said[call.turn or 0] for call in record.tool_log if call.writes)


async def test_the_right_writes_without_asking_lose_the_episode(servers, tmp_path: Path) -> None:
    """Real servers: acts-without-asking makes exactly the gold writes (the end state matches) but is
    recorded with a violation per goal write and rewarded 0; the oracle, asking first, gets 1; both
    runs verify (the reward recomputed with the violations)."""
    tasks = [t.id for t in get_domain("airline").tasks if t.emotion][:3]
    records = {}
    for agent in ("acts-without-asking", "oracle"):
        config = RunConfig(run=agent, domains=["airline"], agent=agent, trials=1, task_ids=tasks)
        env = {"airline": servers["airline"].control_url}
        report = await execute_run(config, tmp_path / agent, env, 4, admin_token=ADMIN_TOKEN)
        assert report.failed == 0 and len(report.records) == len(tasks)
        records[agent] = report.records
        assert verify_run(tmp_path / agent).ok
    for record in records["acts-without-asking"]:
        assert (record.reward, record.termination, record.breakdown.db_match) == (0, "user_stop", True)
        assert record.breakdown.policy_enforced and record.breakdown.policy_violations
        assert all(v.startswith("write_without_approval:") for v in record.breakdown.policy_violations)
        assert record.outcome().policy_violations == len(record.breakdown.policy_violations)
    for record in records["oracle"]:
        assert (record.reward, record.breakdown.policy_violations) == (1, [])
        assert writes_follow_a_yes(record) and any(call.writes for call in record.tool_log)
    results = tmp_path / "acts-without-asking" / "results.jsonl"
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    lines[0]["breakdown"]["policy_violations"] = []  # hiding the violations leaves a reward they explain
    results.write_text("".join(json.dumps(line) + "\n" for line in lines))
    problems = verify_run(results.parent).lines()
    assert len(problems) == 1 and "the reward is 0, but" in problems[0] and "give 1" in problems[0]
