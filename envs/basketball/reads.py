"""Basketball read tools: find and read a fan account, its tickets and store orders, search games,
list youth camps. Each returns JSON text."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlmodel import or_

from taue.envs.basketball.generate import TEAM_NAMES
from taue.envs.basketball.models import Account, Camp, CampRegistration, Game, MerchOrder, SeasonPass, Ticket
from taue.envs.runtime.database import Store

AccountId = Annotated[str, Field(description="The fan's account id, e.g. 'maya_chen_4821'.")]
TicketId = Annotated[str, Field(description="A ticket id from the account, e.g. 'TK300123'.")]
OrderId = Annotated[str, Field(description="A team-store order id from the account, e.g. 'MO70123'.")]
GameId = Annotated[str, Field(description="A game id, e.g. 'G1234'.")]


def _dump(value: Any) -> str:
    return json.dumps(value)


def account_row(db: Store, account_id: str) -> Account:
    return db.require(Account, account_id, f"account {account_id} not found")


def ticket_row(db: Store, ticket_id: str) -> Ticket:
    return db.require(Ticket, ticket_id, f"ticket {ticket_id} not found")


def game_row(db: Store, game_id: str) -> Game:
    return db.require(Game, game_id, f"game {game_id} not found")


def order_row(db: Store, order_id: str) -> MerchOrder:
    return db.require(MerchOrder, order_id, f"order {order_id} not found")


def game_view(game: Game) -> dict[str, Any]:
    """A game as the agent reads it: tip-off split into date and time, sections with price and seats."""
    view = game.record()
    view["date"], view["time"] = game.tip_off[:10], game.tip_off[11:16]
    view["day"] = datetime.fromisoformat(game.tip_off).strftime("%A, %B %d").replace(" 0", " ")
    if game.original_tip_off:
        view["original_date"] = game.original_tip_off[:10]
    return view


async def find_account_by_email(
    db: Store,
    email: Annotated[str, Field(description="The email address on the fan's account.")],
    zip_code: Annotated[str, Field(description="The five-digit zip code on the fan's account.")],
) -> str:
    """Find a fan's account id from their email address and zip code (both must match the account).
    Returns the account id."""
    for account in db.scan(Account, Account.email == email.strip().lower()):
        if account.zip_code == zip_code.strip():
            return account.account_id
    raise ToolError("no account matches that email and zip code")


async def get_account_details(db: Store, account_id: AccountId) -> str:
    """Get a fan account: name, contact details, payment methods (gift cards with their balance),
    youth players, ticket ids, store order ids, season passes and camp registrations."""
    account = account_row(db, account_id)
    view = account.record()
    view["season_passes"] = [db.require(SeasonPass, p, p).record() for p in account.pass_ids]
    view["camp_registrations"] = [
        r.record() for r in db.scan(CampRegistration, CampRegistration.account_id == account_id)
    ]
    return _dump(view)


async def get_ticket_details(db: Store, ticket_id: TicketId) -> str:
    """Get a ticket purchase: section, seat count, prices paid, payment method, status, and its game
    (teams, arena, date and time of tip-off, status: scheduled, postponed, rescheduled or completed)."""
    ticket = ticket_row(db, ticket_id)
    return _dump({**ticket.record(), "game": game_view(game_row(db, ticket.game_id))})


async def search_games(
    db: Store,
    team: Annotated[
        str, Field(description="A team, by full name or nickname, e.g. 'Harbor City Herons' or 'Herons'.")
    ],
) -> str:
    """List a team's games that have not been played yet (home and away, postponed ones included),
    soonest first, each with its status, date, time, arena and each section's price and seats left."""
    wanted = team.strip().lower()
    names = [n for n in TEAM_NAMES if wanted in (n.lower(), n.split()[-1].lower())]
    if not names:
        raise ToolError(f"no team named {team}; teams: {', '.join(TEAM_NAMES)}")
    games = db.scan(
        Game, or_(Game.home_team == names[0], Game.away_team == names[0]), Game.status != "completed"
    )
    return _dump([game_view(g) for g in sorted(games, key=lambda g: (g.tip_off, g.game_id))])


async def get_order_details(db: Store, order_id: OrderId) -> str:
    """Get a team-store order: its items (item id, size, price, whether personalized, status), dates
    placed and delivered, status, payment method and refunds."""
    return _dump(order_row(db, order_id).record())


async def list_camps(db: Store) -> str:
    """List every youth camp and clinic: team, dates, location, age range, fee, capacity, spots left and
    whether registration is open."""
    return _dump([camp.record() for camp in db.scan(Camp)])


READS = (
    find_account_by_email,
    get_account_details,
    get_ticket_details,
    search_games,
    get_order_details,
    list_camps,
)
