"""Restaurant tools, reads and reservations: every tool's success and each of its errors; a failed
call changes nothing. Orders, points and the utility tools are in test_restaurant_tools_orders.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from taue.envs.restaurant import DOMAIN
from taue.envs.restaurant.generate import generate
from taue.envs.restaurant.models import Guest, Location, Order, Reservation
from tests.envs.tool_harness import ToolHarness

Record = dict[str, Any]
ROWS = generate(DOMAIN.seed)
GUESTS: dict[str, Record] = {r.guest_id: r.to_record() for r in ROWS if isinstance(r, Guest)}
LOCATIONS: dict[str, Record] = {r.location_id: r.to_record() for r in ROWS if isinstance(r, Location)}
RESERVATIONS: dict[str, Record] = {
    r.reservation_id: r.to_record() for r in ROWS if isinstance(r, Reservation)
}
ORDERS: dict[str, Record] = {r.order_id: r.to_record() for r in ROWS if isinstance(r, Order)}
TODAY = DOMAIN.clock[:10]

TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails
db = TOOLS.database_fixture()


def booking_where(predicate: Callable[[Record], bool]) -> Record:
    return next(r for _, r in sorted(RESERVATIONS.items()) if predicate(r))


def tier_of(booking: Record) -> str:
    return GUESTS[booking["guest_id"]]["tier"]


KEYS = {
    "guests": "guest_id",
    "locations": "location_id",
    "menu_items": "item_id",
    "orders": "order_id",
    "reservations": "reservation_id",
}


def row(db, table: str, key: str) -> Record:
    """One row of the episode's canonical state."""
    rows = json.loads(db.canonical_state())[table]
    return next(r for r in rows if r[KEYS[table]] == key)


def card_of(guest_id: str) -> str:
    return GUESTS[guest_id]["payment_methods"][0]["payment_method_id"]


def guest_where(predicate: Callable[[Record], bool]) -> Record:
    return next(g for _, g in sorted(GUESTS.items()) if predicate(g))


FUTURE = booking_where(
    lambda r: r["status"] == "booked" and r["date"] >= "2025-06-20" and r["party_size"] < 7
)
MEMBER = guest_where(lambda g: g["tier"] == "member")
GOLD = guest_where(lambda g: g["tier"] == "gold")


# ------------------------------------------------------------------------------------------ find_guest


async def test_find_guest_by_phone_in_any_format_and_by_email(db) -> None:
    guest = MEMBER
    digits = guest["phone"].replace("-", "")
    for phone in (guest["phone"], f"({digits[:3]}) {digits[3:6]} {digits[6:]}", f"+1 {digits}"):
        assert json.loads(await ok(db, "find_guest", phone=phone)) == guest
    assert json.loads(await ok(db, "find_guest", email=guest["email"].upper())) == guest
    assert json.loads(await ok(db, "find_guest", phone=guest["phone"], email=guest["email"])) == guest


async def test_find_guest_errors(db) -> None:
    other = guest_where(lambda g: g["guest_id"] != MEMBER["guest_id"])
    await fails(db, "find_guest", "give the guest's phone number or email")
    await fails(db, "find_guest", "invalid phone number '555-12': give the 10-digit number", phone="555-12")
    await fails(db, "find_guest", "no guest found with that phone number or email", phone="100-000-0000")
    await fails(
        db, "find_guest", "no guest found with that phone number or email", email="nobody@none.example"
    )
    await fails(
        db,
        "find_guest",
        "the phone number and the email belong to different guests",
        phone=MEMBER["phone"],
        email=other["email"],
    )


# ------------------------------------------------------------------------------------ reading records


async def test_get_reservation_details_returns_the_seed_record_and_the_location_name(db) -> None:
    found = json.loads(await ok(db, "get_reservation_details", reservation_id=FUTURE["reservation_id"]))
    assert found == {**FUTURE, "location_name": LOCATIONS[FUTURE["location_id"]]["name"]}
    await fails(db, "get_reservation_details", "reservation 'R1' not found", reservation_id="R1")


