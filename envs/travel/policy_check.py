"""Travel's policy as code: the hard rules of policy.md that the Tracer checks writes against
(docs/tracer.md). A gold write must break none; a policy challenge's asked-for write must break at
least one, and the broken rules' `reasons` are the phrases a refusal is accepted with.

The judgement itself is rules.py, the same functions the write tools refuse with, so the tools and
this check cannot disagree; here each problem is named as a `Rule`."""

from __future__ import annotations

from taue.contracts.tasks import Action
from taue.envs.runtime.authoring import Rule
from taue.envs.runtime.money import cents
from taue.envs.travel import rules
from taue.envs.travel.rules import Problem, Record
from taue.envs.travel.seed_view import TravelView


def rule(rule_id: str, text: str, reasons: str) -> Rule:
    """A rule whose refusal phrases are given as one '|'-separated string."""
    return Rule(rule_id, text, tuple(r for r in reasons.split("|") if r))


RULES = {
    r.id: r
    for r in (
        rule(
            "own-payment-method",
            "Only payment methods on the customer's own account can pay.",
            "not on your account|payment method",
        ),
        rule("credit-balance", "A travel credit pays only up to its balance.", "balance|not enough credit"),
        rule("own-itinerary", "Bookings go only into the customer's own itineraries.", "not your itinerary"),
        rule("open-itinerary", "Bookings are added only to open itineraries.", "closed|open itinerary"),
        rule(
            "future-dates",
            "Stays, rentals and departures must start after today and end after they start.",
            "in the past|after today",
        ),
        rule(
            "longest-booking",
            "A hotel stay lasts at most 30 nights, a car rental at most 28 days.",
            "30 nights|28 days|at most",
        ),
        rule("room-type", "Only room types the hotel has can be booked.", "room type"),
        rule(
            "availability",
            "Nothing can be booked once no rooms, cars or seats are left.",
            "no rooms left|sold out|no seats|no cars left|not available",
        ),
        rule(
            "driver-age",
            "Drivers must be at least 21, and at least 25 for SUVs, vans and premium cars.",
            "at least 25|driver age|minimum age|too young|under 25",
        ),
        rule(
            "package-departure", "A package is booked only on one of its departure dates.", "departure date"
        ),
        rule(
            "package-travellers",
            "A package booking takes between one traveller and the package's maximum.",
            "maximum|travellers",
        ),
        rule(
            "confirmed-only",
            "Only confirmed bookings can be changed, cancelled or insured.",
            "already cancelled|completed|only confirmed",
        ),
        rule("not-started", "Nothing changes once a booking has started.", "already started|has started"),
        rule(
            "non-refundable",
            "Non-refundable bookings can be neither cancelled, refunded nor moved.",
            "non-refundable|nonrefundable|non refundable",
        ),
        rule(
            "package-cancel-deadline",
            "A package cannot be cancelled less than 7 days before departure.",
            "7 days|seven days",
        ),
        rule(
            "package-no-change",
            "The dates of a holiday package cannot be changed.",
            "cannot be changed|can't be changed|cancel and rebook|booked again|cancelled and booked",
        ),
        rule("new-dates", "A date change must change the dates.", "same dates"),
        rule("one-policy", "A booking carries at most one insurance policy.", "already insured|already has"),
        rule(
            "insurance-window",
            "Insurance can be added only within 14 days of booking.",
            "14 days|fourteen days|two weeks|window",
        ),
        rule("active-policy", "Claims are filed only on active policies.", "not active"),
        rule(
            "claim-coverage",
            "The basic plan covers only cancellation and baggage claims.",
            "not covered|does not cover|doesn't cover|basic plan|only covers",
        ),
        rule(
            "claim-dates",
            "A claim's incident is in the past and, except cancellations, during the trip.",
            "during the trip|in the future",
        ),
        rule("claim-window", "Claims must be filed within 60 days of the incident.", "60 days|sixty days"),
        rule(
            "claim-cancellation", "A cancellation claim needs the booking cancelled first.", "cancelled first"
        ),
        rule("one-claim-per-category", "A policy takes one open claim per category.", "already has a"),
        rule(
            "claim-limit",
            "A claim asks for more than zero and at most the plan's limit or the fee paid.",
            "limit|at most|cancellation fee",
        ),
    )
}


def named(problems: list[Problem]) -> list[Rule]:
    return [RULES[rule_id] for rule_id, _ in problems]


def check_policy(view: TravelView, action: Action) -> list[Rule]:
    """The rules of policy.md that the write `action` breaks, judged on the seed records."""
    args, name = action.arguments, action.name
    if name in ("book_hotel", "book_car_rental", "book_holiday_package"):
        return named(_booking_problems(view, name, args))
    if name == "file_insurance_claim":
        policy = view.policies[args["policy_id"]]
        booking, claims = view.bookings[policy["booking_id"]], view.claims_of.get(args["policy_id"], [])
        return named(
            rules.claim_problems(
                policy, booking, claims, args["category"], args["incident_date"], float(args["amount"])
            )
        )
    booking = view.bookings[args["booking_id"]]
    customer = view.customers[booking["customer_id"]]
    if name == "cancel_booking":
        return named(rules.cancel_problems(booking))
    if name == "change_booking_dates":
        start, end = args["new_start_date"], args["new_end_date"]
        problems = rules.change_problems(booking, start, end)
        if not problems:
            extra = rules.changed_total(booking, start, end) - booking["total_price"]
            problems = rules.payment_problems(customer, booking["payment_method_id"], max(extra, 0.0))
        return named(problems)
    if name == "add_travel_insurance":
        problems = rules.insurance_problems(booking)
        cost = rules.premium(booking, args["plan"])
        return named(problems or rules.payment_problems(customer, booking["payment_method_id"], cost))
    raise ValueError(f"not a write of the travel domain: {name}")


def _booking_problems(view: TravelView, name: str, args: Record) -> list[Problem]:
    customer = view.customers[args["customer_id"]]
    problems = rules.itinerary_problems(customer, view.itineraries[args["itinerary_id"]])
    if name == "book_hotel":
        hotel = view.hotels[args["hotel_id"]]
        start, end = args["check_in"], args["check_out"]
        problems += rules.dates_problems("hotel", start, end) + rules.hotel_problems(hotel, args["room_type"])
        total = hotel["rooms"].get(args["room_type"], {}).get(args["rate"], 0.0) * rules.days_between(
            start, end
        )
    elif name == "book_car_rental":
        car = view.cars[args["car_id"]]
        start, end = args["pick_up_date"], args["drop_off_date"]
        problems += rules.dates_problems("car", start, end) + rules.car_problems(customer, car, start)
        daily = car["daily_rate"] if args["rate"] == "flexible" else rules.non_refundable(car["daily_rate"])
        total = daily * rules.days_between(start, end)
    else:
        package = view.packages[args["package_id"]]
        problems += rules.package_problems(package, args["departure_date"], args["travellers"])
        total = package["price_per_person"] * args["travellers"]
    return problems + rules.payment_problems(
        customer, args["payment_method_id"], cents(total, rules.ROUNDING)
    )
