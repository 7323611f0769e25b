"""Each semantic lint fires on a minimal crafted task and stays quiet on a clean one (docs/tracer.md,
"Semantic lints"); the seed lints read a small stand-in for the domain's seed view."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taue.contracts.tasks import Action, Emotion, Evaluation, Goal, Provenance, Target, Task, UserScenario
from taue.tracer.semantic_lints import LINT_NAMES, TEXT_LINTS, semantic_lint_summary, semantic_lints
from taue.tracer.semantic_seed import SEED_LINTS, SeedFacts

CLEAN = (
    "You play Ada Byrne, a nurse. First, you want the lamp returned. You have no reference numbers to hand."
)
CALM = "You are annoyed, but you keep it polite. You trust the agent and take what they say at face value."


def _task(
    instruction: str = CLEAN,
    known: dict[str, str] | None = None,
    discoverable: dict[str, str] | None = None,
    actions: list[Action] | None = None,
    persona: str = "Ada Byrne, a nurse.",
    emotion: str = CALM,
    stages: dict[str, Any] | None = None,
) -> Task:
    goal = Goal(id="g", kind="action", request="Do it.", targets=[Target(tool="t", arguments={"x": 1})])
    scenario = UserScenario(
        persona=persona,
        reason_for_call="",
        known_info=known or {"email": "a@b.c"},
        discoverable=discoverable or {},
        goals=[goal],
    )
    feeling = Emotion(
        family="anger", emotion="annoyance", politeness="neutral", urgency="low", trust="trusting",
        instruction=emotion,
    )  # fmt: skip
    return Task(
        id="t",
        domain="d",
        user_scenario=scenario,
        instruction=instruction,
        emotion=feeling,
        evaluation=Evaluation(actions=actions or []),
        provenance=Provenance(source="tracer", stages={"customer": "c1", **(stages or {})}),
    )


def _fires(name: str, task: Task, seed: SeedFacts | None = None) -> bool:
    return name in semantic_lints(task, seed)


def test_every_lint_has_a_stable_name_and_a_clean_task_fires_none() -> None:
    assert set(LINT_NAMES) == set(TEXT_LINTS) | set(SEED_LINTS) and len(LINT_NAMES) == 12
    assert semantic_lints(_task(), SeedFacts("d")) == {}


def test_an_id_stated_then_denied_fires() -> None:
    text = (
        "You play Ada, a nurse. First, raise ticket TICKET00154. Besides TICKET00186, you have no "
        "reference numbers to hand."
    )
    known = {"ticket_id": "TICKET00186", "ticket_id_2": "TICKET00154"}
    assert _fires("id-stated-then-denied", _task(text, known))
    listed = text.replace("Besides TICKET00186", "Besides TICKET00186 and TICKET00154")
    assert not _fires("id-stated-then-denied", _task(listed, known))
    flight = "You play Ada. First, complain about flight HAT174. You know ada_1, but no other ids."
    assert _fires("id-stated-then-denied", _task(flight, {"user_id": "ada_1", "cancelled_flight": "HAT174"}))


def test_a_date_or_a_zip_code_called_an_id_fires() -> None:
    dated = "You play Ada. First, pay. You know 2025-09-18, but no other ids: the agent can find the rest."
    assert _fires("not-an-id", _task(dated, discoverable={"date": "2025-09-18"}))
    zipped = "You play Ada. First, pay. Only 83702 is at hand for you; the agent can look up the rest."
    assert _fires("not-an-id", _task(zipped, {"zip": "83702"}))
    fine = "You play Ada. First, pay. You know ada_1, but no other ids: the agent can find the rest."
    assert not _fires("not-an-id", _task(fine, {"user_id": "ada_1"}))


def test_a_retired_persona_with_a_work_reason_fires() -> None:
    text = "You play Ada, a retired teacher. First, an earlier visit. That is because of less time off work."
    assert _fires("persona-vs-reason", _task(text, persona="Ada, a retired teacher."))
    assert not _fires("persona-vs-reason", _task(text, persona="Ada, a teacher."))


def test_a_move_against_the_address_fires() -> None:
    text = "You play Ada. First, reroute the order. The reason: you moved to Boise recently."
    lincoln = {"new_shipping_address": "5120 Prairie Wind Drive, Lincoln, NE 68516, USA"}
    assert _fires("reasons-inconsistent", _task(text, lincoln))
    boise = {"new_shipping_address": "77 Copperfield Lane, Boise, ID 83702, USA"}
    assert not _fires("reasons-inconsistent", _task(text, boise))
    assert not _fires("reasons-inconsistent", _task(text.replace("Boise", "Saturday"), lincoln))


def test_a_hidden_name_named_elsewhere_fires() -> None:
    known = {"restaurant": "the one you visited on Friday, April 18 (2025-04-18)"}
    named = (
        "You play Ada. First, book at the restaurant you visited. Then, redeem points on the Oldtown order."
    )
    assert _fires("hidden-name-named", _task(named, known, {"location_id": "oldtown"}))
    assert not _fires("hidden-name-named", _task(named, known, {"location_id": "lakeshore"}))


def test_splices_fire() -> None:
    assert _fires("splice", _task("You play Ada. First, get 720p instead of 1080p instead of the Webcam."))
    assert _fires("splice", _task("You play Ada. First, move it from September 24 to September 22 to May 5."))
    assert not _fires("splice", _task("You play Ada. First, move it from May 25 to May 24 to be there."))
    assert not _fires("splice", _task("You play Ada. First, size S instead of M, and red instead of blue."))


def test_tool_values_in_customer_text_fire() -> None:
    assert _fires("tool-value-in-text", _task(known={"email": "a@b.c", "issue": "no_service"}))
    assert _fires("tool-value-in-text", _task("You play Ada. First, pay by credit_card."))
    quoted = "You play Ada. You know ada_byrne_1, but no other ids."
    assert not _fires("tool-value-in-text", _task(quoted, {"user_id": "ada_byrne_1"}))


def test_history_in_a_first_contact_fires_and_a_follow_up_may_have_it() -> None:
    history = "This keeps going wrong and it's wearing you down."
    assert _fires("history-without-contact", _task(emotion=history))
    assert not _fires("history-without-contact", _task(emotion=history, stages={"contact": "follow-up"}))


def test_an_emotion_text_contradicting_itself_fires() -> None:
    assert _fires(
        "self-contradiction",
        _task(emotion="You let the agent work at their own pace. Intense time pressure."),
    )
    assert _fires("self-contradiction", _task(emotion="You trust the agent. You expect to be misled."))
    assert not _fires(
        "self-contradiction", _task(emotion="Somewhat pressed for time but can tolerate a short wait.")
    )


@dataclass
class SchoolView:
    sections: dict[str, dict[str, Any]]
    enrolled: list[str] = field(default_factory=list)

    def current(self, student_id: str) -> list[dict[str, Any]]:
        return [{"section_id": s} for s in self.enrolled]


def _section(section_id: str, meets: str, drop_deadline: str = "2099-01-01") -> dict[str, Any]:
    dates = {"start_date": "2025-09-01", "end_date": "2025-12-12", "drop_deadline": drop_deadline}
    late = {"half_refund_deadline": "2099-01-01", "withdraw_deadline": "2099-01-01"}
    return {"section_id": section_id, "meets": meets, **dates, **late}


def test_a_gold_end_state_that_double_books_the_student_fires() -> None:
    view = SchoolView(
        {"A-01": _section("A-01", "Mon/Wed 08:30-09:45"), "B-01": _section("B-01", "Mon/Wed 09:00-10:00"),
         "B-02": _section("B-02", "Tue/Thu 09:00-10:00")},
        enrolled=["A-01"],
    )  # fmt: skip

    def add(section: str) -> list[Action]:
        return [Action(name="register_for_section", arguments={"student_id": "c1", "section_id": section})]

    seed = SeedFacts("school", given=view)
    assert _fires("timetable-clash", _task(actions=add("B-01")), seed)
    assert not _fires("timetable-clash", _task(actions=add("B-02")), seed)
    dropped = [
        Action(name="drop_section", arguments={"student_id": "c1", "section_id": "A-01"}),
        *add("B-01"),
    ]
    assert not _fires("timetable-clash", _task(actions=dropped), seed)


def test_an_item_in_two_orders_named_without_its_order_fires() -> None:
    towel = {"name": "Bath Towel Set", "options": {"color": "white"}}
    view = SimpleRetail(
        users={"c1": {"orders": ["#W1", "#W2"]}},
        orders={"#W1": {"items": [towel]}, "#W2": {"items": [towel, {"name": "Cat Tree", "options": {}}]}},
    )
    seed = SeedFacts("retail", given=view)
    assert _fires("item-in-two-records", _task("You play Ada. First, return the Bath Towel Set."), seed)
    said = "You play Ada. First, return the Bath Towel Set in the order with Cat Tree and Bath Towel Set."
    assert not _fires("item-in-two-records", _task(said), seed)
    assert not _fires("item-in-two-records", _task("You play Ada. First, return the Cat Tree."), seed)


@dataclass
class SimpleRetail:
    users: dict[str, Any]
    orders: dict[str, Any]


def test_a_fee_the_gold_pays_must_be_accepted_without_its_amount() -> None:
    booking = [Action(name="book_reservation", arguments={"party_size": 9, "location_id": "oldtown"})]
    seed = SeedFacts("restaurant")
    assert _fires("fee-not-accepted", _task(actions=booking), seed)
    accepted = CLEAN + " You accept a deposit if there is one."
    assert not _fires("fee-not-accepted", _task(accepted, actions=booking), seed)
    priced = CLEAN + " You accept the $135 deposit."
    assert _fires("fee-not-accepted", _task(priced, actions=booking), seed)
    small = [Action(name="book_reservation", arguments={"party_size": 2, "location_id": "oldtown"})]
    assert not _fires("fee-not-accepted", _task(actions=small), seed)
    late = SeedFacts("school", given=SchoolView({"A-01": _section("A-01", "Mon 08:00-09:00", "2000-01-01")}))
    dropped = [Action(name="drop_section", arguments={"student_id": "c1", "section_id": "A-01"})]
    assert _fires("fee-not-accepted", _task(actions=dropped), late)


def test_the_summary_counts_tasks_per_lint_domain_and_split() -> None:
    hits = {"d": {"eval": {"t1": {"splice": "x"}, "t2": {"splice": "y", "not-an-id": "z"}}, "train": {}}}
    summary = semantic_lint_summary(hits)
    assert summary["domains"]["d"]["eval"]["splice"] == 2 and summary["totals"]["eval"]["not-an-id"] == 1
    assert summary["totals"]["train"]["splice"] == 0 and summary["tasks_hit"] == {"eval": 2, "train": 0}
