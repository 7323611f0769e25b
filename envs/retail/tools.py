"""Retail tools: the published τ-Emotion-Bench retail tool set, same names, parameters and effects.

Every tool takes the episode `Store` first; its other parameters are what the agent sends. Errors
are `ToolError`s carrying the published message (without the `Error: ` prefix); a failed call
writes nothing. Successful lookups and writes return the record as `json.dumps` text.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlmodel import select

from taue.envs.retail import rules
from taue.envs.retail.models import Order, Product, User
from taue.envs.runtime.common_tools import calculate, think
from taue.envs.runtime.database import Store
from taue.envs.runtime.domain import ends_conversation, writes
from taue.envs.runtime.money import cents

OrderId = Annotated[str, Field(description="The order id, including the leading '#', e.g. '#W0000000'.")]
UserId = Annotated[str, Field(description="The user id, e.g. 'jane_doe_1234'.")]
PaymentMethodId = Annotated[
    str,
    Field(
        description="The id of one of the user's payment methods, e.g. 'credit_card_0000000' or "
        "'gift_card_0000000', as shown in the user's details."
    ),
]
ItemIds = Annotated[
    list[str],
    Field(
        description="Item ids of the order's items, e.g. ['1008292230']; repeat an id to include "
        "several items with the same id."
    ),
]
NewItemIds = Annotated[
    list[str],
    Field(
        description="The replacement item ids, position by position with item_ids; each must be an "
        "available variant of the same product, e.g. ['1008292230']."
    ),
]
Address1 = Annotated[str, Field(description="First line of the address, e.g. '123 Main St'.")]
Address2 = Annotated[str, Field(description="Second line of the address (e.g. 'Apt 1'), or '' if none.")]
City = Annotated[str, Field(description="City, e.g. 'San Francisco'.")]
State = Annotated[str, Field(description="State code, e.g. 'CA'.")]
Country = Annotated[str, Field(description="Country, e.g. 'USA'.")]
Zip = Annotated[str, Field(description="Zip code, e.g. '12345'.")]


def _dump(row: Order | Product | User) -> str:
    return json.dumps(row.to_record())


def _order(db: Store, order_id: str) -> Order:
    return db.require(Order, order_id, "order not found")


def _owner(db: Store, order: Order) -> User:
    return db.require(User, order.user_id, "user not found")


def _method(owner: User, payment_method_id: str) -> dict[str, Any]:
    method = owner.payment_methods.get(payment_method_id)
    if method is None:
        raise ToolError("payment method not found")
    return method


def _gift_card_method(owner: User, payment_method_id: str) -> dict[str, Any]:
    """The owner's method a refund credits by id (the published code indexes it directly)."""
    method = owner.payment_methods.get(payment_method_id)
    if method is None:
        raise ToolError(f"'{payment_method_id}'")
    if "balance" not in method:
        raise ToolError("'balance'")
    return method


def _address(address1: str, address2: str, city: str, state: str, country: str, zip: str) -> dict[str, str]:
    return {
        "address1": address1,
        "address2": address2,
        "city": city,
        "country": country,
        "state": state,
        "zip": zip,
    }


def _check_item_counts(order: Order, item_ids: list[str], message: str | None = None) -> None:
    """Each id may appear in `item_ids` at most as often as it does among the order's items."""
    order_item_ids = [item["item_id"] for item in order.items]
    for item_id in item_ids:
        if item_ids.count(item_id) > order_item_ids.count(item_id):
            raise ToolError(message or f"{item_id} not found")


def _first_item(order: Order, item_id: str) -> dict[str, Any]:
    for item in order.items:
        if item["item_id"] == item_id:
            return item
    raise ToolError("list index out of range")


def _new_variant(db: Store, item: dict[str, Any], new_item_id: str) -> dict[str, Any]:
    product = db.get(Product, item["product_id"])
    if product is None:
        raise ToolError(f"'{item['product_id']}'")
    variant = product.variants.get(new_item_id)
    if variant is None or not variant["available"]:
        raise ToolError(f"new item {new_item_id} not found or available")
    return variant


