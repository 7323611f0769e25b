"""Write `envs/airline/tasks.json`: 20 emotional airline tasks and their neutral twins.

Run with `python -m taue.envs.airline.author_tasks`. Every task is built from concrete entities of the
seed-0 database, found by a rule written next to the task (first match in id order, each customer
used once), so the file can be regenerated after a generator change and re-checked with
`envs.runtime.task_checks.task_set_problems`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from taue.contracts.tasks import (
    Action,
    Emotion,
    Evaluation,
    Goal,
    Provenance,
    Target,
    Task,
    UserScenario,
    neutral_twin,
)
from taue.envs.airline.generate import generate
from taue.envs.airline.models import Flight, Reservation, User
from taue.envs.airline.tools import AIRPORTS
from taue.envs.runtime.goal_targets import attach_targets

TASKS_FILE = Path(__file__).parent / "tasks.json"
NOW = "2024-05-15T15:00:00"
TODAY = "2024-05-15"
FREE_BAGS = {
    "regular": {"basic_economy": 0, "economy": 1, "business": 2},
    "silver": {"basic_economy": 1, "economy": 2, "business": 3},
    "gold": {"basic_economy": 2, "economy": 3, "business": 4},
}
CABIN_WORDS = {"basic_economy": "basic economy", "economy": "economy", "business": "business"}
Record = dict[str, Any]


class NoMatch(LookupError):
    """No entity of the seed database fits a task's rule."""


def act(name: str, **arguments: Any) -> Action:
    return Action(name=name, arguments=arguments)


def shift(date: str, days: int) -> str:
    return (datetime.fromisoformat(date) + timedelta(days=days)).strftime("%Y-%m-%d")


def city(code: str) -> str:
    return AIRPORTS[code]


def long_date(date: str) -> str:
    return datetime.fromisoformat(date).strftime("%B %d").replace(" 0", " ")


# ---------------------------------------------------------------------------------------------
# the seed database, as records


@dataclass
class Seed:
    """The seed-0 tables as published records, with the lookups the task rules need."""

    flights: dict[str, Record] = field(default_factory=dict)
    users: dict[str, Record] = field(default_factory=dict)
    reservations: dict[str, Record] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)

    @classmethod
    def load(cls, seed: int = 0) -> Seed:
        data = cls()
        for row in generate(seed):
            if isinstance(row, Flight):
                data.flights[row.flight_number] = row.to_record()
            elif isinstance(row, User):
                data.users[row.user_id] = row.to_record()
            elif isinstance(row, Reservation):
                data.reservations[row.reservation_id] = row.to_record()
        return data

    def customers(self) -> Iterator[tuple[str, Record]]:
        """Users not yet used by a task, in id order."""
        for user_id in sorted(self.users):
            if user_id not in self.taken:
                yield user_id, self.users[user_id]

    def take(self, user_id: str) -> None:
        self.taken.add(user_id)

    def trips(self, user: Record) -> list[Record]:
        return [self.reservations[rid] for rid in user["reservations"]]

    def day(self, number: str, date: str) -> Record:
        return self.flights[number]["dates"].get(date, {"status": "none"})

    def status(self, segment: Record) -> str:
        return self.day(segment["flight_number"], segment["date"])["status"]

    def bookable(self, number: str, date: str, cabin: str, seats: int) -> int | None:
        """The fare when `number` can be booked on `date` for `seats` people, else None."""
        day = self.day(number, date)
        if day["status"] != "available" or day["available_seats"][cabin] < seats:
            return None
        return day["prices"][cabin]

    def direct(
        self, origin: str, destination: str, date: str, cabin: str, seats: int
    ) -> list[tuple[str, int]]:
        """Bookable direct flights (number, fare), in flight-number order."""
        found = []
        for number in sorted(self.flights):
            flight = self.flights[number]
            fare = self.bookable(number, date, cabin, seats)
            if flight["origin"] == origin and flight["destination"] == destination and fare is not None:
                found.append((number, fare))
        return found


def methods(user: Record, source: str) -> list[Record]:
    return [m for _, m in sorted(user["payment_methods"].items()) if m["source"] == source]


def is_future(reservation: Record) -> bool:
    return all(s["date"] > TODAY for s in reservation["flights"]) and "status" not in reservation


def paid(reservation: Record) -> int | float:
    return sum(entry["amount"] for entry in reservation["payment_history"])


def free_bags(user: Record, reservation: Record) -> int:
    return FREE_BAGS[user["membership"]][reservation["cabin"]] * len(reservation["passengers"])


def card_words(method: Record) -> str:
    if method["source"] == "credit_card":
        return f"{method['brand']} card ending in {method['last_four']}"
    return method["source"].replace("_", " ")


def people(reservation: Record) -> str:
    return " and ".join(f"{p['first_name']} {p['last_name']}" for p in reservation["passengers"])


def trip_words(reservation: Record) -> str:
    first = reservation["flights"][0]["date"]
    kind = "round trip" if reservation["flight_type"] == "round_trip" else "one-way trip"
    return (
        f"the {CABIN_WORDS[reservation['cabin']]} {kind} from {city(reservation['origin'])} to "
        f"{city(reservation['destination'])} starting {long_date(first)}"
    )


def described(seed: Seed, user: Record, *trips: Record) -> bool:
    """Whether each trip is the only one of the user's reservations that its description fits."""
    words = [trip_words(r) for r in seed.trips(user)]
    return all(words.count(trip_words(trip)) == 1 for trip in trips)


def first_match(candidates: Iterator[Any], rule: Callable[[Any], Any]) -> Any:
    for candidate in candidates:
        result = rule(candidate)
        if result:
            return result
    raise NoMatch(rule.__qualname__)


# ---------------------------------------------------------------------------------------------
# what a task is made of


@dataclass
class Draft:
    """One task before its emotion is attached."""

    user_id: str
    persona: str
    reason: str
    instruction: str
    known: dict[str, str]
    volunteered: list[str]
    unknown: list[str]
    discoverable: dict[str, str]
    goals: list[Goal]
    actions: list[Action]
    outputs: list[str] = field(default_factory=list)
    preferences: list[str] = field(default_factory=list)


def goal(goal_id: str, request: str, *evidence: str, kind: str = "action") -> Goal:
    # Unvalidated: `build` gives each action goal its target (the gold write) before the task is made.
    return Goal.model_construct(id=goal_id, kind=kind, request=request, evidence=list(evidence))


def booking_payments(user: Record, total: int, plan: list[str]) -> list[dict[str, Any]] | None:
    """Split `total` over the user's methods in `plan` order (sources); None when it cannot be paid."""
    payments, left = [], total
    for source in plan:
        for method in methods(user, source):
            if left == 0 or any(p["payment_id"] == method["id"] for p in payments):
                continue
            share = left if source == "credit_card" else min(left, method["amount"])
            if share > 0:
                payments.append({"payment_id": method["id"], "amount": share})
                left -= share
            break
    return payments if left == 0 else None


def owner_as_passenger(user: Record) -> dict[str, str]:
    return {
        "first_name": user["name"]["first_name"],
        "last_name": user["name"]["last_name"],
        "dob": user["dob"],
    }


EMOTIONS: dict[int, tuple[str, str, str, str, str, str]] = {}
"""Task number -> (family, emotion, politeness, urgency, trust, instruction)."""
AUTHORS: dict[int, Callable[[Seed], Draft]] = {}


def task(number: int, family: str, emotion: str, politeness: str, urgency: str, trust: str, feeling: str):
    """Register a task author with its emotion condition."""

    def register(author: Callable[[Seed], Draft]) -> Callable[[Seed], Draft]:
        EMOTIONS[number] = (family, emotion, politeness, urgency, trust, feeling)
        AUTHORS[number] = author
        return author

    return register


def lookups(seed: Seed, user: Record, *targets: str) -> list[Action]:
    """Reading the user's reservations in profile order until every target has been seen."""
    order = user["reservations"]
    last = max(order.index(target) for target in targets)
    return [act("get_reservation_details", reservation_id=rid) for rid in order[: last + 1]]


def extra_bag(seed: Seed, user: Record, reservation: Record, card: Record, bags: int = 1) -> Action:
    """Adding `bags` bags beyond a reservation that already uses exactly its free allowance."""
    return act(
        "update_reservation_baggages",
        reservation_id=reservation["reservation_id"],
        total_baggages=reservation["total_baggages"] + bags,
        nonfree_baggages=bags,
        payment_id=card["id"],
    )


def at_allowance(user: Record, reservation: Record) -> bool:
    return (
        reservation["total_baggages"] == free_bags(user, reservation) and reservation["nonfree_baggages"] == 0
    )


def moved(seed: Seed, reservation: Record, index: int, days: int) -> dict[str, Any] | None:
    """The segment `index` moved by `days` on the same flight number, if bookable in the same cabin."""
    segment = reservation["flights"][index]
    date = shift(segment["date"], days)
    fare = seed.bookable(segment["flight_number"], date, reservation["cabin"], len(reservation["passengers"]))
    if fare is None or not TODAY < date <= "2024-05-30":
        return None
    return {"flight_number": segment["flight_number"], "date": date, "fare": fare}


