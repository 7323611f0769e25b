"""The travel policy's hard rules as pure functions of plain records, shared by the write tools
(which refuse with the message) and the policy check the Tracer runs (which names the rule), so the
two always agree. Every check returns `Problem`s: (rule id, the message a tool error shows)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from taue.envs.runtime.money import Rounding, cents, whole

Record = dict[str, Any]
Problem = tuple[str, str]

CLOCK = "2025-06-02T09:00:00"
TODAY = CLOCK[:10]
ROUNDING: Rounding = "half_up"
"""How travel rounds money to the cent (envs/runtime/money.py)."""
NON_REFUNDABLE_SHARE = 0.85
"""A non-refundable rate costs this share of the flexible one, in whole dollars."""
INSURANCE_WINDOW_DAYS = 14
CLAIM_WINDOW_DAYS = 60
LONGEST = {"hotel": 30, "car": 28}
"""Most nights of a hotel stay, most days of a car rental."""
PACKAGE_CANCEL_DEADLINE = 7
PREMIUM_SHARES = {"basic": 0.06, "comprehensive": 0.10}
COVERED = {
    "basic": ("cancellation", "baggage"),
    "comprehensive": ("cancellation", "baggage", "medical", "delay"),
}
CLAIM_LIMITS = {
    "basic": {"baggage": 500.0},
    "comprehensive": {"baggage": 1500.0, "medical": 10000.0, "delay": 300.0},
}
"""Most a claim of a category may ask for; a cancellation claim is capped by the fee paid."""
OPEN_CLAIM_STATUSES = ("submitted", "under_review", "approved", "paid")


def day(text: str) -> date:
    return date.fromisoformat(text[:10])


def days_between(first: str, second: str) -> int:
    return (day(second) - day(first)).days


def shift(text: str, days: int) -> str:
    return (day(text) + timedelta(days=days)).isoformat()


def non_refundable(flexible: float) -> float:
    """The non-refundable rate (a room's night, a car's day) for a flexible one."""
    return whole(flexible * NON_REFUNDABLE_SHARE)


def dollars(value: float) -> str:
    return f"${value:.2f}"


def age_on(birth: str, when: str) -> int:
    born, then = day(birth), day(when)
    return then.year - born.year - ((then.month, then.day) < (born.month, born.day))


# ------------------------------------------------------------------------------------------ payments


def payment_problems(customer: Record, payment_method_id: str, amount: float) -> list[Problem]:
    """The method must be on the account; a travel credit must cover what it pays."""
    method = customer["payment_methods"].get(payment_method_id)
    if method is None:
        return [
            (
                "own-payment-method",
                f"payment method {payment_method_id} is not on customer {customer['customer_id']}'s account",
            )
        ]
    if method["type"] == "travel_credit" and method["balance"] < amount:
        return [
            (
                "credit-balance",
                f"travel credit {payment_method_id} has {dollars(method['balance'])}, "
                f"less than the {dollars(amount)} due",
            )
        ]
    return []


# ------------------------------------------------------------------------------------------- booking


def itinerary_problems(customer: Record, itinerary: Record) -> list[Problem]:
    if itinerary["customer_id"] != customer["customer_id"]:
        return [
            (
                "own-itinerary",
                f"itinerary {itinerary['itinerary_id']} does not belong to customer "
                f"{customer['customer_id']}",
            )
        ]
    if itinerary["status"] != "open":
        return [
            (
                "open-itinerary",
                f"itinerary {itinerary['itinerary_id']} is closed; bookings can only be "
                "added to an open itinerary",
            )
        ]
    return []


def dates_problems(kind: str, start: str, end: str) -> list[Problem]:
    """A hotel stay or car rental: starts after today, ends after it starts, not too long."""
    unit = "nights" if kind == "hotel" else "days"
    if start <= TODAY:
        return [("future-dates", f"the start date {start} must be after today ({TODAY})")]
    length = days_between(start, end)
    if length < 1:
        return [("future-dates", f"the end date {end} must be after the start date {start}")]
    if length > LONGEST[kind]:
        return [("longest-booking", f"a {kind} booking lasts at most {LONGEST[kind]} {unit}, not {length}")]
    return []


def hotel_problems(hotel: Record, room_type: str) -> list[Problem]:
    room = hotel["rooms"].get(room_type)
    if room is None:
        types = ", ".join(sorted(hotel["rooms"]))
        return [("room-type", f"hotel {hotel['hotel_id']} has no '{room_type}' rooms (it has {types})")]
    if room["rooms_left"] < 1:
        return [("availability", f"no '{room_type}' rooms are left at hotel {hotel['hotel_id']}")]
    return []


def car_problems(customer: Record, car: Record, pick_up: str) -> list[Problem]:
    if car["cars_left"] < 1:
        return [("availability", f"no cars are left for offer {car['car_id']}")]
    age = age_on(customer["date_of_birth"], pick_up)
    if age < car["min_driver_age"]:
        return [
            (
                "driver-age",
                f"the driver must be at least {car['min_driver_age']} on the pick-up day to "
                f"rent a {car['car_class']} car; the customer will be {age}",
            )
        ]
    return []


def package_problems(package: Record, departure: str, travellers: int) -> list[Problem]:
    if departure not in package["departures"]:
        listed = ", ".join(sorted(package["departures"]))
        return [
            (
                "package-departure",
                f"package {package['package_id']} does not depart on {departure} (departures: {listed})",
            )
        ]
    if departure <= TODAY:
        return [("future-dates", f"the departure {departure} must be after today ({TODAY})")]
    if not 1 <= travellers <= package["max_travellers"]:
        return [
            (
                "package-travellers",
                f"package {package['package_id']} takes 1 to {package['max_travellers']} travellers",
            )
        ]
    if package["departures"][departure] < travellers:
        return [
            (
                "availability",
                f"only {package['departures'][departure]} seats are left on the {departure} "
                f"departure of package {package['package_id']}",
            )
        ]
    return []


# ------------------------------------------------------------------------------ changes and cancelling


def upcoming_problems(booking: Record, verb: str) -> list[Problem]:
    """Only a confirmed booking that has not started may be cancelled or changed."""
    if booking["status"] != "confirmed":
        return [
            ("confirmed-only", f"booking {booking['booking_id']} is {booking['status']} and cannot be {verb}")
        ]
    if booking["start_date"] <= TODAY:
        return [
            (
                "not-started",
                f"booking {booking['booking_id']} started on {booking['start_date']} and can "
                f"no longer be {verb}",
            )
        ]
    return []


def cancel_problems(booking: Record) -> list[Problem]:
    problems = upcoming_problems(booking, "cancelled")
    if problems:
        return problems
    if booking["rate"] == "non_refundable":
        return [
            (
                "non-refundable",
                f"booking {booking['booking_id']} is at a non-refundable rate and cannot be "
                "cancelled or refunded",
            )
        ]
    days = days_between(TODAY, booking["start_date"])
    if booking["kind"] == "package" and days < PACKAGE_CANCEL_DEADLINE:
        return [
            (
                "package-cancel-deadline",
                f"a holiday package cannot be cancelled less than "
                f"{PACKAGE_CANCEL_DEADLINE} days before departure; booking {booking['booking_id']} "
                f"departs in {days} days",
            )
        ]
    return []


def fee_share(kind: str, days_before: int) -> float:
    """The share of the price kept as a cancellation fee, by days left before the start."""
    if kind == "hotel":
        return 0.0 if days_before >= 7 else 0.25 if days_before >= 2 else 0.5
    if kind == "car":
        return 0.0 if days_before >= 3 else 0.2
    return 0.1 if days_before >= 45 else 0.25 if days_before >= 14 else 0.5


def cancellation_fee(booking: Record) -> float:
    share = fee_share(booking["kind"], days_between(TODAY, booking["start_date"]))
    return cents(booking["total_price"] * share, ROUNDING)


def change_problems(booking: Record, start: str, end: str) -> list[Problem]:
    problems = upcoming_problems(booking, "changed")
    if problems:
        return problems
    if booking["kind"] == "package":
        return [
            (
                "package-no-change",
                "the dates of a holiday package cannot be changed; it would have to be "
                "cancelled and booked again",
            )
        ]
    if booking["rate"] == "non_refundable":
        return [
            (
                "non-refundable",
                f"booking {booking['booking_id']} is at a non-refundable rate and its dates "
                "cannot be changed",
            )
        ]
    if (start, end) == (booking["start_date"], booking["end_date"]):
        return [("new-dates", "the new dates are the same as the booked ones")]
    return dates_problems(booking["kind"], start, end)


def unit_price(booking: Record) -> float:
    return booking["details"]["nightly_rate" if booking["kind"] == "hotel" else "daily_rate"]


def changed_total(booking: Record, start: str, end: str) -> float:
    return cents(unit_price(booking) * days_between(start, end), ROUNDING)


# ----------------------------------------------------------------------------------------- insurance


def insurance_problems(booking: Record) -> list[Problem]:
    problems = upcoming_problems(booking, "insured")
    if problems:
        return problems
    if booking["policy_id"] is not None:
        return [
            (
                "one-policy",
                f"booking {booking['booking_id']} is already insured by policy {booking['policy_id']}",
            )
        ]
    age = days_between(booking["booked_at"], TODAY)
    if age > INSURANCE_WINDOW_DAYS:
        return [
            (
                "insurance-window",
                f"insurance can only be added within {INSURANCE_WINDOW_DAYS} days of "
                f"booking; booking {booking['booking_id']} was made {age} days ago",
            )
        ]
    return []


def premium(booking: Record, plan: str) -> float:
    return cents(booking["total_price"] * PREMIUM_SHARES[plan], ROUNDING)


def claim_problems(
    policy: Record, booking: Record, claims: list[Record], category: str, incident: str, amount: float
) -> list[Problem]:
    """Whether a claim may be filed: active policy, covered category, dates, one claim per category,
    and the plan's limit."""
    if policy["status"] != "active":
        return [("active-policy", f"policy {policy['policy_id']} is {policy['status']}")]
    if category not in COVERED[policy["plan"]]:
        covered = " and ".join(COVERED[policy["plan"]])
        return [
            (
                "claim-coverage",
                f"the {policy['plan']} plan does not cover {category} claims; it covers {covered}",
            )
        ]
    return _claim_date_problems(booking, category, incident) or _claim_amount_problems(
        policy, booking, claims, category, amount
    )


