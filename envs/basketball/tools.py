"""Basketball write tools: buy, cancel and exchange game tickets, pause a season pass, return store
items, register a youth player for a camp; and the transfer to a human agent.

Every write checks the policy's hard rules (rules.py, shared with the Tracer's policy check) before it
changes anything and fails with a ToolError naming what is wrong; a failed call changes nothing.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from taue.envs.basketball import rules
from taue.envs.basketball.models import Account, Camp, CampRegistration, SeasonPass, Ticket
from taue.envs.basketball.reads import (
    READS,
    AccountId,
    GameId,
    OrderId,
    TicketId,
    account_row,
    game_row,
    order_row,
    ticket_row,
)
from taue.envs.runtime.common_tools import calculate, think
from taue.envs.runtime.database import Store
from taue.envs.runtime.domain import ends_conversation, writes
from taue.envs.runtime.money import cents

PaymentMethodId = Annotated[
    str,
    Field(
        description="A payment method id from the account, e.g. 'credit_card_1234567' or 'gift_card_7654321'."
    ),
]
Section = Literal["upper", "lower", "courtside"]


def _check(problem: rules.Problem) -> None:
    if problem is not None:
        raise ToolError(problem[1])


def _charge(db: Store, account: Account, payment_method_id: str, amount: float) -> None:
    _check(rules.payment_problem(account.payment_methods, payment_method_id, amount))
    method = account.payment_methods[payment_method_id]
    if method["source"] == "gift_card":
        method["balance"] = cents(method["balance"] - amount)
        db.save(account)


def _refund(db: Store, account: Account, payment_method_id: str, amount: float) -> None:
    method = account.payment_methods.get(payment_method_id)
    if method is not None and method["source"] == "gift_card":
        method["balance"] = cents(method["balance"] + amount)
        db.save(account)


# ------------------------------------------------------------------------------------------------ tickets


@writes
async def buy_tickets(
    db: Store,
    account_id: AccountId,
    game_id: GameId,
    section: Annotated[Section, Field(description="Seating section: upper, lower or courtside.")],
    quantity: Annotated[int, Field(description="How many seats, 1 to 8.")],
    payment_method_id: PaymentMethodId,
) -> str:
    """Buy seats for an upcoming game in one section. Each seat costs the section's price plus a
    4-dollar service fee; the total is charged to the payment method. Returns the new ticket."""
    account = account_row(db, account_id)
    game = game_row(db, game_id)
    held = sum(t.quantity for t in db.scan(Ticket, Ticket.account_id == account_id, Ticket.game_id == game_id)
               if t.status == "active")  # fmt: skip
    _check(rules.purchase_problem(game.record(), section, quantity, held, db.clock))
    price = game.sections[section]["price"]
    fee = cents(rules.SERVICE_FEE * quantity)
    total = cents(price * quantity + fee)
    _charge(db, account, payment_method_id, total)
    ticket = Ticket(
        ticket_id=db.next_id(Ticket, "TK", 300101), account_id=account_id, game_id=game_id, section=section,
        quantity=quantity, unit_price=price, service_fee=fee, total_paid=total,
        payment_method_id=payment_method_id, purchased_at=db.clock, status="active",
    )  # fmt: skip
    game.sections[section]["seats_left"] -= quantity
    db.save(game)
    db.save(ticket)
    account.ticket_ids.append(ticket.ticket_id)
    db.save(account)
    return json.dumps(ticket.record())


@writes
async def cancel_tickets(db: Store, ticket_id: TicketId) -> str:
    """Cancel a whole ticket purchase and refund it to the payment method it was bought with. For a
    postponed or rescheduled game everything paid is refunded; otherwise the seat price less 10 %
    (7 days or more before tip-off) or 25 % (48 hours to 7 days before); the service fee is kept.
    Not possible within 48 hours of tip-off. Returns the ticket with its refund."""
    ticket = ticket_row(db, ticket_id)
    game = game_row(db, ticket.game_id)
    _check(rules.cancel_problem(ticket.record(), game.record(), db.clock))
    refund = rules.refund_for(ticket.record(), game.record(), db.clock)
    ticket.status, ticket.refund_amount = "cancelled", refund
    db.save(ticket)
    if ticket.section in game.sections:
        game.sections[ticket.section]["seats_left"] += ticket.quantity
        db.save(game)
    _refund(db, account_row(db, ticket.account_id), ticket.payment_method_id, refund)
    return json.dumps(ticket.record())


@writes
async def exchange_tickets(
    db: Store,
    ticket_id: TicketId,
    new_game_id: Annotated[str, Field(description="The game to move the seats to, e.g. 'G1234'.")],
) -> str:
    """Move the seats of a ticket for a postponed or rescheduled game to another upcoming home game of
    the same home team, same section and seat count. Any price difference is neither charged nor
    refunded; a ticket can be exchanged once. Returns the ticket."""
    ticket = ticket_row(db, ticket_id)
    old = game_row(db, ticket.game_id)
    new = game_row(db, new_game_id)
    _check(rules.exchange_problem(ticket.record(), old.record(), new.record(), db.clock))
    new.sections[ticket.section]["seats_left"] -= ticket.quantity
    old.sections[ticket.section]["seats_left"] += ticket.quantity
    ticket.exchanged_from, ticket.game_id = old.game_id, new.game_id
    db.save(old)
    db.save(new)
    db.save(ticket)
    return json.dumps(ticket.record())


# ------------------------------------------------------------------------------------------ season passes


@writes
async def pause_season_pass(
    db: Store,
    pass_id: Annotated[str, Field(description="The season pass id, e.g. 'SP40123'.")],
    months: Annotated[int, Field(description="How long to pause: 1 or 2 months.")],
) -> str:
    """Pause an active season pass for 1 or 2 months from today; its seats for home games in that time
    are released. Once per season; courtside passes cannot be paused. Returns the pass."""
    season_pass = db.require(SeasonPass, pass_id, f"season pass {pass_id} not found")
    _check(rules.pause_problem(season_pass.record(), months))
    season_pass.status = "paused"
    season_pass.pauses_used += 1
    season_pass.paused_until = rules.add_months(db.clock, months)
    db.save(season_pass)
    return json.dumps(season_pass.record())


# ------------------------------------------------------------------------------------------------ returns


@writes
async def return_order_items(
    db: Store,
    order_id: OrderId,
    item_ids: Annotated[
        list[str], Field(description="The item ids of the order to return, each once, e.g. ['HER-JSY-M'].")
    ],
) -> str:
    """Return items of a delivered team-store order within 30 days of delivery. The items' prices are
    refunded to the order's payment method (shipping is not refunded). Personalized items are final
    sale. Returns the order."""
    order = order_row(db, order_id)
    _check(rules.return_problem(order.record(), item_ids, db.clock))
    amount = 0.0
    for line in order.items:
        if line["item_id"] in item_ids:
            line["status"] = "returned"
            amount += line["price"]
    amount = cents(amount)
    order.refunds.append(
        {"item_ids": list(item_ids), "amount": amount, "payment_method_id": order.payment_method_id}
    )
    if all(line["status"] == "returned" for line in order.items):
        order.status = "returned"
    db.save(order)
    _refund(db, account_row(db, order.account_id), order.payment_method_id, amount)
    return json.dumps(order.record())


# -------------------------------------------------------------------------------------------------- camps


@writes
async def register_camp_player(
    db: Store,
    account_id: AccountId,
    camp_id: Annotated[str, Field(description="The camp or clinic id, e.g. 'CMP105'.")],
    player_name: Annotated[str, Field(description="Full name of a youth player listed on the account.")],
    payment_method_id: PaymentMethodId,
) -> str:
    """Register a youth player of the account for a camp or clinic and charge its fee. The player's
    age on the first day must be within the camp's range, and the camp must be open with a spot left.
    Returns the registration."""
    account = account_row(db, account_id)
    camp = db.require(Camp, camp_id, f"camp {camp_id} not found")
    taken = [r.player_name for r in db.scan(CampRegistration, CampRegistration.camp_id == camp_id)
             if r.status == "confirmed"]  # fmt: skip
    _check(rules.registration_problem(account.record(), camp.record(), player_name, taken, db.clock))
    _charge(db, account, payment_method_id, camp.fee)
    player = next(p for p in account.players if p["name"].lower() == player_name.lower())
    registration = CampRegistration(
        registration_id=db.next_id(CampRegistration, "REG", 5101), account_id=account_id, camp_id=camp_id,
        player_name=player["name"], birth_date=player["birth_date"], fee_paid=camp.fee,
        payment_method_id=payment_method_id, registered_at=db.clock, status="confirmed",
    )  # fmt: skip
    camp.enrolled += 1
    db.save(camp)
    db.save(registration)
    return json.dumps(registration.record())


@ends_conversation
async def transfer_to_human_agents(
    db: Store,
    summary: Annotated[str, Field(description="Short summary of the fan's request for the human agent.")],
) -> str:
    """Hand the fan over to a human agent; the conversation ends here. Use it only when the fan asks
    for a person or the request cannot be handled with these tools and the policy."""
    return "Transfer successful"


WRITES = (
    buy_tickets,
    cancel_tickets,
    exchange_tickets,
    pause_season_pass,
    return_order_items,
    register_camp_player,
)
TOOLS = (*READS, *WRITES, calculate, think, transfer_to_human_agents)
