"""Deterministic seed data for the bank: customers, their accounts and history, cards, payees, loans
and past disputes.

`generate(seed)` draws everything from one `random.Random(seed)` and never reads the machine clock;
dates are placed around the domain clock (rules.TODAY). Statuses and figures vary on purpose so that
each rule of the policy has records on both sides: accounts near their daily limit or low on funds,
savings accounts out of withdrawals, frozen, blocked and lost cards, purchases inside and outside the
dispute window and already disputed ones, past-due loans, loans whose date moved recently, mortgages.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, timedelta

from sqlmodel import SQLModel

from taue.envs.bank.models import Account, Card, Customer, Dispute, Loan, Payee, Transaction
from taue.envs.bank.rules import CARD_LIMIT_CAP, DAILY_TRANSFER_LIMIT, TODAY, cents, shift_days

CUSTOMER_COUNT = 360
HISTORY_DAYS = 120

FIRST_NAMES = (
    "Amara", "Benedikt", "Calla", "Dario", "Eira", "Felix", "Greta", "Hugo", "Imani", "Joaquin",
    "Keiko", "Leander", "Mireille", "Nadir", "Ottilie", "Pavel", "Quinn", "Rosalind", "Stellan", "Tamsin",
    "Umberto", "Vivienne", "Wilhelmina", "Xander", "Yusra", "Zeno", "Aurelio", "Brigid", "Cassius",
    "Delphine", "Emeric", "Fenna", "Gideon", "Henrietta", "Ignatius", "Juno", "Kasimir", "Liesel",
    "Marcus", "Noor", "Octavia", "Piers", "Rhiannon", "Soren", "Thea", "Viggo", "Wren", "Zofia",
)  # fmt: skip
LAST_NAMES = (
    "Abernathy", "Bellweather", "Castellanos", "Delacroix", "Eastwood", "Fontaine", "Gallagher",
    "Holloway", "Iverson", "Jablonski", "Kowalczyk", "Lindqvist", "Montgomery", "Nakashima", "Okonjo",
    "Pemberton", "Quintero", "Rasmussen", "Sinclair", "Tremblay", "Underhill", "Valdivia", "Whitlock",
    "Yarborough", "Zielinski", "Ashworth", "Brannigan", "Crestwood", "Dunmore", "Ellery",
)  # fmt: skip
STREETS = (
    "Alder Street", "Birchwood Drive", "Cedar Hollow Road", "Dockside Lane", "Elm Park Avenue",
    "Foxglove Court", "Granite Way", "Harbor View Road", "Ironwood Lane", "Juniper Circle",
    "Larkspur Drive", "Millrace Road", "Northgate Avenue", "Orchard Street", "Pinecrest Way",
)  # fmt: skip
CITIES = (
    ("Madison", "WI", "537"), ("Boise", "ID", "837"), ("Savannah", "GA", "314"), ("Tacoma", "WA", "984"),
    ("Burlington", "VT", "054"), ("Tulsa", "OK", "741"), ("Reno", "NV", "895"), ("Albany", "NY", "122"),
    ("Provo", "UT", "846"), ("Dayton", "OH", "454"), ("Mobile", "AL", "366"), ("Salem", "OR", "973"),
)  # fmt: skip
CHECKING_NAMES = ("Everyday Checking", "Household Checking", "Bills Checking", "Main Checking")
SAVINGS_NAMES = ("Emergency Fund", "Vacation Savings", "Rainy Day Savings", "House Fund", "Goal Saver")
MERCHANTS = (
    ("Greenleaf Grocers", 18, 160), ("Corner Bistro", 12, 75), ("Metro Fuel Station", 25, 90),
    ("Brightline Electronics", 60, 1400), ("Northwind Airlines", 180, 950), ("Pillar Pharmacy", 8, 85),
    ("Summit Outdoor Supply", 40, 480), ("Cinema Arcadia", 14, 60), ("Lumen Home Goods", 30, 620),
    ("Harbor Hotel & Suites", 140, 780), ("Quickcart Online", 15, 340), ("Velvet Spoon Cafe", 6, 32),
    ("StreamBox Subscription", 11, 23), ("Atlas Fitness Club", 29, 89), ("Keystone Auto Repair", 90, 1250),
)  # fmt: skip
EMPLOYERS = (
    "Payroll Ridgeway Logistics",
    "Payroll Cobalt Health",
    "Payroll Marlow Schools",
    "Payroll Tern Labs",
)
PAYEES = (
    ("City Water & Power", "utility"), ("Evergreen Gas Co", "utility"), ("Beacon Wireless", "telecom"),
    ("Lakeshore Apartments", "rent"), ("Sterling Insurance", "insurance"),
    ("Orbit Card Services", "credit_card"),
)  # fmt: skip
BANKS = ("First Harbor Bank", "Prairie Credit Union", "Coastline Savings", "Union Ridge Bank")
LOAN_TERMS = {  # kind: (weight, original amount range, APR range, term in months)
    "auto": (35, (12_000, 55_000), (4.9, 9.9), 60),
    "personal": (30, (3_000, 25_000), (8.9, 17.9), 48),
    "home_equity": (15, (20_000, 120_000), (6.5, 9.5), 120),
    "mortgage": (20, (150_000, 650_000), (5.5, 7.25), 360),
}
DISPUTE_REASONS = ("unauthorized", "duplicate_charge", "wrong_amount", "not_received", "cancelled_service")


class _Ids:
    """Unique random ids (and unique identity triples) drawn from the seed's one generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def new(self, make: Callable[[], str]) -> str:
        while True:
            value = make()
            if value not in self.used:
                self.used.add(value)
                return value


