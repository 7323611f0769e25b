"""Small task builders shared by tests that need a task but no particular domain data."""

from __future__ import annotations

from taue.contracts.tasks import Task


def make_task(
    politeness: str = "neutral",
    urgency: str = "moderate",
    trust: str = "cautious",
    emotion: str | None = "frustration",
    family: str = "anger",
) -> Task:
    emotion_block = (
        {
            "family": family,
            "emotion": emotion,
            "politeness": politeness,
            "urgency": urgency,
            "trust": trust,
            "instruction": "You are fed up and want this fixed.",
        }
        if emotion
        else None
    )
    return Task.model_validate(
        {
            "id": "t-1",
            "domain": "airline",
            "user_scenario": {
                "persona": "A frequent flyer.",
                "reason_for_call": "I want to change my trip.",
                "known_info": {"user_id": "ana_lee_1234", "reservation_id": "ABC123", "cabin": "economy"},
                "volunteered": ["user_id"],
                "unknown_info": ["membership"],
                "discoverable": {"payment_id": "credit_card_1", "flight_number": "HAT001", "price": "120"},
                "goals": [
                    {
                        "id": "g1",
                        "request": "Please cancel reservation ABC123.",
                        "evidence": ["ABC123"],
                        "targets": [
                            {"tool": "cancel_reservation", "arguments": {"reservation_id": "ABC123"}}
                        ],
                    },
                    {
                        "id": "g2",
                        "kind": "information",
                        "request": "How much was refunded?",
                        "evidence": ["120"],
                    },
                ],
            },
            "instruction": "Cancel ABC123 and ask how much comes back.",
            "emotion": emotion_block,
            "evaluation": {
                "actions": [{"name": "cancel_reservation", "arguments": {"reservation_id": "ABC123"}}],
                "outputs": ["120"],
            },
        }
    )
