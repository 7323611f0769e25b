"""Airline's parts for the Tracer (docs/tracer.md): the intents a customer brings, grounded on the
seed view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

import random
from functools import partial

from taue.envs.airline.policy_check import check_policy
from taue.envs.airline.seed_view import (
    CABIN_WORDS,
    FREE_BAGS,
    LAST_DAY,
    NEWCOMERS,
    PERSONAS,
    TODAY,
    UPGRADES,
    AirlineView,
    Record,
    bag_words,
    cancellable,
    card_words,
    compensable,
    customers,
    free_bags,
    load,
    long_date,
    new_flights,
    person,
    plain,
    shift,
    trip_words,
)
from taue.envs.airline.tools import AIRPORTS
from taue.envs.runtime.authoring import Customer, Grounded, Intent, Lookups, TracerSpec, write

# -------------------------------------------------------------------------------------------- intents

CANCEL_REASONS = {
    "business": ("my plans changed and I no longer need the trip", "your plans changed"),
    "recent": ("I booked it by mistake yesterday", "you booked it by mistake yesterday"),
    "insured": ("I have fallen ill and my doctor told me not to travel", "you have fallen ill"),
    "airline": ("the airline cancelled my flight", "the airline cancelled your flight"),
    "none": ("my plans changed", "your plans changed"),
}


def cancel_trip(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    trips = view.ordered([t for t in view.future(customer.id) if cancellable(view, t)], rng)
    return _cancel(view, trips[0], *CANCEL_REASONS[cancellable(view, trips[0])]) if trips else None


def cancel_ineligible(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    trips = [t for t in view.future(customer.id) if cancellable(view, t) is None and not view.flown(t)]
    return _cancel(view, view.ordered(trips, rng)[0], *CANCEL_REASONS["none"]) if trips else None


def _cancel(view: AirlineView, trip: Record, mine: str, yours: str) -> Grounded:
    words = trip_words(trip)
    return view.goal(
        trip,
        request=f"Please cancel {words} and refund it; {mine}.",
        situation=f"You want {words} cancelled and refunded because {yours}",
        write=write("cancel_reservation", reservation_id=trip["reservation_id"]),
        known={"trip_to_cancel": words, "cancel_reason": yours},
        reason="Cancel a reservation.",
    )


def moves(view: AirlineView, trip: Record) -> list[tuple[int, Record]]:
    """(segment index, the same flight on another day) that keep the itinerary in order."""
    options = []
    segments, count = trip["flights"], len(trip["passengers"])
    shapes = {(1, "one_way"): (0,), (2, "round_trip"): (0, 1)}
    for index in shapes.get((len(segments), trip["flight_type"]), ()):
        for days in (-2, -1, 1, 2):
            date = shift(segments[index]["date"], days)
            if not TODAY < date <= LAST_DAY:
                continue
            if len(segments) == 2 and not (
                date < segments[1]["date"] if index == 0 else date > segments[0]["date"]
            ):
                continue
            fare = view.fare(segments[index]["flight_number"], date, trip["cabin"], count)
            if fare is not None:
                new = {**segments[index], "date": date, "price": fare}
                options.append((index, new))
    return options


def _change(basic: bool, view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    """Moving a flight of an economy or business trip, or (`basic`, refused) of a basic economy one."""
    for trip in view.ordered(view.future(customer.id), rng):
        options = moves(view, trip) if (trip["cabin"] == "basic_economy") == basic else []
        if not options:
            continue
        index, new = rng.choice(options)
        method = view.payer(
            customer.id, (new["price"] - trip["flights"][index]["price"]) * len(trip["passengers"]), rng
        )
        if method is not None:
            return _move(view, trip, index, new, method)
    return None


change_flight, change_basic_economy = partial(_change, False), partial(_change, True)


def _move(view: AirlineView, trip: Record, index: int, new: Record, method: Record) -> Grounded:
    segments = list(trip["flights"])
    old, segments[index] = segments[index], new
    which = "return flight" if index == 1 else "flight" if len(segments) == 1 else "outbound flight"
    words, day = trip_words(trip), long_date(new["date"])
    pay = card_words(method)
    return view.goal(
        trip,
        request=f"On {words}, please move my {which} to {day}, same flight, and put any fare "
        f"difference on my {pay}.",
        situation=f"On {words}, you want your {which} moved from {long_date(old['date'])} to {day} "
        f"({new['date']}) on the same flight, any fare difference paid with your {pay}",
        bindings={"origin": new["origin"], "destination": new["destination"], "date": new["date"]},
        write=new_flights(trip, trip["cabin"], segments, method),
        known={"trip_to_change": words, "new_date": new["date"], "pay_with": pay},
        evidence=(trip["reservation_id"], new["date"]),
        reason="Move a flight to another day.",
    )


def upgrade_cabin(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    for trip in view.ordered(view.future(customer.id), rng):
        if trip["cabin"] not in UPGRADES:
            continue
        cabin = rng.choice(UPGRADES[trip["cabin"]])
        count = len(trip["passengers"])
        fares = [view.fare(s["flight_number"], s["date"], cabin, count) for s in trip["flights"]]
        if None in fares:
            continue
        cost = (sum(fares) - sum(s["price"] for s in trip["flights"])) * count
        method = view.payer(customer.id, cost, rng)
        if method is None:
            continue
        words, pay, segments = trip_words(trip), card_words(method), trip["flights"]
        return view.goal(
            trip,
            request=f"I'd like to move {words} up to {CABIN_WORDS[cabin]} on every flight, paid with "
            f"my {pay}.",
            situation=f"You want {words} upgraded to {CABIN_WORDS[cabin]} on all its flights, keeping the "
            f"same flights, and the difference paid with your {pay}",
            bindings={
                "origin": Lookups(tuple(s["origin"] for s in segments)),
                "destination": Lookups(tuple(s["destination"] for s in segments)),
                "date": Lookups(tuple(s["date"] for s in segments)),
            },
            write=new_flights(trip, cabin, segments, method),
            known={"trip_to_upgrade": words, "new_cabin": CABIN_WORDS[cabin], "pay_with": pay},
            evidence=(trip["reservation_id"], cabin),
            reason="Upgrade the cabin of a reservation.",
        )
    return None


def add_bags(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    for trip in view.ordered(view.future(customer.id), rng):
        free = free_bags(view, trip)
        if trip["total_baggages"] > free or trip["nonfree_baggages"]:
            continue
        extra = rng.choice((1, 1, 2))
        total = trip["total_baggages"] + extra
        paid = max(0, total - free)
        method = view.payer(customer.id, 50 * paid, rng)
        if method is None:
            continue
        return _bags(view, trip, total, paid, method, f"add {bag_words(extra)} to")
    return None


def remove_bags(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    for trip in view.ordered(view.future(customer.id), rng):
        method = view.payer(customer.id, 0, rng)
        if trip["total_baggages"] >= 1 and method is not None:
            return _bags(view, trip, trip["total_baggages"] - 1, 0, method, "take one checked bag off")
    return None


def _bags(view: AirlineView, trip: Record, total: int, paid: int, method: Record, verb: str) -> Grounded:
    words, pay = trip_words(trip), card_words(method)
    return view.goal(
        trip,
        request=f"Please {verb} {words}; anything to settle goes on my {pay}.",
        situation=f"You want to {verb} {words} ({bag_words(total)} in total afterwards), anything to settle "
        f"on your {pay}",
        write=write(
            "update_reservation_baggages",
            reservation_id=trip["reservation_id"],
            total_baggages=total,
            nonfree_baggages=paid,
            payment_id=method["id"],
        ),
        known={"trip_for_bags": words, "bags_in_total_afterwards": str(total), "pay_with": pay},
        reason="Change the checked bags of a reservation.",
    )


def fix_passenger(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    for trip in view.ordered(view.future(customer.id), rng):
        people = trip["passengers"]
        index = rng.randrange(len(people))
        old = people[index]
        if [person(p) for p in people].count(person(old)) > 1:
            continue
        if rng.random() < 0.5:
            new = dict(rng.choice(NEWCOMERS))
            if any(p["last_name"] == new["last_name"] for p in people):
                continue
            want = f"{person(new)} (born {new['dob']}) to travel instead of {person(old)}"
            known = {"leaving_traveller": person(old), "new_traveller": f"{person(new)}, born {new['dob']}"}
        else:
            new = {**old, "dob": shift(old["dob"], rng.choice((-366, -31, 31, 366)))}
            want = f"the date of birth of {person(old)} corrected to {new['dob']}"
            known = {"traveller": person(old), "correct_date_of_birth": new["dob"]}
        fixed = [dict(new) if i == index else dict(p) for i, p in enumerate(people)]
        words = trip_words(trip)
        return view.goal(
            trip,
            request=f"On {words}, I need {want.replace('the date of birth', 'the birth date')}.",
            situation=f"On {words}, you want {want}",
            write=write(
                "update_reservation_passengers", reservation_id=trip["reservation_id"], passengers=fixed
            ),
            known={"trip": words, **known},
            reason="Correct the travellers of a reservation.",
        )
    return None


def add_passenger(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    for trip in view.ordered(view.future(customer.id), rng):
        new = dict(rng.choice(NEWCOMERS))
        if len(trip["passengers"]) >= 5 or any(
            p["last_name"] == new["last_name"] for p in trip["passengers"]
        ):
            continue
        words = trip_words(trip)
        people = [dict(p) for p in trip["passengers"]] + [new]
        return view.goal(
            trip,
            request=f"Please add {person(new)} (born {new['dob']}) as another traveller on {words}.",
            situation=f"You want {person(new)} (born {new['dob']}) added as one more traveller on {words}",
            write=write(
                "update_reservation_passengers", reservation_id=trip["reservation_id"], passengers=people
            ),
            known={"trip": words, "new_traveller": f"{person(new)}, born {new['dob']}"},
            reason="Add a traveller to a reservation.",
        )
    return None


def cheapest_direct(view: AirlineView, origin: str, destination: str, date: str, cabin: str) -> Record | None:
    """The single cheapest direct flight the search lists, when it has a seat left."""
    listed = [
        (view.flights[n]["dates"][date]["prices"][cabin], n)
        for n in view.routes.get((origin, destination), [])
        if view.flights[n]["dates"].get(date, {}).get("status") == "available"
    ]
    if not listed:
        return None
    listed.sort()
    price, number = listed[0]
    if (len(listed) > 1 and listed[1][0] == price) or view.fare(number, date, cabin, 1) is None:
        return None
    return {"flight_number": number, "date": date, "price": price}


def _route(
    view: AirlineView, customer: Customer, rng: random.Random
) -> tuple[str, str, str, str, Record] | None:
    trips = view.trips(customer.id)
    origin = trips[0]["origin"] if trips else rng.choice(sorted(AIRPORTS))
    date = shift(TODAY, rng.randint(2, 14))
    cabin = rng.choice(sorted(CABIN_WORDS))
    routes = [r for r in view.routes if r[0] == origin]
    for start, destination in rng.sample(routes, len(routes)):
        best = cheapest_direct(view, start, destination, date, cabin)
        if best:
            return origin, destination, date, cabin, best
    return None


def _trip_text(origin: str, destination: str) -> str:
    return f"from {AIRPORTS[origin]} ({origin}) to {AIRPORTS[destination]} ({destination})"


def book_trip(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    found = _route(view, customer, rng)
    if found is None:
        return None
    origin, destination, date, cabin, best = found
    user = view.users[customer.id]
    method = view.payer(customer.id, best["price"], rng)
    if method is None:
        return None
    bags = rng.randint(0, FREE_BAGS[user["membership"]][cabin])
    route, pay, day = _trip_text(origin, destination), card_words(method), long_date(date)
    owner = {**user["name"], "dob": user["dob"]}
    booking = write("book_reservation", user_id=customer.id, origin=origin, destination=destination,
                    flight_type="one_way", cabin=cabin, flights=plain([best]), passengers=[owner],
                    payment_methods=[{"payment_id": method["id"], "amount": best["price"]}],
                    total_baggages=bags, nonfree_baggages=0, insurance="no")  # fmt: skip
    known = {"new_trip": f"one way {route}", "trip_type": "one_way", "travel_date": date, "insurance": "no",
             "cabin": CABIN_WORDS[cabin], "checked_bags": str(bags), "pay_with": pay}  # fmt: skip
    return Grounded(
        request=f"I'd like to book a one-way {CABIN_WORDS[cabin]} trip {route} on {day}, just for me, on the "
        f"cheapest direct flight, with {bag_words(bags)} and no insurance, paid with my {pay}.",
        situation=f"You want a one-way {CABIN_WORDS[cabin]} trip {route} on {day} ({date}) for yourself "
        f"only: the cheapest direct flight, {bag_words(bags)}, no travel insurance, paid with your {pay}",
        bindings={"origin": origin, "destination": destination, "date": date},
        write=booking,
        entities=frozenset({f"{customer.id}:booking"}),
        known=known,
        discoverable={"flight_number": best["flight_number"], "payment_id": method["id"]},
        evidence=(best["flight_number"],),
        reason="Book a new one-way trip.",
    )


def cheapest_fare(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    for trip in view.ordered(view.future(customer.id), rng):
        if trip["flight_type"] != "one_way":
            continue
        date = shift(trip["flights"][0]["date"], rng.choice((-2, -1, 1, 2)))
        best = cheapest_direct(view, trip["origin"], trip["destination"], date, trip["cabin"])
        if not TODAY < date <= LAST_DAY or best is None:
            continue
        words, day = trip_words(trip), long_date(date)
        return view.goal(
            trip,
            kind="information",
            request=f"I'm thinking of flying {day} instead for {words}: which is the cheapest direct flight "
            f"that day in the same cabin, and what is its fare?",
            situation=f"You are thinking of flying on {day} ({date}) instead for {words}, and you want to "
            f"know the cheapest direct flight of that day in the same cabin and its fare; you do not want to "
            f"change anything yet",
            bindings={"origin": trip["origin"], "destination": trip["destination"], "date": date},
            known={"trip_to_check": words, "other_date": date},
            evidence=(best["flight_number"], f"${best['price']}"),
            reason="Ask about fares on another day.",
        )
    return None


def flight_numbers(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    trips = view.future(customer.id)
    if not trips:
        return None
    trip = view.ordered(trips, rng)[0]
    words = trip_words(trip)
    return view.goal(
        trip,
        kind="information",
        request=f"Which flight numbers am I booked on for {words}?",
        situation=f"You want the flight numbers of {words}",
        known={"trip_to_check": words},
        evidence=tuple(dict.fromkeys(s["flight_number"] for s in trip["flights"])),
        reason="Check the flights of a reservation.",
    )


def compensation(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    user = view.users[customer.id]
    for trip in view.ordered(view.trips(customer.id), rng):
        lost = [s for s in trip["flights"] if view.status(s) == "cancelled"]
        if not lost or not compensable(user, trip):
            continue
        count = len(trip["passengers"])
        amount, segment = 100 * count, lost[0]
        flight = f"flight {segment['flight_number']} on {long_date(segment['date'])}"
        travellers = "you alone" if count == 1 else f"the {count} of you"
        return view.goal(
            trip,
            request=f"The airline cancelled my {flight}. I expect the compensation I am entitled to.",
            situation=f"The airline cancelled your {flight} ({segment['date']}) and you complain about it; "
            f"you have read that the airline gives a 100 dollar certificate per traveller, so you expect "
            f"{amount} dollars for {travellers}",
            write=write("send_certificate", user_id=customer.id, amount=amount),
            entities=frozenset({trip["reservation_id"], f"{customer.id}:certificate"}),
            known={
                "cancelled_flight": f"{segment['flight_number']} on {segment['date']}",
                "expected_compensation": f"{amount} dollars",
            },
            evidence=(str(amount),),
            reason="Complain about a cancelled flight.",
        )
    return None


TRIP = ("get_reservation_details",)
CHANGE = ("get_reservation_details", "search_direct_flight")
SEARCH = ("search_onestop_flight", "search_direct_flight")

INTENTS = (
    Intent("cancel_trip", "cancel_reservation", cancel_trip, "cancelling a trip", TRIP, TRIP),
    Intent("change_flight", "update_reservation_flights", change_flight, "changing a flight", CHANGE, CHANGE),
    Intent("upgrade_cabin", "update_reservation_flights", upgrade_cabin, "upgrading a cabin", CHANGE, TRIP),
    Intent("add_bags", "update_reservation_baggages", add_bags, "adding checked bags", TRIP, TRIP),
    Intent("fix_passenger", "update_reservation_passengers", fix_passenger, "fixing traveller details",
           TRIP, TRIP),
    Intent("book_trip", "book_reservation", book_trip, "booking a flight", SEARCH, ("search_direct_flight",)),
    Intent("compensation", "send_certificate", compensation, "a cancelled flight", TRIP, TRIP),
    Intent("cheapest_fare", "search_direct_flight", cheapest_fare, "comparing fares",
           ("get_reservation_details", "search_onestop_flight"), TRIP),
    Intent("flight_numbers", "get_reservation_details", flight_numbers, "checking a booking", TRIP),
    Intent("cancel_ineligible", "cancel_reservation", cancel_ineligible, "cancelling a trip", TRIP, TRIP,
           challenge=True),
    Intent("change_basic_economy", "update_reservation_flights", change_basic_economy, "changing a flight",
           TRIP, TRIP, challenge=True),
    Intent("remove_bags", "update_reservation_baggages", remove_bags, "removing checked bags", TRIP, TRIP,
           challenge=True),
    Intent("add_passenger", "update_reservation_passengers", add_passenger, "adding a traveller", TRIP, TRIP,
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
