"""Semantic lints that need the domain's seed records (docs/tracer.md, "Semantic lints"): a gold end
state the domain's rules make impossible (a double-booked timetable), an item in two of the
customer's records named without saying which, a fee the gold pays that the instruction never accepts.

Each reads the seed view of the domain's `TracerSpec` (`load(seed)`, loaded once per domain and only
for the domains the lint covers), never a replayed database: replaying every gold trajectory takes
minutes, the view seconds. The gold writes are applied to the view's records by hand where the end
state matters (`end_sections`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from typing import Any

from taue.contracts.tasks import Action, Task
from taue.tracer import semantic_words as w


@dataclass
class SeedFacts:
    """A domain's seed view, loaded on first use (tests pass a ready `view`)."""

    domain: str
    loader: Callable[[], Any] | None = None
    given: Any = field(default=None, repr=False)

    @cached_property
    def view(self) -> Any:
        if self.given is not None:
            return self.given
        if self.loader is None:
            raise ValueError(f"no seed view for {self.domain}")
        return self.loader()


def _writes(task: Task, *names: str) -> list[Action]:
    return [a for a in task.evaluation.actions if a.name in names]


def _customer(task: Task) -> str:
    return str(task.provenance.stages.get("customer", ""))


# -------------------------------------------------------------------------------- timetable-clash


def end_sections(view: Any, student_id: str, task: Task) -> list[str]:
    """The student's current sections once the gold writes are applied (drops, adds, swaps)."""
    sections = [e["section_id"] for e in view.current(student_id)]
    for action in _writes(task, "drop_section", "register_for_section", "swap_section"):
        args = action.arguments
        if action.name == "drop_section" and args["section_id"] in sections:
            sections.remove(args["section_id"])
        elif action.name == "register_for_section":
            sections.append(args["section_id"])
        elif args["section_id"] in sections:
            sections[sections.index(args["section_id"])] = args["new_section_id"]
    return sections


ADDS = ("register_for_section", "swap_section")
"""The school writes that put the student in a section (a swap's new section)."""


def timetable_clash(task: Task, seed: SeedFacts) -> str | None:
    """School: the gold end state double-books the student (two sections at the same time), which no
    student asks for and the policy's careful agent would warn about."""
    if seed.domain != "school" or not _writes(task, *ADDS):
        return None
    from taue.envs.school.rules import clash

    view = seed.view
    sections = [view.sections[s] for s in end_sections(view, _customer(task), task) if s in view.sections]
    added = {a.arguments.get("new_section_id", a.arguments["section_id"]) for a in _writes(task, *ADDS)}
    for one, other in combinations(sections, 2):
        if {one["section_id"], other["section_id"]} & added and clash(one, other):
            return f"end state double-books {one['section_id']} and {other['section_id']} ({one['meets']})"
    return None


# --------------------------------------------------------------------------- item-in-two-records

ITEM_WITH_OPTIONS = r"{name}(?: \((?P<options>[^)]*)\))?"


def item_in_two_records(task: Task, seed: SeedFacts) -> str | None:
    """Retail: an item named in a sentence that names no order ("returning the Bath Towel Set") while
    the customer has it in two orders: the agent cannot tell which one is meant."""
    if seed.domain != "retail":
        return None
    view = seed.view
    user = view.users.get(_customer(task))
    if user is None:
        return None
    orders = [view.orders[o] for o in user["orders"] if o in view.orders]
    names = {item["name"] for order in orders for item in order["items"]}
    for sentence in re.split(r"(?<=[.!?])\s+", task.instruction):
        if "order with" in sentence or "#W" in sentence:
            continue
        for name in sorted(names):
            found = re.search(ITEM_WITH_OPTIONS.format(name=re.escape(name)), sentence)
            if found and _orders_holding(orders, name, found["options"]) > 1:
                return f"{name} is in two of the customer's orders; the text does not say which"
    return None


def _orders_holding(orders: list[dict[str, Any]], name: str, options: str | None) -> int:
    """How many orders hold the item: by name, and by its options when the text gives them."""

    def fits(item: dict[str, Any]) -> bool:
        shown = ", ".join(f"{k}: {v}" for k, v in item.get("options", {}).items())
        return item["name"] == name and (options is None or shown == options)

    return sum(any(fits(item) for item in order["items"]) for order in orders)


