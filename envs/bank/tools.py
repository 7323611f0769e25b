"""Bank write tools (and the hand-over to a person); the reads are in reads.py.

Each write checks the hard rules of policy.md with the functions of rules.py (the policy checker
uses the same ones) and fails with a `ToolError` saying what was wrong; a failed call changes
nothing (one transaction per call). Money moved is recorded as transactions dated today.
New rows are numbered after the highest id of their table.
"""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlmodel import SQLModel

from taue.envs.bank import rules
from taue.envs.bank.models import Card, Dispute, Payee, Transaction
from taue.envs.bank.reads import (
    CardId,
    LoanId,
    account_row,
    account_view,
    card_row,
    customer_row,
    dump,
    find_customer_id,
    get_account_details,
    get_card_details,
    get_customer_details,
    get_loan_details,
    get_loan_payoff_quote,
    list_account_transactions,
    list_payees,
    loan_row,
)
from taue.envs.runtime.common_tools import calculate, think
from taue.envs.runtime.database import Store
from taue.envs.runtime.domain import ends_conversation, writes

Amount = Annotated[float, Field(description="The amount in dollars and cents, e.g. 250.0 or 79.99.")]
Reason = Literal["unauthorized", "duplicate_charge", "wrong_amount", "not_received", "cancelled_service"]


def _refuse_on(problems: list[rules.Problem]) -> None:
    if problems:
        raise ToolError(problems[0][1])


def _entry(db: Store, account_id: str, kind: str, text: str, amount: float, direction: str) -> Transaction:
    row = Transaction(
        transaction_id=db.next_id(Transaction, "TX", width=7),
        account_id=account_id,
        date=rules.TODAY,
        kind=kind,
        description=text,
        amount=rules.cents(amount),
        direction=direction,
        status="posted",
    )
    db.save(row)
    return row


def _save(db: Store, *rows: SQLModel) -> None:
    for row in rows:
        db.save(row)


# -------------------------------------------------------------------------------------- money moving


@writes
async def internal_transfer(
    db: Store,
    from_account_id: Annotated[str, Field(description="The account the money leaves, e.g. 'CHK-20481733'.")],
    to_account_id: Annotated[str, Field(description="The customer's own account it goes to.")],
    amount: Amount,
) -> str:
    """Move money between two open accounts of the same customer, at no fee. The amount must be
    covered by the balance and by what is left of the source account's daily transfer limit; a
    savings account allows 6 transfers or payments out per month. Returns both accounts."""
    source, target = account_row(db, from_account_id), account_row(db, to_account_id)
    _refuse_on(rules.transfer_problems(source.to_record(), target.to_record(), amount))
    amount = rules.cents(amount)
    source.balance = rules.cents(source.balance - amount)
    source.transferred_today = rules.cents(source.transferred_today + amount)
    source.withdrawals_this_month += int(source.kind == "savings")
    target.balance = rules.cents(target.balance + amount)
    _save(db, source, target)
    out = _entry(db, source.account_id, "transfer_out", f"Transfer to {target.account_id}", amount, "debit")
    into = _entry(
        db, target.account_id, "transfer_in", f"Transfer from {source.account_id}", amount, "credit"
    )
    return dump(
        {"transactions": [out.transaction_id, into.transaction_id],
         "from_account": account_view(source), "to_account": account_view(target)}
    )  # fmt: skip


@writes
async def pay_payee(
    db: Store,
    from_account_id: Annotated[
        str, Field(description="The checking account that pays, e.g. 'CHK-20481733'.")
    ],
    payee_id: Annotated[str, Field(description="A saved, verified payee of the customer, e.g. 'PAY-40217'.")],
    amount: Amount,
) -> str:
    """Send a payment from a checking account to one of the customer's verified payees. Standard
    customers pay a 2.00 fee per payment (premier customers none); amount plus fee must be covered
    by the balance, and the amount by what is left of the daily transfer limit. Returns the account."""
    source = account_row(db, from_account_id)
    payee = db.require(Payee, payee_id, f"payee {payee_id} not found")
    customer = customer_row(db, source.customer_id)
    _refuse_on(rules.payee_problems(customer.to_record(), source.to_record(), payee.to_record(), amount))
    amount, fee = rules.cents(amount), rules.PAYEE_FEE[customer.tier]
    source.balance = rules.cents(source.balance - amount - fee)
    source.transferred_today = rules.cents(source.transferred_today + amount)
    _save(db, source)
    paid = _entry(db, source.account_id, "payee_payment", f"Payment to {payee.name}", amount, "debit")
    entries = [paid.transaction_id]
    if fee:
        entries.append(_entry(db, source.account_id, "fee", "Payee payment fee", fee, "debit").transaction_id)
    return dump({"transactions": entries, "payee_id": payee_id, "fee": fee, "account": account_view(source)})


