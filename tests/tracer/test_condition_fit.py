"""Emotions fit the situation, as data (simulator/anchors/fit.toml): the table covers every intent,
every situation the sets need has enough fitting feelings and anchors, the builder's matching keeps
every block's conditions, its needs are drawn to fit the emotion, and every committed task pairs its
emotion with a situation and an emotion text that fit."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from taue.contracts.domain import DESIGN_DOMAINS
from taue.contracts.emotions import BY_ID, CONDITIONS, FAMILIES
from taue.envs.runtime.discovery import get_domain
from taue.simulator.anchors import anchors_for
from taue.simulator.anchors.compose import anchor_stream
from taue.simulator.anchors.fit import (
    clauses_fit,
    emotion_fits,
    emotion_grid,
    fit_table,
    fitting_anchors,
    fitting_feelings,
    intent_fit,
    recorded_situation,
    task_contact,
    task_situation,
    text_under,
)
from taue.simulator.anchors.phrases import BEHAVIOURS, FEELINGS
from taue.tracer import semantic_words as words
from taue.tracer.build import is_challenge_position, position_fits, tracer_spec
from taue.tracer.compose import NeedFit, Rejected, choose_intents
from taue.tracer.conditions import BLOCK, designed_condition, split_conditions, split_slot

MIN_FITTING = 4
PHRASES = {p for bank in (FEELINGS, BEHAVIOURS) for phrases in bank.values() for p in phrases}


def _intents(domain: str):
    return tracer_spec(get_domain(domain)).intents


def test_the_table_names_every_intent_of_every_domain_and_nothing_else() -> None:
    table = fit_table()
    assert set(table.intents) == set(DESIGN_DOMAINS)
    for domain in DESIGN_DOMAINS:
        assert set(table.intents[domain]) == {i.name for i in _intents(domain)}, domain
        challenges = [i for i in _intents(domain) if i.challenge]
        assert all(intent_fit(domain, i.name).situation == "refusal" for i in challenges), domain


def test_the_family_rows_follow_the_taxonomy_and_enjoyment_never_meets_a_refusal() -> None:
    table = fit_table()
    assert {f: set(rows) for f, rows in table.emotions.items()} == {f: set(e) for f, e in FAMILIES.items()}
    assert not any(emotion_fits(e, "refusal") for e in FAMILIES["enjoyment"])
    assert not any(emotion_fits(e, "good_news") for e in ("distaste", "repugnance", "desperation"))
    assert {"failure", "loss", "refusal"}.isdisjoint(table.emotion_situations("excitement"))


def test_every_intent_and_condition_the_sets_need_has_enough_fitting_feelings_and_anchors() -> None:
    needed = {(f.situation, f.contact) for rows in fit_table().intents.values() for f in rows.values()}
    short = []
    for condition in CONDITIONS:
        for situation, contact in sorted(needed):
            if not emotion_fits(condition.emotion, situation):
                continue
            feelings = fitting_feelings(condition, situation, contact)
            anchors = fitting_anchors(condition, situation, contact)
            if len(feelings) < MIN_FITTING or len(anchors) < MIN_FITTING:
                short.append((condition.id, situation, contact, len(feelings), len(anchors)))
    assert not short, short[:10]


def test_every_emotion_can_lead_a_task_in_every_domain() -> None:
    """An ordinary task, or else a policy challenge (where the matching then puts it)."""
    for domain in DESIGN_DOMAINS:
        situations = {intent_fit(domain, i.name).situation for i in _intents(domain)}
        for emotion in (e for emotions in FAMILIES.values() for e in emotions):
            assert any(emotion_fits(emotion, s) for s in situations), (domain, emotion)


def test_history_words_are_kept_for_follow_ups() -> None:
    table = fit_table()
    assert table.follow_up_only <= PHRASES and set(table.phrase_situations) <= PHRASES
    assert {p for p in PHRASES if words.HISTORY.search(p)} <= table.follow_up_only
    condition = BY_ID["frustration.neutral.moderate.cautious"]
    history = "You are frustrated that your efforts so far have gone nowhere"
    assert history not in fitting_feelings(condition, "failure", "first")
    assert history in fitting_feelings(condition, "failure", "follow-up")
    for text in fitting_anchors(condition, "failure", "first"):
        assert not words.HISTORY.search(text), text


def test_a_task_is_as_weighty_as_its_weightiest_need_and_a_follow_up_only_when_every_need_is() -> None:
    assert task_situation(["errand", "failure", "money"]) == "failure"
    assert task_contact(["follow-up", "follow-up"]) == "follow-up"
    assert task_contact(["follow-up", "first"]) == "first"


def test_no_fitting_anchor_says_two_opposite_things() -> None:
    for condition in CONDITIONS:
        situation = fit_table().emotion_situations(condition.emotion)[0]
        for text in fitting_anchors(condition, situation, "first"):
            for one, other in ((words.URGENT, words.PATIENT), (words.TRUSTING, words.SUSPICIOUS)):
                assert not (one.search(text) and other.search(text)), (condition.id, text)


def test_the_stream_begins_with_the_committed_anchors_and_knows_its_clauses() -> None:
    condition = BY_ID["peace.warm.high.trusting"]
    stream = anchor_stream(condition)
    assert [a.text for a in stream[:10]] == anchors_for(condition.id) and len(stream) == 40
    clashing = "You let the agent work at their own pace"
    assert not clauses_fit([clashing], condition, "errand", "first")
    assert all(clashing not in text for text in fitting_anchors(condition, "errand", "first"))


def test_a_task_played_under_another_condition_gets_a_fitting_text_of_it() -> None:
    chosen = BY_ID["excitement.warm.low.trusting"]
    assert text_under(chosen, "movie", {"intents": ["buy_tickets"]}) in fitting_anchors(
        chosen, "good_news", "first"
    )
    assert text_under(chosen, "bank", {"intents": ["lost_card"]}) in fitting_anchors(
        chosen, "good_news", "first"
    )
    assert recorded_situation("telecom", {"intents": ["reopen_ticket", "escalate_ticket"]}) == (
        "failure",
        "follow-up",
    )


def test_docs_show_the_table_as_it_is() -> None:
    from tests.paths import ROOT

    assert emotion_grid() in (ROOT / "docs" / "emotions.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("split, count", [("eval", BLOCK), ("train", 700)])
def test_the_matching_keeps_each_blocks_conditions_and_fits_every_position(split: str, count: int) -> None:
    for domain in DESIGN_DOMAINS:
        feasible = position_fits(domain, _intents(domain))
        conditions = split_conditions(domain, 0, split, count, feasible)
        designed = [designed_condition(split_slot(domain, split, p), 0) for p in range(count)]
        for start in range(0, count, BLOCK):
            block = slice(start, start + BLOCK)
            assert Counter(c.id for c in conditions[block]) == Counter(c.id for c in designed[block])
        assert all(feasible(p, c) for p, c in enumerate(conditions)), domain
        challenged = [c for p, c in enumerate(conditions) if is_challenge_position(p)]
        assert all(emotion_fits(c.emotion, "refusal") for c in challenged), domain


def test_a_shorter_split_holds_a_prefix_of_a_longer_ones_conditions() -> None:
    for domain in DESIGN_DOMAINS:
        feasible = position_fits(domain, _intents(domain))
        full = split_conditions(domain, 0, "train", 2 * BLOCK, feasible)
        for count in (1, 50, BLOCK, BLOCK + 4):
            assert split_conditions(domain, 0, "train", count, feasible) == full[:count], (domain, count)


def test_needs_drawn_to_fit_give_a_task_whose_situation_the_emotion_fits() -> None:
    rng = random.Random(0)
    for domain in DESIGN_DOMAINS:
        spec = tracer_spec(get_domain(domain))
        for emotion in (e for emotions in FAMILIES.values() for e in emotions):
            fit = NeedFit(domain, emotion)
            for challenge in (False, True):
                if not any(fit.fits(i) for i in spec.intents if i.challenge == challenge):
                    with pytest.raises(Rejected):  # the matching never puts the emotion here
                        choose_intents(spec, rng, challenge, 4, fit)
                    continue
                intents = choose_intents(spec, rng, challenge, 4, fit)
                situation = task_situation(fit.situation(i) for i in intents)
                assert len(intents) == 4 and emotion_fits(emotion, situation), (domain, emotion)
                assert sum(i.challenge for i in intents) == challenge, (domain, emotion)


def test_a_need_weightier_than_the_lead_joins_only_when_it_fits() -> None:
    intents = {i.name: i for i in _intents("telehealth")}
    fit = NeedFit("telehealth", "argumentativeness")  # fits cancellation and errands, not health
    lead = intents["cancel_visit"]
    assert fit.may_join(intents["add_note"], lead)
    assert not fit.may_join(intents["book_visit"], lead)
    assert NeedFit("telehealth", "frustration").may_join(intents["book_visit"], intents["add_note"])


def test_the_committed_sets_pair_only_fitting_emotions_and_texts() -> None:
    rng = random.Random(0)
    for domain in DESIGN_DOMAINS:
        loaded = get_domain(domain)
        tasks = [t for t in loaded.tasks if t.emotion is not None] + rng.sample(loaded.train_tasks, 60)
        for task in tasks:
            stages = task.provenance.stages
            fits = [intent_fit(domain, name) for name in stages["intents"]]
            situation = task_situation(f.situation for f in fits)
            contact = task_contact(f.contact for f in fits)
            assert (stages["situation"], stages["contact"]) == (situation, contact), task.id
            assert emotion_fits(task.emotion.emotion, situation), task.id
            condition = BY_ID[task.condition_id]
            assert task.emotion.instruction in fitting_anchors(condition, situation, contact), task.id
            assert stages["feeling"].endswith(task.emotion.instruction), task.id
