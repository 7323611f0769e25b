"""Movie read tools: finding a guest, their account, membership and orders, theatres, showtimes and
seat maps. Every answer is JSON text; an unknown id is a `ToolError` that names it."""

from __future__ import annotations

import json
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlmodel import col, func

from taue.envs.movie.generate import seat_order
from taue.envs.movie.models import Account, Film, Order, Showtime, Theatre, all_seats, seat_type
from taue.envs.movie.rules import TIERS
from taue.envs.runtime.database import Store

AccountId = Annotated[str, Field(description="The guest's account id, e.g. 'LM482913'.")]
OrderId = Annotated[str, Field(description="A ticket order id, e.g. 'LO-501234'.")]
ShowtimeId = Annotated[str, Field(description="A showtime id, e.g. 'ST11842'.")]
TheatreId = Annotated[str, Field(description="A theatre id from list_theatres, e.g. 'harborview'.")]
Day = Annotated[str, Field(description="A date as 'YYYY-MM-DD', e.g. '2025-03-15'.")]

PLAN_PERKS = {
    "plus": "2 ticket credits a month, no booking fees, free exchanges, 1.00 refund fee per ticket",
    "premiere": "4 ticket credits a month, no booking fees, free exchanges, free refunds",
}


def dump(value: Any) -> str:
    return json.dumps(value)


def account(db: Store, account_id: str) -> Account:
    return db.require(Account, account_id, f"account {account_id} not found")


def order(db: Store, order_id: str) -> Order:
    return db.require(Order, order_id, f"order {order_id} not found")


def showtime(db: Store, showtime_id: str) -> Showtime:
    return db.require(Showtime, showtime_id, f"showtime {showtime_id} not found")


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def _summary(db: Store, show: Showtime) -> dict[str, Any]:
    film = db.require(Film, show.film_id, f"film {show.film_id} not found")
    return {
        "showtime_id": show.showtime_id,
        "film_id": film.film_id,
        "film_title": film.title,
        "rating": film.rating,
        "runtime_minutes": film.runtime_minutes,
        "theatre_id": show.theatre_id,
        "auditorium": show.auditorium,
        "starts_at": show.starts_at,
        "format": show.format,
        "prices": show.prices,
        "seats_left": len(all_seats()) - len(show.sold_seats),
        "on_sale": show.starts_at > db.clock,
    }


# ------------------------------------------------------------------------------------------- guests


async def find_account_by_email_phone(
    db: Store,
    email: Annotated[str, Field(description="The guest's email address (case does not matter).")],
    phone: Annotated[
        str, Field(description="The guest's phone number in any format, e.g. '(503) 555-0199'.")
    ],
) -> str:
    """Find a guest's account id from their email address and phone number; both must match the same
    account. Returns the bare account id. Use it to verify a guest who does not give an account id."""
    for row in db.scan(Account, func.lower(Account.email) == email.strip().lower()):
        if _digits(row.phone) == _digits(phone) and _digits(phone):
            return row.account_id
    raise ToolError("no account matches that email address and phone number")


async def get_account_details(db: Store, account_id: AccountId) -> str:
    """Get a guest's account: name, contact details, birth date, home theatre, payment methods (with
    gift card balances), membership tier and status, and order ids (oldest first)."""
    row = account(db, account_id)
    record = row.to_record()
    membership = row.membership
    record["membership"] = (
        {"tier": membership["tier"], "status": membership["status"]} if membership else {"tier": None}
    )
    return dump(record)


async def get_membership_details(db: Store, account_id: AccountId) -> str:
    """Get a guest's membership in full (tier, status, member since, last tier change, ticket credits,
    monthly fee, cancellation date) and the plans on offer with their fees and perks."""
    row = account(db, account_id)
    plans = {
        tier: {
            "monthly_fee": plan["monthly_fee"],
            "monthly_credits": plan["credits"],
            "perks": PLAN_PERKS[tier],
        }
        for tier, plan in TIERS.items()
    }
    return dump({"account_id": row.account_id, "membership": row.membership or None, "plans": plans})


async def get_order_details(db: Store, order_id: OrderId) -> str:
    """Get a ticket order: its showtime (film, theatre, start), seats with type and price, credits
    used, booking fee, amount charged and to which payment method, status, refund and history."""
    row = order(db, order_id)
    show = showtime(db, row.showtime_id)
    summary = _summary(db, show)
    record = row.to_record()
    record["show"] = {
        key: summary[key] for key in ("film_title", "theatre_id", "auditorium", "starts_at", "format")
    }
    return dump(record)


# ---------------------------------------------------------------------------------------- showtimes


async def list_theatres(db: Store) -> str:
    """List the chain's theatres: id, name, address, city, phone, number of auditoriums, IMAX."""
    return dump([row.to_record() for row in db.scan(Theatre)])


async def search_showtimes(
    db: Store,
    theatre_id: TheatreId,
    date: Day,
    film_title: Annotated[
        str | None, Field(description="Only this film (case-insensitive, part of the title is enough).")
    ] = None,
) -> str:
    """List the showtimes of a theatre on a date in start order, optionally of one film: showtime id,
    film, start, format, auditorium, ticket prices by seat type, seats left and whether tickets are
    still on sale."""
    db.require(Theatre, theatre_id, f"theatre {theatre_id} not found")
    shows = db.scan(Showtime, Showtime.theatre_id == theatre_id, col(Showtime.starts_at).startswith(date))
    listed = [_summary(db, show) for show in sorted(shows, key=lambda s: (s.starts_at, s.auditorium))]
    if film_title:
        listed = [s for s in listed if film_title.strip().lower() in s["film_title"].lower()]
    return dump(listed)


async def get_showtime_details(db: Store, showtime_id: ShowtimeId) -> str:
    """Get a showtime with its seat map: the open seats by seat type (rows A-H, seats 1-12; rows G
    and H are premium recliners; A1, A2, A11 and A12 are wheelchair-accessible) and the prices."""
    show = showtime(db, showtime_id)
    sold = set(show.sold_seats)
    open_seats: dict[str, list[str]] = {"standard": [], "premium": [], "accessible": []}
    for seat in sorted(all_seats(), key=seat_order):
        if seat not in sold:
            open_seats[seat_type(seat)].append(seat)
    theatre = db.require(Theatre, show.theatre_id, f"theatre {show.theatre_id} not found")
    return dump({**_summary(db, show), "theatre_name": theatre.name, "open_seats": open_seats})
