"""Retail order changes: swapping items and changing payment, the published money arithmetic, and
that a failed call writes nothing."""

from __future__ import annotations

import json

from tests.envs.retail_helpers import (
    PRODUCTS,
    TOOLS,
    USERS,
    Record,
    credit_needs_rounding,
    fails,
    first_method,
    is_status,
    methods_of,
    ok,
    order_where,
    state,
    swap_for,
    swappable,
    unavailable_for,
)

db = TOOLS.database_fixture()


# ---------------------------------------------------------------------------------- modifying items


def debit_needs_rounding(order: Record) -> bool:
    """Charging the first item's swap to the first gift card needs round(x, 2) to stay at two decimals."""
    item, card = order["items"][0], methods_of(order, "gift_card")[0]
    difference = 0 + (swap_for(item)["price"] - item["price"])
    return round(card["balance"] - difference, 2) != card["balance"] - difference


async def test_modify_items_swaps_variant_and_records_unrounded_difference(db):
    order = order_where(
        lambda o: (
            is_status("pending")(o)
            and swappable(o)
            and methods_of(o, "gift_card")
            and methods_of(o, "gift_card")[0]["balance"] >= 400
            and debit_needs_rounding(o)
        )
    )
    item = order["items"][0]
    variant = swap_for(item)
    card = methods_of(order, "gift_card")[0]
    difference = 0 + (variant["price"] - item["price"])
    output = json.loads(
        await ok(
            db,
            "modify_pending_order_items",
            order_id=order["order_id"],
            item_ids=[item["item_id"]],
            new_item_ids=[variant["item_id"]],
            payment_method_id=card["id"],
        )
    )
    after = state(db)
    stored = after["orders"][order["order_id"]]
    assert stored["status"] == "pending" and output["status"] == "pending"
    assert stored["items"][0] == {
        **item,
        "item_id": variant["item_id"],
        "price": variant["price"],
        "options": variant["options"],
    }
    assert stored["items"][1:] == order["items"][1:]
    assert stored["payment_history"][-1] == {
        "transaction_type": "payment" if difference > 0 else "refund",
        "amount": abs(difference),
        "payment_method_id": card["id"],
    }
    assert after["users"][order["user_id"]]["payment_methods"][card["id"]]["balance"] == round(
        card["balance"] - difference, 2
    )


async def test_modify_items_with_no_price_change_records_a_zero_refund(db):
    def same_item_available(order: Record) -> bool:
        item = order["items"][0]
        return PRODUCTS[item["product_id"]]["variants"][item["item_id"]]["available"]

    order = order_where(
        lambda o: (
            is_status("pending")(o) and same_item_available(o) and first_method(o).startswith("credit_card")
        )
    )
    item_id = order["items"][0]["item_id"]
    await ok(
        db,
        "modify_pending_order_items",
        order_id=order["order_id"],
        item_ids=[item_id],
        new_item_ids=[item_id],
        payment_method_id=first_method(order),
    )
    entry = state(db)["orders"][order["order_id"]]["payment_history"][-1]
    assert entry == {"transaction_type": "refund", "amount": 0, "payment_method_id": first_method(order)}
    assert isinstance(entry["amount"], float)  # 0 + (price - price)
    await ok(
        db,
        "modify_pending_order_items",
        order_id=order["order_id"],
        item_ids=[],
        new_item_ids=[],
        payment_method_id=first_method(order),
    )
    entry = state(db)["orders"][order["order_id"]]["payment_history"][-1]
    assert entry["transaction_type"] == "refund" and entry["amount"] == 0
    assert isinstance(entry["amount"], int)  # no pairs: the difference stays the integer 0


