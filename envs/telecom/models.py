"""Telecom tables: customers, services, devices, billing and support tickets, one row per published record.

Every published table is a JSON object keyed by id; each becomes a table whose primary key is that
key. Four tables repeat the key inside the record (`customer_id`, `service_id`, `ticket_id`), so the
key column is also that field. The device catalogue's records do not hold their key (the model
name shown to customers), so its key column is `device_name` and `to_record()` leaves it out.

Nested values and numbers whose int/float type matters (prices, balances) are JSON text columns.
Fields that tools add (`billing_cycle` on a billing record, `category` on a ticket) are nullable
columns; None means the field is absent. JSON columns come back with sorted keys; `to_record()`
puts the known keys of nested objects back in published order.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from sqlalchemy.orm import registry
from sqlmodel import Field

from taue.envs.runtime.database import DomainTable, JSONText

NAME_KEYS = ("first_name", "last_name")
DEMOGRAPHICS_KEYS = ("date_of_birth", "phone", "email")
ADDRESS_KEYS = ("address1", "address2", "city", "state", "zip", "country")
ACCOUNT_KEYS = ("account_number", "account_type", "created_date", "credit_score", "payment_method")
DEVICE_KEYS = ("device_id", "name", "service")
PREFERENCE_KEYS = ("paperless", "auto_pay", "billing_cycle")
LAST_PAYMENT_KEYS = ("amount", "date", "method", "status")
HISTORY_KEYS = ("date", "amount", "status")


class TelecomTable(DomainTable, registry=registry()):
    """Base of the telecom tables: a record is every column in declared order, optional ones only
    once set, nested objects with their known keys in published order."""


class Customer(TelecomTable, table=True):
    """A customer (`customers` table), key `customer_id` like `maya_okafor_1234`.

    `devices` is the customer's own equipment: `{device_id: "1".."n", name: <catalogue name>,
    service: <one of the customer's service ids, or null>}`.
    """

    __tablename__ = "customers"

    customer_id: str = Field(primary_key=True)
    name: dict[str, str] = Field(sa_type=JSONText)
    demographics: dict[str, str] = Field(sa_type=JSONText)
    address: dict[str, str] = Field(sa_type=JSONText)
    account: dict[str, Any] = Field(sa_type=JSONText)
    services: list[str] = Field(sa_type=JSONText)
    devices: list[dict[str, Any]] = Field(sa_type=JSONText)
    billing_preferences: dict[str, Any] = Field(sa_type=JSONText)

    record_key_order = MappingProxyType(
        {
            "name": NAME_KEYS,
            "demographics": DEMOGRAPHICS_KEYS,
            "address": ADDRESS_KEYS,
            "account": ACCOUNT_KEYS,
            "devices": DEVICE_KEYS,
            "billing_preferences": PREFERENCE_KEYS,
        }
    )

    def ordered_devices(self) -> list[dict[str, Any]]:
        return self.record_value("devices", self.devices)


class Service(TelecomTable, table=True):
    """A plan of the service catalogue (`services` table), key `service_id` like `mobile_unlimited`."""

    __tablename__ = "services"

    service_id: str = Field(primary_key=True)
    name: str
    category: str
    price: int | float = Field(sa_type=JSONText)


class Device(TelecomTable, table=True):
    """A device model of the catalogue (`devices` table), keyed by the name customers see.

    The published record has no name field; the key lives in `device_name` only.
    """

    __tablename__ = "devices"
    record_has_key = False

    device_name: str = Field(primary_key=True)
    category: str
    manufacturer: str
    model: str


class Billing(TelecomTable, table=True):
    """A customer's billing account (`billing` table), keyed by customer id.

    `monthly_charges` maps the customer's service ids (at the service price) and fee keys such as
    `taxes_fees` or `senior_discount` to amounts. `billing_cycle` is absent (None) until
    `manage_billing` writes it.
    """

    __tablename__ = "billing"

    customer_id: str = Field(primary_key=True)
    account_number: str
    current_balance: int | float = Field(sa_type=JSONText)
    last_payment: dict[str, Any] = Field(sa_type=JSONText)
    next_bill_date: str
    monthly_charges: dict[str, Any] = Field(sa_type=JSONText)
    payment_history: list[dict[str, Any]] = Field(sa_type=JSONText)
    auto_pay: bool
    paperless: bool
    billing_cycle: str | None = None

    record_optional = frozenset({"billing_cycle"})
    record_key_order = MappingProxyType({"last_payment": LAST_PAYMENT_KEYS, "payment_history": HISTORY_KEYS})


class SupportTicket(TelecomTable, table=True):
    """A support ticket (`support_tickets` table), key `ticket_id` like `TICKET00042`.

    Seed tickets have no `category`; tickets created by `create_support_ticket` do.
    """

    __tablename__ = "support_tickets"

    ticket_id: str = Field(primary_key=True)
    customer_id: str
    status: str
    priority: str
    category: str | None = None

    record_optional = frozenset({"category"})


TABLES = (Billing, Customer, Device, Service, SupportTicket)
"""Every telecom table; `MODEL_OF[<published table name>]` gives the model of a published file."""
MODEL_OF: dict[str, type[Billing | Customer | Device | Service | SupportTicket]] = {
    model.__tablename__: model for model in TABLES
}
