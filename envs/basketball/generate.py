"""Deterministic seed data for the basketball domain: a twelve-team league in mid-season.

`generate(seed)` draws everything from one `random.Random(seed)` and never reads the machine clock.
The simulated "now" is `rules.CLOCK`, mid-season, between the season's first tip-off in October and
its last in April: games before it are completed, a few are postponed or rescheduled, and tickets,
store orders and camp places sit on both sides of every time limit the policy sets.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from typing import Any

from sqlmodel import SQLModel

from taue.envs.basketball.models import Account, Camp, CampRegistration, Game, MerchOrder, SeasonPass, Ticket
from taue.envs.basketball.rules import CLOCK, SERVICE_FEE, age_on
from taue.envs.runtime.money import cents

NOW = datetime.fromisoformat(CLOCK)
SEASON = "2024-25"
SEASON_START = date(2024, 10, 22)
SEASON_END = date(2025, 4, 13)
ACCOUNT_COUNT = 360
SHIPPING_FEE = 7.95

# team | home city | arena | zip prefix
TEAMS = tuple(
    tuple(part.strip() for part in line.split("|"))
    for line in """
Harbor City Herons | Harbor City | Tidewater Arena | 210
Redwood Rangers | Redwood Falls | Timberline Center | 955
Mesa Flares | Mesa Verde | Solstice Pavilion | 852
Lakeport Lynx | Lakeport | Shoreline Arena | 532
Capital Comets | Capital City | Meridian Center | 200
Ironwood Bison | Ironwood | Forge Fieldhouse | 441
Bayview Breakers | Bayview | Pier Nine Arena | 941
Prairie Storm | Prairie Junction | Windmill Dome | 681
Silver Lake Sirens | Silver Lake | Moonstone Arena | 900
Copper Valley Coyotes | Copper Valley | Canyon Court | 857
Northgate Knights | Northgate | Citadel Arena | 551
Summit City Sherpas | Summit City | Alpine Garden | 802
""".strip().splitlines()
)
TEAM_NAMES = tuple(team[0] for team in TEAMS)
ARENAS = {team[0]: team[2] for team in TEAMS}

FIRST_NAMES = (
    "Maya", "Jordan", "Elena", "Marcus", "Priya", "Diego", "Hannah", "Malik", "Sofia", "Trevor",
    "Aisha", "Connor", "Lucia", "Darnell", "Ingrid", "Kenji", "Rosa", "Tobias", "Yara", "Wesley",
    "Nadia", "Omar", "Greta", "Andre", "Leah", "Felix", "Imani", "Caleb", "Mei", "Rafael",
    "Noor", "Quentin", "Beatriz", "Dmitri", "Tamsin", "Jamal", "Freya", "Hector", "Zoe", "Kwame",
)  # fmt: skip
LAST_NAMES = (
    "Chen", "Okafor", "Alvarez", "Brennan", "Kowalski", "Nakamura", "Haddad", "Fitzgerald", "Osei",
    "Lindqvist", "Moreau", "Petrov", "Salazar", "Whitfield", "Achebe", "Delgado", "Halvorsen", "Iyer",
    "Jablonski", "Kruger", "Mbeki", "Novak", "O'Rourke", "Quinones", "Rasmussen", "Tanaka", "Underwood",
    "Vasquez", "Wojcik", "Yilmaz", "Castellano", "Dunbar", "Esposito", "Gallagher", "Hollis", "Kimura",
)  # fmt: skip
KID_NAMES = (
    "Ava", "Liam", "Mila", "Noah", "Zara", "Eli", "Ruby", "Owen", "Isla", "Leo", "Nia", "Finn",
    "Maddie", "Jonah", "Kira", "Theo", "Luz", "Arlo", "Esme", "Miles",
)  # fmt: skip
CARD_BRANDS = ("visa", "mastercard", "amex", "discover")

# product code | name | category | price | sizes | personalized
PRODUCTS = tuple(
    (code, name, category, float(price), tuple(sizes.split()), personalized == "yes")
    for code, name, category, price, sizes, personalized in (
        tuple(part.strip() for part in line.split("|"))
        for line in """
