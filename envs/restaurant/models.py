"""Restaurant tables: the group's locations, its menu, guests, table reservations and takeaway or
delivery orders.

Money is in dollars, always a multiple of 0.25, so sums stay exact in binary floating point. Nested
values (opening hours, tables, order lines, charge histories) are JSON text columns so list order
and number types survive exactly. `to_record()` gives the JSON record a tool returns.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import registry
from sqlmodel import Field

from taue.envs.runtime.database import DomainTable, JSONText

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
RESERVATION_STATUSES = ("booked", "completed", "cancelled", "no_show")
ORDER_STATUSES = ("received", "preparing", "ready", "out_for_delivery", "completed", "cancelled")
TIERS = ("member", "silver", "gold")


class RestaurantTable(DomainTable, registry=registry()):
    """Base of the restaurant tables (a record is every column, in declared order)."""


class Location(RestaurantTable, table=True):
    """A restaurant of the group: its opening hours per weekday (None when closed) and its tables."""

    __tablename__ = "locations"

    location_id: str = Field(primary_key=True)
    name: str
    address: str
    phone: str
    hours: dict[str, dict[str, str] | None] = Field(sa_type=JSONText)
    """weekday -> {"open": "HH:MM", "close": "HH:MM"}, or None on a closed day."""
    tables: list[dict[str, Any]] = Field(sa_type=JSONText)
    """[{"table_id": "T1", "seats": 2}, ...], smallest first."""
    delivery: bool

    def max_party(self) -> int:
        return max(table["seats"] for table in self.tables)


class MenuItem(RestaurantTable, table=True):
    """A dish or drink of the group's menu, with its allergens and the locations that serve it."""

    __tablename__ = "menu_items"

    item_id: str = Field(primary_key=True)
    name: str
    category: str
    price: float
    allergens: list[str] = Field(default_factory=list, sa_type=JSONText)
    vegetarian: bool
    locations: list[str] = Field(default_factory=list, sa_type=JSONText)


class Guest(RestaurantTable, table=True):
    """A guest profile: contact details, loyalty tier and points, cards on file, bookings, orders."""

    __tablename__ = "guests"

    guest_id: str = Field(primary_key=True)
    first_name: str
    last_name: str
    phone: str
    email: str
    tier: str
    points: int
    member_since: str
    payment_methods: list[dict[str, str]] = Field(default_factory=list, sa_type=JSONText)
    """[{"payment_method_id": "card_4821", "brand": "visa", "last_four": "4821"}, ...]"""
    dietary_notes: str = ""
    reservations: list[str] = Field(default_factory=list, sa_type=JSONText)
    orders: list[str] = Field(default_factory=list, sa_type=JSONText)

    def card(self, payment_method_id: str) -> dict[str, str] | None:
        return next((m for m in self.payment_methods if m["payment_method_id"] == payment_method_id), None)


class Reservation(RestaurantTable, table=True):
    """A table booking. `charges` records deposits, refunds and fees on the guarantee card."""

    __tablename__ = "reservations"

    reservation_id: str = Field(primary_key=True)
    guest_id: str
    location_id: str
    date: str
    time: str
    party_size: int
    table_id: str
    status: str
    payment_method_id: str
    deposit: float = 0.0
    charges: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONText)
    occasion: str = ""
    created_at: str
    cancelled_at: str | None = None


class Order(RestaurantTable, table=True):
    """A takeaway or delivery order, paid when placed; `refunds` go back to the same card."""

    __tablename__ = "orders"

    order_id: str = Field(primary_key=True)
    guest_id: str
    location_id: str
    channel: str
    """"takeaway" or "delivery"."""
    items: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONText)
    """[{"item_id", "name", "quantity", "unit_price"}], in the order the guest added them."""
    subtotal: float
    delivery_fee: float
    discount: float = 0.0
    total: float
    status: str
    placed_at: str
    ready_at: str
    """When the food is due: pickup time (takeaway) or delivery time."""
    payment_method_id: str
    points_redeemed: int = 0
    delivery_address: str | None = None
    refunds: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONText)


TABLES: list[type[RestaurantTable]] = [Guest, Location, MenuItem, Order, Reservation]
