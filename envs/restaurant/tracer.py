"""Restaurant's parts for the Tracer (docs/tracer.md): the intents a guest brings, grounded on the
seed view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from taue.envs.restaurant.generate import NOW
from taue.envs.restaurant.models import WEEKDAYS
from taue.envs.restaurant.phrases import BANKS
from taue.envs.restaurant.policy_check import check_policy
from taue.envs.restaurant.rules import (
    CLOCK,
    LAST_SEATING_MINUTES,
    minutes,
    open_reservation_problem,
    overlap_problem,
    start_of,
)
from taue.envs.restaurant.seed_view import (
    PERSONAS,
    Record,
    Rng,
    View,
    booking_words,
    card_words,
    customers,
    load,
    long_date,
    order_words,
    party_words,
    place,
    shift,
    upcoming_days,
)
from taue.envs.runtime.authoring import Alternative, Customer, Grounded, Intent, Lookups, TracerSpec, write

OCCASION_WORDS = {"birthday": "the birthday dinner", "anniversary": "the anniversary dinner",
                  "business dinner": "the business dinner", "date night": "the date night",
                  "graduation": "the graduation dinner"}  # fmt: skip


def _party_slots(party: int) -> dict[str, str]:
    return {"party": party_words(party), "party_you": "just yourself" if party == 1 else party_words(party)}


def _party_key(party: int) -> str:
    return "one" if party == 1 else "two" if party == 2 else "group" if party < 8 else "large"


def _shuffled(records: list[Record], rng: Rng) -> list[Record]:
    records = list(records)
    rng.shuffle(records)
    return records


def _floor(location_id: str, *days: str) -> set[str]:
    """Entities for the tables of a location on some days: two intents never compete for a table."""
    return {f"floor:{location_id}:{day}" for day in days}


# ------------------------------------------------------------------------------------------- booking


def book_table(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    """A table at a named location; often the guest's first choice is a day the location is closed."""
    location_id = rng.choice(sorted(view.locations))
    hours = view.locations[location_id]["hours"]
    closed = [d for d in upcoming_days(rng, 2, 29) if hours[WEEKDAYS[_weekday(d)]] is None]
    if closed and rng.random() < 0.75:
        return _booking(view, customer, rng, location_id, None, closed[0])
    return _booking(view, customer, rng, location_id, None)


