"""Movie's policy as code: the hard rules of policy.md that the Tracer checks writes against
(docs/tracer.md). A gold write must break none; a policy challenge's asked-for write must break at
least one, and the broken rules' `reasons` are the phrases a refusal is accepted with. The tools
(tools.py) refuse the same writes."""

from __future__ import annotations

from taue.contracts.tasks import Action
from taue.envs.movie import rules
from taue.envs.movie.rules import CLOCK, MAX_SEATS, MINIMUM_TERM_DAYS, TIER_CHANGE_DAYS
from taue.envs.movie.seed_view import (
    CUTOFF,
    Record,
    View,
    days_since,
    exchange_charge,
    purchase_amount,
)
from taue.envs.runtime.authoring import Rule


def rule(rule_id: str, text: str, reasons: str) -> Rule:
    """A rule whose refusal phrases are given as one '|'-separated string."""
    return Rule(rule_id, text, tuple(r for r in reasons.split("|") if r))


# --------------------------------------------------------------------------------------- policy rules

SEAT_LIMIT = rule(
    "seat-limit",
    "One order holds 1 to 8 seats.",
    "8 seats|eight seats|8 tickets|eight tickets|per order|maximum of 8|limit of 8",
)
ON_SALE = rule(
    "on-sale",
    "Tickets are sold, and exchanged into, only until the show starts.",
    "already started|no longer on sale",
)
OPEN_SEATS = rule(
    "open-seats", "Only open seats of the seat map can be booked.", "already sold|not available|taken"
)
CONFIRMED_ONLY = rule(
    "confirmed-only",
    "Only confirmed orders can be exchanged or refunded.",
    "already took place|already happened|already been refunded|already refunded|completed|only confirmed",
)
CUTOFF_RULE = rule(
    "two-hour-cutoff",
    "Exchanges and refunds close 2 hours before the show starts.",
    "2 hours|two hours|cut-off|cutoff|too close to",
)
SAME_FILM = rule(
    "same-film",
    "An exchange is only for another showtime of the same film.",
    "same film|same movie|different film|different movie|another film|another movie",
)
SAME_COUNT = rule("same-seat-count", "An exchange keeps the number of seats.", "number of seats|same number")
CREDITS = rule(
    "credits",
    "Ticket credits: only with an active membership, one per ticket, up to the credits left.",
    "credits left|not enough credits|active membership",
)
PAYMENT = rule(
    "payment",
    "One payment method of the account; a gift card must cover the whole amount.",
    "gift card balance|not enough on the gift card|not on the account",
)
ACTIVE_MEMBERSHIP = rule(
    "active-membership",
    "Only an active membership can change tier or be cancelled.",
    "past due|overdue|cancelled membership|no membership|box office|website",
)
TIER_COOLDOWN = rule(
    "tier-once-per-30-days",
    "The tier can change at most once every 30 days.",
    "30 days|thirty days|once every 30|once a month",
)
MINIMUM_TERM = rule(
    "minimum-term",
    "A membership can be cancelled only after its 90-day minimum term.",
    "90 days|90-day|ninety days|minimum term",
)


# ----------------------------------------------------------------------------------------- the check


def check_policy(view: View, action: Action) -> list[Rule]:
    """The rules of policy.md that the write `action` breaks, judged on the seed records."""
    args, name = action.arguments, action.name
    if name == "purchase_tickets":
        return _purchase_rules(view, args)
    if name == "exchange_tickets":
        return _exchange_rules(view, args)
    if name == "refund_order":
        return _order_rules(view, view.orders[args["order_id"]])
    if name == "change_membership":
        return _membership_rules(view, args)
    return []


def _seat_rules(show: Record, seats: list[str]) -> list[Rule]:
    return [] if rules.seat_problem(show["showtime_id"], show["sold_seats"], seats) is None else [OPEN_SEATS]


def _payment_rules(view: View, account_id: str, payment_id: str, amount: float) -> list[Rule]:
    methods = view.accounts[account_id]["payment_methods"]
    return [] if rules.payment_problem(methods, account_id, payment_id, amount) is None else [PAYMENT]


def _purchase_rules(view: View, args: Record) -> list[Rule]:
    show, seats, credits = view.showtimes[args["showtime_id"]], list(args["seats"]), args.get("credits", 0)
    broken = [] if show["starts_at"] > CLOCK else [ON_SALE]
    if not 1 <= len(seats) <= MAX_SEATS:
        broken.append(SEAT_LIMIT)
    broken += _seat_rules(show, seats)
    balance = view.accounts[args["account_id"]]["membership"].get("credits", 0)
    if credits and (not view.member(args["account_id"]) or credits > min(balance, len(seats))):
        broken.append(CREDITS)
    amount = purchase_amount(view, args["account_id"], show, seats, credits)
    return broken + _payment_rules(view, args["account_id"], args["payment_id"], amount)


def _order_rules(view: View, order: Record) -> list[Rule]:
    if order["status"] != "confirmed":
        return [CONFIRMED_ONLY]
    return [] if view.show_of(order)["starts_at"] >= CUTOFF else [CUTOFF_RULE]


def _exchange_rules(view: View, args: Record) -> list[Rule]:
    order, seats = view.orders[args["order_id"]], list(args["seats"])
    new = view.showtimes[args["new_showtime_id"]]
    broken = _order_rules(view, order)
    if new["film_id"] != view.show_of(order)["film_id"]:
        broken.append(SAME_FILM)
    if new["starts_at"] <= CLOCK:
        broken.append(ON_SALE)
    if len(seats) != len(order["seats"]):
        broken.append(SAME_COUNT)
    broken += _seat_rules(new, seats)
    charge = exchange_charge(view, order, new, seats)
    return broken + _payment_rules(view, order["account_id"], order["payment_id"], charge)


def _membership_rules(view: View, args: Record) -> list[Rule]:
    membership = view.accounts[args["account_id"]]["membership"]
    if membership.get("status") != "active" or args["new_plan"] == membership["tier"]:
        return [ACTIVE_MEMBERSHIP]
    if args["new_plan"] == "cancel":
        return [MINIMUM_TERM] if days_since(membership["member_since"]) < MINIMUM_TERM_DAYS else []
    return [TIER_COOLDOWN] if days_since(membership["tier_changed_on"]) < TIER_CHANGE_DAYS else []
