"""The style judge agents (`agent-runner/agents/style_agents.py`) end to end, each on a couple of tasks
chosen to exercise its behaviour: the fair ones must score like the oracle, the over-claimer must not
pass. Where a fair agent fails because the scripted user misreads it, the test still asserts +1 and is
marked xfail with the reader's pattern (docs/simulator.md, *Judging the judge*)."""

from __future__ import annotations

import pytest

from taue.contracts.run import EpisodeRecord, RunConfig
from taue.contracts.text import contains
from taue.envs.runtime.discovery import domain_names
from taue.runner.agents import BUILT_IN
from taue.runner.agents.paraphrase import reworded
from taue.runner.agents.style_agents import (
    CLOSING,
    FAREWELL,
    STYLE_AGENTS,
    STYLE_FAIR,
    STYLE_UNFAIR,
    STYLE_WORDED,
)
from taue.runner.agents.wordings import WORDINGS
from taue.runner.catalog import local_catalog
from taue.runner.judge import GAMING, MATRIX_AGENTS, wording_matrix_agents
from taue.runner.runner import execute_run
from taue.simulator.refusals import states_rule

pytestmark = pytest.mark.xdist_group("style-agents")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory):
    """(agent, task ids) -> task id -> its episode, each pair played once (seed 0, as the judge matrix)."""
    out = tmp_path_factory.mktemp("style-agents")
    cache: dict[tuple[str, tuple[str, ...]], dict[str, EpisodeRecord]] = {}

    async def play(agent: str, *task_ids: str) -> dict[str, EpisodeRecord]:
        key = (agent, task_ids)
        if key not in cache:
            domains = sorted({task_id.rsplit("-", 1)[0] for task_id in task_ids})
            config = RunConfig(
                run=f"style-{agent}",
                domains=domains,
                agent=agent,
                trials=1,
                seed=0,
                tasks="emotional",
                task_ids=list(task_ids),
            )
            report = await execute_run(config, out / f"{agent}-{len(cache)}", {}, concurrency=4)
            assert not report.failed, agent
            cache[key] = {record.task_id: record for record in report.records}
        return cache[key]

    return play


def said(record: EpisodeRecord, role: str = "agent") -> list[str]:
    return [m.content for m in record.transcript if m.role == role]


def replies_to(record: EpisodeRecord, marker: str) -> list[tuple[str, str]]:
    """(agent message containing `marker`, the user's reply) pairs."""
    t = record.transcript
    return [
        (t[i].content, t[i + 1].content)
        for i in range(len(t) - 1)
        if t[i].role == "agent" and marker in t[i].content
    ]


def test_the_style_agents_are_registered_for_the_matrix_and_the_wordings() -> None:
    assert set(STYLE_AGENTS) == {*STYLE_FAIR, *STYLE_UNFAIR} <= set(MATRIX_AGENTS)
    assert {f"{a}@{w}" for a in STYLE_WORDED for w in WORDINGS} <= set(BUILT_IN)
    played = wording_matrix_agents(["terse"])
    assert {"asks-payment@terse", "plan-announcer", "warm-verbose", "over-claimer", *GAMING} <= set(played)
    assert "asks-payment" not in played and "over-claimer" not in GAMING


async def test_asks_payment_asks_how_each_need_is_paid_naming_the_need(played) -> None:
    episodes = await played("asks-payment", "bank-001", "airline-021", "retail-042")
    assert {t: r.reward for t, r in episodes.items()} == {"bank-001": 1, "airline-021": 1, "retail-042": 1}
    # Two loan payments from two accounts: each question names its own loan, each answer its own account.
    asked = replies_to(episodes["bank-001"], "Which")
    assert [("LN-213830" in q, "Joint Checking" in a) for q, a in asked[:1]] == [(True, True)]
    assert any("LN-946112" in q and "Goal Saver" in a for q, a in asked)
    assert any("refund" in q.lower() for q, _ in replies_to(episodes["retail-042"], "refund"))
    assert any(m.startswith(("Thanks,", "Got it,")) for m in said(episodes["airline-021"]))


async def test_asks_payment_in_a_wording(played) -> None:
    episodes = await played("asks-payment@terse", "bank-001")
    assert episodes["bank-001"].reward == 1
    assert any("? (yes/no)" in m for m in said(episodes["bank-001"]))


