"""Travel seed generator: size and variety, consistency, determinism, the clock, and both sides of
every policy rule present in the data."""

from __future__ import annotations

from collections import Counter

import pytest

from taue.envs.travel import DOMAIN
from taue.envs.travel.generate import generate
from taue.envs.travel.models import (
    Booking,
    CarOffer,
    Claim,
    Customer,
    HolidayPackage,
    Hotel,
    InsurancePolicy,
    Itinerary,
)
from taue.envs.travel.rules import (
    CLOCK,
    TODAY,
    age_on,
    cancel_problems,
    claim_problems,
    days_between,
    insurance_problems,
)
from taue.envs.travel.seed_view import view_of


@pytest.fixture(scope="module")
def rows():
    return generate(DOMAIN.seed)


@pytest.fixture(scope="module")
def view(rows):
    return view_of(rows)


def table(rows, model):
    return [row for row in rows if isinstance(row, model)]


def test_the_clock_is_fixed_and_the_seed_deterministic(rows):
    assert DOMAIN.clock == CLOCK == "2025-06-02T09:00:00" and TODAY == "2025-06-02"
    again = generate(DOMAIN.seed)
    assert [r.model_dump() for r in again] == [r.model_dump() for r in rows]
    other = generate(DOMAIN.seed + 1)
    assert [r.model_dump() for r in other[-50:]] != [r.model_dump() for r in rows[-50:]]


def test_sizes(rows):
    counts = Counter(type(row) for row in rows)
    assert counts[Customer] >= 300
    assert counts[Itinerary] >= 600
    assert counts[Booking] >= 1500
    assert counts[InsurancePolicy] >= 400
    assert counts[Claim] >= 60
    assert (counts[Hotel], counts[HolidayPackage]) == (120, 80)
    assert counts[CarOffer] >= 250


def test_ids_are_unique_and_below_the_created_range(rows):
    keys = {
        Customer: "customer_id",
        Itinerary: "itinerary_id",
        Booking: "booking_id",
        InsurancePolicy: "policy_id",
        Claim: "claim_id",
    }
    for model, key in keys.items():
        ids = [getattr(row, key) for row in table(rows, model)]
        assert len(ids) == len(set(ids)), model
    for row in table(rows, Booking):
        assert row.booking_id.startswith("BK") and int(row.booking_id[2:]) < 900000
    for row in table(rows, InsurancePolicy):
        assert int(row.policy_id[3:]) < 900000
    emails = [c.email for c in table(rows, Customer)]
    assert len(emails) == len(set(emails))


def test_variety_of_customers_and_bookings(rows):
    customers = table(rows, Customer)
    assert len({c.last_name for c in customers}) >= 30 and len({c.first_name for c in customers}) >= 40
    assert set(Counter(c.loyalty_tier for c in customers)) == {"blue", "silver", "gold"}
    young = [c for c in customers if age_on(c.date_of_birth, TODAY) < 25]
    assert 20 <= len(young) <= len(customers) // 3
    assert all(any(m["type"] == "credit_card" for m in c.payment_methods.values()) for c in customers)
    assert sum(any(m["type"] == "travel_credit" for m in c.payment_methods.values()) for c in customers) >= 80
    bookings = table(rows, Booking)
    assert set(Counter(b.kind for b in bookings)) == {"hotel", "car", "package"}
    assert set(Counter(b.status for b in bookings)) == {"confirmed", "completed", "cancelled"}
    assert set(Counter(b.rate for b in bookings)) == {"flexible", "non_refundable", "standard"}
    assert len({b.city for b in bookings}) == 20
    assert len({b.total_price for b in bookings}) > 500
    claims = table(rows, Claim)
    assert set(Counter(c.status for c in claims)) == {
        "submitted",
        "under_review",
        "approved",
        "paid",
        "denied",
    }
    assert {"baggage", "medical", "delay"} <= {c.category for c in claims}


