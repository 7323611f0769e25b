"""Basketball tools, part 2: pausing season passes, returning team-store items, registering youth
players for camps, the transfer and the shared utilities. Every error path fails with its message
and leaves the database unchanged (`fails`)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from taue.envs.basketball import DOMAIN
from taue.envs.basketball.rules import age_on, registration_problem
from taue.envs.basketball.seed_view import BasketballView, load
from tests.envs.test_basketball_tools import Record, first, read
from tests.envs.tool_harness import ToolHarness

CLOCK = DOMAIN.clock
TOOLS = ToolHarness(DOMAIN)
ok, fails = TOOLS.ok, TOOLS.fails
db = TOOLS.database_fixture()


@pytest.fixture(scope="module")
def seed() -> BasketballView:
    return load(DOMAIN.seed)


# ------------------------------------------------------------------------------------ pause_season_pass


def pausable(p: Record) -> bool:
    return p["status"] == "active" and p["tier"] != "courtside" and p["pauses_used"] == 0


@pytest.mark.parametrize(("months", "until"), [(1, "2025-03-10"), (2, "2025-04-10")])
async def test_pause_season_pass(db, seed, months, until):
    season_pass = first(seed.passes, pausable)
    result = await read(db, "pause_season_pass", pass_id=season_pass["pass_id"], months=months)
    assert result["status"] == "paused" and result["paused_until"] == until and result["pauses_used"] == 1
    account = await read(db, "get_account_details", account_id=season_pass["account_id"])
    assert result in account["season_passes"]


async def test_pause_season_pass_errors(db, seed):
    await fails(db, "pause_season_pass", "season pass SP1 not found", pass_id="SP1", months=1)
    fine = first(seed.passes, pausable)
    for months in (0, 3):
        await fails(
            db, "pause_season_pass", "a pause lasts 1 or 2 months", pass_id=fine["pass_id"], months=months
        )
    paused = first(seed.passes, lambda p: p["status"] == "paused")
    await fails(
        db,
        "pause_season_pass",
        f"season pass {paused['pass_id']} is paused, not active",
        pass_id=paused["pass_id"],
        months=1,
    )
    courtside = first(seed.passes, lambda p: p["status"] == "active" and p["tier"] == "courtside")
    await fails(
        db,
        "pause_season_pass",
        "courtside season passes cannot be paused",
        pass_id=courtside["pass_id"],
        months=1,
    )
    used = first(
        seed.passes, lambda p: p["status"] == "active" and p["tier"] != "courtside" and p["pauses_used"]
    )
    await fails(
        db,
        "pause_season_pass",
        f"season pass {used['pass_id']} has already used its one pause this season",
        pass_id=used["pass_id"],
        months=2,
    )


# ----------------------------------------------------------------------------------- return_order_items


def delivered_within(order: Record, days: int) -> bool:
    if order["status"] != "delivered":
        return False
    return datetime.fromisoformat(CLOCK) - datetime.fromisoformat(order["delivered_at"]) <= timedelta(
        days=days
    )


def returnable(order: Record) -> list[Record]:
    return [i for i in order["items"] if i["status"] == "ordered" and not i["personalized"]]


async def test_return_order_items_refunds_the_items(db, seed):
    order = first(seed.orders, lambda o: delivered_within(o, 30) and len(returnable(o)) >= 2)
    item = returnable(order)[0]
    result = await read(db, "return_order_items", order_id=order["order_id"], item_ids=[item["item_id"]])
    assert result["status"] == "delivered"
    assert [i["status"] for i in result["items"] if i["item_id"] == item["item_id"]] == ["returned"]
    assert result["refunds"][-1] == {
        "item_ids": [item["item_id"]],
        "amount": item["price"],
        "payment_method_id": order["payment_method_id"],
    }


async def test_returning_every_item_returns_the_order_and_refunds_a_gift_card(db, seed):
    order = first(
        seed.orders,
        lambda o: (
            delivered_within(o, 30)
            and len(returnable(o)) == len(o["items"])
            and o["payment_method_id"].startswith("gift_card")
        ),
    )
    ids = [i["item_id"] for i in order["items"]]
    result = await read(db, "return_order_items", order_id=order["order_id"], item_ids=ids)
    assert result["status"] == "returned"
    before = seed.accounts[order["account_id"]]["payment_methods"][order["payment_method_id"]]["balance"]
    account = await read(db, "get_account_details", account_id=order["account_id"])
    refund = round(sum(i["price"] for i in order["items"]), 2)
    assert account["payment_methods"][order["payment_method_id"]]["balance"] == round(before + refund, 2)


async def test_return_order_items_errors(db, seed):
    await fails(db, "return_order_items", "order MO1 not found", order_id="MO1", item_ids=["X"])
    shipped = first(seed.orders, lambda o: o["status"] == "shipped")
    await fails(
        db,
        "return_order_items",
        f"order {shipped['order_id']} is shipped; only delivered orders can be returned",
        order_id=shipped["order_id"],
        item_ids=[shipped["items"][0]["item_id"]],
    )
    old = first(
        seed.orders, lambda o: o["status"] == "delivered" and not delivered_within(o, 30) and returnable(o)
    )
    closed = (datetime.fromisoformat(old["delivered_at"]) + timedelta(days=30)).date()
    await fails(
        db,
        "return_order_items",
        f"the 30-day return window of order {old['order_id']} closed on {closed}",
        order_id=old["order_id"],
        item_ids=[returnable(old)[0]["item_id"]],
    )
    order = first(seed.orders, lambda o: delivered_within(o, 30) and returnable(o))
    item = returnable(order)[0]["item_id"]
    await fails(
        db, "return_order_items", "list each item to return once", order_id=order["order_id"], item_ids=[]
    )
    await fails(
        db,
        "return_order_items",
        "list each item to return once",
        order_id=order["order_id"],
        item_ids=[item, item],
    )
    await fails(
        db,
        "return_order_items",
        f"item NOPE is not in order {order['order_id']}",
        order_id=order["order_id"],
        item_ids=["NOPE"],
    )


async def test_return_order_items_refuses_personalized_and_returned_items(db, seed):
    custom = first(
        seed.orders, lambda o: delivered_within(o, 30) and any(i["personalized"] for i in o["items"])
    )
    item = next(i["item_id"] for i in custom["items"] if i["personalized"])
    await fails(
        db,
        "return_order_items",
        f"item {item} is personalized and final sale",
        order_id=custom["order_id"],
        item_ids=[item],
    )
    order = first(seed.orders, lambda o: delivered_within(o, 30) and len(returnable(o)) >= 2)
    first_item = returnable(order)[0]["item_id"]
    await ok(db, "return_order_items", order_id=order["order_id"], item_ids=[first_item])
    await fails(
        db,
        "return_order_items",
        f"item {first_item} was already returned",
        order_id=order["order_id"],
        item_ids=[first_item],
    )


# --------------------------------------------------------------------------------- register_camp_player


def registration(seed: BasketballView, wanted: str | None) -> tuple[Record, Record, Record]:
    """(account, camp, player) whose registration breaks rule `wanted` (None: breaks none)."""
    for _, account in sorted(seed.accounts.items()):
        for player in account["players"]:
            for _, camp in sorted(seed.camps.items()):
                taken = seed.registered(camp["camp_id"])
                problem = registration_problem(account, camp, player["name"], taken, CLOCK)
                if (problem and problem[0]) == wanted:
                    return account, camp, player
    raise LookupError(wanted)


def card_of(account: Record) -> str:
    return next(k for k, m in sorted(account["payment_methods"].items()) if m["source"] == "credit_card")


async def test_register_camp_player(db, seed):
    account, camp, player = registration(seed, None)
    result = await read(
        db,
        "register_camp_player",
        account_id=account["account_id"],
        camp_id=camp["camp_id"],
        player_name=player["name"].upper(),
        payment_method_id=card_of(account),
    )
    assert result["registration_id"] == f"REG{max(int(r[3:]) for r in seed.registrations) + 1}"
    assert result["player_name"] == player["name"] and result["birth_date"] == player["birth_date"]
    assert result["fee_paid"] == camp["fee"] and result["status"] == "confirmed"
    camps = {c["camp_id"]: c for c in await read(db, "list_camps")}
    assert camps[camp["camp_id"]]["enrolled"] == camp["enrolled"] + 1
    details = await read(db, "get_account_details", account_id=account["account_id"])
    assert result in details["camp_registrations"]


async def test_register_camp_player_charges_a_gift_card(db, seed):
    for _, account in sorted(seed.accounts.items()):
        gifts = [k for k, m in sorted(account["payment_methods"].items()) if m["source"] == "gift_card"]
        for player in account["players"]:
            for _, camp in sorted(seed.camps.items()):
                fits = registration_problem(
                    account, camp, player["name"], seed.registered(camp["camp_id"]), CLOCK
                )
                rich = [g for g in gifts if account["payment_methods"][g]["balance"] >= camp["fee"]]
                if fits is None and rich:
                    await ok(
                        db,
                        "register_camp_player",
                        account_id=account["account_id"],
                        camp_id=camp["camp_id"],
                        player_name=player["name"],
                        payment_method_id=rich[0],
                    )
                    details = await read(db, "get_account_details", account_id=account["account_id"])
                    balance = account["payment_methods"][rich[0]]["balance"] - camp["fee"]
                    assert details["payment_methods"][rich[0]]["balance"] == round(balance, 2)
                    return
    pytest.fail("no registration payable by gift card")


async def test_register_camp_player_errors(db, seed):
    account, camp, player = registration(seed, None)
    args = {
        "account_id": account["account_id"],
        "camp_id": camp["camp_id"],
        "player_name": player["name"],
        "payment_method_id": card_of(account),
    }
    await fails(
        db, "register_camp_player", "account nobody_1 not found", **{**args, "account_id": "nobody_1"}
    )
    await fails(db, "register_camp_player", "camp CMP1 not found", **{**args, "camp_id": "CMP1"})
    await fails(
        db,
        "register_camp_player",
        f"Pat Nobody is not a youth player on account {account['account_id']}",
        **{**args, "player_name": "Pat Nobody"},
    )
    await fails(
        db,
        "register_camp_player",
        "payment method credit_card_1 is not on the account",
        **{**args, "payment_method_id": "credit_card_1"},
    )


@pytest.mark.parametrize("rule", ["camp-open", "camp-age", "camp-duplicate", "camp-full"])
async def test_register_camp_player_rules(db, seed, rule):
    account, camp, player = registration(seed, rule)
    age = age_on(player["birth_date"], camp["start_date"])
    message = {
        "camp-open": f"registration for camp {camp['camp_id']} is closed",
        "camp-age": f"{player['name']} will be {age} on {camp['start_date']}; "
        f"camp {camp['camp_id']} is for ages {camp['min_age']} to {camp['max_age']}",
        "camp-duplicate": f"{player['name']} is already registered for camp {camp['camp_id']}",
        "camp-full": f"camp {camp['camp_id']} is full",
    }[rule]
    method = sorted(account["payment_methods"])[0]
    await fails(
        db,
        "register_camp_player",
        message,
        account_id=account["account_id"],
        camp_id=camp["camp_id"],
        player_name=player["name"],
        payment_method_id=method,
    )


# ------------------------------------------------------------------------------------- the other tools


async def test_transfer_calculate_and_think(db):
    assert (
        await ok(db, "transfer_to_human_agents", summary="fan wants a new season pass")
        == "Transfer successful"
    )
    assert await ok(db, "calculate", expression="(45 + 4) * 2") == "98.0"
    assert await ok(db, "think", thought="check the 48-hour rule") == ""
