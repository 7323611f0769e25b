"""Bank read tools: identification, profile, accounts and their history, cards, payees, loans.

Every read answers JSON text. A customer's date of birth and SSN digits serve identification only:
no read ever shows them.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlalchemy import func

from taue.envs.bank.models import Account, Card, Customer, Loan, Payee, Transaction
from taue.envs.bank.rules import TODAY, cents, payoff_amount
from taue.envs.runtime.database import Store

CustomerId = Annotated[str, Field(description="The customer id, e.g. 'cust_204817'.")]
AccountId = Annotated[str, Field(description="An account id, e.g. 'CHK-20481733' or 'SAV-20481790'.")]
CardId = Annotated[str, Field(description="A card id, e.g. 'CRD-3048172'.")]
LoanId = Annotated[str, Field(description="A loan id, e.g. 'LN-503127'.")]


def dump(value: Any) -> str:
    return json.dumps(value)


def customer_row(db: Store, customer_id: str) -> Customer:
    return db.require(Customer, customer_id, f"customer {customer_id} not found")


def account_row(db: Store, account_id: str) -> Account:
    return db.require(Account, account_id, f"account {account_id} not found")


def card_row(db: Store, card_id: str) -> Card:
    return db.require(Card, card_id, f"card {card_id} not found")


def loan_row(db: Store, loan_id: str) -> Loan:
    return db.require(Loan, loan_id, f"loan {loan_id} not found")


def account_view(account: Account) -> dict[str, Any]:
    left = cents(account.daily_transfer_limit - account.transferred_today)
    return {**account.to_record(), "left_to_transfer_today": left}


# ------------------------------------------------------------------------------------ identification


async def find_customer_id(
    db: Store,
    first_name: Annotated[str, Field(description="The customer's first name, e.g. 'Amara'.")],
    last_name: Annotated[str, Field(description="The customer's last name, e.g. 'Holloway'.")],
    date_of_birth: Annotated[str, Field(description="Date of birth as 'YYYY-MM-DD', e.g. '1986-03-21'.")],
    ssn_last4: Annotated[str, Field(description="The last four digits of the customer's SSN, e.g. '0417'.")],
) -> str:
    """Verify a customer who does not know their customer id: all four facts must match the file
    (names in any letter case). Returns the customer id."""
    rows = db.scan(
        Customer,
        func.lower(Customer.first_name) == first_name.strip().lower(),
        func.lower(Customer.last_name) == last_name.strip().lower(),
        Customer.date_of_birth == date_of_birth.strip(),
        Customer.ssn_last4 == ssn_last4.strip(),
    )
    if not rows:
        raise ToolError("no customer matches that name, date of birth and SSN digits")
    return dump({"customer_id": rows[0].customer_id})


async def get_customer_details(db: Store, customer_id: CustomerId) -> str:
    """Get a customer's profile (contact details, tier) with their accounts, cards and loans (ids,
    kinds and statuses). Payees are listed by `list_payees`."""
    customer = customer_row(db, customer_id)
    accounts = db.scan(Account, Account.customer_id == customer_id)
    cards = db.scan(Card, Card.customer_id == customer_id)
    loans = db.scan(Loan, Loan.customer_id == customer_id)
    return dump(
        {
            **customer.profile(),
            "accounts": [
                {"account_id": a.account_id, "kind": a.kind, "nickname": a.nickname, "status": a.status}
                for a in accounts
            ],
            "cards": [
                {
                    "card_id": c.card_id,
                    "account_id": c.account_id,
                    "last_four": c.last_four,
                    "status": c.status,
                }
                for c in cards
            ],
            "loans": [{"loan_id": loan.loan_id, "kind": loan.kind, "status": loan.status} for loan in loans],
        }
    )


# ------------------------------------------------------------------------------------------ accounts


async def get_account_details(db: Store, account_id: AccountId) -> str:
    """Get an account: kind, status, balance, interest rate, the daily transfer limit with what was
    already sent today and what is left, and (savings) this month's withdrawals."""
    return dump(account_view(account_row(db, account_id)))


async def list_account_transactions(db: Store, account_id: AccountId) -> str:
    """List an account's transactions of the last 120 days, newest first: id, date, kind, description,
    amount, direction (debit = money out), status (pending or posted), the card used, any dispute."""
    account_row(db, account_id)
    rows = db.scan(Transaction, Transaction.account_id == account_id)
    rows.sort(key=lambda row: (row.date, row.transaction_id), reverse=True)
    return dump({"account_id": account_id, "transactions": [row.to_record() for row in rows]})


# --------------------------------------------------------------------------------------------- cards


async def get_card_details(db: Store, card_id: CardId) -> str:
    """Get a debit card: the account it draws on, last four digits, tier, status (active, frozen,
    blocked, lost, closed), daily purchase limit, expiry and the card that replaced it, if any."""
    return dump(card_row(db, card_id).to_record())


# -------------------------------------------------------------------------------------------- payees


async def list_payees(db: Store, customer_id: CustomerId) -> str:
    """List the customer's saved payees (people and companies outside the bank they pay): id, name,
    bank, last four digits of their account, category and status (active or pending_verification)."""
    customer_row(db, customer_id)
    rows = db.scan(Payee, Payee.customer_id == customer_id)
    return dump({"customer_id": customer_id, "payees": [row.to_record() for row in rows]})


# --------------------------------------------------------------------------------------------- loans


async def get_loan_details(db: Store, loan_id: LoanId) -> str:
    """Get a loan: kind, status, principal balance, interest accrued since the last due date, rate,
    monthly payment, payment day and next due date, any past-due amount and the last date change."""
    return dump(loan_row(db, loan_id).to_record())


async def get_loan_payoff_quote(db: Store, loan_id: LoanId) -> str:
    """Quote the amount that pays a loan off in full today: principal balance plus accrued interest."""
    loan = loan_row(db, loan_id)
    if loan.status != "active":
        raise ToolError(f"loan {loan_id} is {loan.status.replace('_', ' ')}; there is nothing to pay off")
    return dump(
        {
            "loan_id": loan_id,
            "principal_balance": loan.principal_balance,
            "accrued_interest": loan.accrued_interest,
            "payoff_amount": payoff_amount(loan.to_record()),
            "good_through": TODAY,
        }
    )
