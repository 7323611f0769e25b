"""Bank tables: customers, deposit accounts, their transactions, debit cards, external payees, loans
and card disputes.

Every table has one string primary key. Money is stored in JSON text columns as floats rounded to
cents, so `25` and `25.0` never mix in the state; dates are ISO strings (`YYYY-MM-DD`). `to_record()`
gives the JSON record a read tool shows; a customer's reads show `profile()`, without the date of birth
and SSN digits, which only serve identification.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import registry
from sqlmodel import Field

from taue.envs.runtime.database import DomainTable, JSONText


class BankTable(DomainTable, registry=registry()):
    """Base of the bank tables (a record is every column, in declared order, unless a model says)."""


class Customer(BankTable, table=True):
    """An account holder, key like `cust_204817`. `tier` is `standard` or `premier`."""

    __tablename__ = "customers"

    customer_id: str = Field(primary_key=True)
    first_name: str
    last_name: str
    date_of_birth: str
    ssn_last4: str
    email: str
    phone: str
    address: dict[str, str] = Field(sa_type=JSONText)
    tier: str
    member_since: str

    def profile(self) -> dict[str, Any]:
        """What a read shows: the profile without the identification secrets (date of birth, SSN
        digits). `to_record()` is the whole row (for exports)."""
        return {k: v for k, v in self.to_record().items() if k not in ("date_of_birth", "ssn_last4")}


class Account(BankTable, table=True):
    """A checking or savings account, key like `CHK-20481733` / `SAV-20481790`.

    `transferred_today` is what left the account today by transfer or payment (the daily limit counts
    it); `withdrawals_this_month` counts the month's transfers and payments out of a savings account.
    """

    __tablename__ = "accounts"

    account_id: str = Field(primary_key=True)
    customer_id: str
    kind: str
    nickname: str
    status: str
    balance: float = Field(sa_type=JSONText)
    daily_transfer_limit: float = Field(sa_type=JSONText)
    transferred_today: float = Field(sa_type=JSONText)
    withdrawals_this_month: int
    interest_rate: float = Field(sa_type=JSONText)
    opened_on: str


class Transaction(BankTable, table=True):
    """One entry of an account's history, key like `TX0004821`.

    `direction` is `debit` (money out) or `credit` (money in); `amount` is always positive. A card
    purchase names its card; `dispute_id` is set once the purchase is disputed.
    """

    __tablename__ = "transactions"

    transaction_id: str = Field(primary_key=True)
    account_id: str
    date: str
    kind: str
    description: str
    amount: float = Field(sa_type=JSONText)
    direction: str
    status: str
    card_id: str | None = None
    dispute_id: str | None = None


class Card(BankTable, table=True):
    """A debit card on an account, key like `CRD-3048172`.

    `status`: `active`, `frozen` (by the customer), `blocked` (by the bank's fraud team), `lost`
    (reported lost; `replaced_by` names the new card) or `closed`. `tier` (`standard`, `premium`)
    sets the cap of the daily purchase limit.
    """

    __tablename__ = "cards"

    card_id: str = Field(primary_key=True)
    customer_id: str
    account_id: str
    last_four: str
    tier: str
    status: str
    daily_limit: int
    expires: str
    replaced_by: str | None = None


class Payee(BankTable, table=True):
    """Someone outside the bank a customer pays, key like `PAY-40217`. `status`: `active` or
    `pending_verification` (cannot be paid yet)."""

    __tablename__ = "payees"

    payee_id: str = Field(primary_key=True)
    customer_id: str
    name: str
    bank_name: str
    account_last4: str
    category: str
    status: str


class Loan(BankTable, table=True):
    """An installment loan, key like `LN-503127`. `kind`: `auto`, `personal`, `home_equity` or
    `mortgage`; `status`: `active` or `paid_off`. `last_date_change` is the day the payment day was
    last moved (None if never)."""

    __tablename__ = "loans"
    record_fields = (
        "loan_id", "customer_id", "kind", "status", "original_amount", "principal_balance",
        "accrued_interest", "interest_rate", "monthly_payment", "payment_day", "next_due_date",
        "past_due_amount", "last_date_change", "opened_on",
    )  # fmt: skip

    loan_id: str = Field(primary_key=True)
    customer_id: str
    kind: str
    original_amount: float = Field(sa_type=JSONText)
    principal_balance: float = Field(sa_type=JSONText)
    accrued_interest: float = Field(sa_type=JSONText)
    interest_rate: float = Field(sa_type=JSONText)
    monthly_payment: float = Field(sa_type=JSONText)
    payment_day: int
    next_due_date: str
    past_due_amount: float = Field(sa_type=JSONText)
    last_date_change: str | None = None
    status: str
    opened_on: str


class Dispute(BankTable, table=True):
    """A disputed card purchase, key like `DSP-10042`. `provisional_credit` is what was credited
    to the account while the dispute is investigated (0.0 when none)."""

    __tablename__ = "disputes"

    dispute_id: str = Field(primary_key=True)
    transaction_id: str
    customer_id: str
    amount: float = Field(sa_type=JSONText)
    reason: str
    status: str
    filed_on: str
    provisional_credit: float = Field(sa_type=JSONText)


TABLES = (Account, Card, Customer, Dispute, Loan, Payee, Transaction)
