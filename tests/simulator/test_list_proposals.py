"""A proposal that names part of a write's list (8 of 10 seats) does not propose that write: it
proposes the write whose list it names in full (a policy challenge's accepted alternative)."""

from __future__ import annotations

from taue.contracts.tasks import Goal, Target
from taue.simulator.proposals import Candidate, proposed_goals

TEN = [f"B{n}" for n in range(3, 13)]
EIGHT = TEN[:8]


def _goal(goal_id: str, seats: list[str], refused: bool) -> Goal:
    target = Target(
        tool="purchase_tickets", arguments={"account_id": "LM1", "showtime_id": "ST9", "seats": seats}
    )
    return Goal(
        id=goal_id,
        request=f"Please book seats {', '.join(seats)} for the 8 pm showing.",
        targets=[target],
        refusal_expected=refused,
        refusal_reason=["at most 8 seats"] if refused else [],
    )


def test_a_proposal_naming_eight_of_ten_seats_proposes_the_eight_seat_write() -> None:
    ten, eight = _goal("ten", TEN, refused=True), _goal("eight", EIGHT, refused=False)
    candidates = [Candidate(ten, ten.targets[0]), Candidate(eight, eight.targets[0])]
    message = f"Shall I purchase tickets for seats {', '.join(EIGHT)} on account LM1, showtime ST9?"
    assert [g.id for g in proposed_goals(message, candidates, ["LM1", "ST9"])] == ["eight"]


def test_a_proposal_naming_all_ten_seats_proposes_the_ten_seat_write() -> None:
    ten, eight = _goal("ten", TEN, refused=True), _goal("eight", EIGHT, refused=False)
    candidates = [Candidate(ten, ten.targets[0]), Candidate(eight, eight.targets[0])]
    message = f"Shall I purchase tickets for seats {', '.join(TEN)} on account LM1, showtime ST9?"
    assert [g.id for g in proposed_goals(message, candidates, ["LM1", "ST9"])] == ["ten"]
