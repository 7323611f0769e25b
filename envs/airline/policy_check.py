"""Airline's policy as code: the hard rules of policy.md that the Tracer checks writes against
(docs/tracer.md). A gold write must break none; a policy challenge's asked-for write must break at
least one, and the broken rules' `reasons` are the phrases a refusal is accepted with."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from taue.contracts.tasks import Action
from taue.envs.airline import rules
from taue.envs.airline.seed_view import (
    FREE_BAGS,
    AirlineView,
    Record,
    cancellable,
    compensable,
    free_bags,
    plain,
)
from taue.envs.runtime.authoring import Rule

# --------------------------------------------------------------------------------------- policy rules

CANCEL_ELIGIBLE = Rule(
    "cancel-eligible",
    "Cancel only if booked within 24 hours, a flight was cancelled by the airline, in business class, "
    "or insured with a health or weather reason.",
    ("24 hours", "business class", "travel insurance", "cannot be cancelled"),
)
NOT_FLOWN = Rule(
    "not-flown", "Nothing changes once a flight has been flown.", ("already flown", "been flown")
)
BASIC_NO_CHANGE = Rule(
    "basic-economy-no-change", "Basic economy flights cannot be changed.", ("basic economy",)
)
SAME_TRIP = Rule("same-trip", "A change keeps origin, destination and trip type.", ("origin", "destination"))
UPDATE_PAYMENT = Rule(
    "update-payment",
    "Changes are paid by a credit card or gift card of the profile.",
    ("gift card", "balance"),
)
BAGS_NO_REMOVE = Rule(
    "bags-no-remove", "Bags can be added, never removed.", ("cannot be removed", "never removed")
)
BAG_FEES = Rule(
    "bag-fees", "Bags beyond the free allowance cost 50 dollars.", ("free allowance", "50 dollars")
)
PASSENGER_COUNT = Rule(
    "passenger-count", "The number of passengers never changes.", ("number of passengers", "new booking")
)
BOOKING_LIMITS = Rule(
    "booking-limits",
    "One to five passengers; at most one certificate, one credit card and three gift cards.",
    ("five passengers", "one credit card", "one certificate"),
)
COMPENSATION = Rule(
    "compensation",
    "Compensation only for silver or gold members, insured or business reservations.",
    ("silver or gold", "no compensation", "not eligible"),
)


# ----------------------------------------------------------------------------------------- the check


def check_policy(view: AirlineView, action: Action) -> list[Rule]:
    """The rules of policy.md that the write `action` breaks, judged on the seed records."""
    args, name = action.arguments, action.name
    if name == "book_reservation":
        return _booking_rules(view, args)
    if name == "send_certificate":
        return _compensation_rules(view, args)
    trip = view.reservations[args["reservation_id"]]
    check = _TRIP_CHECKS.get(name)
    return check(view, trip, args) if check is not None else []


def _cancel_rules(view: AirlineView, trip: Record, args: Record) -> list[Rule]:
    if view.flown(trip):
        return [NOT_FLOWN]
    return [CANCEL_ELIGIBLE] if cancellable(view, trip) is None else []


def _flight_change_rules(view: AirlineView, trip: Record, args: Record) -> list[Rule]:
    broken: list[Rule] = [NOT_FLOWN] if view.flown(trip) else []
    changed = plain(trip["flights"]) != [plain([f])[0] for f in args["flights"]]
    if changed and trip["cabin"] == "basic_economy":
        broken.append(BASIC_NO_CHANGE)
    if not _same_trip(view, trip, args["flights"]):
        broken.append(SAME_TRIP)
    return broken + _payment_rules(view, trip, args["payment_id"], 0)


def _baggage_rules(view: AirlineView, trip: Record, args: Record) -> list[Rule]:
    broken: list[Rule] = []
    free = free_bags(view, trip)
    if args["total_baggages"] < trip["total_baggages"]:
        broken.append(BAGS_NO_REMOVE)
    elif args["nonfree_baggages"] != max(trip["nonfree_baggages"], args["total_baggages"] - free, 0):
        broken.append(BAG_FEES)
    cost = rules.bag_cost(trip["nonfree_baggages"], args["nonfree_baggages"])
    return broken + _payment_rules(view, trip, args["payment_id"], cost)


def _passenger_rules(view: AirlineView, trip: Record, args: Record) -> list[Rule]:
    return [PASSENGER_COUNT] if len(args["passengers"]) != len(trip["passengers"]) else []


# The checks of the writes on one existing reservation, by tool name.
_TRIP_CHECKS: dict[str, Callable[[AirlineView, Record, Record], list[Rule]]] = {
    "cancel_reservation": _cancel_rules,
    "update_reservation_flights": _flight_change_rules,
    "update_reservation_baggages": _baggage_rules,
    "update_reservation_passengers": _passenger_rules,
}


def _same_trip(view: AirlineView, trip: Record, flights: list[Record]) -> bool:
    legs = [(view.flights[f["flight_number"]]["origin"], view.flights[f["flight_number"]]["destination"])
            for f in flights if f["flight_number"] in view.flights]  # fmt: skip
    if len(legs) != len(flights) or not legs or legs[0][0] != trip["origin"]:
        return False
    chained = all(a[1] == b[0] for a, b in pairwise(legs))
    end = trip["origin"] if trip["flight_type"] == "round_trip" else trip["destination"]
    reaches = any(leg[1] == trip["destination"] for leg in legs)
    return chained and reaches and legs[-1][1] == end


def _payment_rules(view: AirlineView, trip: Record, payment_id: str, cost: float) -> list[Rule]:
    method = view.users[trip["user_id"]]["payment_methods"].get(payment_id)
    return [] if rules.update_payment_problem(method, cost) is None else [UPDATE_PAYMENT]


def _booking_rules(view: AirlineView, args: Record) -> list[Rule]:
    methods = view.users[args["user_id"]]["payment_methods"]
    sources = [methods.get(p["payment_id"], {}).get("source") for p in args["payment_methods"]]
    limits = {"certificate": 1, "credit_card": 1, "gift_card": 3}
    over = any(sources.count(source) > most for source, most in limits.items())
    broken = [BOOKING_LIMITS] if over or None in sources or not 1 <= len(args["passengers"]) <= 5 else []
    free = FREE_BAGS[view.users[args["user_id"]]["membership"]][args["cabin"]] * len(args["passengers"])
    if args["nonfree_baggages"] != max(0, args["total_baggages"] - free):
        broken.append(BAG_FEES)
    return broken


def _compensation_rules(view: AirlineView, args: Record) -> list[Rule]:
    user = view.users[args["user_id"]]
    for trip in view.trips(args["user_id"]):
        lost = any(view.status(s) == "cancelled" for s in trip["flights"])
        if lost and compensable(user, trip) and args["amount"] == 100 * len(trip["passengers"]):
            return []
    return [COMPENSATION]
