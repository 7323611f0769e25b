"""Movie tools: reads return what the seed holds; every write's success path and each of its error
paths (unknown ids, policy rules, wrong states), a failed write leaving the database unchanged."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from taue.envs.movie import DOMAIN
from taue.envs.movie.models import Account, Film, Order, Showtime, Theatre, all_seats, seat_type
from taue.envs.movie.policy_check import check_policy
from taue.envs.movie.tracer import TRACER
from tests.envs.seed_rows import seed_rows
from tests.envs.tool_harness import ToolHarness

Record = dict[str, Any]
ROWS = seed_rows(DOMAIN)
ACCOUNTS: dict[str, Record] = {r.account_id: r.to_record() for r in ROWS if isinstance(r, Account)}
ORDERS: dict[str, Record] = {r.order_id: r.to_record() for r in ROWS if isinstance(r, Order)}
SHOWS: dict[str, Record] = {r.showtime_id: r.to_record() for r in ROWS if isinstance(r, Showtime)}
FILMS: dict[str, Record] = {r.film_id: r.to_record() for r in ROWS if isinstance(r, Film)}
THEATRES = [r.to_record() for r in ROWS if isinstance(r, Theatre)]
NOW = DOMAIN.clock
LATER = "2025-03-14T14:00:00"
"""Shows starting at or after this moment are outside the two-hour cut-off."""

TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails
db = TOOLS.database_fixture()


def read(db, table: str, key: str) -> Record:
    keys = {"accounts": "account_id", "orders": "order_id", "showtimes": "showtime_id"}
    rows = json.loads(db.canonical_state())[table]
    return next(row for row in rows if row[keys[table]] == key)


def account_where(predicate: Callable[[Record], bool]) -> Record:
    return next(a for _, a in sorted(ACCOUNTS.items()) if predicate(a))


def member(tier: str | None = None, status: str = "active") -> Callable[[Record], bool]:
    def test(account: Record) -> bool:
        m = account["membership"]
        return bool(m) and m["status"] == status and (tier is None or m["tier"] == tier)

    return test


def card_of(account: Record) -> str:
    return next(k for k, v in sorted(account["payment_methods"].items()) if v["type"] == "credit_card")


def order_where(predicate: Callable[[Record], bool]) -> Record:
    return next(o for _, o in sorted(ORDERS.items()) if predicate(o))


def upcoming(order: Record) -> bool:
    return order["status"] == "confirmed" and SHOWS[order["showtime_id"]]["starts_at"] >= LATER


def show_where(predicate: Callable[[Record], bool]) -> Record:
    return next(s for _, s in sorted(SHOWS.items()) if s["starts_at"] > NOW and predicate(s))


def free(show: Record, count: int, kind: str = "standard") -> list[str]:
    seats = [s for s in all_seats() if s not in show["sold_seats"] and seat_type(s) == kind]
    return seats[:count]


def roomy(count: int = 10) -> Callable[[Record], bool]:
    return lambda s: len(free(s, count)) == count and len(free(s, 2, "premium")) == 2


NON_MEMBER = account_where(lambda a: not a["membership"])
PLUS = account_where(member("plus"))
PREMIERE_WITH_CREDITS = account_where(lambda a: member("premiere")(a) and a["membership"]["credits"] >= 2)
SHOW = show_where(roomy())


# ------------------------------------------------------------------------------------------- reads


async def test_find_account_by_email_phone(db):
    account = ACCOUNTS[sorted(ACCOUNTS)[7]]
    digits = "".join(c for c in account["phone"] if c.isdigit())
    assert (
        await ok(db, "find_account_by_email_phone", email=account["email"].upper(), phone=digits)
        == (account["account_id"])
    )
    other = ACCOUNTS[sorted(ACCOUNTS)[8]]
    message = "no account matches that email address and phone number"
    await fails(db, "find_account_by_email_phone", message, email=account["email"], phone=other["phone"])
    await fails(db, "find_account_by_email_phone", message, email="nobody@example.com", phone=other["phone"])


async def test_get_account_details(db):
    found = json.loads(await ok(db, "get_account_details", account_id=PLUS["account_id"]))
    assert found["orders"] == PLUS["orders"] and found["payment_methods"] == PLUS["payment_methods"]
    assert found["membership"] == {"tier": "plus", "status": "active"}
    bare = json.loads(await ok(db, "get_account_details", account_id=NON_MEMBER["account_id"]))
    assert bare["membership"] == {"tier": None}
    await fails(db, "get_account_details", "account LM000000 not found", account_id="LM000000")


async def test_get_membership_details(db):
    found = json.loads(await ok(db, "get_membership_details", account_id=PLUS["account_id"]))
    assert found["membership"] == PLUS["membership"]
    assert (
        found["plans"]["premiere"]["monthly_fee"] == 21.99 and found["plans"]["plus"]["monthly_credits"] == 2
    )
    bare = json.loads(await ok(db, "get_membership_details", account_id=NON_MEMBER["account_id"]))
    assert bare["membership"] is None
    await fails(db, "get_membership_details", "account LM000000 not found", account_id="LM000000")


async def test_get_order_details(db):
    order = order_where(upcoming)
    found = json.loads(await ok(db, "get_order_details", order_id=order["order_id"]))
    show = SHOWS[order["showtime_id"]]
    assert found["seats"] == order["seats"] and found["amount_charged"] == order["amount_charged"]
    assert found["show"]["starts_at"] == show["starts_at"]
    assert found["show"]["film_title"] == FILMS[show["film_id"]]["title"]
    await fails(db, "get_order_details", "order LO-1 not found", order_id="LO-1")


async def test_list_theatres(db):
    found = json.loads(await ok(db, "list_theatres"))
    assert found == sorted(THEATRES, key=lambda t: t["theatre_id"]) and len(found) == 5
    assert {t["theatre_id"] for t in found} == {"harborview", "maplewood", "foundry", "riverside", "summit"}


async def test_search_showtimes(db):
    day, theatre = SHOW["starts_at"][:10], SHOW["theatre_id"]
    found = json.loads(await ok(db, "search_showtimes", theatre_id=theatre, date=day))
    expected = [s for s in SHOWS.values() if s["theatre_id"] == theatre and s["starts_at"].startswith(day)]
    assert {s["showtime_id"] for s in found} == {s["showtime_id"] for s in expected}
    assert [s["starts_at"] for s in found] == sorted(s["starts_at"] for s in found)
    title = FILMS[SHOW["film_id"]]["title"]
    only = json.loads(
        await ok(db, "search_showtimes", theatre_id=theatre, date=day, film_title=title.lower()[:6])
    )
    assert only and all(s["film_title"].lower().startswith(title.lower()[:6]) for s in only)
    listed = next(s for s in found if s["showtime_id"] == SHOW["showtime_id"])
    assert listed["prices"] == SHOW["prices"] and listed["seats_left"] == 96 - len(SHOW["sold_seats"])
    today = json.loads(await ok(db, "search_showtimes", theatre_id="harborview", date="2025-03-14"))
    assert {s["on_sale"] for s in today} == {True, False}
    await fails(db, "search_showtimes", "theatre lumen not found", theatre_id="lumen", date=day)


async def test_get_showtime_details(db):
    found = json.loads(await ok(db, "get_showtime_details", showtime_id=SHOW["showtime_id"]))
    open_seats = [s for seats in found["open_seats"].values() for s in seats]
    assert set(open_seats) == set(all_seats()) - set(SHOW["sold_seats"])
    assert all(s[0] in "GH" for s in found["open_seats"]["premium"])
    assert found["starts_at"] == SHOW["starts_at"] and found["theatre_name"].startswith("Lumen ")
    await fails(db, "get_showtime_details", "showtime ST1 not found", showtime_id="ST1")


async def test_transfer_and_shared_tools(db):
    assert await ok(db, "transfer_to_human_agents", summary="lost property") == "Transfer successful"
    assert await ok(db, "calculate", expression="3 * 14.5 + 4.5") == "48.0"
    assert "transfer_to_human_agents" in DOMAIN.terminal_tools


# ---------------------------------------------------------------------------------------- purchase


def buying(account: Record, **changes: Any) -> dict[str, Any]:
    arguments = {
        "account_id": account["account_id"],
        "showtime_id": SHOW["showtime_id"],
        "seats": free(SHOW, 2),
        "payment_id": card_of(account),
        "credits": 0,
    }
    return {**arguments, **changes}


async def test_purchase_without_membership_pays_the_booking_fee(db):
    arguments = buying(NON_MEMBER, seats=[*free(SHOW, 1), *free(SHOW, 1, "premium")])
    new = json.loads(await ok(db, "purchase_tickets", **arguments))
    price = SHOW["prices"]
    assert new["booking_fee"] == 3.0 and new["amount_charged"] == round(2 * price["standard"] + 4.0 + 3.0, 2)
    assert new["status"] == "confirmed" and new["created_at"] == NOW and new["order_id"] not in ORDERS
    assert set(arguments["seats"]) <= set(read(db, "showtimes", SHOW["showtime_id"])["sold_seats"])
    assert read(db, "accounts", NON_MEMBER["account_id"])["orders"][-1] == new["order_id"]


async def test_purchase_with_credits_and_gift_card(db):
    account = PREMIERE_WITH_CREDITS
    new = json.loads(await ok(db, "purchase_tickets", **buying(account, seats=free(SHOW, 3), credits=2)))
    assert new["booking_fee"] == 0.0 and new["credits_used"] == 2
    assert new["amount_charged"] == SHOW["prices"]["standard"]
    stored = read(db, "accounts", account["account_id"])
    assert stored["membership"]["credits"] == account["membership"]["credits"] - 2
    holder = account_where(
        lambda a: (
            not a["membership"] and any(m.get("balance", 0) >= 40 for m in a["payment_methods"].values())
        )
    )
    gift = next(k for k, m in holder["payment_methods"].items() if m.get("balance", 0) >= 40)
    paid = json.loads(
        await ok(db, "purchase_tickets", **buying(holder, seats=free(SHOW, 4)[3:], payment_id=gift))
    )
    balance = read(db, "accounts", holder["account_id"])["payment_methods"][gift]["balance"]
    assert balance == round(holder["payment_methods"][gift]["balance"] - paid["amount_charged"], 2)


async def test_purchase_refuses_unknown_ids_and_closed_shows(db):
    await fails(
        db, "purchase_tickets", "account LM000000 not found", **buying(NON_MEMBER, account_id="LM000000")
    )
    await fails(db, "purchase_tickets", "showtime ST1 not found", **buying(NON_MEMBER, showtime_id="ST1"))
    started = next(s for _, s in sorted(SHOWS.items()) if s["starts_at"] <= NOW)
    message = (
        f"showtime {started['showtime_id']} started at {started['starts_at']}; tickets are no longer on sale"
    )
    await fails(db, "purchase_tickets", message, **buying(NON_MEMBER, showtime_id=started["showtime_id"]))


async def test_purchase_refuses_bad_seat_lists(db):
    await fails(
        db,
        "purchase_tickets",
        "one order holds 1 to 8 seats; 0 were requested",
        **buying(NON_MEMBER, seats=[]),
    )
    nine = free(SHOW, 9)
    await fails(
        db,
        "purchase_tickets",
        "one order holds 1 to 8 seats; 9 were requested",
        **buying(NON_MEMBER, seats=nine),
    )
    message = "seat J4 does not exist; seats are rows A-H, numbers 1-12"
    await fails(db, "purchase_tickets", message, **buying(NON_MEMBER, seats=["J4"]))
    seat = free(SHOW, 1)[0]
    await fails(
        db, "purchase_tickets", f"seat {seat} is listed twice", **buying(NON_MEMBER, seats=[seat, seat])
    )
    sold_show = show_where(lambda s: len(s["sold_seats"]) > 5)
    sold = sold_show["sold_seats"][0]
    message = f"seat {sold} is already sold for showtime {sold_show['showtime_id']}"
    arguments = buying(NON_MEMBER, showtime_id=sold_show["showtime_id"], seats=[sold])
    await fails(db, "purchase_tickets", message, **arguments)


async def test_purchase_refuses_credit_and_payment_problems(db):
    message = "credits must be between 0 and the number of seats (2)"
    await fails(db, "purchase_tickets", message, **buying(PREMIERE_WITH_CREDITS, credits=3))
    message = "ticket credits can only be used with an active membership"
    await fails(db, "purchase_tickets", message, **buying(NON_MEMBER, credits=1))
    lapsed = account_where(lambda a: member(status="past_due")(a) and a["membership"]["credits"] > 0)
    await fails(db, "purchase_tickets", message, **buying(lapsed, credits=1))
    broke = account_where(lambda a: member()(a) and a["membership"]["credits"] == 0)
    await fails(
        db, "purchase_tickets", "the account has only 0 ticket credits left", **buying(broke, credits=1)
    )
    message = f"payment method card_x is not on account {NON_MEMBER['account_id']}"
    await fails(db, "purchase_tickets", message, **buying(NON_MEMBER, payment_id="card_x"))
    holder = account_where(
        lambda a: not a["membership"] and any(m.get("balance") == 5.0 for m in a["payment_methods"].values())
    )
    gift = next(k for k, m in holder["payment_methods"].items() if m.get("balance") == 5.0)
    amount = round(2 * SHOW["prices"]["standard"] + 3.0, 2)
    message = f"gift card {gift} has 5.00 left, not enough for {amount:.2f}"
    await fails(db, "purchase_tickets", message, **buying(holder, payment_id=gift))


# ---------------------------------------------------------------------------------------- exchange


def exchange_target(order: Record, same_film: bool = True) -> Record:
    old = SHOWS[order["showtime_id"]]
    count = len(order["seats"])
    return show_where(
        lambda s: (
            (s["film_id"] == old["film_id"]) == same_film
            and s["showtime_id"] != old["showtime_id"]
            and len(free(s, count)) == count
        )
    )


def exchangeable(paid_by: str = "credit_card", members: bool = False) -> Record:
    def fits(order: Record) -> bool:
        owner = ACCOUNTS[order["account_id"]]
        method = owner["payment_methods"][order["payment_id"]]
        is_member = owner["membership"].get("status") == "active"
        return upcoming(order) and method["type"] == paid_by and is_member == members

    return order_where(fits)


async def test_exchange_to_another_showtime_of_the_same_film(db):
    order = exchangeable()
    target = exchange_target(order)
    seats = free(target, len(order["seats"]))
    changed = json.loads(
        await ok(
            db,
            "exchange_tickets",
            order_id=order["order_id"],
            new_showtime_id=target["showtime_id"],
            seats=seats,
        )
    )
    difference = len(seats) * target["prices"]["standard"] - sum(line["price"] for line in order["seats"])
    charge = round(max(0.0, difference) + 1.5 * len(seats), 2)
    assert changed["showtime_id"] == target["showtime_id"] and [s["seat"] for s in changed["seats"]] == seats
    assert changed["amount_charged"] == round(order["amount_charged"] + charge, 2)
    assert changed["history"][-1] == {
        "event": "exchanged", "at": NOW, "from_showtime": order["showtime_id"], "amount": charge
    }  # fmt: skip
    old_seats = {line["seat"] for line in order["seats"]}
    assert not old_seats & set(read(db, "showtimes", order["showtime_id"])["sold_seats"])
    assert set(seats) <= set(read(db, "showtimes", target["showtime_id"])["sold_seats"])


async def test_members_exchange_without_a_fee(db):
    order = exchangeable(members=True)
    target = show_where(
        lambda s: (
            s["film_id"] == SHOWS[order["showtime_id"]]["film_id"]
            and s["showtime_id"] != order["showtime_id"]
            and s["prices"]["standard"] <= min(line["price"] for line in order["seats"])
            and len(free(s, len(order["seats"]))) == len(order["seats"])
        )
    )
    seats = free(target, len(order["seats"]))
    changed = json.loads(
        await ok(
            db,
            "exchange_tickets",
            order_id=order["order_id"],
            new_showtime_id=target["showtime_id"],
            seats=seats,
        )
    )
    assert changed["amount_charged"] == order["amount_charged"] and changed["history"][-1]["amount"] == 0.0


async def test_exchange_refuses_wrong_orders_and_shows(db):
    await fails(
        db, "exchange_tickets", "order LO-1 not found", order_id="LO-1", new_showtime_id="ST1", seats=[]
    )
    for status in ("completed", "refunded"):
        done = order_where(lambda o, s=status: o["status"] == s)
        message = f"order {done['order_id']} is {status}; only confirmed orders can be exchanged"
        await fails(
            db, "exchange_tickets", message, order_id=done["order_id"], new_showtime_id="ST1", seats=[]
        )
    soon = order_where(lambda o: o["status"] == "confirmed" and SHOWS[o["showtime_id"]]["starts_at"] < LATER)
    starts = SHOWS[soon["showtime_id"]]["starts_at"]
    message = f"exchanges and refunds close 2 hours before the show; this show starts at {starts}"
    await fails(db, "exchange_tickets", message, order_id=soon["order_id"], new_showtime_id="ST1", seats=[])
    order = exchangeable()
    seats = [line["seat"] for line in order["seats"]]
    arguments = {"order_id": order["order_id"], "seats": seats}
    await fails(db, "exchange_tickets", "showtime ST1 not found", new_showtime_id="ST1", **arguments)
    message = "the new showtime is the order's current showtime"
    await fails(db, "exchange_tickets", message, new_showtime_id=order["showtime_id"], **arguments)
    other = exchange_target(order, same_film=False)
    message = "tickets can only be exchanged for another showtime of the same film"
    await fails(db, "exchange_tickets", message, new_showtime_id=other["showtime_id"], **arguments)
    film = SHOWS[order["showtime_id"]]["film_id"]
    started = next(s for _, s in sorted(SHOWS.items()) if s["film_id"] == film and s["starts_at"] <= NOW)
    message = (
        f"showtime {started['showtime_id']} started at {started['starts_at']}; tickets are no longer on sale"
    )
    await fails(db, "exchange_tickets", message, new_showtime_id=started["showtime_id"], **arguments)


async def test_exchange_refuses_wrong_seats_and_short_gift_cards(db):
    order = exchangeable()
    target = exchange_target(order)
    count = len(order["seats"])
    arguments = {"order_id": order["order_id"], "new_showtime_id": target["showtime_id"]}
    message = f"an exchange keeps the number of seats: the order has {count}"
    await fails(db, "exchange_tickets", message, seats=free(target, count + 1), **arguments)
    if target["sold_seats"]:
        seats = [target["sold_seats"][0], *free(target, count - 1)]
        message = f"seat {seats[0]} is already sold for showtime {target['showtime_id']}"
        await fails(db, "exchange_tickets", message, seats=seats, **arguments)
    gifted = order_where(
        lambda o: (
            upcoming(o)
            and ACCOUNTS[o["account_id"]]["payment_methods"][o["payment_id"]].get("balance", 99) < 1.5
            and ACCOUNTS[o["account_id"]]["membership"].get("status") != "active"
        )
    )
    target = exchange_target(gifted)
    seats = free(target, len(gifted["seats"]))
    with_fee = json.dumps(
        {"order_id": gifted["order_id"], "new_showtime_id": target["showtime_id"], "seats": seats}
    )
    result = await call(db, "exchange_tickets", **json.loads(with_fee))
    assert not result.ok and f"gift card {gifted['payment_id']} has" in result.output
    assert "not enough for" in result.output


# ------------------------------------------------------------------------------------------ refund


async def test_refund_without_membership_keeps_fees(db):
    order = order_where(lambda o: upcoming(o) and not ACCOUNTS[o["account_id"]]["membership"])
    refunded = json.loads(await ok(db, "refund_order", order_id=order["order_id"]))
    count = len(order["seats"])
    expected = round(max(0.0, order["amount_charged"] - order["booking_fee"] - 2.0 * count), 2)
    assert refunded["status"] == "refunded" and refunded["refund_amount"] == expected
    assert refunded["history"][-1] == {"event": "refunded", "at": NOW, "amount": expected}
    sold = read(db, "showtimes", order["showtime_id"])["sold_seats"]
    assert not {line["seat"] for line in order["seats"]} & set(sold)


async def test_refund_returns_credits_and_gift_card_money(db):
    order = order_where(
        lambda o: upcoming(o) and o["credits_used"] > 0 and member("premiere")(ACCOUNTS[o["account_id"]])
    )
    owner = ACCOUNTS[order["account_id"]]
    refunded = json.loads(await ok(db, "refund_order", order_id=order["order_id"]))
    assert refunded["refund_amount"] == order["amount_charged"]
    credits = read(db, "accounts", owner["account_id"])["membership"]["credits"]
    assert credits == owner["membership"]["credits"] + order["credits_used"]
    gifted = order_where(
        lambda o: (
            upcoming(o)
            and ACCOUNTS[o["account_id"]]["payment_methods"][o["payment_id"]]["type"] == "gift_card"
        )
    )
    holder = ACCOUNTS[gifted["account_id"]]
    back = json.loads(await ok(db, "refund_order", order_id=gifted["order_id"]))["refund_amount"]
    balance = read(db, "accounts", holder["account_id"])["payment_methods"][gifted["payment_id"]]["balance"]
    assert balance == round(holder["payment_methods"][gifted["payment_id"]]["balance"] + back, 2)


async def test_refund_refuses_unknown_finished_and_late_orders(db):
    await fails(db, "refund_order", "order LO-1 not found", order_id="LO-1")
    for status in ("completed", "refunded"):
        done = order_where(lambda o, s=status: o["status"] == s)
        message = f"order {done['order_id']} is {status}; only confirmed orders can be refunded"
        await fails(db, "refund_order", message, order_id=done["order_id"])
    soon = order_where(lambda o: o["status"] == "confirmed" and SHOWS[o["showtime_id"]]["starts_at"] < LATER)
    starts = SHOWS[soon["showtime_id"]]["starts_at"]
    message = f"exchanges and refunds close 2 hours before the show; this show starts at {starts}"
    await fails(db, "refund_order", message, order_id=soon["order_id"])


# -------------------------------------------------------------------------------------- membership


def settled(tier: str) -> Record:
    """An active member of `tier` whose last tier change is 30 or more days ago and who joined 90 or
    more days ago."""
    return account_where(
        lambda a: (
            member(tier)(a)
            and a["membership"]["tier_changed_on"] <= "2025-02-12"
            and a["membership"]["member_since"] <= "2024-12-14"
        )
    )


async def test_upgrade_adds_credits_and_downgrade_caps_them(db):
    plus = settled("plus")
    changed = json.loads(
        await ok(db, "change_membership", account_id=plus["account_id"], new_plan="premiere")
    )
    expected = {
        **plus["membership"], "tier": "premiere", "tier_changed_on": "2025-03-14", "monthly_fee": 21.99,
        "credits": plus["membership"]["credits"] + 2,
    }  # fmt: skip
    assert changed["membership"] == expected
    assert read(db, "accounts", plus["account_id"])["membership"] == expected
    premiere = account_where(
        lambda a: (
            member("premiere")(a)
            and a["membership"]["tier_changed_on"] <= "2025-02-12"
            and a["membership"]["credits"] > 2
        )
    )
    changed = json.loads(
        await ok(db, "change_membership", account_id=premiere["account_id"], new_plan="plus")
    )
    assert changed["membership"]["credits"] == min(premiere["membership"]["credits"], 2)
    assert changed["membership"]["monthly_fee"] == 11.99


async def test_cancel_after_the_minimum_term_forfeits_credits(db):
    plus = settled("plus")
    changed = json.loads(await ok(db, "change_membership", account_id=plus["account_id"], new_plan="cancel"))
    cancelled = {"status": "cancelled", "cancelled_on": "2025-03-14", "credits": 0}
    assert changed["membership"] == {**plus["membership"], **cancelled}


async def test_membership_changes_refused_by_state(db):
    await fails(db, "change_membership", "account LM000000 not found", account_id="LM000000", new_plan="plus")
    bare = NON_MEMBER["account_id"]
    message = f"account {bare} has no membership; new memberships are sold at the box office"
    await fails(db, "change_membership", message, account_id=bare, new_plan="plus")
    gone = account_where(member(status="cancelled"))
    message = f"the membership was cancelled on {gone['membership']['cancelled_on']}"
    await fails(db, "change_membership", message, account_id=gone["account_id"], new_plan="premiere")
    late = account_where(member(status="past_due"))
    message = "the membership has an overdue monthly fee; it must be paid before any change"
    await fails(db, "change_membership", message, account_id=late["account_id"], new_plan="cancel")
    plus = settled("plus")
    await fails(
        db,
        "change_membership",
        "the membership is already plus",
        account_id=plus["account_id"],
        new_plan="plus",
    )


async def test_membership_changes_refused_by_time_rules(db):
    fresh = account_where(lambda a: member()(a) and a["membership"]["tier_changed_on"] > "2025-02-12")
    changed_on = fresh["membership"]["tier_changed_on"]
    other = "plus" if fresh["membership"]["tier"] == "premiere" else "premiere"
    first = date_of(changed_on, 30)
    message = f"the tier changed on {changed_on}; the next change is possible on {first}"
    await fails(db, "change_membership", message, account_id=fresh["account_id"], new_plan=other)
    new = account_where(lambda a: member()(a) and a["membership"]["member_since"] > "2024-12-14")
    first = date_of(new["membership"]["member_since"], 90)
    message = f"the 90-day minimum term runs until {first}; the membership cannot be cancelled before"
    await fails(db, "change_membership", message, account_id=new["account_id"], new_plan="cancel")


def date_of(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


# ------------------------------------------------------------------------------ policy as code


async def test_the_policy_check_and_the_tools_agree_on_grounded_writes():
    """Every intent's write, grounded for some guests: the tool accepts it exactly when the policy
    check finds no broken rule (challenges are refused by both)."""
    view = TRACER.load(DOMAIN.seed)
    guests = TRACER.customers(view)[:60:10]
    for intent in TRACER.intents:
        for index, guest in enumerate(guests):
            grounded = intent.ground(view, guest, random.Random(index))
            if grounded is None or grounded.write is None:
                continue
            broken = check_policy(view, grounded.write)
            database = DOMAIN.new_database()
            result = await call(database, grounded.write.name, **grounded.write.arguments)
            database.close()
            assert result.ok == (not broken), (intent.name, result.output, broken)
            assert bool(broken) == intent.challenge, intent.name
