"""Retail tools: the published interface, reads, cancelling and addresses (order changes, returns and
exchanges are in their own files); failed writes change nothing."""

from __future__ import annotations

import json

from taue.envs.retail import DOMAIN
from taue.envs.retail.models import Order
from tests.envs.retail_helpers import (
    ORDERS,
    PRODUCTS,
    TOOLS,
    USERS,
    call,
    credit_needs_rounding,
    fails,
    first_method,
    is_status,
    methods_of,
    ok,
    order_where,
    state,
)

db = TOOLS.database_fixture()


# ------------------------------------------------------------------------------------------ interface

PUBLISHED_PARAMETERS = {
    "calculate": {"expression": "string"},
    "cancel_pending_order": {"order_id": "string", "reason": "string"},
    "exchange_delivered_order_items": {
        "order_id": "string",
        "item_ids": "array",
        "new_item_ids": "array",
        "payment_method_id": "string",
    },
    "find_user_id_by_email": {"email": "string"},
    "find_user_id_by_name_zip": {"first_name": "string", "last_name": "string", "zip": "string"},
    "get_order_details": {"order_id": "string"},
    "get_product_details": {"product_id": "string"},
    "get_user_details": {"user_id": "string"},
    "list_all_product_types": {},
    "modify_pending_order_address": {
        k: "string" for k in ("order_id", "address1", "address2", "city", "state", "country", "zip")
    },
    "modify_pending_order_items": {
        "order_id": "string",
        "item_ids": "array",
        "new_item_ids": "array",
        "payment_method_id": "string",
    },
    "modify_pending_order_payment": {"order_id": "string", "payment_method_id": "string"},
    "modify_user_address": {
        k: "string" for k in ("user_id", "address1", "address2", "city", "state", "country", "zip")
    },
    "return_delivered_order_items": {
        "order_id": "string",
        "item_ids": "array",
        "payment_method_id": "string",
    },
    "think": {"thought": "string"},
    "transfer_to_human_agents": {"summary": "string"},
}


def test_tools_match_the_published_interface():
    assert set(DOMAIN.mcp_tools) == set(PUBLISHED_PARAMETERS)
    for name, parameters in PUBLISHED_PARAMETERS.items():
        schema = DOMAIN.mcp_tools[name].parameters
        assert {k: v["type"] for k, v in schema["properties"].items()} == parameters, name
        assert sorted(schema.get("required", [])) == sorted(parameters), name
        assert DOMAIN.mcp_tools[name].description, name
        for key, value in schema["properties"].items():
            assert value.get("description"), (name, key)
    assert DOMAIN.write_tools == {
        "cancel_pending_order",
        "exchange_delivered_order_items",
        "modify_pending_order_address",
        "modify_pending_order_items",
        "modify_pending_order_payment",
        "modify_user_address",
        "return_delivered_order_items",
    }
    assert DOMAIN.terminal_tools == {"transfer_to_human_agents"}
    reason = DOMAIN.mcp_tools["cancel_pending_order"].parameters["properties"]["reason"]
    assert reason["enum"] == ["no longer needed", "ordered by mistake"]
    items = DOMAIN.mcp_tools["modify_pending_order_items"].parameters["properties"]["item_ids"]
    assert items["items"] == {"type": "string"}


# ---------------------------------------------------------------------------------------------- reads


async def test_find_user_by_email_ignores_case(db):
    user_id, user = sorted(USERS.items())[3]
    assert await ok(db, "find_user_id_by_email", email=user["email"].upper()) == user_id
    await fails(db, "find_user_id_by_email", "user not found", email="nobody@example.com")


async def test_find_user_by_name_and_zip(db):
    user_id, user = sorted(USERS.items())[7]
    name, zip_code = user["name"], user["address"]["zip"]
    found = await ok(
        db,
        "find_user_id_by_name_zip",
        first_name=name["first_name"].lower(),
        last_name=name["last_name"].upper(),
        zip=zip_code,
    )
    assert found == user_id
    await fails(
        db,
        "find_user_id_by_name_zip",
        "user not found",
        first_name=name["first_name"],
        last_name=name["last_name"],
        zip="00000",
    )