async def test_get_order_details_lists_each_items_allergens(db) -> None:
    order = next(o for _, o in sorted(ORDERS.items()) if any(i["name"] == "Tiramisu" for i in o["items"]))
    found = json.loads(await ok(db, "get_order_details", order_id=order["order_id"]))
    tiramisu = next(i for i in found["items"] if i["name"] == "Tiramisu")
    assert tiramisu["allergens"] == ["dairy", "egg", "gluten"]
    assert {k: v for k, v in found.items() if k not in ("items", "location_name")} == {
        k: v for k, v in order.items() if k != "items"
    }
    assert found["location_name"] == LOCATIONS[order["location_id"]]["name"]
    await fails(db, "get_order_details", "order 'O1' not found", order_id="O1")


# -------------------------------------------------------------------------------- check_availability


async def test_check_availability_lists_free_half_hour_seatings_until_the_last_seating(db) -> None:
    found = json.loads(
        await ok(db, "check_availability", location_id="riverside", date="2025-06-20", party_size=2)
    )
    assert found["hours"] == {"open": "17:00", "close": "22:30"} and found["weekday"] == "friday"
    assert found["largest_party"] == 12
    assert set(found["available_times"]) <= {
        "17:00",
        "17:30",
        "18:00",
        "18:30",
        "19:00",
        "19:30",
        "20:00",
        "20:30",
        "21:00",
    }
    assert found["available_times"] and found["available_times"][-1] <= "21:00"


async def test_check_availability_hides_taken_tables_past_times_and_closed_days(db) -> None:
    closed = json.loads(
        await ok(db, "check_availability", location_id="riverside", date="2025-06-17", party_size=2)
    )
    assert closed["hours"] == "closed" and closed["available_times"] == []
    today = json.loads(await ok(db, "check_availability", location_id="midtown", date=TODAY, party_size=2))
    assert all(t > "15:00" for t in today["available_times"])
    big = booking_where(
        lambda r: r["status"] == "booked" and r["location_id"] == "riverside" and r["party_size"] > 6
    )
    full = json.loads(
        await ok(
            db, "check_availability", location_id="riverside", date=big["date"], party_size=big["party_size"]
        )
    )
    assert big["time"] not in full["available_times"]


async def test_check_availability_errors(db) -> None:
    await fails(
        db,
        "check_availability",
        "location 'downtown' not found",
        location_id="downtown",
        date="2025-06-20",
        party_size=2,
    )
    await fails(
        db,
        "check_availability",
        "invalid date '20/06/2025': use YYYY-MM-DD",
        location_id="midtown",
        date="20/06/2025",
        party_size=2,
    )
    await fails(
        db,
        "check_availability",
        "party size must be at least 1",
        location_id="midtown",
        date="2025-06-20",
        party_size=0,
    )
    await fails(
        db,
        "check_availability",
        "a party of 9 exceeds the largest table at Olive & Ember Midtown (8 seats); "
        "larger groups are arranged by the events team",
        location_id="midtown",
        date="2025-06-20",
        party_size=9,
    )


# ---------------------------------------------------------------------------------- book_reservation


def booking(guest: Record = MEMBER, **changes: Any) -> dict[str, Any]:
    fields = {
        "guest_id": guest["guest_id"],
        "location_id": "riverside",
        "date": "2025-06-27",
        "time": "18:00",
        "party_size": 4,
        "payment_method_id": card_of(guest["guest_id"]),
    }
    return {**fields, **changes}


async def test_book_reservation_seats_the_party_and_lists_the_booking_on_the_profile(db) -> None:
    made = json.loads(await ok(db, "book_reservation", **booking()))
    assert made["status"] == "booked" and made["deposit"] == 0.0 and made["charges"] == []
    assert made["created_at"] == DOMAIN.clock and made["party_size"] == 4
    seats = {t["table_id"]: t["seats"] for t in LOCATIONS["riverside"]["tables"]}
    assert seats[made["table_id"]] >= 4
    profile = row(db, "guests", MEMBER["guest_id"])
    assert profile["reservations"] == [*MEMBER["reservations"], made["reservation_id"]]
    assert made["reservation_id"] not in RESERVATIONS


