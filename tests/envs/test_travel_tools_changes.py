"""Travel tools, part two: changing dates, cancelling with fees, adding insurance and filing claims,
each success and each refusal (a refused call changes nothing)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from taue.envs.travel import DOMAIN
from taue.envs.travel.rules import TODAY, days_between, shift
from taue.envs.travel.seed_view import TravelView, load
from tests.envs.test_travel_tools import Record, first
from tests.envs.tool_harness import ToolHarness

TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails
db = TOOLS.database_fixture()


@pytest.fixture(scope="module")
def seed() -> TravelView:
    return load(DOMAIN.seed)


def days_left(booking: Record) -> int:
    return days_between(TODAY, booking["start_date"])


def upcoming(
    kind: str, rate: str, rule: Callable[[Record], bool] = lambda b: True
) -> Callable[[Record], bool]:
    return lambda b: (
        b["status"] == "confirmed"
        and b["start_date"] > TODAY
        and b["kind"] == kind
        and b["rate"] == rate
        and rule(b)
    )


def method(seed: TravelView, booking: Record) -> Record:
    return seed.customers[booking["customer_id"]]["payment_methods"][booking["payment_method_id"]]


async def balance(db, booking: Record) -> float:
    details = json.loads(await ok(db, "get_customer_details", customer_id=booking["customer_id"]))
    return details["payment_methods"][booking["payment_method_id"]]["balance"]


# ----------------------------------------------------------------------------------------- new dates


async def test_change_hotel_dates_reprices_at_the_booked_rate(db, seed):
    booking = first(seed.bookings, upcoming("hotel", "flexible", lambda b: days_left(b) > 5))
    start, end = shift(booking["start_date"], 2), shift(booking["end_date"], 3)
    changed = json.loads(
        await ok(
            db,
            "change_booking_dates",
            booking_id=booking["booking_id"],
            new_start_date=start,
            new_end_date=end,
        )
    )
    nights = days_between(start, end)
    assert (changed["start_date"], changed["end_date"], changed["details"]["nights"]) == (start, end, nights)
    assert changed["total_price"] == booking["details"]["nightly_rate"] * nights
    assert changed["price_difference"] == booking["details"]["nightly_rate"]


async def test_a_shorter_car_rental_refunds_the_travel_credit(db, seed):
    booking = first(
        seed.bookings,
        upcoming(
            "car",
            "flexible",
            lambda b: method(seed, b)["type"] == "travel_credit" and b["details"]["days"] > 2,
        ),
    )
    before = method(seed, booking)["balance"]
    end = shift(booking["end_date"], -1)
    changed = json.loads(
        await ok(
            db,
            "change_booking_dates",
            booking_id=booking["booking_id"],
            new_start_date=booking["start_date"],
            new_end_date=end,
        )
    )
    assert changed["price_difference"] == -booking["details"]["daily_rate"]
    assert changed["details"]["days"] == booking["details"]["days"] - 1
    assert await balance(db, booking) == round(before + booking["details"]["daily_rate"], 2)


async def test_change_booking_dates_refusals_change_nothing(db, seed):
    flexible = first(seed.bookings, upcoming("hotel", "flexible", lambda b: days_left(b) > 5))
    bid, start, end = flexible["booking_id"], flexible["start_date"], flexible["end_date"]
    await fails(
        db,
        "change_booking_dates",
        "booking BK000000 not found",
        booking_id="BK000000",
        new_start_date=start,
        new_end_date=end,
    )
    await fails(
        db,
        "change_booking_dates",
        "the new dates are the same as the booked ones",
        booking_id=bid,
        new_start_date=start,
        new_end_date=end,
    )
    await fails(
        db,
        "change_booking_dates",
        f"the start date {TODAY} must be after today ({TODAY})",
        booking_id=bid,
        new_start_date=TODAY,
        new_end_date=end,
    )
    await fails(
        db,
        "change_booking_dates",
        "a hotel booking lasts at most 30 nights, not 40",
        booking_id=bid,
        new_start_date=start,
        new_end_date=shift(start, 40),
    )
    await fails(
        db,
        "change_booking_dates",
        "new_end_date 'soon' is not a date of the form YYYY-MM-DD",
        booking_id=bid,
        new_start_date=start,
        new_end_date="soon",
    )
    fixed = first(seed.bookings, upcoming("hotel", "non_refundable"))
    await fails(
        db,
        "change_booking_dates",
        f"booking {fixed['booking_id']} is at a non-refundable rate and its dates cannot be changed",
        booking_id=fixed["booking_id"],
        new_start_date=shift(fixed["start_date"], 1),
        new_end_date=shift(fixed["end_date"], 1),
    )
    package = first(seed.bookings, upcoming("package", "standard"))
    await fails(
        db,
        "change_booking_dates",
        "the dates of a holiday package cannot be changed; it would have to be cancelled and booked again",
        booking_id=package["booking_id"],
        new_start_date=shift(package["start_date"], 7),
        new_end_date=shift(package["end_date"], 7),
    )
    done = first(seed.bookings, lambda b: b["status"] == "completed")
    await fails(
        db,
        "change_booking_dates",
        f"booking {done['booking_id']} is completed and cannot be changed",
        booking_id=done["booking_id"],
        new_start_date=shift(TODAY, 3),
        new_end_date=shift(TODAY, 5),
    )
    running = first(seed.bookings, lambda b: b["status"] == "confirmed" and b["start_date"] <= TODAY)
    await fails(
        db,
        "change_booking_dates",
        f"booking {running['booking_id']} started on {running['start_date']} and can no longer be changed",
        booking_id=running["booking_id"],
        new_start_date=shift(TODAY, 3),
        new_end_date=shift(TODAY, 5),
    )


async def test_a_longer_stay_needs_enough_travel_credit(db, seed):
    def short_credit(b: Record) -> bool:
        credit = method(seed, b)
        return credit["type"] == "travel_credit" and credit["balance"] < b["details"]["nightly_rate"] * 10

    booking = first(seed.bookings, upcoming("hotel", "flexible", short_credit))
    end = shift(booking["end_date"], 10)
    extra = booking["details"]["nightly_rate"] * 10
    await fails(
        db,
        "change_booking_dates",
        f"travel credit {booking['payment_method_id']} has "
        f"${method(seed, booking)['balance']:.2f}, less than the ${extra:.2f} due",
        booking_id=booking["booking_id"],
        new_start_date=booking["start_date"],
        new_end_date=end,
    )


# ---------------------------------------------------------------------------------------- cancelling


async def cancelled(db, booking: Record) -> Record:
    return json.loads(await ok(db, "cancel_booking", booking_id=booking["booking_id"]))


@pytest.mark.parametrize(
    ("kind", "rate", "lowest", "highest", "share"),
    [
        ("hotel", "flexible", 7, 999, 0.0),
        ("hotel", "flexible", 2, 6, 0.25),
        ("hotel", "flexible", 1, 1, 0.5),
        ("car", "flexible", 3, 999, 0.0),
        ("car", "flexible", 1, 2, 0.2),
        ("package", "standard", 45, 999, 0.1),
        ("package", "standard", 14, 44, 0.25),
        ("package", "standard", 7, 13, 0.5),
    ],
)
async def test_cancellation_fees_follow_the_days_left(db, seed, kind, rate, lowest, highest, share):
    booking = first(seed.bookings, upcoming(kind, rate, lambda b: lowest <= days_left(b) <= highest))
    result = await cancelled(db, booking)
    fee = round(booking["total_price"] * share, 2)
    assert (result["status"], result["cancelled_at"]) == ("cancelled", DOMAIN.clock)
    assert result["cancellation_fee"] == fee
    assert result["refund_amount"] == round(booking["total_price"] - fee, 2)


async def test_cancelling_a_package_frees_its_seats(db, seed):
    booking = first(seed.bookings, upcoming("package", "standard", lambda b: days_left(b) >= 7))
    package = seed.packages[booking["item_id"]]
    await cancelled(db, booking)
    listed = json.loads(await ok(db, "search_holiday_packages", destination=package["destination"]))
    after = next(p for p in listed if p["package_id"] == package["package_id"])
    seats = package["departures"][booking["start_date"]] + booking["details"]["travellers"]
    assert after["departures"][booking["start_date"]] == seats


async def test_a_refund_goes_back_to_the_travel_credit(db, seed):
    booking = first(
        seed.bookings, upcoming("hotel", "flexible", lambda b: method(seed, b)["type"] == "travel_credit")
    )
    result = await cancelled(db, booking)
    assert await balance(db, booking) == round(method(seed, booking)["balance"] + result["refund_amount"], 2)


async def test_cancel_booking_refusals_change_nothing(db, seed):
    await fails(db, "cancel_booking", "booking BK000000 not found", booking_id="BK000000")
    fixed = first(seed.bookings, upcoming("car", "non_refundable"))
    await fails(
        db,
        "cancel_booking",
        f"booking {fixed['booking_id']} is at a non-refundable rate and cannot be cancelled or refunded",
        booking_id=fixed["booking_id"],
    )
    late = first(seed.bookings, upcoming("package", "standard", lambda b: days_left(b) < 7))
    await fails(
        db,
        "cancel_booking",
        f"a holiday package cannot be cancelled less than 7 days before departure; "
        f"booking {late['booking_id']} departs in {days_left(late)} days",
        booking_id=late["booking_id"],
    )
    gone = first(seed.bookings, lambda b: b["status"] == "cancelled")
    await fails(
        db,
        "cancel_booking",
        f"booking {gone['booking_id']} is cancelled and cannot be cancelled",
        booking_id=gone["booking_id"],
    )
    running = first(seed.bookings, lambda b: b["status"] == "confirmed" and b["start_date"] <= TODAY)
    await fails(
        db,
        "cancel_booking",
        f"booking {running['booking_id']} started on {running['start_date']} and can no longer be cancelled",
        booking_id=running["booking_id"],
    )


# ----------------------------------------------------------------------------------------- insurance


def insurable(seed: TravelView, rule: Callable[[Record], bool] = lambda b: True) -> Record:
    return first(
        seed.bookings,
        lambda b: (
            b["status"] == "confirmed"
            and b["start_date"] > TODAY
            and b["policy_id"] is None
            and days_between(b["booked_at"], TODAY) <= 14
            and rule(b)
        ),
    )


async def test_add_travel_insurance_creates_the_policy(db, seed):
    booking = insurable(seed)
    policy = json.loads(
        await ok(db, "add_travel_insurance", booking_id=booking["booking_id"], plan="comprehensive")
    )
    assert policy["policy_id"] == f"POL{900000 + len(seed.policies)}"
    assert policy["premium"] == round(booking["total_price"] * 0.10, 2) and policy["status"] == "active"
    assert (policy["booking_id"], policy["purchased_at"]) == (booking["booking_id"], DOMAIN.clock)
    after = json.loads(await ok(db, "get_booking_details", booking_id=booking["booking_id"]))
    assert after["policy_id"] == policy["policy_id"]
    details = json.loads(await ok(db, "get_customer_details", customer_id=booking["customer_id"]))
    assert details["insurance_policy_ids"][-1] == policy["policy_id"]


async def test_a_basic_premium_paid_with_travel_credit(db, seed):
    booking = insurable(
        seed,
        lambda b: (
            method(seed, b)["type"] == "travel_credit"
            and method(seed, b)["balance"] >= b["total_price"] * 0.06
        ),
    )
    policy = json.loads(await ok(db, "add_travel_insurance", booking_id=booking["booking_id"], plan="basic"))
    assert policy["premium"] == round(booking["total_price"] * 0.06, 2)
    assert await balance(db, booking) == round(method(seed, booking)["balance"] - policy["premium"], 2)


async def test_add_travel_insurance_refusals_change_nothing(db, seed):
    await fails(db, "add_travel_insurance", "booking BK000000 not found", booking_id="BK000000", plan="basic")
    old = first(
        seed.bookings,
        lambda b: (
            b["status"] == "confirmed"
            and b["start_date"] > TODAY
            and b["policy_id"] is None
            and days_between(b["booked_at"], TODAY) > 14
        ),
    )
    await fails(
        db,
        "add_travel_insurance",
        f"insurance can only be added within 14 days of booking; booking "
        f"{old['booking_id']} was made {days_between(old['booked_at'], TODAY)} days ago",
        booking_id=old["booking_id"],
        plan="basic",
    )
    insured = first(
        seed.bookings, lambda b: b["status"] == "confirmed" and b["start_date"] > TODAY and b["policy_id"]
    )
    await fails(
        db,
        "add_travel_insurance",
        f"booking {insured['booking_id']} is already insured by policy {insured['policy_id']}",
        booking_id=insured["booking_id"],
        plan="basic",
    )
    done = first(seed.bookings, lambda b: b["status"] == "completed")
    await fails(
        db,
        "add_travel_insurance",
        f"booking {done['booking_id']} is completed and cannot be insured",
        booking_id=done["booking_id"],
        plan="comprehensive",
    )
    poor = insurable(
        seed,
        lambda b: (
            method(seed, b)["type"] == "travel_credit" and method(seed, b)["balance"] < b["total_price"] * 0.1
        ),
    )
    premium = round(poor["total_price"] * 0.1, 2)
    await fails(
        db,
        "add_travel_insurance",
        f"travel credit {poor['payment_method_id']} has "
        f"${method(seed, poor)['balance']:.2f}, less than the ${premium:.2f} due",
        booking_id=poor["booking_id"],
        plan="comprehensive",
    )


# -------------------------------------------------------------------------------------------- claims


def policy_on(seed: TravelView, rule: Callable[[Record, Record], bool]) -> tuple[Record, Record]:
    for _, policy in sorted(seed.policies.items()):
        booking = seed.bookings[policy["booking_id"]]
        if rule(policy, booking):
            return policy, booking
    raise LookupError("no policy fits")


def recent_trip(seed: TravelView, plan: str) -> Callable[[Record, Record], bool]:
    """A policy of the plan on a trip that started in the last 50 days, with no claim yet."""
    return lambda p, b: (
        p["plan"] == plan
        and b["status"] == "completed"
        and days_between(b["start_date"], TODAY) <= 50
        and not seed.claims_of.get(p["policy_id"])
    )


async def test_file_a_baggage_claim_during_the_trip(db, seed):
    policy, booking = policy_on(seed, recent_trip(seed, "comprehensive"))
    claim = json.loads(
        await ok(
            db,
            "file_insurance_claim",
            policy_id=policy["policy_id"],
            category="baggage",
            incident_date=booking["start_date"],
            amount=640,
        )
    )
    assert claim["claim_id"] == f"CLM{900000 + len(seed.claims)}"
    assert (claim["status"], claim["amount_claimed"], claim["filed_at"]) == ("submitted", 640.0, DOMAIN.clock)
    listed = json.loads(await ok(db, "get_insurance_policy", policy_id=policy["policy_id"]))
    assert listed["claims"] == [claim]


async def test_file_a_cancellation_claim_for_the_fee(db, seed):
    policy, booking = policy_on(
        seed,
        lambda p, b: (
            b["status"] == "cancelled"
            and (b["cancellation_fee"] or 0) > 0
            and days_between(b["cancelled_at"], TODAY) <= 60
            and not seed.claims_of.get(p["policy_id"])
        ),
    )
    claim = json.loads(
        await ok(
            db,
            "file_insurance_claim",
            policy_id=policy["policy_id"],
            category="cancellation",
            incident_date=booking["cancelled_at"][:10],
            amount=booking["cancellation_fee"],
        )
    )
    assert claim["amount_claimed"] == booking["cancellation_fee"]


async def test_file_insurance_claim_refusals_change_nothing(db, seed):
    policy, booking = policy_on(seed, recent_trip(seed, "basic"))
    pid, start = policy["policy_id"], booking["start_date"]
    await fails(
        db,
        "file_insurance_claim",
        "insurance policy POL000000 not found",
        policy_id="POL000000",
        category="baggage",
        incident_date=start,
        amount=100,
    )
    await fails(
        db,
        "file_insurance_claim",
        "the basic plan does not cover medical claims; it covers cancellation and baggage",
        policy_id=pid,
        category="medical",
        incident_date=start,
        amount=100,
    )
    await fails(
        db,
        "file_insurance_claim",
        "a baggage claim must be more than $0 and at most $500.00 (the basic plan's baggage limit)",
        policy_id=pid,
        category="baggage",
        incident_date=start,
        amount=501,
    )
    await fails(
        db,
        "file_insurance_claim",
        "a baggage claim must be more than $0 and at most $500.00 (the basic plan's baggage limit)",
        policy_id=pid,
        category="baggage",
        incident_date=start,
        amount=0,
    )
    before = shift(start, -1)
    await fails(
        db,
        "file_insurance_claim",
        f"a baggage claim must be for an incident during the trip ({start} to {booking['end_date']})",
        policy_id=pid,
        category="baggage",
        incident_date=before,
        amount=100,
    )
    later = shift(TODAY, 1)
    await fails(
        db,
        "file_insurance_claim",
        f"the incident date {later} is in the future",
        policy_id=pid,
        category="baggage",
        incident_date=later,
        amount=100,
    )
    await fails(
        db,
        "file_insurance_claim",
        f"a cancellation claim needs booking {booking['booking_id']} to be cancelled first",
        policy_id=pid,
        category="cancellation",
        incident_date=start,
        amount=50,
    )
    await fails(
        db,
        "file_insurance_claim",
        "incident_date 'last week' is not a date of the form YYYY-MM-DD",
        policy_id=pid,
        category="baggage",
        incident_date="last week",
        amount=100,
    )


async def test_claims_too_late_or_twice_are_refused(db, seed):
    old, trip = policy_on(
        seed,
        lambda p, b: (
            p["plan"] == "comprehensive"
            and b["status"] == "completed"
            and days_between(b["end_date"], TODAY) > 60
        ),
    )
    age = days_between(trip["end_date"], TODAY)
    await fails(
        db,
        "file_insurance_claim",
        f"claims must be filed within 60 days of the incident; {trip['end_date']} was {age} days ago",
        policy_id=old["policy_id"],
        category="delay",
        incident_date=trip["end_date"],
        amount=100,
    )

    def open_recent(claim: Record) -> bool:
        booking = seed.bookings[seed.policies[claim["policy_id"]]["booking_id"]]
        return claim["status"] == "under_review" and days_between(booking["start_date"], TODAY) <= 55

    claim = first([c for cs in seed.claims_of.values() for c in cs], open_recent)
    policy = seed.policies[claim["policy_id"]]
    booking = seed.bookings[policy["booking_id"]]
    await fails(
        db,
        "file_insurance_claim",
        f"policy {policy['policy_id']} already has a {claim['category']} claim ({claim['claim_id']})",
        policy_id=policy["policy_id"],
        category=claim["category"],
        incident_date=booking["start_date"],
        amount=10,
    )