def plain(segments: list[dict[str, Any]]) -> list[dict[str, str]]:
    return [{"flight_number": s["flight_number"], "date": s["date"]} for s in segments]


def difference(reservation: Record, new_fares: list[int | float]) -> int | float:
    """Fare difference of a flight change, as `update_reservation_flights` computes it."""
    count = len(reservation["passengers"])
    return sum(fare * count for fare in new_fares) - sum(s["price"] for s in reservation["flights"]) * count


def direct_round_trip(reservation: Record) -> bool:
    return reservation["flight_type"] == "round_trip" and len(reservation["flights"]) == 2


# ---------------------------------------------------------------------------------------------
# the tasks


@task(
    1,
    "fear",
    "anxiety",
    "neutral",
    "high",
    "cautious",
    "You are anxious and keep worrying that something will go wrong with the refund. You ask for "
    "reassurance more than once and want each step confirmed quickly because you are short on time.",
)
def business_cancel_and_bag(seed: Seed) -> Draft:
    """Cancel a future business trip (always allowed) and add a paid bag to another future trip."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        business = [r for r in seed.trips(user) if r["cabin"] == "business" and is_future(r)]
        other = [
            r for r in seed.trips(user) if is_future(r) and r["cabin"] != "business" and at_allowance(user, r)
        ]
        found = cards and business and other and described(seed, user, business[0], other[0])
        return found and (user_id, user, business[0], other[0], cards[0])

    user_id, user, trip, other, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    refund = str(paid(trip))
    return Draft(
        user_id=user_id,
        persona=f"{user['name']['first_name']} {user['name']['last_name']}, a {user['membership']} member",
        reason=(
            "Wants to cancel a business trip that is no longer needed and add a checked bag to another trip."
        ),
        instruction=(
            f"You are {user['name']['first_name']} {user['name']['last_name']} (user id {user_id}). "
            f"Your employer called off the meeting behind {trip_words(trip)}, so you want that reservation "
            f"cancelled and you want to know how much money comes back. You do not remember the reservation "
            f"codes. You also want one more checked bag on {trip_words(other)}; pay for it with your "
            f"{card_words(card)}. Do not agree to anything else."
        ),
        known={
            "user_id": user_id,
            "business_trip": trip_words(trip),
            "cancel_reason": "the business meeting was called off",
            "other_trip": trip_words(other),
            "card": card_words(card),
        },
        volunteered=["user_id", "business_trip"],
        unknown=["reservation codes", "how many bags are free"],
        discoverable={
            "reservation_id": f"{trip['reservation_id']} (business "
            f"trip) and {other['reservation_id']} (other trip)",
            "payment_id": card["id"],
            "total_baggages": str(other["total_baggages"] + 1),
            "nonfree_baggages": "1",
        },
        goals=[
            goal("cancel", "Please cancel my business class trip.", trip["reservation_id"]),
            goal("refund", "How much will I get back?", refund, kind="information"),
            goal("bag", "I also need one more checked bag on my other trip.", other["reservation_id"]),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            *lookups(seed, user, trip["reservation_id"], other["reservation_id"]),
            act("cancel_reservation", reservation_id=trip["reservation_id"]),
            extra_bag(seed, user, other, card),
        ],
        outputs=[refund],
    )


@task(
    2,
    "anger",
    "frustration",
    "cold",
    "high",
    "skeptical",
    "You are frustrated that you booked the wrong day and you doubt the agent will fix it without "
    "a fight. You are curt, you want it done now, and you question anything that sounds like a delay.",
)
def recent_booking_rebooked(seed: Seed) -> Draft:
    """A trip booked less than 24 hours ago is cancelled and booked again one day later."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        for trip in seed.trips(user):
            card = next(
                (
                    m
                    for m in methods(user, "credit_card")
                    if m["id"] == trip["payment_history"][0]["payment_id"]
                ),
                None,
            )
            if not (is_future(trip) and trip["created_at"] >= "2024-05-14T15:00:00" and card):
                continue
            if trip["flight_type"] != "one_way" or len(trip["flights"]) != 1 or not at_allowance(user, trip):
                continue
            later = moved(seed, trip, 0, 1)
            if later:
                return user_id, user, trip, card, later
        return None

    user_id, user, trip, card, later = first_match(seed.customers(), rule)
    seed.take(user_id)
    count = len(trip["passengers"])
    total = later["fare"] * count + (30 * count if trip["insurance"] == "yes" else 0)
    booking = act(
        "book_reservation",
        user_id=user_id,
        origin=trip["origin"],
        destination=trip["destination"],
        flight_type="one_way",
        cabin=trip["cabin"],
        flights=plain([later]),
        passengers=trip["passengers"],
        payment_methods=[{"payment_id": card["id"], "amount": total}],
        total_baggages=trip["total_baggages"],
        nonfree_baggages=0,
        insurance=trip["insurance"],
    )
    return Draft(
        user_id=user_id,
        persona=f"{user['name']['first_name']} {user['name']['last_name']}, booked a trip a few hours ago",
        reason="Booked the wrong travel date less than a day ago and wants the same flight one day later.",
        instruction=(
            f"You are {user['name']['first_name']} {user['name']['last_name']} (user id {user_id}). "
            f"Less than a day ago you booked reservation "
            f"{trip['reservation_id']} from {city(trip['origin'])} to "
            f"{city(trip['destination'])} on {long_date(trip['flights'][0]['date'])}, "
            f"but it should have been "
            f"{long_date(later['date'])}. You want it cancelled "
            f"and the same flight booked again one day later, "
            f"for the same people, cabin, bags and insurance as "
            f"before, paid with the same {card_words(card)}."
        ),
        known={
            "user_id": user_id,
            "reservation_id": trip["reservation_id"],
            "date": later["date"],
            "card": f"the same {card_words(card)} as before",
        },
        volunteered=["user_id", "reservation_id"],
        unknown=["the new fare"],
        discoverable={
            "flight_number": later["flight_number"],
            "payment_id": card["id"],
            "amount": str(total),
            "passengers": people(trip),
        },
        goals=[
            goal("cancel", "Cancel the booking with the wrong date.", trip["reservation_id"]),
            goal("rebook", "Book the same flight one day later.", later["flight_number"], later["date"]),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            act("get_reservation_details", reservation_id=trip["reservation_id"]),
            act("cancel_reservation", reservation_id=trip["reservation_id"]),
            act(
                "search_direct_flight",
                origin=trip["origin"],
                destination=trip["destination"],
                date=later["date"],
            ),
            booking,
        ],
        preferences=["same flight number, one day later"],
    )


