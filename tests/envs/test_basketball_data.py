"""Basketball seed generator: size and variety, determinism, the clock, references between tables,
and both sides of every policy rule present in the data."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime

import pytest

from taue.envs.basketball import DOMAIN
from taue.envs.basketball.generate import CLOCK, TEAM_NAMES, generate
from taue.envs.basketball.rules import (
    cancel_problem,
    exchange_problem,
    hours_until,
    pause_problem,
    registration_problem,
    return_problem,
)
from taue.envs.basketball.seed_view import BasketballView, load


@pytest.fixture(scope="module")
def seed() -> BasketballView:
    return load(DOMAIN.seed)


def test_the_clock_is_fixed_mid_season():
    assert DOMAIN.clock == CLOCK == "2025-02-10T12:00:00"
    assert DOMAIN.new_database().clock == CLOCK


def test_sizes(seed):
    assert len(seed.accounts) == 360
    assert len(seed.games) >= 450 and len(seed.tickets) >= 1500
    assert len(seed.orders) >= 500 and len(seed.passes) >= 100
    assert len(seed.camps) == 36 and len(seed.registrations) >= 100
    assert len(DOMAIN.seed_image.image_bytes) < 8 * 1024 * 1024


def test_generation_is_deterministic_and_depends_on_the_seed():
    dump = [row.model_dump() for row in generate(0)]
    assert dump == [row.model_dump() for row in generate(0)]
    assert dump != [row.model_dump() for row in generate(1)]


def test_ids_and_contacts_are_unique_and_well_formed(seed):
    emails = [a["email"] for a in seed.accounts.values()]
    assert len(set(emails)) == len(emails)
    for account_id, account in seed.accounts.items():
        assert re.fullmatch(r"[a-z]+_[a-z]+_\d{4}", account_id), account_id
        assert re.fullmatch(r"\d{5}", account["zip_code"])
        assert account["favorite_team"] in TEAM_NAMES
        for key, method in account["payment_methods"].items():
            assert key.startswith(method["source"] + "_")
    assert all(re.fullmatch(r"TK\d{6}", t) for t in seed.tickets)
    assert all(re.fullmatch(r"MO\d{5}", o) for o in seed.orders)
    assert all(re.fullmatch(r"SP\d{5}", p) for p in seed.passes)


def test_references_hold(seed):
    for ticket_id, ticket in seed.tickets.items():
        assert ticket["game_id"] in seed.games
        assert ticket_id in seed.accounts[ticket["account_id"]]["ticket_ids"]
        assert ticket["payment_method_id"] in seed.accounts[ticket["account_id"]]["payment_methods"]
        assert ticket["total_paid"] == round(ticket["quantity"] * (ticket["unit_price"] + 4), 2)
    for order_id, order in seed.orders.items():
        assert order_id in seed.accounts[order["account_id"]]["order_ids"]
        assert len({i["item_id"] for i in order["items"]}) == len(order["items"])
    for pass_id, season_pass in seed.passes.items():
        assert pass_id in seed.accounts[season_pass["account_id"]]["pass_ids"]
    for registration in seed.registrations.values():
        players = seed.accounts[registration["account_id"]]["players"]
        assert registration["camp_id"] in seed.camps
        assert {"name": registration["player_name"], "birth_date": registration["birth_date"]} in players
    for account in seed.accounts.values():
        for held in Counter(
            t["game_id"] for t in seed.tickets_of(account["account_id"]) if t["status"] == "active"
        ):
            assert seed.seats_held(account["account_id"], held) <= 8


def test_games_follow_the_clock(seed):
    statuses = Counter(g["status"] for g in seed.games.values())
    assert set(statuses) == {"completed", "scheduled", "postponed", "rescheduled"}
    for game in seed.games.values():
        ahead = hours_until(game["tip_off"], CLOCK) > 0
        assert ahead == (game["status"] in ("scheduled", "rescheduled")) or game["status"] == "postponed"
        assert (game["original_tip_off"] is not None) == (game["status"] == "rescheduled")
        assert game["home_team"] != game["away_team"]
        for section in game["sections"].values():
            assert section["price"] > 0 and section["seats_left"] >= 0


def test_both_sides_of_the_ticket_rules(seed):
    def hours(ticket):
        return hours_until(seed.games[ticket["game_id"]]["tip_off"], CLOCK)

    active = [t for t in seed.tickets.values() if t["status"] == "active"]
    scheduled = [t for t in active if seed.games[t["game_id"]]["status"] == "scheduled"]
    assert sum(hours(t) >= 168 for t in scheduled) >= 200
    assert sum(48 <= hours(t) < 168 for t in scheduled) >= 20
    assert sum(0 < hours(t) < 48 for t in scheduled) >= 5
    problems = Counter(
        (cancel_problem(t, seed.games[t["game_id"]], CLOCK) or ("allowed",))[0] for t in seed.tickets.values()
    )
    assert problems["allowed"] >= 500 and problems["cancel-window"] >= 5 and problems["ticket-active"] >= 500
    disrupted = [t for t in active if seed.games[t["game_id"]]["status"] in ("postponed", "rescheduled")]
    assert len(disrupted) >= 40
    assert any(t["exchanged_from"] for t in disrupted) and any(not t["exchanged_from"] for t in disrupted)


def test_some_disrupted_tickets_can_be_exchanged_and_regular_ones_cannot(seed):
    allowed, refused = 0, Counter()
    for ticket in seed.tickets.values():
        old = seed.games[ticket["game_id"]]
        for new in seed.home_games_on_sale(old["home_team"], skip=old["game_id"])[:3]:
            problem = exchange_problem(ticket, old, new, CLOCK)
            if problem is None:
                allowed += 1
            else:
                refused[problem[0]] += 1
    assert allowed >= 30
    assert {"exchange-disrupted", "exchange-once", "ticket-active"} <= set(refused)


def test_both_sides_of_the_pass_rules(seed):
    problems = Counter((pause_problem(p, 1) or ("allowed",))[0] for p in seed.passes.values())
    assert problems["allowed"] >= 40
    assert problems["pause-courtside"] >= 3 and problems["pause-once"] >= 3 and problems["pause-active"] >= 10
    assert {p["tier"] for p in seed.passes.values()} == {"upper", "lower", "courtside"}


def test_both_sides_of_the_return_rules(seed):
    problems = Counter()
    for order in seed.orders.values():
        for item in order["items"]:
            problems[(return_problem(order, [item["item_id"]], CLOCK) or ("allowed",))[0]] += 1
    assert problems["allowed"] >= 100 and problems["return-window"] >= 300
    assert problems["return-personalized"] >= 10 and problems["return-delivered"] >= 30
    assert sum(i["status"] == "returned" for o in seed.orders.values() for i in o["items"]) >= 3
    delivered = [o for o in seed.orders.values() if o["delivered_at"]]
    assert min(datetime.fromisoformat(o["delivered_at"]) for o in delivered) < datetime(2025, 1, 1)


def test_both_sides_of_the_camp_rules(seed):
    problems = Counter()
    for account in seed.accounts.values():
        for player in account["players"]:
            for camp in seed.camps.values():
                taken = seed.registered(camp["camp_id"])
                problems[
                    (registration_problem(account, camp, player["name"], taken, CLOCK) or ("allowed",))[0]
                ] += 1
    assert problems["allowed"] >= 200 and problems["camp-age"] >= 500
    assert problems["camp-full"] >= 20 and problems["camp-open"] >= 20 and problems["camp-duplicate"] >= 20
    assert {c["kind"] for c in seed.camps.values()} == {"camp", "clinic"}


def test_payment_methods_vary(seed):
    sources = Counter(m["source"] for a in seed.accounts.values() for m in a["payment_methods"].values())
    assert sources["credit_card"] >= 300 and sources["gift_card"] >= 50
    balances = {
        m["balance"] for a in seed.accounts.values() for m in a["payment_methods"].values() if "balance" in m
    }
    assert 0 in balances and max(balances) >= 300
