"""Travel's parts for the Tracer (docs/tracer.md): the intents a customer brings, grounded on the
seed view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py
(judged by rules.py, like the tools)."""

from __future__ import annotations

import random

from taue.envs.runtime.authoring import Alternative, Customer, Grounded, Intent, TracerSpec, Wording, write
from taue.envs.travel import rules
from taue.envs.travel.phrases import BANKS
from taue.envs.travel.policy_check import check_policy
from taue.envs.travel.rules import TODAY, Record, dollars, shift
from taue.envs.travel.seed_view import (
    CAR_WORDS,
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


def wording(intent: str, rng: random.Random, reason: str = "", **slots: object) -> Wording:
    """One draw of the intent's phrase bank (phrases.py), its slots filled from the records."""
    return BANKS[intent].word(rng, slots, reason=reason)


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
    said = wording(
        "book_hotel",
        rng,
        rate,
        itinerary=f"'{trip['title']}'",
        room=room,
        hotel=hotel["name"],
        city=city,
        stay=stay,
        rate=RATE_WORDS[rate],
        pay=pay,
    )
    return _new(
        view,
        "hotel",
        customer,
        trip,
        city,
        card,
        **said.fields(),
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
    )


def _car(view: TravelView, customer: Customer, rng: random.Random, young: bool) -> Grounded | None:
    """A rental the customer may drive, or (`young`, refused) one whose minimum age they are under."""
    found, card = _open_trip(view, customer, rng), view.card(customer.id, rng)
    if found is None or card is None:
        return None
    trip, city = found
    pick_up, drop_off = view.new_dates(trip, rng, 6)
    offers = _cars(view, customer, city, pick_up, old_enough=not young)
    if not offers:
        return None
    car, rate = rng.choice(offers), rng.choice(("flexible", "non_refundable"))
    bank = "young_driver" if young else "book_car"
    return _rent(view, customer, trip, card, car, (pick_up, drop_off), rate, bank, rng)


def car_instead(
    view: TravelView, customer: Customer, refused: Grounded, rng: random.Random
) -> Grounded | None:
    """The policy's alternative to a car the customer is too young for: a car of the same city and
    dates whose minimum age they meet, which the customer takes."""
    assert refused.write is not None
    wanted = refused.write.arguments
    city = view.cars[wanted["car_id"]]["city"]
    offers = _cars(view, customer, city, wanted["pick_up_date"], old_enough=True)
    card = (wanted["payment_method_id"], dict(view.cards(customer.id))[wanted["payment_method_id"]])
    trip, dates = view.itineraries[wanted["itinerary_id"]], (wanted["pick_up_date"], wanted["drop_off_date"])
    return (
        _rent(view, customer, trip, card, rng.choice(offers), dates, wanted["rate"], "car_instead", rng)
        if offers
        else None
    )


def _cars(view: TravelView, customer: Customer, city: str, pick_up: str, old_enough: bool) -> list[Record]:
    age = rules.age_on(view.customers[customer.id]["date_of_birth"], pick_up)
    return sorted(
        (c for c in view.cars.values()
         if c["city"] == city and c["cars_left"] >= 1 and (age >= c["min_driver_age"]) == old_enough),
        key=lambda c: c["car_id"],
    )  # fmt: skip


def _rent(
    view: TravelView,
    customer: Customer,
    trip: Record,
    card: tuple[str, Record],
    car: Record,
    dates: tuple[str, str],
    rate: str,
    bank: str,
    rng: random.Random,
) -> Grounded:
    (pick_up, drop_off), city = dates, car["city"]
    pay, span = method_words(card[1]), span_words(pick_up, drop_off)
    noun = CAR_WORDS[car["car_class"]]
    what = f"{'an' if noun[0] in 'aeiouS' else 'a'} {noun} from {car['company']} in {city}"
    said = wording(bank, rng, rate, itinerary=f"'{trip['title']}'", car=what, dates=span,
                   rate=RATE_WORDS[rate], pay=pay)  # fmt: skip
    return _new(
        view,
        "car",
        customer,
        trip,
        city,
        card,
        **said.fields(),
        bindings={"city": city, "pick_up_date": pick_up, "drop_off_date": drop_off},
        write=write("book_car_rental", customer_id=customer.id, itinerary_id=trip["itinerary_id"],
                    car_id=car["car_id"], pick_up_date=pick_up, drop_off_date=drop_off, rate=rate,
                    payment_method_id=card[0]),
        known={"car": f"{noun} from {car['company']}", "pick_up_date": pick_up, "drop_off_date": drop_off,
               "rate": RATE_WORDS[rate]},
        discoverable={"car_id": car["car_id"], "payment_method_id": card[0]},
        evidence=(car["car_id"], pick_up),
    )  # fmt: skip


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
    party = "yourself only" if travellers == 1 else f"{travellers} travellers, you included"
    said = wording(
        "book_package",
        rng,
        "solo" if travellers == 1 else "group",
        itinerary=f"'{trip['title']}'",
        package=package["name"],
        day=long_date(departure),
        date=departure,
        people=people,
        party=party,
        pay=pay,
    )
    return _new(
        view,
        "package",
        customer,
        trip,
        city,
        card,
        **said.fields(),
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
        action = write(
            "change_booking_dates", booking_id=booking["booking_id"], new_start_date=start, new_end_date=end
        )
        if rules.change_problems(booking, start, end) or check_policy(view, action):
            continue
        words = booking_words(booking)
        said = wording(
            "change_dates",
            rng,
            "earlier" if move < 0 else "later",
            booking=words,
            span=span_words(start, end),
        )
        return view.about(
            booking,
            **said.fields(),
            write=action,
            known={"booking": words, "new_start_date": start, "new_end_date": end},
            evidence=(booking["booking_id"], start),
        )
    return None


def _cancel(view: TravelView, booking: Record, said: Wording) -> Grounded:
    return view.about(
        booking,
        **said.fields(),
        write=write("cancel_booking", booking_id=booking["booking_id"]),
        known={"booking_to_cancel": booking_words(booking)},
    )


def cancel_booking(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    for booking in _mine(view, customer, rng, "hotel", "car", "package"):
        if not rules.cancel_problems(booking):
            said = wording("cancel_booking", rng, booking["kind"], booking=booking_words(booking))
            return _cancel(view, booking, said)
    return None


def cancel_nonrefundable(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    for booking in _mine(view, customer, rng, "hotel", "car"):
        if booking["rate"] == "non_refundable":
            return _cancel(
                view, booking, wording("cancel_nonrefundable", rng, booking=booking_words(booking))
            )
    return None


def change_package(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    for booking in _mine(view, customer, rng, "package"):
        package = view.packages.get(booking["item_id"], {})
        later = [  # another departure close to the booked one: a move of days or weeks, not months
            d
            for d in sorted(package.get("departures", {}))
            if d != booking["start_date"]
            and d > TODAY
            and abs(rules.days_between(booking["start_date"], d)) <= 30
        ]
        if not later:
            continue
        start = rng.choice(later)
        end = shift(start, booking["details"]["nights"])
        words = booking_words(booking)
        said = wording(
            "change_package",
            rng,
            "earlier" if start < booking["start_date"] else "later",
            booking=words,
            day=long_date(start),
            date=start,
        )
        return view.about(
            booking,
            **said.fields(),
            write=write(
                "change_booking_dates",
                booking_id=booking["booking_id"],
                new_start_date=start,
                new_end_date=end,
            ),
            known={"booking": words, "new_departure": start},
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
        said = wording("late_insurance" if late else "add_insurance", rng, plan, booking=words, plan=plan)
        return view.about(
            booking,
            **said.fields(),
            write=action,
            known={"booking_to_insure": words, "plan": plan},
            evidence=(booking["booking_id"], plan),
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


# --------------------------------------------------------------------------------------------- claims

AMOUNTS = {
    "baggage": (180, 240, 275, 360, 420),
    "medical": (120, 180, 240, 360, 420, 650),
    "delay": (60, 85, 120, 150, 180, 240),
}
"""What a customer claims for a loss during the trip, by category (under every plan's limit)."""


def incidents(view: TravelView, booking: Record, category: str) -> list[tuple[str, str]]:
    """(reason key, day) pairs a `category` incident on `booking` can plausibly have: inside the
    booking's dates, on or before today and well within the claim window; a lost suitcase on the
    trip's first day or later, a delayed flight on the trip's first or last day only."""
    first = max(booking["start_date"], shift(TODAY, -rules.CLAIM_WINDOW_DAYS + 5))
    last = min(booking["end_date"], TODAY)
    days = [shift(first, n) for n in range(rules.days_between(first, last) + 1)] if first <= last else []
    begins, ends = view.window(view.itineraries[booking["itinerary_id"]])
    if category == "medical":
        return [("medical", day) for day in days]
    if category == "baggage":
        return [("baggage_arrival" if day == begins else "baggage_during", day) for day in days]
    return [("delay_out" if d == begins else "delay_home", d) for d in days if d in (begins, ends)]


def _claim(view: TravelView, customer: Customer, rng: random.Random, covered: bool) -> Grounded | None:
    """A claim for something during the trip; not `covered`: a medical claim on a basic plan."""
    for policy, booking in _policies(view, customer, rng):
        if booking["start_date"] > TODAY or booking["status"] == "cancelled" or policy["status"] != "active":
            continue
        category = rng.choice(["baggage", "medical", "delay"] if covered else ["medical"])
        options = incidents(view, booking, category)
        if not options:
            continue
        key, incident = rng.choice(options)
        amount = rng.choice(AMOUNTS[category])
        action = write(
            "file_insurance_claim",
            policy_id=policy["policy_id"],
            category=category,
            incident_date=incident,
            amount=amount,
        )
        if [r.id for r in check_policy(view, action)] != ([] if covered else ["claim-coverage"]):
            continue
        trip, text = booking_words(booking), f"{amount:g} dollars"
        said = wording(
            "file_claim" if covered else "uncovered_claim",
            rng,
            key,
            booking=trip,
            category=category,
            day=long_date(incident),
            date=incident,
            amount=text,
        )
        return view.about(
            booking,
            **said.fields(),
            bindings={"policy_id": view.policy_lookups(policy)},
            write=action,
            entities=frozenset({booking["booking_id"], policy["policy_id"]}),
            known={
                "insured_booking": trip,
                "claim_category": category,
                "incident_date": incident,
                "amount_claimed": text,
            },
            discoverable={"policy_id": policy["policy_id"]},
            evidence=(policy["policy_id"], incident),
        )
    return None


def file_claim(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _claim(view, customer, rng, covered=True)


def uncovered_claim(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _claim(view, customer, rng, covered=False)


def claim_cancellation(view: TravelView, customer: Customer, rng: random.Random) -> Grounded | None:
    """The fee of a cancelled booking claimed back: the customer names no amount, the agent reads the
    fee off the booking (a required read)."""
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
        if check_policy(view, action):
            continue
        trip = booking_words(booking)
        said = wording("claim_cancellation", rng, booking=trip, day=long_date(incident), date=incident)
        return view.about(
            booking,
            **said.fields(),
            bindings={"policy_id": view.policy_lookups(policy)},
            write=action,
            entities=frozenset({booking["booking_id"], policy["policy_id"]}),
            known={"insured_booking": trip, "claim_category": "cancellation", "incident_date": incident},
            discoverable={"policy_id": policy["policy_id"], "booking_id": booking["booking_id"]},
            evidence=(policy["policy_id"], incident),
        )
    return None


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
            **wording("claim_status", rng, category=claim["category"], booking=trip).fields(),
            kind="information",
            bindings={"policy_id": view.policy_lookups(policy)},
            entities=frozenset({booking["booking_id"], policy["policy_id"]}),
            known={"insured_booking": trip, "claim_category": claim["category"]},
            discoverable={"policy_id": policy["policy_id"], "claim_id": claim["claim_id"]},
            evidence=tuple(evidence),
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
        **wording("refund_check", rng, booking=words).fields(),
        kind="information",
        known={"cancelled_booking": words},
        evidence=(dollars(booking["refund_amount"]),),
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
    Intent("claim_cancellation", "file_insurance_claim", claim_cancellation, "an insurance claim", INSURANCE,
           ("get_booking_details", "get_insurance_policy"), weight=0.3),
    Intent("claim_status", "get_insurance_policy", claim_status, "an insurance claim", INSURANCE,
           weight=0.15),
    Intent("refund_check", "get_booking_details", refund_check, "a refund", BOOKING, weight=0.15),
    Intent("cancel_nonrefundable", "cancel_booking", cancel_nonrefundable, "cancelling a booking", BOOKING,
           DETAILS, challenge=True),
    Intent("change_package", "change_booking_dates", change_package, "changing travel dates", BOOKING,
           DETAILS, challenge=True),
    Intent("late_insurance", "add_travel_insurance", late_insurance, "adding travel insurance", BOOKING,
           DETAILS, challenge=True),
    Intent("uncovered_claim", "file_insurance_claim", uncovered_claim, "an insurance claim", INSURANCE,
           POLICY, challenge=True),
    Intent("young_driver", "book_car_rental", young_driver, "renting a car", *_search("car_rentals"),
           challenge=True, alternative=Alternative("car_instead", "book_car_rental", car_instead)),
)  # fmt: skip


TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={2: 0.55, 3: 0.35, 4: 0.1},
    intent_counts={2: 0.2, 3: 0.4, 4: 0.4},
)
