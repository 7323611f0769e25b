"""Bank tools, part two: cards, disputes and loans. Every failed call changes nothing (the harness
checks the whole state); the seed record is edited first where a rule's other side is wanted."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from sqlmodel import SQLModel

from taue.envs.bank import DOMAIN
from taue.envs.bank.models import Account, Card, Customer, Loan, Transaction
from tests.envs.seed_rows import seed_rows
from tests.envs.tool_harness import ToolHarness

Record = dict[str, Any]
ROWS = seed_rows(DOMAIN)
TIERS = {r.customer_id: r.tier for r in ROWS if isinstance(r, Customer)}
CARDS: dict[str, Record] = {r.card_id: r.to_record() for r in ROWS if isinstance(r, Card)}
LOANS: dict[str, Record] = {r.loan_id: r.to_record() for r in ROWS if isinstance(r, Loan)}
PURCHASES: dict[str, Record] = {
    r.transaction_id: r.to_record() for r in ROWS if isinstance(r, Transaction) and r.kind == "card_purchase"
}
ACCOUNTS: dict[str, Record] = {r.account_id: r.to_record() for r in ROWS if isinstance(r, Account)}
KEYS = {
    "accounts": "account_id",
    "cards": "card_id",
    "customers": "customer_id",
    "disputes": "dispute_id",
    "loans": "loan_id",
    "payees": "payee_id",
    "transactions": "transaction_id",
}

TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails
db = TOOLS.database_fixture()


def state(db) -> dict[str, dict[str, Record]]:
    raw = json.loads(db.canonical_state())
    return {table: {row[KEYS[table]]: row for row in rows} for table, rows in raw.items()}


def edit(db, model: type[SQLModel], key: str, **values: Any) -> None:
    """Set up a state the seed does not hold for this record."""
    with db.transaction() as store:
        row = store.get(model, key)
        for name, value in values.items():
            setattr(row, name, value)
        store.save(row)


def card(status: str, tier: str = "standard") -> Record:
    """A card of this status and tier on an open account."""
    return next(
        c
        for _, c in sorted(CARDS.items())
        if c["status"] == status and c["tier"] == tier and ACCOUNTS[c["account_id"]]["status"] == "open"
    )


def age(row: Record) -> int:
    return (date(2025, 6, 12) - date.fromisoformat(row["date"])).days


def purchase(low: int, high: int, status: str = "posted", least: float = 0.0) -> Record:
    """A purchase `low` to `high` days old, not disputed, of at least `least`, on an open account."""
    for _, row in sorted(PURCHASES.items()):
        usable = ACCOUNTS[row["account_id"]]["status"] == "open" and row["dispute_id"] is None
        if low <= age(row) <= high and row["status"] == status and usable and row["amount"] >= least:
            return row
    raise LookupError((low, high, status))


def loan(kind: str | None = None, **wanted: Any) -> Record:
    for _, record in sorted(LOANS.items()):
        fits = all(record[name] == value for name, value in wanted.items())
        if record["status"] == "active" and kind in (None, record["kind"]) and fits:
            return record
    raise LookupError(kind)


def payer_of(record: Record) -> Record:
    return next(
        a
        for _, a in sorted(ACCOUNTS.items())
        if a["customer_id"] == record["customer_id"] and a["status"] == "open"
    )


# ---------------------------------------------------------------------------------------------- cards


async def test_freezing_and_unfreezing_a_card(db):
    active = card("active")
    frozen = json.loads(await ok(db, "freeze_card", card_id=active["card_id"]))
    assert frozen == {**active, "status": "frozen"}
    await fails(
        db,
        "freeze_card",
        f"card {active['card_id']} is frozen; only an active card can be frozen",
        card_id=active["card_id"],
    )
    thawed = json.loads(await ok(db, "unfreeze_card", card_id=active["card_id"]))
    assert thawed == active and state(db)["cards"][active["card_id"]] == active
    await fails(db, "unfreeze_card", f"card {active['card_id']} is not frozen", card_id=active["card_id"])
    await fails(db, "freeze_card", "card CRD-1 not found", card_id="CRD-1")
    await fails(db, "unfreeze_card", "card CRD-1 not found", card_id="CRD-1")


async def test_blocked_lost_and_closed_cards_stay_unusable(db):
    blocked, lost, closed = card("blocked"), card("lost"), card("closed")
    await fails(
        db,
        "unfreeze_card",
        f"card {blocked['card_id']} is blocked by the fraud team; only they can release it",
        card_id=blocked["card_id"],
    )
    await fails(
        db,
        "unfreeze_card",
        f"card {lost['card_id']} is lost and can never be reactivated",
        card_id=lost["card_id"],
    )
    await fails(
        db,
        "unfreeze_card",
        f"card {closed['card_id']} is closed and can never be reactivated",
        card_id=closed["card_id"],
    )
    await fails(
        db,
        "freeze_card",
        f"card {blocked['card_id']} is blocked; only an active card can be frozen",
        card_id=blocked["card_id"],
    )


async def test_a_lost_card_is_replaced_free_by_standard_shipping(db):
    old = card("frozen")
    out = json.loads(await ok(db, "report_card_lost", card_id=old["card_id"], shipping="standard"))
    new = out["new_card"]
    after = state(db)
    assert out["fee"] == 0.0 and after["cards"][old["card_id"]] == {
        **old,
        "status": "lost",
        "replaced_by": new["card_id"],
    }
    assert after["cards"][new["card_id"]] == new
    assert (new["account_id"], new["daily_limit"], new["status"]) == (
        old["account_id"],
        old["daily_limit"],
        "active",
    )
    assert new["last_four"] != old["last_four"] and new["card_id"] not in CARDS
    assert after["accounts"][old["account_id"]] == ACCOUNTS[old["account_id"]]
    await fails(
        db,
        "report_card_lost",
        f"card {old['card_id']} is already lost",
        card_id=old["card_id"],
        shipping="standard",
    )


async def test_express_shipping_costs_a_standard_customer_25(db):
    old = card("active")
    edit(db, Account, old["account_id"], balance=30.0)
    out = json.loads(await ok(db, "report_card_lost", card_id=old["card_id"], shipping="express"))
    after = state(db)
    assert out["fee"] == 25.0 and after["accounts"][old["account_id"]]["balance"] == 5.0
    fees = [t for t in after["transactions"].values() if t["description"] == "Express card shipping fee"]
    assert [(t["amount"], t["account_id"], t["direction"]) for t in fees] == [
        (25.0, old["account_id"], "debit")
    ]
    premium = card("active", "premium")
    edit(db, Account, premium["account_id"], balance=0.0)
    assert (
        json.loads(await ok(db, "report_card_lost", card_id=premium["card_id"], shipping="express"))["fee"]
        == 0.0
    )


async def test_express_shipping_needs_the_fee_in_the_account(db):
    old = card("active")
    edit(db, Account, old["account_id"], balance=24.99)
    await fails(
        db,
        "report_card_lost",
        f"insufficient funds for the 25.00 express shipping fee on account {old['account_id']}",
        card_id=old["card_id"],
        shipping="express",
    )
    closed = card("closed")
    await fails(
        db,
        "report_card_lost",
        f"card {closed['card_id']} is already closed",
        card_id=closed["card_id"],
        shipping="standard",
    )
    await fails(db, "report_card_lost", "card CRD-1 not found", card_id="CRD-1", shipping="standard")


async def test_card_limits_stay_within_the_tier_caps(db):
    standard, premium = card("active"), card("active", "premium")
    assert (
        json.loads(await ok(db, "update_card_limit", card_id=standard["card_id"], daily_limit=3000))[
            "daily_limit"
        ]
        == 3000
    )
    assert state(db)["cards"][standard["card_id"]]["daily_limit"] == 3000
    await ok(db, "update_card_limit", card_id=premium["card_id"], daily_limit=7500)
    message = "the daily limit of a standard card must be between 100 and 3000"
    await fails(db, "update_card_limit", message, card_id=standard["card_id"], daily_limit=3001)
    await fails(db, "update_card_limit", message, card_id=standard["card_id"], daily_limit=99)
    await fails(
        db,
        "update_card_limit",
        "the daily limit of a premium card must be between 100 and 7500",
        card_id=premium["card_id"],
        daily_limit=10000,
    )
    blocked = card("blocked")
    await fails(
        db,
        "update_card_limit",
        f"card {blocked['card_id']} is blocked; its limit cannot change",
        card_id=blocked["card_id"],
        daily_limit=1000,
    )
    await fails(db, "update_card_limit", "card CRD-1 not found", card_id="CRD-1", daily_limit=1000)


# ------------------------------------------------------------------------------------------- disputes


async def test_a_dispute_of_25_or_more_gets_provisional_credit(db):
    row = purchase(5, 60, least=25)
    balance = ACCOUNTS[row["account_id"]]["balance"]
    dispute = json.loads(
        await ok(
            db,
            "file_dispute",
            transaction_id=row["transaction_id"],
            amount=row["amount"],
            reason="unauthorized",
        )
    )
    assert (dispute["status"], dispute["filed_on"], dispute["provisional_credit"]) == (
        "open",
        "2025-06-12",
        row["amount"],
    )
    after = state(db)
    assert after["transactions"][row["transaction_id"]]["dispute_id"] == dispute["dispute_id"]
    assert after["accounts"][row["account_id"]]["balance"] == round(balance + row["amount"], 2)
    assert after["disputes"][dispute["dispute_id"]] == dispute
    await fails(
        db,
        "file_dispute",
        f"transaction {row['transaction_id']} is already disputed ({dispute['dispute_id']})",
        transaction_id=row["transaction_id"],
        amount=1,
        reason="duplicate_charge",
    )


async def test_a_small_dispute_gets_no_provisional_credit(db):
    row = purchase(0, 60, least=30)
    dispute = json.loads(
        await ok(
            db, "file_dispute", transaction_id=row["transaction_id"], amount=24.99, reason="wrong_amount"
        )
    )
    assert (dispute["provisional_credit"], dispute["amount"]) == (0.0, 24.99)
    assert state(db)["accounts"][row["account_id"]] == ACCOUNTS[row["account_id"]]


async def test_disputes_refuse_what_the_rules_forbid(db):
    old, fresh, pending = purchase(61, 120), purchase(0, 60), purchase(0, 2, "pending")
    await fails(
        db, "file_dispute", "transaction TX9 not found", transaction_id="TX9", amount=5, reason="unauthorized"
    )
    await fails(
        db,
        "file_dispute",
        f"transaction {old['transaction_id']} posted {age(old)} days ago; disputes must be "
        "filed within 60 days",
        transaction_id=old["transaction_id"],
        amount=5,
        reason="unauthorized",
    )
    await fails(
        db,
        "file_dispute",
        f"transaction {pending['transaction_id']} is still pending; wait until it posts",
        transaction_id=pending["transaction_id"],
        amount=5,
        reason="unauthorized",
    )
    await fails(
        db,
        "file_dispute",
        f"the disputed amount must be more than 0 and at most {fresh['amount']:.2f}",
        transaction_id=fresh["transaction_id"],
        amount=fresh["amount"] + 1,
        reason="wrong_amount",
    )
    deposit = next(r.transaction_id for r in ROWS if isinstance(r, Transaction) and r.kind == "deposit")
    await fails(
        db,
        "file_dispute",
        f"transaction {deposit} is a deposit; only card purchases can be disputed",
        transaction_id=deposit,
        amount=5,
        reason="unauthorized",
    )


# ---------------------------------------------------------------------------------------------- loans


async def test_a_loan_payment_covers_interest_then_principal(db):
    record = loan(past_due_amount=0.0)
    source = payer_of(record)
    edit(db, Account, source["account_id"], balance=5000.0)
    amount = round(record["accrued_interest"] + 100, 2)
    paid = json.loads(
        await ok(
            db,
            "make_loan_payment",
            loan_id=record["loan_id"],
            from_account_id=source["account_id"],
            amount=amount,
        )
    )
    assert paid["accrued_interest"] == 0.0 and paid["status"] == "active"
    assert paid["principal_balance"] == round(record["principal_balance"] - 100, 2)
    after = state(db)
    assert after["accounts"][source["account_id"]]["balance"] == round(5000 - amount, 2)
    entries = [
        t for t in after["transactions"].values() if t["kind"] == "loan_payment" and t["date"] == "2025-06-12"
    ]
    assert [(t["amount"], t["account_id"]) for t in entries] == [(amount, source["account_id"])]


async def test_paying_the_payoff_closes_the_loan_and_clears_past_due(db):
    record = next(r for _, r in sorted(LOANS.items()) if r["status"] == "active" and r["past_due_amount"] > 0)
    source = payer_of(record)
    payoff = round(record["principal_balance"] + record["accrued_interest"], 2)
    edit(db, Account, source["account_id"], balance=payoff)
    paid = json.loads(
        await ok(
            db,
            "make_loan_payment",
            loan_id=record["loan_id"],
            from_account_id=source["account_id"],
            amount=payoff,
        )
    )
    assert (paid["status"], paid["principal_balance"], paid["past_due_amount"]) == ("paid_off", 0.0, 0.0)
    await fails(
        db,
        "make_loan_payment",
        f"loan {record['loan_id']} is paid off",
        loan_id=record["loan_id"],
        from_account_id=source["account_id"],
        amount=10,
    )


async def test_loan_payments_refuse_what_the_rules_forbid(db):
    record = loan()
    source = payer_of(record)
    stranger = next(a for _, a in sorted(ACCOUNTS.items()) if a["customer_id"] != record["customer_id"])
    args = {"loan_id": record["loan_id"], "from_account_id": source["account_id"]}
    payoff = round(record["principal_balance"] + record["accrued_interest"], 2)
    edit(db, Account, source["account_id"], balance=50.0)
    await fails(db, "make_loan_payment", "loan LN-1 not found", **{**args, "loan_id": "LN-1"}, amount=5)
    await fails(
        db,
        "make_loan_payment",
        "the loan must be paid from an account of the borrower",
        **{**args, "from_account_id": stranger["account_id"]},
        amount=5,
    )
    await fails(
        db,
        "make_loan_payment",
        f"the payment is more than the payoff amount of {payoff:.2f}",
        **args,
        amount=payoff + 1,
    )
    await fails(
        db,
        "make_loan_payment",
        f"insufficient funds: account {source['account_id']} has 50.00 available",
        **args,
        amount=60,
    )
    await fails(
        db, "make_loan_payment", "amount must be a positive sum in dollars and cents", **args, amount=0
    )
    edit(db, Account, source["account_id"], status="closed")
    await fails(db, "make_loan_payment", f"account {source['account_id']} is closed", **args, amount=5)


async def test_moving_a_payment_date(db):
    record = loan("auto", past_due_amount=0.0, last_date_change=None)
    day = 28 if record["payment_day"] != 28 else 27
    moved = json.loads(await ok(db, "change_loan_payment_date", loan_id=record["loan_id"], payment_day=day))
    assert (moved["payment_day"], moved["last_date_change"]) == (day, "2025-06-12")
    assert moved["next_due_date"][8:] == str(day) and moved["next_due_date"] > "2025-06-12"
    assert moved["next_due_date"][:7] == record["next_due_date"][:7]
    await fails(
        db,
        "change_loan_payment_date",
        "the payment date was already changed on 2025-06-12; it can change once every 12 months",
        loan_id=record["loan_id"],
        payment_day=5,
    )


async def test_an_early_new_day_moves_the_due_date_to_the_next_month(db):
    record = next(
        r
        for _, r in sorted(LOANS.items())
        if r["status"] == "active"
        and r["kind"] != "mortgage"
        and r["past_due_amount"] == 0
        and r["last_date_change"] is None
        and r["next_due_date"][:7] == "2025-06"
        and r["payment_day"] > 13
    )
    moved = json.loads(await ok(db, "change_loan_payment_date", loan_id=record["loan_id"], payment_day=3))
    assert moved["next_due_date"] == "2025-07-03"


async def test_payment_date_changes_refuse_what_the_rules_forbid(db):
    mortgage, record = loan("mortgage"), loan("personal", past_due_amount=0.0, last_date_change=None)
    late = next(
        r
        for _, r in sorted(LOANS.items())
        if r["past_due_amount"] > 0 and r["kind"] != "mortgage" and r["last_date_change"] is None
    )
    paid = next(k for k, r in sorted(LOANS.items()) if r["status"] == "paid_off")
    name = "change_loan_payment_date"
    await fails(db, name, "loan LN-1 not found", loan_id="LN-1", payment_day=5)
    await fails(
        db, name, "a mortgage's payment date cannot be changed", loan_id=mortgage["loan_id"], payment_day=5
    )
    await fails(db, name, f"loan {paid} is paid off", loan_id=paid, payment_day=5)
    await fails(
        db,
        name,
        f"loan {late['loan_id']} has {late['past_due_amount']:.2f} past due; bring it current first",
        loan_id=late["loan_id"],
        payment_day=late["payment_day"] % 28 + 1,
    )
    await fails(
        db, name, "the payment day must be between 1 and 28", loan_id=record["loan_id"], payment_day=31
    )
    await fails(
        db,
        name,
        f"the payment day is already {record['payment_day']}",
        loan_id=record["loan_id"],
        payment_day=record["payment_day"],
    )
    edit(db, Loan, record["loan_id"], last_date_change="2024-09-01")
    await fails(
        db,
        name,
        "the payment date was already changed on 2024-09-01; it can change once every 12 months",
        loan_id=record["loan_id"],
        payment_day=record["payment_day"] % 28 + 1,
    )