def _price_difference(db: Store, order: Order, item_ids: list[str], new_item_ids: list[str]) -> int | float:
    """Sum of (new variant price - old item price) over the pairs, unrounded, starting from int 0."""
    if len(item_ids) != len(new_item_ids):
        raise ToolError("the number of items to be exchanged should match")
    difference: int | float = 0
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=True):
        item = _first_item(order, item_id)
        difference += _new_variant(db, item, new_item_id)["price"] - item["price"]
    return difference


# ---------------------------------------------------------------------------------------------- reads


async def find_user_id_by_email(
    db: Store, email: Annotated[str, Field(description="The user's email, e.g. 'jane.doe@example.com'.")]
) -> str:
    """Find a user's id from their email address (case-insensitive). Returns the bare user id."""
    wanted = email.lower()
    rows = db.session.exec(select(User.user_id, User.email).order_by(User.user_id))
    for user_id, user_email in rows:
        if user_email.lower() == wanted:
            return user_id
    raise ToolError("user not found")


async def find_user_id_by_name_zip(
    db: Store,
    first_name: Annotated[str, Field(description="The user's first name, e.g. 'Jane'.")],
    last_name: Annotated[str, Field(description="The user's last name, e.g. 'Doe'.")],
    zip: Annotated[str, Field(description="The zip code of the user's address, e.g. '12345'.")],
) -> str:
    """Find a user's id from first name, last name (both case-insensitive) and the zip code of their
    address. Use it when the user does not remember their email. Returns the bare user id."""
    rows = db.session.exec(select(User.user_id, User.name, User.address).order_by(User.user_id))
    for user_id, name, address in rows:
        if (
            name["first_name"].lower() == first_name.lower()
            and name["last_name"].lower() == last_name.lower()
            and address["zip"] == zip
        ):
            return user_id
    raise ToolError("user not found")


async def get_user_details(db: Store, user_id: UserId) -> str:
    """Get a user's profile: name, default address, email, payment methods (with gift card balances)
    and the ids of their orders."""
    return _dump(db.require(User, user_id, "user not found"))


async def get_order_details(db: Store, order_id: OrderId) -> str:
    """Get an order's status, shipping address, items (with item ids, product ids, prices and
    options), fulfillments (tracking ids) and payment history."""
    return _dump(_order(db, order_id))


async def get_product_details(
    db: Store,
    product_id: Annotated[
        str, Field(description="The product id, e.g. '6086499569'. Product ids are different from item ids.")
    ],
) -> str:
    """Get a product type's details: its name and every variant (item id, options, availability,
    price)."""
    return _dump(db.require(Product, product_id, "product not found"))


async def list_all_product_types(db: Store) -> str:
    """List every product type the store sells: a JSON object from product name to product id, sorted
    by name."""
    rows = db.session.exec(select(Product.name, Product.product_id).order_by(Product.product_id))
    names = {name: product_id for name, product_id in rows}
    return json.dumps(dict(sorted(names.items())))


# --------------------------------------------------------------------------------------------- writes


@writes
async def cancel_pending_order(
    db: Store,
    order_id: OrderId,
    reason: Annotated[
        str,
        Field(
            description="Why the order is cancelled: 'no longer needed' or 'ordered by mistake'.",
            json_schema_extra={"enum": list(rules.CANCEL_REASONS)},
        ),
    ],
) -> str:
    """Cancel a pending order. Only orders whose status is 'pending' can be cancelled; confirm the
    order id and the reason with the user first. Every payment of the order is refunded to the method
    it came from: a gift card is credited at once, other methods within 5 to 7 business days.
    Returns the updated order."""
    order = _order(db, order_id)
    if not rules.is_pending(order.status):
        raise ToolError("non-pending order cannot be cancelled")
    if reason not in rules.CANCEL_REASONS:
        raise ToolError("invalid reason")
    refunds = []
    owner: User | None = None
    for payment in order.payment_history:
        method_id = payment["payment_method_id"]
        refunds.append(
            {"transaction_type": "refund", "amount": payment["amount"], "payment_method_id": method_id}
        )
        if "gift_card" in method_id:
            owner = owner or _owner(db, order)
            method = _gift_card_method(owner, method_id)
            method["balance"] = cents(method["balance"] + payment["amount"], "published")
    order.status = "cancelled"
    order.cancel_reason = reason
    order.payment_history.extend(refunds)
    if owner is not None:
        db.save(owner)
    db.save(order)
    return _dump(order)


