"""Basketball fan-services tables: fan accounts, games and their tickets, season passes, team-store
merchandise orders, and youth camps with their registrations.

Money is stored as float dollars rounded to cents. Nested values (payment methods, a game's section
prices and seats, an order's lines) are JSON text columns, so their order and types survive exactly.
`record()` gives the JSON object a tool shows the agent.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import registry
from sqlmodel import Field

from taue.envs.runtime.database import DomainTable, JSONText

SECTIONS = ("upper", "lower", "courtside")
TIERS = ("upper", "lower", "courtside")


class BasketballTable(DomainTable, registry=registry()):
    """Base of the basketball tables (a record is every column, in declared order)."""

    def record(self) -> dict[str, Any]:
        """What a tool shows of the row: its record, and for some tables derived values."""
        return self.to_record()


class Account(BasketballTable, table=True):
    """A fan account. `payment_methods`: id -> {source, brand?, last_four?, balance?}; `players`: the
    youth players (children) the account may register for camps."""

    __tablename__ = "accounts"

    account_id: str = Field(primary_key=True)
    first_name: str
    last_name: str
    email: str = Field(index=True)
    zip_code: str
    phone: str
    member_since: str
    favorite_team: str
    payment_methods: dict[str, dict[str, Any]] = Field(default_factory=dict, sa_type=JSONText)
    players: list[dict[str, str]] = Field(default_factory=list, sa_type=JSONText)
    ticket_ids: list[str] = Field(default_factory=list, sa_type=JSONText)
    order_ids: list[str] = Field(default_factory=list, sa_type=JSONText)
    pass_ids: list[str] = Field(default_factory=list, sa_type=JSONText)


class Game(BasketballTable, table=True):
    """A league game. `status`: scheduled, postponed (no new date yet), rescheduled (moved to
    `tip_off`, first planned for `original_tip_off`) or completed. `sections`: section ->
    {price, seats_left}."""

    __tablename__ = "games"

    game_id: str = Field(primary_key=True)
    home_team: str = Field(index=True)
    away_team: str = Field(index=True)
    arena: str
    tip_off: str
    original_tip_off: str | None = None
    status: str
    sections: dict[str, dict[str, Any]] = Field(default_factory=dict, sa_type=JSONText)


class Ticket(BasketballTable, table=True):
    """A ticket purchase: `quantity` seats in one section of one game. `status`: active, cancelled
    or used. `exchanged_from` is the game it was first bought for, once exchanged."""

    __tablename__ = "tickets"

    ticket_id: str = Field(primary_key=True)
    account_id: str = Field(index=True)
    game_id: str
    section: str
    quantity: int
    unit_price: float
    service_fee: float
    total_paid: float
    payment_method_id: str
    purchased_at: str
    status: str
    refund_amount: float | None = None
    exchanged_from: str | None = None


class SeasonPass(BasketballTable, table=True):
    """A season pass for one team's home games. `status`: active or paused (until `paused_until`)."""

    __tablename__ = "season_passes"

    pass_id: str = Field(primary_key=True)
    account_id: str = Field(index=True)
    team: str
    season: str
    tier: str
    seat: str
    price: float
    status: str
    pauses_used: int
    paused_until: str | None = None


class MerchOrder(BasketballTable, table=True):
    """A team-store order. `items`: lines {item_id, product_id, name, size, price, personalized,
    status}; `status`: processing, shipped, delivered or returned; `refunds`: {item_ids, amount,
    payment_method_id}."""

    __tablename__ = "merch_orders"

    order_id: str = Field(primary_key=True)
    account_id: str = Field(index=True)
    placed_at: str
    delivered_at: str | None = None
    status: str
    items: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONText)
    shipping_fee: float
    total_paid: float
    payment_method_id: str
    refunds: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONText)


class Camp(BasketballTable, table=True):
    """A youth camp (several days) or clinic (one day) run by a team. `status`: open or closed."""

    __tablename__ = "camps"

    camp_id: str = Field(primary_key=True)
    name: str
    team: str
    kind: str
    location: str
    start_date: str
    end_date: str
    min_age: int
    max_age: int
    capacity: int
    enrolled: int
    fee: float
    status: str

    def record(self) -> dict[str, Any]:
        return {**self.to_record(), "spots_left": self.capacity - self.enrolled}


class CampRegistration(BasketballTable, table=True):
    """One youth player's place at a camp, paid by the account."""

    __tablename__ = "camp_registrations"

    registration_id: str = Field(primary_key=True)
    account_id: str = Field(index=True)
    camp_id: str
    player_name: str
    birth_date: str
    fee_paid: float
    payment_method_id: str
    registered_at: str
    status: str


TABLES: tuple[type[BasketballTable], ...] = (
    Account,
    Camp,
    CampRegistration,
    Game,
    MerchOrder,
    SeasonPass,
    Ticket,
)
