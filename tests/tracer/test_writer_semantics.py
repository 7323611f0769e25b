"""The writer gives the semantic lints nothing to fault (issue 37, item 3): fees the gold pays are
accepted without their amount, every id the text states is listed as known, a quoted flight number
is never denied, a tool value is said in words, a retired persona gets no reason about work; and no
frame recurs in more than 10 % of a set's instructions (item 5)."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import cast

from taue.contracts.tasks import Action, Goal, Target, UserScenario
from taue.envs.runtime.authoring import Customer, Grounded, Intent, TracerSpec
from taue.envs.school.rules import clash
from taue.tracer.compose import Draft, Part
from taue.tracer.frames import FEES_ACCEPTED, PREFERENCES, REASONS, WANT_TAILS, frame_of, frames_in
from taue.tracer.lints import sentences
from taue.tracer.prose import FrameQuota, instruction_text, known_ids
from taue.tracer.refine import customer_words, persona_of
from taue.tracer.semantic_words import AMOUNT, FEE_ACCEPTED, ID_DENIAL
from taue.tracer.verify import _derivable


def _part(
    situation: str, request: str, reason: str = "", write: Action | None = None, preference: str = ""
) -> Part:
    intent = Intent(name="i", terminal="t", ground=lambda *a: None, topic="a need")
    grounded = Grounded(
        request=request, situation=situation, bindings={}, write=write, reason=reason, preference=preference
    )
    return Part(intent, grounded, ("t",), [write] if write else [])


def _draft(*parts: Part) -> Draft:
    customer = Customer(id="ada_1", name="Ada Byrne", identity=(), known={"user_id": "ada_1"}, bindings={})
    return Draft(customer, list(parts), {})


def _scenario(known: dict[str, str], discoverable: dict[str, str], *requests: str) -> UserScenario:
    goals = [
        Goal(id=f"g{i}", kind="action", request=r, targets=[Target(tool="t", arguments={"x": i})])
        for i, r in enumerate(requests)
    ]
    return UserScenario(
        persona="Ada Byrne, a nurse.",
        reason_for_call="",
        known_info=known,
        discoverable=discoverable,
        goals=goals,
    )


def _sentences(text: str) -> list[str]:
    return [s for s in text.replace("? ", ". ").split(". ") if s]


def test_each_fee_the_gold_pays_is_accepted_once_without_its_amount() -> None:
    draft = _draft(
        _part("you want a class dropped", "Drop it."), _part("you want another dropped", "Drop it.")
    )
    scenario = _scenario({"user_id": "ada_1"}, {}, "Drop it.", "Drop it.")
    for seed in range(20):
        text = instruction_text(draft, scenario, random.Random(seed), [["late-drop fee"], ["late-drop fee"]])
        accepted = [s for s in _sentences(text) if FEE_ACCEPTED.search(s)]
        assert len(accepted) == 1 and "a late-drop fee" in accepted[0] and not AMOUNT.search(accepted[0])
    assert all(FEE_ACCEPTED.search(frame.format(fee="an express shipping fee")) for frame in FEES_ACCEPTED)
    assert len(FEES_ACCEPTED) >= 8
    plain = instruction_text(draft, scenario, random.Random(0))
    assert not FEE_ACCEPTED.search(plain)


def test_every_id_the_text_states_is_listed_as_known() -> None:
    write = Action(name="escalate", arguments={"ticket_id": "TICKET00154"})
    draft = _draft(_part("you want TICKET00154 escalated", "Escalate TICKET00154.", write=write))
    scenario = _scenario({"user_id": "ada_1"}, {"ticket_id": "TICKET00154"}, "Escalate TICKET00154.")
    text = instruction_text(draft, scenario, random.Random(1))
    denial = [s for s in _sentences(text) if ID_DENIAL.search(s)]
    assert len(denial) == 1 and "ada_1" in denial[0] and "TICKET00154" in denial[0]


def test_a_quoted_flight_number_is_never_denied() -> None:
    draft = _draft(_part("you want compensation for flight HAT274", "My flight HAT274 was cancelled."))
    scenario = _scenario(
        {"user_id": "ada_1", "cancelled_flight": "HAT274 on 2024-05-09"},
        {},
        "My flight HAT274 was cancelled.",
    )
    text = instruction_text(draft, scenario, random.Random(2))
    assert "HAT274" in text and not any(ID_DENIAL.search(s) for s in _sentences(text))


def test_a_date_or_zip_code_the_tools_find_is_no_known_id() -> None:
    scenario = _scenario({"payment_date": "2025-09-18", "zip": "83702", "ticket": "T9"}, {
        "date": "2025-09-18", "zip": "83702", "ticket_id": "T9"}, "Pay it.")  # fmt: skip
    assert known_ids(scenario) == ["T9"]


def test_tool_values_are_said_in_words_and_ids_kept() -> None:
    assert customer_words("issue", "no_service") == "no service"
    assert customer_words("visit_type_2", "follow_up") == "follow-up"
    assert customer_words("payment_method", "credit_card") == "credit card"
    assert customer_words("user_id", "ada_byrne_1234") == "ada_byrne_1234"
    assert customer_words("email", "ada_byrne@example.com") == "ada_byrne@example.com"


def test_a_reason_about_work_never_goes_to_a_retired_persona() -> None:
    class Personas:
        personas = ("a retired engineer", "a nurse on night shifts")

    spec = cast(TracerSpec, Personas())

    draft = _draft(_part("you want the visit moved", "Move it.", reason="it means less time off work"))
    drawn = {persona_of(draft, spec, random.Random(seed)) for seed in range(30)}
    assert drawn == {"a nurse on night shifts"}
    calm = _draft(_part("you want the visit moved", "Move it.", reason="the clinic is closer"))
    assert "a retired engineer" in {persona_of(calm, spec, random.Random(seed)) for seed in range(30)}


def test_sections_clash_on_a_shared_day_and_hour() -> None:
    def section(meets: str) -> dict[str, str]:
        return {"meets": meets, "start_date": "2025-09-02", "end_date": "2025-12-12"}

    assert clash(section("Mon/Wed 08:30-09:45"), section("Wed 09:00-10:00"))
    assert not clash(section("Mon/Wed 08:30-09:45"), section("Tue/Thu 08:30-09:45"))
    assert not clash(section("Mon 08:30-09:45"), section("Mon 09:45-11:00"))


def test_the_quota_spreads_frames_and_frames_are_read_back() -> None:
    quota = FrameQuota()
    draft = _draft(*(_part(f"you want thing {n} done", "Do it.", reason="it is due") for n in range(3)))
    scenario = _scenario({"user_id": "ada_1"}, {}, "Do it.", "Do it.", "Do it.")
    texts = []
    for seed in range(58):
        texts.append(instruction_text(draft, scenario, random.Random(seed), quota=quota))
        quota.commit()
    used = Counter(f for text in texts for f in frames_in(sentences(text)))
    assert used and max(used.values()) <= 5  # 10 % of 58 instructions
    assert frame_of("You are calling because you want it.") == "You are calling because {want}."
    assert "Worth saying: {preference}." not in PREFERENCES and "The thing is, {reason}." not in REASONS


def test_gerund_wants_take_the_least_used_ending() -> None:
    quota = FrameQuota()
    draft = _draft(_part("cancelling the order is what you are after", "Cancel it."))
    scenario = _scenario({"user_id": "ada_1"}, {}, "Cancel it.")
    endings = []
    for seed in range(len(WANT_TAILS)):
        text = instruction_text(draft, scenario, random.Random(seed), quota=quota)
        quota.commit()
        endings += [tail for tail in WANT_TAILS if f"the order {tail}" in text]
    assert sorted(endings) == sorted(WANT_TAILS)


def test_one_instruction_never_repeats_an_ending_nor_stacks_two_conditions() -> None:
    quota = FrameQuota()
    part = _part("paying the loan is what you are after", "Pay it.", preference="if it fails, tell me why")
    draft = _draft(part, _part("paying the card is what you are after", "Pay it."))
    scenario = _scenario({"user_id": "ada_1"}, {}, "Pay it.", "Pay it.")
    for seed in range(30):
        text = instruction_text(draft, scenario, random.Random(seed), quota=quota)
        quota.commit()
        assert len([t for t in WANT_TAILS if f"the loan {t}" in text or f"the card {t}" in text]) == 2
        assert not re.search(r"\b(?:If|When|Where|Should|In case)\b[^.]*, if it fails", text)


def test_a_tool_value_said_in_words_is_derivable_and_ids_are_not_loosened() -> None:
    assert _derivable("credit_card", "by credit card") and _derivable("follow_up", "a follow-up visit")
    assert not _derivable("credit_card", "a card") and not _derivable("ada_byrne_1234", "ada byrne 1234")
