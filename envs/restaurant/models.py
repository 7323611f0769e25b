"""Restaurant tables: the group's locations, its menu, guests, table reservations and takeaway or
delivery orders.

Money is in dollars, always a multiple of 0.25, so sums stay exact in binary floating point. Nested
values (opening hours, tables, order lines, charge histories) are JSON text columns so list order
and number types survive exactly. `to_record()` gives the JSON record a tool returns.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Field

from taue.envs.runtime.database import JSONText, table_base

RestaurantTable = table_base("restaurant")


class Published:
    """`from_record(key, record)`: the row a tool's JSON record (`to_record()`) describes, for the task-set
    importer and the database export (envs/task_sets/)."""

    @classmethod
    def from_record(cls, key: str, record: dict[str, Any]) -> Any:
        key_name = next(iter(cls.__table__.primary_key.columns)).name  # type: ignore[attr-defined]
        fields = {name: record[name] for name in cls.model_fields if name in record}  # type: ignore[attr-defined]
        return cls(**{**fields, key_name: key})


WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
RESERVATION_STATUSES = ("booked", "completed", "cancelled", "no_show")
ORDER_STATUSES = ("received", "preparing", "ready", "out_for_delivery", "completed", "cancelled")
TIERS = ("member", "silver", "gold")


class Location(Published, RestaurantTable, table=True):
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

    def to_record(self) -> dict[str, Any]:
        return {
            "location_id": self.location_id,
            "name": self.name,
            "address": self.address,
            "phone": self.phone,
            "hours": self.hours,
            "tables": self.tables,
            "delivery": self.delivery,
        }


class MenuItem(Published, RestaurantTable, table=True):
    """A dish or drink of the group's menu, with its allergens and the locations that serve it."""

    __tablename__ = "menu_items"

    item_id: str = Field(primary_key=True)
    name: str
    category: str
    price: float
    allergens: list[str] = Field(default_factory=list, sa_type=JSONText)
    vegetarian: bool
    locations: list[str] = Field(default_factory=list, sa_type=JSONText)

    def to_record(self) -> dict[str, Any]:
        return {
            "item_id": self.item_id,
            "name": self.name,
            "category": self.category,
            "price": self.price,
            "allergens": self.allergens,
            "vegetarian": self.vegetarian,
            "locations": self.locations,
        }


class Guest(Published, RestaurantTable, table=True):
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

    def to_record(self) -> dict[str, Any]:
        return {
            "guest_id": self.guest_id,
            "first_name": self.first_name,
            "last_name": self.last_name,
            "phone": self.phone,
            "email": self.email,
            "tier": self.tier,
            "points": self.points,
            "member_since": self.member_since,
            "payment_methods": self.payment_methods,
            "dietary_notes": self.dietary_notes,
            "reservations": list(self.reservations),
            "orders": list(self.orders),
        }


class Reservation(Published, RestaurantTable, table=True):
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

    def to_record(self) -> dict[str, Any]:
        return {
            "reservation_id": self.reservation_id,
            "guest_id": self.guest_id,
            "location_id": self.location_id,
            "date": self.date,
            "time": self.time,
            "party_size": self.party_size,
            "table_id": self.table_id,
            "status": self.status,
            "payment_method_id": self.payment_method_id,
            "deposit": self.deposit,
            "charges": self.charges,
            "occasion": self.occasion,
            "created_at": self.created_at,
            "cancelled_at": self.cancelled_at,
        }


class Order(Published, RestaurantTable, table=True):
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

    def to_record(self) -> dict[str, Any]:
        return {
            "order_id": self.order_id,
            "guest_id": self.guest_id,
            "location_id": self.location_id,
            "channel": self.channel,
            "items": self.items,
            "subtotal": self.subtotal,
            "delivery_fee": self.delivery_fee,
            "discount": self.discount,
            "total": self.total,
            "status": self.status,
            "placed_at": self.placed_at,
            "ready_at": self.ready_at,
            "payment_method_id": self.payment_method_id,
            "points_redeemed": self.points_redeemed,
            "delivery_address": self.delivery_address,
            "refunds": self.refunds,
        }


TABLES = [Guest, Location, MenuItem, Order, Reservation]
