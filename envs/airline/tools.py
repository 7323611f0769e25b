"""Airline tools: the 14 published τ-Emotion-Bench airline tools, same names, parameters and effects.

Behaviour follows the published airline tool specification, quirks that decide the final database included
(fixed new reservation ids, `update_reservation_flights` leaving `cabin` alone, no seat or balance
restoration on cancel). Unlike the original, a call that fails changes nothing.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, ConfigDict, Field

from taue.envs.airline import rules
from taue.envs.airline.models import NEW_CERTIFICATE_IDS, Flight, Reservation, User, readable
from taue.envs.runtime.database import Store
from taue.envs.runtime.domain import ends_conversation, writes

Cabin = Literal["basic_economy", "economy", "business"]
NEW_RESERVATION_IDS = ("HATHAT", "HATHAU", "HATHAV")
AIRPORTS = {
    "SFO": "San Francisco", "JFK": "New York", "LAX": "Los Angeles", "ORD": "Chicago",
    "DFW": "Dallas", "DEN": "Denver", "SEA": "Seattle", "ATL": "Atlanta", "MIA": "Miami",
    "BOS": "Boston", "PHX": "Phoenix", "IAH": "Houston", "LAS": "Las Vegas", "MCO": "Orlando",
    "EWR": "Newark", "CLT": "Charlotte", "MSP": "Minneapolis", "DTW": "Detroit",
    "PHL": "Philadelphia", "LGA": "LaGuardia",
}  # fmt: skip


class _Open(BaseModel):
    """Extra keys the caller adds are kept and stored, as in the original."""

    model_config = ConfigDict(extra="allow")


class FlightSegment(_Open):
    flight_number: str = Field(description="Flight number, e.g. 'HAT042'.")
    date: str = Field(description="Travel date of this flight as 'YYYY-MM-DD'.")


class Passenger(_Open):
    first_name: str = Field(description="Passenger's given name.")
    last_name: str = Field(description="Passenger's family name.")
    dob: str = Field(description="Passenger's date of birth as 'YYYY-MM-DD'.")


class PaymentEntry(_Open):
    payment_id: str = Field(
        description="A payment method id from the user's profile, e.g. 'gift_card_1234567'."
    )
    amount: int | float = Field(description="How much to charge to this payment method.")


ReservationId = Annotated[str, Field(description="Six-character reservation code, e.g. 'K3TQ9Z'.")]
UserId = Annotated[str, Field(description="The customer's user id, e.g. 'kai_moreau_1234'.")]
Airport = Annotated[str, Field(description="Three-letter IATA airport code, e.g. 'ORD'.")]
Day = Annotated[str, Field(description="Travel date as 'YYYY-MM-DD', e.g. '2024-05-20'.")]
PaymentId = Annotated[
    str,
    Field(description="Id of a credit card or gift card in the owner's profile, e.g. 'credit_card_1234567'."),
]
Bags = Annotated[int, Field(description="Total number of checked bags on the reservation.")]
PaidBags = Annotated[int, Field(description="How many of those bags are paid (non-free) bags.")]


def _dump(row: Reservation | User | Flight) -> str:
    return json.dumps(row.to_record())


def _methods_of(db: Store, reservation: Reservation) -> tuple[User, dict[str, dict[str, Any]]]:
    owner = db.require(User, reservation.user_id, f"'{reservation.user_id}'")
    return owner, owner.payment_methods


def _bookable_day(db: Store, number: str, date: str, cabin: str, seats: int) -> tuple[Flight, dict[str, Any]]:
    """The flight and its day object, checked as booking checks it (exists, available, enough seats)."""
    flight = db.require(Flight, number, f"flight {number} not found")
    day = flight.dates.get(date)
    if day is None:
        raise ToolError(f"flight {number} not found on date {date}")
    if day["status"] != "available":
        raise ToolError(f"flight {number} not available on date {date}")
    if day["available_seats"][cabin] < seats:
        raise ToolError(f"not enough seats on flight {number}")
    return flight, day


def _priced(segment: dict[str, Any], flight: Flight, price: int | float) -> dict[str, Any]:
    return {**segment, "price": price, "origin": flight.origin, "destination": flight.destination}


def _check_update_payment(methods: dict[str, dict[str, Any]], payment_id: str, cost: int | float) -> None:
    problem = rules.update_payment_problem(methods.get(payment_id), cost)
    if problem is not None:
        raise ToolError(problem)


# ---------------------------------------------------------------------------------------------
# booking


def _new_reservation_id(db: Store) -> str:
    for candidate in NEW_RESERVATION_IDS[:-1]:
        if db.get(Reservation, candidate) is None:
            return candidate
    return NEW_RESERVATION_IDS[-1]


def _check_booking_payments(user: User, payments: list[dict[str, Any]], total: int | float) -> None:
    for entry in payments:
        method = user.payment_methods.get(entry["payment_id"])
        if method is None:
            raise ToolError(f"payment method {entry['payment_id']} not found")
        if method["source"] in ("gift_card", "certificate") and method["amount"] < entry["amount"]:
            raise ToolError(f"not enough balance in payment method {entry['payment_id']}")
    paid = sum(entry["amount"] for entry in payments)
    if paid != total:
        raise ToolError(f"payment amount does not add up, total price is {total}, but paid {paid}")


def _charge_booking(user: User, payments: list[dict[str, Any]]) -> None:
    for entry in payments:
        method = user.payment_methods.get(entry["payment_id"])
        if method is None:  # the same certificate listed twice: the original crashes here
            raise ToolError(f"'{entry['payment_id']}'")
        if method["source"] == "gift_card":
            method["amount"] -= entry["amount"]
        elif method["source"] == "certificate":
            del user.payment_methods[entry["payment_id"]]


def _store_reservation(db: Store, record: dict[str, Any]) -> Reservation:
    """Insert the new reservation, or overwrite it when the id is already taken (the 4th booking)."""
    row = db.get(Reservation, record["reservation_id"])
    if row is None:
        row = Reservation(**record)
    else:
        for name, value in record.items():
            setattr(row, name, value)
        row.status = None
    db.save(row)
    return row


@writes
async def book_reservation(
    db: Store,
    user_id: UserId,
    origin: Annotated[str, Field(description="IATA code where the trip starts, e.g. 'SEA'.")],
    destination: Annotated[str, Field(description="IATA code of the trip's destination, e.g. 'MIA'.")],
    flight_type: Annotated[Literal["one_way", "round_trip"], Field(description="One way or round trip.")],
    cabin: Annotated[Cabin, Field(description="Cabin class for every flight of the trip.")],
    flights: Annotated[list[FlightSegment], Field(description="Every flight of the trip, in travel order.")],
    passengers: Annotated[list[Passenger], Field(description="Everyone travelling, the booker included.")],
    payment_methods: Annotated[
        list[PaymentEntry], Field(description="How the total is split over the user's payment methods.")
    ],
    total_baggages: Bags,
    nonfree_baggages: PaidBags,
    insurance: Annotated[Literal["yes", "no"], Field(description="Whether travel insurance is added.")],
) -> str:
    """Create a new reservation for a user. Fares come from the flights' current prices; the
    payments must add up exactly to the total: fares times passengers, plus 30 per passenger with
    insurance, plus 50 per non-free bag. Returns the new reservation."""
    user = db.require(User, user_id, "user not found")
    reservation_id = _new_reservation_id(db)
    people = [p.model_dump() for p in passengers]
    segments, total = [], 0
    for segment in flights:
        flight, day = _bookable_day(db, segment.flight_number, segment.date, cabin, len(people))
        segments.append(_priced(segment.model_dump(), flight, day["prices"][cabin]))
        total += day["prices"][cabin] * len(people)
    if insurance == "yes":
        total += rules.INSURANCE_FEE * len(people)
    total += rules.BAG_FEE * nonfree_baggages
    payments = [entry.model_dump() for entry in payment_methods]
    _check_booking_payments(user, payments, total)
    _charge_booking(user, payments)
    row = _store_reservation(db, {
        "reservation_id": reservation_id, "user_id": user_id, "origin": origin, "destination": destination,
        "flight_type": flight_type, "cabin": cabin, "flights": segments, "passengers": people,
        "payment_history": payments, "created_at": rules.CLOCK, "total_baggages": total_baggages,
        "nonfree_baggages": nonfree_baggages, "insurance": insurance,
    })  # fmt: skip
    user.reservations.append(reservation_id)
    db.save(user)
    return _dump(row)


# ---------------------------------------------------------------------------------------------
# changes to a reservation


@writes
async def cancel_reservation(db: Store, reservation_id: ReservationId) -> str:
    """Cancel the whole reservation. Every payment made is refunded to the method it came from.
    Returns the reservation."""
    reservation = db.require(Reservation, reservation_id, "reservation not found")
    refunds = [{"payment_id": entry["payment_id"], "amount": -entry["amount"]}
               for entry in reservation.payment_history]  # fmt: skip
    reservation.payment_history.extend(refunds)
    reservation.status = "cancelled"
    db.save(reservation)
    return _dump(reservation)


def _reprice(
    db: Store, reservation: Reservation, cabin: str, flights: list[FlightSegment]
) -> tuple[list[dict[str, Any]], int | float]:
    """The new segments with prices, and their total for all passengers (kept segments keep prices)."""
    count = len(reservation.passengers)
    segments, total = [], 0
    for segment in flights:
        kept = [
            old for old in reservation.flights
            if old["flight_number"] == segment.flight_number and old["date"] == segment.date
            and cabin == reservation.cabin
        ]  # fmt: skip
        if kept:
            new = {**segment.model_dump(), "price": kept[0]["price"], "origin": kept[0]["origin"],
                   "destination": kept[0]["destination"]}  # fmt: skip
        else:
            flight, day = _bookable_day(db, segment.flight_number, segment.date, cabin, count)
            new = _priced(segment.model_dump(), flight, day["prices"][cabin])
        segments.append(new)
        total += new["price"] * count
    return segments, total


@writes
async def update_reservation_flights(
    db: Store,
    reservation_id: ReservationId,
    cabin: Annotated[Cabin, Field(description="Cabin class for the new itinerary.")],
    flights: Annotated[
        list[FlightSegment],
        Field(description="The complete new itinerary: list unchanged flights too, in travel order."),
    ],
    payment_id: PaymentId,
) -> str:
    """Replace the flights of a reservation. Flights kept as they are keep their price; the fare
    difference is charged to (or refunded to) the given credit card or gift card. Returns the
    reservation."""
    reservation = db.require(Reservation, reservation_id, "reservation not found")
    segments, total = _reprice(db, reservation, cabin, flights)
    difference = total - sum(old["price"] for old in reservation.flights) * len(reservation.passengers)
    owner, methods = _methods_of(db, reservation)
    _check_update_payment(methods, payment_id, difference)
    if methods[payment_id]["source"] == "gift_card":
        methods[payment_id]["amount"] -= difference
        db.save(owner)
    reservation.flights = segments
    if difference != 0:
        reservation.payment_history.append({"payment_id": payment_id, "amount": difference})
    db.save(reservation)
    return _dump(reservation)


@writes
async def update_reservation_baggages(
    db: Store,
    reservation_id: ReservationId,
    total_baggages: Bags,
    nonfree_baggages: PaidBags,
    payment_id: PaymentId,
) -> str:
    """Set the checked-bag counts of a reservation. Each extra non-free bag costs 50, charged to the
    given credit card or gift card. Returns the reservation."""
    reservation = db.require(Reservation, reservation_id, "reservation not found")
    cost = rules.bag_cost(reservation.nonfree_baggages, nonfree_baggages)
    owner, methods = _methods_of(db, reservation)
    _check_update_payment(methods, payment_id, cost)
    reservation.total_baggages = total_baggages
    reservation.nonfree_baggages = nonfree_baggages
    if methods[payment_id]["source"] == "gift_card":
        methods[payment_id]["amount"] -= cost
        db.save(owner)
    if cost != 0:
        reservation.payment_history.append({"payment_id": payment_id, "amount": cost})
    db.save(reservation)
    return _dump(reservation)


@writes
async def update_reservation_passengers(
    db: Store,
    reservation_id: ReservationId,
    passengers: Annotated[
        list[Passenger],
        Field(description="The full new passenger list, with as many people as now."),
    ],
) -> str:
    """Replace the passenger details of a reservation (names, dates of birth). The number of
    passengers cannot change. Returns the reservation."""
    reservation = db.require(Reservation, reservation_id, "reservation not found")
    if len(passengers) != len(reservation.passengers):
        raise ToolError("number of passengers does not match")
    reservation.passengers = [p.model_dump() for p in passengers]
    db.save(reservation)
    return _dump(reservation)


@writes
async def send_certificate(
    db: Store,
    user_id: UserId,
    amount: Annotated[int | float, Field(description="Value of the certificate in dollars.")],
) -> str:
    """Give a user a travel certificate (a voucher usable for future bookings) of this amount."""
    user = db.require(User, user_id, "user not found")
    payment_id = next((cid for cid in NEW_CERTIFICATE_IDS if cid not in user.payment_methods), None)
    if payment_id is None:
        raise ToolError("no more certificates can be sent to this user")
    user.payment_methods[payment_id] = {"source": "certificate", "amount": amount, "id": payment_id}
    db.save(user)
    return f"Certificate {payment_id} added to user {user_id} with amount {amount}."


# ---------------------------------------------------------------------------------------------
# reading


async def get_reservation_details(db: Store, reservation_id: ReservationId) -> str:
    """Get the details of a reservation: flights, passengers, payments, bags, insurance, status."""
    return _dump(db.require(Reservation, reservation_id, "user not found"))


async def get_user_details(db: Store, user_id: UserId) -> str:
    """Get the details of a user: profile, membership, payment methods (with balances), saved
    passengers and reservation ids."""
    return _dump(db.require(User, user_id, "user not found"))


async def list_all_airports(db: Store) -> str:
    """All airports served, as a map from IATA code to city."""
    return json.dumps(AIRPORTS)


def _on_day(flight: Flight, day: dict[str, Any]) -> dict[str, Any]:
    return {**flight.summary(), **readable(day)}


async def search_direct_flight(db: Store, origin: Airport, destination: Airport, date: Day) -> str:
    """Find nonstop flights from one airport to another on a date. Only bookable flights are listed,
    each with its seats left and price per cabin."""
    results = [
        _on_day(flight, flight.dates[date])
        for flight in db.scan(Flight, Flight.origin == origin, Flight.destination == destination)
        if date in flight.dates and flight.dates[date]["status"] == "available"
    ]  # fmt: skip
    return json.dumps(results)


def _next_day(date: str) -> str:
    """The original's next-day rule: '2024-05-' + (last two characters + 1), without zero padding."""
    try:
        return f"2024-05-{int(date[-2:]) + 1}"
    except ValueError as exc:
        raise ToolError(str(exc)) from None


