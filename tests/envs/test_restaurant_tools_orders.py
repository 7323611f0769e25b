"""Restaurant tools, orders and loyalty points: cancel_order and redeem_points with each of their
errors, the transfer and the shared utility tools; a failed call changes nothing. The tools agree
with the Tracer's policy check."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.restaurant import DOMAIN
from taue.envs.restaurant.policy_check import (
    OPENING_HOURS,
    ORDER_OPEN,
    PARTY_SIZE,
    POINTS,
    RESERVATION_OPEN,
    check_policy,
)
from taue.envs.restaurant.rules import CLOCK
from taue.envs.restaurant.seed_view import load
from tests.envs.test_restaurant_tools import GUESTS, ORDERS, RESERVATIONS, row
from tests.envs.tool_harness import ToolHarness

Record = dict[str, Any]
TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails
db = TOOLS.database_fixture()
VIEW = load(DOMAIN.seed)


def order_where(predicate: Callable[[Record], bool]) -> Record:
    return next(o for _, o in sorted(ORDERS.items()) if predicate(o))


def balance(order: Record) -> int:
    return GUESTS[order["guest_id"]]["points"]


OPEN = order_where(lambda o: o["status"] == "received" and o["subtotal"] >= 20 and balance(o) >= 300)
STARTED = ("preparing", "ready", "out_for_delivery", "completed", "cancelled")


def refused(order: Record) -> str:
    return (
        f"order {order['order_id']} is {order['status'].replace('_', ' ')}; "
        "only orders whose preparation has not started can be changed"
    )


# --------------------------------------------------------------------------------------- cancel_order


async def test_cancel_order_refunds_the_amount_paid(db) -> None:
    done = json.loads(await ok(db, "cancel_order", order_id=OPEN["order_id"]))
    refund = {
        "amount": OPEN["total"],
        "payment_method_id": OPEN["payment_method_id"],
        "at": CLOCK,
        "reason": "cancelled by guest",
    }
    assert done["status"] == "cancelled" and done["refunds"] == [*OPEN["refunds"], refund]


async def test_cancel_order_returns_redeemed_points(db) -> None:
    await ok(db, "redeem_points", order_id=OPEN["order_id"], points=200)
    assert row(db, "guests", OPEN["guest_id"])["points"] == balance(OPEN) - 200
    done = json.loads(await ok(db, "cancel_order", order_id=OPEN["order_id"]))
    assert row(db, "guests", OPEN["guest_id"])["points"] == balance(OPEN)
    assert sum(r["amount"] for r in done["refunds"]) == OPEN["total"]


async def test_cancel_order_errors(db) -> None:
    await fails(db, "cancel_order", "order 'O1' not found", order_id="O1")
    for status in STARTED:
        order = order_where(lambda o, s=status: o["status"] == s)
        await fails(db, "cancel_order", refused(order), order_id=order["order_id"])


# -------------------------------------------------------------------------------------- redeem_points


async def test_redeem_points_takes_five_dollars_per_hundred_points_off(db) -> None:
    done = json.loads(await ok(db, "redeem_points", order_id=OPEN["order_id"], points=300))
    assert done["points_redeemed"] == 300 and done["discount"] == OPEN["discount"] + 15.0
    assert done["total"] == OPEN["total"] - 15.0
    assert done["refunds"][-1] == {
        "amount": 15.0,
        "payment_method_id": OPEN["payment_method_id"],
        "at": CLOCK,
        "reason": "300 loyalty points redeemed",
    }
    assert row(db, "guests", OPEN["guest_id"])["points"] == balance(OPEN) - 300


async def test_redeem_points_errors(db) -> None:
    oid = OPEN["order_id"]
    await fails(db, "redeem_points", "order 'O1' not found", order_id="O1", points=100)
    for points in (50, 150, 0):
        await fails(
            db, "redeem_points", "points are redeemed in multiples of 100", order_id=oid, points=points
        )
    over = (balance(OPEN) // 100 + 1) * 100
    await fails(db, "redeem_points", f"the guest has only {balance(OPEN)} points", order_id=oid, points=over)
    rich = order_where(
        lambda o: o["status"] == "received" and balance(o) >= 100 * (int(o["subtotal"]) // 5 + 1)
    )
    points = 100 * (int(rich["subtotal"]) // 5 + 1)
    await fails(
        db,
        "redeem_points",
        f"${points // 20:.2f} exceeds the food subtotal of order {rich['order_id']}",
        order_id=rich["order_id"],
        points=points,
    )
    for status in STARTED:
        order = order_where(lambda o, s=status: o["status"] == s)
        await fails(db, "redeem_points", refused(order), order_id=order["order_id"], points=100)


async def test_points_are_redeemed_once_per_order(db) -> None:
    await ok(db, "redeem_points", order_id=OPEN["order_id"], points=100)
    await fails(
        db,
        "redeem_points",
        f"points were already redeemed on order {OPEN['order_id']}",
        order_id=OPEN["order_id"],
        points=100,
    )


# -------------------------------------------------------------------------------------- other tools


async def test_transfer_ends_the_conversation_and_utilities_work(db) -> None:
    assert (
        await ok(db, "transfer_to_human_agents", summary="Guest disputes a no-show fee.")
        == "Transfer successful"
    )
    assert "transfer_to_human_agents" in DOMAIN.terminal_tools
    assert DOMAIN.write_tools == {
        "book_reservation",
        "modify_reservation",
        "cancel_reservation",
        "cancel_order",
        "redeem_points",
    }


async def test_calculate_and_think(db) -> None:
    assert await ok(db, "calculate", expression="(4 * 15) - 2 * 10") == "40.0"
    assert await ok(db, "think", thought="The deposit covers the fee.") == ""


# ------------------------------------------------------------------------ tools and policy check agree


async def test_the_policy_check_and_the_tools_agree_on_refused_writes(db) -> None:
    no_show = next(r for _, r in sorted(RESERVATIONS.items()) if r["status"] == "no_show")
    started = next(o for _, o in sorted(ORDERS.items()) if o["status"] == "preparing")
    future = next(
        r for _, r in sorted(RESERVATIONS.items()) if r["status"] == "booked" and r["date"] > "2025-06-20"
    )
    cases = [
        (
            Action(name="cancel_reservation", arguments={"reservation_id": no_show["reservation_id"]}),
            RESERVATION_OPEN,
        ),
        (Action(name="cancel_order", arguments={"order_id": started["order_id"]}), ORDER_OPEN),
        (Action(name="redeem_points", arguments={"order_id": OPEN["order_id"], "points": 100000}), POINTS),
        (Action(name="modify_reservation", arguments={**_seat(future), "party_size": 40}), PARTY_SIZE),
        (Action(name="modify_reservation", arguments={**_seat(future), "time": "23:30"}), OPENING_HOURS),
    ]
    for action, rule in cases:
        assert check_policy(VIEW, action) == [rule]
        result = await call(db, action.name, **action.arguments)
        assert not result.ok, action


async def test_the_policy_check_allows_what_the_tools_do(db) -> None:
    allowed = [
        Action(name="cancel_order", arguments={"order_id": OPEN["order_id"]}),
        Action(name="redeem_points", arguments={"order_id": OPEN["order_id"], "points": 100}),
    ]
    for action in allowed:
        assert check_policy(VIEW, action) == []
        fresh = DOMAIN.new_database()
        try:
            await ok(fresh, action.name, **action.arguments)
        finally:
            fresh.close()


def _seat(booking: Record) -> dict[str, Any]:
    return {key: booking[key] for key in ("reservation_id", "date", "time", "party_size")}