@task(
    3,
    "sadness",
    "sorrow",
    "warm",
    "low",
    "trusting",
    "You are sad because a close relative has fallen ill, and you speak softly and thank the agent "
    "often. You are in no hurry and you trust the agent to do what is right.",
)
def insured_cancel_and_return_moved(seed: Seed) -> Draft:
    """An insured trip is cancelled for health reasons; another trip's return is moved a day later."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        insured = [
            r
            for r in seed.trips(user)
            if is_future(r) and r["insurance"] == "yes" and r["cabin"] != "business"
        ]
        for other in seed.trips(user):
            if not (cards and insured and is_future(other) and direct_round_trip(other)):
                continue
            if (
                other["cabin"] == "basic_economy"
                or other is insured[0]
                or not described(seed, user, insured[0], other)
            ):
                continue
            later = moved(seed, other, 1, 1)
            if later:
                return user_id, user, insured[0], other, later, cards[0]
        return None

    user_id, user, trip, other, later, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    new_flights = [other["flights"][0], later]
    return Draft(
        user_id=user_id,
        persona=f"{user['name']['first_name']} {user['name']['last_name']}, caring for an ill parent",
        reason="Must cancel an insured trip because of illness and come back a day later from another trip.",
        instruction=(
            f"You are {user['name']['first_name']} {user['name']['last_name']} (user id {user_id}). Your "
            f"mother has been taken ill, so you cannot make {trip_words(trip)}; it has travel insurance and "
            f"you want it cancelled. You also want to come home one day later from {trip_words(other)}: "
            f"same return flight, on {long_date(later['date'])}. Any fare difference goes on your "
            f"{card_words(card)}."
        ),
        known={
            "user_id": user_id,
            "insured_trip": trip_words(trip),
            "cancel_reason": "your mother is ill (a health reason)",
            "other_trip": trip_words(other),
            "date": later["date"],
            "card": card_words(card),
        },
        volunteered=["user_id", "cancel_reason"],
        unknown=["reservation codes", "the fare difference"],
        discoverable={
            "reservation_id": f"{trip['reservation_id']} (insured "
            f"trip) and {other['reservation_id']} (other trip)",
            "flight_number": later["flight_number"],
            "payment_id": card["id"],
            "cabin": other["cabin"],
        },
        goals=[
            goal("cancel", "Please cancel the trip I can no longer take.", trip["reservation_id"]),
            goal(
                "move",
                "And I'd like to fly home a day later on my other trip.",
                other["reservation_id"],
                later["date"],
            ),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            *lookups(seed, user, trip["reservation_id"], other["reservation_id"]),
            act("cancel_reservation", reservation_id=trip["reservation_id"]),
            act(
                "search_direct_flight",
                origin=later_origin(seed, later),
                destination=other["origin"],
                date=later["date"],
            ),
            act(
                "update_reservation_flights",
                reservation_id=other["reservation_id"],
                cabin=other["cabin"],
                flights=plain(new_flights),
                payment_id=card["id"],
            ),
        ],
    )


def later_origin(seed: Seed, segment: dict[str, Any]) -> str:
    return seed.flights[segment["flight_number"]]["origin"]


@task(
    4,
    "enjoyment",
    "excitement",
    "warm",
    "moderate",
    "trusting",
    "You are excited because the trip is for a celebration and you talk about it happily. You are "
    "friendly and trust the agent, but you want to know the exact extra cost.",
)
def outbound_one_day_later(seed: Seed) -> Draft:
    """The outbound of a round trip moves one day later; the user asks what it costs."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        for trip in seed.trips(user):
            if not (cards and is_future(trip) and direct_round_trip(trip) and trip["cabin"] == "economy"):
                continue
            later = moved(seed, trip, 0, 1)
            if (
                later
                and later["date"] < trip["flights"][1]["date"]
                and difference(trip, [later["fare"], trip["flights"][1]["price"]]) >= 10
            ):
                return user_id, user, trip, later, cards[0]
        return None

    user_id, user, trip, later, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    cost = difference(trip, [later["fare"], trip["flights"][1]["price"]])
    back = trip["flights"][1]
    return Draft(
        user_id=user_id,
        persona=f"{user['name']['first_name']} {user['name']['last_name']}, travelling to a celebration",
        reason="Wants to leave one day later on the same outbound flight and to know the extra cost.",
        instruction=(
            f"You are {user['name']['first_name']} {user['name']['last_name']} (user id {user_id}). On "
            f"reservation {trip['reservation_id']} you want to "
            f"leave one day later, on {long_date(later['date'])}, "
            f"with the same flight; the return stays as it is. Ask how much extra it costs and pay with your "
            f"{card_words(card)}."
        ),
        known={
            "user_id": user_id,
            "reservation_id": trip["reservation_id"],
            "date": later["date"],
            "card": card_words(card),
        },
        volunteered=["user_id", "reservation_id"],
        unknown=["the fare difference"],
        discoverable={
            "flight_number": later["flight_number"],
            "flights": f"return {back['flight_number']} on {back['date']} stays",
            "payment_id": card["id"],
            "cabin": trip["cabin"],
        },
        goals=[
            goal("cost", "How much more will it cost to leave a day later?", str(cost), kind="information"),
            goal("move", "Please move my departure one day later.", later["date"], trip["reservation_id"]),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            act("get_reservation_details", reservation_id=trip["reservation_id"]),
            act(
                "search_direct_flight",
                origin=trip["origin"],
                destination=trip["destination"],
                date=later["date"],
            ),
            act(
                "update_reservation_flights",
                reservation_id=trip["reservation_id"],
                cabin=trip["cabin"],
                flights=plain([later, back]),
                payment_id=card["id"],
            ),
        ],
        outputs=[str(cost)],
    )


def name_of(user: Record) -> str:
    return f"{user['name']['first_name']} {user['name']['last_name']}"


@task(
    5,
    "disgust",
    "distaste",
    "neutral",
    "moderate",
    "cautious",
    "You find the early departure you were given distasteful and say so plainly, without being rude. "
    "You double-check what the agent tells you before agreeing.",
)
def latest_flight_and_bag(seed: Seed) -> Draft:
    """A one-way moves to the latest direct flight of the same day; one paid bag is added; gift card pays."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        gifts, cards = methods(user, "gift_card"), methods(user, "credit_card")
        for trip in seed.trips(user):
            if not (is_future(trip) and trip["flight_type"] == "one_way" and len(trip["flights"]) == 1):
                continue
            new = (
                latest_direct(seed, trip)
                if trip["cabin"] != "basic_economy" and at_allowance(user, trip)
                else None
            )
            if not new:
                continue
            enough = len(gifts) == 1 and gifts[0]["amount"] >= difference(trip, [new[1]]) + 50
            payer = gifts[0] if enough else (cards[0] if cards else None)
            if payer:
                return (
                    user_id,
                    user,
                    trip,
                    {"flight_number": new[0], "date": trip["flights"][0]["date"]},
                    payer,
                )
        return None

    user_id, user, trip, new, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, dislikes early flights",
        reason="Wants the last direct flight of the same day instead of the current one, and one more bag.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). Reservation {trip['reservation_id']} has you on a "
            f"flight from {city(trip['origin'])} to "
            f"{city(trip['destination'])} on {long_date(new['date'])} that "
            f"leaves too early for you. You want the direct flight that leaves latest that same day, in the "
            f"same cabin, and one extra checked bag. Pay everything with your {card_words(card)}."
        ),
        known={
            "user_id": user_id,
            "reservation_id": trip["reservation_id"],
            "preferred_time": "the latest direct flight of the same day",
            "card": f"your {card_words(card)}",
        },
        volunteered=["user_id", "reservation_id", "preferred_time"],
        unknown=["which flights exist that day", "the fare difference"],
        discoverable={
            "flight_number": new["flight_number"],
            "payment_id": card["id"],
            "total_baggages": str(trip["total_baggages"] + 1),
            "nonfree_baggages": "1",
            "cabin": trip["cabin"],
        },
        goals=[
            goal("change", "Move me to the last direct flight that day.", new["flight_number"]),
            goal("bag", "Add one checked bag.", str(trip["total_baggages"] + 1), card["id"]),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            act("get_reservation_details", reservation_id=trip["reservation_id"]),
            act(
                "search_direct_flight",
                origin=trip["origin"],
                destination=trip["destination"],
                date=new["date"],
            ),
            act(
                "update_reservation_flights",
                reservation_id=trip["reservation_id"],
                cabin=trip["cabin"],
                flights=[new],
                payment_id=card["id"],
            ),
            extra_bag(seed, user, trip, card),
        ],
        preferences=["a later departure", "same cabin"],
    )


@task(
    6,
    "fear",
    "nervousness",
    "warm",
    "moderate",
    "cautious",
    "You are nervous that a wrong birth date will get your companion stopped at the airport. You are "
    "kind to the agent but ask it to read the corrected details back to you before it saves them.",
)
def fix_birth_date_and_bag(seed: Seed) -> Draft:
    """A companion's date of birth is corrected and one paid bag added, on a trip found by description."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        for trip in seed.trips(user):
            others = [p for p in trip["passengers"] if p["first_name"] != user["name"]["first_name"]]
            fits = (
                cards
                and is_future(trip)
                and len(trip["passengers"]) >= 2
                and others
                and at_allowance(user, trip)
            )
            if fits and described(seed, user, trip):
                return user_id, user, trip, others[0], cards[0]
        return None

    user_id, user, trip, companion, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    right_dob = shift(companion["dob"], 366)
    fixed = [{**p, "dob": right_dob} if p is companion else dict(p) for p in trip["passengers"]]
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, travelling with {companion['first_name']} {companion['last_name']}",
        reason="A companion's date of birth is wrong on the booking; also wants one more checked bag.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). On {trip_words(trip)}, the date of birth of "
            f"{companion['first_name']} {companion['last_name']} "
            f"is wrong: it should be {right_dob}. You want "
            f"it corrected, and you want one more checked bag "
            f"on that trip, paid with your {card_words(card)}. "
            f"You do not know the reservation code."
        ),
        known={
            "user_id": user_id,
            "trip": trip_words(trip),
            "passenger_name": f"{companion['first_name']} {companion['last_name']}",
            "dob": right_dob,
            "card": card_words(card),
        },
        volunteered=["user_id", "passenger_name", "dob"],
        unknown=["reservation code"],
        discoverable={
            "reservation_id": trip["reservation_id"],
            "passengers": people(trip),
            "payment_id": card["id"],
            "total_baggages": str(trip["total_baggages"] + 1),
            "nonfree_baggages": "1",
        },
        goals=[
            goal("dob", "Please correct the date of birth.", right_dob),
            goal("bag", "And add one checked bag to the same trip.", card["id"]),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            *lookups(seed, user, trip["reservation_id"]),
            act("update_reservation_passengers", reservation_id=trip["reservation_id"], passengers=fixed),
            extra_bag(seed, user, trip, card),
        ],
    )