JSY | Home Jersey | apparel | 119.99 | S M L XL XXL | no
AJS | Away Jersey | apparel | 119.99 | S M L XL XXL | no
CJS | Custom Name Jersey | apparel | 149.99 | S M L XL XXL | yes
HOD | Warm-up Hoodie | apparel | 74.99 | S M L XL XXL | no
TEE | Logo T-Shirt | apparel | 32.99 | S M L XL | no
YTH | Youth Replica Jersey | apparel | 64.99 | YS YM YL | no
CAP | Snapback Cap | accessories | 34.99 | ONE | no
BNE | Knit Beanie | accessories | 27.99 | ONE | no
BAL | Signature Basketball | equipment | 44.99 | ONE | no
SCF | Supporter Scarf | accessories | 24.99 | ONE | no
""".strip().splitlines()
    )
)

# name pattern | kind | days | min age | max age | fee range
CAMP_KINDS = (
    ("{nick} Little Dribblers Clinic", "clinic", 1, 5, 8, (45, 70)),
    ("{nick} Shooting Clinic", "clinic", 1, 9, 14, (55, 95)),
    ("{nick} Spring Skills Camp", "camp", 4, 8, 12, (180, 320)),
    ("{nick} Elite Guard Camp", "camp", 3, 13, 17, (240, 450)),
    ("{nick} Summer Hoops Camp", "camp", 5, 7, 13, (260, 420)),
)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S")


def nickname(team: str) -> str:
    return team.split()[-1]


# ----------------------------------------------------------------------------------------------- games


def _tip_time(day: date, rng: random.Random) -> datetime:
    hour, minute = (
        rng.choice(((14, 0), (15, 30))) if day.weekday() >= 5 else rng.choice(((19, 0), (19, 30), (20, 0)))
    )
    return datetime(day.year, day.month, day.day, hour, minute)


def _sections(team: str, rng: random.Random, upcoming: bool) -> dict[str, dict[str, Any]]:
    demand = 1 + 0.07 * (TEAM_NAMES.index(team) % 5)
    prices = {
        "upper": 5 * round(rng.uniform(30, 70) * demand / 5),
        "lower": 5 * round(rng.uniform(85, 180) * demand / 5),
        "courtside": 25 * round(rng.uniform(350, 900) * demand / 25),
    }
    most = {"upper": 420, "lower": 220, "courtside": 10}
    seats = {name: rng.randint(0, top) if upcoming else 0 for name, top in most.items()}
    if upcoming and rng.random() < 0.12:
        seats[rng.choice(("lower", "courtside"))] = 0
    return {name: {"price": float(prices[name]), "seats_left": seats[name]} for name in prices}


def _games(rng: random.Random) -> list[Game]:
    games, day, number = [], SEASON_START, 1001
    while day <= SEASON_END:
        teams = rng.sample(TEAM_NAMES, 2 * rng.choice((2, 3, 3, 4)))
        for home, away in zip(teams[::2], teams[1::2], strict=True):
            tip = _tip_time(day, rng)
            game = Game(
                game_id=f"G{number}", home_team=home, away_team=away, arena=ARENAS[home],
                tip_off=_stamp(tip), status="completed" if tip < NOW else "scheduled",
                sections=_sections(home, rng, tip >= NOW),
            )  # fmt: skip
            _disrupt(game, tip, rng)
            games.append(game)
            number += 1
        day += timedelta(days=1)
    return games


def _disrupt(game: Game, tip: datetime, rng: random.Random) -> None:
    """Some games are postponed (no new date yet) or rescheduled to a later date."""
    recent = tip >= NOW - timedelta(days=20)
    roll = rng.random()
    if not recent or roll > 0.14:
        return
    if roll < 0.06:
        game.status = "postponed"
        game.sections = _sections(game.home_team, rng, True)
        return
    moved = _tip_time((max(tip, NOW) + timedelta(days=rng.randint(5, 40))).date(), rng)
    if moved.date() > SEASON_END:
        return
    game.status, game.original_tip_off, game.tip_off = "rescheduled", game.tip_off, _stamp(moved)
    game.sections = _sections(game.home_team, rng, True)


# -------------------------------------------------------------------------------------------- accounts


def _payment_methods(rng: random.Random) -> dict[str, dict[str, Any]]:
    methods: dict[str, dict[str, Any]] = {}
    for _ in range(rng.choice((1, 1, 2, 2, 3))):
        if rng.random() < 0.7 or not methods:
            key = f"credit_card_{rng.randint(1000000, 9999999)}"
            methods[key] = {"source": "credit_card", "brand": rng.choice(CARD_BRANDS),
                            "last_four": f"{rng.randint(0, 9999):04d}"}  # fmt: skip
        else:
            key = f"gift_card_{rng.randint(1000000, 9999999)}"
            methods[key] = {
                "source": "gift_card",
                "balance": float(rng.choice((0, 25, 50, 80, 150, 300, 500))),
            }
    return methods


def _players(last: str, rng: random.Random) -> list[dict[str, str]]:
    if rng.random() > 0.6:
        return []
    kids = rng.sample(KID_NAMES, rng.choice((1, 1, 2, 2, 3)))
    players = []
    for kid in kids:
        born = date(2007, 9, 1) + timedelta(days=rng.randint(0, 365 * 12))
        players.append({"name": f"{kid} {last}", "birth_date": born.isoformat()})
    return sorted(players, key=lambda p: p["birth_date"])


def _accounts(rng: random.Random) -> list[Account]:
    accounts: list[Account] = []
    taken: set[str] = set()
    while len(accounts) < ACCOUNT_COUNT:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        account_id = f"{first}_{last}_{rng.randint(1000, 9999)}".lower().replace("'", "")
        email = f"{first}.{last}{rng.randint(1, 99)}@example.com".lower().replace("'", "")
        if account_id in taken or email in taken:
            continue
        taken |= {account_id, email}
        team = rng.choice(TEAMS)
        accounts.append(Account(
            account_id=account_id, first_name=first, last_name=last, email=email,
            zip_code=f"{team[3]}{rng.randint(0, 99):02d}",
            phone=f"555-{rng.randint(200, 999)}-{rng.randint(0, 9999):04d}",
            member_since=(date(2012, 1, 1) + timedelta(days=rng.randint(0, 4700))).isoformat(),
            favorite_team=team[0], payment_methods=_payment_methods(rng), players=_players(last, rng),
        ))  # fmt: skip
    return accounts


# --------------------------------------------------------------------------------------------- tickets


def _tickets(accounts: list[Account], games: list[Game], rng: random.Random) -> list[Ticket]:
    upcoming = [g for g in games if g.status != "completed"]
    past = [g for g in games if g.status == "completed"]
    soon = [
        g
        for g in upcoming
        if g.status == "scheduled" and datetime.fromisoformat(g.tip_off) < NOW + timedelta(days=2)
    ]
    tickets, number = [], 300101
    for account in accounts:
        methods = sorted(account.payment_methods)
        held: dict[str, int] = {}
        bought = []
        for _ in range(rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 9))):
            roll = rng.random()
            game = rng.choice(soon if roll < 0.06 else upcoming if roll < 0.6 else past)
            quantity = rng.choice((1, 2, 2, 2, 3, 4, 4, 5, 6))
            if held.get(game.game_id, 0) + quantity > 8:
                continue
            held[game.game_id] = held.get(game.game_id, 0) + quantity
            bought.append(_ticket(f"TK{number}", account, game, quantity, methods, games, rng))
            number += 1
        bought.sort(key=lambda t: t.purchased_at)
        account.ticket_ids = [t.ticket_id for t in bought]
        tickets += bought
    return tickets


def _ticket(
    ticket_id: str,
    account: Account,
    game: Game,
    quantity: int,
    methods: list[str],
    games: list[Game],
    rng: random.Random,
) -> Ticket:
    section = rng.choices(("upper", "lower", "courtside"), weights=(50, 40, 10))[0]
    if section == "courtside":
        quantity = min(quantity, 2)
    price = game.sections[section]["price"]
    first_tip = datetime.fromisoformat(game.original_tip_off or game.tip_off)
    bought = min(first_tip, NOW) - timedelta(days=rng.randint(1, 60), hours=rng.randint(0, 20))
    fee = cents(SERVICE_FEE * quantity)
    ticket = Ticket(
        ticket_id=ticket_id, account_id=account.account_id, game_id=game.game_id, section=section,
        quantity=quantity, unit_price=price, service_fee=fee, total_paid=cents(price * quantity + fee),
        payment_method_id=rng.choice(methods), purchased_at=_stamp(bought), status="active",
    )  # fmt: skip
    if game.status == "completed":
        ticket.status = "used"
    if rng.random() < 0.07:
        ticket.status, ticket.refund_amount = "cancelled", cents(price * quantity * 0.9)
    elif game.status in ("postponed", "rescheduled") and rng.random() < 0.2:
        # exchanged once already, into a game that was disrupted too
        earlier = [g for g in games if g.home_team == game.home_team and g.game_id != game.game_id]
        ticket.exchanged_from = rng.choice(earlier).game_id
    return ticket


# ------------------------------------------------------------------------------------------ season passes


def _passes(accounts: list[Account], rng: random.Random) -> list[SeasonPass]:
    passes, number = [], 40101
    for account in accounts:
        if rng.random() > 0.45:
            continue
        teams = [account.favorite_team] + ([rng.choice(TEAM_NAMES)] if rng.random() < 0.12 else [])
        for team in dict.fromkeys(teams):
            tier = rng.choices(("upper", "lower", "courtside"), weights=(50, 38, 12))[0]
            low, high = {"upper": (1450, 2100), "lower": (3200, 5200), "courtside": (18000, 32000)}[tier]
            section = {"upper": rng.randint(201, 230), "lower": rng.randint(101, 124), "courtside": "CS"}[
                tier
            ]
            roll = rng.random()
            status, used, until = "active", 0, None
            if roll < 0.18:
                status, used = "paused", 1
                until = (NOW.date() + timedelta(days=rng.randint(5, 55))).isoformat()
            elif roll < 0.33:
                used = 1
            passes.append(SeasonPass(
                pass_id=f"SP{number}", account_id=account.account_id, team=team, season=SEASON, tier=tier,
                seat=f"Section {section}, Row {rng.choice('ABCDEFGHJKLM')}, Seat {rng.randint(1, 24)}",
                price=float(50 * round(rng.uniform(low, high) / 50)), status=status, pauses_used=used,
                paused_until=until,
            ))  # fmt: skip
            account.pass_ids.append(f"SP{number}")
            number += 1
    return passes


# ----------------------------------------------------------------------------------------------- orders


def item_id(team: str, code: str, size: str) -> str:
    return f"{nickname(team)[:3].upper()}-{code}-{size}"


def _line(team: str, product: tuple, size: str, status: str) -> dict[str, Any]:
    code, name, _, price, _, personalized = product
    return {"item_id": item_id(team, code, size), "name": f"{nickname(team)} {name}", "size": size,
            "price": price, "personalized": personalized, "status": status}  # fmt: skip


def _orders(accounts: list[Account], rng: random.Random) -> list[MerchOrder]:
    orders, number = [], 70101
    for account in accounts:
        made = []
        for _ in range(rng.choice((0, 0, 1, 1, 2, 2, 3, 4))):
            made.append(_order(f"MO{number}", account, rng))
            number += 1
        made.sort(key=lambda o: o.placed_at)
        account.order_ids = [o.order_id for o in made]
        orders += made
    return orders


def _order(order_id: str, account: Account, rng: random.Random) -> MerchOrder:
    placed = NOW - timedelta(days=rng.choice((1, 3, 5)) if rng.random() < 0.15 else rng.randint(7, 75),
                             hours=rng.randint(0, 20))  # fmt: skip
    age = (NOW - placed).days
    status = "processing" if age < 2 else "shipped" if age < 6 else "delivered"
    team = account.favorite_team if rng.random() < 0.8 else rng.choice(TEAM_NAMES)
    lines: list[dict[str, Any]] = []
    for product in rng.sample(PRODUCTS, rng.choice((1, 1, 2, 2, 3))):
        lines.append(_line(team, product, rng.choice(product[4]), "ordered"))
    if rng.random() < 0.25 and not any(line["personalized"] for line in lines):
        custom = next(p for p in PRODUCTS if p[5])
        lines.append(_line(team, custom, rng.choice(custom[4]), "ordered"))
    delivered = _stamp(placed + timedelta(days=rng.randint(3, 5))) if status == "delivered" else None
    subtotal = sum(line["price"] for line in lines)
    order = MerchOrder(
        order_id=order_id, account_id=account.account_id, placed_at=_stamp(placed), delivered_at=delivered,
        status=status, items=lines, shipping_fee=SHIPPING_FEE, total_paid=cents(subtotal + SHIPPING_FEE),
        payment_method_id=rng.choice(sorted(account.payment_methods)),
    )  # fmt: skip
    if status == "delivered" and age > 40 and rng.random() < 0.15:
        returnable = [line for line in lines if not line["personalized"]]
        if returnable:
            back = returnable[0]
            back["status"] = "returned"
            order.refunds = [{"item_ids": [back["item_id"]], "amount": back["price"],
                              "payment_method_id": order.payment_method_id}]  # fmt: skip
    return order


# ------------------------------------------------------------------------------------------------ camps


def _camps(rng: random.Random) -> list[Camp]:
    camps, number = [], 101
    for team, city, _, _ in TEAMS:
        for name, kind, days, low, high, fees in rng.sample(CAMP_KINDS, 3):
            start = date(2025, 1, 25) + timedelta(days=rng.randint(0, 170))
            capacity = rng.choice((16, 20, 24, 30, 40, 48, 60))
            full = rng.random() < 0.22
            camps.append(Camp(
                camp_id=f"CMP{number}", name=name.format(nick=nickname(team)), team=team, kind=kind,
                location=f"{city} Community Fieldhouse" if kind == "camp" else ARENAS[team],
                start_date=start.isoformat(), end_date=(start + timedelta(days=days - 1)).isoformat(),
                min_age=low, max_age=high, capacity=capacity,
                enrolled=capacity if full else rng.randint(0, capacity - 2),
                fee=float(5 * round(rng.uniform(*fees) / 5)),
                status="closed" if start <= NOW.date() else "open",
            ))  # fmt: skip
            number += 1
    return camps


def _registrations(accounts: list[Account], camps: list[Camp], rng: random.Random) -> list[CampRegistration]:
    registrations, number = [], 5101
    for account in accounts:
        for player in account.players:
            if rng.random() > 0.4:
                continue
            fits = [c for c in camps if c.min_age <= age_on(player["birth_date"], c.start_date) <= c.max_age]
            fits = [c for c in fits if c.enrolled > 0]
            if not fits:
                continue
            camp = rng.choice(fits)
            method = rng.choice(sorted(account.payment_methods))
            registered = NOW - timedelta(days=rng.randint(3, 60))
            registrations.append(CampRegistration(
                registration_id=f"REG{number}", account_id=account.account_id, camp_id=camp.camp_id,
                player_name=player["name"], birth_date=player["birth_date"], fee_paid=camp.fee,
                payment_method_id=method, registered_at=_stamp(registered), status="confirmed",
            ))  # fmt: skip
            number += 1
    return registrations


def generate(seed: int) -> list[SQLModel]:
    rng = random.Random(seed)
    games = _games(rng)
    accounts = _accounts(rng)
    tickets = _tickets(accounts, games, rng)
    passes = _passes(accounts, rng)
    orders = _orders(accounts, rng)
    camps = _camps(rng)
    registrations = _registrations(accounts, camps, rng)
    return [*accounts, *games, *tickets, *passes, *orders, *camps, *registrations]