class _Counter:
    def __init__(self, prefix: str, width: int, start: int = 1) -> None:
        self.prefix, self.width, self.next = prefix, width, start

    def __call__(self) -> str:
        value = f"{self.prefix}{self.next:0{self.width}d}"
        self.next += 1
        return value


def _day(rng: random.Random, first_year: int, last_year: int) -> str:
    start, end = date(first_year, 1, 1), date(last_year, 12, 28)
    return (start + timedelta(days=rng.randrange((end - start).days))).isoformat()


def _customer(rng: random.Random, ids: _Ids) -> Customer:
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    born = ids.new(lambda: f"{first}|{last}|{_day(rng, 1944, 2004)}").split("|")[2]
    city, state, zip_prefix = rng.choice(CITIES)
    return Customer(
        customer_id=ids.new(lambda: f"cust_{rng.randint(100000, 999999)}"),
        first_name=first,
        last_name=last,
        date_of_birth=born,
        ssn_last4=f"{rng.randint(0, 9999):04d}",
        email=ids.new(lambda: f"{first.lower()}.{last.lower()}{rng.randint(1, 999)}@example.com"),
        phone=ids.new(lambda: f"(555) {rng.randint(200, 989)}-{rng.randint(0, 9999):04d}"),
        address={
            "street": f"{rng.randint(10, 9900)} {rng.choice(STREETS)}",
            "city": city,
            "state": state,
            "zip": f"{zip_prefix}{rng.randint(1, 99):02d}",
        },
        tier="premier" if rng.random() < 0.22 else "standard",
        member_since=_day(rng, 2004, 2023),
    )


def _account(rng: random.Random, ids: _Ids, customer: Customer, kind: str, name: str) -> Account:
    prefix = "CHK" if kind == "checking" else "SAV"
    limit = DAILY_TRANSFER_LIMIT[customer.tier]
    closed = rng.random() < 0.03
    if kind == "checking":
        balance = rng.choice((rng.uniform(5, 180), rng.uniform(180, 2500), rng.uniform(800, 9000)))
    else:
        balance = rng.choice((rng.uniform(50, 900), rng.uniform(900, 12000), rng.uniform(5000, 45000)))
    busy = rng.random() < 0.25
    return Account(
        account_id=ids.new(lambda: f"{prefix}-{rng.randint(10_000_000, 99_999_999)}"),
        customer_id=customer.customer_id,
        kind=kind,
        nickname=name,
        status="closed" if closed else "open",
        balance=0.0 if closed else cents(balance),
        daily_transfer_limit=limit,
        transferred_today=cents(rng.uniform(0.6, 0.97) * limit) if busy and not closed else 0.0,
        withdrawals_this_month=0 if kind == "checking" else rng.choice((0, 0, 1, 2, 3, 4, 5, 6, 6)),
        interest_rate=0.01 if kind == "checking" else (4.1 if customer.tier == "premier" else 3.75),
        opened_on=max(customer.member_since, _day(rng, 2005, 2024)),
    )


