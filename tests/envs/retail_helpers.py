"""Seed records and helpers the retail tool tests share."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from taue.envs.retail import DOMAIN
from taue.envs.retail.models import Order, Product, User
from tests.envs.seed_rows import seed_rows
from tests.envs.tool_harness import ToolHarness

Record = dict[str, Any]
ROWS = seed_rows(DOMAIN)
USERS: dict[str, Record] = {r.user_id: r.to_record() for r in ROWS if isinstance(r, User)}
ORDERS: dict[str, Record] = {r.order_id: r.to_record() for r in ROWS if isinstance(r, Order)}
PRODUCTS: dict[str, Record] = {r.product_id: r.to_record() for r in ROWS if isinstance(r, Product)}


TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails


def state(db) -> dict[str, dict[str, Record]]:
    raw = json.loads(db.canonical_state())
    keys = {"orders": "order_id", "products": "product_id", "users": "user_id"}
    return {table: {row[keys[table]]: row for row in rows} for table, rows in raw.items()}


def order_where(predicate: Callable[[Record], bool]) -> Record:
    return next(o for _, o in sorted(ORDERS.items()) if predicate(o))


def first_method(order: Record) -> str:
    return order["payment_history"][0]["payment_method_id"]


def methods_of(order: Record, source: str) -> list[Record]:
    owner = USERS[order["user_id"]]
    return [m for m in owner["payment_methods"].values() if m["source"] == source]


def swap_for(item: Record) -> Record | None:
    """An available variant of the item's product other than the item itself."""
    variants = PRODUCTS[item["product_id"]]["variants"]
    return next((v for k, v in sorted(variants.items()) if v["available"] and k != item["item_id"]), None)


def unavailable_for(item: Record) -> Record | None:
    variants = PRODUCTS[item["product_id"]]["variants"]
    return next((v for _, v in sorted(variants.items()) if not v["available"]), None)


def swappable(order: Record) -> bool:
    return swap_for(order["items"][0]) is not None


def credit_needs_rounding(order: Record) -> bool:
    """Crediting the order's payment back to its gift card gives a different float without round(x, 2)."""
    card_id, amount = first_method(order), order["payment_history"][0]["amount"]
    balance = USERS[order["user_id"]]["payment_methods"][card_id]["balance"]
    return round(balance + amount, 2) != balance + amount


def is_status(status: str) -> Callable[[Record], bool]:
    return lambda order: order["status"] == status
