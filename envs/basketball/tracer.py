"""Basketball's parts for the Tracer (docs/tracer.md): the intents a fan can bring, each grounded on
their seed records; the seed view and phrasing are in seed_view.py, the hard rules in
policy_check.py."""

from __future__ import annotations

import random

from taue.envs.basketball.phrases import BANKS
from taue.envs.basketball.policy_check import check_policy
from taue.envs.basketball.rules import (
    DISRUPTED,
    age_on,
    cancel_problem,
    hours_until,
    pause_problem,
    registration_problem,
    return_problem,
)
from taue.envs.basketball.seed_view import (
    CLOCK,
    PERSONAS,
    SECTION_WORDS,
    BasketballView,
    Record,
    customers,
    listed,
    load,
    long_date,
    method_words,
    pick_method,
    shuffled,
)
from taue.envs.runtime.authoring import Alternative, Customer, Grounded, Intent, Lookups, TracerSpec, write

# ------------------------------------------------------------------------------------------- tickets


def _ticket_goal(view: BasketballView, ticket: Record, **fields) -> Grounded:
    """An intent about one ticket: read the account's tickets up to it, touching it, naming it."""
    fields["bindings"] = {"ticket_id": view.ticket_lookups(ticket), **fields.get("bindings", {})}
    fields.setdefault("entities", frozenset({ticket["ticket_id"]}))
    fields.setdefault("discoverable", {"ticket_id": ticket["ticket_id"]})
    fields.setdefault("evidence", (ticket["ticket_id"],))
    return Grounded(**fields)


def _tickets(view: BasketballView, customer: Customer, rng: random.Random, *statuses: str) -> list[Record]:
    found = [
        t
        for t in view.described_tickets(customer.id)
        if t["status"] == "active" and view.games[t["game_id"]]["status"] in statuses
    ]
    return shuffled(found, rng)


def _cancel(view: BasketballView, ticket: Record, rng: random.Random, bank: str, reason: str) -> Grounded:
    words = view.ticket_words(ticket)
    if reason == "" and ticket["quantity"] > 1 and rng.random() < 0.5:
        reason = "several"
    wording = BANKS[bank].word(rng, {"tickets": words}, reason=reason)
    return _ticket_goal(
        view,
        ticket,
        **wording.fields(),
        write=write("cancel_tickets", ticket_id=ticket["ticket_id"]),
        known={"tickets_to_cancel": words},
    )