async def test_book_reservation_charges_a_deposit_from_eight_guests(db) -> None:
    made = json.loads(await ok(db, "book_reservation", **booking(party_size=9)))
    card = card_of(MEMBER["guest_id"])
    assert made["deposit"] == 135.0
    assert made["charges"] == [
        {"kind": "deposit", "amount": 135.0, "payment_method_id": card, "at": DOMAIN.clock}
    ]


async def test_book_reservation_gives_away_the_last_table_only_once(db) -> None:
    day = await free_big_table_day(db)
    await ok(db, "book_reservation", **booking(party_size=12, date=day))
    await fails(
        db,
        "book_reservation",
        f"no table for 11 is free at Olive & Ember Riverside on {day} at 19:00",
        **booking(GOLD, party_size=11, date=day, time="19:00"),
    )


async def free_big_table_day(db) -> str:
    """A Friday or Saturday when Riverside's 12-seat table is free at 18:00 and 19:00 and neither test
    guest has a booking."""
    busy = {RESERVATIONS[r]["date"] for g in (MEMBER, GOLD) for r in g["reservations"]}
    for day in (
        "2025-06-27",
        "2025-07-04",
        "2025-07-11",
        "2025-07-18",
        "2025-07-25",
        "2025-06-28",
        "2025-07-05",
    ):
        listed = json.loads(
            await ok(db, "check_availability", location_id="riverside", date=day, party_size=12)
        )
        if day not in busy and {"18:00", "19:00"} <= set(listed["available_times"]):
            return day
    raise LookupError("no free day for the big table")


async def test_a_guest_holds_one_table_at_a_time(db) -> None:
    made = json.loads(await ok(db, "book_reservation", **booking(date="2025-07-04")))
    held = f"reservation {made['reservation_id']} at 18:00"
    message = f"the guest already holds {held} that day; bookings may not overlap"
    await fails(
        db, "book_reservation", message, **booking(location_id="midtown", date="2025-07-04", time="19:30")
    )
    later = json.loads(
        await ok(db, "book_reservation", **booking(location_id="midtown", date="2025-07-04", time="20:00"))
    )
    await fails(
        db,
        "modify_reservation",
        message,
        reservation_id=later["reservation_id"],
        date="2025-07-04",
        time="19:00",
        party_size=4,
    )


async def test_gold_members_book_further_ahead(db) -> None:
    day = "2025-08-20"  # 69 days ahead
    await fails(
        db,
        "book_reservation",
        f"{day} is beyond the 60-day booking window for member guests",
        **booking(date=day),
    )
    made = json.loads(await ok(db, "book_reservation", **booking(GOLD, date=day)))
    assert made["guest_id"] == GOLD["guest_id"]


async def test_book_reservation_errors(db) -> None:
    errors = [
        ({"guest_id": "G1"}, "guest 'G1' not found"),
        (
            {"payment_method_id": "pm_000000"},
            f"card 'pm_000000' is not on guest {MEMBER['guest_id']}'s profile",
        ),
        ({"location_id": "downtown"}, "location 'downtown' not found"),
        ({"date": "2025-6-27"}, "invalid date '2025-6-27': use YYYY-MM-DD"),
        ({"time": "7pm"}, "invalid time '7pm': use HH:MM on the hour or half hour"),
        (
            {"party_size": 13},
            "a party of 13 exceeds the largest table at Olive & Ember Riverside (12 seats); larger "
            "groups are arranged by the events team",
        ),
        ({"date": TODAY, "time": "11:00"}, f"{TODAY} 11:00 is in the past"),
        ({"date": "2025-06-17"}, "Olive & Ember Riverside is closed on Tuesdays"),
        (
            {"time": "21:30"},
            "Olive & Ember Riverside seats guests from 17:00 to 21:00 on Fridays (last seating)",
        ),
        ({"time": "18:15"}, "seatings start on the hour or half hour"),
    ]
    for changes, message in errors:
        await fails(db, "book_reservation", message, **booking(**changes))


