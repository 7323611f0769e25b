"""Retail's parts for the Tracer (docs/tracer.md): the intents a customer brings, grounded on the
seed view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

import random
from typing import Any

from taue.envs.retail.phrases import BANKS, option_kind
from taue.envs.retail.policy_check import check_policy
from taue.envs.retail.rules import CANCEL_REASONS
from taue.envs.retail.seed_view import (
    NEW_ADDRESSES,
    PERSONAS,
    Record,
    RetailView,
    address_arguments,
    customers,
    describe_change,
    describe_item,
    describe_method,
    listed,
    load,
    order_words,
)
from taue.envs.runtime.authoring import Alternative, Customer, Grounded, Intent, Lookups, TracerSpec, write


def _order_bindings(view: RetailView, order: Record, item: Record | None = None) -> dict[str, Any]:
    product = (item or order["items"][0])["product_id"]
    return {"order_id": view.lookups(order), "product_id": product}


# -------------------------------------------------------------------------------------------- intents


def cancel_order(view: RetailView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _cancel(view, customer, rng, ("pending",), "cancel_order")


def cancel_shipped_order(view: RetailView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _cancel(view, customer, rng, ("processed", "delivered"), "cancel_shipped_order")


def _cancel(
    view: RetailView, customer: Customer, rng: random.Random, statuses: tuple[str, ...], intent: str
) -> Grounded | None:
    orders = view.orders_of(customer.id, *statuses)
    if not orders:
        return None
    order = rng.choice(orders)
    reason = rng.choice(CANCEL_REASONS)
    words = order_words(order)
    return Grounded(
        **BANKS[intent].word(rng, {"order": words}, reason=reason).fields(),
        bindings=_order_bindings(view, order),
        write=write("cancel_pending_order", order_id=order["order_id"], reason=reason),
        entities=frozenset({order["order_id"]}),
        known={"cancel_reason": reason, "order_to_cancel": words},
        discoverable={"order_id": order["order_id"]},
        evidence=(order["order_id"],),
    )


def reroute_order(view: RetailView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _reroute(view, customer, rng, ("pending",), "reroute_order")


def reroute_shipped_order(view: RetailView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _reroute(view, customer, rng, ("processed",), "reroute_shipped_order")


def _reroute(
    view: RetailView, customer: Customer, rng: random.Random, statuses: tuple[str, ...], intent: str
) -> Grounded | None:
    orders = view.orders_of(customer.id, *statuses)
    if not orders:
        return None
    order = rng.choice(orders)
    arguments, text = address_arguments(rng, NEW_ADDRESSES[0::2])
    words = order_words(order)
    slots = {"order": words, "address": text, "city": arguments["city"]}
    return Grounded(
        **BANKS[intent].word(rng, slots).fields(),
        bindings=_order_bindings(view, order),
        write=write("modify_pending_order_address", order_id=order["order_id"], **arguments),
        entities=frozenset({order["order_id"]}),
        known={"new_shipping_address": text, "order_to_reroute": words},
        discoverable={"order_id": order["order_id"]},
        evidence=(order["order_id"], arguments["address1"]),
    )


def swap_item(view: RetailView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _variant_change(view, customer, rng, "pending", "modify_pending_order_items", "swap_item")


def exchange_item(view: RetailView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _variant_change(
        view, customer, rng, "delivered", "exchange_delivered_order_items", "exchange_item"
    )


def _variant_change(
    view: RetailView, customer: Customer, rng: random.Random, status: str, tool: str, intent: str
) -> Grounded | None:
    for order in _shuffled(view.orders_of(customer.id, status), rng):
        swap = view.variant_swap(order, rng)
        if swap is None:
            continue
        item, variant = swap
        method = _payer(view, customer.id, variant["price"] - item["price"], rng)
        if method is None:
            continue
        return _variant_goal(view, order, item, variant, method, tool, intent, rng)
    return None


def _variant_goal(
    view: RetailView,
    order: Record,
    item: Record,
    variant: Record,
    method: Record,
    tool: str,
    intent: str,
    rng: random.Random,
) -> Grounded:
    change = describe_change(item, variant)
    option = next(k for k, v in variant["options"].items() if item["options"].get(k) != v)
    slots = {
        "name": item["name"],
        "item": describe_item(item),
        "order": order_words(order),
        "change": change,
        "payment": describe_method(method),
        "option": option,
        "old": item["options"][option],
        "new": variant["options"][option],
    }
    verb = "exchange" if intent == "exchange_item" else "change"
    return Grounded(
        **BANKS[intent].word(rng, slots, reason=option_kind(option)).fields(),
        bindings=_order_bindings(view, order, item),
        write=write(
            tool,
            order_id=order["order_id"],
            item_ids=[item["item_id"]],
            new_item_ids=[variant["item_id"]],
            payment_method_id=method["id"],
        ),
        entities=frozenset({order["order_id"]}),
        known={
            f"item_to_{verb}": describe_item(item),
            "wanted_change": change,
            "pay_with": describe_method(method),
        },
        discoverable={
            "order_id": order["order_id"],
            "item_id": item["item_id"],
            "new_item_id": variant["item_id"],
        },
        evidence=(order["order_id"],),
    )


def _payer(view: RetailView, user_id: str, difference: float, rng: random.Random) -> Record | None:
    cards = [m for m in view.methods(user_id, "gift_card") if m["balance"] >= max(difference, 0)]
    others = view.methods(user_id, "credit_card", "paypal")
    choices = cards + others
    return rng.choice(choices) if choices else None


def change_payment(view: RetailView, customer: Customer, rng: random.Random) -> Grounded | None:
    for order in _shuffled(view.orders_of(customer.id, "pending"), rng):
        history = order["payment_history"]
        if len(history) != 1:
            continue
        current, amount = history[0]["payment_method_id"], history[0]["amount"]
        methods = [
            m
            for m in view.methods(customer.id, "credit_card", "paypal", "gift_card")
            if m["id"] != current and (m["source"] != "gift_card" or m["balance"] >= amount)
        ]
        if not methods:
            continue
        method = rng.choice(methods)
        words = order_words(order)
        slots = {"order": words, "payment": describe_method(method)}
        return Grounded(
            **BANKS["change_payment"].word(rng, slots, reason=method["source"]).fields(),
            bindings=_order_bindings(view, order),
            write=write(
                "modify_pending_order_payment", order_id=order["order_id"], payment_method_id=method["id"]
            ),
            entities=frozenset({order["order_id"]}),
            known={"order_to_repay": words, "pay_with": describe_method(method)},
            discoverable={"order_id": order["order_id"], "payment_method_id": method["id"]},
            evidence=(order["order_id"],),
        )
    return None


def return_items(view: RetailView, customer: Customer, rng: random.Random) -> Grounded | None:
    for order in _shuffled(view.orders_of(customer.id, "delivered"), rng):
        methods = [view.original_method(order), *view.methods(customer.id, "gift_card")]
        method = rng.choice(list({m["id"]: m for m in methods}.values()))
        return _return(view, order, method, rng, "return_items")
    return None


def refund_to_other_card(view: RetailView, customer: Customer, rng: random.Random) -> Grounded | None:
    for order in _shuffled(view.orders_of(customer.id, "delivered"), rng):
        original = view.original_method(order)
        others = [  # named unlike the original: "your PayPal account" must say which one
            m
            for m in view.methods(customer.id, "credit_card", "paypal")
            if describe_method(m) != describe_method(original)
        ]
        if others:
            return _return(view, order, rng.choice(others), rng, "refund_to_other_card")
    return None


def refund_to_original(
    view: RetailView, customer: Customer, refused: Grounded, rng: random.Random
) -> Grounded | None:
    """The policy's alternative to a refund to another card: the same return, refunded to the
    order's original payment method, which the customer takes."""
    assert refused.write is not None
    order = view.orders[refused.write.arguments["order_id"]]
    returned = set(refused.write.arguments["item_ids"])
    items = [i for i in order["items"] if i["item_id"] in returned]
    method = view.original_method(order)
    slots = {"items": listed([describe_item(i) for i in items]), "refund": describe_method(method)}
    return Grounded(
        **BANKS["refund_to_original"].word(rng, slots).fields(),
        bindings=_order_bindings(view, order, items[0]),
        write=write(
            "return_delivered_order_items",
            order_id=order["order_id"],
            item_ids=sorted(returned),
            payment_method_id=method["id"],
        ),
        entities=frozenset({order["order_id"]}),
        known={"refund_instead": describe_method(method)},
        discoverable={"payment_method_id": method["id"]},
        evidence=(order["order_id"], method["id"]),
    )


