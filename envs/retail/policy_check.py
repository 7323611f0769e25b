"""Retail policy as code: the hard rules of policy.md that the Tracer checks writes against
(docs/tracer.md). A gold write must break none; a policy challenge's asked-for write must break at
least one, and the broken rules' `reasons` are the phrases a refusal is accepted with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.retail import rules
from taue.envs.runtime.authoring import Rule

Record = dict[str, Any]

CANCEL_PENDING_ONLY = Rule(
    "cancel-pending-only",
    "Only pending orders can be cancelled.",
    (
        "only pending orders",
        "not pending",
        "already shipped",
        "already been shipped",
        "already been delivered",
    ),
)
CANCEL_REASON = Rule(
    "cancel-reason", "The reason for a cancellation must be 'no longer needed' or 'ordered by mistake'.", ()
)
MODIFY_PENDING_ONLY = Rule(
    "modify-pending-only",
    "Only pending orders can have their address, payment or items changed.",
    (
        "only pending orders",
        "not pending",
        "already shipped",
        "already been shipped",
        "already been delivered",
    ),
)
DELIVERED_ONLY = Rule(
    "delivered-only", "Only delivered orders can be returned or exchanged.", ("not delivered",)
)
REFUND_TARGET = Rule(
    "refund-original-or-gift-card",
    "A return is refunded to the order's original payment method or to a gift card.",
    ("original payment method", "original payment", "a gift card"),
)
SAME_PRODUCT = Rule(
    "same-product-variant", "An item can only become an available variant of the same product.", ()
)
GIFT_CARD_BALANCE = Rule("gift-card-balance", "A gift card must cover what it pays.", ("gift card balance",))
ONE_PAYMENT = Rule(
    "one-payment-change", "The payment of an order can change only while it has one payment.", ()
)
OWN_METHOD = Rule("own-payment-method", "Only the customer's own payment methods can be used.", ())


def check_policy(view: Any, action: Action) -> list[Rule]:
    """The rules of policy.md that the write `action` breaks, judged on the seed records."""
    args = action.arguments
    order = view.orders.get(args.get("order_id", ""))
    if order is not None and "payment_method_id" in args:
        methods = view.users[order["user_id"]]["payment_methods"]
        if args["payment_method_id"] not in methods:
            return [OWN_METHOD]
    broken: list[Rule] = []
    for applies, check in _CHECKS:
        if applies(action.name):
            broken += check(view, order, args)
    return broken


def _cancel_rules(view: Any, order: Record, args: Record) -> list[Rule]:
    broken = [] if rules.is_pending(order["status"]) else [CANCEL_PENDING_ONLY]
    return broken + ([CANCEL_REASON] if args.get("reason") not in rules.CANCEL_REASONS else [])


def _modify_rules(view: Any, order: Record, args: Record) -> list[Rule]:
    return [] if rules.is_pending(order["status"]) else [MODIFY_PENDING_ONLY]


def _delivered_rules(view: Any, order: Record, args: Record) -> list[Rule]:
    return [] if rules.is_delivered(order["status"]) else [DELIVERED_ONLY]


def _refund_rules(view: Any, order: Record, args: Record) -> list[Rule]:
    original = order["payment_history"][0]["payment_method_id"]
    method = args["payment_method_id"]
    return [] if rules.refund_target_ok(method, lambda: original) else [REFUND_TARGET]


def _variant_rules(view: Any, order: Record, args: Record) -> list[Rule]:
    items = {i["item_id"]: i for i in order["items"]}
    difference = 0.0
    for old, new in zip(args["item_ids"], args["new_item_ids"], strict=False):
        item = items.get(old)
        variant = view.products[item["product_id"]]["variants"].get(new) if item else None
        if item is None or variant is None or not variant["available"]:
            return [SAME_PRODUCT]
        difference += variant["price"] - item["price"]
    method = view.users[order["user_id"]]["payment_methods"][args["payment_method_id"]]
    return [GIFT_CARD_BALANCE] if rules.gift_card_short(method, difference) else []


def _payment_change_rules(view: Any, order: Record, args: Record) -> list[Rule]:
    history = order["payment_history"]
    if len(history) != 1 or history[0]["payment_method_id"] == args["payment_method_id"]:
        return [ONE_PAYMENT]
    method = view.users[order["user_id"]]["payment_methods"][args["payment_method_id"]]
    return [GIFT_CARD_BALANCE] if rules.gift_card_short(method, history[0]["amount"]) else []


_ITEM_SWAPS = ("modify_pending_order_items", "exchange_delivered_order_items")
_DELIVERED_WRITES = ("return_delivered_order_items", "exchange_delivered_order_items")

# Which checks a write's tool name calls for, in the order their broken rules are reported.
_CHECKS: tuple[tuple[Callable[[str], bool], Callable[[Any, Record, Record], list[Rule]]], ...] = (
    (lambda name: name == "cancel_pending_order", _cancel_rules),
    (lambda name: name.startswith("modify_pending_order"), _modify_rules),
    (lambda name: name == "modify_pending_order_payment", _payment_change_rules),
    (lambda name: name in _ITEM_SWAPS, _variant_rules),
    (lambda name: name in _DELIVERED_WRITES, _delivered_rules),
    (lambda name: name == "return_delivered_order_items", _refund_rules),
)
