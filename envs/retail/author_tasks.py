"""Write `envs/retail/tasks.json`: 20 hand-designed emotional retail tasks and their neutral twins.

Run `python -m taue.envs.retail.author_tasks`. Every task is built from concrete entities of the seed
database (seed 0): each task function states what kind of customer it needs, the first customer (in
user-id order) who fits and is not used by another task is taken, and the gold actions, the facts
and the expected outputs are computed from that customer's records.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taue.contracts.tasks import (
    Action,
    Emotion,
    Evaluation,
    Goal,
    Provenance,
    Task,
    UserScenario,
    neutral_twin,
)
from taue.envs.retail.generate import generate
from taue.envs.retail.models import Order, Product, User
from taue.envs.runtime.goal_targets import attach_targets

TASKS_PATH = Path(__file__).with_name("tasks.json")
SEED = 0
Record = dict[str, Any]

NEW_ADDRESSES = [
    {
        "address1": "418 Lakeshore Drive",
        "address2": "Apt 12",
        "city": "Madison",
        "country": "USA",
        "state": "WI",
        "zip": "53703",
    },
    {
        "address1": "77 Copperfield Lane",
        "address2": "",
        "city": "Boise",
        "country": "USA",
        "state": "ID",
        "zip": "83702",
    },
    {
        "address1": "2305 Bramble Street",
        "address2": "Suite 4B",
        "city": "Raleigh",
        "country": "USA",
        "state": "NC",
        "zip": "27605",
    },
    {
        "address1": "9 Heron Point Road",
        "address2": "Unit 3",
        "city": "Savannah",
        "country": "USA",
        "state": "GA",
        "zip": "31401",
    },
    {
        "address1": "1540 Mesa Verde Way",
        "address2": "",
        "city": "Tucson",
        "country": "USA",
        "state": "AZ",
        "zip": "85719",
    },
    {
        "address1": "63 Old Mill Road",
        "address2": "Apt 7",
        "city": "Burlington",
        "country": "USA",
        "state": "VT",
        "zip": "05401",
    },
]


def act(name: str, **arguments: Any) -> Action:
    return Action(name=name, arguments=arguments)


def money(value: float) -> str:
    """An amount as a customer would hear it: two decimals at most, no trailing zeros, no commas."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


# ------------------------------------------------------------------------------------------ seed data


class Seed:
    """The seed records of the retail domain, with the look-ups task functions need."""

    def __init__(self, seed: int) -> None:
        rows = generate(seed)
        self.users = {r.user_id: r.to_record() for r in rows if isinstance(r, User)}
        self.orders = {r.order_id: r.to_record() for r in rows if isinstance(r, Order)}
        self.products = {r.product_id: r.to_record() for r in rows if isinstance(r, Product)}
        self.used: set[str] = set()

    def pick(self, plan: Callable[[str], Record | None]) -> Record:
        """The plan of the first unused user (in user-id order) for whom `plan` finds one."""
        for user_id in sorted(self.users):
            if user_id in self.used:
                continue
            found = plan(user_id)
            if found is not None:
                self.used.add(user_id)
                return {"user_id": user_id, "user": self.users[user_id], **found}
        raise LookupError(f"no seed user fits {plan.__name__}")

    def orders_of(self, user_id: str, status: str) -> list[Record]:
        return [self.orders[o] for o in self.users[user_id]["orders"] if self.orders[o]["status"] == status]

    def swaps(self, order: Record, count: int = 1) -> list[tuple[Record, Record]] | None:
        """`count` (item, available variant differing in exactly one option) pairs of distinct items."""
        item_ids = [item["item_id"] for item in order["items"]]
        pairs = []
        for item in order["items"]:
            if item_ids.count(item["item_id"]) > 1 or any(item["item_id"] == i["item_id"] for i, _ in pairs):
                continue
            variant = self._one_option_variant(item)
            if variant is not None:
                pairs.append((item, variant))
            if len(pairs) == count:
                return pairs
        return None

    def _one_option_variant(self, item: Record) -> Record | None:
        variants = self.products[item["product_id"]]["variants"]
        for item_id in sorted(variants):
            variant = variants[item_id]
            differing = [k for k in variant["options"] if variant["options"][k] != item["options"].get(k)]
            if variant["available"] and item_id != item["item_id"] and len(differing) == 1:
                return variant
        return None

    def methods(self, user_id: str, source: str) -> list[Record]:
        return [m for m in self.users[user_id]["payment_methods"].values() if m["source"] == source]

    def name_zip_unique(self, user_id: str) -> bool:
        user = self.users[user_id]
        key = (user["name"]["first_name"].lower(), user["name"]["last_name"].lower(), user["address"]["zip"])
        return [
            uid
            for uid, u in sorted(self.users.items())
            if (u["name"]["first_name"].lower(), u["name"]["last_name"].lower(), u["address"]["zip"]) == key
        ] == [user_id]


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
    if method["source"] == "gift_card":
        return "gift card"
    return "PayPal account"


def original_method(seed: Seed, order: Record) -> Record:
    user = seed.users[order["user_id"]]
    return user["payment_methods"][order["payment_history"][0]["payment_method_id"]]


def price_difference(pairs: list[tuple[Record, Record]]) -> float:
    difference: float = 0
    for item, variant in pairs:
        difference += variant["price"] - item["price"]
    return difference


def ids(pairs: list[tuple[Record, Record]]) -> tuple[list[str], list[str]]:
    return [item["item_id"] for item, _ in pairs], [variant["item_id"] for _, variant in pairs]


def joined(values: list[str]) -> str:
    return " and ".join(values)


