"""Both branches of a policy challenge (issue 37, item 4): at every second challenge position the
customer accepts the allowed alternative the policy tells the agent to offer and the gold makes it;
at the others the customer declines it and the gold writes nothing for the challenge. And no wish
frame wraps a preference that states its own wish (item 5)."""

from __future__ import annotations

import random

import pytest

from taue.contracts.tasks import Action, Task, matches
from taue.envs.runtime.authoring import Customer, Grounded, Intent
from taue.envs.runtime.discovery import get_domain
from taue.tracer.build import accepts_alternative, is_challenge_position
from taue.tracer.compose import Draft, Part
from taue.tracer.frames import (
    CHALLENGE_ACCEPTS,
    CHALLENGE_ENDINGS,
    PREFERENCES,
    UNCONDITIONAL_FRAMES,
    WISH_FRAMES,
    frame_of,
    preference_frames,
    wish_on_wish,
)
from taue.tracer.lints import instruction_lints, sentences
from taue.tracer.prose import FrameQuota, instruction_text
from taue.tracer.refine import _key_arguments
from taue.tracer.stats import challenge_branches, emotional
from tests.tracer.test_writer_semantics import _scenario

DOMAINS = ("airline", "retail", "telecom", "telehealth", "school", "basketball", "restaurant", "travel",
           "movie", "bank")  # fmt: skip


def test_every_second_challenge_position_accepts_the_alternative() -> None:
    challenges = [p for p in range(58) if is_challenge_position(p)]
    assert [p for p in challenges if accepts_alternative(p)] == [10, 24, 38, 52]
    training = [p for p in range(700) if is_challenge_position(p)]
    assert len(training) == 100 and sum(map(accepts_alternative, training)) == 50
    assert not any(accepts_alternative(p) for p in range(58) if not is_challenge_position(p))


@pytest.mark.parametrize("name", DOMAINS)
def test_every_domain_has_a_challenge_with_an_allowed_alternative(name: str) -> None:
    domain = get_domain(name)
    spec = domain.tracer_spec
    assert spec is not None
    offered = [i.alternative for i in spec.intents if i.challenge and i.alternative is not None]
    assert offered and all(a.terminal in domain.write_tools for a in offered)


def test_a_refused_write_of_the_alternative_s_tool_is_keyed_apart_from_it() -> None:
    refused = Action(name="reschedule_appointment", arguments={"appointment_id": "A1", "new_date": "D1",
                                                                "new_time": "09:00"})  # fmt: skip
    instead = Action(name="reschedule_appointment", arguments={"appointment_id": "A1", "new_date": "D2",
                                                                "new_time": "09:00"})  # fmt: skip
    assert _key_arguments(refused) == {"appointment_id": "A1"}
    keys = _key_arguments(refused, unlike=instead)
    assert keys == {"appointment_id": "A1", "new_date": "D1"}
    assert not matches_keys(keys, instead) and matches_keys(keys, refused)
    other_tool = Action(name="cancel_appointment", arguments={"appointment_id": "A1"})
    assert _key_arguments(refused, unlike=other_tool) == {"appointment_id": "A1"}


def matches_keys(keys: dict, action: Action) -> bool:
    return all(action.arguments.get(k) == v for k, v in keys.items())


def _challenge_draft(accepts: bool) -> Draft:
    refused = Action(name="cancel_reservation", arguments={"reservation_id": "ABC123"})
    intent = Intent("cancel_ineligible", "cancel_reservation", lambda *a: None, "cancelling", challenge=True)
    preference = "if it can't be cancelled, I'd settle for moving it to May 14" if accepts else "I'll keep it"
    grounded = Grounded(request="Cancel it.", situation="you want the trip cancelled", bindings={},
                        write=refused, reason="plans changed", preference=preference)  # fmt: skip
    parts = [Part(intent, grounded, ("cancel_reservation",), [])]
    if accepts:
        move = Action(name="update_reservation_flights", arguments={"reservation_id": "ABC123"})
        offer = Grounded(request="Then move it to May 14.", situation="", bindings={}, write=move)
        other = Intent("change_instead", "update_reservation_flights", lambda *a: None, "cancelling")
        parts.append(Part(other, offer, ("update_reservation_flights",), [move], offered=True))
    customer = Customer(id="ada_1", name="Ada Byrne", identity=(), known={"user_id": "ada_1"}, bindings={})
    return Draft(customer, parts, {})


