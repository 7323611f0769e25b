"""Travel read tools: finding the customer, their itineraries, bookings and insurance, and searching
hotels, car rentals and holiday packages. Every answer is JSON text."""

from __future__ import annotations

import json
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlmodel import func

from taue.envs.runtime.database import DomainTable, Store
from taue.envs.runtime.money import cents
from taue.envs.travel.models import (
    Booking,
    CarOffer,
    Claim,
    Customer,
    HolidayPackage,
    Hotel,
    InsurancePolicy,
    Itinerary,
)
from taue.envs.travel.rules import LONGEST, ROUNDING, day, days_between, non_refundable

CustomerId = Annotated[str, Field(description="The customer's id, e.g. 'lena_sato_4821'.")]
ItineraryId = Annotated[str, Field(description="An itinerary id, e.g. 'ITN40213'.")]
BookingId = Annotated[str, Field(description="A booking id, e.g. 'BK502117'.")]
PolicyId = Annotated[str, Field(description="An insurance policy id, e.g. 'POL318204'.")]
City = Annotated[str, Field(description="Destination city, e.g. 'Lisbon'.")]


def dump(value: Any) -> str:
    return json.dumps(value)


def record(row: DomainTable) -> dict[str, Any]:
    return row.to_record()


def valid_date(text: str, what: str) -> str:
    try:
        day(text)
    except ValueError:
        raise ToolError(f"{what} '{text}' is not a date of the form YYYY-MM-DD") from None
    if len(text) != 10:
        raise ToolError(f"{what} '{text}' is not a date of the form YYYY-MM-DD")
    return text


def span(kind: str, start: str, end: str, first: str, second: str) -> int:
    """Nights or days between two valid dates, for a search."""
    valid_date(start, first)
    valid_date(end, second)
    length = days_between(start, end)
    if not 1 <= length <= LONGEST[kind]:
        raise ToolError(f"{second} must be 1 to {LONGEST[kind]} days after {first}")
    return length


# ------------------------------------------------------------------------------------------ customers


async def find_customer_id(
    db: Store,
    email: Annotated[str, Field(description="The email address on the account.")],
    last_name: Annotated[str, Field(description="The account holder's last name.")],
) -> str:
    """Find a customer's id from the email address and last name on their account (both must match;
    case does not matter). Returns {"customer_id": ...}."""
    found = db.scan(Customer, func.lower(Customer.email) == email.strip().lower())
    matches = [c for c in found if c.last_name.lower() == last_name.strip().lower()]
    if not matches:
        raise ToolError("no customer with that email and last name")
    return dump({"customer_id": matches[0].customer_id})


async def get_customer_details(db: Store, customer_id: CustomerId) -> str:
    """Get a customer's profile: contact details, date of birth, loyalty tier, payment methods (credit
    cards, travel credit with its balance), their itineraries with the booking ids of each, and the
    ids of their insurance policies."""
    customer = db.require(Customer, customer_id, f"customer {customer_id} not found")
    itineraries = db.scan(Itinerary, Itinerary.customer_id == customer_id)
    policies = db.scan(InsurancePolicy, InsurancePolicy.customer_id == customer_id)
    return dump(
        {
            **record(customer),
            "itineraries": [
                {
                    "itinerary_id": i.itinerary_id,
                    "title": i.title,
                    "status": i.status,
                    "booking_ids": list(i.booking_ids),
                }
                for i in itineraries
            ],
            "insurance_policy_ids": [p.policy_id for p in policies],
        }
    )


async def get_itinerary_details(db: Store, itinerary_id: ItineraryId) -> str:
    """Get an itinerary (a trip grouping some of a customer's bookings) with a summary of each of its
    bookings: kind, what was booked, city, dates, rate, price and status."""
    itinerary = db.require(Itinerary, itinerary_id, f"itinerary {itinerary_id} not found")
    bookings = []
    for booking_id in itinerary.booking_ids:
        b = db.require(Booking, booking_id, f"booking {booking_id} not found")
        bookings.append(
            {
                "booking_id": b.booking_id,
                "kind": b.kind,
                "item_name": b.item_name,
                "city": b.city,
                "start_date": b.start_date,
                "end_date": b.end_date,
                "rate": b.rate,
                "total_price": b.total_price,
                "status": b.status,
            }
        )
    return dump({**record(itinerary), "bookings": bookings})