def listed(names: list[str]) -> str:
    """Names as a sentence would list them: 'a, b and c'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# ------------------------------------------------------------------------------------------- drafting


@dataclass
class Draft:
    """One task before it gets its id and emotion."""

    persona: str
    reason: str
    instruction: str
    known: dict[str, str]
    volunteered: list[str]
    unknown: list[str]
    discoverable: dict[str, str]
    goals: list[Goal]
    actions: list[Action]
    outputs: list[str] = field(default_factory=list)
    preferences: list[str] = field(default_factory=list)


def identify(plan: Record, by: str) -> tuple[list[Action], dict[str, str]]:
    """Gold actions that authenticate the user and read their profile, and the facts the user knows."""
    user, user_id = plan["user"], plan["user_id"]
    if by == "email":
        known = {"email": user["email"]}
        first = act("find_user_id_by_email", email=user["email"])
    else:
        name = user["name"]
        known = {
            "first_name": name["first_name"],
            "last_name": name["last_name"],
            "zip": user["address"]["zip"],
        }
        first = act("find_user_id_by_name_zip", **known)
    return [first, act("get_user_details", user_id=user_id)], known


def full_name(plan: Record) -> str:
    return f"{plan['user']['name']['first_name']} {plan['user']['name']['last_name']}"


def address_text(address: Record) -> str:
    unit = f" {address['address2']}" if address["address2"] else ""
    place = f"{address['city']} {address['state']} {address['zip']} {address['country']}"
    return f"{address['address1']}{unit} {place}"


def goal(goal_id: str, request: str, *evidence: str, kind: str = "action") -> Goal:
    # Unvalidated: `build` gives each action goal its target (the gold write) before the task is made.
    return Goal.model_construct(id=goal_id, kind=kind, request=request, evidence=list(evidence))


# ---------------------------------------------------------------------------------------------- tasks
# Each task function picks its customer with a `plan` and returns the task's draft.


def t01_cancel_and_return(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        pending = seed.orders_of(user_id, "pending")
        delivered = [
            o
            for o in seed.orders_of(user_id, "delivered")
            if len({i["item_id"] for i in o["items"]}) >= 2
            and original_method(seed, o)["source"] != "gift_card"
        ]
        return {"a": pending[0], "b": delivered[0]} if pending and delivered else None

    p = seed.pick(plan)
    a, b = p["a"], p["b"]
    item, method = b["items"][0], original_method(seed, b)
    reads, known = identify(p, "email")
    cancel_items = listed([i["name"] for i in a["items"]])
    return Draft(
        persona=f"{full_name(p)}, a busy nurse who shops online between shifts.",
        reason="Cancel an order placed by mistake and return one item of a delivered order.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). You ordered {cancel_items} by mistake and "
            "want that order cancelled; the reason is that it was ordered by mistake. You also want to "
            f"return the {describe_item(item)} from a delivered order, with the refund going back to the "
            f"{describe_method(method)} you paid with. You do not know any order ids."
        ),
        known={
            **known,
            "reason": "ordered by mistake",
            "order_to_cancel": f"the order with {cancel_items}",
            "item_to_return": describe_item(item),
            "refund_to": describe_method(method),
        },
        volunteered=["email"],
        unknown=["order ids"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": f"{a['order_id']} and {b['order_id']}",
            "item_ids": item["item_id"],
            "payment_method_id": method["id"],
        },
        goals=[
            goal(
                "cancel",
                f"Please cancel my order with {cancel_items}; I ordered it by mistake.",
                a["order_id"],
            ),
            goal(
                "return", f"I also want to return the {item['name']} to my original payment.", b["order_id"]
            ),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=a["order_id"]),
            act("get_order_details", order_id=b["order_id"]),
            act("cancel_pending_order", order_id=a["order_id"], reason="ordered by mistake"),
            act(
                "return_delivered_order_items",
                order_id=b["order_id"],
                item_ids=[item["item_id"]],
                payment_method_id=method["id"],
            ),
        ],
    )


def t02_swap_item_and_reroute(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        cards = seed.methods(user_id, "gift_card")
        for order in seed.orders_of(user_id, "pending"):
            pairs = seed.swaps(order)
            if cards and pairs and cards[0]["balance"] >= price_difference(pairs):
                return {"a": order, "pairs": pairs, "card": cards[0]}
        return None

    p = seed.pick(plan)
    a, (item, variant), card, new = p["a"], p["pairs"][0], p["card"], NEW_ADDRESSES[0]
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, a graduate student who has just moved across town.",
        reason="A pending order must go to the new address, and one item should be a different variant.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). Your pending order with the "
            f"{describe_item(item)} is still set to ship to your old address. Have it shipped to "
            f"{address_text(new)} instead, and change that item to {describe_change(item, variant)}. Pay "
            "any difference with your gift card. You do not know the order id."
        ),
        known={
            **known,
            "item_to_change": describe_item(item),
            "wanted_change": describe_change(item, variant),
            "pay_with": "gift card",
            **new,
        },
        volunteered=["email", "address1"],
        unknown=["order id"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": a["order_id"],
            "product_id": item["product_id"],
            "item_ids": item["item_id"],
            "new_item_ids": variant["item_id"],
            "payment_method_id": card["id"],
        },
        goals=[
            goal("address", f"Ship my pending order to {address_text(new)}.", a["order_id"], new["address1"]),
            goal("swap", f"Change the {item['name']} to {describe_change(item, variant)}.", a["order_id"]),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=a["order_id"]),
            act("get_product_details", product_id=item["product_id"]),
            act(
                "modify_pending_order_items",
                order_id=a["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=card["id"],
            ),
            act("modify_pending_order_address", order_id=a["order_id"], **new),
        ],
    )


def t03_exchange_with_price(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        cards = seed.methods(user_id, "credit_card")
        for order in seed.orders_of(user_id, "delivered"):
            pairs = seed.swaps(order)
            if cards and pairs and abs(round(price_difference(pairs), 2)) >= 1:
                return {"b": order, "pairs": pairs, "card": cards[0]}
        return None

    p = seed.pick(plan)
    b, (item, variant), card = p["b"], p["pairs"][0], p["card"]
    difference = money(abs(round(price_difference(p["pairs"]), 2)))
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, a retired teacher who takes her time with online shopping.",
        reason="Exchange a delivered item for another variant and learn the price difference.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). The {describe_item(item)} you received is "
            f"not right; you want to exchange it for {describe_change(item, variant)}. Ask how much the "
            f"price difference is, and settle it with your {describe_method(card)}."
        ),
        known={
            **known,
            "item_to_exchange": describe_item(item),
            "wanted_change": describe_change(item, variant),
            "pay_with": describe_method(card),
        },
        volunteered=["email", "item_to_exchange"],
        unknown=["order id", "price difference"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": b["order_id"],
            "product_id": item["product_id"],
            "item_ids": item["item_id"],
            "new_item_ids": variant["item_id"],
            "payment_method_id": card["id"],
        },
        goals=[
            goal(
                "difference",
                "How much is the price difference for the new one?",
                difference,
                kind="information",
            ),
            goal("exchange", f"Please exchange the {item['name']}.", b["order_id"]),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=b["order_id"]),
            act("get_product_details", product_id=item["product_id"]),
            act(
                "exchange_delivered_order_items",
                order_id=b["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=card["id"],
            ),
        ],
        outputs=[difference],
    )


def t04_moved_house(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        pending = seed.orders_of(user_id, "pending")
        for order in seed.orders_of(user_id, "delivered"):
            pairs, method = seed.swaps(order), original_method(seed, order)
            if pending and pairs and method["source"] != "gift_card":
                return {"a": pending[0], "b": order, "pairs": pairs, "method": method}
        return None

    p = seed.pick(plan)
    a, b, (item, variant), method, new = p["a"], p["b"], p["pairs"][0], p["method"], NEW_ADDRESSES[1]
    reads, known = identify(p, "email")
    pending_items = listed([i["name"] for i in a["items"]])
    return Draft(
        persona=f"{full_name(p)}, a software developer who has just bought a first home.",
        reason="New home: update the account and pending order addresses; exchange a delivered item.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). You moved to {address_text(new)}. Update "
            f"your account address and make your pending order with {pending_items} ship there too. Also "
            f"exchange the {describe_item(item)} you received for {describe_change(item, variant)}, paying "
            f"any difference with the {describe_method(method)} you used for that order."
        ),
        known={
            **known,
            **new,
            "pending_order": f"the order with {pending_items}",
            "item_to_exchange": describe_item(item),
            "wanted_change": describe_change(item, variant),
            "pay_with": describe_method(method),
        },
        volunteered=["email"],
        unknown=["order ids"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": f"{a['order_id']} and {b['order_id']}",
            "product_id": item["product_id"],
            "item_ids": item["item_id"],
            "new_item_ids": variant["item_id"],
            "payment_method_id": method["id"],
        },
        goals=[
            goal("profile", f"Please change my address to {address_text(new)}.", new["address1"]),
            goal("reroute", "Send my pending order to the new address too.", a["order_id"]),
            goal("exchange", f"And I'd like to exchange the {item['name']}.", b["order_id"]),
        ],
        actions=[
            *reads,
            act("modify_user_address", user_id=p["user_id"], **new),
            act("get_order_details", order_id=a["order_id"]),
            act("modify_pending_order_address", order_id=a["order_id"], **new),
            act("get_order_details", order_id=b["order_id"]),
            act("get_product_details", product_id=item["product_id"]),
            act(
                "exchange_delivered_order_items",
                order_id=b["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=method["id"],
            ),
        ],
    )


def t05_return_two_to_gift_card(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        cards = seed.methods(user_id, "gift_card")
        for order in seed.orders_of(user_id, "delivered"):
            distinct = list({i["item_id"]: i for i in order["items"]}.values())
            if cards and len(distinct) >= 2 and seed.name_zip_unique(user_id):
                return {"b": order, "items": distinct[:2], "card": cards[0]}
        return None

    p = seed.pick(plan)
    b, (first, second), card = p["b"], p["items"], p["card"]
    total = money(round(first["price"] + second["price"], 2))
    reads, known = identify(p, "name_zip")
    return Draft(
        persona=f"{full_name(p)}, a restaurant owner with little time and high standards.",
        reason="Return two delivered items to the gift card and learn the refund total.",
        instruction=(
            f"You are {full_name(p)}, zip code {known['zip']}; you do not remember which email you used. "
            f"Return the {describe_item(first)} and the {describe_item(second)} from your delivered order. "
            "The refund must go to your gift card. Ask how much you will get back in total."
        ),
        known={
            **known,
            "items_to_return": f"{describe_item(first)} and {describe_item(second)}",
            "refund_to": "gift card",
        },
        volunteered=["first_name", "last_name"],
        unknown=["email", "order id", "item prices"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": b["order_id"],
            "item_ids": f"{first['item_id']} and {second['item_id']}",
            "payment_method_id": card["id"],
        },
        goals=[
            goal(
                "return",
                f"Return the {first['name']} and the {second['name']} to my gift card.",
                b["order_id"],
            ),
            goal("total", "How much will be refunded in total?", total, kind="information"),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=b["order_id"]),
            act(
                "return_delivered_order_items",
                order_id=b["order_id"],
                item_ids=[first["item_id"], second["item_id"]],
                payment_method_id=card["id"],
            ),
            act("calculate", expression=f"{first['price']} + {second['price']}"),
        ],
        outputs=[total],
    )


def t06_paypal_and_swap(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        paypal = seed.methods(user_id, "paypal")
        for order in seed.orders_of(user_id, "pending"):
            pairs = seed.swaps(order)
            if paypal and pairs and order["payment_history"][0]["payment_method_id"] != paypal[0]["id"]:
                return {"a": order, "pairs": pairs, "paypal": paypal[0]}
        return None

    p = seed.pick(plan)
    a, (item, variant), paypal = p["a"], p["pairs"][0], p["paypal"]
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, a freelance photographer who keeps business spending on PayPal.",
        reason="Move a pending order to PayPal and change one of its items to another variant.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). Your pending order {a['order_id']} should be "
            "paid with your PayPal account instead of the current method. In the same order, change the "
            f"{describe_item(item)} to {describe_change(item, variant)}; any difference also goes through "
            "PayPal."
        ),
        known={
            **known,
            "order_id": a["order_id"],
            "pay_with": "PayPal account",
            "item_to_change": describe_item(item),
            "wanted_change": describe_change(item, variant),
        },
        volunteered=["email", "order_id"],
        unknown=["payment method ids"],
        discoverable={
            "user_id": p["user_id"],
            "payment_method_id": paypal["id"],
            "product_id": item["product_id"],
            "item_ids": item["item_id"],
            "new_item_ids": variant["item_id"],
        },
        goals=[
            goal("payment", f"Switch order {a['order_id']} to my PayPal.", a["order_id"]),
            goal("swap", f"Change the {item['name']} to {describe_change(item, variant)}.", a["order_id"]),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=a["order_id"]),
            act("modify_pending_order_payment", order_id=a["order_id"], payment_method_id=paypal["id"]),
            act("get_product_details", product_id=item["product_id"]),
            act(
                "modify_pending_order_items",
                order_id=a["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=paypal["id"],
            ),
        ],
    )


def t07_cancel_then_swap_on_gift_card(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        if not seed.name_zip_unique(user_id):
            return None
        pending = seed.orders_of(user_id, "pending")
        for a in pending:
            method = original_method(seed, a)
            if method["source"] != "gift_card":
                continue
            balance = round(method["balance"] + a["payment_history"][0]["amount"], 2)
            for b in pending:
                pairs = seed.swaps(b) if b is not a else None
                if pairs and balance >= price_difference(pairs):
                    return {"a": a, "b": b, "pairs": pairs, "card": method, "balance": balance}
        return None

    p = seed.pick(plan)
    a, b, (item, variant), card = p["a"], p["b"], p["pairs"][0], p["card"]
    final = money(round(p["balance"] - price_difference(p["pairs"]), 2))
    reads, known = identify(p, "name_zip")
    cancel_items = listed([i["name"] for i in a["items"]])
    return Draft(
        persona=f"{full_name(p)}, a careful saver who pays for most things with a gift card.",
        reason="Cancel one pending order, change an item in another, and learn the gift card balance.",
        instruction=(
            f"You are {full_name(p)}, zip code {known['zip']}. Cancel your pending order with "
            f"{cancel_items}: you ordered it by mistake. Then, in your other pending order, change the "
            f"{describe_item(item)} to {describe_change(item, variant)} and use your gift card for any "
            "difference. At the end ask what your gift card balance is."
        ),
        known={
            **known,
            "reason": "ordered by mistake",
            "order_to_cancel": f"the order with {cancel_items}",
            "item_to_change": describe_item(item),
            "wanted_change": describe_change(item, variant),
            "pay_with": "gift card",
        },
        volunteered=["first_name", "last_name", "zip"],
        unknown=["email", "order ids", "gift card balance"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": f"{a['order_id']} and {b['order_id']}",
            "product_id": item["product_id"],
            "item_ids": item["item_id"],
            "new_item_ids": variant["item_id"],
            "payment_method_id": card["id"],
        },
        goals=[
            goal("cancel", f"Cancel the order with {cancel_items}; it was a mistake.", a["order_id"]),
            goal("swap", f"Change the {item['name']} in my other order.", b["order_id"]),
            goal("balance", "What is my gift card balance now?", final, kind="information"),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=a["order_id"]),
            act("cancel_pending_order", order_id=a["order_id"], reason="ordered by mistake"),
            act("get_order_details", order_id=b["order_id"]),
            act("get_product_details", product_id=item["product_id"]),
            act(
                "modify_pending_order_items",
                order_id=b["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=card["id"],
            ),
            act("get_user_details", user_id=p["user_id"]),
        ],
        outputs=[final],
    )


def t08_exchange_two_items(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        methods = seed.methods(user_id, "paypal") + seed.methods(user_id, "credit_card")
        if not methods or not seed.name_zip_unique(user_id):
            return None
        for order in seed.orders_of(user_id, "delivered"):
            pairs = seed.swaps(order, 2)
            if pairs and abs(round(price_difference(pairs), 2)) >= 1:
                return {"b": order, "pairs": pairs, "method": methods[0]}
        return None

    p = seed.pick(plan)
    b, pairs, method = p["b"], p["pairs"], p["method"]
    (first, new_first), (second, new_second) = pairs
    difference = money(abs(round(price_difference(pairs), 2)))
    old_ids, new_ids = ids(pairs)
    reads, known = identify(p, "name_zip")
    return Draft(
        persona=f"{full_name(p)}, who rarely shops online and finds it confusing.",
        reason="Exchange two items of a delivered order for other variants and learn the price difference.",
        instruction=(
            f"You are {full_name(p)}, zip code {known['zip']}. From your delivered order you want to "
            f"exchange the {describe_item(first)} for {describe_change(first, new_first)} and the "
            f"{describe_item(second)} for {describe_change(second, new_second)}. Use your "
            f"{describe_method(method)} for any difference and ask what the difference comes to."
        ),
        known={
            **known,
            "items_to_exchange": f"{describe_item(first)} and {describe_item(second)}",
            "wanted_changes": f"{describe_change(first, new_first)}; {describe_change(second, new_second)}",
            "pay_with": describe_method(method),
        },
        volunteered=["first_name", "last_name"],
        unknown=["email", "order id", "price difference"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": b["order_id"],
            "product_id": joined([first["product_id"], second["product_id"]]),
            "item_ids": joined(old_ids),
            "new_item_ids": joined(new_ids),
            "payment_method_id": method["id"],
        },
        goals=[
            goal("exchange", f"Exchange the {first['name']} and the {second['name']}.", b["order_id"]),
            goal("difference", "What is the price difference?", difference, kind="information"),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=b["order_id"]),
            act("get_product_details", product_id=first["product_id"]),
            act("get_product_details", product_id=second["product_id"]),
            act(
                "exchange_delivered_order_items",
                order_id=b["order_id"],
                item_ids=old_ids,
                new_item_ids=new_ids,
                payment_method_id=method["id"],
            ),
        ],
        outputs=[difference],
    )


def t09_two_swaps_and_address(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        cards = seed.methods(user_id, "credit_card")
        for order in seed.orders_of(user_id, "pending"):
            pairs = seed.swaps(order, 2)
            if cards and pairs:
                return {"a": order, "pairs": pairs, "card": cards[0]}
        return None

    p = seed.pick(plan)
    a, pairs, card, new = p["a"], p["pairs"], p["card"], NEW_ADDRESSES[2]
    (first, new_first), (second, new_second) = pairs
    old_ids, new_ids = ids(pairs)
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, a parent getting ready for a family holiday.",
        reason="Change two items of a pending order and send it to a holiday rental address.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). In your pending order {a['order_id']}, "
            f"change the {describe_item(first)} to {describe_change(first, new_first)} and the "
            f"{describe_item(second)} to {describe_change(second, new_second)}, paying any difference with "
            f"your {describe_method(card)}. Then have the order shipped to {address_text(new)}."
        ),
        known={
            **known,
            "order_id": a["order_id"],
            "items_to_change": f"{describe_item(first)} and {describe_item(second)}",
            "wanted_changes": f"{describe_change(first, new_first)}; {describe_change(second, new_second)}",
            "pay_with": describe_method(card),
            **new,
        },
        volunteered=["email", "order_id"],
        unknown=["item ids"],
        discoverable={
            "user_id": p["user_id"],
            "item_ids": joined(old_ids),
            "new_item_ids": joined(new_ids),
            "payment_method_id": card["id"],
            "product_id": joined([first["product_id"], second["product_id"]]),
        },
        goals=[
            goal("swap", f"Change the {first['name']} and the {second['name']}.", a["order_id"]),
            goal("address", f"Ship the order to {address_text(new)}.", a["order_id"], new["address1"]),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=a["order_id"]),
            act("get_product_details", product_id=first["product_id"]),
            act("get_product_details", product_id=second["product_id"]),
            act(
                "modify_pending_order_items",
                order_id=a["order_id"],
                item_ids=old_ids,
                new_item_ids=new_ids,
                payment_method_id=card["id"],
            ),
            act("modify_pending_order_address", order_id=a["order_id"], **new),
        ],
    )


def t10_return_all_and_cancel(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        pending, delivered = seed.orders_of(user_id, "pending"), seed.orders_of(user_id, "delivered")
        if pending and delivered and seed.name_zip_unique(user_id):
            return {"a": pending[0], "b": delivered[0], "method": original_method(seed, delivered[0])}
        return None

    p = seed.pick(plan)
    a, b, method = p["a"], p["b"], p["method"]
    all_ids = [i["item_id"] for i in b["items"]]
    delivered_items = listed([i["name"] for i in b["items"]])
    pending_items = listed([i["name"] for i in a["items"]])
    reads, known = identify(p, "name_zip")
    return Draft(
        persona=f"{full_name(p)}, a contractor who is done with this store.",
        reason="Return everything from a delivered order and cancel a pending order.",
        instruction=(
            f"You are {full_name(p)}, zip code {known['zip']}. Return everything in your delivered order "
            f"({delivered_items}) with the refund going to the {describe_method(method)} you paid with, and "
            f"cancel your pending order with {pending_items} because you no longer need it."
        ),
        known={
            **known,
            "delivered_order": f"the order with {delivered_items}",
            "refund_to": describe_method(method),
            "order_to_cancel": f"the order with {pending_items}",
            "reason": "no longer needed",
        },
        volunteered=["first_name", "last_name", "zip"],
        unknown=["email", "order ids"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": f"{b['order_id']} and {a['order_id']}",
            "item_ids": joined(all_ids),
            "payment_method_id": method["id"],
        },
        goals=[
            goal("return", "Return the whole delivered order to my original payment.", b["order_id"]),
            goal("cancel", "Cancel my pending order; I no longer need it.", a["order_id"]),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=b["order_id"]),
            act(
                "return_delivered_order_items",
                order_id=b["order_id"],
                item_ids=all_ids,
                payment_method_id=method["id"],
            ),
            act("get_order_details", order_id=a["order_id"]),
            act("cancel_pending_order", order_id=a["order_id"], reason="no longer needed"),
        ],
    )


def t11_exchange_and_return(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        delivered = seed.orders_of(user_id, "delivered")
        for b1 in delivered:
            pairs, method = seed.swaps(b1), original_method(seed, b1)
            others = [o for o in delivered if o is not b1]
            if pairs and others and method["source"] != "gift_card":
                return {"b1": b1, "b2": others[0], "pairs": pairs, "method": method}
        return None

    p = seed.pick(plan)
    b1, b2, (item, variant), method = p["b1"], p["b2"], p["pairs"][0], p["method"]
    returned, return_method = b2["items"][0], original_method(seed, b2)
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, an interior designer with a sharp eye.",
        reason="Exchange an item from one delivered order and return an item from another.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). Exchange the {describe_item(item)} you "
            f"received for {describe_change(item, variant)}, settling any difference with the "
            f"{describe_method(method)} used for that order. From a different delivered order, return the "
            f"{describe_item(returned)} with the refund going to the original payment method of that order."
        ),
        known={
            **known,
            "item_to_exchange": describe_item(item),
            "wanted_change": describe_change(item, variant),
            "pay_with": describe_method(method),
            "item_to_return": describe_item(returned),
            "refund_to": "original payment method",
        },
        volunteered=["email"],
        unknown=["order ids"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": f"{b1['order_id']} and {b2['order_id']}",
            "product_id": item["product_id"],
            "item_ids": f"{item['item_id']} and {returned['item_id']}",
            "new_item_ids": variant["item_id"],
            "payment_method_id": f"{method['id']} and {return_method['id']}",
        },
        goals=[
            goal("exchange", f"Exchange the {item['name']}.", b1["order_id"]),
            goal("return", f"Return the {returned['name']} from my other order.", b2["order_id"]),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=b1["order_id"]),
            act("get_product_details", product_id=item["product_id"]),
            act(
                "exchange_delivered_order_items",
                order_id=b1["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=method["id"],
            ),
            act("get_order_details", order_id=b2["order_id"]),
            act(
                "return_delivered_order_items",
                order_id=b2["order_id"],
                item_ids=[returned["item_id"]],
                payment_method_id=return_method["id"],
            ),
        ],
    )


def t12_gift_card_payment_and_exchange(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        cards = seed.methods(user_id, "gift_card")
        pending = [
            o
            for o in seed.orders_of(user_id, "pending")
            if cards
            and original_method(seed, o)["source"] != "gift_card"
            and cards[0]["balance"] >= o["payment_history"][0]["amount"]
        ]
        for b in seed.orders_of(user_id, "delivered"):
            pairs, method = seed.swaps(b), original_method(seed, b)
            if pending and pairs and method["source"] != "gift_card":
                return {"a": pending[0], "b": b, "pairs": pairs, "card": cards[0], "method": method}
        return None

    p = seed.pick(plan)
    a, b, (item, variant), card, method = p["a"], p["b"], p["pairs"][0], p["card"], p["method"]
    balance = money(round(card["balance"] - a["payment_history"][0]["amount"], 2))
    reads, known = identify(p, "email")
    pending_items = listed([i["name"] for i in a["items"]])
    return Draft(
        persona=f"{full_name(p)}, an accountant who worries about double charges.",
        reason="Pay a pending order by gift card, learn the balance left, and exchange a delivered item.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). You want your pending order with "
            f"{pending_items} to be paid with your gift card instead of the current method, and you want to "
            "know how much will be left on the gift card afterwards. Also exchange the "
            f"{describe_item(item)} from a delivered order for {describe_change(item, variant)}, using the "
            f"{describe_method(method)} you paid that order with for any difference."
        ),
        known={
            **known,
            "pending_order": f"the order with {pending_items}",
            "pay_with": "gift card",
            "item_to_exchange": describe_item(item),
            "wanted_change": describe_change(item, variant),
            "exchange_pay_with": describe_method(method),
        },
        volunteered=["email"],
        unknown=["order ids", "gift card balance"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": f"{a['order_id']} and {b['order_id']}",
            "payment_method_id": f"{card['id']} and {method['id']}",
            "product_id": item["product_id"],
            "item_ids": item["item_id"],
            "new_item_ids": variant["item_id"],
        },
        goals=[
            goal("payment", "Pay my pending order with my gift card instead.", a["order_id"]),
            goal("balance", "How much will be left on my gift card?", balance, kind="information"),
            goal("exchange", f"Exchange the {item['name']}.", b["order_id"]),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=a["order_id"]),
            act("modify_pending_order_payment", order_id=a["order_id"], payment_method_id=card["id"]),
            act("get_user_details", user_id=p["user_id"]),
            act("get_order_details", order_id=b["order_id"]),
            act("get_product_details", product_id=item["product_id"]),
            act(
                "exchange_delivered_order_items",
                order_id=b["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=method["id"],
            ),
        ],
        outputs=[balance],
    )


def t13_profile_address_and_swap(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        methods = seed.methods(user_id, "paypal") + seed.methods(user_id, "credit_card")
        for order in seed.orders_of(user_id, "pending"):
            pairs = seed.swaps(order)
            if methods and pairs and abs(round(price_difference(pairs), 2)) >= 1:
                return {"a": order, "pairs": pairs, "method": methods[0]}
        return None

    p = seed.pick(plan)
    a, (item, variant), method, new = p["a"], p["pairs"][0], p["method"], NEW_ADDRESSES[3]
    difference = money(abs(round(variant["price"] - item["price"], 2)))
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, a nurse who relocated for a new job.",
        reason="Update the account address and change one item of a pending order, learning the difference.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). Update your account address to "
            f"{address_text(new)}; your pending order can keep its current shipping address. In that "
            f"pending order, change the {describe_item(item)} to {describe_change(item, variant)}, paying "
            f"or receiving the difference on your {describe_method(method)}, and ask how big the difference "
            "is."
        ),
        known={
            **known,
            **new,
            "item_to_change": describe_item(item),
            "wanted_change": describe_change(item, variant),
            "pay_with": describe_method(method),
        },
        volunteered=["email"],
        unknown=["order id", "price difference"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": a["order_id"],
            "product_id": item["product_id"],
            "item_ids": item["item_id"],
            "new_item_ids": variant["item_id"],
            "payment_method_id": method["id"],
        },
        goals=[
            goal("profile", f"Change my account address to {address_text(new)}.", new["address1"]),
            goal("difference", "How much is the price difference?", difference, kind="information"),
            goal("swap", f"Change the {item['name']} in my pending order.", a["order_id"]),
        ],
        actions=[
            *reads,
            act("modify_user_address", user_id=p["user_id"], **new),
            act("get_order_details", order_id=a["order_id"]),
            act("get_product_details", product_id=item["product_id"]),
            act("calculate", expression=f"{variant['price']} - {item['price']}"),
            act(
                "modify_pending_order_items",
                order_id=a["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=method["id"],
            ),
        ],
        outputs=[difference],
    )


def t14_gift_exchange_and_tracking(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        cards, processed = seed.methods(user_id, "gift_card"), seed.orders_of(user_id, "processed")
        if not cards or not processed or not seed.name_zip_unique(user_id):
            return None
        for order in seed.orders_of(user_id, "delivered"):
            pairs = seed.swaps(order)
            if pairs and cards[0]["balance"] >= round(price_difference(pairs), 2):
                return {"b": order, "c": processed[0], "pairs": pairs, "card": cards[0]}
        return None

    p = seed.pick(plan)
    b, c, (item, variant), card = p["b"], p["c"], p["pairs"][0], p["card"]
    tracking = c["fulfillments"][0]["tracking_id"][0]
    shipping_items = listed([i["name"] for i in c["items"]])
    reads, known = identify(p, "name_zip")
    return Draft(
        persona=f"{full_name(p)}, who loves finding the right present for friends.",
        reason="Exchange a delivered gift for another variant and get a shipping order's tracking number.",
        instruction=(
            f"You are {full_name(p)}, zip code {known['zip']}. Exchange the {describe_item(item)} you "
            f"received for {describe_change(item, variant)}, using your gift card for any difference. Also "
            f"ask for the tracking number of your order with {shipping_items}, which is on its way."
        ),
        known={
            **known,
            "item_to_exchange": describe_item(item),
            "wanted_change": describe_change(item, variant),
            "pay_with": "gift card",
            "shipping_order": f"the order with {shipping_items}",
        },
        volunteered=["first_name", "last_name"],
        unknown=["email", "order ids", "tracking number"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": f"{b['order_id']} and {c['order_id']}",
            "product_id": item["product_id"],
            "item_ids": item["item_id"],
            "new_item_ids": variant["item_id"],
            "payment_method_id": card["id"],
        },
        goals=[
            goal("exchange", f"Exchange the {item['name']}.", b["order_id"]),
            goal(
                "tracking",
                "What's the tracking number of the order that is on its way?",
                tracking,
                kind="information",
            ),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=b["order_id"]),
            act("get_product_details", product_id=item["product_id"]),
            act(
                "exchange_delivered_order_items",
                order_id=b["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=card["id"],
            ),
            act("get_order_details", order_id=c["order_id"]),
        ],
        outputs=[tracking],
    )


def t15_return_to_gift_card_and_repay(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        cards = seed.methods(user_id, "gift_card")
        others = seed.methods(user_id, "paypal") + seed.methods(user_id, "credit_card")
        delivered = seed.orders_of(user_id, "delivered")
        if not cards or not delivered or not seed.name_zip_unique(user_id):
            return None
        for a in seed.orders_of(user_id, "pending"):
            current = a["payment_history"][0]["payment_method_id"]
            choices = [m for m in others if m["id"] != current]
            if choices:
                return {"a": a, "b": delivered[0], "card": cards[0], "method": choices[0]}
        return None

    p = seed.pick(plan)
    a, b, card, method = p["a"], p["b"], p["card"], p["method"]
    item = b["items"][0]
    pending_items = listed([i["name"] for i in a["items"]])
    reads, known = identify(p, "name_zip")
    return Draft(
        persona=f"{full_name(p)}, a lawyer who argues every point.",
        reason="Return a delivered item to the gift card and change the payment method of a pending order.",
        instruction=(
            f"You are {full_name(p)}, zip code {known['zip']}. Return the {describe_item(item)} from your "
            "delivered order and have the refund put on your gift card. Also switch the payment of your "
            f"pending order with {pending_items} to your {describe_method(method)}."
        ),
        known={
            **known,
            "item_to_return": describe_item(item),
            "refund_to": "gift card",
            "pending_order": f"the order with {pending_items}",
            "pay_with": describe_method(method),
        },
        volunteered=["first_name", "last_name", "zip"],
        unknown=["email", "order ids"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": f"{b['order_id']} and {a['order_id']}",
            "item_ids": item["item_id"],
            "payment_method_id": f"{card['id']} and {method['id']}",
        },
        goals=[
            goal("return", f"Return the {item['name']} to my gift card.", b["order_id"]),
            goal("payment", f"Pay my pending order with my {describe_method(method)}.", a["order_id"]),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=b["order_id"]),
            act(
                "return_delivered_order_items",
                order_id=b["order_id"],
                item_ids=[item["item_id"]],
                payment_method_id=card["id"],
            ),
            act("get_order_details", order_id=a["order_id"]),
            act("modify_pending_order_payment", order_id=a["order_id"], payment_method_id=method["id"]),
        ],
    )


def t16_cancel_and_swap(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        pending = seed.orders_of(user_id, "pending")
        for b in pending:
            pairs, method = seed.swaps(b), original_method(seed, b)
            others = [o for o in pending if o is not b]
            if pairs and others and method["source"] != "gift_card":
                return {"a": others[0], "b": b, "pairs": pairs, "method": method}
        return None

    p = seed.pick(plan)
    a, b, (item, variant), method = p["a"], p["b"], p["pairs"][0], p["method"]
    cancel_items = listed([i["name"] for i in a["items"]])
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, a young worker whose budget is tight this month.",
        reason="Cancel a pending order and change an item in another pending order.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). Cancel your pending order with "
            f"{cancel_items}; you no longer need it. In your other pending order, change the "
            f"{describe_item(item)} to {describe_change(item, variant)}, using the "
            f"{describe_method(method)} that order was paid with."
        ),
        known={
            **known,
            "order_to_cancel": f"the order with {cancel_items}",
            "reason": "no longer needed",
            "item_to_change": describe_item(item),
            "wanted_change": describe_change(item, variant),
            "pay_with": describe_method(method),
        },
        volunteered=["email", "reason"],
        unknown=["order ids"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": f"{a['order_id']} and {b['order_id']}",
            "product_id": item["product_id"],
            "item_ids": item["item_id"],
            "new_item_ids": variant["item_id"],
            "payment_method_id": method["id"],
        },
        goals=[
            goal("cancel", f"Cancel the order with {cancel_items}.", a["order_id"]),
            goal("swap", f"Change the {item['name']} in my other order.", b["order_id"]),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=a["order_id"]),
            act("cancel_pending_order", order_id=a["order_id"], reason="no longer needed"),
            act("get_order_details", order_id=b["order_id"]),
            act("get_product_details", product_id=item["product_id"]),
            act(
                "modify_pending_order_items",
                order_id=b["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=method["id"],
            ),
        ],
    )


def t17_reroute_and_swap(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        for order in seed.orders_of(user_id, "pending"):
            pairs, method = seed.swaps(order), original_method(seed, order)
            if pairs and method["source"] != "gift_card":
                return {"a": order, "pairs": pairs, "method": method}
        return None

    p = seed.pick(plan)
    a, (item, variant), method, new = p["a"], p["pairs"][0], p["method"], NEW_ADDRESSES[4]
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, a gardener who is spending the summer at a relative's house.",
        reason="Send a pending order to a summer address and change one of its items.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). Your pending order {a['order_id']} should go "
            f"to {address_text(new)}, where you are staying this summer. Also change the "
            f"{describe_item(item)} in it to {describe_change(item, variant)}, using the "
            f"{describe_method(method)} the order was paid with. Your account address stays as it is."
        ),
        known={
            **known,
            "order_id": a["order_id"],
            **new,
            "item_to_change": describe_item(item),
            "wanted_change": describe_change(item, variant),
            "pay_with": describe_method(method),
        },
        volunteered=["email", "order_id"],
        unknown=["item ids"],
        discoverable={
            "user_id": p["user_id"],
            "product_id": item["product_id"],
            "item_ids": item["item_id"],
            "new_item_ids": variant["item_id"],
            "payment_method_id": method["id"],
        },
        goals=[
            goal(
                "address",
                f"Ship order {a['order_id']} to {address_text(new)}.",
                a["order_id"],
                new["address1"],
            ),
            goal("swap", f"Change the {item['name']} to {describe_change(item, variant)}.", a["order_id"]),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=a["order_id"]),
            act("modify_pending_order_address", order_id=a["order_id"], **new),
            act("get_product_details", product_id=item["product_id"]),
            act(
                "modify_pending_order_items",
                order_id=a["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=method["id"],
            ),
        ],
    )


def t18_cancel_with_refund_amount(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        pending = seed.orders_of(user_id, "pending")
        delivered = [o for o in seed.orders_of(user_id, "delivered") if len(o["items"]) >= 2]
        if pending and delivered and seed.name_zip_unique(user_id):
            return {"a": pending[0], "b": delivered[0], "method": original_method(seed, delivered[0])}
        return None

    p = seed.pick(plan)
    a, b, method = p["a"], p["b"], p["method"]
    refund = money(a["payment_history"][0]["amount"])
    item = b["items"][-1]
    cancel_items = listed([i["name"] for i in a["items"]])
    reads, known = identify(p, "name_zip")
    return Draft(
        persona=f"{full_name(p)}, who recently went through a breakup.",
        reason="Cancel an order meant for a former partner, learn the refund, and return one delivered item.",
        instruction=(
            f"You are {full_name(p)}, zip code {known['zip']}. Cancel your pending order with "
            f"{cancel_items}; you no longer need it. Ask how much will be refunded for it. Also return the "
            f"{describe_item(item)} from your delivered order, refunded to the original payment method."
        ),
        known={
            **known,
            "order_to_cancel": f"the order with {cancel_items}",
            "reason": "no longer needed",
            "item_to_return": describe_item(item),
            "refund_to": "original payment method",
        },
        volunteered=["first_name", "last_name", "zip"],
        unknown=["email", "order ids", "refund amount"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": f"{a['order_id']} and {b['order_id']}",
            "item_ids": item["item_id"],
            "payment_method_id": method["id"],
        },
        goals=[
            goal("cancel", f"Cancel the order with {cancel_items}.", a["order_id"]),
            goal("refund", "How much will I get back for it?", refund, kind="information"),
            goal("return", f"Return the {item['name']} as well.", b["order_id"]),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=a["order_id"]),
            act("cancel_pending_order", order_id=a["order_id"], reason="no longer needed"),
            act("get_order_details", order_id=b["order_id"]),
            act(
                "return_delivered_order_items",
                order_id=b["order_id"],
                item_ids=[item["item_id"]],
                payment_method_id=method["id"],
            ),
        ],
        outputs=[refund],
    )


def t19_address_exchange_tracking(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        processed = seed.orders_of(user_id, "processed")
        for b in seed.orders_of(user_id, "delivered"):
            pairs, method = seed.swaps(b), original_method(seed, b)
            if processed and pairs and method["source"] != "gift_card":
                return {"b": b, "c": processed[0], "pairs": pairs, "method": method}
        return None

    p = seed.pick(plan)
    b, c, (item, variant), method, new = p["b"], p["c"], p["pairs"][0], p["method"], NEW_ADDRESSES[5]
    tracking = c["fulfillments"][0]["tracking_id"][0]
    shipping_items = listed([i["name"] for i in c["items"]])
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, a yoga instructor who just settled into a new apartment.",
        reason="Update the account address, exchange a delivered item, and get a tracking number.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). Update your account address to "
            f"{address_text(new)}. Exchange the {describe_item(item)} you received for "
            f"{describe_change(item, variant)}, with any difference on the {describe_method(method)} you "
            f"paid with. Finally ask for the tracking number of your order with {shipping_items}."
        ),
        known={
            **known,
            **new,
            "item_to_exchange": describe_item(item),
            "wanted_change": describe_change(item, variant),
            "pay_with": describe_method(method),
            "shipping_order": f"the order with {shipping_items}",
        },
        volunteered=["email"],
        unknown=["order ids", "tracking number"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": f"{b['order_id']} and {c['order_id']}",
            "product_id": item["product_id"],
            "item_ids": item["item_id"],
            "new_item_ids": variant["item_id"],
            "payment_method_id": method["id"],
        },
        goals=[
            goal("profile", f"Update my address to {address_text(new)}.", new["address1"]),
            goal("exchange", f"Exchange the {item['name']}.", b["order_id"]),
            goal("tracking", "What is the tracking number of my other order?", tracking, kind="information"),
        ],
        actions=[
            *reads,
            act("modify_user_address", user_id=p["user_id"], **new),
            act("get_order_details", order_id=b["order_id"]),
            act("get_product_details", product_id=item["product_id"]),
            act(
                "exchange_delivered_order_items",
                order_id=b["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=method["id"],
            ),
            act("get_order_details", order_id=c["order_id"]),
        ],
        outputs=[tracking],
    )


def t20_return_and_swap(seed: Seed) -> Draft:
    def plan(user_id: str) -> Record | None:
        delivered = seed.orders_of(user_id, "delivered")
        if not delivered or not seed.name_zip_unique(user_id):
            return None
        for a in seed.orders_of(user_id, "pending"):
            pairs, method = seed.swaps(a), original_method(seed, a)
            if pairs and method["source"] != "gift_card":
                return {"a": a, "b": delivered[0], "pairs": pairs, "method": method}
        return None

    p = seed.pick(plan)
    a, b, (item, variant), method = p["a"], p["b"], p["pairs"][0], p["method"]
    returned, refund_method = b["items"][0], original_method(seed, b)
    reads, known = identify(p, "name_zip")
    return Draft(
        persona=f"{full_name(p)}, a chef with a strong stomach that this delivery still turned.",
        reason="Return a delivered item and change an item of a pending order.",
        instruction=(
            f"You are {full_name(p)}, zip code {known['zip']}. Return the {describe_item(returned)} from "
            "your delivered order, refunded to the original payment method. In your pending order, change "
            f"the {describe_item(item)} to {describe_change(item, variant)}, using the "
            f"{describe_method(method)} that order was paid with."
        ),
        known={
            **known,
            "item_to_return": describe_item(returned),
            "refund_to": "original payment method",
            "item_to_change": describe_item(item),
            "wanted_change": describe_change(item, variant),
            "pay_with": describe_method(method),
        },
        volunteered=["first_name", "last_name", "zip"],
        unknown=["email", "order ids"],
        discoverable={
            "user_id": p["user_id"],
            "order_id": f"{b['order_id']} and {a['order_id']}",
            "product_id": item["product_id"],
            "item_ids": f"{returned['item_id']} and {item['item_id']}",
            "new_item_ids": variant["item_id"],
            "payment_method_id": f"{refund_method['id']} and {method['id']}",
        },
        goals=[
            goal("return", f"Return the {returned['name']}.", b["order_id"]),
            goal("swap", f"Change the {item['name']} in my pending order.", a["order_id"]),
        ],
        actions=[
            *reads,
            act("get_order_details", order_id=b["order_id"]),
            act(
                "return_delivered_order_items",
                order_id=b["order_id"],
                item_ids=[returned["item_id"]],
                payment_method_id=refund_method["id"],
            ),
            act("get_order_details", order_id=a["order_id"]),
            act("get_product_details", product_id=item["product_id"]),
            act(
                "modify_pending_order_items",
                order_id=a["order_id"],
                item_ids=[item["item_id"]],
                new_item_ids=[variant["item_id"]],
                payment_method_id=method["id"],
            ),
        ],
    )


# -------------------------------------------------------------------------------------------- emotions
# (family, emotion, politeness, urgency, trust, how the user feels and behaves), one per task.

EMOTIONS: list[tuple[str, str, str, str, str, str]] = [
    (
        "anger",
        "frustration",
        "cold",
        "high",
        "skeptical",
        "You are fed up: this is not the first time an order of yours has gone wrong. You answer in short, "
        "clipped sentences, want it sorted right now, and doubt the agent will get it right, so you make "
        "them state exactly what was done.",
    ),
    (
        "fear",
        "anxiety",
        "neutral",
        "high",
        "cautious",
        "You are anxious that the package will leave for your old address before the change goes through. "
        "You keep asking whether there is still time and want things done quickly, but you double-check "
        "every detail the agent reads back.",
    ),
    (
        "sadness",
        "disappointment",
        "warm",
        "low",
        "trusting",
        "You are a little let down that the item you were looking forward to is not right. You stay "
        "friendly and unhurried and trust the agent to guide you through the exchange.",
    ),
    (
        "enjoyment",
        "excitement",
        "warm",
        "low",
        "trusting",
        "You have just moved into your new home and you are in a great mood. You are chatty and kind, in "
        "no hurry, and happy to follow the agent's lead.",
    ),
    (
        "disgust",
        "distaste",
        "cold",
        "moderate",
        "skeptical",
        "You find the items you received cheap-looking and off-putting, and you say so bluntly. You are "
        "curt, suspect the store will try to avoid refunding you, and make the agent spell out where the "
        "money goes.",
    ),
    (
        "anger",
        "annoyance",
        "neutral",
        "high",
        "cautious",
        "You are irritated at having to fix your own order and let it show without being rude. You want it "
        "done fast, yet you check each step the agent proposes before saying yes.",
    ),
    (
        "fear",
        "nervousness",
        "warm",
        "moderate",
        "cautious",
        "You are nervous about money ending up in the wrong place and apologise for asking things twice. "
        "You are polite and want reassurance about your gift card before agreeing to anything.",
    ),
    (
        "sadness",
        "helplessness",
        "neutral",
        "moderate",
        "trusting",
        "You feel out of your depth with online exchanges and admit you do not know how any of it works. "
        "You rely on the agent to handle the details and accept their explanations readily.",
    ),
    (
        "enjoyment",
        "relief",
        "warm",
        "low",
        "trusting",
        "You are relieved to have reached someone who can fix your order before it ships. You are warm and "
        "thankful, take your time, and trust the agent's guidance.",
    ),
    (
        "anger",
        "exasperation",
        "cold",
        "high",
        "skeptical",
        "You have run out of patience with this store and want to be finished with it today. You are "
        "sharp, cut long explanations short, and believe nothing the agent says until they show it.",
    ),
    (
        "disgust",
        "dislike",
        "neutral",
        "moderate",
        "cautious",
        "You dislike the things you received and do not hide it, though you stay civil. You want every "
        "detail confirmed before anything is submitted.",
    ),
    (
        "fear",
        "dread",
        "cold",
        "high",
        "cautious",
        "You dread being charged twice and it shows in terse, tense replies. You want this finished "
        "immediately and you confirm every figure the agent reads out.",
    ),
    (
        "sadness",
        "discouragement",
        "warm",
        "moderate",
        "cautious",
        "You feel worn down: nothing about your move has gone smoothly. You are kind to the agent but "
        "hesitant, and you ask for the numbers to be confirmed before you agree.",
    ),
    (
        "enjoyment",
        "pride",
        "neutral",
        "low",
        "trusting",
        "You are proud of the presents you pick and mention it now and then. You are relaxed and "
        "matter-of-fact and let the agent take care of the details.",
    ),
    (
        "anger",
        "argumentativeness",
        "cold",
        "moderate",
        "skeptical",
        "You are in a combative mood and push back on the agent's first answers, insisting you know how "
        "refunds should work. You are blunt and distrust the store's rules, but you accept them once they "
        "are explained clearly.",
    ),
    (
        "fear",
        "desperation",
        "neutral",
        "high",
        "trusting",
        "You are desperate to free up money you need this week. You talk fast, stress how urgent it is, "
        "and you are ready to do whatever the agent suggests.",
    ),
    (
        "disgust",
        "aversion",
        "warm",
        "low",
        "trusting",
        "One of the items turned out to be something you really cannot stand, and you recoil at the "
        "thought of it. You stay pleasant and patient and trust the agent to take care of it.",
    ),
    (
        "sadness",
        "sorrow",
        "neutral",
        "low",
        "cautious",
        "You are sad: the order was meant for someone who is no longer in your life. You speak quietly and "
        "slowly and want each step explained before you agree.",
    ),
    (
        "enjoyment",
        "peace",
        "neutral",
        "moderate",
        "trusting",
        "You feel calm and settled now that your new place is in order. You speak in an even, businesslike "
        "way and take the agent at their word.",
    ),
    (
        "disgust",
        "repugnance",
        "cold",
        "high",
        "skeptical",
        "What arrived revolted you and you want it gone at once. You are cold and brief, expect the store "
        "to stall, and want proof that the request went through.",
    ),
]

TASK_FUNCTIONS: list[Callable[[Seed], Draft]] = [
    t01_cancel_and_return,
    t02_swap_item_and_reroute,
    t03_exchange_with_price,
    t04_moved_house,
    t05_return_two_to_gift_card,
    t06_paypal_and_swap,
    t07_cancel_then_swap_on_gift_card,
    t08_exchange_two_items,
    t09_two_swaps_and_address,
    t10_return_all_and_cancel,
    t11_exchange_and_return,
    t12_gift_card_payment_and_exchange,
    t13_profile_address_and_swap,
    t14_gift_exchange_and_tracking,
    t15_return_to_gift_card_and_repay,
    t16_cancel_and_swap,
    t17_reroute_and_swap,
    t18_cancel_with_refund_amount,
    t19_address_exchange_tracking,
    t20_return_and_swap,
]


def to_task(number: int, draft: Draft, emotion: tuple[str, str, str, str, str, str]) -> Task:
    family, name, politeness, urgency, trust, behaviour = emotion
    task_id = f"retail-{number:03d}"
    return Task(
        id=task_id,
        domain="retail",
        user_scenario=UserScenario(
            persona=draft.persona,
            reason_for_call=draft.reason,
            known_info=draft.known,
            volunteered=draft.volunteered,
            unknown_info=draft.unknown,
            discoverable=draft.discoverable,
            goals=attach_targets(draft.goals, draft.actions, _write_tools()),
            preferences=draft.preferences,
        ),
        instruction=draft.instruction,
        emotion=Emotion(
            family=family,
            emotion=name,
            politeness=politeness,
            urgency=urgency,
            trust=trust,
            instruction=behaviour,
        ),
        evaluation=Evaluation(actions=draft.actions, outputs=draft.outputs),
        twin=f"{task_id}-neutral",
        provenance=Provenance(source="hand-written", seed=SEED),
    )


def _write_tools() -> frozenset[str]:
    from taue.envs.retail import DOMAIN

    return DOMAIN.write_tools


def build_tasks(seed: int = SEED) -> list[Task]:
    """The emotional tasks, each followed by its neutral twin."""
    data = Seed(seed)
    tasks = []
    for number, (function, emotion) in enumerate(zip(TASK_FUNCTIONS, EMOTIONS, strict=True), start=1):
        task = to_task(number, function(data), emotion)
        tasks.extend([task, neutral_twin(task)])
    return tasks


def main() -> None:
    tasks = build_tasks()
    payload = [task.model_dump(mode="json") for task in tasks]
    TASKS_PATH.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(tasks)} tasks to {TASKS_PATH}")


if __name__ == "__main__":
    main()