def _card(rng: random.Random, ids: _Ids, customer: Customer, account: Account, status: str) -> Card:
    tier = "premium" if customer.tier == "premier" else "standard"
    limits = [value for value in range(500, CARD_LIMIT_CAP[tier] + 1, 500)]
    return Card(
        card_id=ids.new(lambda: f"CRD-{rng.randint(1_000_000, 9_999_999)}"),
        customer_id=customer.customer_id,
        account_id=account.account_id,
        last_four=f"{rng.randint(0, 9999):04d}",
        tier=tier,
        status=status,
        daily_limit=rng.choice(limits[: max(1, len(limits) - 1)]),
        expires=f"{rng.randint(2026, 2029)}-{rng.randint(1, 12):02d}",
    )


def _cards(rng: random.Random, ids: _Ids, customer: Customer, account: Account) -> list[Card]:
    """The account's cards: usually one; a lost one comes with the card that replaced it."""
    status = rng.choices(("active", "frozen", "blocked", "lost", "closed"), weights=(70, 12, 6, 7, 5))[0]
    card = _card(rng, ids, customer, account, status)
    if status != "lost":
        return [card]
    replacement = _card(rng, ids, customer, account, "active")
    card.replaced_by = replacement.card_id
    return [card, replacement]


def _history(rng: random.Random, account: Account, card: Card | None, number: _Counter) -> list[Transaction]:
    rows = []
    count = rng.randint(12, 22) if account.kind == "checking" else rng.randint(4, 8)
    for _ in range(count):
        age = rng.randint(0, HISTORY_DAYS)
        day = shift_days(TODAY, -age)
        if account.kind == "savings":
            kind, text, low, high, way = rng.choice((
                ("deposit", "Mobile check deposit", 50, 1500, "credit"),
                ("interest", "Interest payment", 1, 60, "credit"),
                ("transfer_in", "Transfer from checking", 100, 2000, "credit"),
                ("transfer_out", "Transfer to checking", 50, 1500, "debit"),
            ))  # fmt: skip
        elif card is not None and rng.random() < 0.62:
            text, low, high = rng.choice(MERCHANTS)
            kind, way = "card_purchase", "debit"
        else:
            kind, text, low, high, way = rng.choice((
                ("deposit", rng.choice(EMPLOYERS), 900, 4200, "credit"),
                ("atm_withdrawal", "ATM withdrawal", 20, 400, "debit"),
                ("payee_payment", f"Payment to {rng.choice(PAYEES)[0]}", 35, 600, "debit"),
                ("transfer_out", "Transfer to savings", 50, 1500, "debit"),
            ))  # fmt: skip
        pending = kind == "card_purchase" and age <= 2 and rng.random() < 0.6
        rows.append(
            Transaction(
                transaction_id=number(),
                account_id=account.account_id,
                date=day,
                kind=kind,
                description=text,
                amount=cents(rng.uniform(low, high)),
                direction=way,
                status="pending" if pending else "posted",
                card_id=card.card_id if kind == "card_purchase" and card else None,
            )
        )
    rows.sort(key=lambda row: (row.date, row.transaction_id))
    return rows


def _disputes(
    rng: random.Random, customer: Customer, history: list[Transaction], number: _Counter
) -> list[Dispute]:
    """A few past purchases already disputed (the purchase names its dispute)."""
    disputes = []
    for row in history:
        if row.kind == "card_purchase" and row.status == "posted" and rng.random() < 0.05:
            amount = row.amount if rng.random() < 0.7 else cents(row.amount * rng.uniform(0.2, 0.8))
            old = row.date < shift_days(TODAY, -30)
            dispute = Dispute(
                dispute_id=number(),
                transaction_id=row.transaction_id,
                customer_id=customer.customer_id,
                amount=amount,
                reason=rng.choice(DISPUTE_REASONS),
                status=rng.choice(("resolved_in_favor", "denied")) if old else "open",
                filed_on=min(shift_days(row.date, rng.randint(1, 20)), TODAY),
                provisional_credit=amount if amount >= 25 else 0.0,
            )
            row.dispute_id = dispute.dispute_id
            disputes.append(dispute)
    return disputes