async def test_modify_items_can_be_repeated_on_the_same_order(db):
    """Quirk: the order stays 'pending' after an item change, so it can be changed again."""

    def available_others(item: Record) -> list[str]:
        variants = PRODUCTS[item["product_id"]]["variants"]
        return [k for k, v in sorted(variants.items()) if v["available"] and k != item["item_id"]]

    order = order_where(
        lambda o: (
            is_status("pending")(o)
            and len(available_others(o["items"][0])) >= 2
            and first_method(o).startswith("paypal")
        )
    )
    item = order["items"][0]
    first, second = available_others(item)[:2]
    arguments = {"order_id": order["order_id"], "payment_method_id": first_method(order)}
    await ok(db, "modify_pending_order_items", item_ids=[item["item_id"]], new_item_ids=[first], **arguments)
    await ok(db, "modify_pending_order_items", item_ids=[first], new_item_ids=[second], **arguments)
    stored = state(db)["orders"][order["order_id"]]
    assert stored["status"] == "pending"
    assert stored["items"][0]["item_id"] == second
    assert stored["items"][0]["price"] == PRODUCTS[item["product_id"]]["variants"][second]["price"]
    assert len(stored["payment_history"]) == 3


async def test_modify_items_errors_write_nothing(db):
    order = order_where(
        lambda o: (
            is_status("pending")(o)
            and swappable(o)
            and unavailable_for(o["items"][0])
            and methods_of(o, "gift_card")
        )
    )
    item = order["items"][0]
    good, bad = swap_for(item), unavailable_for(item)
    other_product = next(p for p in PRODUCTS.values() if p["product_id"] != item["product_id"])
    foreign = next(iter(other_product["variants"]))
    base = {"order_id": order["order_id"], "payment_method_id": first_method(order)}
    name = "modify_pending_order_items"
    await fails(db, name, "order not found", **{**base, "order_id": "#W1"}, item_ids=[], new_item_ids=[])
    delivered = order_where(is_status("delivered"))
    await fails(
        db,
        name,
        "non-pending order cannot be modified",
        order_id=delivered["order_id"],
        item_ids=[],
        new_item_ids=[],
        payment_method_id=first_method(delivered),
    )
    await fails(
        db,
        name,
        f"{item['item_id']} not found",
        **base,
        item_ids=[item["item_id"]] * 2,
        new_item_ids=[good["item_id"]] * 2,
    )
    await fails(
        db,
        name,
        "the number of items to be exchanged should match",
        **base,
        item_ids=[item["item_id"]],
        new_item_ids=[],
    )
    await fails(
        db,
        name,
        f"new item {bad['item_id']} not found or available",
        **base,
        item_ids=[item["item_id"]],
        new_item_ids=[bad["item_id"]],
    )
    await fails(
        db,
        name,
        f"new item {foreign} not found or available",
        **base,
        item_ids=[item["item_id"]],
        new_item_ids=[foreign],
    )
    await fails(
        db,
        name,
        "payment method not found",
        **{**base, "payment_method_id": "paypal_0000000"},
        item_ids=[item["item_id"]],
        new_item_ids=[good["item_id"]],
    )


async def test_modify_items_refuses_a_gift_card_that_cannot_cover_the_difference(db):
    def expensive_swap(order: Record) -> bool:
        cards = methods_of(order, "gift_card")
        item = order["items"][0]
        variants = PRODUCTS[item["product_id"]]["variants"].values()
        return bool(cards) and any(
            v["available"] and v["price"] - item["price"] > cards[0]["balance"] for v in variants
        )

    order = order_where(lambda o: is_status("pending")(o) and expensive_swap(o))
    item, card = order["items"][0], methods_of(order, "gift_card")[0]
    variant = next(
        v
        for v in PRODUCTS[item["product_id"]]["variants"].values()
        if v["available"] and v["price"] - item["price"] > card["balance"]
    )
    await fails(
        db,
        "modify_pending_order_items",
        "insufficient gift card balance to pay for the new item",
        order_id=order["order_id"],
        item_ids=[item["item_id"]],
        new_item_ids=[variant["item_id"]],
        payment_method_id=card["id"],
    )


# --------------------------------------------------------------------------------- changing payment


