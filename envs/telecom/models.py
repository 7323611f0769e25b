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

from typing import Any

from sqlmodel import Field

from taue.envs.runtime.database import JSONText, table_base

TelecomTable = table_base("telecom")

CUSTOMER_FIELDS = (
    "customer_id",
    "name",
    "demographics",
    "address",
    "account",
    "services",
    "devices",
    "billing_preferences",
)
SERVICE_FIELDS = ("service_id", "name", "category", "price")
DEVICE_FIELDS = ("category", "manufacturer", "model")
BILLING_FIELDS = (
    "customer_id",
    "account_number",
    "current_balance",
    "last_payment",
    "next_bill_date",
    "monthly_charges",
    "payment_history",
    "auto_pay",
    "paperless",
)
TICKET_FIELDS = ("ticket_id", "customer_id", "status", "priority")

NAME_KEYS = ("first_name", "last_name")
DEMOGRAPHICS_KEYS = ("date_of_birth", "phone", "email")
ADDRESS_KEYS = ("address1", "address2", "city", "state", "zip", "country")
ACCOUNT_KEYS = ("account_number", "account_type", "created_date", "credit_score", "payment_method")
DEVICE_KEYS = ("device_id", "name", "service")
PREFERENCE_KEYS = ("paperless", "auto_pay", "billing_cycle")
LAST_PAYMENT_KEYS = ("amount", "date", "method", "status")
HISTORY_KEYS = ("date", "amount", "status")


def ordered(value: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """`value` with its known keys first, in published order (JSON columns come back key-sorted)."""
    known = {key: value[key] for key in keys if key in value}
    return {**known, **{key: item for key, item in value.items() if key not in known}}


def _pick(row: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(row, name) for name in names}


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

    def ordered_devices(self) -> list[dict[str, Any]]:
        return [ordered(device, DEVICE_KEYS) for device in self.devices]

    def to_record(self) -> dict[str, Any]:
        record = _pick(self, CUSTOMER_FIELDS)
        record["name"] = ordered(self.name, NAME_KEYS)
        record["demographics"] = ordered(self.demographics, DEMOGRAPHICS_KEYS)
        record["address"] = ordered(self.address, ADDRESS_KEYS)
        record["account"] = ordered(self.account, ACCOUNT_KEYS)
        record["devices"] = self.ordered_devices()
        record["billing_preferences"] = ordered(self.billing_preferences, PREFERENCE_KEYS)
        return record

    @classmethod
    def from_record(cls, key: str, record: dict[str, Any]) -> Customer:
        return cls(
            **{name: record[name] for name in CUSTOMER_FIELDS if name != "customer_id"}, customer_id=key
        )


class Service(TelecomTable, table=True):
    """A plan of the service catalogue (`services` table), key `service_id` like `mobile_unlimited`."""

    __tablename__ = "services"

    service_id: str = Field(primary_key=True)
    name: str
    category: str
    price: int | float = Field(sa_type=JSONText)

    def to_record(self) -> dict[str, Any]:
        return _pick(self, SERVICE_FIELDS)

    @classmethod
    def from_record(cls, key: str, record: dict[str, Any]) -> Service:
        return cls(service_id=key, name=record["name"], category=record["category"], price=record["price"])


class Device(TelecomTable, table=True):
    """A device model of the catalogue (`devices` table), keyed by the name customers see.

    The published record has no name field; the key lives in `device_name` only.
    """

    __tablename__ = "devices"

    device_name: str = Field(primary_key=True)
    category: str
    manufacturer: str
    model: str

    def to_record(self) -> dict[str, Any]:
        return _pick(self, DEVICE_FIELDS)

    @classmethod
    def from_record(cls, key: str, record: dict[str, Any]) -> Device:
        return cls(device_name=key, **{name: record[name] for name in DEVICE_FIELDS})


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

    def to_record(self) -> dict[str, Any]:
        record = _pick(self, BILLING_FIELDS)
        record["last_payment"] = ordered(self.last_payment, LAST_PAYMENT_KEYS)
        record["payment_history"] = [ordered(entry, HISTORY_KEYS) for entry in self.payment_history]
        if self.billing_cycle is not None:
            record["billing_cycle"] = self.billing_cycle
        return record

    @classmethod
    def from_record(cls, key: str, record: dict[str, Any]) -> Billing:
        fields = {name: record[name] for name in BILLING_FIELDS if name != "customer_id"}
        return cls(**fields, customer_id=key, billing_cycle=record.get("billing_cycle"))


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

    def to_record(self) -> dict[str, Any]:
        record = _pick(self, TICKET_FIELDS)
        if self.category is not None:
            record["category"] = self.category
        return record

    @classmethod
    def from_record(cls, key: str, record: dict[str, Any]) -> SupportTicket:
        fields = {name: record[name] for name in TICKET_FIELDS if name != "ticket_id"}
        return cls(**fields, ticket_id=key, category=record.get("category"))


TABLES = (Billing, Customer, Device, Service, SupportTicket)
"""Every telecom table; `MODEL_OF[<published table name>]` gives the model of a published file."""
MODEL_OF: dict[str, type[Billing | Customer | Device | Service | SupportTicket]] = {
    model.__tablename__: model for model in TABLES
}
