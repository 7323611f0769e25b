"""Movie seed data: size and variety, determinism, the clock, and both sides of every policy rule."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta

from taue.envs.movie import DOMAIN
from taue.envs.movie.generate import CLOCK, generate, price_list
from taue.envs.movie.models import Account, Film, Order, Showtime, Theatre, all_seats, seat_type
from taue.envs.runtime.database import SeedImage
from tests.envs.seed_rows import seed_rows

ROWS = seed_rows(DOMAIN)
ACCOUNTS = [r for r in ROWS if isinstance(r, Account)]
ORDERS = [r for r in ROWS if isinstance(r, Order)]
SHOWS = {r.showtime_id: r for r in ROWS if isinstance(r, Showtime)}
NOW = datetime.fromisoformat(CLOCK)
CUTOFF = (NOW + timedelta(hours=2)).isoformat()
TODAY = NOW.date()


def days_since(day: str) -> int:
    return (TODAY - date.fromisoformat(day)).days


def test_the_clock_is_fixed_and_shared():
    assert DOMAIN.clock == CLOCK == "2025-03-14T12:00:00"
    assert DOMAIN.new_database().clock == CLOCK


def test_sizes():
    counts = Counter(type(r).__name__ for r in ROWS)
    assert counts["Theatre"] == 5 and counts["Film"] == 16
    assert counts["Account"] == 400
    assert 1500 <= counts["Showtime"] <= 3000
    assert 1800 <= counts["Order"] <= 3000


def test_generation_is_deterministic_and_depends_on_the_seed():
    def state(seed: int) -> str:
        database = SeedImage(DOMAIN.tables, generate(seed)).clone(CLOCK)
        try:
            return database.canonical_state()
        finally:
            database.close()

    assert state(0) == state(0)
    assert state(1) != state(0)


def test_ids_and_contacts_are_unique():
    for values in (
        [a.account_id for a in ACCOUNTS],
        [a.email for a in ACCOUNTS],
        [a.phone for a in ACCOUNTS],
        [o.order_id for o in ORDERS],
    ):
        assert len(values) == len(set(values))
    assert len({(a.first_name, a.last_name) for a in ACCOUNTS}) > 300


def test_showtimes_are_varied_and_priced_by_the_rules():
    assert {s.format for s in SHOWS.values()} == {"standard", "3d", "imax"}
    assert {s.theatre_id for s in SHOWS.values()} == {r.theatre_id for r in ROWS if isinstance(r, Theatre)}
    assert len({s.film_id for s in SHOWS.values()}) >= 14
    for show in SHOWS.values():
        assert show.prices == price_list(datetime.fromisoformat(show.starts_at), show.format)
        assert len(set(show.sold_seats)) == len(show.sold_seats) and set(show.sold_seats) <= set(all_seats())
    full = [s for s in SHOWS.values() if len(s.sold_seats) == len(all_seats())]
    empty = [s for s in SHOWS.values() if not s.sold_seats]
    assert full and empty
    assert {p["standard"] for s in SHOWS.values() for p in [s.prices]} >= {8.5, 11.5, 14.5, 16.5, 19.5}


def test_orders_match_their_showtimes():
    films = {r.film_id for r in ROWS if isinstance(r, Film)}
    for order in ORDERS:
        show = SHOWS[order.showtime_id]
        assert show.film_id in films
        assert order.created_at < show.starts_at and order.created_at <= CLOCK
        for line in order.seats:
            assert line["type"] == seat_type(line["seat"]) and line["price"] == show.prices[line["type"]]
        if order.status != "refunded":  # a refunded order's seats may have gone to other guests since
            assert {line["seat"] for line in order.seats} <= set(show.sold_seats)
        assert (order.status == "completed") == (show.starts_at <= CLOCK) or order.status == "refunded"
    statuses = Counter(o.status for o in ORDERS)
    assert statuses["confirmed"] > statuses["completed"] > statuses["refunded"] > 100


def test_both_sides_of_the_refund_and_exchange_rules():
    confirmed = [o for o in ORDERS if o.status == "confirmed"]
    in_time = [o for o in confirmed if SHOWS[o.showtime_id].starts_at >= CUTOFF]
    too_late = [o for o in confirmed if SHOWS[o.showtime_id].starts_at < CUTOFF]
    assert len(in_time) > 500 and len(too_late) >= 10
    assert {o.payment_id.split("_")[0] for o in in_time} == {"card", "gift"}
    assert any(o.credits_used for o in in_time) and any(o.booking_fee for o in in_time)


def test_both_sides_of_the_membership_rules():
    members = Counter((a.membership.get("tier"), a.membership.get("status")) for a in ACCOUNTS)
    assert members[(None, None)] > 100
    assert {status for _, status in members} >= {"active", "past_due", "cancelled"}
    active = [a.membership for a in ACCOUNTS if a.membership.get("status") == "active"]
    assert {m["tier"] for m in active} == {"plus", "premiere"}
    recent_change = [m for m in active if days_since(m["tier_changed_on"]) < 30]
    assert 30 <= len(recent_change) < len(active) - 100
    new_members = [m for m in active if days_since(m["member_since"]) < 90]
    assert 30 <= len(new_members) < len(active) - 100
    assert any(m["credits"] == 0 for m in active) and any(m["credits"] >= 4 for m in active)


def test_payment_methods_vary():
    kinds = Counter(m["type"] for a in ACCOUNTS for m in a.payment_methods.values())
    assert kinds["credit_card"] > kinds["gift_card"] > 100
    balances = [
        m["balance"] for a in ACCOUNTS for m in a.payment_methods.values() if m["type"] == "gift_card"
    ]
    assert 0.0 in balances and max(balances) >= 50
    assert all(any(m["type"] == "credit_card" for m in a.payment_methods.values()) for a in ACCOUNTS)