async def test_detail_readers_return_the_published_records(db):
    user_id, user = sorted(USERS.items())[0]
    user_json = await ok(db, "get_user_details", user_id=user_id)
    assert json.loads(user_json) == user
    assert "user_id" not in json.loads(user_json)
    assert list(json.loads(user_json)) == ["name", "address", "email", "payment_methods", "orders"]
    order_id = user["orders"][0]
    order = json.loads(await ok(db, "get_order_details", order_id=order_id))
    assert order == ORDERS[order_id]
    assert list(order) == [
        "order_id",
        "user_id",
        "address",
        "items",
        "fulfillments",
        "status",
        "payment_history",
    ]
    assert list(order["items"][0]) == ["name", "product_id", "item_id", "price", "options"]
    product_id = order["items"][0]["product_id"]
    assert json.loads(await ok(db, "get_product_details", product_id=product_id)) == PRODUCTS[product_id]
    await fails(db, "get_user_details", "user not found", user_id="nobody_0000")
    await fails(db, "get_order_details", "order not found", order_id="W0000000")
    await fails(db, "get_product_details", "product not found", product_id="0")


async def test_list_all_product_types_is_sorted_by_name(db):
    listing = json.loads(await ok(db, "list_all_product_types"))
    assert list(listing) == sorted(listing)
    assert listing == {p["name"]: pid for pid, p in PRODUCTS.items()}
    assert len(listing) == 50


async def test_calculate_think_and_transfer(db):
    assert await ok(db, "calculate", expression="(10 + 5) / 4") == "3.75"
    assert await ok(db, "calculate", expression="2 * 3") == "6.0"
    await fails(db, "calculate", "invalid characters in expression", expression="2 ** x")
    assert await ok(db, "think", thought="first check the status") == ""
    assert await ok(db, "transfer_to_human_agents", summary="wants a manager") == "Transfer successful"


async def test_wrong_argument_types_are_refused_without_writing(db):
    order = order_where(is_status("pending"))
    before = db.canonical_state()
    result = await call(db, "cancel_pending_order", order_id=order["order_id"])
    assert not result.ok
    result = await call(
        db,
        "modify_pending_order_items",
        order_id=order["order_id"],
        item_ids="123",
        new_item_ids=["1"],
        payment_method_id=first_method(order),
    )
    assert not result.ok
    assert db.canonical_state() == before


# ----------------------------------------------------------------------------------------- cancelling


async def test_cancel_refunds_every_payment_and_credits_gift_cards(db):
    order = order_where(
        lambda o: is_status("pending")(o) and "gift_card" in first_method(o) and credit_needs_rounding(o)
    )
    card_id, amount = first_method(order), order["payment_history"][0]["amount"]
    balance = USERS[order["user_id"]]["payment_methods"][card_id]["balance"]
    assert isinstance(balance, int)
    output = json.loads(
        await ok(db, "cancel_pending_order", order_id=order["order_id"], reason="ordered by mistake")
    )
    after = state(db)
    stored = after["orders"][order["order_id"]]
    assert stored["status"] == "cancelled" and stored["cancel_reason"] == "ordered by mistake"
    assert stored["payment_history"] == [
        *order["payment_history"],
        {"transaction_type": "refund", "amount": amount, "payment_method_id": card_id},
    ]
    new_balance = after["users"][order["user_id"]]["payment_methods"][card_id]["balance"]
    assert new_balance == round(balance + amount, 2) and isinstance(new_balance, float)
    assert output["cancel_reason"] == "ordered by mistake" and output["status"] == "cancelled"


async def test_cancel_to_a_card_changes_no_balance(db):
    order = order_where(lambda o: is_status("pending")(o) and first_method(o).startswith("credit_card"))
    await ok(db, "cancel_pending_order", order_id=order["order_id"], reason="no longer needed")
    assert state(db)["users"][order["user_id"]] == json.loads(
        json.dumps({**USERS[order["user_id"]], "user_id": order["user_id"]})
    )


async def test_cancel_errors_write_nothing(db):
    pending = order_where(is_status("pending"))
    processed = order_where(is_status("processed"))
    await fails(
        db, "cancel_pending_order", "order not found", order_id="#W0000000", reason="no longer needed"
    )
    await fails(
        db,
        "cancel_pending_order",
        "non-pending order cannot be cancelled",
        order_id=processed["order_id"],
        reason="no longer needed",
    )
    await fails(db, "cancel_pending_order", "invalid reason", order_id=pending["order_id"], reason="too slow")


