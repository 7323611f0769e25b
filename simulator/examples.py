"""`taue simulator understand --examples`: one example of each way real agents write, read on a small
built-in task, so that a newcomer sees how the scripted user takes each (docs/simulator.md).

The task is a traveller with three needs: two checked bags on booking H1B2C3 paid with a Visa card, a
move of booking Q7ZT4K to a later flight (HAT311) paid with a Mastercard, and a cancellation of a
basic-economy booking M00X3A that the policy forbids. Every message is written for this page.
"""

from __future__ import annotations

from pydantic import BaseModel

from taue.contracts.tasks import Task

EXAMPLE_TASK = Task.model_validate(
    {
        "id": "example-traveller",
        "domain": "airline",
        "user_scenario": {
            "persona": "A traveller sorting out three bookings.",
            "reason_for_call": "I'm travelling next week and my plans changed.",
            "known_info": {
                "user_id": "mia_ruiz_11",
                "pay_with": "Visa card ending in 4410",
                "pay_with_2": "Mastercard ending in 9020",
            },
            "volunteered": ["user_id"],
            "goals": [
                {
                    "id": "bags",
                    "request": "Please add two checked bags to booking H1B2C3, paid with my Visa card "
                    "ending in 4410.",
                    "targets": [
                        {
                            "tool": "update_reservation_baggages",
                            "arguments": {"reservation_id": "H1B2C3", "total_baggages": 2},
                        }
                    ],
                },
                {
                    "id": "move",
                    "request": "Please move booking Q7ZT4K to the later flight that day, on my Mastercard "
                    "ending in 9020.",
                    "targets": [
                        {
                            "tool": "update_reservation_flights",
                            "arguments": {
                                "reservation_id": "Q7ZT4K",
                                "flights": [{"flight_number": "HAT311"}],
                            },
                        }
                    ],
                },
                {
                    "id": "cancel",
                    "request": "Please cancel booking M00X3A.",
                    "targets": [{"tool": "cancel_reservation", "arguments": {"reservation_id": "M00X3A"}}],
                    "refusal_expected": True,
                    "refusal_reason": ["basic economy", "no travel insurance"],
                },
            ],
        },
        "instruction": "Add bags to H1B2C3, move Q7ZT4K to HAT311, and ask to cancel M00X3A.",
        "evaluation": {"actions": [], "outputs": []},
    }
)


class Example(BaseModel):
    category: str
    what: str
    """What the user does with it."""
    message: str


EXAMPLES = (
    Example(
        category="choices",
        what="picks the listed option its need wants, in the agent's label, and that is its yes",
        message="Two flights are open that day:\n\n1. **HAT208**, leaves 08:10, $140\n"
        "2. **HAT311**, leaves 15:05, $140\n\nWhich of these would you prefer for Q7ZT4K?",
    ),
    Example(
        category="record list",
        what="names the record its need is about (by its id when the need gives one)",
        message="I see three bookings on your profile:\n\n- M00X3A (Austin to Reno)\n- H1B2C3 (Boston to "
        "Denver)\n- Q7ZT4K (Miami to Tampa)\n\nWhich one should we start with for the bags?",
    ),
    Example(
        category="records laid out in a sentence",
        what="their details in parentheses belong to each; 'which one' picks among them, it approves "
        "nothing by itself",
        message="I see bookings M00X3A (Austin to Reno, basic economy) and Q7ZT4K (Miami to Tampa, "
        "economy). Which one would you like to move?",
    ),
    Example(
        category="policy question: payment",
        what="answers with the payment of the need being worked on, never another need's",
        message="How would you like to pay for the two bags?",
    ),
    Example(
        category="policy question: reason",
        what="says it has no particular reason when the scenario gives none; costs nothing",
        message="May I ask the reason for the cancellation (change of plan, or something else)?",
    ),
    Example(
        category="what the customer wants",
        what="says its need, never 'which details'",
        message="I've pulled up H1B2C3. What changes would you like to make to it?",
    ),
    Example(
        category="proposal read by its focus",
        what="a refusal of one record and a question about another: the refusal is one act, the "
        "proposal is matched by what it would change",
        message="M00X3A cannot be cancelled: it is basic economy with no travel insurance. Shall I add two "
        "checked bags to H1B2C3, flights HAT100 and HAT101, charged to your Visa card ending in 4410?",
    ),
    Example(
        category="details per need",
        what="declines a proposal paying with another need's card and names the right one",
        message="Shall I add the two bags to H1B2C3 and charge your Mastercard ending in 9020?",
    ),
    Example(
        category="announced plan",
        what="a plan followed by a question is a proposal, not a report",
        message="Here is what I'd change:\n- add two checked bags to H1B2C3\n"
        "- charge your Visa card ending in 4410\nShall I go ahead?",
    ),
    Example(
        category="offer of further help",
        what="neither a question to answer nor a claim",
        message="If you need further assistance with your bookings, please let me know!",
    ),
    Example(
        category="status of another record",
        what="a record's history reads at most as a weak report: it never counts as a false claim",
        message="Your earlier booking Z9Y8X7 was completed last month.",
    ),
    Example(
        category="search that found nothing",
        what="a lookup's outcome, never a refusal: nothing is charged and the need goes on",
        message="I'm afraid I couldn't find any other flights to Tampa on Friday.",
    ),
    Example(
        category="sympathy",
        what="acknowledgement, never a refusal",
        message="I can't imagine how stressful a week like this is. Let me look at your bookings.",
    ),
    Example(
        category="refusal in other words",
        what="accepted when it states the policy's rule, in any words and order",
        message="I'm sorry, I can't cancel M00X3A: it's a basic-economy fare, and there's no "
        "travel insurance.",
    ),
)