@task(
    7,
    "anger",
    "annoyance",
    "neutral",
    "moderate",
    "cautious",
    "You are mildly annoyed that you have to call about bags at all. You stay civil but short, and you "
    "want the numbers stated clearly.",
)
def bags_on_two_trips(seed: Seed) -> Draft:
    """One extra bag on each of two trips, both paid by the only gift card; the user asks what is left."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "gift_card")
        trips = [r for r in seed.trips(user) if is_future(r) and at_allowance(user, r)]
        if (
            len(cards) == 1
            and len(trips) >= 2
            and cards[0]["amount"] >= 200  # what is left has 3 digits: no date or count says it by accident
            and described(seed, user, *trips[:2])
        ):
            return user_id, user, trips[0], trips[1], cards[0]
        return None

    user_id, user, first, second, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    left = str(card["amount"] - 100)
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, two trips coming up",
        reason="Wants one more checked bag on each of two upcoming trips, paid by gift card.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). You want one extra checked bag on "
            f"{trip_words(first)} and one on {trip_words(second)}, both paid with your gift card. Afterwards "
            f"ask how much is left on the gift card."
        ),
        known={
            "user_id": user_id,
            "trips": f"{trip_words(first)}; {trip_words(second)}",
            "card": "your gift card",
        },
        volunteered=["user_id"],
        unknown=["reservation codes", "gift card balance"],
        discoverable={
            "reservation_id": f"{first['reservation_id']} and {second['reservation_id']}",
            "payment_id": card["id"],
            "total_baggages": f"{first['total_baggages'] + 1} and {second['total_baggages'] + 1}",
            "nonfree_baggages": "1 on each",
        },
        goals=[
            goal(
                "bags",
                "One more bag on each of my two trips, please.",
                first["reservation_id"],
                second["reservation_id"],
            ),
            goal("balance", "What is left on my gift card now?", f"${left}", kind="information"),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            *lookups(seed, user, first["reservation_id"], second["reservation_id"]),
            extra_bag(seed, user, first, card),
            extra_bag(seed, user, second, card),
            act("get_user_details", user_id=user_id),
        ],
        outputs=[f"${left}"],
    )


def cheapest(options: list[tuple[str, int]]) -> tuple[str, int] | None:
    """The single cheapest option, or None when there is none or a tie."""
    if not options:
        return None
    best = min(fare for _, fare in options)
    winners = [option for option in options if option[1] == best]
    return winners[0] if len(winners) == 1 else None


def cheapest_direct(
    seed: Seed, origin: str, destination: str, date: str, cabin: str, seats: int
) -> tuple[str, int] | None:
    """The single cheapest direct flight the search shows, when it has `seats` free."""
    best = cheapest(seed.direct(origin, destination, date, cabin, 0))
    return best if best and seed.bookable(best[0], date, cabin, seats) is not None else None


def departures(seed: Seed, origin: str, destination: str, date: str, cabin: str) -> dict[str, str]:
    """Direct flights the search shows on `date`: number -> scheduled departure."""
    options = seed.direct(origin, destination, date, cabin, 0)
    return {number: seed.flights[number]["scheduled_departure_time_est"] for number, _ in options}


def earliest_direct(
    seed: Seed, origin: str, destination: str, date: str, cabin: str, seats: int
) -> str | None:
    """The single earliest direct flight of the day, when it has `seats` free."""
    times = departures(seed, origin, destination, date, cabin)
    if not times or sorted(times.values()).count(min(times.values())) > 1:
        return None
    number = min(times, key=lambda n: times[n])
    return number if seed.bookable(number, date, cabin, seats) is not None else None


def latest_direct(seed: Seed, trip: Record) -> tuple[str, int] | None:
    """The single latest direct flight of the trip's day, when later than the booked one and bookable."""
    segment = trip["flights"][0]
    times = departures(seed, trip["origin"], trip["destination"], segment["date"], trip["cabin"])
    if not times or sorted(times.values()).count(max(times.values())) > 1:
        return None
    number = max(times, key=lambda n: times[n])
    booked = seed.flights[segment["flight_number"]]["scheduled_departure_time_est"]
    fare = seed.bookable(number, segment["date"], trip["cabin"], len(trip["passengers"]))
    return (number, fare) if fare is not None and times[number] > booked else None


def eligible(user: Record, reservation: Record) -> bool:
    """Whether the policy allows compensation for this reservation."""
    return (
        user["membership"] != "regular"
        or reservation["insurance"] == "yes"
        or reservation["cabin"] == "business"
    )


@task(
    8,
    "enjoyment",
    "peace",
    "warm",
    "low",
    "trusting",
    "You feel calm and content; this is a relaxed trip with a friend. You are warm and patient, happy to "
    "let the agent take its time, and you accept its suggestions.",
)
def book_with_certificate(seed: Seed) -> Draft:
    """A one-way economy trip for the user and a saved passenger, certificate first, card for the rest."""
    date = "2024-05-24"

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        certificates, cards = methods(user, "certificate"), methods(user, "credit_card")
        if not (certificates and cards and user["saved_passengers"] and user["reservations"]):
            return None
        origin = seed.reservations[user["reservations"][0]]["origin"]
        for destination in sorted(AIRPORTS):
            best = cheapest_direct(seed, origin, destination, date, "economy", 2)
            if best and certificates[0]["amount"] < best[1] * 2 + 60:
                return user_id, user, origin, destination, best, certificates[0], cards[0]
        return None

    user_id, user, origin, destination, (number, fare), certificate, card = first_match(
        seed.customers(), rule
    )
    seed.take(user_id)
    friend = dict(user["saved_passengers"][0])
    total = fare * 2 + 60
    payments = [
        {"payment_id": certificate["id"], "amount": certificate["amount"]},
        {"payment_id": card["id"], "amount": total - certificate["amount"]},
    ]
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, planning a trip with {friend['first_name']} {friend['last_name']}",
        reason="Wants to book a one-way economy trip for two, using a travel certificate first.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). You want a one-way economy trip from "
            f"{city(origin)} to {city(destination)} on {long_date(date)} for yourself and "
            f"{friend['first_name']} {friend['last_name']} (already saved in your profile), the cheapest "
            f"direct flight, with travel insurance and 2 checked bags in total. Use your travel certificate "
            f"first and put the rest on your {card_words(card)}. Ask for the total price."
        ),
        known={
            "user_id": user_id,
            "trip": f"one way from {city(origin)} to {city(destination)}",
            "date": date,
            "cabin": "economy",
            "companion": f"{friend['first_name']} {friend['last_name']}",
            "insurance": "yes",
            "total_baggages": "2",
            "card": f"certificate first, then your {card_words(card)}",
        },
        volunteered=["user_id", "trip", "date"],
        unknown=["airport codes", "flight numbers", "fares"],
        discoverable={
            "origin": origin,
            "destination": destination,
            "flight_number": number,
            "payment_id": f"{certificate['id']} and {card['id']}",
            "dob": f"{user['dob']} (you) and {friend['dob']} ({friend['first_name']})",
        },
        goals=[
            goal("total", "What will the whole trip cost?", str(total), kind="information"),
            goal("book", "Please book it.", number, certificate["id"]),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            act("list_all_airports"),
            act("search_direct_flight", origin=origin, destination=destination, date=date),
            act(
                "book_reservation",
                user_id=user_id,
                origin=origin,
                destination=destination,
                flight_type="one_way",
                cabin="economy",
                flights=[{"flight_number": number, "date": date}],
                passengers=[owner_as_passenger(user), friend],
                payment_methods=payments,
                total_baggages=2,
                nonfree_baggages=0,
                insurance="yes",
            ),
        ],
        outputs=[str(total)],
        preferences=["cheapest direct flight"],
    )


def connections(seed: Seed, origin: str, destination: str, date: str, cabin: str) -> list:
    """One-stop pairs as `search_onestop_flight` lists them: (legs, fare shown, bookable the same day)."""
    pairs = []
    for first in sorted(seed.flights):
        one = seed.flights[first]
        if one["origin"] != origin:
            continue
        overnight = "+1" in one["scheduled_arrival_time_est"]
        second_date = shift(date, 1) if overnight else date
        for second in sorted(seed.flights):
            two = seed.flights[second]
            if two["origin"] != one["destination"] or two["destination"] != destination:
                continue
            if one["scheduled_arrival_time_est"] > two["scheduled_departure_time_est"]:
                continue
            if (
                seed.day(first, date)["status"] != "available"
                or seed.day(second, second_date)["status"] != "available"
            ):
                continue
            shown = seed.day(first, date)["prices"][cabin] + seed.day(second, date).get("prices", {}).get(
                cabin, 0
            )
            ok = not overnight and None not in (
                seed.bookable(first, date, cabin, 1),
                seed.bookable(second, date, cabin, 1),
            )
            pairs.append(([first, second], shown, ok))
    return pairs


def cheapest_connection(seed: Seed, origin: str, destination: str, date: str) -> tuple[str, int] | None:
    """The single cheapest business connection the search shows, when bookable the same day."""
    pairs = connections(seed, origin, destination, date, "business")
    best = cheapest([(" ".join(legs), fare) for legs, fare, _ in pairs])
    return best if best and dict((" ".join(legs), ok) for legs, _, ok in pairs)[best[0]] else None


