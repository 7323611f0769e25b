"""Telecom seed data: deterministic, published shapes and id formats, records that round-trip exactly,
published tables included."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from sqlmodel import Session, select

from taue.envs.runtime.database import SeedImage, canonical_json
from taue.envs.telecom import DOMAIN
from taue.envs.telecom.generate import DEVICES, SERVICES, TODAY, generate
from taue.envs.telecom.models import MODEL_OF, TABLES, Billing, Customer, Device, Service, SupportTicket
from tests.envs.seed_rows import seed_rows
from tests.paths import PUBLISHED_DATA

ROWS = seed_rows(DOMAIN)
CUSTOMERS = {r.customer_id: r for r in ROWS if isinstance(r, Customer)}
BILLING = {r.customer_id: r for r in ROWS if isinstance(r, Billing)}
TICKETS = [r for r in ROWS if isinstance(r, SupportTicket)]
PUBLISHED = PUBLISHED_DATA / "telecom" / "db"


def canonical(seed: int) -> str:
    database = SeedImage(DOMAIN.tables, generate(seed)).clone()
    try:
        return database.canonical_state()
    finally:
        database.close()


def test_sizes_follow_the_published_tables():
    assert len(CUSTOMERS) == 500 and set(BILLING) == set(CUSTOMERS)
    assert len(TICKETS) == 240
    assert len([r for r in ROWS if isinstance(r, Device)]) == len(DEVICES) == 19
    assert len([r for r in ROWS if isinstance(r, Service)]) == len(SERVICES) == 16
    assert Counter(len(c.services) for c in CUSTOMERS.values()).keys() <= {2, 3, 4}
    assert {category for category, _, _ in DEVICES.values()} == {
        "mobile_phone",
        "networking",
        "tv",
        "phone",
        "security",
    }
    assert Counter(c.account["account_type"] for c in CUSTOMERS.values())["business"] > 40
    assert 20 < sum(b.current_balance > 0 for b in BILLING.values()) < 100


def test_ids_and_values_have_the_published_formats():
    emails = [c.demographics["email"].lower() for c in CUSTOMERS.values()]
    phones = [c.demographics["phone"] for c in CUSTOMERS.values()]
    assert len(set(emails)) == len(set(phones)) == 500
    for customer_id, customer in CUSTOMERS.items():
        assert re.fullmatch(r"[a-z]+_[a-z]+_\d{4}", customer_id)
        assert re.fullmatch(r"\(555\) \d{3}-\d{4}", customer.demographics["phone"])
        assert re.fullmatch(r"ACC\d{9}", customer.account["account_number"])
        assert type(customer.account["credit_score"]) is int
        assert customer.billing_preferences["billing_cycle"] == "monthly"
        assert len(set(customer.services)) == len(customer.services)
    assert [t.ticket_id for t in TICKETS] == [f"TICKET{n:05d}" for n in range(1, 241)]
    assert {t.status for t in TICKETS} == {"open", "closed"} and all(t.category is None for t in TICKETS)
    assert all(t.customer_id in CUSTOMERS for t in TICKETS)
    assert all(type(s.price) is float for s in ROWS if isinstance(s, Service))


def test_devices_sit_on_the_customers_own_services():
    for customer in CUSTOMERS.values():
        assert [d["device_id"] for d in customer.devices] == [
            str(n) for n in range(1, len(customer.devices) + 1)
        ]
        for device in customer.devices:
            assert device["name"] in DEVICES and device["service"] in customer.services
    names = [d["name"] for c in CUSTOMERS.values() for d in c.devices]
    assert '50" QLED TV' in names  # a catalogue name with a double quote, as published


def test_bills_match_the_services_and_the_clock():
    today = TODAY.isoformat()
    for customer_id, bill in BILLING.items():
        customer = CUSTOMERS[customer_id]
        assert bill.account_number == customer.account["account_number"]
        assert (bill.auto_pay, bill.paperless) == (
            customer.billing_preferences["auto_pay"],
            customer.billing_preferences["paperless"],
        )
        for service_id in customer.services:
            assert bill.monthly_charges[service_id] == SERVICES[service_id][2]
        assert "taxes_fees" in bill.monthly_charges
        assert all(type(v) is float for v in bill.monthly_charges.values())
        assert type(bill.current_balance) is float and bill.billing_cycle is None
        total = round(sum(bill.monthly_charges.values()), 2)
        assert {entry["amount"] for entry in bill.payment_history} == {total}
        assert bill.last_payment["date"] == bill.payment_history[0]["date"] < today <= bill.next_bill_date
        assert bill.last_payment["method"] == customer.account["payment_method"]
        assert (bill.current_balance > 0) == ("late_fee" in bill.monthly_charges)


def test_records_round_trip_through_the_models():
    for row in ROWS:
        model = type(row)
        key = getattr(row, model.__table__.primary_key.columns.keys()[0])
        record = row.to_record()
        again = model.from_record(key, json.loads(json.dumps(record)))
        assert canonical_json(again.to_record()) == canonical_json(record)
    assert "device_name" not in next(r for r in ROWS if isinstance(r, Device)).to_record()
    bill = next(iter(BILLING.values())).to_record()
    assert "billing_cycle" not in bill
    assert list(bill) == [
        "customer_id",
        "account_number",
        "current_balance",
        "last_payment",
        "next_bill_date",
        "monthly_charges",
        "payment_history",
        "auto_pay",
        "paperless",
    ]


def test_seed_database_is_small_and_resets_fast():
    database = DOMAIN.new_database()
    assert len(database.canonical_state()) < 3 * 1024 * 1024
    assert len(DOMAIN.seed_image.image_bytes) < 3 * 1024 * 1024
    database.close()


@pytest.mark.skipif(not PUBLISHED.is_dir(), reason=f"published telecom tables not present at {PUBLISHED}")
def test_published_tables_round_trip_exactly():
    """Every published table file: from_record -> database -> to_record gives back the parsed JSON.

    Compared as canonical JSON, so int/float/bool types count, not only values."""
    published = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in PUBLISHED.glob("*.json")}
    assert set(published) == set(MODEL_OF)
    rows = [
        MODEL_OF[name].from_record(key, record)
        for name, table in published.items()
        for key, record in table.items()
    ]
    for name, table in published.items():
        model = MODEL_OF[name]
        assert {k: model.from_record(k, r).to_record() for k, r in table.items()} == table
    image = SeedImage(TABLES, rows)
    database = image.clone()
    with Session(database.engine) as session:
        for name, table in published.items():
            model = MODEL_OF[name]
            key = model.__table__.primary_key.columns.keys()[0]
            loaded = {getattr(row, key): row.to_record() for row in session.exec(select(model))}
            assert canonical_json(loaded) == canonical_json(table), name
    database.close()