async def test_cancel_mirrors_every_history_entry_after_a_payment_change(db):
    """Quirk: refunds mirror all entries, refunds included, so the old gift card is credited twice."""
    order = order_where(
        lambda o: is_status("pending")(o) and "gift_card" in first_method(o) and methods_of(o, "credit_card")
    )
    card_id, amount = first_method(order), order["payment_history"][0]["amount"]
    credit = methods_of(order, "credit_card")[0]["id"]
    balance = USERS[order["user_id"]]["payment_methods"][card_id]["balance"]
    await ok(db, "modify_pending_order_payment", order_id=order["order_id"], payment_method_id=credit)
    await ok(db, "cancel_pending_order", order_id=order["order_id"], reason="no longer needed")
    after = state(db)
    history = after["orders"][order["order_id"]]["payment_history"]
    assert [e["transaction_type"] for e in history] == [
        "payment",
        "payment",
        "refund",
        "refund",
        "refund",
        "refund",
    ]
    assert [e["payment_method_id"] for e in history[3:]] == [card_id, credit, card_id]
    expected = round(round(round(balance + amount, 2) + amount, 2) + amount, 2)
    assert after["users"][order["user_id"]]["payment_methods"][card_id]["balance"] == expected


async def test_a_failing_refund_rolls_back_the_whole_cancellation(db):
    """Where the published tool would keep earlier credits, our failed call writes nothing."""
    order = order_where(lambda o: is_status("pending")(o) and "gift_card" in first_method(o))
    with db.transaction() as store:
        row = store.get(Order, order["order_id"])
        row.payment_history.append(
            {"transaction_type": "payment", "amount": 5.0, "payment_method_id": "gift_card_0000000"}
        )
        store.save(row)
    await fails(
        db,
        "cancel_pending_order",
        "'gift_card_0000000'",
        order_id=order["order_id"],
        reason="no longer needed",
    )


# --------------------------------------------------------------------------------------- addresses

NEW_ADDRESS = {
    "address1": "5 Test Row",
    "address2": "",
    "city": "Omaha",
    "state": "NE",
    "country": "USA",
    "zip": "68102",
}
ADDRESS_ORDER = ["address1", "address2", "city", "country", "state", "zip"]


async def test_modify_order_address_replaces_only_that_order(db):
    order = order_where(is_status("pending"))
    output = json.loads(
        await ok(db, "modify_pending_order_address", order_id=order["order_id"], **NEW_ADDRESS)
    )
    assert list(output["address"]) == ADDRESS_ORDER
    after = state(db)
    assert after["orders"][order["order_id"]]["address"] == NEW_ADDRESS
    assert after["users"][order["user_id"]]["address"] == USERS[order["user_id"]]["address"]
    delivered = order_where(is_status("delivered"))
    await fails(
        db,
        "modify_pending_order_address",
        "non-pending order cannot be modified",
        order_id=delivered["order_id"],
        **NEW_ADDRESS,
    )
    await fails(db, "modify_pending_order_address", "order not found", order_id="#W9", **NEW_ADDRESS)


async def test_modify_user_address_leaves_orders_alone(db):
    user_id, user = sorted(USERS.items())[1]
    output = json.loads(await ok(db, "modify_user_address", user_id=user_id, **NEW_ADDRESS))
    assert output["address"] == NEW_ADDRESS and "user_id" not in output
    after = state(db)
    assert after["users"][user_id]["address"] == NEW_ADDRESS
    for order_id in user["orders"]:
        assert after["orders"][order_id]["address"] == ORDERS[order_id]["address"]
    await fails(db, "modify_user_address", "user not found", user_id="ghost_0001", **NEW_ADDRESS)


async def test_successful_writes_are_logged_as_writes(db):
    order = order_where(is_status("pending"))
    result = await call(db, "modify_pending_order_address", order_id=order["order_id"], **NEW_ADDRESS)
    assert result.ok and result.writes
    read = await call(db, "get_order_details", order_id=order["order_id"])
    assert read.ok and not read.writes