def _return(
    view: RetailView, order: Record, method: Record, rng: random.Random, intent: str
) -> Grounded | None:
    singles = [i for i in order["items"] if [j["item_id"] for j in order["items"]].count(i["item_id"]) == 1]
    if not singles:
        return None
    items = sorted(rng.sample(singles, min(len(singles), rng.choice((1, 1, 2)))), key=lambda i: i["item_id"])
    described = listed([describe_item(i) for i in items])
    refund = describe_method(method)
    names = [i["name"] for i in items]
    slots = {"names": listed(names) if len(set(names)) == len(names) else described, "items": described}
    slots["refund"] = refund
    return Grounded(
        **BANKS[intent].word(rng, slots, reason="one" if len(items) == 1 else "several").fields(),
        bindings=_order_bindings(view, order, items[0]),
        write=write(
            "return_delivered_order_items",
            order_id=order["order_id"],
            item_ids=[i["item_id"] for i in items],
            payment_method_id=method["id"],
        ),
        entities=frozenset({order["order_id"]}),
        known={"items_to_return": described, "pay_with": refund},
        discoverable={"order_id": order["order_id"], "item_ids": ", ".join(i["item_id"] for i in items)},
        evidence=(order["order_id"],),
    )


def update_default_address(view: RetailView, customer: Customer, rng: random.Random) -> Grounded | None:
    orders = view.users[customer.id]["orders"]
    if not orders:
        return None
    arguments, text = address_arguments(rng, NEW_ADDRESSES[1::2])
    slots = {"address": text, "city": arguments["city"]}
    return Grounded(
        **BANKS["update_default_address"].word(rng, slots).fields(),
        bindings={"order_id": Lookups(tuple(orders))},
        write=write("modify_user_address", user_id=customer.id, **arguments),
        entities=frozenset({f"{customer.id}:address"}),
        known={"new_default_address": text},
        evidence=(arguments["address1"],),
    )