def cancel_ticket(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    for ticket in _tickets(view, customer, rng, "scheduled"):
        if cancel_problem(ticket, view.games[ticket["game_id"]], CLOCK) is None:
            return _cancel(view, ticket, rng, "cancel_ticket", "")
    return None


def refund_disrupted(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    for ticket in _tickets(view, customer, rng, *DISRUPTED):
        game = view.games[ticket["game_id"]]
        if cancel_problem(ticket, game, CLOCK) is None:
            reason = game["status"] if rng.random() < 0.75 else ""
            return _cancel(view, ticket, rng, "refund_disrupted", reason)
    return None


def cancel_late(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    for ticket in _tickets(view, customer, rng, "scheduled"):
        if 0 < hours_until(view.games[ticket["game_id"]]["tip_off"], CLOCK) < 48:
            return _cancel(view, ticket, rng, "cancel_late", "")
    return None


def new_game_words(game: Record) -> str:
    return f"the {game['away_team']} at {game['home_team']} game on {long_date(game['tip_off'])}"


def _direction(old: Record, new: Record) -> str:
    """Which reasons fit a move: a postponed game has no date to compare; otherwise sooner or later."""
    if old["status"] == "postponed":
        return "postponed"
    return "sooner" if new["tip_off"] < old["tip_off"] else "later"


def _exchange(
    view: BasketballView, customer: Customer, rng: random.Random, statuses: tuple, bank: str
) -> Grounded | None:
    for ticket in _tickets(view, customer, rng, *statuses):
        old = view.games[ticket["game_id"]]
        options = [
            g
            for g in view.home_games_on_sale(old["home_team"], skip=old["game_id"])
            if g["sections"][ticket["section"]]["seats_left"] >= ticket["quantity"]
            and long_date(g["tip_off"]) != long_date(old["original_tip_off"] or old["tip_off"])
        ]
        if ticket["exchanged_from"] or not options:
            continue
        new = rng.choice(options)
        words, target = view.ticket_words(ticket), new_game_words(new)
        reason = _direction(old, new) if rng.random() < 0.8 else ""
        wording = BANKS[bank].word(rng, {"tickets": words, "target": target}, reason=reason)
        return _ticket_goal(
            view,
            ticket,
            **wording.fields(),
            bindings={"team": old["home_team"]},
            write=write("exchange_tickets", ticket_id=ticket["ticket_id"], new_game_id=new["game_id"]),
            entities=frozenset({ticket["ticket_id"], new["game_id"]}),
            known={"tickets_to_move": words, "wanted_game": target},
            discoverable={"ticket_id": ticket["ticket_id"], "new_game_id": new["game_id"]},
            evidence=(ticket["ticket_id"], new["game_id"]),
        )
    return None


def exchange_disrupted(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _exchange(view, customer, rng, DISRUPTED, "exchange_disrupted")


def cancel_instead(
    view: BasketballView, customer: Customer, refused: Grounded, rng: random.Random
) -> Grounded | None:
    """The policy's alternative to exchanging tickets of a game that goes ahead: cancelling them
    under the cancellation rules (a refund less the fee), which the fan takes."""
    assert refused.write is not None
    ticket = view.tickets[refused.write.arguments["ticket_id"]]
    if cancel_problem(ticket, view.games[ticket["game_id"]], CLOCK) is not None:
        return None
    return _cancel(view, ticket, rng, "cancel_instead", "")


def exchange_regular(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _exchange(view, customer, rng, ("scheduled",), "exchange_regular")


def new_date(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    for ticket in _tickets(view, customer, rng, "rescheduled"):
        words, game = view.ticket_words(ticket), view.games[ticket["game_id"]]
        return _ticket_goal(
            view,
            ticket,
            kind="information",
            **BANKS["new_date"].word(rng, {"tickets": words}).fields(),
            known={"tickets_to_check": words},
            entities=frozenset({ticket["ticket_id"]}),
            evidence=(long_date(game["tip_off"]),),
        )
    return None


def buy_seats(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    account = view.accounts[customer.id]
    team = (
        account["favorite_team"]
        if rng.random() < 0.7
        else rng.choice(sorted({g["home_team"] for g in view.games.values()}))
    )
    for game in shuffled(view.home_games_on_sale(team), rng):
        section = rng.choice(("upper", "upper", "lower", "lower", "courtside"))
        quantity = rng.choice((1, 2, 2, 3, 4)) if section != "courtside" else rng.choice((1, 2))
        if (
            game["sections"][section]["seats_left"] < quantity
            or view.seats_held(customer.id, game["game_id"]) + quantity > 8
        ):
            continue
        method = pick_method(view, customer.id, (game["sections"][section]["price"] + 4) * quantity, rng)
        if method is None:
            return None
        words, pay = new_game_words(game), method_words(method)
        seats = f"{quantity} {section} seat{'s' * (quantity > 1)}"
        reason = "courtside" if section == "courtside" else ("one" if quantity == 1 else "several")
        wording = BANKS["buy_seats"].word(
            rng, {"seats": seats, "game": words, "pay": pay}, reason=reason if rng.random() < 0.7 else ""
        )
        return Grounded(
            **wording.fields(),
            # a careful agent may search the visiting team's schedule before the home team's
            bindings={"team": Lookups((game["away_team"], team))},
            write=write(
                "buy_tickets",
                account_id=customer.id,
                game_id=game["game_id"],
                section=section,
                quantity=quantity,
                payment_method_id=method["id"],
            ),
            entities=frozenset({game["game_id"], f"{customer.id}:purchase"}),
            known={"wanted_game": words, "seats_wanted": seats, "pay_with": pay},
            discoverable={"game_id": game["game_id"], "payment_method_id": method["id"]},
            evidence=(game["game_id"],),
        )
    return None


# ------------------------------------------------------------------------------------------ season passes


def pass_words(season_pass: Record) -> str:
    return f"{SECTION_WORDS[season_pass['tier']]} season pass for the {season_pass['team']}"


def _pause(season_pass: Record, months: int, rng: random.Random, bank: str) -> Grounded:
    words, length = pass_words(season_pass), f"{months} month{'s' * (months > 1)}"
    return Grounded(
        **BANKS[bank].word(rng, {"pass_words": words, "length": length}).fields(),
        bindings={"team": season_pass["team"]},
        write=write("pause_season_pass", pass_id=season_pass["pass_id"], months=months),
        entities=frozenset({season_pass["pass_id"]}),
        known={"pass_to_pause": words, "pause_length": length},
        discoverable={"pass_id": season_pass["pass_id"]},
        evidence=(season_pass["pass_id"],),
    )


def pause_pass(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    months = rng.choice((1, 2))
    for season_pass in shuffled(view.passes_of(customer.id), rng):
        if pause_problem(season_pass, months) is None:
            return _pause(season_pass, months, rng, "pause_pass")
    return None


def pause_denied(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    months = rng.choice((1, 2))
    for season_pass in shuffled(view.passes_of(customer.id), rng):
        if pause_problem(season_pass, months) is not None:
            return _pause(season_pass, months, rng, "pause_denied")
    return None


# --------------------------------------------------------------------------------------------- returns


def order_words(order: Record) -> str:
    return f"team-store order placed on {long_date(order['placed_at'])}"


def item_words(line: Record) -> str:
    return line["name"] if line["size"] == "ONE" else f"{line['name']} (size {line['size']})"


def _return(
    view: BasketballView, order: Record, lines: list[Record], rng: random.Random, bank: str, reason: str = ""
) -> Grounded:
    words, items = order_words(order), listed([item_words(line) for line in lines])
    if not reason and all(line["size"] != "ONE" for line in lines) and rng.random() < 0.6:
        reason = "sized"
    return Grounded(
        **BANKS[bank].word(rng, {"items": items, "order": words}, reason=reason).fields(),
        bindings={"order_id": view.order_lookups(order)},
        write=write(
            "return_order_items", order_id=order["order_id"], item_ids=[line["item_id"] for line in lines]
        ),
        entities=frozenset({order["order_id"]}),
        known={"order_to_return_from": words, "items_to_return": items},
        discoverable={"order_id": order["order_id"]},
        evidence=(order["order_id"],),
    )


def _orders(view: BasketballView, customer: Customer, rng: random.Random) -> list[Record]:
    orders = view.orders_of(customer.id)
    words = [order_words(o) for o in orders]
    return shuffled([o for o, w in zip(orders, words, strict=True) if words.count(w) == 1], rng)


def return_items(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    for order in _orders(view, customer, rng):
        lines = [line for line in order["items"] if line["status"] == "ordered" and not line["personalized"]]
        if not lines:
            continue
        chosen = sorted(
            rng.sample(lines, min(len(lines), rng.choice((1, 1, 2)))), key=lambda line: line["item_id"]
        )
        if return_problem(order, [line["item_id"] for line in chosen], CLOCK) is None:
            return _return(view, order, chosen, rng, "return_items")
    return None


def return_denied(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    for order in _orders(view, customer, rng):
        if order["status"] != "delivered":
            continue
        personal = [line for line in order["items"] if line["personalized"]]
        plain = [line for line in order["items"] if line["status"] == "ordered" and not line["personalized"]]
        chosen = personal[:1] if personal and rng.random() < 0.5 else plain[:1]
        problem = return_problem(order, [chosen[0]["item_id"]], CLOCK) if chosen else None
        if problem is not None:
            reason = {"return-window": "late", "return-personalized": "personalized"}.get(problem[0], "")
            return _return(view, order, chosen, rng, "return_denied", reason)
    return None


# ----------------------------------------------------------------------------------------------- camps


def _register(
    customer: Customer, camp: Record, player: Record, method: Record, rng: random.Random, bank: str
) -> Grounded:
    pay = method_words(method)
    name = player["name"]
    return Grounded(
        **BANKS[bank]
        .word(rng, {"player": name, "first": name.split()[0], "camp": camp["name"], "pay": pay})
        .fields(),
        bindings={},
        write=write(
            "register_camp_player",
            account_id=customer.id,
            camp_id=camp["camp_id"],
            player_name=name,
            payment_method_id=method["id"],
        ),
        entities=frozenset({camp["camp_id"], f"{customer.id}:{name}"}),
        known={"player": name, "camp_wanted": camp["name"], "pay_with": pay},
        discoverable={"camp_id": camp["camp_id"], "payment_method_id": method["id"]},
        evidence=(camp["camp_id"],),
    )


def _camp_choices(
    view: BasketballView, customer: Customer, rng: random.Random, allowed: bool
) -> Grounded | None:
    account = view.accounts[customer.id]
    camps = [c for c in view.camps.values() if c["status"] == "open"]
    for player in shuffled(account["players"], rng):
        for camp in shuffled(camps, rng):
            problem = registration_problem(
                account, camp, player["name"], view.registered(camp["camp_id"]), CLOCK
            )
            near = abs(
                age_on(player["birth_date"], camp["start_date"]) - (camp["min_age"] + camp["max_age"]) / 2
            )
            if (problem is None) != allowed or (
                problem and (problem[0] not in ("camp-age", "camp-full") or near > 6)
            ):
                continue
            method = pick_method(view, customer.id, camp["fee"], rng)
            if method is not None:
                bank = "register_player" if allowed else "register_denied"
                return _register(customer, camp, player, method, rng, bank)
    return None


def register_player(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _camp_choices(view, customer, rng, allowed=True)


def register_denied(view: BasketballView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _camp_choices(view, customer, rng, allowed=False)


# ---------------------------------------------------------------------------------------------- intents

TICKET = ("get_ticket_details",)
EXCHANGE = ("get_ticket_details", "search_games")
ORDER = ("get_order_details",)
CAMPS = ("list_camps",)
GAMES = ("search_games",)

INTENTS = (
    Intent("buy_seats", "buy_tickets", buy_seats, "buying game tickets", GAMES, GAMES),
    Intent("cancel_ticket", "cancel_tickets", cancel_ticket, "cancelling game tickets", TICKET, TICKET),
    Intent(
        "refund_disrupted", "cancel_tickets", refund_disrupted, "a refund for a moved game", TICKET, TICKET
    ),
    Intent(
        "exchange_disrupted",
        "exchange_tickets",
        exchange_disrupted,
        "exchanging tickets for a moved game",
        EXCHANGE,
        EXCHANGE,
    ),
    Intent("pause_pass", "pause_season_pass", pause_pass, "pausing a season pass", GAMES),
    Intent("return_items", "return_order_items", return_items, "returning team-store items", ORDER, ORDER),
    Intent(
        "register_player",
        "register_camp_player",
        register_player,
        "signing a child up for a camp",
        CAMPS,
        CAMPS,
    ),
    Intent("new_date", "get_ticket_details", new_date, "a rescheduled game", TICKET, TICKET, weight=0.5),
    Intent(
        "cancel_late",
        "cancel_tickets",
        cancel_late,
        "cancelling game tickets",
        TICKET,
        TICKET,
        challenge=True,
    ),
    Intent(
        "exchange_regular",
        "exchange_tickets",
        exchange_regular,
        "exchanging game tickets",
        EXCHANGE,
        EXCHANGE,
        challenge=True,
        alternative=Alternative("cancel_instead", "cancel_tickets", cancel_instead),
    ),
    Intent("pause_denied", "pause_season_pass", pause_denied, "pausing a season pass", GAMES, challenge=True),
    Intent(
        "return_denied",
        "return_order_items",
        return_denied,
        "returning team-store items",
        ORDER,
        ORDER,
        challenge=True,
    ),
    Intent(
        "register_denied",
        "register_camp_player",
        register_denied,
        "signing a child up for a camp",
        CAMPS,
        CAMPS,
        challenge=True,
    ),
)


TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={2: 0.65, 3: 0.28, 4: 0.07},
    intent_counts={2: 0.2, 3: 0.45, 4: 0.35},
)
