"""Retail seed data: deterministic, published shapes and sizes, records that round-trip through the models."""

from __future__ import annotations

import json
import re
from collections import Counter

from taue.envs.retail import DOMAIN
from taue.envs.retail.generate import generate
from taue.envs.retail.models import Order, Product, User
from taue.envs.runtime.database import SeedImage
from tests.envs.seed_rows import seed_rows

ROWS = seed_rows(DOMAIN)
ORDERS = [r for r in ROWS if isinstance(r, Order)]
PRODUCTS = {r.product_id: r for r in ROWS if isinstance(r, Product)}
USERS = {r.user_id: r for r in ROWS if isinstance(r, User)}


def canonical(seed: int) -> str:
    database = SeedImage(DOMAIN.tables, generate(seed)).clone()
    try:
        return database.canonical_state()
    finally:
        database.close()


def test_sizes_and_statuses_follow_the_published_tables():
    assert len(ORDERS) == 1000 and len(USERS) == 500 and len(PRODUCTS) == 50
    assert len({p.name for p in PRODUCTS.values()}) == 50
    assert 400 <= sum(len(p.variants) for p in PRODUCTS.values()) <= 700
    statuses = Counter(o.status for o in ORDERS)
    assert set(statuses) == {"pending", "processed", "delivered", "cancelled"}
    assert statuses["pending"] > statuses["delivered"] > statuses["cancelled"] > 50
    assert sum(len(u.orders) for u in USERS.values()) == 1000


def test_ids_have_the_published_formats():
    assert all(re.fullmatch(r"#W\d{7}", o.order_id) for o in ORDERS)
    assert all(re.fullmatch(r"\d{10}", pid) for pid in PRODUCTS)
    item_ids = [item_id for p in PRODUCTS.values() for item_id in p.variants]
    assert all(re.fullmatch(r"\d{10}", i) for i in item_ids)
    assert len(set(item_ids)) == len(item_ids) and not set(item_ids) & set(PRODUCTS)
    assert all(re.fullmatch(r"[a-z]+_[a-z]+_\d{4}", uid) for uid in USERS)
    for user in USERS.values():
        for key, method in user.payment_methods.items():
            assert key == method["id"]
            assert re.fullmatch(rf"{method['source']}_\d{{7}}", key)


def test_orders_are_consistent_with_users_and_products():
    for order in ORDERS:
        user = USERS[order.user_id]
        assert order.order_id in user.orders
        payment = order.payment_history[0]
        assert payment["transaction_type"] == "payment"
        assert payment["payment_method_id"] in user.payment_methods
        assert payment["amount"] == round(sum(item["price"] for item in order.items), 2)
        for item in order.items:
            variant = PRODUCTS[item["product_id"]].variants[item["item_id"]]
            assert item["price"] == variant["price"] and item["options"] == variant["options"]
            assert isinstance(item["price"], float)
        assert (order.fulfillments == []) == (order.status == "pending")
        assert len(order.payment_history) == (2 if order.status == "cancelled" else 1)


def test_gift_card_balances_start_as_integers():
    balances = [
        m["balance"] for u in USERS.values() for m in u.payment_methods.values() if m["source"] == "gift_card"
    ]
    assert balances and all(type(b) is int for b in balances)
    sources = Counter(m["source"] for u in USERS.values() for m in u.payment_methods.values())
    assert set(sources) == {"credit_card", "paypal", "gift_card"}


def test_records_round_trip_through_the_models():
    for row in ROWS:
        model = type(row)
        key = {Order: "order_id", Product: "product_id", User: "user_id"}[model]
        record = row.to_record()
        again = model.from_record(getattr(row, key), json.loads(json.dumps(record)))
        assert again.to_record() == record
    assert "user_id" not in next(iter(USERS.values())).to_record()
    order = ORDERS[0].to_record()
    assert "cancel_reason" not in order and "exchange_items" not in order and "return_items" not in order


def test_optional_order_fields_appear_once_set():
    record = ORDERS[0].to_record()
    record.update(return_items=["1"], return_payment_method_id="paypal_1", exchange_price_difference=0)
    order = Order.from_record(record["order_id"], record)
    assert order.to_record()["exchange_price_difference"] == 0
    assert list(order.to_record())[-3:] == [
        "exchange_price_difference",
        "return_items",
        "return_payment_method_id",
    ]


def test_seed_database_is_small():
    database = DOMAIN.new_database()
    assert len(database.canonical_state()) < 4 * 1024 * 1024
    database.close()
