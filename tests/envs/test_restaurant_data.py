"""The restaurant seed: size and variety, determinism, the simulated clock, consistency of the
records, and both sides of every policy rule present in the data (eligible and ineligible records)."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta

from taue.envs.restaurant import DOMAIN
from taue.envs.restaurant.generate import generate
from taue.envs.restaurant.rules import (
    CLOCK,
    DEPOSIT_PARTY,
    SEATING_MINUTES,
    cutoff_problem,
    late_cancel_fee,
    minutes,
    open_reservation_problem,
    opening_problem,
    points_problem,
)
from taue.envs.restaurant.seed_view import customers, load
from tests.envs.test_restaurant_tools import GUESTS, LOCATIONS, ORDERS, RESERVATIONS, ROWS

NOW = datetime.fromisoformat(CLOCK)


def test_the_seed_is_large_and_varied() -> None:
    assert len(GUESTS) >= 300 and len(LOCATIONS) == 5
    assert len(RESERVATIONS) >= 1500 and len(ORDERS) >= 1500
    assert len({(g["first_name"], g["last_name"]) for g in GUESTS.values()}) > 250
    assert set(Counter(r["status"] for r in RESERVATIONS.values())) == {
        "booked",
        "completed",
        "cancelled",
        "no_show",
    }
    assert set(Counter(o["status"] for o in ORDERS.values())) == {
        "received",
        "preparing",
        "ready",
        "out_for_delivery",
        "completed",
        "cancelled",
    }
    assert set(Counter(g["tier"] for g in GUESTS.values())) == {"member", "silver", "gold"}
    assert {o["channel"] for o in ORDERS.values()} == {"takeaway", "delivery"}
    assert len({r["party_size"] for r in RESERVATIONS.values()}) >= 10
    assert len({o["total"] for o in ORDERS.values()}) > 300


def test_the_seed_is_deterministic_and_depends_on_the_seed() -> None:
    again = [row.model_dump() for row in generate(DOMAIN.seed)]
    assert again == [row.model_dump() for row in ROWS]
    assert [row.model_dump() for row in generate(DOMAIN.seed + 1)] != again


def test_the_clock_is_a_fixed_thursday_afternoon() -> None:
    assert DOMAIN.clock == CLOCK == "2025-06-12T15:00:00" and NOW.strftime("%A") == "Thursday"
    for booking in RESERVATIONS.values():
        start = datetime.fromisoformat(f"{booking['date']}T{booking['time']}:00")
        assert (booking["status"] == "booked") == (start > NOW) or booking["status"] == "cancelled"
    for order in ORDERS.values():
        assert order["placed_at"] <= CLOCK
        assert (order["status"] in ("completed", "cancelled")) == (order["ready_at"] < CLOCK[:10])


def test_profiles_list_their_own_records_oldest_first() -> None:
    for guest_id, guest in GUESTS.items():
        bookings = [RESERVATIONS[r] for r in guest["reservations"]]
        assert all(b["guest_id"] == guest_id for b in bookings)
        assert [(b["date"], b["time"]) for b in bookings] == sorted((b["date"], b["time"]) for b in bookings)
        orders = [ORDERS[o] for o in guest["orders"]]
        assert all(o["guest_id"] == guest_id for o in orders)
        cards = {card["payment_method_id"] for card in guest["payment_methods"]}
        assert {b["payment_method_id"] for b in bookings} | {o["payment_method_id"] for o in orders} <= cards
    assert sum(len(g["reservations"]) for g in GUESTS.values()) == len(RESERVATIONS)
    assert (
        len({g["phone"] for g in GUESTS.values()})
        == len({g["email"] for g in GUESTS.values()})
        == len(GUESTS)
    )


def test_seatings_follow_the_rules_tables_and_guests_never_overlap() -> None:
    by_table: dict[tuple[str, str, str], list[int]] = {}
    by_guest: dict[tuple[str, str], list[int]] = {}
    for booking in RESERVATIONS.values():
        location = LOCATIONS[booking["location_id"]]
        assert opening_problem(location, booking["date"], booking["time"]) is None
        seats = {t["table_id"]: t["seats"] for t in location["tables"]}
        assert seats[booking["table_id"]] >= booking["party_size"]
        assert booking["deposit"] == (
            15.0 * booking["party_size"] if booking["party_size"] >= DEPOSIT_PARTY else 0
        )
        start = minutes(booking["time"])
        if booking["status"] in ("booked", "completed"):
            key = (booking["location_id"], booking["date"], booking["table_id"])
            assert all(abs(start - other) >= SEATING_MINUTES for other in by_table.get(key, []))
            by_table.setdefault(key, []).append(start)
        mine = by_guest.setdefault((booking["guest_id"], booking["date"]), [])
        assert all(abs(start - other) >= SEATING_MINUTES for other in mine)
        mine.append(start)


def test_orders_add_up() -> None:
    for order in ORDERS.values():
        subtotal = sum(line["unit_price"] * line["quantity"] for line in order["items"])
        assert order["subtotal"] == subtotal
        assert order["total"] == subtotal + order["delivery_fee"] - order["discount"]
        assert order["discount"] == order["points_redeemed"] / 20
        assert (order["delivery_fee"] > 0) == (order["channel"] == "delivery")
        assert (order["delivery_address"] is not None) == (order["channel"] == "delivery")


def test_both_sides_of_the_reservation_rules_exist() -> None:
    booked = [r for r in RESERVATIONS.values() if r["status"] == "booked"]
    assert sum(open_reservation_problem(r, CLOCK) is not None for r in RESERVATIONS.values()) > 300
    assert sum(cutoff_problem(r, CLOCK) is None for r in booked) > 300
    assert sum(cutoff_problem(r, CLOCK) is not None for r in booked) >= 5
    late = [
        r for r in booked if datetime.fromisoformat(f"{r['date']}T{r['time']}") - NOW < timedelta(hours=24)
    ]
    tiers = Counter(GUESTS[r["guest_id"]]["tier"] for r in late)
    assert len(late) > 50 and tiers["gold"] >= 3 and tiers["member"] >= 20
    assert any(late_cancel_fee(r, GUESTS[r["guest_id"]]["tier"], CLOCK) == 0 for r in late)
    assert any(late_cancel_fee(r, GUESTS[r["guest_id"]]["tier"], CLOCK) > 0 for r in late)
    assert sum(r["deposit"] > 0 for r in booked) >= 20 and sum(r["deposit"] == 0 for r in booked) > 300
    closed = {loc for loc, record in LOCATIONS.items() if None in record["hours"].values()}
    assert closed == {"harborview", "riverside", "oldtown"}
    assert {max(t["seats"] for t in record["tables"]) for record in LOCATIONS.values()} == {6, 8, 10, 12}


def test_both_sides_of_the_order_and_points_rules_exist() -> None:
    statuses = Counter(o["status"] for o in ORDERS.values())
    assert statuses["received"] >= 100 and statuses["preparing"] + statuses["ready"] >= 50
    received = [o for o in ORDERS.values() if o["status"] == "received"]
    balances = [GUESTS[o["guest_id"]]["points"] for o in received]
    assert sum(points_problem(o, b, 100) is None for o, b in zip(received, balances, strict=True)) > 50
    assert sum(b < 100 for b in balances) >= 3
    assert sum(o["points_redeemed"] > 0 for o in ORDERS.values()) >= 30


def test_the_tracer_view_and_customers() -> None:
    view = load(DOMAIN.seed)
    people = customers(view)
    assert len(people) == len(GUESTS)
    assert {tuple(c.known) for c in people} == {("phone",), ("email",)}
    assert all(c.identity[0].name == "find_guest" for c in people)
    assert sum(bool(view.changeable(c.id)) for c in people) > 250


def test_every_row_reads_back_from_its_published_record() -> None:
    for row in ROWS:
        record = row.to_record()
        key = next(iter(type(row).__table__.primary_key.columns)).name
        assert type(row).from_record(record[key], record).model_dump() == row.model_dump()
