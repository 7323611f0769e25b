"""Basketball tools, part 1: the tool set, the reads and the ticket writes (buy, cancel, exchange).
Every error path fails with its message and leaves the database unchanged (`fails`). Part 2
(test_basketball_store_tools.py) covers season passes, store returns, camps and the utilities."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from taue.envs.basketball import DOMAIN
from taue.envs.basketball.generate import TEAM_NAMES
from taue.envs.basketball.rules import hours_until
from taue.envs.basketball.seed_view import BasketballView, load
from tests.envs.tool_harness import ToolHarness

CLOCK = DOMAIN.clock
Record = dict[str, Any]
WRITE_TOOLS = {
    "buy_tickets",
    "cancel_tickets",
    "exchange_tickets",
    "pause_season_pass",
    "register_camp_player",
    "return_order_items",
}

TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails
db = TOOLS.database_fixture()


@pytest.fixture(scope="module")
def seed() -> BasketballView:
    return load(DOMAIN.seed)


async def read(db, tool: str, **arguments: Any) -> Any:
    return json.loads(await ok(db, tool, **arguments))


def first(records: dict[str, Record], rule: Callable[[Record], bool]) -> Record:
    for _, record in sorted(records.items()):
        if rule(record):
            return record
    raise LookupError(rule)


def ticket_where(seed: BasketballView, rule: Callable[[Record, Record], bool]) -> Record:
    """The first ticket (by id) for which rule(ticket, its game) holds."""
    return first(seed.tickets, lambda t: rule(t, seed.games[t["game_id"]]))


def active_on(status: str, low: float = 0, high: float = 10**6) -> Callable[[Record, Record], bool]:
    def rule(ticket: Record, game: Record) -> bool:
        hours = hours_until(game["tip_off"], CLOCK)
        return ticket["status"] == "active" and game["status"] == status and low <= hours < high

    return rule


def with_method(seed: BasketballView, source: str, minimum: float = 0) -> tuple[Record, str]:
    for _, account in sorted(seed.accounts.items()):
        for key, method in sorted(account["payment_methods"].items()):
            if method["source"] == source and method.get("balance", minimum) >= minimum:
                return account, key
    raise LookupError(source)


def on_sale(seed: BasketballView, section: str = "upper", seats: int = 2) -> Record:
    return first(
        seed.games,
        lambda g: (
            g["status"] == "scheduled"
            and hours_until(g["tip_off"], CLOCK) > 0
            and g["sections"][section]["seats_left"] >= seats
        ),
    )


# ---------------------------------------------------------------------------------------------- the set


def test_the_tool_set():
    assert set(DOMAIN.mcp_tools) == {
        *WRITE_TOOLS,
        "calculate",
        "find_account_by_email",
        "get_account_details",
        "get_order_details",
        "get_ticket_details",
        "list_camps",
        "search_games",
        "think",
        "transfer_to_human_agents",
    }
    assert DOMAIN.write_tools == WRITE_TOOLS
    assert DOMAIN.terminal_tools == {"transfer_to_human_agents"}


def test_every_parameter_is_described():
    for name, tool in DOMAIN.mcp_tools.items():
        assert tool.description, name
        for parameter, schema in tool.parameters["properties"].items():
            assert schema.get("description"), f"{name}.{parameter}"


# ------------------------------------------------------------------------------------------------ reads


async def test_find_account_by_email(db, seed):
    account = first(seed.accounts, lambda a: True)
    found = await ok(
        db, "find_account_by_email", email=account["email"].upper(), zip_code=account["zip_code"]
    )
    assert found == account["account_id"]
    message = "no account matches that email and zip code"
    await fails(db, "find_account_by_email", message, email=account["email"], zip_code="00000")
    await fails(
        db, "find_account_by_email", message, email="nobody@example.com", zip_code=account["zip_code"]
    )


async def test_get_account_details(db, seed):
    account = first(seed.accounts, lambda a: a["pass_ids"] and a["ticket_ids"] and a["order_ids"])
    details = await read(db, "get_account_details", account_id=account["account_id"])
    assert details["ticket_ids"] == account["ticket_ids"]
    assert details["order_ids"] == account["order_ids"]
    assert details["payment_methods"] == account["payment_methods"]
    assert [p["pass_id"] for p in details["season_passes"]] == account["pass_ids"]
    registered = first(seed.registrations, lambda r: True)
    owner = await read(db, "get_account_details", account_id=registered["account_id"])
    assert registered["registration_id"] in [r["registration_id"] for r in owner["camp_registrations"]]
    await fails(db, "get_account_details", "account nobody_0000 not found", account_id="nobody_0000")


async def test_get_ticket_details_embeds_the_game(db, seed):
    ticket = ticket_where(seed, active_on("rescheduled"))
    game = seed.games[ticket["game_id"]]
    details = await read(db, "get_ticket_details", ticket_id=ticket["ticket_id"])
    assert details["section"] == ticket["section"] and details["total_paid"] == ticket["total_paid"]
    assert details["game"]["status"] == "rescheduled"
    assert details["game"]["date"] == game["tip_off"][:10]
    assert details["game"]["original_date"] == game["original_tip_off"][:10]
    assert details["game"]["day"].split(", ")[1] == game_day(game["tip_off"])
    await fails(db, "get_ticket_details", "ticket TK1 not found", ticket_id="TK1")


def game_day(tip_off: str) -> str:
    return datetime.fromisoformat(tip_off).strftime("%B %d").replace(" 0", " ")


async def test_search_games_lists_a_teams_unplayed_games(db, seed):
    team = "Harbor City Herons"
    games = await read(db, "search_games", team="herons")
    expected = {
        g["game_id"]
        for g in seed.games.values()
        if team in (g["home_team"], g["away_team"]) and g["status"] != "completed"
    }
    assert {g["game_id"] for g in games} == expected
    assert [g["tip_off"] for g in games] == sorted(g["tip_off"] for g in games)
    assert games == await read(db, "search_games", team=team)
    await fails(db, "search_games", f"no team named Hornets; teams: {', '.join(TEAM_NAMES)}", team="Hornets")


async def test_get_order_details(db, seed):
    order = first(seed.orders, lambda o: o["refunds"])
    assert await read(db, "get_order_details", order_id=order["order_id"]) == order
    await fails(db, "get_order_details", "order MO1 not found", order_id="MO1")


async def test_list_camps(db, seed):
    camps = await read(db, "list_camps")
    assert len(camps) == len(seed.camps)
    assert all(c["spots_left"] == c["capacity"] - c["enrolled"] for c in camps)


# ------------------------------------------------------------------------------------------ buy_tickets


async def test_buy_tickets_with_a_credit_card(db, seed):
    account, card = with_method(seed, "credit_card")
    game = on_sale(seed, "lower", 3)
    ticket = await read(
        db,
        "buy_tickets",
        account_id=account["account_id"],
        game_id=game["game_id"],
        section="lower",
        quantity=3,
        payment_method_id=card,
    )
    price = game["sections"]["lower"]["price"]
    assert ticket["ticket_id"] == f"TK{max(int(t[2:]) for t in seed.tickets) + 1}"
    assert ticket["total_paid"] == round(3 * price + 12, 2) and ticket["service_fee"] == 12.0
    assert ticket["status"] == "active" and ticket["purchased_at"] == CLOCK
    after = await read(db, "search_games", team=game["home_team"])
    left = next(g for g in after if g["game_id"] == game["game_id"])["sections"]["lower"]["seats_left"]
    assert left == game["sections"]["lower"]["seats_left"] - 3
    details = await read(db, "get_account_details", account_id=account["account_id"])
    assert details["ticket_ids"][-1] == ticket["ticket_id"]


async def test_buy_tickets_with_a_gift_card_lowers_its_balance(db, seed):
    account, gift = with_method(seed, "gift_card", 300)
    game = on_sale(seed, "upper", 1)
    await ok(
        db,
        "buy_tickets",
        account_id=account["account_id"],
        game_id=game["game_id"],
        section="upper",
        quantity=1,
        payment_method_id=gift,
    )
    details = await read(db, "get_account_details", account_id=account["account_id"])
    paid = game["sections"]["upper"]["price"] + 4
    assert details["payment_methods"][gift]["balance"] == round(
        account["payment_methods"][gift]["balance"] - paid, 2
    )


async def test_buy_tickets_errors(db, seed):
    account, card = with_method(seed, "credit_card")
    game = on_sale(seed, "upper", 2)
    args = {
        "account_id": account["account_id"],
        "game_id": game["game_id"],
        "section": "upper",
        "quantity": 2,
        "payment_method_id": card,
    }
    await fails(db, "buy_tickets", "account nobody_1 not found", **{**args, "account_id": "nobody_1"})
    await fails(db, "buy_tickets", "game G1 not found", **{**args, "game_id": "G1"})
    for quantity in (0, 9):
        await fails(db, "buy_tickets", "quantity must be between 1 and 8", **{**args, "quantity": quantity})
    done = first(seed.games, lambda g: g["status"] == "completed")
    await fails(
        db,
        "buy_tickets",
        f"game {done['game_id']} is completed and not on sale",
        **{**args, "game_id": done["game_id"]},
    )
    later = first(seed.games, lambda g: g["status"] == "postponed")
    await fails(
        db,
        "buy_tickets",
        f"game {later['game_id']} is postponed and not on sale",
        **{**args, "game_id": later["game_id"]},
    )
    await fails(
        db,
        "buy_tickets",
        "payment method gift_card_1 is not on the account",
        **{**args, "payment_method_id": "gift_card_1"},
    )


async def test_buy_tickets_needs_seats_and_respects_the_per_game_limit(db, seed):
    account, card = with_method(seed, "credit_card")
    full = first(
        seed.games, lambda g: g["status"] == "scheduled" and g["sections"]["courtside"]["seats_left"] == 0
    )
    await fails(
        db,
        "buy_tickets",
        f"only 0 seats left in the courtside section of game {full['game_id']}",
        account_id=account["account_id"],
        game_id=full["game_id"],
        section="courtside",
        quantity=1,
        payment_method_id=card,
    )
    held = ticket_where(
        seed,
        lambda t, g: (
            active_on("scheduled", 1)(t, g)
            and t["quantity"] >= 2
            and g["sections"]["upper"]["seats_left"] >= 8
        ),
    )
    owner = seed.accounts[held["account_id"]]
    already = seed.seats_held(owner["account_id"], held["game_id"])
    method = sorted(owner["payment_methods"])[0]
    await fails(
        db,
        "buy_tickets",
        f"an account may hold at most 8 tickets for one game; it already holds {already} "
        f"for game {held['game_id']}",
        account_id=owner["account_id"],
        game_id=held["game_id"],
        section="upper",
        quantity=9 - already,
        payment_method_id=method,
    )


async def test_buy_tickets_refuses_a_gift_card_that_cannot_cover_it(db, seed):
    account = first(
        seed.accounts,
        lambda a: any(
            m["source"] == "gift_card" and m["balance"] == 0 for m in a["payment_methods"].values()
        ),
    )
    gift = next(
        k
        for k, m in sorted(account["payment_methods"].items())
        if m["source"] == "gift_card" and m["balance"] == 0
    )
    game = on_sale(seed, "upper", 1)
    total = game["sections"]["upper"]["price"] + 4
    await fails(
        db,
        "buy_tickets",
        f"gift card {gift} has a balance of 0.0, less than {total}",
        account_id=account["account_id"],
        game_id=game["game_id"],
        section="upper",
        quantity=1,
        payment_method_id=gift,
    )


# --------------------------------------------------------------------------------------- cancel_tickets


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (active_on("scheduled", 7 * 24), lambda t: round(t["unit_price"] * t["quantity"] * 0.9, 2)),
        (active_on("scheduled", 48, 7 * 24), lambda t: round(t["unit_price"] * t["quantity"] * 0.75, 2)),
        (active_on("postponed", -(10**6)), lambda t: t["total_paid"]),
        (active_on("rescheduled", 48), lambda t: t["total_paid"]),
    ],
    ids=["a week or more", "two to seven days", "postponed", "rescheduled"],
)
async def test_cancel_tickets_refunds_by_notice(db, seed, rule, expected):
    ticket = ticket_where(seed, rule)
    result = await read(db, "cancel_tickets", ticket_id=ticket["ticket_id"])
    assert result["status"] == "cancelled" and result["refund_amount"] == expected(ticket)


async def test_cancel_tickets_refunds_a_gift_card(db, seed):
    ticket = ticket_where(
        seed, lambda t, g: active_on("scheduled", 48)(t, g) and t["payment_method_id"].startswith("gift")
    )
    before = seed.accounts[ticket["account_id"]]["payment_methods"][ticket["payment_method_id"]]["balance"]
    refund = (await read(db, "cancel_tickets", ticket_id=ticket["ticket_id"]))["refund_amount"]
    account = await read(db, "get_account_details", account_id=ticket["account_id"])
    assert account["payment_methods"][ticket["payment_method_id"]]["balance"] == round(before + refund, 2)


async def test_cancel_tickets_errors(db, seed):
    await fails(db, "cancel_tickets", "ticket TK9 not found", ticket_id="TK9")
    for status in ("cancelled", "used"):
        ticket = first(seed.tickets, lambda t, status=status: t["status"] == status)
        await fails(
            db,
            "cancel_tickets",
            f"ticket {ticket['ticket_id']} is {status}, not active",
            ticket_id=ticket["ticket_id"],
        )
    late = ticket_where(seed, active_on("scheduled", 0, 48))
    game = seed.games[late["game_id"]]
    await fails(
        db,
        "cancel_tickets",
        f"tickets cannot be cancelled within 48 hours of tip-off "
        f"(game {game['game_id']} tips off {game['tip_off']})",
        ticket_id=late["ticket_id"],
    )


# ------------------------------------------------------------------------------------- exchange_tickets


def exchange_target(seed: BasketballView, ticket: Record, seats: int | None = None) -> Record:
    old = seed.games[ticket["game_id"]]
    needed = ticket["quantity"] if seats is None else seats
    return first(
        seed.games,
        lambda g: (
            g["home_team"] == old["home_team"]
            and g["game_id"] != old["game_id"]
            and g["status"] == "scheduled"
            and hours_until(g["tip_off"], CLOCK) > 0
            and (
                g["sections"][ticket["section"]]["seats_left"] >= needed
                if seats is None
                else g["sections"][ticket["section"]]["seats_left"] < needed
            )
        ),
    )


def disrupted(t: Record, g: Record) -> bool:
    return t["status"] == "active" and g["status"] in ("postponed", "rescheduled") and not t["exchanged_from"]


async def test_exchange_tickets_moves_the_seats(db, seed):
    ticket = ticket_where(seed, disrupted)
    new = exchange_target(seed, ticket)
    result = await read(db, "exchange_tickets", ticket_id=ticket["ticket_id"], new_game_id=new["game_id"])
    assert result["game_id"] == new["game_id"] and result["exchanged_from"] == ticket["game_id"]
    assert result["total_paid"] == ticket["total_paid"] and result["status"] == "active"
    games = await read(db, "search_games", team=new["home_team"])
    moved = next(g for g in games if g["game_id"] == new["game_id"])
    section = ticket["section"]
    assert (
        moved["sections"][section]["seats_left"]
        == new["sections"][section]["seats_left"] - ticket["quantity"]
    )


async def test_exchange_tickets_errors(db, seed):
    ticket = ticket_where(seed, disrupted)
    new = exchange_target(seed, ticket)
    await fails(db, "exchange_tickets", "ticket TK9 not found", ticket_id="TK9", new_game_id=new["game_id"])
    await fails(db, "exchange_tickets", "game G9 not found", ticket_id=ticket["ticket_id"], new_game_id="G9")
    regular = ticket_where(seed, active_on("scheduled", 0))
    game = seed.games[regular["game_id"]]
    await fails(
        db,
        "exchange_tickets",
        "only tickets for a postponed or rescheduled game can be exchanged; "
        f"game {game['game_id']} is scheduled",
        ticket_id=regular["ticket_id"],
        new_game_id=new["game_id"],
    )
    used = first(seed.tickets, lambda t: t["status"] == "used")
    await fails(
        db,
        "exchange_tickets",
        f"ticket {used['ticket_id']} is used, not active",
        ticket_id=used["ticket_id"],
        new_game_id=new["game_id"],
    )
    again = ticket_where(
        seed, lambda t, g: t["status"] == "active" and t["exchanged_from"] and g["status"] != "completed"
    )
    await fails(
        db,
        "exchange_tickets",
        f"ticket {again['ticket_id']} was already exchanged once",
        ticket_id=again["ticket_id"],
        new_game_id=new["game_id"],
    )


async def test_exchange_tickets_needs_an_open_home_game_of_the_same_team(db, seed):
    ticket = ticket_where(seed, disrupted)
    home = seed.games[ticket["game_id"]]["home_team"]
    message = f"the new game must be another home game of the {home}"
    other = first(seed.games, lambda g: g["home_team"] != home and g["status"] == "scheduled")
    await fails(db, "exchange_tickets", message, ticket_id=ticket["ticket_id"], new_game_id=other["game_id"])
    await fails(db, "exchange_tickets", message, ticket_id=ticket["ticket_id"], new_game_id=ticket["game_id"])
    past = first(seed.games, lambda g: g["home_team"] == home and g["status"] == "completed")
    await fails(
        db,
        "exchange_tickets",
        f"game {past['game_id']} is completed and not on sale",
        ticket_id=ticket["ticket_id"],
        new_game_id=past["game_id"],
    )


async def test_exchange_tickets_needs_seats_in_the_same_section(db, seed):
    for candidate in sorted(seed.tickets):
        ticket = seed.tickets[candidate]
        if not disrupted(ticket, seed.games[ticket["game_id"]]):
            continue
        try:
            short = exchange_target(seed, ticket, seats=ticket["quantity"])
        except LookupError:
            continue
        left = short["sections"][ticket["section"]]["seats_left"]
        await fails(
            db,
            "exchange_tickets",
            f"only {left} seats left in the {ticket['section']} section of game {short['game_id']}",
            ticket_id=ticket["ticket_id"],
            new_game_id=short["game_id"],
        )
        return
    pytest.fail("no disrupted ticket with a sold-out target in the seed")
