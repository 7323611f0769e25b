"""The policy's hard rules as plain functions over records (dicts), shared by the write tools and the
Tracer's policy check so that the two always agree. Each check returns the broken rule's id and
the message a tool fails with, or None when the rule holds."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from taue.envs.runtime.money import cents

Record = dict[str, Any]
Problem = tuple[str, str] | None

CLOCK = "2025-02-10T12:00:00"
"""The simulated "now": mid-season, between the first tip-off in October and the last in April."""
SERVICE_FEE = 4.0
"""Per ticket, charged on top of the section price."""

CANCEL_CLOSE_HOURS = 48
FULL_NOTICE_HOURS = 7 * 24
FEE_WITH_FULL_NOTICE = 0.10
FEE_WITH_SHORT_NOTICE = 0.25
MAX_TICKETS_PER_GAME = 8
RETURN_DAYS = 30
PAUSE_MONTHS = (1, 2)
DISRUPTED = ("postponed", "rescheduled")
ON_SALE = ("scheduled", "rescheduled")


def hours_until(moment: str, now: str) -> float:
    return (datetime.fromisoformat(moment) - datetime.fromisoformat(now)).total_seconds() / 3600


def age_on(birth_date: str, day: str) -> int:
    born, then = date.fromisoformat(birth_date), date.fromisoformat(day)
    return then.year - born.year - ((then.month, then.day) < (born.month, born.day))


def add_months(day: str, months: int) -> str:
    start = date.fromisoformat(day[:10])
    month = start.month - 1 + months
    year, month = start.year + month // 12, month % 12 + 1
    for last in (31, 30, 29, 28):
        try:
            return date(year, month, min(start.day, last)).isoformat()
        except ValueError:
            continue
    raise ValueError(day)


# ----------------------------------------------------------------------------------------------- tickets


def cancel_problem(ticket: Record, game: Record, now: str) -> Problem:
    if ticket["status"] != "active":
        return "ticket-active", f"ticket {ticket['ticket_id']} is {ticket['status']}, not active"
    if game["status"] == "postponed":
        return None
    if game["status"] == "completed" or hours_until(game["tip_off"], now) < CANCEL_CLOSE_HOURS:
        return "cancel-window", (
            f"tickets cannot be cancelled within {CANCEL_CLOSE_HOURS} hours of tip-off "
            f"(game {game['game_id']} tips off {game['tip_off']})"
        )
    return None


def refund_for(ticket: Record, game: Record, now: str) -> float:
    """What a cancellation refunds: everything for a postponed or rescheduled game; otherwise the
    seat price less the notice fee (10 % with 7 days' notice or more, else 25 %), service fee kept."""
    if game["status"] in DISRUPTED:
        return cents(ticket["total_paid"])
    rate = (
        FEE_WITH_FULL_NOTICE
        if hours_until(game["tip_off"], now) >= FULL_NOTICE_HOURS
        else FEE_WITH_SHORT_NOTICE
    )
    return cents(ticket["unit_price"] * ticket["quantity"] * (1 - rate))


def on_sale_problem(game: Record, now: str) -> Problem:
    if game["status"] not in ON_SALE or hours_until(game["tip_off"], now) <= 0:
        return "game-on-sale", f"game {game['game_id']} is {game['status']} and not on sale"
    return None


def seats_problem(game: Record, section: str, quantity: int) -> Problem:
    left = game["sections"][section]["seats_left"]
    if left < quantity:
        return "seats", f"only {left} seats left in the {section} section of game {game['game_id']}"
    return None


def purchase_problem(game: Record, section: str, quantity: int, already: int, now: str) -> Problem:
    """`already`: seats of active tickets the account holds for the game."""
    if not 1 <= quantity <= MAX_TICKETS_PER_GAME:
        return "ticket-limit", f"quantity must be between 1 and {MAX_TICKETS_PER_GAME}"
    if already + quantity > MAX_TICKETS_PER_GAME:
        return "ticket-limit", (
            f"an account may hold at most {MAX_TICKETS_PER_GAME} tickets for one game; "
            f"it already holds {already} for game {game['game_id']}"
        )
    return on_sale_problem(game, now) or seats_problem(game, section, quantity)


def exchange_problem(ticket: Record, old: Record, new: Record, now: str) -> Problem:
    if ticket["status"] != "active":
        return "ticket-active", f"ticket {ticket['ticket_id']} is {ticket['status']}, not active"
    if old["status"] not in DISRUPTED:
        return "exchange-disrupted", (
            f"only tickets for a postponed or rescheduled game can be exchanged; game {old['game_id']} is "
            f"{old['status']}"
        )
    if ticket.get("exchanged_from"):
        return "exchange-once", f"ticket {ticket['ticket_id']} was already exchanged once"
    if new["game_id"] == old["game_id"] or new["home_team"] != old["home_team"]:
        return "exchange-same-team", (f"the new game must be another home game of the {old['home_team']}")
    return on_sale_problem(new, now) or seats_problem(new, ticket["section"], ticket["quantity"])


# ------------------------------------------------------------------------------------------------ paying


def payment_problem(methods: dict[str, Record], payment_method_id: str, amount: float) -> Problem:
    method = methods.get(payment_method_id)
    if method is None:
        return "payment", f"payment method {payment_method_id} is not on the account"
    if method["source"] == "gift_card" and method["balance"] < amount:
        return "payment", (
            f"gift card {payment_method_id} has a balance of {method['balance']}, less than {amount}"
        )
    return None


# --------------------------------------------------------------------------------------- season passes


def pause_problem(season_pass: Record, months: int) -> Problem:
    if months not in PAUSE_MONTHS:
        return "pause-length", "a pause lasts 1 or 2 months"
    if season_pass["status"] != "active":
        return "pause-active", f"season pass {season_pass['pass_id']} is {season_pass['status']}, not active"
    if season_pass["tier"] == "courtside":
        return "pause-courtside", "courtside season passes cannot be paused"
    if season_pass["pauses_used"] >= 1:
        return (
            "pause-once",
            f"season pass {season_pass['pass_id']} has already used its one pause this season",
        )
    return None


# ---------------------------------------------------------------------------------------------- returns


def return_problem(order: Record, item_ids: list[str], now: str) -> Problem:
    if order["status"] != "delivered":
        return (
            "return-delivered",
            f"order {order['order_id']} is {order['status']}; only delivered orders can be returned",
        )
    deadline = datetime.fromisoformat(order["delivered_at"]) + timedelta(days=RETURN_DAYS)
    if datetime.fromisoformat(now) > deadline:
        return "return-window", (
            f"the {RETURN_DAYS}-day return window of order {order['order_id']} closed on {deadline.date()}"
        )
    if not item_ids or len(set(item_ids)) != len(item_ids):
        return "return-items", "list each item to return once"
    lines = {line["item_id"]: line for line in order["items"]}
    for item_id in item_ids:
        line = lines.get(item_id)
        if line is None:
            return "return-items", f"item {item_id} is not in order {order['order_id']}"
        if line["status"] != "ordered":
            return "return-items", f"item {item_id} was already returned"
        if line["personalized"]:
            return "return-personalized", f"item {item_id} is personalized and final sale"
    return None


# ------------------------------------------------------------------------------------------------ camps


def registration_problem(
    account: Record, camp: Record, player_name: str, taken: list[str], now: str
) -> Problem:
    """`taken`: names of players with a confirmed registration for this camp."""
    player = next((p for p in account["players"] if p["name"].lower() == player_name.lower()), None)
    if player is None:
        return "camp-player", f"{player_name} is not a youth player on account {account['account_id']}"
    if camp["status"] != "open" or camp["start_date"] <= now[:10]:
        return "camp-open", f"registration for camp {camp['camp_id']} is closed"
    age = age_on(player["birth_date"], camp["start_date"])
    if not camp["min_age"] <= age <= camp["max_age"]:
        return "camp-age", (
            f"{player['name']} will be {age} on {camp['start_date']}; camp {camp['camp_id']} is for ages "
            f"{camp['min_age']} to {camp['max_age']}"
        )
    if player["name"].lower() in (name.lower() for name in taken):
        return "camp-duplicate", f"{player['name']} is already registered for camp {camp['camp_id']}"
    if camp["enrolled"] >= camp["capacity"]:
        return "camp-full", f"camp {camp['camp_id']} is full"
    return None
