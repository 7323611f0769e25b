"""Movie tools: the guest-services desk of Lumen Cinemas. Reads live in reads.py; here are the writes
(buying, exchanging and refunding tickets, changing a membership) and the hand-off to a person.

Every write checks the policy's hard rules before it changes anything and fails with a `ToolError`
saying what was wrong; one call is one transaction, so a failed call changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlmodel import select

from taue.envs.movie import rules
from taue.envs.movie.generate import seat_order
from taue.envs.movie.models import Account, Order, Showtime, seat_type
from taue.envs.movie.reads import (
    AccountId,
    OrderId,
    ShowtimeId,
    account,
    dump,
    find_account_by_email_phone,
    get_account_details,
    get_membership_details,
    get_order_details,
    get_showtime_details,
    list_theatres,
    order,
    search_showtimes,
    showtime,
)
from taue.envs.runtime.common_tools import calculate, think
from taue.envs.runtime.database import Store
from taue.envs.runtime.domain import ends_conversation, writes
from taue.envs.runtime.money import cents

Seats = Annotated[list[str], Field(description="Seat labels of the showtime's seat map, e.g. ['F7', 'F8'].")]


def _member(row: Account) -> bool:
    return rules.is_member(row.membership)


def _not_started(db: Store, show: Showtime) -> None:
    if show.starts_at <= db.clock:
        raise ToolError(
            f"showtime {show.showtime_id} started at {show.starts_at}; tickets are no longer on sale"
        )


def _before_cutoff(db: Store, show: Showtime) -> None:
    if datetime.fromisoformat(show.starts_at) - datetime.fromisoformat(db.clock) < rules.CUTOFF:
        raise ToolError(
            f"exchanges and refunds close 2 hours before the show; this show starts at {show.starts_at}"
        )


def _check_seats(show: Showtime, seats: list[str]) -> None:
    problem = rules.seat_problem(show.showtime_id, show.sold_seats, seats)
    if problem is not None:
        raise ToolError(problem)


def _lines(show: Showtime, seats: list[str]) -> list[dict[str, Any]]:
    return [{"seat": s, "type": seat_type(s), "price": show.prices[seat_type(s)]} for s in seats]


def _pay(row: Account, payment_id: str, amount: float) -> None:
    """Charge `amount` to a payment method of the account (a gift card must cover it)."""
    problem = rules.payment_problem(row.payment_methods, row.account_id, payment_id, amount)
    if problem is not None:
        raise ToolError(problem)
    method = row.payment_methods[payment_id]
    if method["type"] == "gift_card":
        method["balance"] = cents(method["balance"] - amount, rule="half_up")


def _take(show: Showtime, seats: list[str]) -> None:
    show.sold_seats = sorted([*show.sold_seats, *seats], key=seat_order)


def _release(show: Showtime, seats: list[str]) -> None:
    show.sold_seats = [s for s in show.sold_seats if s not in seats]


def _new_order_id(db: Store) -> str:
    numbers = [int(key.split("-")[1]) for key in db.session.exec(select(Order.order_id))]
    return f"LO-{max(numbers, default=500000) + 1}"


# ------------------------------------------------------------------------------------------ tickets


@writes
async def purchase_tickets(
    db: Store,
    account_id: AccountId,
    showtime_id: ShowtimeId,
    seats: Seats,
    payment_id: Annotated[str, Field(description="A payment method id of the account, e.g. 'card_01230'.")],
    credits: Annotated[
        int, Field(description="How many of the tickets to pay with membership ticket credits (0 for none).")
    ] = 0,
) -> str:
    """Buy tickets for a showtime: 1 to 8 open seats in one order. Each ticket credit pays one seat's
    standard price (a premium seat still pays its surcharge); guests without an active membership pay
    a 1.50 booking fee per ticket. The rest is charged to the payment method. Returns the new order."""
    row = account(db, account_id)
    show = showtime(db, showtime_id)
    _not_started(db, show)
    if not 1 <= len(seats) <= rules.MAX_SEATS:
        raise ToolError(f"one order holds 1 to {rules.MAX_SEATS} seats; {len(seats)} were requested")
    _check_seats(show, seats)
    if not 0 <= credits <= len(seats):
        raise ToolError(f"credits must be between 0 and the number of seats ({len(seats)})")
    if credits and not _member(row):
        raise ToolError("ticket credits can only be used with an active membership")
    balance = row.membership.get("credits", 0)
    if credits > balance:
        raise ToolError(f"the account has only {balance} ticket credits left")
    lines = _lines(show, seats)
    fee = 0.0 if _member(row) else cents(rules.BOOKING_FEE * len(seats), rule="half_up")
    total = sum(line["price"] for line in lines) - credits * show.prices["standard"] + fee
    amount = cents(total, rule="half_up")
    _pay(row, payment_id, amount)
    if credits:
        row.membership["credits"] = balance - credits
    new = Order(
        order_id=_new_order_id(db), account_id=account_id, showtime_id=showtime_id, seats=lines,
        credits_used=credits, booking_fee=fee, amount_charged=amount, payment_id=payment_id,
        status="confirmed", created_at=db.clock,
        history=[{"event": "purchased", "at": db.clock, "amount": amount}],
    )  # fmt: skip
    _take(show, seats)
    row.orders = [*row.orders, new.order_id]
    db.save(new)
    db.save(show)
    db.save(row)
    return dump(new.to_record())


@writes
async def exchange_tickets(
    db: Store,
    order_id: OrderId,
    new_showtime_id: Annotated[
        str, Field(description="The showtime to move the tickets to, e.g. 'ST12001'.")
    ],
    seats: Seats,
) -> str:
    """Move a confirmed order to another showtime of the same film (any theatre), with the same number
    of seats, until 2 hours before the original show. A higher seat total is charged to the order's
    payment method (a lower one is not refunded); guests without an active membership also pay a
    1.50 exchange fee per ticket. Returns the updated order."""
    row = order(db, order_id)
    if row.status != "confirmed":
        raise ToolError(f"order {order_id} is {row.status}; only confirmed orders can be exchanged")
    old = showtime(db, row.showtime_id)
    _before_cutoff(db, old)
    new = showtime(db, new_showtime_id)
    if new.showtime_id == old.showtime_id:
        raise ToolError("the new showtime is the order's current showtime")
    if new.film_id != old.film_id:
        raise ToolError("tickets can only be exchanged for another showtime of the same film")
    _not_started(db, new)
    if len(seats) != len(row.seats):
        raise ToolError(f"an exchange keeps the number of seats: the order has {len(row.seats)}")
    _check_seats(new, seats)
    owner = account(db, row.account_id)
    lines = _lines(new, seats)
    difference = sum(line["price"] for line in lines) - sum(line["price"] for line in row.seats)
    fee = 0.0 if _member(owner) else rules.EXCHANGE_FEE * len(seats)
    charge = cents(max(0.0, difference) + fee, rule="half_up")
    _pay(owner, row.payment_id, charge)
    _release(old, [line["seat"] for line in row.seats])
    _take(new, seats)
    row.history = [*row.history, {"event": "exchanged", "at": db.clock, "from_showtime": old.showtime_id,
                                  "amount": charge}]  # fmt: skip
    row.showtime_id, row.seats = new.showtime_id, lines
    row.amount_charged = cents(row.amount_charged + charge, rule="half_up")
    for changed in (old, new, owner, row):
        db.save(changed)
    return dump(row.to_record())


@writes
async def refund_order(db: Store, order_id: OrderId) -> str:
    """Refund a whole confirmed order, until 2 hours before the show. The amount charged comes back to
    the order's payment method less the booking fee and the refund fee per ticket (2.00 without an
    active membership, 1.00 for Plus, none for Premiere); credits used return to an active
    membership. The seats are released. Returns the updated order."""
    row = order(db, order_id)
    if row.status != "confirmed":
        raise ToolError(f"order {order_id} is {row.status}; only confirmed orders can be refunded")
    show = showtime(db, row.showtime_id)
    _before_cutoff(db, show)
    owner = account(db, row.account_id)
    amount = cents(
        max(0.0, row.amount_charged - row.booking_fee - rules.refund_fee(owner.membership) * len(row.seats)),
        rule="half_up",
    )
    method = owner.payment_methods.get(row.payment_id)
    if method is not None and method["type"] == "gift_card":
        method["balance"] = cents(method["balance"] + amount, rule="half_up")
    if row.credits_used and _member(owner):
        owner.membership["credits"] += row.credits_used
    _release(show, [line["seat"] for line in row.seats])
    row.status, row.refund_amount = "refunded", amount
    row.history = [*row.history, {"event": "refunded", "at": db.clock, "amount": amount}]
    for changed in (show, owner, row):
        db.save(changed)
    return dump(row.to_record())


# --------------------------------------------------------------------------------------- membership


def _days_since(db: Store, day: str) -> int:
    return rules.days_between(day, db.clock)


def _first_day(day: str, days: int) -> str:
    return rules.shift_days(day, days)


@writes
async def change_membership(
    db: Store,
    account_id: AccountId,
    new_plan: Annotated[
        Literal["plus", "premiere", "cancel"],
        Field(description="'plus' or 'premiere' to change to that tier, 'cancel' to cancel the membership."),
    ],
) -> str:
    """Change an active membership's tier or cancel it. A tier can change once every 30 days; an
    upgrade to Premiere adds 2 credits now, a downgrade to Plus keeps at most 2. A cancellation is
    possible after the 90-day minimum term and forfeits unused credits. The new fee applies from the
    next billing date. Returns the membership."""
    row = account(db, account_id)
    membership = dict(row.membership)
    if not membership:
        raise ToolError(f"account {account_id} has no membership; new memberships are sold at the box office")
    if membership["status"] == "cancelled":
        raise ToolError(f"the membership was cancelled on {membership['cancelled_on']}")
    if membership["status"] == "past_due":
        raise ToolError("the membership has an overdue monthly fee; it must be paid before any change")
    if new_plan == membership["tier"]:
        raise ToolError(f"the membership is already {new_plan}")
    today = db.clock[:10]
    if new_plan == "cancel":
        if _days_since(db, membership["member_since"]) < rules.MINIMUM_TERM_DAYS:
            first = _first_day(membership["member_since"], rules.MINIMUM_TERM_DAYS)
            raise ToolError(
                f"the 90-day minimum term runs until {first}; the membership cannot be cancelled before"
            )
        membership.update(status="cancelled", cancelled_on=today, credits=0)
    else:
        if _days_since(db, membership["tier_changed_on"]) < rules.TIER_CHANGE_DAYS:
            first = _first_day(membership["tier_changed_on"], rules.TIER_CHANGE_DAYS)
            raise ToolError(
                f"the tier changed on {membership['tier_changed_on']}; the next change is possible on {first}"
            )
        allowance = rules.TIERS[new_plan]["credits"]
        credits = membership["credits"] + (allowance - rules.TIERS[membership["tier"]]["credits"])
        kept = credits if new_plan == "premiere" else min(membership["credits"], allowance)
        fee = rules.TIERS[new_plan]["monthly_fee"]
        membership.update(tier=new_plan, tier_changed_on=today, monthly_fee=fee, credits=kept)
    row.membership = membership
    db.save(row)
    return dump({"account_id": account_id, "membership": membership})


@ends_conversation
async def transfer_to_human_agents(
    db: Store,
    summary: Annotated[
        str, Field(description="Short summary of the guest's request for the person taking over.")
    ],
) -> str:
    """Hand the guest over to a human agent; the conversation ends here. Only when the guest asks for
    a person or needs something these tools and the policy do not cover."""
    return "Transfer successful"


TOOLS = [
    calculate,
    change_membership,
    exchange_tickets,
    find_account_by_email_phone,
    get_account_details,
    get_membership_details,
    get_order_details,
    get_showtime_details,
    list_theatres,
    purchase_tickets,
    refund_order,
    search_showtimes,
    think,
    transfer_to_human_agents,
]
