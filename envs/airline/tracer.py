"""Airline's parts for the Tracer (docs/tracer.md): the intents a customer brings, grounded on the
seed view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

import random
from functools import partial

from taue.envs.airline.phrases import BANKS
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
from taue.envs.runtime.authoring import (
    Alternative,
    Customer,
    Grounded,
    Intent,
    Lookups,
    TracerSpec,
    Wording,
    write,
)

# -------------------------------------------------------------------------------------------- intents


def wording(intent: str, rng: random.Random, reason: str = "", **slots: object) -> Wording:
    """One draw of the intent's phrase bank (phrases.py), its slots filled from the records."""
    return BANKS[intent].word(rng, slots, reason=reason)


def cancel_trip(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    trips = view.ordered([t for t in view.future(customer.id) if cancellable(view, t)], rng)
    if not trips:
        return None
    return _cancel(
        view,
        trips[0],
        wording("cancel_trip", rng, cancellable(view, trips[0]) or "", trip=trip_words(trips[0])),
    )


def cancel_ineligible(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    trips = [t for t in view.future(customer.id) if cancellable(view, t) is None and not view.flown(t)]
    if not trips:
        return None
    trip = view.ordered(trips, rng)[0]
    return _cancel(view, trip, wording("cancel_ineligible", rng, trip=trip_words(trip)))


def _cancel(view: AirlineView, trip: Record, words: Wording) -> Grounded:
    return view.goal(
        trip,
        **words.fields(),
        write=write("cancel_reservation", reservation_id=trip["reservation_id"]),
        known={"trip_to_cancel": trip_words(trip), "cancel_reason": words.reason},
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
            return _move(
                view, trip, index, new, method, "change_basic_economy" if basic else "change_flight", rng
            )
    return None


change_flight, change_basic_economy = partial(_change, False), partial(_change, True)


def change_instead(
    view: AirlineView, customer: Customer, refused: Grounded, rng: random.Random
) -> Grounded | None:
    """The policy's alternative to a refused cancellation: a change of flights where the rules allow
    it (not in basic economy), which the customer takes."""
    assert refused.write is not None
    trip = view.reservations[refused.write.arguments["reservation_id"]]
    options = moves(view, trip) if trip["cabin"] != "basic_economy" else []
    if not options:
        return None
    index, new = rng.choice(options)
    cost = (new["price"] - trip["flights"][index]["price"]) * len(trip["passengers"])
    method = view.payer(customer.id, cost, rng)
    return _move(view, trip, index, new, method, "change_instead", rng) if method is not None else None


def _move(
    view: AirlineView, trip: Record, index: int, new: Record, method: Record, intent: str, rng: random.Random
) -> Grounded:
    segments = list(trip["flights"])
    old, segments[index] = segments[index], new
    which = "return flight" if index == 1 else "flight" if len(segments) == 1 else "outbound flight"
    words, pay = trip_words(trip), card_words(method)
    key = "earlier" if new["date"] < old["date"] else "later"
    said = wording(
        intent,
        rng,
        key,
        trip=words,
        which=which,
        old_day=long_date(old["date"]),
        day=long_date(new["date"]),
        date=new["date"],
        pay=pay,
    )
    return view.goal(
        trip,
        **said.fields(),
        bindings={"origin": new["origin"], "destination": new["destination"], "date": new["date"]},
        write=new_flights(trip, trip["cabin"], segments, method),
        known={"trip_to_change": words, "new_date": new["date"], "pay_with": pay},
        evidence=(trip["reservation_id"], new["date"]),
    )


def upgrade_cabin(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    for trip in view.ordered(view.future(customer.id), rng):
        if trip["cabin"] not in UPGRADES:
            continue
        cabin = rng.choice(UPGRADES[trip["cabin"]])
        count = len(trip["passengers"])
        fares = [view.fare(s["flight_number"], s["date"], cabin, count) for s in trip["flights"]]
        priced = [fare for fare in fares if fare is not None]
        if len(priced) < len(fares):
            continue
        cost = (sum(priced) - sum(s["price"] for s in trip["flights"])) * count
        method = view.payer(customer.id, cost, rng)
        if method is None:
            continue
        words, pay, segments = trip_words(trip), card_words(method), trip["flights"]
        said = wording("upgrade_cabin", rng, cabin, trip=words, cabin=CABIN_WORDS[cabin], pay=pay)
        return view.goal(
            trip,
            **said.fields(),
            bindings={
                "origin": Lookups(tuple(s["origin"] for s in segments)),
                "destination": Lookups(tuple(s["destination"] for s in segments)),
                "date": Lookups(tuple(s["date"] for s in segments)),
            },
            write=new_flights(trip, cabin, segments, method),
            known={"trip_to_upgrade": words, "new_cabin": CABIN_WORDS[cabin], "pay_with": pay},
            evidence=(trip["reservation_id"], cabin),
        )
    return None


EXTRA_WORDS = {1: "one more checked bag", 2: "two more checked bags"}


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
        words, pay = trip_words(trip), card_words(method)
        said = wording("add_bags", rng, trip=words, extra=EXTRA_WORDS[extra], total=bag_words(total), pay=pay)
        return _bags(view, trip, total, paid, method, said)
    return None


def remove_bags(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    for trip in view.ordered(view.future(customer.id), rng):
        method = view.payer(customer.id, 0, rng)
        if trip["total_baggages"] >= 1 and method is not None:
            said = wording("remove_bags", rng, trip=trip_words(trip), pay=card_words(method))
            return _bags(view, trip, trip["total_baggages"] - 1, 0, method, said)
    return None


def _bags(view: AirlineView, trip: Record, total: int, paid: int, method: Record, said: Wording) -> Grounded:
    return view.goal(
        trip,
        **said.fields(),
        write=write(
            "update_reservation_baggages",
            reservation_id=trip["reservation_id"],
            total_baggages=total,
            nonfree_baggages=paid,
            payment_id=method["id"],
        ),
        known={
            "trip_for_bags": trip_words(trip),
            "bags_in_total_afterwards": str(total),
            "pay_with": card_words(method),
        },
    )


def _passengers(
    view: AirlineView, trip: Record, people: list[Record], said: Wording, known: dict
) -> Grounded:
    return view.goal(
        trip,
        **said.fields(),
        write=write(
            "update_reservation_passengers", reservation_id=trip["reservation_id"], passengers=people
        ),
        known={"trip": trip_words(trip), **known},
    )


def _newcomer(trip: Record, rng: random.Random) -> Record | None:
    new = dict(rng.choice(NEWCOMERS))
    return None if any(p["last_name"] == new["last_name"] for p in trip["passengers"]) else new


def replace_passenger(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    for trip in view.ordered(view.future(customer.id), rng):
        people, new = trip["passengers"], _newcomer(trip, rng)
        index = rng.randrange(len(people))
        old = people[index]
        if new is None or [person(p) for p in people].count(person(old)) > 1:
            continue
        said = wording(
            "replace_passenger", rng, trip=trip_words(trip), old=person(old), new=person(new), dob=new["dob"]
        )
        fixed = [dict(new) if i == index else dict(p) for i, p in enumerate(people)]
        known = {"traveller": person(old), "new_traveller": f"{person(new)}, born {new['dob']}"}
        return _passengers(view, trip, fixed, said, known)
    return None


def fix_birth_date(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    for trip in view.ordered(view.future(customer.id), rng):
        people = trip["passengers"]
        index = rng.randrange(len(people))
        old = people[index]
        if [person(p) for p in people].count(person(old)) > 1:
            continue
        new = {**old, "dob": shift(old["dob"], rng.choice((-366, -31, 31, 366)))}
        said = wording("fix_birth_date", rng, trip=trip_words(trip), traveller=person(old), dob=new["dob"])
        fixed = [dict(new) if i == index else dict(p) for i, p in enumerate(people)]
        return _passengers(
            view, trip, fixed, said, {"traveller": person(old), "correct_date_of_birth": new["dob"]}
        )
    return None


def add_passenger(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    for trip in view.ordered(view.future(customer.id), rng):
        new = _newcomer(trip, rng)
        if len(trip["passengers"]) >= 5 or new is None:
            continue
        said = wording("add_passenger", rng, trip=trip_words(trip), new=person(new), dob=new["dob"])
        people = [dict(p) for p in trip["passengers"]] + [new]
        return _passengers(view, trip, people, said, {"new_traveller": f"{person(new)}, born {new['dob']}"})
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
    said = wording(
        "book_trip",
        rng,
        cabin=CABIN_WORDS[cabin],
        route=route,
        day=day,
        date=date,
        bags=bag_words(bags),
        pay=pay,
    )
    return Grounded(
        **said.fields(),
        bindings={"origin": origin, "destination": destination, "date": date},
        write=booking,
        entities=frozenset({f"{customer.id}:booking"}),
        known=known,
        discoverable={"flight_number": best["flight_number"], "payment_id": method["id"]},
        evidence=(best["flight_number"],),
    )


def cheapest_fare(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    for trip in view.ordered(view.future(customer.id), rng):
        if trip["flight_type"] != "one_way":
            continue
        date = shift(trip["flights"][0]["date"], rng.choice((-2, -1, 1, 2)))
        best = cheapest_direct(view, trip["origin"], trip["destination"], date, trip["cabin"])
        if not TODAY < date <= LAST_DAY or best is None:
            continue
        words = trip_words(trip)
        key = "earlier" if date < trip["flights"][0]["date"] else "later"
        said = wording("cheapest_fare", rng, key, trip=words, day=long_date(date), date=date)
        return view.goal(
            trip,
            **said.fields(),
            kind="information",
            bindings={"origin": trip["origin"], "destination": trip["destination"], "date": date},
            known={"trip_to_check": words, "other_date": date},
            evidence=(best["flight_number"], f"${best['price']}"),
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
        **wording("flight_numbers", rng, trip=words).fields(),
        kind="information",
        known={"trip_to_check": words},
        evidence=tuple(dict.fromkeys(s["flight_number"] for s in trip["flights"])),
    )


def compensation(view: AirlineView, customer: Customer, rng: random.Random) -> Grounded | None:
    """A complaint about a flight the airline cancelled; the certificate's amount is the policy's
    (100 dollars per traveller), so no text of the customer names it (`decided`)."""
    user = view.users[customer.id]
    for trip in view.ordered(view.trips(customer.id), rng):
        lost = [s for s in trip["flights"] if view.status(s) == "cancelled"]
        if not lost or not compensable(user, trip):
            continue
        segment = lost[0]
        key = "past" if segment["date"] <= TODAY else "upcoming"
        said = wording(
            "compensation",
            rng,
            key,
            flight=f"flight {segment['flight_number']}",
            day=long_date(segment["date"]),
            date=segment["date"],
        )
        amount = 100 * len(trip["passengers"])
        return view.goal(
            trip,
            **said.fields(),
            write=write("send_certificate", user_id=customer.id, amount=amount),
            entities=frozenset({trip["reservation_id"], f"{customer.id}:certificate"}),
            known={"cancelled_flight": f"{segment['flight_number']} on {segment['date']}"},
            evidence=(str(amount),),
            decided=frozenset({"amount"}),
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
    Intent("replace_passenger", "update_reservation_passengers", replace_passenger, "changing a traveller",
           TRIP, TRIP, weight=0.5),
    Intent("fix_birth_date", "update_reservation_passengers", fix_birth_date, "fixing traveller details",
           TRIP, TRIP, weight=0.5),
    Intent("book_trip", "book_reservation", book_trip, "booking a flight", SEARCH, ("search_direct_flight",)),
    Intent("compensation", "send_certificate", compensation, "a cancelled flight", TRIP, TRIP, weight=1.25),
    Intent("cheapest_fare", "search_direct_flight", cheapest_fare, "comparing fares",
           ("get_reservation_details", "search_onestop_flight"), TRIP, weight=0.35),
    Intent("flight_numbers", "get_reservation_details", flight_numbers, "checking a booking", TRIP,
           weight=0.35),
    Intent("cancel_ineligible", "cancel_reservation", cancel_ineligible, "cancelling a trip", TRIP, TRIP,
           challenge=True, alternative=Alternative("change_instead", "update_reservation_flights",
                                                   change_instead, SEARCH[1:], SEARCH[1:])),
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
    walk_lengths={2: 0.6, 3: 0.35, 4: 0.05},
    intent_counts={2: 0.2, 3: 0.45, 4: 0.35},
)