@pytest.mark.parametrize("accepts", [True, False])
def test_the_writer_says_how_the_customer_takes_the_refusal(accepts: bool) -> None:
    draft = _challenge_draft(accepts)
    assert draft.branch == ("accept" if accepts else "decline") and len(draft.needs) == 1
    scenario = _scenario({"user_id": "ada_1"}, {}, *(p.grounded.request for p in draft.parts))
    for seed in range(20):
        said = sentences(instruction_text(draft, scenario, random.Random(seed)))
        assert sum(s in CHALLENGE_ACCEPTS for s in said) == accepts
        assert sum(s in CHALLENGE_ENDINGS for s in said) == (not accepts)
        assert ("May 14" in " ".join(said)) == accepts  # the alternative, said as the preference
        assert not any(s.startswith("There is one more thing") for s in said)  # no need of its own


def test_no_wish_frame_wraps_a_wish() -> None:
    assert wish_on_wish("You also ask that you'd rather hear the truth than be told otherwise.")
    assert wish_on_wish("Preferably, you want the refund on the same card.")
    assert not wish_on_wish("You also ask that the agent reads the change back first.")
    assert not wish_on_wish("One preference: you'd rather hear the truth.")
    part = Part(
        Intent("i", "t", lambda *a: None, "a need"),
        Grounded(
            request="Do it.", situation="you want it done", bindings={}, preference="I'd rather hear it"
        ),
        ("t",),
        [],
    )
    draft = Draft(_challenge_draft(False).customer, [part], {})
    scenario = _scenario({"user_id": "ada_1"}, {}, "Do it.")
    quota = FrameQuota()
    for seed in range(120):  # more than the frames: every frame the quota allows is tried
        said = sentences(instruction_text(draft, scenario, random.Random(seed), quota=quota))
        quota.commit()
        assert not any(frame_of(s) in WISH_FRAMES for s in said)
    assert not any(frame in quota.used for frame in WISH_FRAMES)


def test_a_wish_for_one_case_takes_no_frame_of_a_wish_that_holds_anyway() -> None:
    for case in ("should the full sum be refused, $40 works for you", "failing that, 8 seats will do"):
        assert not set(preference_frames(case)) & UNCONDITIONAL_FRAMES
    assert not set(preference_frames("you'd rather hear the truth")) & WISH_FRAMES
    assert preference_frames("the agent should read it back") == PREFERENCES


def test_the_prose_lint_catches_a_wish_in_a_wish_frame() -> None:
    task = Task.model_validate(
        {
            **get_domain("airline").tasks[0].model_dump(),
            "instruction": "You are Ada. You also ask that "
            "you'd rather hear the truth. You do not know any ids; the agent can look them up.",
        }
    )
    assert any(p.startswith("a wish frame around a wish") for p in instruction_lints(task))


@pytest.mark.parametrize("name", DOMAINS)
def test_the_committed_sets_hold_both_branches(name: str) -> None:
    domain = get_domain(name)
    tasks = emotional(domain.tasks)
    assert challenge_branches(tasks) == {"accept": 4, "decline": 4}
    assert challenge_branches(domain.train_tasks) == {"accept": 50, "decline": 50}
    for task in [*tasks, *domain.train_tasks]:
        stages = task.provenance.stages
        goals = task.user_scenario.goals
        if stages.get("branch") != "accept":
            assert not stages.get("alternatives")
            continue
        [refused] = [i for i, g in enumerate(goals) if g.refusal_expected]
        offered = goals[refused + 1]  # the alternative comes right after the refused request
        assert offered.id in stages["alternatives"] and not offered.refusal_expected
        writes = [a for a in task.evaluation.actions if a.name in domain.write_tools]
        assert any(matches(offered.targets[0], a.name, a.arguments) for a in writes)
        assert not any(matches(goals[refused].targets[0], a.name, a.arguments) for a in writes)
        said = sentences(task.instruction)
        assert any(s in CHALLENGE_ACCEPTS for s in said) and not any(s in CHALLENGE_ENDINGS for s in said)
