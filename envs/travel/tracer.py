"""Travel's parts for the Tracer (docs/tracer.md): the intents a customer brings, grounded on the
seed view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py
(judged by rules.py, like the tools)."""

from __future__ import annotations

import random

from taue.envs.runtime.authoring import Customer, Grounded, Intent, TracerSpec, write
from taue.envs.travel import rules
from taue.envs.travel.policy_check import check_policy
from taue.envs.travel.rules import TODAY, Record, dollars, shift
from taue.envs.travel.seed_view import (
    CAR_WORDS,
    KIND_WORDS,
    PERSONAS,
    TravelView,
    booking_words,
    customers,
    load,
    long_date,
    method_words,
    span_words,
    upcoming,
)

RATE_WORDS = {"flexible": "flexible", "non_refundable": "non-refundable"}
INCIDENTS = {
    "baggage": ("the airline lost my suitcase", "the airline lost your suitcase"),
    "medical": ("I needed to see a doctor for an ear infection", "you needed a doctor for an ear infection"),
    "delay": ("my flight home was delayed by eleven hours", "your flight home was delayed by eleven hours"),
}

# ------------------------------------------------------------------------------------- new bookings


def _open_trip(view: TravelView, customer: Customer, rng: random.Random) -> tuple[Record, str] | None:
    trip = view.later_trip(customer.id, rng)
    return None if trip is None else (trip, view.city_of(trip))


def _new(
    view: TravelView,
    kind: str,
    customer: Customer,
    trip: Record,
    city: str,
    card: tuple[str, Record],
    **fields,
) -> Grounded:
    """A new booking: named by the itinerary it joins and paid with a named card."""
    pay = method_words(card[1])
    fields["known"] = {"itinerary": trip["title"], "city": city, "pay_with": pay, **fields["known"]}
    fields["bindings"] = {"itinerary_id": view.trip_lookups(trip), **fields["bindings"]}
    return Grounded(entities=frozenset({f"{customer.id}:new-{kind}"}), **fields)