@writes
async def modify_pending_order_address(
    db: Store,
    order_id: OrderId,
    address1: Address1,
    address2: Address2,
    city: City,
    state: State,
    country: Country,
    zip: Zip,
) -> str:
    """Change the shipping address of a pending order. Confirm the full new address with the user
    first. Returns the updated order."""
    order = _order(db, order_id)
    if not rules.is_pending(order.status):
        raise ToolError("non-pending order cannot be modified")
    order.address = _address(address1, address2, city, state, country, zip)
    db.save(order)
    return _dump(order)


@writes
async def modify_pending_order_items(
    db: Store,
    order_id: OrderId,
    item_ids: ItemIds,
    new_item_ids: NewItemIds,
    payment_method_id: PaymentMethodId,
) -> str:
    """Swap items of a pending order for other available variants of the same products (e.g. another
    size or color). Collect every item to change before calling. The price difference is charged to,
    or refunded to, the given payment method; a gift card must cover any extra cost. Confirm the
    items and the payment method with the user first. Returns the updated order."""
    order = _order(db, order_id)
    if not rules.is_pending(order.status):
        raise ToolError("non-pending order cannot be modified")
    _check_item_counts(order, item_ids)
    difference = _price_difference(db, order, item_ids, new_item_ids)
    owner = _owner(db, order)
    method = _method(owner, payment_method_id)
    if rules.gift_card_short(method, difference):
        raise ToolError("insufficient gift card balance to pay for the new item")
    order.payment_history.append(
        {
            "transaction_type": "payment" if difference > 0 else "refund",
            "amount": abs(difference),
            "payment_method_id": payment_method_id,
        }
    )
    if method["source"] == "gift_card":
        method["balance"] = cents(method["balance"] - difference, "published")
        db.save(owner)
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=True):
        item = _first_item(order, item_id)
        variant = _new_variant(db, item, new_item_id)
        item.update(item_id=new_item_id, price=variant["price"], options=variant["options"])
    order.status = "pending"
    db.save(order)
    return _dump(order)


@writes
async def modify_pending_order_payment(
    db: Store, order_id: OrderId, payment_method_id: PaymentMethodId
) -> str:
    """Pay a pending order with a different payment method of the user. Possible only while the order
    has exactly one payment; a gift card must cover the whole amount. The old method is refunded (a
    gift card at once, other methods within 5 to 7 business days). Confirm with the user first.
    Returns the updated order."""
    order = _order(db, order_id)
    if not rules.is_pending(order.status):
        raise ToolError("non-pending order cannot be modified")
    owner = _owner(db, order)
    method = _method(owner, payment_method_id)
    history = order.payment_history
    if len(history) > 1 or _first_entry(history)["transaction_type"] != "payment":
        raise ToolError("there should be exactly one payment for a pending order")
    amount, old_id = history[0]["amount"], history[0]["payment_method_id"]
    if old_id == payment_method_id:
        raise ToolError("the new payment method should be different from the current one")
    if rules.gift_card_short(method, amount):
        raise ToolError("insufficient gift card balance to pay for the order")
    history.append({"transaction_type": "payment", "amount": amount, "payment_method_id": payment_method_id})
    history.append({"transaction_type": "refund", "amount": amount, "payment_method_id": old_id})
    if method["source"] == "gift_card":
        method["balance"] = cents(method["balance"] - amount, "published")
    if "gift_card" in old_id:
        old_method = _gift_card_method(owner, old_id)
        old_method["balance"] = cents(old_method["balance"] + amount, "published")
    db.save(owner)
    db.save(order)
    return _dump(order)


