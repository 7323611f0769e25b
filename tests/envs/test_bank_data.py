"""Bank seed data: size and variety, determinism, the clock, references that hold, and records on both
sides of every rule of the policy; the policy checker agrees with the tools on seed records."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

import pytest

from taue.contracts.tasks import Action
from taue.envs.bank import DOMAIN
from taue.envs.bank.generate import CUSTOMER_COUNT, HISTORY_DAYS, generate
from taue.envs.bank.models import Account, Card, Customer, Dispute, Loan, Payee, Transaction
from taue.envs.bank.policy_check import check_policy
from taue.envs.bank.rules import CLOCK, TODAY, payoff_amount
from taue.envs.bank.seed_view import load
from tests.envs.seed_rows import seed_rows
from tests.envs.tool_harness import ToolHarness

ROWS = seed_rows(DOMAIN)


def rows_of(model: type) -> list:
    return [row for row in ROWS if isinstance(row, model)]


CUSTOMERS = {r.customer_id: r for r in rows_of(Customer)}
ACCOUNTS = {r.account_id: r for r in rows_of(Account)}
CARDS = {r.card_id: r for r in rows_of(Card)}
TRANSACTIONS = {r.transaction_id: r for r in rows_of(Transaction)}
LOANS = {r.loan_id: r for r in rows_of(Loan)}
DISPUTES = {r.dispute_id: r for r in rows_of(Dispute)}
PAYEES = {r.payee_id: r for r in rows_of(Payee)}


def age(day: str) -> int:
    return (date.fromisoformat(TODAY) - date.fromisoformat(day)).days


def dumped(rows: list) -> list[tuple[str, dict]]:
    return [(type(row).__name__, row.model_dump()) for row in rows]


def test_the_seed_is_large_and_varied():
    assert len(CUSTOMERS) == CUSTOMER_COUNT >= 300
    assert len(ACCOUNTS) > 600 and len(TRANSACTIONS) > 5000 and len(CARDS) > 350
    assert len(LOANS) > 150 and len(PAYEES) > 400 and len(DISPUTES) > 100
    assert set(Counter(c.tier for c in CUSTOMERS.values())) == {"standard", "premier"}
    assert set(Counter(a.kind for a in ACCOUNTS.values())) == {"checking", "savings"}
    assert set(Counter(a.status for a in ACCOUNTS.values())) == {"open", "closed"}
    assert set(Counter(c.status for c in CARDS.values())) == {"active", "frozen", "blocked", "lost", "closed"}
    assert set(Counter(loan.kind for loan in LOANS.values())) == {
        "auto",
        "personal",
        "home_equity",
        "mortgage",
    }
    assert set(Counter(p.status for p in PAYEES.values())) == {"active", "pending_verification"}
    kinds = Counter(t.kind for t in TRANSACTIONS.values())
    assert {"card_purchase", "deposit", "atm_withdrawal", "payee_payment", "transfer_out", "interest"} <= set(
        kinds
    )
    assert len({c.first_name for c in CUSTOMERS.values()}) > 40


def test_the_seed_is_deterministic_and_depends_on_the_seed():
    assert dumped(generate(0)) == dumped(ROWS)
    assert dumped(generate(1)) != dumped(ROWS)


def test_dates_follow_the_clock():
    assert DOMAIN.clock == CLOCK == "2025-06-12T09:30:00" and CLOCK[:10] == TODAY
    assert all(0 <= age(t.date) <= HISTORY_DAYS for t in TRANSACTIONS.values())
    assert all(age(loan.next_due_date) < 0 for loan in LOANS.values())
    assert all(
        a.opened_on <= TODAY and c.member_since <= TODAY
        for a in ACCOUNTS.values()
        for c in [CUSTOMERS[a.customer_id]]
    )
    assert all(d.filed_on <= TODAY for d in DISPUTES.values())


def test_ids_identities_and_references_hold():
    for customer_id, customer in CUSTOMERS.items():
        assert re.fullmatch(r"cust_\d{6}", customer_id) and re.fullmatch(r"\d{4}", customer.ssn_last4)
    identities = [(c.first_name, c.last_name, c.date_of_birth) for c in CUSTOMERS.values()]
    assert len(set(identities)) == len(identities)
    assert len({c.email for c in CUSTOMERS.values()}) == len(CUSTOMERS)
    assert all(re.fullmatch(r"(CHK|SAV)-\d{8}", a) and ACCOUNTS[a].customer_id in CUSTOMERS for a in ACCOUNTS)
    for card in CARDS.values():
        assert ACCOUNTS[card.account_id].customer_id == card.customer_id
        assert ACCOUNTS[card.account_id].kind == "checking"
        assert (card.status == "lost") == (card.replaced_by is not None)
        if card.replaced_by:
            assert CARDS[card.replaced_by].status == "active"
    for row in TRANSACTIONS.values():
        assert re.fullmatch(r"TX\d{7}", row.transaction_id) and row.amount > 0
        assert (row.kind == "card_purchase") == (row.card_id is not None)
        if row.card_id:
            assert CARDS[row.card_id].account_id == row.account_id
    for dispute in DISPUTES.values():
        assert TRANSACTIONS[dispute.transaction_id].dispute_id == dispute.dispute_id
        assert dispute.amount <= TRANSACTIONS[dispute.transaction_id].amount
    assert all(type(a.balance) is float and type(a.daily_transfer_limit) is float for a in ACCOUNTS.values())


def test_every_rule_has_records_on_both_sides():
    open_accounts = [a for a in ACCOUNTS.values() if a.status == "open"]
    assert any(a.transferred_today > 0 for a in open_accounts) and any(
        a.transferred_today == 0 for a in open_accounts
    )
    savings = [a for a in open_accounts if a.kind == "savings"]
    assert any(a.withdrawals_this_month >= 6 for a in savings) and any(
        a.withdrawals_this_month < 6 for a in savings
    )
    assert any(a.balance < 100 for a in open_accounts) and any(a.balance > 5000 for a in open_accounts)
    purchases = [t for t in TRANSACTIONS.values() if t.kind == "card_purchase"]
    inside = [t for t in purchases if age(t.date) <= 60 and t.status == "posted" and t.dispute_id is None]
    outside = [t for t in purchases if age(t.date) > 60 and t.dispute_id is None]
    assert len(inside) > 500 and len(outside) > 500
    assert any(t.status == "pending" for t in purchases) and any(t.dispute_id for t in purchases)
    assert any(t.amount < 25 for t in inside) and any(t.amount >= 25 for t in inside)
    active = [loan for loan in LOANS.values() if loan.status == "active"]
    assert any(loan.past_due_amount > 0 for loan in active) and any(
        loan.past_due_amount == 0 for loan in active
    )
    changed = [loan.last_date_change for loan in active if loan.last_date_change]
    assert any(age(day) < 365 for day in changed) and any(age(day) >= 365 for day in changed)
    assert any(loan.last_date_change is None for loan in active)
    assert any(loan.status == "paid_off" for loan in LOANS.values())
    assert any(c.tier == "premium" for c in CARDS.values()) and any(
        c.tier == "standard" for c in CARDS.values()
    )


def test_loans_add_up():
    for loan in LOANS.values():
        assert 1 <= loan.payment_day <= 28 and int(loan.next_due_date[8:]) == loan.payment_day
        assert loan.principal_balance <= loan.original_amount and loan.monthly_payment > 0
        if loan.status == "paid_off":
            assert payoff_amount(loan.to_record()) == 0 and loan.past_due_amount == 0


TOOLS = ToolHarness(DOMAIN)


@pytest.fixture(scope="module")
def view():
    return load(DOMAIN.seed)


def sample_writes() -> list[Action]:
    """Writes on seed records, allowed and forbidden alike."""
    actions = []
    for card in sorted(CARDS)[:40]:
        actions += [
            Action(name="freeze_card", arguments={"card_id": card}),
            Action(name="unfreeze_card", arguments={"card_id": card}),
            Action(name="update_card_limit", arguments={"card_id": card, "daily_limit": 4000}),
            Action(name="report_card_lost", arguments={"card_id": card, "shipping": "express"}),
        ]
    for loan in sorted(LOANS)[:40]:
        account = next(a for a in sorted(ACCOUNTS) if ACCOUNTS[a].customer_id == LOANS[loan].customer_id)
        actions += [
            Action(name="change_loan_payment_date", arguments={"loan_id": loan, "payment_day": 15}),
            Action(
                name="make_loan_payment",
                arguments={"loan_id": loan, "from_account_id": account, "amount": 500.0},
            ),
        ]
    for purchase in sorted(t for t in TRANSACTIONS if TRANSACTIONS[t].kind == "card_purchase")[:60]:
        arguments = {"transaction_id": purchase, "amount": 30.0, "reason": "unauthorized"}
        actions.append(Action(name="file_dispute", arguments=arguments))
    for account in sorted(ACCOUNTS)[:60]:
        other = next(
            (
                a
                for a in sorted(ACCOUNTS)
                if a != account and ACCOUNTS[a].customer_id == ACCOUNTS[account].customer_id
            ),
            None,
        )
        if other:
            arguments = {"from_account_id": account, "to_account_id": other, "amount": 900.0}
            actions.append(Action(name="internal_transfer", arguments=arguments))
        for payee in sorted(p for p in PAYEES if PAYEES[p].customer_id == ACCOUNTS[account].customer_id):
            arguments = {"from_account_id": account, "payee_id": payee, "amount": 150.0}
            actions.append(Action(name="pay_payee", arguments=arguments))
    return actions


@pytest.mark.parametrize("chunk", range(4))
async def test_the_policy_checker_agrees_with_the_tools(view, chunk: int):
    actions = sample_writes()[chunk::4]
    verdicts = Counter()
    for action in actions:
        database = DOMAIN.new_database()
        result = await TOOLS.call(database, action.name, **action.arguments)
        database.close()
        allowed = check_policy(view, action) == []
        assert result.ok == allowed, (action, result.output)
        verdicts[allowed] += 1
    assert verdicts[True] > 5 and verdicts[False] > 5