def test_records_are_consistent(rows, view):
    for trip in view.itineraries.values():
        assert all(view.bookings[b]["itinerary_id"] == trip["itinerary_id"] for b in trip["booking_ids"])
        over = all(view.bookings[b]["end_date"] < TODAY for b in trip["booking_ids"])
        assert trip["status"] == ("closed" if over else "open")
    for booking in view.bookings.values():
        customer = view.customers[booking["customer_id"]]
        assert booking["payment_method_id"] in customer["payment_methods"]
        assert booking["booked_at"] <= CLOCK and booking["booked_at"][:10] < booking["start_date"]
        assert booking["start_date"] < booking["end_date"]
        if booking["status"] == "completed":
            assert booking["end_date"] < TODAY
        if booking["status"] == "cancelled":
            assert booking["rate"] != "non_refundable"
            assert booking["cancellation_fee"] + booking["refund_amount"] == pytest.approx(
                booking["total_price"]
            )
        if booking["policy_id"] is not None:
            policy = view.policies[booking["policy_id"]]
            assert (
                policy["booking_id"] == booking["booking_id"]
                and policy["customer_id"] == booking["customer_id"]
            )
    for policy in view.policies.values():
        booking = view.bookings[policy["booking_id"]]
        assert booking["booked_at"] <= policy["purchased_at"] <= CLOCK
        share = {"basic": 0.06, "comprehensive": 0.10}[policy["plan"]]
        assert policy["premium"] == round(booking["total_price"] * share, 2)


def test_both_sides_of_the_rules_are_in_the_data(view):
    upcoming = [b for b in view.bookings.values() if b["status"] == "confirmed" and b["start_date"] > TODAY]
    cancel_rules = Counter(tuple(p[0] for p in cancel_problems(b)) for b in upcoming)
    assert cancel_rules[()] >= 100 and cancel_rules[("non-refundable",)] >= 50
    assert cancel_rules[("package-cancel-deadline",)] >= 1
    fees = Counter(min(days_between(TODAY, b["start_date"]), 7) for b in upcoming if b["kind"] == "hotel")
    assert fees[7] > 50 and sum(fees[d] for d in range(1, 7)) >= 3
    started = [b for b in view.bookings.values() if b["status"] == "confirmed" and b["start_date"] <= TODAY]
    assert started and all(cancel_problems(b)[0][0] == "not-started" for b in started)
    insurance = Counter(tuple(p[0] for p in insurance_problems(b)) for b in upcoming)
    assert (
        insurance[()] >= 100 and insurance[("insurance-window",)] >= 100 and insurance[("one-policy",)] >= 100
    )
    plans = Counter(p["plan"] for p in view.policies.values())
    assert plans["basic"] >= 100 and plans["comprehensive"] >= 100


def test_claims_can_be_eligible_or_not(view):
    outcomes: Counter[str] = Counter()
    for policy in view.policies.values():
        booking = view.bookings[policy["booking_id"]]
        if booking["status"] == "cancelled" or booking["start_date"] > TODAY:
            continue
        claims = view.claims_of.get(policy["policy_id"], [])
        for category in ("baggage", "medical"):
            problems = claim_problems(policy, booking, claims, category, booking["start_date"], 100.0)
            outcomes[problems[0][0] if problems else "eligible"] += 1
    assert outcomes["eligible"] >= 50
    assert outcomes["claim-coverage"] >= 20 and outcomes["claim-window"] >= 50
    assert outcomes["one-claim-per-category"] >= 5


def test_drivers_under_and_over_the_age_limits(view):
    ages = [age_on(c["date_of_birth"], TODAY) for c in view.customers.values()]
    assert min(ages) < 21 <= 25 <= max(ages)
    limits = Counter(c["min_driver_age"] for c in view.cars.values())
    assert set(limits) == {21, 25}


def test_inventory_has_stock_and_sold_out_items(view):
    rooms = [room["rooms_left"] for h in view.hotels.values() for room in h["rooms"].values()]
    assert 0 in rooms and max(rooms) >= 5
    assert {0} < {c["cars_left"] for c in view.cars.values()}
    seats = [s for p in view.packages.values() for s in p["departures"].values()]
    assert 0 in seats and max(seats) >= 10
    assert all(d > TODAY for p in view.packages.values() for d in p["departures"])


def test_seed_image_stays_small():
    assert len(DOMAIN.seed_image.image_bytes) < 6 * 1024 * 1024