def _claim_date_problems(booking: Record, category: str, incident: str) -> list[Problem]:
    if incident > TODAY:
        return [("claim-dates", f"the incident date {incident} is in the future")]
    if days_between(incident, TODAY) > CLAIM_WINDOW_DAYS:
        return [
            (
                "claim-window",
                f"claims must be filed within {CLAIM_WINDOW_DAYS} days of the incident; "
                f"{incident} was {days_between(incident, TODAY)} days ago",
            )
        ]
    if category == "cancellation":
        if booking["status"] != "cancelled":
            return [
                (
                    "claim-cancellation",
                    f"a cancellation claim needs booking {booking['booking_id']} to be cancelled first",
                )
            ]
    elif not booking["start_date"] <= incident <= booking["end_date"]:
        return [
            (
                "claim-dates",
                f"a {category} claim must be for an incident during the trip "
                f"({booking['start_date']} to {booking['end_date']})",
            )
        ]
    return []


def _claim_amount_problems(
    policy: Record, booking: Record, claims: list[Record], category: str, amount: float
) -> list[Problem]:
    for claim in claims:
        if claim["category"] == category and claim["status"] in OPEN_CLAIM_STATUSES:
            return [
                (
                    "one-claim-per-category",
                    f"policy {policy['policy_id']} already has a {category} claim ({claim['claim_id']})",
                )
            ]
    if category == "cancellation":
        limit, what = booking["cancellation_fee"] or 0.0, "the cancellation fee paid"
    else:
        limit, what = CLAIM_LIMITS[policy["plan"]][category], f"the {policy['plan']} plan's {category} limit"
    if amount <= 0 or amount > limit:
        return [
            ("claim-limit", f"a {category} claim must be more than $0 and at most {dollars(limit)} ({what})")
        ]
    return []