def tracking_number(view: RetailView, customer: Customer, rng: random.Random) -> Grounded | None:
    shipped = [o for o in view.orders_of(customer.id, "processed", "delivered") if o["fulfillments"]]
    if not shipped:
        return None
    order = rng.choice(shipped)
    tracking = order["fulfillments"][0]["tracking_id"][0]
    words = order_words(order)
    return Grounded(
        **BANKS["tracking_number"].word(rng, {"order": words}, reason=order["status"]).fields(),
        kind="information",
        bindings=_order_bindings(view, order),
        entities=frozenset({order["order_id"]}),
        known={"order_to_track": words},
        discoverable={"order_id": order["order_id"]},
        evidence=(tracking,),
    )


def _shuffled(records: list[Record], rng: random.Random) -> list[Record]:
    records = list(records)
    rng.shuffle(records)
    return records


ORDER_READS = ("get_order_details", "get_product_details", "list_all_product_types")

INTENTS = (
    Intent(
        "cancel_order",
        "cancel_pending_order",
        cancel_order,
        "cancelling an order",
        ORDER_READS,
        ("get_order_details",),
    ),
    Intent(
        "reroute_order",
        "modify_pending_order_address",
        reroute_order,
        "changing where an order ships",
        ORDER_READS,
        ("get_order_details",),
    ),
    Intent(
        "swap_item",
        "modify_pending_order_items",
        swap_item,
        "changing an item of an order",
        ORDER_READS,
        ("get_order_details", "get_product_details"),
    ),
    Intent(
        "change_payment",
        "modify_pending_order_payment",
        change_payment,
        "paying for an order another way",
        ORDER_READS,
        ("get_order_details",),
        weight=0.7,
    ),
    Intent(
        "return_items",
        "return_delivered_order_items",
        return_items,
        "returning items",
        ORDER_READS,
        ("get_order_details",),
    ),
    Intent(
        "exchange_item",
        "exchange_delivered_order_items",
        exchange_item,
        "exchanging an item",
        ORDER_READS,
        ("get_order_details", "get_product_details"),
    ),
    Intent(
        "update_default_address",
        "modify_user_address",
        update_default_address,
        "updating an address",
        ("get_order_details",),
    ),
    Intent(
        "tracking_number",
        "get_order_details",
        tracking_number,
        "tracking a delivery",
        ORDER_READS,
        weight=0.5,
    ),
    Intent(
        "cancel_shipped_order",
        "cancel_pending_order",
        cancel_shipped_order,
        "cancelling an order",
        ORDER_READS,
        ("get_order_details",),
        challenge=True,
    ),
    Intent(
        "reroute_shipped_order",
        "modify_pending_order_address",
        reroute_shipped_order,
        "changing where an order ships",
        ORDER_READS,
        ("get_order_details",),
        challenge=True,
    ),
    Intent(
        "refund_to_other_card",
        "return_delivered_order_items",
        refund_to_other_card,
        "returning items",
        ORDER_READS,
        ("get_order_details",),
        challenge=True,
        alternative=Alternative("refund_to_original", "return_delivered_order_items", refund_to_original),
    ),
)


TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={2: 0.55, 3: 0.3, 4: 0.15},
    intent_counts={2: 0.15, 3: 0.5, 4: 0.35},
)