@task(
    9,
    "disgust",
    "aversion",
    "cold",
    "moderate",
    "skeptical",
    "You have an aversion to this airline after past trouble and make that clear. You are cold, you "
    "doubt every price you hear, and you want the agent to justify its choices.",
)
def book_connection_round_trip(seed: Seed) -> Draft:
    """A business round trip: no direct flight out, so the cheapest connection; direct flight back."""
    out_date, back_date = "2024-05-22", "2024-05-25"

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        if not (cards and user["reservations"]):
            return None
        origin = seed.reservations[user["reservations"][0]]["origin"]
        for destination in sorted(AIRPORTS):
            if destination == origin or seed.direct(origin, destination, out_date, "business", 0):
                continue
            out = cheapest_connection(seed, origin, destination, out_date)
            back = cheapest_connection(seed, destination, origin, back_date)
            if out and back:
                return user_id, user, origin, destination, out, back, cards[0]
        return None

    user_id, user, origin, destination, out, back, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    legs, back_legs = out[0].split(), back[0].split()
    total = out[1] + back[1]
    flights = [{"flight_number": n, "date": out_date} for n in legs] + [
        {"flight_number": n, "date": back_date} for n in back_legs
    ]
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, a reluctant customer",
        reason="Needs a business round trip on a route with no nonstop flights.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). You need a business class round trip from "
            f"{city(origin)} to {city(destination)}, leaving {long_date(out_date)} and coming back "
            f"{long_date(back_date)}, just for yourself, no bags and no insurance. You want the cheapest "
            f"option each way; one stop is fine if there is no nonstop. Pay with your {card_words(card)}."
        ),
        known={
            "user_id": user_id,
            "trip": f"round trip from {city(origin)} to {city(destination)}",
            "dates": f"out {out_date}, back {back_date}",
            "cabin": "business",
            "insurance": "no",
            "total_baggages": "0",
            "card": card_words(card),
        },
        volunteered=["user_id", "trip"],
        unknown=["airport codes", "flight numbers", "fares"],
        discoverable={
            "origin": origin,
            "destination": destination,
            "flight_number": f"{' and '.join(legs)} out, {' and '.join(back_legs)} back",
            "payment_id": card["id"],
            "amount": str(total),
        },
        goals=[goal("book", "Book the cheapest business round trip.", *legs, *back_legs)],
        actions=[
            act("get_user_details", user_id=user_id),
            act("search_direct_flight", origin=origin, destination=destination, date=out_date),
            act("search_onestop_flight", origin=origin, destination=destination, date=out_date),
            act("search_direct_flight", origin=destination, destination=origin, date=back_date),
            act("search_onestop_flight", origin=destination, destination=origin, date=back_date),
            act(
                "book_reservation",
                user_id=user_id,
                origin=origin,
                destination=destination,
                flight_type="round_trip",
                cabin="business",
                flights=flights,
                passengers=[owner_as_passenger(user)],
                payment_methods=[{"payment_id": card["id"], "amount": total}],
                total_baggages=0,
                nonfree_baggages=0,
                insurance="no",
            ),
        ],
        preferences=["cheapest option each way", "nonstop preferred when it exists"],
    )


@task(
    10,
    "sadness",
    "disappointment",
    "neutral",
    "moderate",
    "cautious",
    "You are disappointed that the airline let you down and it shows in your voice. You cooperate but "
    "check each step, and you want the agent to say clearly what you are getting.",
)
def cancelled_flight_refund_and_rebook(seed: Seed) -> Draft:
    """The airline cancelled the flight: cancel the booking, 100 per passenger, book a new flight."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        for trip in seed.trips(user):
            states = [seed.status(s) for s in trip["flights"]]
            if not (cards and trip["flight_type"] == "one_way" and set(states) == {"cancelled"}):
                continue
            if not eligible(user, trip) or len(trip["flights"]) != 1:
                continue
            for offset in range(2, 8):
                date = shift(TODAY, offset)
                best = cheapest_direct(
                    seed, trip["origin"], trip["destination"], date, trip["cabin"], len(trip["passengers"])
                )
                if best:
                    return user_id, user, trip, date, best, cards[0]
        return None

    user_id, user, trip, date, (number, fare), card = first_match(seed.customers(), rule)
    seed.take(user_id)
    count = len(trip["passengers"])
    compensation = 100 * count
    total = fare * count
    lost = trip["flights"][0]
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, whose flight was cancelled",
        reason="The airline cancelled the flight; wants the booking refunded, compensation and a new flight.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). The airline cancelled your flight from "
            f"{city(trip['origin'])} to {city(trip['destination'])} "
            f"on {long_date(lost['date'])} (reservation "
            f"{trip['reservation_id']}). You want that reservation "
            f"cancelled and refunded, you complain about "
            f"the cancellation, and you want to be booked on the cheapest direct flight of the same route on "
            f"{long_date(date)}, same cabin and same travellers, no bags, no insurance, paid with your "
            f"{card_words(card)}."
        ),
        known={
            "user_id": user_id,
            "reservation_id": trip["reservation_id"],
            "cancelled_flight": f"{city(trip['origin'])} to {city(trip['destination'])} on {lost['date']}",
            "date": date,
            "card": card_words(card),
        },
        volunteered=["user_id", "reservation_id", "cancelled_flight"],
        unknown=["what compensation is possible"],
        discoverable={
            "amount": f"{compensation} (100 per passenger)",
            "flight_number": number,
            "passengers": people(trip),
            "payment_id": card["id"],
            "cabin": trip["cabin"],
        },
        goals=[
            goal(
                "cancel",
                "Cancel and refund the reservation whose flight you cancelled.",
                trip["reservation_id"],
            ),
            goal("compensation", "I expect something for the trouble.", str(compensation)),
            goal("rebook", "Put me on a new flight.", number, date),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            act("get_reservation_details", reservation_id=trip["reservation_id"]),
            act("cancel_reservation", reservation_id=trip["reservation_id"]),
            act("send_certificate", user_id=user_id, amount=compensation),
            act("search_direct_flight", origin=trip["origin"], destination=trip["destination"], date=date),
            act(
                "book_reservation",
                user_id=user_id,
                origin=trip["origin"],
                destination=trip["destination"],
                flight_type="one_way",
                cabin=trip["cabin"],
                flights=[{"flight_number": number, "date": date}],
                passengers=trip["passengers"],
                payment_methods=[{"payment_id": card["id"], "amount": total}],
                total_baggages=0,
                nonfree_baggages=0,
                insurance="no",
            ),
        ],
    )


NEWCOMERS = (
    {"first_name": "Wren", "last_name": "Halvorsen", "dob": "1991-08-30"},
    {"first_name": "Idris", "last_name": "Okonkwo", "dob": "1984-02-11"},
)


def replace_companion(
    trip: Record, user: Record, newcomer: dict[str, str]
) -> tuple[Record, list[dict[str, str]]]:
    """The first passenger who is not the user, and the passenger list with the newcomer in their place."""
    companion = next(p for p in trip["passengers"] if p["first_name"] != user["name"]["first_name"])
    return companion, [dict(newcomer) if p is companion else dict(p) for p in trip["passengers"]]


def has_companion(trip: Record, user: Record) -> bool:
    others = [p for p in trip["passengers"] if p["first_name"] != user["name"]["first_name"]]
    return len(trip["passengers"]) >= 2 and len(others) < len(trip["passengers"]) and bool(others)


@task(
    11,
    "anger",
    "exasperation",
    "cold",
    "high",
    "skeptical",
    "You are exasperated: your flight today is delayed and you have had enough. You are cold and "
    "impatient, you expect the agent to make excuses, and you push for a fast fix.",
)
def delayed_today_move_return(seed: Seed) -> Draft:
    """Today's outbound is delayed: the return moves one day later, then 50 per passenger."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        for trip in seed.trips(user):
            if not (
                cards
                and direct_round_trip(trip)
                and trip["cabin"] != "basic_economy"
                and eligible(user, trip)
            ):
                continue
            if seed.status(trip["flights"][0]) != "delayed" or trip["flights"][0]["date"] != TODAY:
                continue
            later = moved(seed, trip, 1, 1)
            if later:
                return user_id, user, trip, later, cards[0]
        return None

    user_id, user, trip, later, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    out = trip["flights"][0]
    compensation = 50 * len(trip["passengers"])
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, stuck with a delayed flight",
        reason="Today's flight is delayed; wants to come back one day later and compensation for the delay.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). Your flight {out['flight_number']} today on "
            f"reservation {trip['reservation_id']} is badly "
            f"delayed. Because you will arrive late you want to "
            f"return one day later, on {long_date(later['date'])}, on the same return flight; pay any "
            f"difference with your {card_words(card)}. You complain about the delay and expect compensation."
        ),
        known={
            "user_id": user_id,
            "reservation_id": trip["reservation_id"],
            "delayed_flight": f"{out['flight_number']} today",
            "date": later["date"],
            "card": card_words(card),
        },
        volunteered=["user_id", "reservation_id", "delayed_flight"],
        unknown=["what compensation is possible", "the fare difference"],
        discoverable={
            "flight_number": later["flight_number"],
            "cabin": trip["cabin"],
            "payment_id": card["id"],
            "amount": f"{compensation} (50 per passenger)",
        },
        goals=[
            goal("move", "Move my return one day later.", later["date"]),
            goal("compensation", "And I want something for this delay.", str(compensation)),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            act("get_reservation_details", reservation_id=trip["reservation_id"]),
            act(
                "search_direct_flight",
                origin=trip["destination"],
                destination=trip["origin"],
                date=later["date"],
            ),
            act(
                "update_reservation_flights",
                reservation_id=trip["reservation_id"],
                cabin=trip["cabin"],
                flights=plain([out, later]),
                payment_id=card["id"],
            ),
            act("send_certificate", user_id=user_id, amount=compensation),
        ],
    )


