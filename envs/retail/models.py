"""Retail tables: orders, products and users, one row per published JSON record.

Column names are the published field names, so `to_record()` gives back the published record and
`from_record()` reads one. Nested values and numbers whose int/float type matters are JSON columns.
Fields that tools add to an order (`cancel_reason`, `exchange_*`, `return_*`) are nullable columns;
None means the field is absent from the record. JSON columns are stored with sorted keys;
`to_record()` puts the known keys of nested objects back in published order (option maps and the
id-keyed maps of variants and payment methods stay sorted by key).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import registry
from sqlmodel import Field, SQLModel

from taue.envs.runtime.database import JSONText

ORDER_FIELDS = ("order_id", "user_id", "address", "items", "fulfillments", "status", "payment_history")
"""Fields every order record has, in published order."""
ORDER_OPTIONAL_FIELDS = (
    "cancel_reason",
    "exchange_items",
    "exchange_new_items",
    "exchange_payment_method_id",
    "exchange_price_difference",
    "return_items",
    "return_payment_method_id",
)
"""Fields tools may add to an order, in the order our records list them."""
PRODUCT_FIELDS = ("name", "product_id", "variants")
USER_FIELDS = ("name", "address", "email", "payment_methods", "orders")
"""A user record's fields; the user id is the record's key, not a field."""


ITEM_KEYS = ("name", "product_id", "item_id", "price", "options")
FULFILLMENT_KEYS = ("tracking_id", "item_ids")
PAYMENT_KEYS = ("transaction_type", "amount", "payment_method_id")
VARIANT_KEYS = ("item_id", "options", "available", "price")
NAME_KEYS = ("first_name", "last_name")
METHOD_KEYS = ("source", "brand", "last_four", "balance", "id")


class RetailTable(SQLModel, registry=registry()):
    """Base of the retail tables: their own SQLAlchemy metadata, so table names such as `users` can
    also be used by other domains in the same process."""


def _pick(row: SQLModel, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(row, name) for name in names}


def _ordered(value: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """`value` with its known keys first, in published order (JSON columns come back key-sorted)."""
    known = {key: value[key] for key in keys if key in value}
    return {**known, **{key: item for key, item in value.items() if key not in known}}


def _ordered_all(values: list[dict[str, Any]], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    return [_ordered(value, keys) for value in values]


class Order(RetailTable, table=True):
    """One order (`orders` table); key `order_id` like `#W1234567`."""

    __tablename__ = "orders"

    order_id: str = Field(primary_key=True)
    user_id: str
    address: dict[str, str] = Field(sa_type=JSONText)
    items: list[dict[str, Any]] = Field(sa_type=JSONText)
    fulfillments: list[dict[str, Any]] = Field(sa_type=JSONText)
    status: str
    payment_history: list[dict[str, Any]] = Field(sa_type=JSONText)
    cancel_reason: str | None = None
    exchange_items: list[str] | None = Field(default=None, sa_type=JSONText)
    exchange_new_items: list[str] | None = Field(default=None, sa_type=JSONText)
    exchange_payment_method_id: str | None = None
    exchange_price_difference: int | float | None = Field(default=None, sa_type=JSONText)
    return_items: list[str] | None = Field(default=None, sa_type=JSONText)
    return_payment_method_id: str | None = None

    def to_record(self) -> dict[str, Any]:
        record = _pick(self, ORDER_FIELDS)
        record["items"] = _ordered_all(self.items, ITEM_KEYS)
        record["fulfillments"] = _ordered_all(self.fulfillments, FULFILLMENT_KEYS)
        record["payment_history"] = _ordered_all(self.payment_history, PAYMENT_KEYS)
        for name in ORDER_OPTIONAL_FIELDS:
            value = getattr(self, name)
            if value is not None:
                record[name] = value
        return record

    @classmethod
    def from_record(cls, key: str, record: dict[str, Any]) -> Order:
        fields = {name: record[name] for name in ORDER_FIELDS if name != "order_id"}
        optional = {name: record[name] for name in ORDER_OPTIONAL_FIELDS if name in record}
        return cls(order_id=key, **fields, **optional)


class Product(RetailTable, table=True):
    """One product type (`products` table) with its variants keyed by item id."""

    __tablename__ = "products"

    product_id: str = Field(primary_key=True)
    name: str
    variants: dict[str, dict[str, Any]] = Field(sa_type=JSONText)

    def to_record(self) -> dict[str, Any]:
        record = _pick(self, PRODUCT_FIELDS)
        record["variants"] = {key: _ordered(value, VARIANT_KEYS) for key, value in self.variants.items()}
        return record

    @classmethod
    def from_record(cls, key: str, record: dict[str, Any]) -> Product:
        return cls(product_id=key, name=record["name"], variants=record["variants"])


class User(RetailTable, table=True):
    """One customer (`users` table); the record itself has no `user_id` field."""

    __tablename__ = "users"

    user_id: str = Field(primary_key=True)
    name: dict[str, str] = Field(sa_type=JSONText)
    address: dict[str, str] = Field(sa_type=JSONText)
    email: str
    payment_methods: dict[str, dict[str, Any]] = Field(sa_type=JSONText)
    orders: list[str] = Field(sa_type=JSONText)

    def to_record(self) -> dict[str, Any]:
        record = _pick(self, USER_FIELDS)
        record["name"] = _ordered(self.name, NAME_KEYS)
        record["payment_methods"] = {
            key: _ordered(value, METHOD_KEYS) for key, value in self.payment_methods.items()
        }
        return record

    @classmethod
    def from_record(cls, key: str, record: dict[str, Any]) -> User:
        return cls(user_id=key, **{name: record[name] for name in USER_FIELDS})
