"""The bank's seed records as the Tracer reads them (docs/tracer.md): an indexed view, the
customers and the phrasing helpers its intents and policy check share."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.bank import models
from taue.envs.bank.generate import generate
from taue.envs.bank.rules import TODAY, cents, days_between
from taue.envs.runtime.authoring import Customer, Lookups
from taue.envs.runtime.database import DomainTable

Record = dict[str, Any]

PERSONAS = (
    "a nurse who banks by phone between shifts",
    "a retired machinist who reads every statement twice",
    "a freelance photographer with irregular income",
    "a college student paying rent for the first time",
    "a small-business owner who is always short of time",
    "a parent managing the household budget",
    "a long-haul trucker calling from the road",
    "a software tester who notices every detail",
    "a newly married teacher sorting out joint finances",
    "a contractor juggling loans for a truck and a house",
    "a pharmacist who wants things done by the book",
    "a grandmother who prefers to talk things through",
)
KIND_WORDS = {"auto": "auto loan", "personal": "personal loan", "home_equity": "home equity loan",
              "mortgage": "mortgage"}  # fmt: skip


@dataclass
class BankView:
    customers: dict[str, Record]
    accounts: dict[str, Record]
    transactions: dict[str, Record]
    cards: dict[str, Record]
    payees: dict[str, Record]
    loans: dict[str, Record]
    accounts_of: dict[str, list[Record]] = field(default_factory=dict)
    cards_of: dict[str, list[Record]] = field(default_factory=dict)
    loans_of: dict[str, list[Record]] = field(default_factory=dict)
    payees_of: dict[str, list[Record]] = field(default_factory=dict)
    history: dict[str, list[Record]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, table in (("accounts_of", self.accounts), ("cards_of", self.cards),
                            ("loans_of", self.loans), ("payees_of", self.payees)):  # fmt: skip
            index: dict[str, list[Record]] = defaultdict(list)
            for key in sorted(table):  # the order the tools list them in: by id
                index[table[key]["customer_id"]].append(table[key])
            setattr(self, name, dict(index))
        history: dict[str, list[Record]] = defaultdict(list)
        for key in sorted(self.transactions):
            history[self.transactions[key]["account_id"]].append(self.transactions[key])
        self.history = dict(history)

    def open_accounts(self, customer_id: str, kind: str | None = None) -> list[Record]:
        return [
            a for a in self.accounts_of.get(customer_id, [])
            if a["status"] == "open" and (kind is None or a["kind"] == kind)
        ]  # fmt: skip

    def account_lookups(self, account: Record) -> Lookups:
        """The owner's accounts, in profile order, up to the wanted one."""
        ids = [a["account_id"] for a in self.accounts_of[account["customer_id"]]]
        return Lookups(tuple(ids[: ids.index(account["account_id"]) + 1]))

    def card_lookups(self, card: Record) -> Lookups:
        ids = [c["card_id"] for c in self.cards_of[card["customer_id"]]]
        return Lookups(tuple(ids[: ids.index(card["card_id"]) + 1]))

    def loan_lookups(self, loan: Record) -> Lookups:
        ids = [loan["loan_id"] for loan in self.loans_of[loan["customer_id"]]]
        return Lookups(tuple(ids[: ids.index(loan["loan_id"]) + 1]))

    def tier(self, customer_id: str) -> str:
        return self.customers[customer_id]["tier"]

    def left_today(self, account: Record) -> float:
        return cents(account["daily_transfer_limit"] - account["transferred_today"])

    def purchases(self, customer_id: str) -> list[Record]:
        """The customer's undisputed, posted card purchases, each unambiguous in words."""
        found = []
        for account in self.open_accounts(customer_id, "checking"):
            rows = self.history.get(account["account_id"], [])
            words = [purchase_words(r) for r in rows]
            found += [
                r for r in rows
                if r["kind"] == "card_purchase" and r["status"] == "posted" and r["dispute_id"] is None
                and words.count(purchase_words(r)) == 1
            ]  # fmt: skip
        return found

    def single_kind_loans(self, customer_id: str) -> list[Record]:
        """The customer's active loans whose kind names them unambiguously."""
        loans = self.loans_of.get(customer_id, [])
        kinds = [loan["kind"] for loan in loans]
        return [loan for loan in loans if loan["status"] == "active" and kinds.count(loan["kind"]) == 1]

    def distinct_cards(self, customer_id: str, *statuses: str) -> list[Record]:
        cards = self.cards_of.get(customer_id, [])
        fours = [c["last_four"] for c in cards]
        return [c for c in cards if c["status"] in statuses and fours.count(c["last_four"]) == 1]


def load(seed: int) -> BankView:
    rows = generate(seed)

    def table(model: type[DomainTable], key: str) -> dict[str, Record]:
        return {getattr(r, key): r.to_record() for r in rows if isinstance(r, model)}

    customers = {r.customer_id: r.to_record() for r in rows if isinstance(r, models.Customer)}
    return BankView(
        customers=customers,
        accounts=table(models.Account, "account_id"),
        transactions=table(models.Transaction, "transaction_id"),
        cards=table(models.Card, "card_id"),
        payees=table(models.Payee, "payee_id"),
        loans=table(models.Loan, "loan_id"),
    )


def customers(view: BankView) -> list[Customer]:
    """Every third customer knows their customer id; the others verify with name, birth date and SSN."""
    result = []
    for index, (customer_id, record) in enumerate(sorted(view.customers.items())):
        name = f"{record['first_name']} {record['last_name']}"
        profile = Action(name="get_customer_details", arguments={"customer_id": customer_id})
        if index % 3 == 1:
            known = {"bank_customer_id": customer_id}
            identity: tuple[Action, ...] = (profile,)
        else:
            arguments = {
                "first_name": record["first_name"],
                "last_name": record["last_name"],
                "date_of_birth": record["date_of_birth"],
                "ssn_last4": record["ssn_last4"],
            }
            known = {"full_name": name, "date_of_birth": record["date_of_birth"],
                     "ssn_last_four": record["ssn_last4"]}  # fmt: skip
            identity = (Action(name="find_customer_id", arguments=arguments), profile)
        result.append(Customer(customer_id, name, identity, known, {"customer_id": customer_id}))
    return result


# ------------------------------------------------------------------------------------------- phrasing


def dollars(value: float) -> str:
    return f"{value:.2f}"


def long_date(day: str) -> str:
    return date.fromisoformat(day).strftime("%B %d, %Y").replace(" 0", " ")


def account_words(account: Record) -> str:
    """'Everyday Checking account', 'Emergency Fund savings account'."""
    name, kind = account["nickname"], account["kind"]
    return f"{name} account" if kind in name.lower() else f"{name} {kind} account"


def card_words(card: Record) -> str:
    return f"debit card ending in {card['last_four']}"


def purchase_words(purchase: Record) -> str:
    amount, day = dollars(purchase["amount"]), long_date(purchase["date"])
    return f"the {amount} charge at {purchase['description']} on {day}"


def loan_words(loan: Record) -> str:
    return f"{KIND_WORDS[loan['kind']]}"


def purchase_age(purchase: Record) -> int:
    return days_between(purchase["date"], TODAY)
