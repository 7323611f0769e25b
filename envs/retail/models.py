"""Retail tables: orders, products and users, one row per published JSON record.

Column names are the published field names, so `to_record()` gives back the published record and
`from_record()` reads one. Nested values and numbers whose int/float type matters are JSON columns.
Fields that tools add to an order (`cancel_reason`, `exchange_*`, `return_*`) are nullable columns;
None means the field is absent from the record. JSON columns are stored with sorted keys;
`to_record()` puts the known keys of nested objects back in published order (option maps and the
id-keyed maps of variants and payment methods stay sorted by key).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from sqlalchemy.orm import registry
from sqlmodel import Field

from taue.envs.runtime.database import DomainTable, Entries, JSONText

ITEM_KEYS = ("name", "product_id", "item_id", "price", "options")
FULFILLMENT_KEYS = ("tracking_id", "item_ids")
PAYMENT_KEYS = ("transaction_type", "amount", "payment_method_id")
VARIANT_KEYS = ("item_id", "options", "available", "price")
NAME_KEYS = ("first_name", "last_name")
METHOD_KEYS = ("source", "brand", "last_four", "balance", "id")


class RetailTable(DomainTable, registry=registry()):
    """Base of the retail tables: a record is every column in declared order, optional ones only once
    set, nested objects with their known keys in published order."""


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

    record_optional = frozenset(
        {
            "cancel_reason",
            "exchange_items",
            "exchange_new_items",
            "exchange_payment_method_id",
            "exchange_price_difference",
            "return_items",
            "return_payment_method_id",
        }
    )
    """Fields tools may add to an order."""
    record_key_order = MappingProxyType(
        {"items": ITEM_KEYS, "fulfillments": FULFILLMENT_KEYS, "payment_history": PAYMENT_KEYS}
    )


class Product(RetailTable, table=True):
    """One product type (`products` table) with its variants keyed by item id."""

    __tablename__ = "products"
    record_fields = ("name", "product_id", "variants")
    record_key_order = MappingProxyType({"variants": Entries(VARIANT_KEYS)})

    product_id: str = Field(primary_key=True)
    name: str
    variants: dict[str, dict[str, Any]] = Field(sa_type=JSONText)


class User(RetailTable, table=True):
    """One customer (`users` table); the record itself has no `user_id` field."""

    __tablename__ = "users"
    record_has_key = False
    record_key_order = MappingProxyType({"name": NAME_KEYS, "payment_methods": Entries(METHOD_KEYS)})

    user_id: str = Field(primary_key=True)
    name: dict[str, str] = Field(sa_type=JSONText)
    address: dict[str, str] = Field(sa_type=JSONText)
    email: str
    payment_methods: dict[str, dict[str, Any]] = Field(sa_type=JSONText)
    orders: list[str] = Field(sa_type=JSONText)
