"""The numbers and pure rules of the school policy (policy.md), shared by the tools, the generator
and the policy checker so that all three agree."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

CLOCK = "2025-09-24T10:00:00"
TODAY = CLOCK[:10]
CURRENT_TERM = "2025FA"
PAST_TERMS = ("2024FA", "2025SP", "2025SU")
TERM_NAMES = {"2024FA": "Fall 2024", "2025SP": "Spring 2025", "2025SU": "Summer 2025", "2025FA": "Fall 2025"}
CURRENT_DUE_DATE = "2025-10-15"

TUITION_PER_CREDIT = {"undergraduate": 420.0, "graduate": 650.0}
CREDIT_LIMIT = {("undergraduate", "good"): 18, ("undergraduate", "probation"): 12,
                ("graduate", "good"): 12, ("graduate", "probation"): 9}  # fmt: skip
LATE_DROP_FEE = 50.0
TRANSCRIPT_FEE = {"electronic": 8.0, "mail": 12.0}
MAX_TRANSCRIPT_COPIES = 5
REGISTRATION_BLOCKING_HOLDS = ("financial", "advising")
TRANSCRIPT_BLOCKING_HOLDS = ("financial",)

GRADE_POINTS = {
    "A": 4.0, "A-": 3.7, "B+": 3.3, "B": 3.0, "B-": 2.7, "C+": 2.3, "C": 2.0, "C-": 1.7,
    "D+": 1.3, "D": 1.0, "F": 0.0,
}  # fmt: skip
PASSING_FOR_PREREQUISITE = ("A", "A-", "B+", "B", "B-", "C+", "C", "C-")

# Sessions of the current term: (first day of classes, last day). Deadlines count from the first day.
SESSIONS = {
    "first_half": ("2025-08-11", "2025-10-03"),
    "early": ("2025-08-25", "2025-12-12"),
    "full": ("2025-09-02", "2025-12-12"),
    "late_start": ("2025-09-22", "2025-12-12"),
    "second_half": ("2025-10-20", "2025-12-12"),
}
ADD_DAYS, FREE_DROP_DAYS, HALF_REFUND_DAYS, WITHDRAW_DAYS = 7, 14, 28, 40


def shift(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def session_dates(session: str) -> dict[str, str]:
    """A section's dates and deadlines, from its session."""
    start, end = SESSIONS[session]
    return {
        "start_date": start,
        "end_date": end,
        "add_deadline": shift(start, ADD_DAYS),
        "drop_deadline": shift(start, FREE_DROP_DAYS),
        "half_refund_deadline": shift(start, HALF_REFUND_DAYS),
        "withdraw_deadline": shift(start, WITHDRAW_DAYS),
    }


def credit_limit(student: dict[str, Any]) -> int:
    return CREDIT_LIMIT[(student["level"], student["standing"])]


def blocking(holds: list[dict[str, Any]], kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    return [hold for hold in holds if hold["type"] in kinds]


MEETS = re.compile(r"^(?P<days>[A-Za-z]{3}(?:/[A-Za-z]{3})*) (?P<start>\d{2}:\d{2})-(?P<end>\d{2}:\d{2})$")
"""A section's meeting pattern: "Mon/Wed 08:30-09:45"."""


def clash(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two sections meet at the same time: a shared day, overlapping hours and dates."""
    a, b = MEETS.match(one["meets"]), MEETS.match(other["meets"])
    if a is None or b is None:
        return False
    shared_day = set(a["days"].split("/")) & set(b["days"].split("/"))
    hours = a["start"] < b["end"] and b["start"] < a["end"]
    dates = one["start_date"] <= other["end_date"] and other["start_date"] <= one["end_date"]
    return bool(shared_day) and hours and dates


def drop_terms(section: dict[str, Any], today: str = TODAY) -> tuple[float, float, str] | None:
    """(refund share of the tuition, late-drop fee, new enrolment status) of dropping a section
    today, or None when the withdrawal deadline has passed."""
    if today <= section["drop_deadline"]:
        return 1.0, 0.0, "dropped"
    if today <= section["half_refund_deadline"]:
        return 0.5, LATE_DROP_FEE, "withdrawn"
    if today <= section["withdraw_deadline"]:
        return 0.0, LATE_DROP_FEE, "withdrawn"
    return None


def invoice_status(balance: float, due_date: str, today: str = TODAY) -> str:
    if balance < 0:
        return "credit"
    if balance == 0:
        return "paid"
    return "overdue" if due_date < today else "open"