@task(
    12,
    "enjoyment",
    "relief",
    "warm",
    "low",
    "trusting",
    "You feel relieved that a replacement traveller was found and you are in a good mood. You are "
    "warm, unhurried and take the agent's word for things.",
)
def swap_traveller_and_bags(seed: Seed) -> Draft:
    """A companion is replaced by someone else; two paid bags are added."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        for trip in seed.trips(user):
            fits = cards and is_future(trip) and has_companion(trip, user) and at_allowance(user, trip)
            if fits and described(seed, user, trip):
                return user_id, user, trip, cards[0]
        return None

    user_id, user, trip, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    newcomer = NEWCOMERS[0]
    companion, passengers = replace_companion(trip, user, newcomer)
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, organising a trip with a new travel partner",
        reason="A companion cannot travel; someone else takes the seat, and two more bags are needed.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). On {trip_words(trip)}, "
            f"{companion['first_name']} {companion['last_name']} can no longer come; "
            f"{newcomer['first_name']} {newcomer['last_name']} "
            f"(born {newcomer['dob']}) takes the seat instead. "
            f"You also want two more checked bags on that trip, paid with your {card_words(card)}."
        ),
        known={
            "user_id": user_id,
            "trip": trip_words(trip),
            "leaving": f"{companion['first_name']} {companion['last_name']}",
            "first_name": newcomer["first_name"],
            "last_name": newcomer["last_name"],
            "dob": newcomer["dob"],
            "card": card_words(card),
        },
        volunteered=["user_id", "leaving"],
        unknown=["reservation code"],
        discoverable={
            "reservation_id": trip["reservation_id"],
            "passengers": people(trip),
            "payment_id": card["id"],
            "total_baggages": str(trip["total_baggages"] + 2),
            "nonfree_baggages": "2",
        },
        goals=[
            goal(
                "swap",
                "Please put my new travel partner in place of the one who dropped out.",
                newcomer["last_name"],
            ),
            goal("bags", "Two more checked bags, please.", card["id"]),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            *lookups(seed, user, trip["reservation_id"]),
            act(
                "update_reservation_passengers", reservation_id=trip["reservation_id"], passengers=passengers
            ),
            extra_bag(seed, user, trip, card, bags=2),
        ],
    )


@task(
    13,
    "fear",
    "dread",
    "neutral",
    "high",
    "trusting",
    "You dread the long flight in a cramped seat because of your back and it makes you tense. You "
    "trust the agent but you need this settled right away.",
)
def upgrade_to_economy(seed: Seed) -> Draft:
    """A basic economy reservation moves to economy on every flight; the user asks what it costs."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        for trip in seed.trips(user):
            if not (
                cards and is_future(trip) and trip["cabin"] == "basic_economy" and len(trip["flights"]) == 2
            ):
                continue
            count = len(trip["passengers"])
            fares = [seed.bookable(s["flight_number"], s["date"], "economy", count) for s in trip["flights"]]
            if None not in fares:
                return user_id, user, trip, fares, cards[0]
        return None

    user_id, user, trip, fares, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    cost = difference(trip, fares)
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, worried about a long flight",
        reason="Wants every flight of a basic economy reservation moved up to economy, and the price.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). You "
            f"want reservation {trip['reservation_id']} moved "
            f"from basic economy to economy on all its flights, keeping the same flights. Ask what the "
            f"upgrade costs and pay with your {card_words(card)}."
        ),
        known={
            "user_id": user_id,
            "reservation_id": trip["reservation_id"],
            "cabin": "economy",
            "card": card_words(card),
        },
        volunteered=["user_id", "reservation_id", "cabin"],
        unknown=["the upgrade price"],
        discoverable={
            "flight_number": " and ".join(s["flight_number"] for s in trip["flights"]),
            "date": " and ".join(s["date"] for s in trip["flights"]),
            "flights": "the same flights as now",
            "payment_id": card["id"],
        },
        goals=[
            goal("price", "How much is the upgrade?", f"${cost}", kind="information"),
            goal("upgrade", "Upgrade all my flights to economy.", "economy", trip["reservation_id"]),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            act("get_reservation_details", reservation_id=trip["reservation_id"]),
            *[
                act("search_direct_flight", origin=s["origin"], destination=s["destination"], date=s["date"])
                for s in trip["flights"]
            ],
            act(
                "update_reservation_flights",
                reservation_id=trip["reservation_id"],
                cabin="economy",
                flights=plain(trip["flights"]),
                payment_id=card["id"],
            ),
        ],
        outputs=[f"${cost}"],
    )


@task(
    14,
    "disgust",
    "dislike",
    "neutral",
    "low",
    "cautious",
    "You dislike dealing with airline paperwork and let a little of that show. You are not in a hurry "
    "but you want to hear the details before you agree to anything.",
)
def swap_traveller_and_later_return(seed: Seed) -> Draft:
    """A companion is replaced, and the return flight moves one day later."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        for trip in seed.trips(user):
            if not (cards and is_future(trip) and direct_round_trip(trip) and has_companion(trip, user)):
                continue
            later = moved(seed, trip, 1, 1) if trip["cabin"] != "basic_economy" else None
            if later:
                return user_id, user, trip, later, cards[0]
        return None

    user_id, user, trip, later, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    newcomer = NEWCOMERS[1]
    companion, passengers = replace_companion(trip, user, newcomer)
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, changing travel plans",
        reason="A different companion travels, and the return should be one day later.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). On reservation {trip['reservation_id']}, "
            f"{newcomer['first_name']} {newcomer['last_name']} (born {newcomer['dob']}) travels instead of "
            f"{companion['first_name']} {companion['last_name']}. "
            f"You also want to fly back one day later, on "
            f"{long_date(later['date'])}, on the same return flight; pay any difference with your "
            f"{card_words(card)}."
        ),
        known={
            "user_id": user_id,
            "reservation_id": trip["reservation_id"],
            "leaving": f"{companion['first_name']} {companion['last_name']}",
            "first_name": newcomer["first_name"],
            "last_name": newcomer["last_name"],
            "dob": newcomer["dob"],
            "date": later["date"],
            "card": card_words(card),
        },
        volunteered=["user_id", "reservation_id"],
        unknown=["the fare difference"],
        discoverable={
            "passengers": people(trip),
            "flight_number": later["flight_number"],
            "cabin": trip["cabin"],
            "payment_id": card["id"],
        },
        goals=[
            goal("swap", "Change the second traveller.", newcomer["last_name"]),
            goal("move", "Move our return one day later.", later["date"]),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            act("get_reservation_details", reservation_id=trip["reservation_id"]),
            act(
                "update_reservation_passengers", reservation_id=trip["reservation_id"], passengers=passengers
            ),
            act(
                "search_direct_flight",
                origin=trip["destination"],
                destination=trip["origin"],
                date=later["date"],
            ),
            act(
                "update_reservation_flights",
                reservation_id=trip["reservation_id"],
                cabin=trip["cabin"],
                flights=plain([trip["flights"][0], later]),
                payment_id=card["id"],
            ),
        ],
    )


@task(
    15,
    "sadness",
    "helplessness",
    "warm",
    "high",
    "trusting",
    "You feel helpless with payments and ids and say so; you lean on the agent to sort it out. You are "
    "kind and trusting, but you must book today because the trip is very soon.",
)
def book_with_certificate_and_gift_cards(seed: Seed) -> Draft:
    """A one-way for two paid with a certificate, the smaller gift card in full, the larger for the rest."""
    date = "2024-05-18"

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        certificates, gifts = methods(user, "certificate"), methods(user, "gift_card")
        if (
            len(certificates) != 1
            or len(gifts) != 2
            or not user["saved_passengers"]
            or not user["reservations"]
        ):
            return None
        small, large = sorted(gifts, key=lambda m: (m["amount"], m["id"]))
        if small["amount"] == large["amount"] or small["amount"] == 0:
            return None
        origin = seed.reservations[user["reservations"][0]]["origin"]
        for cabin in ("economy", "business"):
            for destination in sorted(AIRPORTS):
                best = cheapest_direct(seed, origin, destination, date, cabin, 2)
                budget = certificates[0]["amount"] + small["amount"]
                if best and budget < best[1] * 2 <= budget + large["amount"]:
                    return user_id, user, origin, destination, cabin, best, certificates[0], small, large
        return None

    user_id, user, origin, destination, cabin, (number, fare), certificate, small, large = first_match(
        seed.customers(), rule
    )
    seed.take(user_id)
    friend = dict(user["saved_passengers"][0])
    total = fare * 2
    payments = [
        {"payment_id": certificate["id"], "amount": certificate["amount"]},
        {"payment_id": small["id"], "amount": small["amount"]},
        {"payment_id": large["id"], "amount": total - certificate["amount"] - small["amount"]},
    ]
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, booking a last-minute family visit",
        reason="Needs a one-way trip for two very soon and wants to pay with a certificate and gift cards.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). You need a one-way {CABIN_WORDS[cabin]} trip from "
            f"{city(origin)} to {city(destination)} on {long_date(date)} for yourself and "
            f"{friend['first_name']} {friend['last_name']} (saved in your profile): the cheapest direct "
            f"flight, no bags, no insurance. You have no credit card to use: pay with your certificate, then "
            f"use up the gift card with the smaller balance, and put the rest on the other gift card."
        ),
        known={
            "user_id": user_id,
            "trip": f"one way from {city(origin)} to {city(destination)}",
            "date": date,
            "cabin": cabin,
            "companion": f"{friend['first_name']} {friend['last_name']}",
            "insurance": "no",
            "total_baggages": "0",
            "card": "certificate, then the smaller gift card, then the other gift card",
        },
        volunteered=["user_id", "trip", "date"],
        unknown=["airport codes", "payment ids", "balances"],
        discoverable={
            "origin": origin,
            "destination": destination,
            "flight_number": number,
            "payment_id": f"{certificate['id']}, {small['id']} and {large['id']}",
            "dob": f"{user['dob']} (you) and {friend['dob']} ({friend['first_name']})",
        },
        goals=[
            goal(
                "book",
                "Please book the trip with my certificate and gift cards.",
                number,
                small["id"],
                large["id"],
            )
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            act("list_all_airports"),
            act("search_direct_flight", origin=origin, destination=destination, date=date),
            act(
                "book_reservation",
                user_id=user_id,
                origin=origin,
                destination=destination,
                flight_type="one_way",
                cabin=cabin,
                flights=[{"flight_number": number, "date": date}],
                passengers=[owner_as_passenger(user), friend],
                payment_methods=payments,
                total_baggages=0,
                nonfree_baggages=0,
                insurance="no",
            ),
        ],
        preferences=["cheapest direct flight"],
    )


@task(
    16,
    "anger",
    "argumentativeness",
    "cold",
    "moderate",
    "skeptical",
    "You argue with every rule the agent mentions and insist you are entitled to more. You are cold and "
    "distrustful, but you accept a reasonable alternative once you see you cannot win.",
)
def refused_cancel_moved_instead(seed: Seed) -> Draft:
    """Cancellation is not allowed (economy, no insurance, old booking); both flights move two days later."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        for trip in seed.trips(user):
            if not (cards and is_future(trip) and direct_round_trip(trip) and trip["cabin"] == "economy"):
                continue
            if trip["insurance"] != "no" or trip["created_at"] >= "2024-05-14T15:00:00":
                continue
            out, back = moved(seed, trip, 0, 2), moved(seed, trip, 1, 2)
            if out and back:
                return user_id, user, trip, out, back, cards[0]
        return None

    user_id, user, trip, out, back, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, whose plans shifted",
        reason=(
            "Wants to cancel an economy round trip without insurance; settles for moving it two days later."
        ),
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). Your plans changed and you want reservation "
            f"{trip['reservation_id']} cancelled with a full refund. If the agent says that is not possible, "
            f"argue once, then ask to move both flights two days later instead (same flights, leaving "
            f"{long_date(out['date'])} and returning {long_date(back['date'])}), paying any difference with "
            f"your {card_words(card)}."
        ),
        known={
            "user_id": user_id,
            "reservation_id": trip["reservation_id"],
            "cancel_reason": "a change of plans",
            "date": f"{out['date']} out and {back['date']} back",
            "card": card_words(card),
        },
        volunteered=["user_id", "reservation_id"],
        unknown=["cancellation rules"],
        discoverable={
            "flight_number": f"{out['flight_number']} and {back['flight_number']}",
            "cabin": trip["cabin"],
            "payment_id": card["id"],
            "flights": "the same flight numbers, two days later",
        },
        goals=[
            Goal.model_construct(
                id="cancel",
                kind="action",
                request=f"Please cancel reservation {trip['reservation_id']} with a full refund.",
                evidence=[trip["reservation_id"]],
                targets=[
                    Target(tool="cancel_reservation", arguments={"reservation_id": trip["reservation_id"]})
                ],
                refusal_expected=True,
                refusal_reason=["insurance", "24 hours"],
            ),
            goal(
                "move", "Since you won't cancel, move both flights two days later.", out["date"], back["date"]
            ),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            act("get_reservation_details", reservation_id=trip["reservation_id"]),
            act(
                "search_direct_flight",
                origin=trip["origin"],
                destination=trip["destination"],
                date=out["date"],
            ),
            act(
                "search_direct_flight",
                origin=trip["destination"],
                destination=trip["origin"],
                date=back["date"],
            ),
            act(
                "update_reservation_flights",
                reservation_id=trip["reservation_id"],
                cabin=trip["cabin"],
                flights=plain([out, back]),
                payment_id=card["id"],
            ),
        ],
        preferences=["a refund if possible, otherwise a later trip"],
    )