# ------------------------------------------------------------------------------ fee-not-accepted


def _school_fees(seed: SeedFacts, action: Action) -> str | None:
    from taue.envs.school.rules import drop_terms

    section = seed.view.sections.get(action.arguments.get("section_id"))
    terms = drop_terms(section) if action.name == "drop_section" and section else None
    return "late-drop fee" if terms and terms[1] else None


def _restaurant_fees(seed: SeedFacts, action: Action) -> str | None:
    from taue.envs.restaurant.rules import CLOCK, deposit_for, late_cancel_fee

    args = action.arguments
    if action.name == "book_reservation" and deposit_for(int(args.get("party_size", 0))):
        return "deposit"
    if action.name != "cancel_reservation":
        return None
    booking = seed.view.reservations.get(args.get("reservation_id"))
    if booking:
        tier = seed.view.guests.get(booking["guest_id"], {}).get("tier", "")
        return "late-cancellation fee" if late_cancel_fee(booking, tier, CLOCK) else None
    return None


def _travel_fees(seed: SeedFacts, action: Action) -> str | None:
    from taue.envs.travel.rules import cancellation_fee

    if action.name != "cancel_booking":
        return None
    booking = seed.view.bookings.get(action.arguments.get("booking_id"))
    paid = booking and cancellation_fee(booking)
    return "cancellation fee" if paid else None


def _basketball_fees(seed: SeedFacts, action: Action) -> str | None:
    return {"buy_tickets": "service fee", "cancel_tickets": "notice fee"}.get(action.name)


def _bank_fees(seed: SeedFacts, action: Action) -> str | None:
    from taue.envs.bank.rules import EXPRESS_SHIPPING_FEE, PAYEE_FEE

    args, view = action.arguments, None
    if action.name == "pay_payee":
        view = seed.view
        account = view.accounts.get(args.get("from_account_id"), {})
        paid = PAYEE_FEE.get(view.customers.get(account.get("customer_id"), {}).get("tier", ""))
        return "payee fee" if paid else None
    if action.name == "report_card_lost" and args.get("shipping") == "express":
        view = seed.view
        card = view.cards.get(args.get("card_id"), {})
        paid = EXPRESS_SHIPPING_FEE.get(view.customers.get(card.get("customer_id"), {}).get("tier", ""))
        return "express shipping fee" if paid else None
    return None


FEE_PROBES: dict[str, Callable[[SeedFacts, Action], str | None]] = {
    "school": _school_fees,
    "restaurant": _restaurant_fees,
    "travel": _travel_fees,
    "basketball": _basketball_fees,
    "bank": _bank_fees,
}
"""Per domain, the fee a gold write pays (by the domain's own rules over the seed records), or None.
Not probed: movie (booking and exchange fees depend on membership), airline (bag fees)."""


def fees_paid(seed: SeedFacts, actions: list[Action]) -> list[str]:
    """The fees the actions pay, in order ("late-drop fee"); none in a domain without a probe."""
    probe = FEE_PROBES.get(seed.domain)
    return [fee for a in actions if (fee := probe(seed, a))] if probe else []


def fee_not_accepted(task: Task, seed: SeedFacts) -> str | None:
    """A fee, penalty or deposit the gold pays that the instruction never accepts (an LLM user told
    to approve only what it asked for may refuse it), or accepts with its amount (the agent says it)."""
    fees = fees_paid(seed, task.evaluation.actions)
    if not fees:
        return None
    accepted = [s for s in re.split(r"(?<=[.!?])\s+", task.instruction) if w.FEE_ACCEPTED.search(s)]
    if not accepted:
        return f"the gold pays a {fees[0]} the instruction never accepts"
    priced = next((s for s in accepted if w.AMOUNT.search(s)), None)
    return f"accepts the fee with its amount: {priced!r}" if priced else None


SeedLint = Callable[[Task, SeedFacts], "str | None"]
SEED_LINTS: dict[str, SeedLint] = {
    "timetable-clash": timetable_clash,
    "item-in-two-records": item_in_two_records,
    "fee-not-accepted": fee_not_accepted,
}
"""The lints that read the seed records, by stable name."""
SEED_DOMAINS = frozenset(("school", "retail", *FEE_PROBES))
"""The domains whose seed view a seed lint reads (the others are never loaded)."""