# --------------------------------------------------------------------------------------------- cards


@writes
async def freeze_card(db: Store, card_id: CardId) -> str:
    """Freeze an active card at the customer's request: purchases and withdrawals are declined until
    it is unfrozen. Returns the card."""
    card = card_row(db, card_id)
    _refuse_on(rules.freeze_problems(card.to_record()))
    card.status = "frozen"
    _save(db, card)
    return dump(card.to_record())


@writes
async def unfreeze_card(db: Store, card_id: CardId) -> str:
    """Unfreeze a card the customer froze. Cards blocked by the fraud team, lost or closed cannot be
    unfrozen. Returns the card."""
    card = card_row(db, card_id)
    _refuse_on(rules.unfreeze_problems(card.to_record()))
    card.status = "active"
    _save(db, card)
    return dump(card.to_record())


def _new_last_four(old: str) -> str:
    """A replacement's last four digits, derived from the old card's so the new card's content does not
    depend on the order things were created in."""
    return f"{(int(old) * 7 + 4321) % 10000:04d}"


@writes
async def report_card_lost(
    db: Store,
    card_id: CardId,
    shipping: Annotated[
        Literal["standard", "express"],
        Field(description="'standard' (free, 7-10 business days) or 'express' (2 business days)."),
    ],
) -> str:
    """Report a card lost or stolen: it is closed for good as 'lost' and a replacement with a new number,
    the same account and the same daily limit is issued. Express shipping costs 25.00 for standard
    customers (debited from the card's account), nothing for premier. Returns the new card."""
    card = card_row(db, card_id)
    account = account_row(db, card.account_id)
    customer = customer_row(db, card.customer_id)
    _refuse_on(
        rules.replacement_problems(customer.to_record(), card.to_record(), account.to_record(), shipping)
    )
    new = Card(
        card_id=db.next_id(Card, "CRD-", width=7),
        customer_id=card.customer_id,
        account_id=card.account_id,
        last_four=_new_last_four(card.last_four),
        tier=card.tier,
        status="active",
        daily_limit=card.daily_limit,
        expires="2029-06",
    )
    card.status, card.replaced_by = "lost", new.card_id
    _save(db, new, card)
    fee = rules.EXPRESS_SHIPPING_FEE[customer.tier] if shipping == "express" else 0.0
    if fee:
        account.balance = rules.cents(account.balance - fee)
        _save(db, account)
        _entry(db, account.account_id, "fee", "Express card shipping fee", fee, "debit")
    return dump({"lost_card": card.card_id, "new_card": new.to_record(), "shipping": shipping, "fee": fee})


@writes
async def update_card_limit(
    db: Store,
    card_id: CardId,
    daily_limit: Annotated[
        int, Field(description="The new daily purchase limit in whole dollars, e.g. 2000.")
    ],
) -> str:
    """Set a card's daily purchase limit: at least 100, at most 3000 on a standard card and 7500 on a
    premium card. Returns the card."""
    card = card_row(db, card_id)
    _refuse_on(rules.limit_problems(card.to_record(), daily_limit))
    card.daily_limit = daily_limit
    _save(db, card)
    return dump(card.to_record())


# ------------------------------------------------------------------------------------------ disputes