def book_again(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    visits = view.unique_bookings(customer.id, "completed")
    days = [v["date"] for v in view.bookings(customer.id)]
    visits = [v for v in visits if days.count(v["date"]) == 1]
    if not visits:
        return None
    visit = rng.choice(visits)
    return _booking(view, customer, rng, visit["location_id"], visit, bank="book_again")


def _booking(
    view: View,
    customer: Customer,
    rng: Rng,
    location_id: str,
    visit: Record | None,
    closed_day: str | None = None,
    bank: str = "book_table",
) -> Grounded | None:
    largest = max(table["seats"] for table in view.locations[location_id]["tables"])
    party = min(rng.choice((2, 2, 3, 4, 4, 5, 6, 8, 9, 10)), largest)
    days = [shift(closed_day, 1)] if closed_day else upcoming_days(rng, 2, 30)[:6]
    for day in days:
        held = view.bookings(customer.id)
        times = [t for t in view.free_times(location_id, day, party) if not overlap_problem(held, day, t)]
        if times:
            break
    else:
        return None
    time = rng.choice(times)
    dates: Any = day
    card = view.card(customer.id, rng)
    booking = write("book_reservation", guest_id=customer.id, location_id=location_id, date=day, time=time,
                    party_size=party, payment_method_id=card["payment_method_id"])  # fmt: skip
    when = when_you = f"on {long_date(day)} ({day}) at {time}"
    first: dict[str, str] = {}
    if closed_day:
        first_choice = f"on {long_date(closed_day)} ({closed_day}) at {time}"
        fallback = f"{long_date(day)} ({day}) at the same time"
        when = f"{first_choice}, or if you are closed that day, {fallback}"
        when_you = f"{first_choice}, or if the restaurant is closed that day, {fallback}"
        dates, first = Lookups((closed_day, day)), {"first_choice_date": closed_day}
    if visit is None:
        ids = view.guests[customer.id]["reservations"]
        where = where_you = place(location_id)
        bindings = {"reservation_id": Lookups(tuple(ids))} if ids else {}
        known = {"restaurant": where}
    else:
        where = f"the restaurant I visited on {long_date(visit['date'])}"
        where_you = f"the restaurant you visited on {long_date(visit['date'])}"
        bindings = {"reservation_id": view.booking_lookups(visit)}
        known = {"restaurant": f"the one you visited on {long_date(visit['date'])} ({visit['date']})"}
    slots = {**_party_slots(party), "when": when, "when_you": when_you, "where": where,
             "where_you": where_you, "card": card_words(card)}  # fmt: skip
    reason = _party_key(party) if rng.random() < 0.7 else ""
    return Grounded(
        **BANKS[bank].word(rng, slots, reason=reason).fields(),
        bindings={"location_id": location_id, "date": dates, "party_size": party, **bindings},
        write=booking,
        entities=frozenset({f"{customer.id}:booking", f"{customer.id}:{day}", *_floor(location_id, day)}),
        known={
            **known,
            **first,
            "date": day,
            "time": time,
            "party_size": str(party),
            "card": card_words(card),
        },
        discoverable={"location_id": location_id, "payment_method_id": card["payment_method_id"]},
        evidence=(day, time),
    )


# ------------------------------------------------------------------------------ changing a reservation


def _moves(view: View, booking: Record, rng: Rng) -> list[tuple[str, str, int, str]]:
    """(date, time, party size, what the guest asks) for changes the policy allows."""
    location_id, rid = booking["location_id"], booking["reservation_id"]
    day, time, party = booking["date"], booking["time"], booking["party_size"]
    largest = max(table["seats"] for table in view.locations[location_id]["tables"])
    options = []
    other_times = [t for t in view.free_times(location_id, day, party, rid) if t != time]
    if other_times and day > CLOCK[:10]:
        new = rng.choice(other_times)
        options.append((day, new, party, f"moved to {new} the same day"))
    for days in rng.sample((1, 2, 3, 7, -1), 5):
        new_day = shift(day, days)
        if new_day > CLOCK[:10] and time in view.free_times(location_id, new_day, party, rid):
            options.append((new_day, time, party, f"moved to {long_date(new_day)} ({new_day}), same time"))
            break
    sizes = [
        n for n in (party - 2, party - 1, party + 1, party + 2, 8, 9) if 1 <= n <= largest and n != party
    ]
    for size in rng.sample(sizes, len(sizes)):
        if time in view.free_times(location_id, day, size, rid):
            options.append((day, time, size, f"changed to a party of {size}"))
            break
    held = view.bookings(booking["guest_id"])
    return [option for option in options if not overlap_problem(held, option[0], option[1], rid)]


def change_booking(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    for booking in _shuffled(view.changeable(customer.id), rng):
        options = _moves(view, booking, rng)
        if options:
            return _change(view, booking, *rng.choice(options), rng=rng, bank="change_booking")
    return None


def _direction(booking: Record, day: str, time: str, party: int) -> str:
    """Which reasons fit a change: a bigger or smaller party, an earlier or later time or day."""
    if party != booking["party_size"]:
        return "bigger" if party > booking["party_size"] else "smaller"
    if day != booking["date"]:
        return "later_day" if day > booking["date"] else "earlier_day"
    return "later" if time > booking["time"] else "earlier"


def _change(
    view: View, booking: Record, day: str, time: str, party: int, wish: str, rng: Rng, bank: str
) -> Grounded:
    words = booking_words(booking)
    changed = [value for value, old in ((day, booking["date"]), (time, booking["time"])) if value != old]
    reason = _direction(booking, day, time, party)
    occasion = OCCASION_WORDS.get(booking["occasion"], "")
    if occasion and rng.random() < 0.5:
        reason = "occasion_party" if reason in ("bigger", "smaller") else "occasion_time"
    slots = {"booking": words, "wish": wish, "occasion": occasion or "the evening"}
    return Grounded(
        **BANKS[bank].word(rng, slots, reason=reason).fields(),
        bindings={
            "reservation_id": view.booking_lookups(booking),
            "location_id": booking["location_id"],
            "date": day,
            "party_size": party,
        },
        write=write(
            "modify_reservation",
            reservation_id=booking["reservation_id"],
            date=day,
            time=time,
            party_size=party,
        ),
        entities=frozenset(
            {
                booking["reservation_id"],
                f"{booking['guest_id']}:{day}",
                *_floor(booking["location_id"], booking["date"], day),
            }
        ),
        # only what changes: the kept date, time or size is the reservation's own, one fact
        known={
            "reservation_to_change": words,
            **{
                name: value
                for name, value, old in (
                    ("new_date", day, booking["date"]),
                    ("new_time", time, booking["time"]),
                    ("new_party_size", str(party), str(booking["party_size"])),
                )
                if value != old
            },
        },
        discoverable={"reservation_id": booking["reservation_id"]},
        evidence=(booking["reservation_id"], *changed),
    )


BANK_LATE = "change_after_hours"


def change_after_hours(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    """Refused: a seating after the last one of the day, or on the location's closed day."""
    for booking in _shuffled(view.changeable(customer.id), rng):
        location = view.locations[booking["location_id"]]
        closed = [d for d in (shift(booking["date"], n) for n in range(1, 7))
                  if location["hours"][WEEKDAYS[_weekday(d)]] is None]  # fmt: skip
        hours = location["hours"][WEEKDAYS[_weekday(booking["date"])]]
        late = minutes(hours["close"]) - LAST_SEATING_MINUTES + rng.choice((30, 60))
        if closed and rng.random() < 0.5:
            day = closed[0]
            wish = f"moved to {long_date(day)} ({day}), same time"
            return _change(view, booking, day, booking["time"], booking["party_size"], wish, rng, BANK_LATE)
        new = f"{late // 60:02d}:{late % 60:02d}"
        wish = f"moved later, to {new}"
        return _change(
            view, booking, booking["date"], new, booking["party_size"], wish, rng, "change_after_hours"
        )
    return None


def oversize_party(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    """Refused: more guests than the location's largest table seats."""
    for booking in _shuffled(view.changeable(customer.id), rng):
        largest = max(table["seats"] for table in view.locations[booking["location_id"]]["tables"])
        size = largest + rng.randint(2, 6)
        return _change(view, booking, booking["date"], booking["time"], size,
                       f"changed to a party of {size}", rng, "oversize_party")  # fmt: skip
    return None


def _weekday(day: str) -> int:
    return date.fromisoformat(day).weekday()


# ------------------------------------------------------------------------------ cancelling a reservation


def cancel_booking(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    bookings = [
        b for b in view.unique_bookings(customer.id, "booked") if not open_reservation_problem(b, CLOCK)
    ]
    return _cancel(view, rng.choice(bookings), rng, "cancel_booking") if bookings else None


def cancel_no_show(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    """Refused: a missed reservation, cancelled after the fact to avoid the no-show fee."""
    bookings = view.unique_bookings(customer.id, "no_show")
    if not bookings:
        return None
    return _cancel(view, rng.choice(bookings), rng, "cancel_no_show")


def _cancel(view: View, booking: Record, rng: Rng, bank: str) -> Grounded:
    words = booking_words(booking)
    occasion = OCCASION_WORDS.get(booking["occasion"], "")
    soon = start_of(booking["date"], booking["time"]) - NOW < timedelta(hours=24)
    reason = "soon" if soon else ""
    if occasion and rng.random() < 0.5:
        reason = "occasion"
    slots = {"booking": words, "occasion": occasion or "the evening"}
    return Grounded(
        **BANKS[bank].word(rng, slots, reason=reason).fields(),
        bindings={"reservation_id": view.booking_lookups(booking)},
        write=write("cancel_reservation", reservation_id=booking["reservation_id"]),
        entities=frozenset({booking["reservation_id"], *_floor(booking["location_id"], booking["date"])}),
        known={"reservation_to_cancel": words},
        discoverable={"reservation_id": booking["reservation_id"]},
        evidence=(booking["reservation_id"],),
    )


# ------------------------------------------------------------------------------------------- orders


def cancel_takeaway(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    orders = view.unique_orders(customer.id, "received")
    return _cancel_order(view, rng.choice(orders), rng, "cancel_takeaway") if orders else None


def cancel_started_order(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    """Refused: the kitchen has already started on the order."""
    orders = view.unique_orders(customer.id, "preparing", "ready", "out_for_delivery")
    return _cancel_order(view, rng.choice(orders), rng, "cancel_started_order") if orders else None


def _cancel_order(view: View, order: Record, rng: Rng, bank: str) -> Grounded:
    words = order_words(order)
    reason = order["channel"] if order["channel"] in ("delivery", "takeaway") and rng.random() < 0.6 else ""
    return Grounded(
        **BANKS[bank].word(rng, {"order": words}, reason=reason).fields(),
        bindings={"order_id": view.order_lookups(order)},
        write=write("cancel_order", order_id=order["order_id"]),
        entities=frozenset({order["order_id"]}),
        known={"order_to_cancel": words},
        discoverable={"order_id": order["order_id"]},
        evidence=(order["order_id"],),
    )


def use_points(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    balance = view.guests[customer.id]["points"]
    for order in _shuffled(view.unique_orders(customer.id, "received"), rng):
        if order["points_redeemed"]:
            continue
        most = min(balance // 100, int((order["subtotal"] - order["discount"]) // 5)) * 100
        if most >= 100:
            return _redeem(view, order, rng.randrange(100, most + 1, 100), customer.id, rng, "use_points")
    return None


def fewer_points(view: View, customer: Customer, refused: Grounded, rng: Rng) -> Grounded | None:
    """The policy's alternative to redeeming more points than the balance: the most points the
    balance and the order's food subtotal allow, on the same order, which the guest takes."""
    assert refused.write is not None
    order = view.orders[refused.write.arguments["order_id"]]
    balance = view.guests[customer.id]["points"]
    most = min(balance // 100, int((order["subtotal"] - order["discount"]) // 5)) * 100
    if most < 100:
        return None
    return _redeem(view, order, most, customer.id, rng, "fewer_points")


def over_redeem(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    """Refused: more points than the guest's balance."""
    balance = view.guests[customer.id]["points"]
    for order in _shuffled(view.unique_orders(customer.id, "received"), rng):
        points = (balance // 100 + rng.randint(1, 3)) * 100
        if not order["points_redeemed"]:
            return _redeem(view, order, points, customer.id, rng, "over_redeem")
    return None


def _redeem(view: View, order: Record, points: int, guest_id: str, rng: Rng, bank: str) -> Grounded:
    words = order_words(order)
    return Grounded(
        **BANKS[bank].word(rng, {"order": words, "points": points}).fields(),
        bindings={"order_id": view.order_lookups(order)},
        write=write("redeem_points", order_id=order["order_id"], points=points),
        entities=frozenset({order["order_id"], f"{guest_id}:points"}),
        known={"order_for_points": words, "points_to_use": str(points)},
        discoverable={"order_id": order["order_id"]},
        evidence=(order["order_id"], str(points)),
    )


ALLERGY_NOTES = ("allergy", "no ", "-free")
"""Dietary notes that name an allergen: a question about another allergen is for someone else."""


def allergen_question(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    orders = view.unique_orders(customer.id)
    older = [o for o in orders if view.guests[customer.id]["orders"].index(o["order_id"]) >= 3]
    for order in _shuffled(older or orders, rng):
        allergens = sorted({a for line in order["items"] for a in view.allergens(line)})
        if not allergens:
            continue
        allergen = rng.choice(allergens)
        dishes = [line["name"] for line in order["items"] if allergen in view.allergens(line)]
        name, words = allergen.replace("_", " "), order_words(order)
        notes = view.guests[customer.id]["dietary_notes"]
        reason = "own" if name in notes else "other" if any(w in notes for w in ALLERGY_NOTES) else ""
        return Grounded(
            kind="information",
            **BANKS["allergen_question"]
            .word(rng, {"order": words, "allergen": name}, reason=reason)
            .fields(),
            bindings={"order_id": view.order_lookups(order)},
            entities=frozenset({order["order_id"]}),
            known={"order_to_check": words, "allergy": name},
            discoverable={"order_id": order["order_id"]},
            evidence=tuple(dishes),
        )
    return None


# -------------------------------------------------------------------------------------------- intents

RESERVATION = ("get_reservation_details",)
CHANGE = ("get_reservation_details", "check_availability")
ORDER = ("get_order_details",)


def intent(ground: Any, terminal: str, topic: str, reads: tuple[str, ...], *required: str) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, reads, required)


def challenge(ground: Any, terminal: str, topic: str, reads: tuple[str, ...], *required: str) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, reads, required, challenge=True)


INTENTS = (
    intent(book_table, "book_reservation", "booking a table", CHANGE, "check_availability"),
    intent(book_again, "book_reservation", "booking a table again", CHANGE, *CHANGE),
    intent(change_booking, "modify_reservation", "changing a reservation", CHANGE, *CHANGE),
    intent(cancel_booking, "cancel_reservation", "cancelling a reservation", RESERVATION, *RESERVATION),
    intent(cancel_takeaway, "cancel_order", "cancelling a food order", ORDER, *ORDER),
    intent(use_points, "redeem_points", "using loyalty points", ORDER, *ORDER),
    Intent(
        "allergen_question",
        "get_order_details",
        allergen_question,
        "checking allergens in an order",
        ORDER,
        weight=0.3,
    ),
    challenge(change_after_hours, "modify_reservation", "changing a reservation", CHANGE, *CHANGE),
    challenge(oversize_party, "modify_reservation", "a bigger party", RESERVATION, *RESERVATION),
    challenge(cancel_no_show, "cancel_reservation", "a missed reservation", RESERVATION, *RESERVATION),
    challenge(cancel_started_order, "cancel_order", "cancelling a food order", ORDER, *ORDER),
    Intent(
        "over_redeem",
        "redeem_points",
        over_redeem,
        "using loyalty points",
        ORDER,
        ORDER,
        challenge=True,
        alternative=Alternative("fewer_points", "redeem_points", fewer_points),
    ),
)

TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={2: 0.4, 3: 0.55, 4: 0.05},
    intent_counts={2: 0.2, 3: 0.45, 4: 0.35},
)
