"""Basketball's policy as code: the hard rules of policy.md that the Tracer checks writes against
(docs/tracer.md). A gold write must break none; a policy challenge's asked-for write must break at
least one, and the broken rules' `reasons` are the phrases a refusal is accepted with. The checks
themselves are rules.py's, the same functions the write tools run."""

from __future__ import annotations

from taue.contracts.tasks import Action
from taue.envs.basketball import rules
from taue.envs.basketball.rules import CLOCK
from taue.envs.basketball.seed_view import BasketballView
from taue.envs.runtime.authoring import Rule
from taue.envs.runtime.money import cents

RULES = {
    rule.id: rule
    for rule in (
        Rule(
            "ticket-active",
            "Only active tickets can be cancelled or exchanged.",
            ("not active", "already cancelled"),
        ),
        Rule(
            "cancel-window",
            "No cancellation within 48 hours of tip-off (postponed games excepted).",
            ("48 hours", "too close to tip-off"),
        ),
        Rule("game-on-sale", "Only upcoming scheduled or rescheduled games are on sale.", ("not on sale",)),
        Rule("seats", "Only seats left in the section can be sold.", ("seats left", "sold out")),
        Rule(
            "ticket-limit",
            "1 to 8 seats a purchase, at most 8 per account and game.",
            ("8 seats", "eight seats"),
        ),
        Rule(
            "exchange-disrupted",
            "Only tickets for a postponed or rescheduled game can be exchanged.",
            ("postponed or rescheduled", "cannot be exchanged"),
        ),
        Rule(
            "exchange-once", "A ticket can be exchanged only once.", ("exchanged once", "already exchanged")
        ),
        Rule(
            "exchange-same-team",
            "An exchange stays with the same home team.",
            ("same home team", "home game"),
        ),
        Rule(
            "payment",
            "Pay with a method of the account; a gift card must cover it.",
            ("balance", "payment method"),
        ),
        Rule("pause-length", "A pause lasts 1 or 2 months.", ("1 or 2 months", "two months")),
        Rule("pause-active", "Only an active pass can be paused.", ("already paused", "not active")),
        Rule("pause-courtside", "Courtside passes cannot be paused.", ("courtside",)),
        Rule(
            "pause-once",
            "A pass can be paused once per season.",
            ("once per season", "one pause", "already used"),
        ),
        Rule(
            "return-delivered",
            "Only delivered orders can be returned.",
            ("not delivered", "delivered orders"),
        ),
        Rule("return-window", "Returns within 30 days of delivery.", ("30 days", "return window")),
        Rule("return-items", "Each item of the order, once, not returned before.", ("already returned",)),
        Rule("return-personalized", "Personalized items are final sale.", ("personalized", "final sale")),
        Rule("camp-player", "Only youth players listed on the account.", ("not on the account", "listed on")),
        Rule(
            "camp-open",
            "Only camps that are open and have not started.",
            ("registration is closed", "started"),
        ),
        Rule(
            "camp-age",
            "The player's age on the first day is within the range.",
            ("age range", "too old", "too young"),
        ),
        Rule("camp-duplicate", "One place per player and camp.", ("already registered",)),
        Rule("camp-full", "A full camp takes no more players.", ("full", "no spots")),
    )
}


def check_policy(view: BasketballView, action: Action) -> list[Rule]:
    """The rules of policy.md that the write `action` breaks, judged on the seed records."""
    problem = _problem(view, action)
    return [RULES[problem[0]]] if problem is not None else []


def _problem(view: BasketballView, action: Action) -> rules.Problem:
    args, name = action.arguments, action.name
    if name == "buy_tickets":
        game = view.games[args["game_id"]]
        held = view.seats_held(args["account_id"], args["game_id"])
        price = game["sections"][args["section"]]["price"]
        total = cents((price + rules.SERVICE_FEE) * args["quantity"])
        return rules.purchase_problem(game, args["section"], args["quantity"], held, CLOCK) or (
            rules.payment_problem(
                view.accounts[args["account_id"]]["payment_methods"], args["payment_method_id"], total
            )
        )
    if name in ("cancel_tickets", "exchange_tickets"):
        ticket = view.tickets[args["ticket_id"]]
        game = view.games[ticket["game_id"]]
        if name == "cancel_tickets":
            return rules.cancel_problem(ticket, game, CLOCK)
        return rules.exchange_problem(ticket, game, view.games[args["new_game_id"]], CLOCK)
    if name == "pause_season_pass":
        return rules.pause_problem(view.passes[args["pass_id"]], args["months"])
    if name == "return_order_items":
        return rules.return_problem(view.orders[args["order_id"]], args["item_ids"], CLOCK)
    if name == "register_camp_player":
        account, camp = view.accounts[args["account_id"]], view.camps[args["camp_id"]]
        taken = view.registered(args["camp_id"])
        return rules.registration_problem(account, camp, args["player_name"], taken, CLOCK) or (
            rules.payment_problem(account["payment_methods"], args["payment_method_id"], camp["fee"])
        )
    raise ValueError(f"not a basketball write: {name}")
