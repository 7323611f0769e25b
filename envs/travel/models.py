"""Travel agency tables: travellers, their itineraries and bookings, the bookable inventory (hotels,
car-rental offers, holiday packages) and the travel insurance sold on bookings (policies, claims).

Money is in US dollars, stored as floats rounded to cents. Dates are 'YYYY-MM-DD'; moments are
'YYYY-MM-DDTHH:MM:SS'. Nested values live in JSON text columns. `to_record()` gives the record a
read tool returns.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import registry
from sqlmodel import Field

from taue.envs.runtime.database import DomainTable, JSONText


class TravelTable(DomainTable, registry=registry()):
    """Base of the travel tables (a record is every column, in declared order)."""


class Customer(TravelTable, table=True):
    """A traveller's account: contact details, loyalty tier and stored payment methods
    (id -> `{type: credit_card, brand, last_four}` or `{type: travel_credit, balance}`)."""

    __tablename__ = "customers"

    customer_id: str = Field(primary_key=True)
    first_name: str
    last_name: str
    email: str = Field(index=True)
    phone: str
    date_of_birth: str
    loyalty_tier: str
    member_since: str
    payment_methods: dict[str, dict[str, Any]] = Field(default_factory=dict, sa_type=JSONText)


class Hotel(TravelTable, table=True):
    """A hotel and its room types (`rooms`: room type -> `{flexible, non_refundable, rooms_left}`,
    the two nightly rates and how many rooms of that type can still be booked)."""

    __tablename__ = "hotels"

    hotel_id: str = Field(primary_key=True)
    name: str
    city: str = Field(index=True)
    country: str
    stars: int
    address: str
    rooms: dict[str, dict[str, Any]] = Field(default_factory=dict, sa_type=JSONText)


class CarOffer(TravelTable, table=True):
    """A rental company's car class at one city's pick-up desk, with its daily rate."""

    __tablename__ = "car_offers"

    car_id: str = Field(primary_key=True)
    city: str = Field(index=True)
    company: str
    car_class: str
    example_model: str
    seats: int
    transmission: str
    daily_rate: float
    min_driver_age: int
    cars_left: int


class HolidayPackage(TravelTable, table=True):
    """A holiday package (flights, hotel and extras) with fixed departure dates
    (`departures`: date -> seats left)."""

    __tablename__ = "holiday_packages"

    package_id: str = Field(primary_key=True)
    name: str
    destination: str = Field(index=True)
    country: str
    nights: int
    price_per_person: float
    max_travellers: int
    includes: list[str] = Field(default_factory=list, sa_type=JSONText)
    departures: dict[str, int] = Field(default_factory=dict, sa_type=JSONText)


class Itinerary(TravelTable, table=True):
    """A trip that groups some of one customer's bookings (`booking_ids`, in booking order)."""

    __tablename__ = "itineraries"

    itinerary_id: str = Field(primary_key=True)
    customer_id: str = Field(index=True)
    title: str
    status: str
    """'open' (bookings may be added) or 'closed' (the trip is over)."""
    created_at: str
    booking_ids: list[str] = Field(default_factory=list, sa_type=JSONText)


class Booking(TravelTable, table=True):
    """One booking of a hotel stay, a car rental or a holiday package.

    `details` holds what the kind needs: a hotel's room type and nightly rate, a car's class and
    daily rate, a package's travellers and price per person. `rate` is 'flexible' or
    'non_refundable' for hotels and cars and 'standard' for packages. `status` is 'confirmed',
    'cancelled' or 'completed'.
    """

    __tablename__ = "bookings"

    booking_id: str = Field(primary_key=True)
    customer_id: str = Field(index=True)
    itinerary_id: str
    kind: str
    item_id: str
    item_name: str
    city: str
    start_date: str
    end_date: str
    details: dict[str, Any] = Field(default_factory=dict, sa_type=JSONText)
    rate: str
    total_price: float
    payment_method_id: str
    status: str
    booked_at: str
    policy_id: str | None = None
    cancelled_at: str | None = None
    cancellation_fee: float | None = None
    refund_amount: float | None = None


class InsurancePolicy(TravelTable, table=True):
    """Travel insurance on one booking: its plan ('basic' or 'comprehensive'), premium and status."""

    __tablename__ = "insurance_policies"

    policy_id: str = Field(primary_key=True)
    booking_id: str
    customer_id: str = Field(index=True)
    plan: str
    premium: float
    trip_cost_covered: float
    purchased_at: str
    status: str


class Claim(TravelTable, table=True):
    """A claim on an insurance policy. `status`: 'submitted', 'under_review', 'approved', 'paid'
    or 'denied'; `approved_amount` once decided."""

    __tablename__ = "claims"

    claim_id: str = Field(primary_key=True)
    policy_id: str = Field(index=True)
    category: str
    incident_date: str
    amount_claimed: float
    status: str
    filed_at: str
    approved_amount: float | None = None
    decision_note: str | None = None


TABLES: tuple[type[TravelTable], ...] = (
    Booking,
    CarOffer,
    Claim,
    Customer,
    HolidayPackage,
    Hotel,
    InsurancePolicy,
    Itinerary,
)