def _payees(rng: random.Random, ids: _Ids, customer: Customer) -> list[Payee]:
    chosen = rng.sample(PAYEES, rng.randint(0, 3))
    if rng.random() < 0.45:
        relative = f"{rng.choice(FIRST_NAMES)} {rng.choice((customer.last_name, rng.choice(LAST_NAMES)))}"
        chosen.append((relative, "person"))
    return [
        Payee(
            payee_id=ids.new(lambda: f"PAY-{rng.randint(10000, 99999)}"),
            customer_id=customer.customer_id,
            name=name,
            bank_name=rng.choice(BANKS),
            account_last4=f"{rng.randint(0, 9999):04d}",
            category=category,
            status="pending_verification" if rng.random() < 0.15 else "active",
        )
        for name, category in chosen
    ]


def _loan(rng: random.Random, ids: _Ids, customer: Customer) -> Loan:
    kinds = list(LOAN_TERMS)
    kind = rng.choices(kinds, weights=[LOAN_TERMS[k][0] for k in kinds])[0]
    _, (low, high), (apr_low, apr_high), months = LOAN_TERMS[kind]
    original = float(rng.randrange(low, high, 500))
    rate = round(rng.uniform(apr_low, apr_high), 2)
    monthly = rate / 1200
    payment = cents(original * monthly / (1 - (1 + monthly) ** -months))
    paid_off = rng.random() < 0.08
    principal = 0.0 if paid_off else cents(original * rng.uniform(0.03, 0.95))
    day = rng.randint(1, 28)
    due = date.fromisoformat(TODAY).replace(day=day)
    if due.isoformat() <= TODAY:
        due = (due.replace(day=1) + timedelta(days=32)).replace(day=day)
    late = not paid_off and rng.random() < 0.12
    moved = rng.random()
    since_due = 30 - (due - date.fromisoformat(TODAY)).days
    return Loan(
        loan_id=ids.new(lambda: f"LN-{rng.randint(100000, 999999)}"),
        customer_id=customer.customer_id,
        kind=kind,
        original_amount=original,
        principal_balance=principal,
        accrued_interest=0.0 if paid_off else cents(principal * rate / 100 / 365 * max(since_due, 1)),
        interest_rate=rate,
        monthly_payment=payment,
        payment_day=day,
        next_due_date=due.isoformat(),
        past_due_amount=cents(payment * rng.choice((1, 1, 2))) if late else 0.0,
        last_date_change=(
            shift_days(TODAY, -rng.randint(20, 340))
            if moved < 0.18
            else shift_days(TODAY, -rng.randint(400, 1400))
            if moved < 0.3
            else None
        ),
        status="paid_off" if paid_off else "active",
        opened_on=max(customer.member_since, _day(rng, 2012, 2024)),
    )


def _customer_rows(rng: random.Random, ids: _Ids, numbers: dict[str, _Counter]) -> list[SQLModel]:
    customer = _customer(rng, ids)
    accounts = [_account(rng, ids, customer, "checking", rng.choice(CHECKING_NAMES))]
    if rng.random() < 0.12:
        accounts.append(_account(rng, ids, customer, "checking", "Joint Checking"))
    for _ in range(rng.choices((0, 1, 2), weights=(25, 60, 15))[0]):
        names = [n for n in SAVINGS_NAMES if n not in {a.nickname for a in accounts}]
        accounts.append(_account(rng, ids, customer, "savings", rng.choice(names)))
    rows: list[SQLModel] = [customer, *accounts]
    for account in accounts:
        cards = (
            _cards(rng, ids, customer, account) if account.kind == "checking" and rng.random() < 0.92 else []
        )
        history = _history(rng, account, cards[0] if cards else None, numbers["transaction"])
        rows += [*cards, *history, *_disputes(rng, customer, history, numbers["dispute"])]
    rows += _payees(rng, ids, customer)
    rows += [_loan(rng, ids, customer) for _ in range(rng.choices((0, 1, 2), weights=(30, 45, 25))[0])]
    return rows


def generate(seed: int) -> list[SQLModel]:
    """All seed rows for `seed`: customers with their accounts, cards, history, payees and loans."""
    rng = random.Random(seed)
    ids = _Ids(rng)
    numbers = {"transaction": _Counter("TX", 7), "dispute": _Counter("DSP-", 5, 10001)}
    rows: list[SQLModel] = []
    for _ in range(CUSTOMER_COUNT):
        rows += _customer_rows(rng, ids, numbers)
    return rows