def _connections(first: Flight, flights: list[Flight], destination: str, date: str) -> list[list[dict]]:
    results = []
    for second in flights:
        if second.destination != destination or first.destination != second.origin:
            continue
        second_date = _next_day(date) if "+1" in first.scheduled_arrival_time_est else date
        if first.scheduled_arrival_time_est > second.scheduled_departure_time_est:
            continue
        if not (date in first.dates and second_date in second.dates):
            continue
        if first.dates[date]["status"] != "available" or second.dates[second_date]["status"] != "available":
            continue
        if date not in second.dates:
            raise ToolError(f"'{date}'")
        leg1 = {**_on_day(first, first.dates[date]), "date": date}
        leg2 = {**_on_day(second, second.dates[date]), "date": second_date}
        results.append([leg1, leg2])
    return results


async def search_onestop_flight(db: Store, origin: Airport, destination: Airport, date: Day) -> str:
    """Find one-stop connections from one airport to another on a date. Each result is a pair of
    flights; the second may leave the next day (see its "date")."""
    second_legs = db.scan(Flight, Flight.destination == destination)
    results = []
    for first in db.scan(Flight, Flight.origin == origin):
        results.extend(_connections(first, second_legs, destination, date))
    return json.dumps(results)


@ends_conversation
async def transfer_to_human_agents(
    db: Store,
    summary: Annotated[
        str, Field(description="Short summary of the customer's problem for the human agent.")
    ],
) -> str:
    """Hand the customer over to a human agent; the conversation ends here. Use it only when the
    customer asks for a person or the request cannot be handled with these tools and the policy."""
    return "Transfer successful"