async def get_booking_details(db: Store, booking_id: BookingId) -> str:
    """Get everything about one booking: what was booked and its details (room type and nightly rate,
    car class and daily rate, package travellers), dates, rate type, price, payment method, status,
    when it was booked, its insurance policy id, and any cancellation fee and refund."""
    return dump(record(db.require(Booking, booking_id, f"booking {booking_id} not found")))


async def get_insurance_policy(db: Store, policy_id: PolicyId) -> str:
    """Get a travel insurance policy (plan, premium, the booking it covers, status) with every claim
    filed on it and each claim's status, approved amount and decision note."""
    policy = db.require(InsurancePolicy, policy_id, f"insurance policy {policy_id} not found")
    claims = [record(c) for c in db.scan(Claim, Claim.policy_id == policy_id)]
    return dump({**record(policy), "claims": claims})


# ----------------------------------------------------------------------------------------- searching


async def search_hotels(
    db: Store,
    city: City,
    check_in: Annotated[str, Field(description="Check-in date as 'YYYY-MM-DD'.")],
    check_out: Annotated[str, Field(description="Check-out date as 'YYYY-MM-DD'.")],
) -> str:
    """Search the hotels of a city for a stay. Lists each hotel with its stars, address and room
    types; per room type the flexible and non-refundable nightly rates, the totals for the stay and
    how many rooms are left."""
    nights = span("hotel", check_in, check_out, "check_in", "check_out")
    results = []
    for hotel in db.scan(Hotel, func.lower(Hotel.city) == city.strip().lower()):
        rooms = {
            kind: {
                **room,
                "flexible_total": cents(room["flexible"] * nights, ROUNDING),
                "non_refundable_total": cents(room["non_refundable"] * nights, ROUNDING),
            }
            for kind, room in sorted(hotel.rooms.items())
        }
        results.append({**record(hotel), "rooms": rooms, "nights": nights})
    if not results:
        raise ToolError(f"no hotels found in {city}")
    return dump(results)


async def search_car_rentals(
    db: Store,
    city: City,
    pick_up_date: Annotated[str, Field(description="Pick-up date as 'YYYY-MM-DD'.")],
    drop_off_date: Annotated[str, Field(description="Drop-off date as 'YYYY-MM-DD'.")],
) -> str:
    """Search the car-rental offers at a city's pick-up desks. Lists each offer with company, car
    class, example model, seats, transmission, the flexible daily rate and total, the non-refundable
    daily rate (15 % lower, rounded to a dollar) and total, the minimum driver age and how many cars
    are left."""
    days = span("car", pick_up_date, drop_off_date, "pick_up_date", "drop_off_date")
    offers = db.scan(CarOffer, func.lower(CarOffer.city) == city.strip().lower())
    if not offers:
        raise ToolError(f"no car rentals found in {city}")
    return dump([_offer(o, days) for o in offers])


def _offer(offer: CarOffer, days: int) -> dict[str, Any]:
    reduced = non_refundable(offer.daily_rate)
    return {
        **record(offer),
        "days": days,
        "flexible_total": cents(offer.daily_rate * days, ROUNDING),
        "non_refundable_daily_rate": reduced,
        "non_refundable_total": cents(reduced * days, ROUNDING),
    }


async def search_holiday_packages(db: Store, destination: City) -> str:
    """List the holiday packages to a destination: what each includes, nights, price per person, the
    most travellers per booking and its departure dates with the seats left on each."""
    packages = db.scan(HolidayPackage, func.lower(HolidayPackage.destination) == destination.strip().lower())
    if not packages:
        raise ToolError(f"no holiday packages found for {destination}")
    return dump([record(p) for p in packages])