@task(
    17,
    "enjoyment",
    "pride",
    "warm",
    "low",
    "trusting",
    "You are proud to be treating a friend to a business class trip and mention it happily. You are "
    "warm and patient and trust the agent's suggestions.",
)
def book_business_round_trip(seed: Seed) -> Draft:
    """A business round trip for two, direct both ways, four bags (all free), insurance, one card."""
    out_date, back_date = "2024-05-27", "2024-05-29"

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        if not (
            cards and user["membership"] != "regular" and user["saved_passengers"] and user["reservations"]
        ):
            return None
        origin = seed.reservations[user["reservations"][0]]["origin"]
        for destination in sorted(AIRPORTS):
            out = cheapest_direct(seed, origin, destination, out_date, "business", 2)
            back = cheapest_direct(seed, destination, origin, back_date, "business", 2)
            if out and back:
                return user_id, user, origin, destination, out, back, cards[0]
        return None

    user_id, user, origin, destination, out, back, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    friend = dict(user["saved_passengers"][0])
    total = (out[1] + back[1]) * 2 + 60
    flights = [{"flight_number": out[0], "date": out_date}, {"flight_number": back[0], "date": back_date}]
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, treating {friend['first_name']} to a trip",
        reason="Wants a business class round trip for two with bags and insurance.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). You want a business class round trip from "
            f"{city(origin)} to {city(destination)} for yourself and {friend['first_name']} "
            f"{friend['last_name']} (saved in your profile), leaving {long_date(out_date)} and returning "
            f"{long_date(back_date)}, on the cheapest direct "
            f"flights, with travel insurance and 4 checked bags "
            f"in total. Pay with your {card_words(card)}."
        ),
        known={
            "user_id": user_id,
            "trip": f"round trip from {city(origin)} to {city(destination)}",
            "dates": f"out {out_date}, back {back_date}",
            "cabin": "business",
            "companion": f"{friend['first_name']} {friend['last_name']}",
            "insurance": "yes",
            "total_baggages": "4",
            "card": card_words(card),
        },
        volunteered=["user_id", "trip"],
        unknown=["airport codes", "fares", "bag allowance"],
        discoverable={
            "origin": origin,
            "destination": destination,
            "flight_number": f"{out[0]} out, {back[0]} back",
            "payment_id": card["id"],
            "nonfree_baggages": "0 (all four bags are free in business)",
        },
        goals=[goal("book", "Book the business class round trip for the two of us.", out[0], back[0])],
        actions=[
            act("get_user_details", user_id=user_id),
            act("list_all_airports"),
            act("search_direct_flight", origin=origin, destination=destination, date=out_date),
            act("search_direct_flight", origin=destination, destination=origin, date=back_date),
            act(
                "book_reservation",
                user_id=user_id,
                origin=origin,
                destination=destination,
                flight_type="round_trip",
                cabin="business",
                flights=flights,
                passengers=[owner_as_passenger(user), friend],
                payment_methods=[{"payment_id": card["id"], "amount": total}],
                total_baggages=4,
                nonfree_baggages=0,
                insurance="yes",
            ),
        ],
        preferences=["cheapest direct flights"],
    )