def book_hotel(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    found, card = _open_trip(view, customer, rng), view.card(customer.id, rng)
    if found is None or card is None:
        return None
    trip, city = found
    check_in, check_out = view.new_dates(trip, rng, 5)
    hotels = [h for h in view.hotels.values() if h["city"] == city]
    hotel = rng.choice(hotels)
    rooms = [kind for kind, room in sorted(hotel["rooms"].items()) if room["rooms_left"] >= 1]
    if not rooms:
        return None
    room, rate = rng.choice(rooms), rng.choice(("flexible", "flexible", "non_refundable"))
    pay = method_words(card[1])
    stay = span_words(check_in, check_out)
    return _new(
        view,
        "hotel",
        customer,
        trip,
        city,
        card,
        request=f"For my '{trip['title']}' itinerary, please book a {room} room at {hotel['name']} from "
        f"{stay}, at the {RATE_WORDS[rate]} rate, paid with my {pay}.",
        situation=f"You want a {room} room at {hotel['name']} in {city} from {stay} added to your "
        f"'{trip['title']}' itinerary, at the {RATE_WORDS[rate]} rate, paid with your {pay}",
        bindings={"city": city, "check_in": check_in, "check_out": check_out},
        write=write(
            "book_hotel",
            customer_id=customer.id,
            itinerary_id=trip["itinerary_id"],
            hotel_id=hotel["hotel_id"],
            room_type=room,
            check_in=check_in,
            check_out=check_out,
            rate=rate,
            payment_method_id=card[0],
        ),
        known={
            "hotel": hotel["name"],
            "room_type": room,
            "check_in": check_in,
            "check_out": check_out,
            "rate": RATE_WORDS[rate],
        },
        discoverable={"hotel_id": hotel["hotel_id"], "payment_method_id": card[0]},
        evidence=(hotel["hotel_id"], check_in),
        reason="Book a hotel for a trip.",
    )


def _car(view: TravelView, customer: Customer, rng: random.Random, young: bool) -> Grounded | None:
    """A rental the customer may drive, or (`young`, refused) one whose minimum age they are under."""
    found, card = _open_trip(view, customer, rng), view.card(customer.id, rng)
    if found is None or card is None:
        return None
    trip, city = found
    pick_up, drop_off = view.new_dates(trip, rng, 6)
    age = rules.age_on(view.customers[customer.id]["date_of_birth"], pick_up)
    offers = [
        c
        for c in view.cars.values()
        if c["city"] == city
        and c["cars_left"] >= 1
        and (age < c["min_driver_age"] if young else age >= c["min_driver_age"])
    ]
    if not offers:
        return None
    car, rate = (
        rng.choice(sorted(offers, key=lambda c: c["car_id"])),
        rng.choice(("flexible", "non_refundable")),
    )
    pay, dates = method_words(card[1]), span_words(pick_up, drop_off)
    noun = CAR_WORDS[car["car_class"]]
    what = f"{'an' if noun[0] in 'aeiouS' else 'a'} {noun} from {car['company']} in {city}"
    return _new(
        view,
        "car",
        customer,
        trip,
        city,
        card,
        request=f"For my '{trip['title']}' itinerary, I'd like to rent {what} from {dates}, at the "
        f"{RATE_WORDS[rate]} rate, paid with my {pay}. I'll be the driver.",
        situation=f"You want to rent {what} from {dates} for your '{trip['title']}' itinerary, at the "
        f"{RATE_WORDS[rate]} rate, paid with your {pay}; you will drive it yourself",
        bindings={"city": city, "pick_up_date": pick_up, "drop_off_date": drop_off},
        write=write(
            "book_car_rental",
            customer_id=customer.id,
            itinerary_id=trip["itinerary_id"],
            car_id=car["car_id"],
            pick_up_date=pick_up,
            drop_off_date=drop_off,
            rate=rate,
            payment_method_id=card[0],
        ),
        known={
            "car": f"{noun} from {car['company']}",
            "pick_up_date": pick_up,
            "drop_off_date": drop_off,
            "rate": RATE_WORDS[rate],
        },
        discoverable={"car_id": car["car_id"], "payment_method_id": card[0]},
        evidence=(car["car_id"], pick_up),
        reason="Rent a car for a trip.",
    )


def book_car(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _car(view, customer, rng, young=False)


def young_driver(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _car(view, customer, rng, young=True)


def book_package(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    found, card = _open_trip(view, customer, rng), view.card(customer.id, rng)
    if found is None or card is None:
        return None
    trip, city = found
    package = rng.choice([p for p in view.packages.values() if p["destination"] == city])
    travellers = rng.randint(1, 3)
    begins, _ = view.window(trip)
    departures = [  # a departure that fits the trip: within three weeks of its start
        d
        for d, seats in sorted(package["departures"].items())
        if seats >= travellers and d > TODAY and abs(rules.days_between(begins, d)) <= 21
    ]
    if not departures:
        return None
    departure, pay = rng.choice(departures), method_words(card[1])
    people = "just me" if travellers == 1 else f"{travellers} travellers, me included"
    yours = "yourself only" if travellers == 1 else f"{travellers} travellers, you included"
    return _new(
        view,
        "package",
        customer,
        trip,
        city,
        card,
        request=f"For my '{trip['title']}' itinerary, please book the {package['name']} package departing "
        f"{long_date(departure)} ({departure}) for {people}, paid with my {pay}.",
        situation=f"You want the {package['name']} holiday package departing {long_date(departure)} "
        f"({departure}) for {yours}, added to your '{trip['title']}' itinerary and paid with your {pay}",
        bindings={"destination": city},
        write=write(
            "book_holiday_package",
            customer_id=customer.id,
            itinerary_id=trip["itinerary_id"],
            package_id=package["package_id"],
            departure_date=departure,
            travellers=travellers,
            payment_method_id=card[0],
        ),
        known={"package": package["name"], "departure_date": departure, "travellers": str(travellers)},
        discoverable={"package_id": package["package_id"], "payment_method_id": card[0]},
        evidence=(package["package_id"], departure),
        reason="Book a holiday package.",
    )


# ------------------------------------------------------------------------------ existing bookings


def _mine(view: TravelView, customer: Customer, rng: random.Random, *kinds: str) -> list[Record]:
    return view.ordered([b for b in view.bookings_of(customer.id) if b["kind"] in kinds and upcoming(b)], rng)


def change_dates(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    for booking in _mine(view, customer, rng, "hotel", "car"):
        if booking["rate"] != "flexible":
            continue
        move, extra = rng.choice((-2, -1, 1, 2, 3)), rng.choice((0, 0, 1, -1))
        start = shift(booking["start_date"], move)
        end = shift(booking["end_date"], move + extra)
        if rules.change_problems(booking, start, end):
            continue
        if check_policy(
            view,
            write(
                "change_booking_dates",
                booking_id=booking["booking_id"],
                new_start_date=start,
                new_end_date=end,
            ),
        ):
            continue
        words = booking_words(booking)
        return view.about(
            booking,
            request=f"Please move my {words} to {span_words(start, end)}.",
            situation=f"You want your {words} moved to {span_words(start, end)}; any price difference can go "
            f"on the card or credit it was paid with",
            write=write(
                "change_booking_dates",
                booking_id=booking["booking_id"],
                new_start_date=start,
                new_end_date=end,
            ),
            known={"booking": words, "new_start_date": start, "new_end_date": end},
            evidence=(booking["booking_id"], start),
            reason=f"Change the dates of a {KIND_WORDS[booking['kind']]}.",
        )
    return None


def _cancel(view: TravelView, booking: Record, reason: str) -> Grounded:
    words = booking_words(booking)
    return view.about(
        booking,
        request=f"Please cancel my {words}; {reason}.",
        situation=f"You want your {words} cancelled and refunded because {reason.replace('my ', 'your ')}",
        write=write("cancel_booking", booking_id=booking["booking_id"]),
        known={"booking_to_cancel": words},
        reason=f"Cancel a {KIND_WORDS[booking['kind']]}.",
    )


def cancel_booking(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    for booking in _mine(view, customer, rng, "hotel", "car", "package"):
        if not rules.cancel_problems(booking):
            return _cancel(view, booking, "my plans have changed")
    return None


def cancel_nonrefundable(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    for booking in _mine(view, customer, rng, "hotel", "car"):
        if booking["rate"] == "non_refundable":
            return _cancel(view, booking, "my plans have changed and I want my money back")
    return None


def change_package(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    for booking in _mine(view, customer, rng, "package"):
        package = view.packages.get(booking["item_id"], {})
        later = [d for d in sorted(package.get("departures", {})) if d != booking["start_date"] and d > TODAY]
        if not later:
            continue
        start = rng.choice(later)
        end = shift(start, booking["details"]["nights"])
        words = booking_words(booking)
        return view.about(
            booking,
            request=f"Please move my {words} to the {long_date(start)} ({start}) departure instead.",
            situation=f"You want your {words} moved to the package's {long_date(start)} ({start}) departure",
            write=write(
                "change_booking_dates",
                booking_id=booking["booking_id"],
                new_start_date=start,
                new_end_date=end,
            ),
            known={"booking": words, "new_departure": start},
            reason="Move a holiday package to another departure.",
        )
    return None


# ----------------------------------------------------------------------------------------- insurance


def _insure(view: TravelView, customer: Customer, rng: random.Random, late: bool) -> Grounded | None:
    for booking in _mine(view, customer, rng, "hotel", "car", "package"):
        problems = [rule_id for rule_id, _ in rules.insurance_problems(booking)]
        if problems != (["insurance-window"] if late else []):
            continue
        plan = rng.choice(("basic", "comprehensive"))
        action = write("add_travel_insurance", booking_id=booking["booking_id"], plan=plan)
        if not late and check_policy(view, action):
            continue
        words = booking_words(booking)
        return view.about(
            booking,
            request=f"I'd like to add {plan} travel insurance to my {words}.",
            situation=f"You want {plan} travel insurance added to your {words}",
            write=action,
            known={"booking_to_insure": words, "plan": plan},
            evidence=(booking["booking_id"], plan),
            reason="Add travel insurance to a booking.",
        )
    return None


def add_insurance(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _insure(view, customer, rng, late=False)


def late_insurance(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _insure(view, customer, rng, late=True)


def _policies(view: TravelView, customer: Customer, rng: random.Random) -> list[tuple[Record, Record]]:
    named = {b["booking_id"] for b in view.bookings_of(customer.id)}
    found = [
        (view.policies[p], view.bookings[view.policies[p]["booking_id"]])
        for p in view.policies_of.get(customer.id, [])
    ]
    return view.ordered([pair for pair in found if pair[1]["booking_id"] in named], rng)


def _claim(
    view: TravelView,
    policy: Record,
    booking: Record,
    category: str,
    incident: str,
    amount: float,
    words: tuple[str, str],
) -> Grounded:
    trip, text = booking_words(booking), f"{amount:g}"
    return view.about(
        booking,
        request=f"I need to file a {category} claim on the insurance of my {trip}: on {long_date(incident)} "
        f"({incident}) {words[0]}. I'm claiming {text} dollars.",
        situation=f"You want to file a {category} claim on the travel insurance of your {trip}: on "
        f"{long_date(incident)} ({incident}) {words[1]}, and you claim {text} dollars",
        bindings={"policy_id": view.policy_lookups(policy)},
        write=write(
            "file_insurance_claim",
            policy_id=policy["policy_id"],
            category=category,
            incident_date=incident,
            amount=amount,
        ),
        entities=frozenset({booking["booking_id"], policy["policy_id"]}),
        known={
            "insured_booking": trip,
            "claim_category": category,
            "incident_date": incident,
            "amount_claimed": f"{text} dollars",
        },
        discoverable={"policy_id": policy["policy_id"]},
        evidence=(policy["policy_id"], incident),
        reason=f"File a {category} insurance claim.",
    )


def _trip_claim(view: TravelView, customer: Customer, rng: random.Random, covered: bool) -> Grounded | None:
    """A claim for something during the trip; not `covered`: a medical claim on a basic plan."""
    for policy, booking in _policies(view, customer, rng):
        if booking["start_date"] > TODAY or booking["status"] == "cancelled" or policy["status"] != "active":
            continue
        categories = ["baggage", "medical", "delay"] if covered else ["medical"]
        category = rng.choice(categories)
        first = max(booking["start_date"], shift(TODAY, -rules.CLAIM_WINDOW_DAYS + 5))
        last = min(booking["end_date"], TODAY)
        if first > last:
            continue
        incident = shift(first, rng.randint(0, rules.days_between(first, last)))
        amount = rng.choice((120, 180, 240, 275, 360, 420))
        action = write(
            "file_insurance_claim",
            policy_id=policy["policy_id"],
            category=category,
            incident_date=incident,
            amount=amount,
        )
        broken = check_policy(view, action)
        if [r.id for r in broken] != ([] if covered else ["claim-coverage"]):
            continue
        return _claim(view, policy, booking, category, incident, amount, INCIDENTS[category])
    return None


def file_claim(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    for policy, booking in _policies(view, customer, rng):
        fee = booking["cancellation_fee"] or 0.0
        if booking["status"] != "cancelled" or not fee or booking["cancelled_at"][:10] < shift(TODAY, -55):
            continue
        incident = booking["cancelled_at"][:10]
        action = write(
            "file_insurance_claim",
            policy_id=policy["policy_id"],
            category="cancellation",
            incident_date=incident,
            amount=fee,
        )
        if not check_policy(view, action):
            why = (
                "I had to cancel because of a family emergency",
                "you had to cancel for a family emergency",
            )
            return _claim(view, policy, booking, "cancellation", incident, fee, why)
    return _trip_claim(view, customer, rng, covered=True)


def uncovered_claim(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _trip_claim(view, customer, rng, covered=False)


def claim_status(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    for policy, booking in _policies(view, customer, rng):
        claims = view.claims_of.get(policy["policy_id"], [])
        if len(claims) != 1:
            continue
        claim, trip = claims[0], booking_words(booking)
        # a paid claim is named by its amount: "paid" is a word any request may hold
        evidence = [] if claim["status"] == "paid" else [claim["status"].replace("_", " ")]
        if claim["approved_amount"] is not None:
            evidence.append(dollars(claim["approved_amount"]))
        return view.about(
            booking,
            kind="information",
            request=f"What is happening with the {claim['category']} claim I filed on the insurance of "
            f"my {trip}?",
            situation=f"You filed a {claim['category']} claim on the travel insurance of your {trip} and "
            f"want to know where it stands and, if it has been decided, how much it pays",
            bindings={"policy_id": view.policy_lookups(policy)},
            entities=frozenset({booking["booking_id"], policy["policy_id"]}),
            known={"insured_booking": trip, "claim_category": claim["category"]},
            discoverable={"policy_id": policy["policy_id"], "claim_id": claim["claim_id"]},
            evidence=tuple(evidence),
            reason="Ask about an insurance claim.",
        )
    return None


def refund_check(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    cancelled = [
        b for b in view.bookings_of(customer.id) if b["status"] == "cancelled" and b["refund_amount"]
    ]
    if not cancelled:
        return None
    booking = rng.choice(cancelled)
    words = booking_words(booking)
    return view.about(
        booking,
        kind="information",
        request=f"I cancelled my {words}. How much was refunded to me?",
        situation=f"You cancelled your {words} and want to know how much was refunded",
        known={"cancelled_booking": words},
        evidence=(dollars(booking["refund_amount"]),),
        reason="Ask about a refund.",
    )


BOOKING = ("get_itinerary_details", "get_booking_details")
INSURANCE = ("get_itinerary_details", "get_booking_details", "get_insurance_policy")
POLICY = ("get_insurance_policy",)
DETAILS = ("get_booking_details",)


def _search(kind: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The reads of a new booking: the itinerary it joins and the search it needs."""
    return ("get_itinerary_details", f"search_{kind}"), (f"search_{kind}",)


INTENTS = (
    Intent("book_hotel", "book_hotel", book_hotel, "booking a hotel", *_search("hotels")),
    Intent("book_car", "book_car_rental", book_car, "renting a car", *_search("car_rentals")),
    Intent("book_package", "book_holiday_package", book_package, "booking a holiday package",
           *_search("holiday_packages")),
    Intent("change_dates", "change_booking_dates", change_dates, "changing travel dates", BOOKING, DETAILS),
    Intent("cancel_booking", "cancel_booking", cancel_booking, "cancelling a booking", BOOKING, DETAILS),
    Intent("add_insurance", "add_travel_insurance", add_insurance, "adding travel insurance", BOOKING,
           DETAILS),
    Intent("file_claim", "file_insurance_claim", file_claim, "an insurance claim", INSURANCE, POLICY),
    Intent("claim_status", "get_insurance_policy", claim_status, "an insurance claim", INSURANCE),
    Intent("refund_check", "get_booking_details", refund_check, "a refund", BOOKING),
    Intent("cancel_nonrefundable", "cancel_booking", cancel_nonrefundable, "cancelling a booking", BOOKING,
           DETAILS, challenge=True),
    Intent("change_package", "change_booking_dates", change_package, "changing travel dates", BOOKING,
           DETAILS, challenge=True),
    Intent("late_insurance", "add_travel_insurance", late_insurance, "adding travel insurance", BOOKING,
           DETAILS, challenge=True),
    Intent("uncovered_claim", "file_insurance_claim", uncovered_claim, "an insurance claim", INSURANCE,
           POLICY, challenge=True),
    Intent("young_driver", "book_car_rental", young_driver, "renting a car", *_search("car_rentals"),
           challenge=True),
)  # fmt: skip


TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={2: 0.15, 3: 0.45, 4: 0.4},
    intent_counts={1: 0.05, 2: 0.45, 3: 0.5},
)