# -------------------------------------------------------------------------------- modify_reservation


def changed(booking: Record, **changes: Any) -> dict[str, Any]:
    fields = {key: booking[key] for key in ("reservation_id", "date", "time", "party_size")}
    return {**fields, **changes}


async def test_modify_reservation_moves_the_seating(db) -> None:
    new_day = "2025-06-26" if FUTURE["date"] != "2025-06-26" else "2025-06-25"
    location = LOCATIONS[FUTURE["location_id"]]
    listed = json.loads(
        await ok(db, "check_availability", location_id=location["location_id"], date=new_day, party_size=2)
    )
    time = listed["available_times"][0]
    moved = json.loads(
        await ok(db, "modify_reservation", **changed(FUTURE, date=new_day, time=time, party_size=2))
    )
    assert (moved["date"], moved["time"], moved["party_size"], moved["status"]) == (
        new_day,
        time,
        2,
        "booked",
    )
    assert moved["charges"] == FUTURE["charges"] and moved["deposit"] == 0.0


async def test_modify_reservation_charges_and_refunds_the_deposit_difference(db) -> None:
    small = booking_where(
        lambda r: (
            r["status"] == "booked"
            and r["date"] >= "2025-06-20"
            and r["party_size"] == 4
            and r["location_id"] == "harborview"
        )
    )
    card = small["payment_method_id"]
    grown = await call(db, "modify_reservation", **changed(small, party_size=8))
    if not grown.ok:  # the big tables may be taken at that time: then a quieter time the same day
        times = json.loads(
            await ok(db, "check_availability", location_id="harborview", date=small["date"], party_size=8)
        )["available_times"]
        grown = await call(db, "modify_reservation", **changed(small, party_size=8, time=times[0]))
    record = json.loads(grown.output)
    assert record["deposit"] == 120.0
    assert record["charges"][-1] == {
        "kind": "deposit",
        "amount": 120.0,
        "payment_method_id": card,
        "at": DOMAIN.clock,
    }
    shrunk = json.loads(await ok(db, "modify_reservation", **changed(record, party_size=6)))
    assert shrunk["deposit"] == 0.0
    assert shrunk["charges"][-1] == {
        "kind": "deposit_refund",
        "amount": -120.0,
        "payment_method_id": card,
        "at": DOMAIN.clock,
    }


async def test_modify_reservation_refuses_closed_reservations_and_the_last_two_hours(db) -> None:
    for status in ("completed", "cancelled", "no_show"):
        past = booking_where(lambda r, s=status: r["status"] == s)
        words = status.replace("_", "-")
        await fails(
            db,
            "modify_reservation",
            f"reservation {past['reservation_id']} is {words}; only upcoming "
            "booked reservations can be changed or cancelled",
            **changed(past, party_size=1),
        )
    soon = booking_where(lambda r: r["status"] == "booked" and r["date"] == TODAY and r["time"] <= "16:30")
    await fails(
        db,
        "modify_reservation",
        f"reservation {soon['reservation_id']} starts within 2 hours; it can no "
        "longer be changed, only cancelled",
        **changed(soon, party_size=1),
    )


