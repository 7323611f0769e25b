"""Basketball's seed records as the Tracer reads them (docs/tracer.md): an indexed view, the
customers (fans) and the phrasing helpers its intents and policy check share."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.basketball.generate import generate
from taue.envs.basketball.models import Account, Camp, CampRegistration, Game, MerchOrder, SeasonPass, Ticket
from taue.envs.basketball.rules import CLOCK, hours_until
from taue.envs.runtime.authoring import Customer, Lookups

__all__ = ["CLOCK", "BasketballView", "customers", "load"]

Record = dict[str, Any]
SECTION_WORDS = {"upper": "upper-level", "lower": "lower-level", "courtside": "courtside"}

PERSONAS = (
    "a season-ticket holder who has followed the team for twenty years",
    "a parent juggling work and three kids' practice schedules",
    "a college student who saves up for a few games a year",
    "a nurse who plans games around night shifts",
    "a retired bus driver who never misses a home game",
    "a small-business owner who treats clients to games",
    "a fan who moved across the country and follows the team remotely",
    "a first-time buyer who double-checks every detail",
    "a youth coach organising outings for the team",
    "a busy lawyer who wants things settled quickly",
    "a grandparent buying gifts for the grandchildren",
    "a superfan who collects every jersey",
)  # fmt: skip


@dataclass
class BasketballView:
    accounts: dict[str, Record]
    games: dict[str, Record]
    tickets: dict[str, Record]
    passes: dict[str, Record]
    orders: dict[str, Record]
    camps: dict[str, Record]
    registrations: dict[str, Record]
    email_counts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for account in self.accounts.values():
            self.email_counts[account["email"]] = self.email_counts.get(account["email"], 0) + 1

    def tickets_of(self, account_id: str) -> list[Record]:
        return [self.tickets[t] for t in self.accounts[account_id]["ticket_ids"]]

    def orders_of(self, account_id: str) -> list[Record]:
        return [self.orders[o] for o in self.accounts[account_id]["order_ids"]]

    def passes_of(self, account_id: str) -> list[Record]:
        return [self.passes[p] for p in self.accounts[account_id]["pass_ids"]]

    def seats_held(self, account_id: str, game_id: str) -> int:
        return sum(
            t["quantity"]
            for t in self.tickets_of(account_id)
            if t["game_id"] == game_id and t["status"] == "active"
        )

    def registered(self, camp_id: str) -> list[str]:
        return [
            r["player_name"]
            for r in self.registrations.values()
            if r["camp_id"] == camp_id and r["status"] == "confirmed"
        ]

    def ticket_lookups(self, ticket: Record) -> Lookups:
        """The owner's tickets, in their account's order, up to the wanted one."""
        ids = self.accounts[ticket["account_id"]]["ticket_ids"]
        return Lookups(tuple(ids[: ids.index(ticket["ticket_id"]) + 1]))

    def order_lookups(self, order: Record) -> Lookups:
        ids = self.accounts[order["account_id"]]["order_ids"]
        return Lookups(tuple(ids[: ids.index(order["order_id"]) + 1]))

    def described_tickets(self, account_id: str) -> list[Record]:
        """The account's tickets whose description names them unambiguously."""
        tickets = self.tickets_of(account_id)
        words = [self.ticket_words(t) for t in tickets]
        return [t for t, w in zip(tickets, words, strict=True) if words.count(w) == 1]

    def ticket_words(self, ticket: Record) -> str:
        seats = "seat" if ticket["quantity"] == 1 else "seats"
        game = self.game_words(self.games[ticket["game_id"]])
        return f"{ticket['quantity']} {SECTION_WORDS[ticket['section']]} {seats} for {game}"

    def game_words(self, game: Record) -> str:
        when = game["original_tip_off"] or game["tip_off"]
        planned = "originally set for " if game["status"] in ("postponed", "rescheduled") else "on "
        return f"the {game['away_team']} at {game['home_team']} game {planned}{long_date(when)}"

    def home_games_on_sale(self, team: str, skip: str = "") -> list[Record]:
        """The team's upcoming home games that are on sale, described unambiguously."""
        games = [
            g
            for g in self.games.values()
            if g["home_team"] == team
            and g["game_id"] != skip
            and g["status"] in ("scheduled", "rescheduled")
            and hours_until(g["tip_off"], CLOCK) > 0
        ]
        return sorted(games, key=lambda g: g["game_id"])

    def methods(self, account_id: str, amount: float) -> list[Record]:
        """Payment methods that can pay `amount`: credit cards, gift cards whose balance covers it."""
        methods = self.accounts[account_id]["payment_methods"]
        return [
            {**methods[k], "id": k}
            for k in sorted(methods)
            if methods[k]["source"] == "credit_card" or methods[k]["balance"] >= amount
        ]


def load(seed: int) -> BasketballView:
    rows = generate(seed)

    def table(model: type, key: str) -> dict[str, Record]:
        return {getattr(r, key): r.model_dump() for r in rows if isinstance(r, model)}

    return BasketballView(
        accounts=table(Account, "account_id"),
        games=table(Game, "game_id"),
        tickets=table(Ticket, "ticket_id"),
        passes=table(SeasonPass, "pass_id"),
        orders=table(MerchOrder, "order_id"),
        camps=table(Camp, "camp_id"),
        registrations=table(CampRegistration, "registration_id"),
    )


def customers(view: BasketballView) -> list[Customer]:
    """Every fan: two in three identify with email and zip code, the others with their account id."""
    result = []
    for index, (account_id, account) in enumerate(sorted(view.accounts.items())):
        name = f"{account['first_name']} {account['last_name']}"
        read = Action(name="get_account_details", arguments={"account_id": account_id})
        if index % 3 == 2 or view.email_counts[account["email"]] > 1:
            result.append(Customer(account_id, name, (read,), {"account_id": account_id}, {}))
            continue
        known = {"email": account["email"], "zip_code": account["zip_code"]}
        identity = (Action(name="find_account_by_email", arguments=known), read)
        result.append(Customer(account_id, name, identity, known, {"account_id": account_id}))
    return result


# ------------------------------------------------------------------------------------------- phrasing


def long_date(moment: str) -> str:
    return datetime.fromisoformat(moment).strftime("%B %d").replace(" 0", " ")


def method_words(method: Record) -> str:
    if method["source"] == "credit_card":
        return f"{method['brand'].title()} credit card ending in {method['last_four']}"
    return "gift card"


def pick_method(view: BasketballView, account_id: str, amount: float, rng: random.Random) -> Record | None:
    """A method that can pay, described unambiguously (only one gift card may be called 'gift card')."""
    usable = view.methods(account_id, amount)
    gifts = [m for m in view.methods(account_id, 0) if m["source"] == "gift_card"]
    usable = [m for m in usable if m["source"] == "credit_card" or len(gifts) == 1]
    return rng.choice(usable) if usable else None


def listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def shuffled(records: list[Record], rng: random.Random) -> list[Record]:
    records = list(records)
    rng.shuffle(records)
    return records