def _first_entry(history: list[dict[str, Any]]) -> dict[str, Any]:
    if not history:
        raise ToolError("list index out of range")
    return history[0]


@writes
async def modify_user_address(
    db: Store,
    user_id: UserId,
    address1: Address1,
    address2: Address2,
    city: City,
    state: State,
    country: Country,
    zip: Zip,
) -> str:
    """Change a user's default address. Existing orders keep their own shipping addresses. Confirm
    the full new address with the user first. Returns the updated user."""
    user = db.require(User, user_id, "user not found")
    user.address = _address(address1, address2, city, state, country, zip)
    db.save(user)
    return _dump(user)


@writes
async def exchange_delivered_order_items(
    db: Store,
    order_id: OrderId,
    item_ids: ItemIds,
    new_item_ids: NewItemIds,
    payment_method_id: PaymentMethodId,
) -> str:
    """Request an exchange of items of a delivered order for other available variants of the same
    products. Collect every item to exchange before calling: one order takes one exchange request.
    The price difference will be settled with the given payment method; a gift card must cover any
    extra cost. Confirm the items and the payment method with the user first. Returns the updated
    order; the user will receive instructions for sending the items back."""
    order = _order(db, order_id)
    if not rules.is_delivered(order.status):
        raise ToolError("non-delivered order cannot be exchanged")
    _check_item_counts(order, item_ids)
    difference = cents(_price_difference(db, order, item_ids, new_item_ids), "published")
    method = _method(_owner(db, order), payment_method_id)
    if rules.gift_card_short(method, difference):
        raise ToolError("insufficient gift card balance to pay for the price difference")
    order.status = "delivered (exchange requested)"
    order.exchange_items = sorted(item_ids)
    order.exchange_new_items = sorted(new_item_ids)
    order.exchange_payment_method_id = payment_method_id
    order.exchange_price_difference = difference
    db.save(order)
    return _dump(order)


@writes
async def return_delivered_order_items(
    db: Store, order_id: OrderId, item_ids: ItemIds, payment_method_id: PaymentMethodId
) -> str:
    """Request a return of items of a delivered order. The refund goes to the order's original
    payment method or to one of the user's gift cards. Collect every item to return before calling.
    Confirm the items and the refund method with the user first. Returns the updated order; the user
    will receive instructions for sending the items back."""
    order = _order(db, order_id)
    if not rules.is_delivered(order.status):
        raise ToolError("non-delivered order cannot be returned")
    _method(_owner(db, order), payment_method_id)
    if not rules.refund_target_ok(
        payment_method_id, lambda: _first_entry(order.payment_history)["payment_method_id"]
    ):
        raise ToolError("payment method should be either the original payment method or a gift card")
    _check_item_counts(order, item_ids, "some item not found")
    order.status = "delivered (return requested)"
    order.return_items = sorted(item_ids)
    order.return_payment_method_id = payment_method_id
    db.save(order)
    return _dump(order)


@ends_conversation
async def transfer_to_human_agents(
    db: Store,
    summary: Annotated[str, Field(description="A summary of the user's problem for the human agent.")],
) -> str:
    """Transfer the user to a human agent, with a summary of the problem. Only when the user asks for
    a human or the request cannot be handled with the other tools. Ends the conversation."""
    return "Transfer successful"


TOOLS = [
    calculate,
    cancel_pending_order,
    exchange_delivered_order_items,
    find_user_id_by_email,
    find_user_id_by_name_zip,
    get_order_details,
    get_product_details,
    get_user_details,
    list_all_product_types,
    modify_pending_order_address,
    modify_pending_order_items,
    modify_pending_order_payment,
    modify_user_address,
    return_delivered_order_items,
    think,
    transfer_to_human_agents,
]