@writes
async def file_dispute(
    db: Store,
    transaction_id: Annotated[str, Field(description="The card purchase disputed, e.g. 'TX0004821'.")],
    amount: Annotated[float, Field(description="How much of the purchase is disputed, e.g. 59.99.")],
    reason: Annotated[Reason, Field(description="Why the customer disputes it.")],
) -> str:
    """Dispute a posted card purchase made within the last 60 days, once per purchase, for at most its
    amount. Disputes of 25.00 or more get a provisional credit of the disputed amount on the account
    right away while the case is investigated. Returns the dispute."""
    purchase = db.require(Transaction, transaction_id, f"transaction {transaction_id} not found")
    _refuse_on(rules.dispute_problems(purchase.to_record(), amount))
    account = account_row(db, purchase.account_id)
    credit = rules.provisional_credit(amount)
    dispute = Dispute(
        dispute_id=db.next_id(Dispute, "DSP-", width=5),
        transaction_id=transaction_id,
        customer_id=account.customer_id,
        amount=rules.cents(amount),
        reason=reason,
        status="open",
        filed_on=rules.TODAY,
        provisional_credit=credit,
    )
    purchase.dispute_id = dispute.dispute_id
    _save(db, dispute, purchase)
    if credit:
        account.balance = rules.cents(account.balance + credit)
        _save(db, account)
        _entry(
            db,
            account.account_id,
            "provisional_credit",
            f"Provisional credit {transaction_id}",
            credit,
            "credit",
        )
    return dump(dispute.to_record())


# --------------------------------------------------------------------------------------------- loans


@writes
async def make_loan_payment(
    db: Store,
    loan_id: LoanId,
    from_account_id: Annotated[
        str, Field(description="The borrower's account that pays, e.g. 'CHK-20481733'.")
    ],
    amount: Amount,
) -> str:
    """Pay toward an active loan from one of the borrower's open accounts. The payment covers accrued
    interest first, then principal, and also brings down any past-due amount; it cannot exceed the
    payoff amount. Paying the payoff amount closes the loan as paid off. Returns the loan."""
    loan, source = loan_row(db, loan_id), account_row(db, from_account_id)
    _refuse_on(rules.loan_payment_problems(loan.to_record(), source.to_record(), amount))
    amount = rules.cents(amount)
    interest = min(amount, loan.accrued_interest)
    loan.accrued_interest = rules.cents(loan.accrued_interest - interest)
    loan.principal_balance = rules.cents(loan.principal_balance - (amount - interest))
    loan.past_due_amount = rules.cents(max(0.0, loan.past_due_amount - amount))
    if loan.principal_balance == 0 and loan.accrued_interest == 0:
        loan.status = "paid_off"
    source.balance = rules.cents(source.balance - amount)
    _save(db, loan, source)
    _entry(db, source.account_id, "loan_payment", f"Payment to loan {loan_id}", amount, "debit")
    return dump(loan.to_record())


@writes
async def change_loan_payment_date(
    db: Store,
    loan_id: LoanId,
    payment_day: Annotated[int, Field(description="The new day of the month payments fall due, 1 to 28.")],
) -> str:
    """Move the monthly due day of an active loan that is not past due, once every 12 months;
    mortgages keep their date. The next due date moves to the new day. Returns the loan."""
    loan = loan_row(db, loan_id)
    _refuse_on(rules.date_change_problems(loan.to_record(), payment_day))
    loan.payment_day = payment_day
    loan.next_due_date = rules.next_due_on(loan.next_due_date, payment_day)
    loan.last_date_change = rules.TODAY
    _save(db, loan)
    return dump(loan.to_record())


# ------------------------------------------------------------------------------------------ hand-over


@ends_conversation
async def transfer_to_human_agents(
    db: Store,
    summary: Annotated[
        str, Field(description="A short summary of the customer's issue for the human agent.")
    ],
) -> str:
    """Hand the customer over to a human agent; the conversation ends here. Use it only when the
    customer asks for a person or needs something these tools and the policy do not cover."""
    return "Transfer successful"


TOOLS = [
    calculate,
    change_loan_payment_date,
    file_dispute,
    find_customer_id,
    freeze_card,
    get_account_details,
    get_card_details,
    get_customer_details,
    get_loan_details,
    get_loan_payoff_quote,
    internal_transfer,
    list_account_transactions,
    list_payees,
    make_loan_payment,
    pay_payee,
    report_card_lost,
    think,
    transfer_to_human_agents,
    unfreeze_card,
    update_card_limit,
]
