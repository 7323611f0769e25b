"""Retail's seed records as the Tracer reads them (docs/tracer.md): an indexed view, the customers
and the phrasing helpers its intents and policy check share."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.retail.generate import generate
from taue.envs.retail.models import Order, Product, User
from taue.envs.runtime.authoring import Customer, Lookups

Record = dict[str, Any]

NEW_ADDRESSES = (
    ("418 Lakeshore Drive", "Apt 12", "Madison", "WI", "53703"),
    ("77 Copperfield Lane", "", "Boise", "ID", "83702"),
    ("2305 Bramble Street", "Suite 4B", "Raleigh", "NC", "27605"),
    ("9 Heron Point Road", "Unit 3", "Savannah", "GA", "31401"),
    ("1540 Mesa Verde Way", "", "Tucson", "AZ", "85719"),
    ("63 Old Mill Road", "Apt 7", "Burlington", "VT", "05401"),
    ("880 Juniper Court", "", "Eugene", "OR", "97401"),
    ("12 Harbor View Terrace", "Apt 3C", "Portland", "ME", "04101"),
    ("301 Aspen Ridge Road", "", "Fort Collins", "CO", "80521"),
    ("4 Quarry Hill Court", "Apt 2", "Asheville", "NC", "28801"),
    ("5120 Prairie Wind Drive", "", "Lincoln", "NE", "68516"),
    ("28 Tidewater Street", "Unit 9", "Mystic", "CT", "06355"),
)
"""New addresses: even positions are shipping addresses for one order, odd ones default addresses,
so one task never holds the same address under two names."""

PERSONAS = (
    "a busy nurse who shops online between shifts",
    "a graduate student who has just moved across town",
    "a retired teacher who takes time over online shopping",
    "a small-business owner buying supplies for the shop",
    "a parent organising a birthday on a tight budget",
    "a software engineer who wants things done quickly",
    "a college athlete ordering gear for the season",
    "a freelance photographer who travels for work",
    "a first-time online shopper who double-checks everything",
    "a night-shift security guard calling on a break",
    "a home cook upgrading the kitchen",
    "a caregiver ordering for an elderly relative",
)

# ------------------------------------------------------------------------------------------ seed view


@dataclass
class RetailView:
    users: dict[str, Record]
    orders: dict[str, Record]
    products: dict[str, Record]

    def orders_of(self, user_id: str, *statuses: str) -> list[Record]:
        orders = [self.orders[o] for o in self.users[user_id]["orders"]]
        return [o for o in orders if o["status"] in statuses]

    def lookups(self, order: Record) -> Lookups:
        """The owner's orders, in their profile's order, up to the wanted one."""
        ids = self.users[order["user_id"]]["orders"]
        return Lookups(tuple(ids[: ids.index(order["order_id"]) + 1]))

    def methods(self, user_id: str, *sources: str) -> list[Record]:
        methods = self.users[user_id]["payment_methods"]
        return [methods[k] for k in sorted(methods) if methods[k]["source"] in sources]

    def original_method(self, order: Record) -> Record:
        return self.users[order["user_id"]]["payment_methods"][
            order["payment_history"][0]["payment_method_id"]
        ]

    def variant_swap(self, order: Record, rng: random.Random) -> tuple[Record, Record] | None:
        """An item of the order (its id once in it) and an available variant differing in one option."""
        counts = [item["item_id"] for item in order["items"]]
        options = []
        for item in order["items"]:
            if counts.count(item["item_id"]) != 1:
                continue
            for item_id, variant in sorted(self.products[item["product_id"]]["variants"].items()):
                changed = [k for k in variant["options"] if variant["options"][k] != item["options"].get(k)]
                if variant["available"] and item_id != item["item_id"] and len(changed) == 1:
                    options.append((item, variant))
        return rng.choice(options) if options else None

    @cached_property
    def name_zip_counts(self) -> dict[tuple[str, str, str], int]:
        counts: dict[tuple[str, str, str], int] = {}
        for user in self.users.values():
            key = _name_zip(user)
            counts[key] = counts.get(key, 0) + 1
        return counts


def load(seed: int) -> RetailView:
    rows = generate(seed)
    return RetailView(
        users={r.user_id: r.to_record() for r in rows if isinstance(r, User)},
        orders={r.order_id: r.to_record() for r in rows if isinstance(r, Order)},
        products={r.product_id: r.to_record() for r in rows if isinstance(r, Product)},
    )


def _name_zip(user: Record) -> tuple[str, str, str]:
    return (user["name"]["first_name"].lower(), user["name"]["last_name"].lower(), user["address"]["zip"])


def customers(view: RetailView) -> list[Customer]:
    result = []
    for index, (user_id, user) in enumerate(sorted(view.users.items())):
        name = f"{user['name']['first_name']} {user['name']['last_name']}"
        if index % 3 == 2 and view.name_zip_counts[_name_zip(user)] == 1:
            known = {
                "first_name": user["name"]["first_name"],
                "last_name": user["name"]["last_name"],
                "zip": user["address"]["zip"],
            }
            first = Action(name="find_user_id_by_name_zip", arguments=known)
        else:
            known = {"email": user["email"]}
            first = Action(name="find_user_id_by_email", arguments=known)
        identity = (first, Action(name="get_user_details", arguments={"user_id": user_id}))
        result.append(Customer(user_id, name, identity, known, {"user_id": user_id}))
    return result


# ------------------------------------------------------------------------------------------- phrasing


def describe_item(item: Record) -> str:
    options = ", ".join(f"{key}: {value}" for key, value in item["options"].items())
    return f"{item['name']} ({options})"


def describe_change(item: Record, variant: Record) -> str:
    changes = [
        f"{key} {value} instead of {item['options'][key]}"
        for key, value in variant["options"].items()
        if item["options"].get(key) != value
    ]
    return f"the same {item['name']} but {' and '.join(changes)}"


def describe_method(method: Record) -> str:
    if method["source"] == "credit_card":
        return f"{method['brand'].title()} credit card ending in {method['last_four']}"
    return "gift card" if method["source"] == "gift_card" else "PayPal account"


def listed(names: list[str]) -> str:
    names = list(dict.fromkeys(names))
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def order_words(order: Record) -> str:
    return f"the order with {listed([i['name'] for i in order['items']])}"


def address_arguments(rng: random.Random, pool: tuple[tuple[str, ...], ...]) -> tuple[dict[str, str], str]:
    address1, address2, city, state, zip_code = rng.choice(pool)
    arguments = {
        "address1": address1,
        "address2": address2,
        "city": city,
        "state": state,
        "country": "USA",
        "zip": zip_code,
    }
    unit = f" {address2}" if address2 else ""
    return arguments, f"{address1}{unit}, {city}, {state} {zip_code}, USA"