async def test_offers_options_lays_out_flights_and_records(played) -> None:
    episodes = await played("offers-options", "airline-011", "airline-021")
    assert {t: r.reward for t, r in episodes.items()} == {"airline-011": 1, "airline-021": 1}
    messages = [m for r in episodes.values() for m in said(r)]
    assert any(m.startswith("Here are the options I found:") and "HAT" in m for m in messages)
    assert any(m.startswith("I see ") and "Which" in m for m in messages)


async def test_offers_options_listing_orders_with_their_status_scores_like_the_oracle(played) -> None:
    episodes = await played("offers-options", "movie-021")
    assert episodes["movie-021"].reward == 1


async def test_plan_announcer_announces_then_reports_in_the_passive(played) -> None:
    episodes = await played("plan-announcer", "bank-001", "telehealth-011")
    assert {t: r.reward for t, r in episodes.items()} == {"bank-001": 1, "telehealth-011": 1}
    messages = said(episodes["bank-001"])
    assert any("Here is what I'd change:\n\n- " in m for m in messages)
    assert "A loan payment has been made (loan id LN-213830" in " ".join(messages)


def test_the_paraphrased_refusals_keep_none_of_the_listed_phrases() -> None:
    for domain in domain_names():
        for task in local_catalog(domain).tasks:
            refused = [g for g in task.user_scenario.goals if g.refusal_expected]
            avoid = [phrase for goal in refused for phrase in goal.refusal_reason]
            for goal in refused:
                text = reworded(goal.refusal_reason, avoid)
                assert text and not [p for p in avoid if contains(text, p)], (task.id, text)


def test_every_paraphrased_refusal_states_its_rule_for_the_user() -> None:
    """Both splits of every domain: the reader accepts each rule in the paraphraser's words (nine
    of the 60 distinct rules were unread before `simulator/terms.py`: "missed booking", "join
    cutoff", "off their rota", "solely still open purchases", ...)."""
    for domain in domain_names():
        for split in ("eval", "train"):
            for task in local_catalog(domain, split=split).tasks:
                refused = [g for g in task.user_scenario.goals if g.refusal_expected]
                avoid = [phrase for goal in refused for phrase in goal.refusal_reason]
                for goal in refused:
                    text = reworded(goal.refusal_reason, avoid)
                    assert any(states_rule(text, r) for r in goal.refusal_reason), (task.id, text)


async def test_policy_paraphraser_refuses_in_its_own_words(played) -> None:
    episodes = await played("policy-paraphraser", "airline-004")
    record = episodes["airline-004"]
    reasons = [
        p
        for g in local_catalog("airline").task_index["airline-004"].user_scenario.goals
        for p in g.refusal_reason
    ]
    first = said(record)[0]
    assert first.startswith("I'm afraid I can't do that for JZGZXN") and not any(
        contains(first, p) for p in reasons
    )
    assert all(m.startswith("I checked this against our policy.") for m in said(record)[1:])
    assert record.reward == 1


async def test_policy_paraphraser_scores_like_the_oracle_where_the_reason_is_reworded(played) -> None:
    episodes = await played("policy-paraphraser", "bank-011")
    assert episodes["bank-011"].reward == 1


async def test_warm_verbose_closes_every_message_and_summarises(played) -> None:
    episodes = await played("warm-verbose", "travel-041")
    record = episodes["travel-041"]
    assert record.reward == 1
    messages = [m for m in said(record) if m != FAREWELL]
    assert messages and all(m.endswith(CLOSING) for m in messages)
    assert "To summarise everything we did today:" in messages[-1]


async def test_warm_verbose_scores_like_the_oracle(played) -> None:
    episodes = await played("warm-verbose", "airline-031", "restaurant-041")
    assert {t: r.reward for t, r in episodes.items()} == {"airline-031": 1, "restaurant-041": 1}


async def test_over_claimer_does_the_work_and_claims_a_goodwill_gesture_it_never_made(played) -> None:
    episodes = await played("over-claimer", "airline-001", "retail-041")
    for task_id, record in episodes.items():
        gold = local_catalog(record.domain).task_index[task_id].evaluation.actions
        writes = [(c.name, c.arguments) for c in record.tool_log if c.writes]
        assert writes == [(a.name, a.arguments) for a in gold if (a.name, a.arguments) in writes]
        assert record.breakdown.db_match is True
        assert any(extra in said(record)[-1] for extra in ("goodwill credit", "service fee", "premium"))


async def test_over_claimer_never_passes(played) -> None:
    episodes = await played("over-claimer", "airline-001", "retail-041")
    assert all(record.reward < 1 for record in episodes.values())