@task(
    18,
    "fear",
    "desperation",
    "neutral",
    "high",
    "cautious",
    "You are desperate to get there a day earlier for a family emergency and you say so. You plead for "
    "speed, but you still want to hear the cost before agreeing.",
)
def one_day_earlier_and_bag(seed: Seed) -> Draft:
    """A one-way moves to the earliest direct flight one day earlier; one paid bag is added."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        for trip in seed.trips(user):
            if not (
                cards and is_future(trip) and trip["flight_type"] == "one_way" and len(trip["flights"]) == 1
            ):
                continue
            if (
                trip["cabin"] == "basic_economy"
                or not at_allowance(user, trip)
                or not described(seed, user, trip)
            ):
                continue
            date = shift(trip["flights"][0]["date"], -1)
            number = (
                earliest_direct(
                    seed, trip["origin"], trip["destination"], date, trip["cabin"], len(trip["passengers"])
                )
                if date > TODAY
                else None
            )
            if number:
                return user_id, user, trip, {"flight_number": number, "date": date}, cards[0]
        return None

    user_id, user, trip, new, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, facing a family emergency",
        reason="Must travel one day earlier than booked, on the first flight of that day, with one more bag.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). You are booked on {trip_words(trip)} but a family "
            f"emergency means you must fly one day earlier, on {long_date(new['date'])}, on the earliest "
            f"direct flight that day, same cabin. You also need one more checked bag. Pay with your "
            f"{card_words(card)}. You do not know the reservation code."
        ),
        known={
            "user_id": user_id,
            "trip": trip_words(trip),
            "date": new["date"],
            "preferred_time": "the earliest direct flight that day",
            "card": card_words(card),
        },
        volunteered=["user_id", "date"],
        unknown=["reservation code", "fare difference"],
        discoverable={
            "reservation_id": trip["reservation_id"],
            "flight_number": new["flight_number"],
            "payment_id": card["id"],
            "total_baggages": str(trip["total_baggages"] + 1),
            "nonfree_baggages": "1",
        },
        goals=[
            goal("earlier", "Get me on the first flight one day earlier.", new["flight_number"], new["date"]),
            goal("bag", "And one more checked bag.", card["id"]),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            *lookups(seed, user, trip["reservation_id"]),
            act(
                "search_direct_flight",
                origin=trip["origin"],
                destination=trip["destination"],
                date=new["date"],
            ),
            act(
                "update_reservation_flights",
                reservation_id=trip["reservation_id"],
                cabin=trip["cabin"],
                flights=[new],
                payment_id=card["id"],
            ),
            extra_bag(seed, user, trip, card),
        ],
    )


@task(
    19,
    "sadness",
    "discouragement",
    "neutral",
    "low",
    "cautious",
    "You feel discouraged because a planned trip fell through, and you sound flat. You take your time "
    "and want the figures repeated so you can write them down.",
)
def cancel_business_bag_and_balance(seed: Seed) -> Draft:
    """Cancel a business trip, add a bag on another paid by gift card; refund and balance are asked."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        gifts = methods(user, "gift_card")
        business = [r for r in seed.trips(user) if r["cabin"] == "business" and is_future(r)]
        other = [
            r for r in seed.trips(user) if is_future(r) and r["cabin"] != "business" and at_allowance(user, r)
        ]
        if (
            len(gifts) == 1
            and gifts[0]["amount"] >= 51
            and business
            and other
            and described(seed, user, business[0], other[0])
        ):
            return user_id, user, business[0], other[0], gifts[0]
        return None

    user_id, user, trip, other, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    refund, left = str(paid(trip)), str(card["amount"] - 50)
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, whose trip fell through",
        reason="Cancels a business trip, adds a bag to another trip with a gift card, and wants the figures.",
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). The "
            f"event behind {trip_words(trip)} was called off: "
            f"cancel it and ask how much will be refunded. Then add one checked bag to {trip_words(other)}, "
            f"paid with your gift card, and ask what is left on the gift card afterwards."
        ),
        known={
            "user_id": user_id,
            "business_trip": trip_words(trip),
            "cancel_reason": "the event was called off",
            "other_trip": trip_words(other),
            "card": "your gift card",
        },
        volunteered=["user_id", "business_trip"],
        unknown=["reservation codes", "refund amount", "gift card balance"],
        discoverable={
            "reservation_id": f"{trip['reservation_id']} (business "
            f"trip) and {other['reservation_id']} (other trip)",
            "payment_id": card["id"],
            "total_baggages": str(other["total_baggages"] + 1),
            "nonfree_baggages": "1",
        },
        goals=[
            goal("cancel", "Cancel my business class trip.", trip["reservation_id"]),
            goal("refund", "How much do I get back?", refund, kind="information"),
            goal("bag", "Add a checked bag to my other trip with my gift card.", other["reservation_id"]),
            goal("balance", "What is left on the gift card?", left, kind="information"),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            *lookups(seed, user, trip["reservation_id"], other["reservation_id"]),
            act("cancel_reservation", reservation_id=trip["reservation_id"]),
            extra_bag(seed, user, other, card),
            act("get_user_details", user_id=user_id),
        ],
        outputs=[refund, left],
    )


@task(
    20,
    "disgust",
    "repugnance",
    "cold",
    "low",
    "skeptical",
    "You find the way the airline treated you repugnant and say so bluntly. You are cold and distrust "
    "the agent's promises, though you are not in a rush.",
)
def cancelled_flight_certificate_and_bag(seed: Seed) -> Draft:
    """A complaint about a past cancelled flight earns 100 per passenger; a bag is added to another trip."""

    def rule(item: tuple[str, Record]) -> Any:
        user_id, user = item
        cards = methods(user, "credit_card")
        past = [
            r
            for r in seed.trips(user)
            if all(s["date"] < TODAY for s in r["flights"])
            and eligible(user, r)
            and any(seed.status(s) == "cancelled" for s in r["flights"])
        ]
        other = [r for r in seed.trips(user) if is_future(r) and at_allowance(user, r)]
        if cards and past and other and described(seed, user, other[0]):
            return user_id, user, past[0], other[0], cards[0]
        return None

    user_id, user, old, other, card = first_match(seed.customers(), rule)
    seed.take(user_id)
    lost = next(s for s in old["flights"] if seed.status(s) == "cancelled")
    compensation = 100 * len(old["passengers"])
    return Draft(
        user_id=user_id,
        persona=f"{name_of(user)}, still angry about a cancelled flight",
        reason=(
            "Complains about a cancelled flight from earlier this month and adds a bag to an upcoming trip."
        ),
        instruction=(
            f"You are {name_of(user)} (user id {user_id}). Your flight {lost['flight_number']} on "
            f"{long_date(lost['date'])} was cancelled by the airline and you are still upset about it; you "
            f"complain and expect compensation. You also want one more checked bag on {trip_words(other)}, "
            f"paid with your {card_words(card)}."
        ),
        known={
            "user_id": user_id,
            "cancelled_flight": f"{lost['flight_number']} on {lost['date']}",
            "other_trip": trip_words(other),
            "card": card_words(card),
        },
        volunteered=["user_id", "cancelled_flight"],
        unknown=["reservation codes", "what compensation is possible"],
        discoverable={
            "reservation_id": f"{old['reservation_id']} (cancelled "
            f"flight) and {other['reservation_id']} (other trip)",
            "amount": f"{compensation} (100 per passenger)",
            "payment_id": card["id"],
            "total_baggages": str(other["total_baggages"] + 1),
            "nonfree_baggages": "1",
        },
        goals=[
            goal("compensation", "I want compensation for that cancelled flight.", str(compensation)),
            goal("bag", "Add one checked bag to my upcoming trip.", other["reservation_id"]),
        ],
        actions=[
            act("get_user_details", user_id=user_id),
            *lookups(seed, user, old["reservation_id"], other["reservation_id"]),
            act("send_certificate", user_id=user_id, amount=compensation),
            extra_bag(seed, user, other, card),
        ],
    )


# ---------------------------------------------------------------------------------------------
# assembling and checking


def argument_names(value: Any) -> set[str]:
    """Every key used anywhere in a gold action's arguments (nested keys included)."""
    if isinstance(value, dict):
        return set(value) | {name for item in value.values() for name in argument_names(item)}
    if isinstance(value, list):
        return {name for item in value for name in argument_names(item)}
    return set()


def authoring_problems(task_: Task) -> list[str]:
    """The authoring rules the task schema does not check itself."""
    scenario = task_.user_scenario
    names = {name for a in task_.evaluation.actions for name in argument_names(a.arguments)}
    problems = []
    if len(scenario.discoverable) < 4:
        problems.append("fewer than 4 discoverable facts")
    problems += [
        f"discoverable {n!r} is no gold argument name" for n in scenario.discoverable if n not in names
    ]
    if not set(scenario.volunteered) & names:
        problems.append("no volunteered fact is a gold argument")
    return [f"{task_.id}: {p}" for p in problems]


def _write_tools() -> frozenset[str]:
    from taue.envs.airline import DOMAIN

    return DOMAIN.write_tools


def build(seed: Seed) -> list[Task]:
    """Every registered task, each followed by its neutral twin."""
    tasks = []
    for number in sorted(AUTHORS):
        draft = AUTHORS[number](seed)
        family, emotion, politeness, urgency, trust, feeling = EMOTIONS[number]
        task_id = f"airline-{number:03d}"
        emotional = Task(
            id=task_id,
            domain="airline",
            user_scenario=UserScenario(
                persona=draft.persona,
                reason_for_call=draft.reason,
                known_info=draft.known,
                volunteered=draft.volunteered,
                unknown_info=draft.unknown,
                discoverable=draft.discoverable,
                goals=attach_targets(draft.goals, draft.actions, _write_tools()),
                preferences=draft.preferences,
            ),
            instruction=draft.instruction,
            emotion=Emotion(
                family=family,
                emotion=emotion,
                politeness=politeness,
                urgency=urgency,
                trust=trust,
                instruction=feeling,
            ),  # type: ignore[arg-type]
            evaluation=Evaluation(actions=draft.actions, outputs=draft.outputs),
            twin=f"{task_id}-neutral",
            provenance=Provenance(source="envs/airline/author_tasks.py", index=number, seed=0),
        )
        tasks += [emotional, neutral_twin(emotional)]
    return tasks


def main() -> None:
    from taue.envs.airline import DOMAIN
    from taue.envs.runtime.task_checks import task_set_problems

    tasks = build(Seed.load(0))
    problems = [p for t in tasks for p in authoring_problems(t)]
    problems += asyncio.run(task_set_problems(DOMAIN, tasks))
    if problems:
        raise SystemExit("tasks not written:\n" + "\n".join(problems))
    text = json.dumps([t.model_dump(mode="json") for t in tasks], indent=2, ensure_ascii=False)
    TASKS_FILE.write_text(text + "\n", encoding="utf-8")
    gold = [len(t.evaluation.actions) for t in tasks if t.emotion is not None]
    print(f"wrote {len(tasks)} tasks to {TASKS_FILE} ({sum(gold) / len(gold):.2f} gold actions per task)")


if __name__ == "__main__":
    main()
