"""Bank tools, part one: the interface, the reads, transfers, payee payments and the hand-over. Every
failed call changes nothing (the harness checks the whole state). Cards, disputes and loans are in
test_bank_tools_cards_loans.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from taue.envs.bank import DOMAIN
from taue.envs.bank.models import Account, Card, Customer, Loan, Payee, Transaction
from tests.envs.seed_rows import seed_rows
from tests.envs.tool_harness import ToolHarness

Record = dict[str, Any]
ROWS = seed_rows(DOMAIN)
CUSTOMERS = {r.customer_id: r for r in ROWS if isinstance(r, Customer)}
ACCOUNTS: dict[str, Record] = {r.account_id: r.to_record() for r in ROWS if isinstance(r, Account)}
PAYEES: dict[str, Record] = {r.payee_id: r.to_record() for r in ROWS if isinstance(r, Payee)}
LOANS: dict[str, Record] = {r.loan_id: r.to_record() for r in ROWS if isinstance(r, Loan)}
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


def write_directly(db, edit: Callable[[Any], None]) -> None:
    """Set up a state the seed does not hold for this record."""
    with db.transaction() as store:
        edit(store)


def set_account(db, account_id: str, **values: Any) -> None:
    def edit(store):
        row = store.get(Account, account_id)
        for name, value in values.items():
            setattr(row, name, value)
        store.save(row)

    write_directly(db, edit)


def accounts_of(customer_id: str, kind: str | None = None, status: str = "open") -> list[Record]:
    return [
        a
        for _, a in sorted(ACCOUNTS.items())
        if a["customer_id"] == customer_id and a["status"] == status and kind in (None, a["kind"])
    ]


def pair(tier: str = "standard") -> tuple[Record, Record]:
    """An open checking account and an open savings account of one customer of the tier."""
    for customer_id, customer in sorted(CUSTOMERS.items()):
        checking, savings = accounts_of(customer_id, "checking"), accounts_of(customer_id, "savings")
        if customer.tier == tier and checking and savings:
            return checking[0], savings[0]
    raise LookupError(tier)


def payee_of(tier: str, status: str = "active") -> tuple[Record, Record]:
    """(checking account, payee) of one customer of the tier who also has a savings account."""
    for _, payee in sorted(PAYEES.items()):
        checking = accounts_of(payee["customer_id"], "checking")
        saves = accounts_of(payee["customer_id"], "savings")
        if payee["status"] == status and checking and saves and CUSTOMERS[payee["customer_id"]].tier == tier:
            return checking[0], payee
    raise LookupError(tier)


# ------------------------------------------------------------------------------------------ interface


def test_the_tool_set_and_its_writes():
    assert len(DOMAIN.tools) == 20
    assert DOMAIN.write_tools == {
        "internal_transfer",
        "pay_payee",
        "freeze_card",
        "unfreeze_card",
        "report_card_lost",
        "update_card_limit",
        "file_dispute",
        "make_loan_payment",
        "change_loan_payment_date",
    }
    assert DOMAIN.terminal_tools == {"transfer_to_human_agents"}
    for name, tool in DOMAIN.mcp_tools.items():
        assert tool.description, name
        assert all(p.get("description") for p in tool.parameters["properties"].values()), name


async def test_the_transfer_to_a_person_ends_the_conversation(db):
    assert await ok(db, "transfer_to_human_agents", summary="wants a hardship plan") == "Transfer successful"
    assert await ok(db, "calculate", expression="2500 - 1234.5") == "1265.5"
    assert await ok(db, "think", thought="check the daily limit") == ""


# ---------------------------------------------------------------------------------------------- reads


async def test_find_customer_id_needs_all_four_facts(db):
    customer = CUSTOMERS[sorted(CUSTOMERS)[7]]
    facts = {
        "first_name": customer.first_name.upper(),
        "last_name": customer.last_name.lower(),
        "date_of_birth": customer.date_of_birth,
        "ssn_last4": customer.ssn_last4,
    }
    assert json.loads(await ok(db, "find_customer_id", **facts)) == {"customer_id": customer.customer_id}
    wrong = f"{(int(customer.ssn_last4) + 1) % 10000:04d}"
    message = "no customer matches that name, date of birth and SSN digits"
    await fails(db, "find_customer_id", message, **{**facts, "ssn_last4": wrong})
    await fails(db, "find_customer_id", message, **{**facts, "date_of_birth": "1900-01-01"})


async def test_customer_details_list_the_products_and_hide_the_secrets(db):
    customer_id = sorted(CUSTOMERS)[3]
    details = json.loads(await ok(db, "get_customer_details", customer_id=customer_id))
    assert "date_of_birth" not in details and "ssn_last4" not in details
    assert details["first_name"] == CUSTOMERS[customer_id].first_name
    own = sorted(a for a, r in ACCOUNTS.items() if r["customer_id"] == customer_id)
    assert [a["account_id"] for a in details["accounts"]] == own
    cards = sorted(r.card_id for r in ROWS if isinstance(r, Card) and r.customer_id == customer_id)
    assert [c["card_id"] for c in details["cards"]] == cards
    loans = sorted(k for k, r in LOANS.items() if r["customer_id"] == customer_id)
    assert [loan["loan_id"] for loan in details["loans"]] == loans
    await fails(db, "get_customer_details", "customer cust_000000 not found", customer_id="cust_000000")


async def test_account_details_show_what_is_left_to_send_today(db):
    account = next(a for _, a in sorted(ACCOUNTS.items()) if a["transferred_today"] > 0)
    shown = json.loads(await ok(db, "get_account_details", account_id=account["account_id"]))
    left = round(account["daily_transfer_limit"] - account["transferred_today"], 2)
    assert shown == {**account, "left_to_transfer_today": left}
    await fails(db, "get_account_details", "account CHK-00000000 not found", account_id="CHK-00000000")


async def test_transactions_are_listed_newest_first(db):
    account_id = next(a for a, r in sorted(ACCOUNTS.items()) if r["kind"] == "checking")
    listed = json.loads(await ok(db, "list_account_transactions", account_id=account_id))["transactions"]
    seeded = [r.to_record() for r in ROWS if isinstance(r, Transaction) and r.account_id == account_id]
    assert sorted(listed, key=lambda t: t["transaction_id"]) == sorted(
        seeded, key=lambda t: t["transaction_id"]
    )
    assert [t["date"] for t in listed] == sorted((t["date"] for t in listed), reverse=True)
    await fails(db, "list_account_transactions", "account SAV-1 not found", account_id="SAV-1")


async def test_payees_cards_and_loans_read_as_seeded(db):
    payee = next(iter(sorted(PAYEES.values(), key=lambda p: p["payee_id"])))
    listed = json.loads(await ok(db, "list_payees", customer_id=payee["customer_id"]))["payees"]
    assert payee in listed and all(p["customer_id"] == payee["customer_id"] for p in listed)
    card = next(r for r in ROWS if isinstance(r, Card))
    assert json.loads(await ok(db, "get_card_details", card_id=card.card_id)) == card.to_record()
    loan_id, loan = sorted(LOANS.items())[0]
    assert json.loads(await ok(db, "get_loan_details", loan_id=loan_id)) == loan
    await fails(db, "list_payees", "customer cust_1 not found", customer_id="cust_1")
    await fails(db, "get_card_details", "card CRD-1 not found", card_id="CRD-1")
    await fails(db, "get_loan_details", "loan LN-1 not found", loan_id="LN-1")


async def test_payoff_quote_is_principal_plus_interest(db):
    loan_id, loan = next((k, r) for k, r in sorted(LOANS.items()) if r["status"] == "active")
    quote = json.loads(await ok(db, "get_loan_payoff_quote", loan_id=loan_id))
    assert quote["payoff_amount"] == round(loan["principal_balance"] + loan["accrued_interest"], 2)
    assert quote["good_through"] == "2025-06-12"
    paid = next(k for k, r in sorted(LOANS.items()) if r["status"] == "paid_off")
    await fails(
        db, "get_loan_payoff_quote", f"loan {paid} is paid off; there is nothing to pay off", loan_id=paid
    )
    await fails(db, "get_loan_payoff_quote", "loan LN-1 not found", loan_id="LN-1")


# ------------------------------------------------------------------------------------------ transfers


async def test_a_transfer_moves_money_and_records_both_sides(db):
    checking, savings = pair()
    set_account(db, checking["account_id"], balance=800.0, transferred_today=100.0)
    set_account(db, savings["account_id"], withdrawals_this_month=2)
    out = json.loads(
        await ok(
            db,
            "internal_transfer",
            from_account_id=savings["account_id"],
            to_account_id=checking["account_id"],
            amount=250,
        )
    )
    after = state(db)
    source, target = after["accounts"][savings["account_id"]], after["accounts"][checking["account_id"]]
    assert source["balance"] == round(savings["balance"] - 250, 2) and target["balance"] == 1050.0
    assert source["transferred_today"] == round(savings["transferred_today"] + 250, 2)
    assert source["withdrawals_this_month"] == 3 and target["withdrawals_this_month"] == 0
    first, second = (after["transactions"][t] for t in out["transactions"])
    assert (first["direction"], first["account_id"], first["amount"]) == (
        "debit",
        savings["account_id"],
        250.0,
    )
    assert (second["direction"], second["kind"], second["date"]) == ("credit", "transfer_in", "2025-06-12")


async def test_a_transfer_refuses_what_the_rules_forbid(db):
    checking, savings = pair()
    other = pair("premier")[0]
    ids = {"from_account_id": checking["account_id"], "to_account_id": savings["account_id"]}
    name = "internal_transfer"
    set_account(db, checking["account_id"], balance=500.0, transferred_today=2400.0)
    await fails(db, name, "account CHK-1 not found", **{**ids, "to_account_id": "CHK-1"}, amount=10)
    await fails(
        db,
        name,
        "cannot transfer from an account to itself",
        **{**ids, "to_account_id": checking["account_id"]},
        amount=10,
    )
    await fails(
        db,
        name,
        "both accounts must belong to the same customer; use a payee payment instead",
        **{**ids, "to_account_id": other["account_id"]},
        amount=10,
    )
    await fails(db, name, "amount must be a positive sum in dollars and cents", **ids, amount=0)
    await fails(db, name, "amount must be a positive sum in dollars and cents", **ids, amount=1.005)
    await fails(
        db,
        name,
        f"insufficient funds: account {checking['account_id']} has 500.00 available, "
        "the payment needs 600.00",
        **ids,
        amount=600,
    )
    await fails(
        db,
        name,
        "daily transfer limit exceeded: 100.00 of the 2500.00 limit is left today on "
        f"account {checking['account_id']}",
        **ids,
        amount=150,
    )
    set_account(db, savings["account_id"], status="closed")
    await fails(db, name, f"account {savings['account_id']} is closed", **ids, amount=10)
    back = {"from_account_id": savings["account_id"], "to_account_id": checking["account_id"]}
    await fails(db, name, f"account {savings['account_id']} is closed", **back, amount=10)
    set_account(db, savings["account_id"], status="open", withdrawals_this_month=6, balance=900.0)
    await fails(
        db,
        name,
        f"savings account {savings['account_id']} already had 6 withdrawals this month",
        **back,
        amount=10,
    )


# --------------------------------------------------------------------------------------------- payees


async def test_a_standard_customer_pays_the_payee_fee(db):
    checking, payee = payee_of("standard")
    set_account(db, checking["account_id"], balance=300.0, transferred_today=0.0)
    out = json.loads(
        await ok(
            db, "pay_payee", from_account_id=checking["account_id"], payee_id=payee["payee_id"], amount=120.5
        )
    )
    assert out["fee"] == 2.0 and out["account"]["balance"] == 177.5
    assert out["account"]["transferred_today"] == 120.5
    paid, fee = (state(db)["transactions"][t] for t in out["transactions"])
    assert (paid["kind"], paid["amount"], paid["description"]) == (
        "payee_payment",
        120.5,
        f"Payment to {payee['name']}",
    )
    assert (fee["kind"], fee["amount"]) == ("fee", 2.0)


async def test_a_premier_customer_pays_no_fee(db):
    checking, payee = payee_of("premier")
    set_account(db, checking["account_id"], balance=300.0, transferred_today=0.0)
    out = json.loads(
        await ok(
            db, "pay_payee", from_account_id=checking["account_id"], payee_id=payee["payee_id"], amount=300
        )
    )
    assert out["fee"] == 0.0 and out["account"]["balance"] == 0.0 and len(out["transactions"]) == 1


async def test_a_payee_payment_refuses_what_the_rules_forbid(db):
    checking, payee = payee_of("standard")
    _, pending = payee_of("standard", "pending_verification")
    _, stranger = payee_of("premier")
    args = {"from_account_id": checking["account_id"], "payee_id": payee["payee_id"]}
    set_account(db, checking["account_id"], balance=100.0, transferred_today=2450.0)
    await fails(db, "pay_payee", "payee PAY-1 not found", **{**args, "payee_id": "PAY-1"}, amount=10)
    await fails(
        db,
        "pay_payee",
        f"payee {stranger['payee_id']} is not a payee of the account's owner",
        **{**args, "payee_id": stranger["payee_id"]},
        amount=10,
    )
    await fails(
        db,
        "pay_payee",
        f"payee {pending['payee_id']} is not verified yet and cannot be paid",
        from_account_id=accounts_of(pending["customer_id"], "checking")[0]["account_id"],
        payee_id=pending["payee_id"],
        amount=10,
    )
    short = f"insufficient funds: account {checking['account_id']} has 100.00 available, "
    await fails(db, "pay_payee", short + "the payment needs 99.00 plus the 2.00 fee", **args, amount=99)
    await fails(
        db,
        "pay_payee",
        "daily transfer limit exceeded: 50.00 of the 2500.00 limit is left today on "
        f"account {checking['account_id']}",
        **args,
        amount=60,
    )
    await fails(db, "pay_payee", "amount must be a positive sum in dollars and cents", **args, amount=-5)
    savings = accounts_of(payee["customer_id"], "savings")[0]
    await fails(
        db,
        "pay_payee",
        "payee payments can only be made from a checking account",
        **{**args, "from_account_id": savings["account_id"]},
        amount=10,
    )
