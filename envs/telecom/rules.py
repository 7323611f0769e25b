"""Telecom's policy numbers and the values the write tools and the policy checker share (policy.md):
the tools list and check the same ticket fields the checker judges.

The tools keep the published telecom behaviour, which leaves most of the policy to the agent; the
checker holds the rest (policy_check.py).
"""

from __future__ import annotations

CLOCK = "2025-09-18T10:00:00"
"""The simulated "now"; a payment recorded today carries this date."""
TODAY = CLOCK[:10]
SENIOR_AGE = 65
SENIOR_BORN_BY = f"{int(TODAY[:4]) - SENIOR_AGE}{TODAY[4:]}"
"""Customers born on or before this day are 65 or older on the clock's day."""
TICKET_CATEGORIES = ("mobile", "internet", "tv", "billing", "account", "device", "security", "phone")
TICKET_PRIORITIES = ("low", "medium", "high", "urgent")
TICKET_STATUSES = ("open", "in_progress", "resolved", "closed")
BILLING_CYCLES = ("monthly", "quarterly", "annual")
PAYMENT_METHODS = ("credit_card", "bank_transfer")


def ticket_fields_ok(category: str, priority: str) -> bool:
    """A new ticket has a listed category and priority."""
    return category in TICKET_CATEGORIES and priority in TICKET_PRIORITIES