async def test_modify_reservation_checks_the_new_seating(db) -> None:
    rid, name = FUTURE["reservation_id"], LOCATIONS[FUTURE["location_id"]]["name"]
    largest = max(t["seats"] for t in LOCATIONS[FUTURE["location_id"]]["tables"])
    await fails(
        db, "modify_reservation", "reservation 'R1' not found", **changed(FUTURE, reservation_id="R1")
    )
    await fails(
        db,
        "modify_reservation",
        "the new date, time and party size are the same as now: nothing to change",
        **changed(FUTURE),
    )
    await fails(
        db,
        "modify_reservation",
        f"a party of {largest + 1} exceeds the largest table at {name} ({largest} "
        "seats); larger groups are arranged by the events team",
        **changed(FUTURE, party_size=largest + 1),
    )
    await fails(
        db, "modify_reservation", "seatings start on the hour or half hour", **changed(FUTURE, time="19:10")
    )
    await fails(
        db,
        "modify_reservation",
        "2025-09-30 is beyond the 60-day booking window for member guests"
        if tier_of(FUTURE) != "gold"
        else "2025-09-30 is beyond the 90-day booking window for gold guests",
        **changed(FUTURE, date="2025-09-30"),
    )
    assert rid in RESERVATIONS


# -------------------------------------------------------------------------------- cancel_reservation


async def test_cancel_reservation_a_day_ahead_is_free_and_refunds_the_deposit(db) -> None:
    big = booking_where(lambda r: r["status"] == "booked" and r["date"] >= "2025-06-20" and r["deposit"] > 0)
    done = json.loads(await ok(db, "cancel_reservation", reservation_id=big["reservation_id"]))
    assert done["status"] == "cancelled" and done["cancelled_at"] == DOMAIN.clock
    refund = {
        "kind": "deposit_refund",
        "amount": -big["deposit"],
        "payment_method_id": big["payment_method_id"],
        "at": DOMAIN.clock,
    }
    assert done["charges"] == [*big["charges"], refund]


async def test_late_cancellation_costs_ten_dollars_a_guest_except_for_gold(db) -> None:
    late = booking_where(
        lambda r: r["status"] == "booked" and r["date"] == TODAY and not r["deposit"] and tier_of(r) != "gold"
    )
    done = json.loads(await ok(db, "cancel_reservation", reservation_id=late["reservation_id"]))
    fee = {
        "kind": "late_cancel_fee",
        "amount": 10.0 * late["party_size"],
        "payment_method_id": late["payment_method_id"],
        "at": DOMAIN.clock,
    }
    assert done["charges"] == [fee]
    gold = booking_where(lambda r: r["status"] == "booked" and r["date"] == TODAY and tier_of(r) == "gold")
    done = json.loads(await ok(db, "cancel_reservation", reservation_id=gold["reservation_id"]))
    assert done["status"] == "cancelled" and done["charges"] == gold["charges"] + (
        [
            {
                "kind": "deposit_refund",
                "amount": -gold["deposit"],
                "payment_method_id": gold["payment_method_id"],
                "at": DOMAIN.clock,
            }
        ]
        if gold["deposit"]
        else []
    )


async def test_late_cancellation_takes_the_fee_from_the_deposit(db) -> None:
    late = booking_where(
        lambda r: r["status"] == "booked" and r["date"] == TODAY and r["deposit"] and tier_of(r) != "gold"
    )
    done = json.loads(await ok(db, "cancel_reservation", reservation_id=late["reservation_id"]))
    fee, card = 10.0 * late["party_size"], late["payment_method_id"]
    assert done["charges"][len(late["charges"]) :] == [
        {
            "kind": "deposit_refund",
            "amount": fee - late["deposit"],
            "payment_method_id": card,
            "at": DOMAIN.clock,
        },
        {
            "kind": "late_cancel_fee_from_deposit",
            "amount": fee,
            "payment_method_id": card,
            "at": DOMAIN.clock,
        },
    ]


async def test_cancel_reservation_errors(db) -> None:
    await fails(db, "cancel_reservation", "reservation 'R1' not found", reservation_id="R1")
    for status in ("completed", "cancelled", "no_show"):
        past = booking_where(lambda r, s=status: r["status"] == s)
        await fails(
            db,
            "cancel_reservation",
            f"reservation {past['reservation_id']} is {status.replace('_', '-')}; "
            "only upcoming booked reservations can be changed or cancelled",
            reservation_id=past["reservation_id"],
        )