async def test_modify_payment_moves_money_between_gift_cards_and_other_methods(db):
    order = order_where(
        lambda o: (
            is_status("pending")(o)
            and not first_method(o).startswith("gift_card")
            and any(c["balance"] >= o["payment_history"][0]["amount"] for c in methods_of(o, "gift_card"))
        )
    )
    amount, old = order["payment_history"][0]["amount"], first_method(order)
    card = next(c for c in methods_of(order, "gift_card") if c["balance"] >= amount)
    await ok(db, "modify_pending_order_payment", order_id=order["order_id"], payment_method_id=card["id"])
    after = state(db)
    assert after["orders"][order["order_id"]]["payment_history"] == [
        *order["payment_history"],
        {"transaction_type": "payment", "amount": amount, "payment_method_id": card["id"]},
        {"transaction_type": "refund", "amount": amount, "payment_method_id": old},
    ]
    assert after["users"][order["user_id"]]["payment_methods"][card["id"]]["balance"] == round(
        card["balance"] - amount, 2
    )
    await fails(
        db,
        "modify_pending_order_payment",
        "there should be exactly one payment for a pending order",
        order_id=order["order_id"],
        payment_method_id=old,
    )


async def test_modify_payment_credits_the_old_gift_card(db):
    order = order_where(
        lambda o: (
            is_status("pending")(o)
            and first_method(o).startswith("gift_card")
            and methods_of(o, "paypal")
            and credit_needs_rounding(o)
        )
    )
    old, amount = first_method(order), order["payment_history"][0]["amount"]
    balance = USERS[order["user_id"]]["payment_methods"][old]["balance"]
    await ok(
        db,
        "modify_pending_order_payment",
        order_id=order["order_id"],
        payment_method_id=methods_of(order, "paypal")[0]["id"],
    )
    assert state(db)["users"][order["user_id"]]["payment_methods"][old]["balance"] == round(
        balance + amount, 2
    )


async def test_modify_payment_errors_write_nothing(db):
    def poor_card(order: Record) -> Record | None:
        amount, current = order["payment_history"][0]["amount"], first_method(order)
        cards = methods_of(order, "gift_card")
        return next((c for c in cards if c["balance"] < amount and c["id"] != current), None)

    order = order_where(lambda o: is_status("pending")(o) and poor_card(o) is not None)
    poor = poor_card(order)
    name = "modify_pending_order_payment"
    processed = order_where(is_status("processed"))
    pending = {"order_id": order["order_id"]}
    await fails(db, name, "order not found", order_id="#W0", payment_method_id=poor["id"])
    await fails(
        db,
        name,
        "non-pending order cannot be modified",
        order_id=processed["order_id"],
        payment_method_id=first_method(processed),
    )
    await fails(db, name, "payment method not found", **pending, payment_method_id="paypal_1")
    await fails(
        db,
        name,
        "the new payment method should be different from the current one",
        **pending,
        payment_method_id=first_method(order),
    )
    await fails(
        db,
        name,
        "insufficient gift card balance to pay for the order",
        **pending,
        payment_method_id=poor["id"],
    )


async def test_modify_items_replaces_repeated_items_one_by_one(db):
    def repeated(order: Record) -> str | None:
        ids = [item["item_id"] for item in order["items"]]
        return next((i for i in ids if ids.count(i) > 1), None)

    order = order_where(
        lambda o: (
            is_status("pending")(o)
            and repeated(o) is not None
            and swap_for(next(i for i in o["items"] if i["item_id"] == repeated(o))) is not None
        )
    )
    old = next(item for item in order["items"] if item["item_id"] == repeated(order))
    new = swap_for(old)
    await fails(
        db,
        "modify_pending_order_items",
        f"{old['item_id']} not found",
        order_id=order["order_id"],
        item_ids=[old["item_id"]] * 3,
        new_item_ids=[new["item_id"]] * 3,
        payment_method_id=first_method(order),
    )
    await ok(
        db,
        "modify_pending_order_items",
        order_id=order["order_id"],
        item_ids=[old["item_id"]] * 2,
        new_item_ids=[new["item_id"]] * 2,
        payment_method_id=first_method(order),
    )
    stored = state(db)["orders"][order["order_id"]]
    assert [i["item_id"] for i in stored["items"]].count(new["item_id"]) >= 2
    assert old["item_id"] not in [i["item_id"] for i in stored["items"]]
    difference = 0 + (new["price"] - old["price"]) + (new["price"] - old["price"])
    assert stored["payment_history"][-1]["amount"] == abs(difference)
