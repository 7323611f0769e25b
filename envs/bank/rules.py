"""The bank's hard rules with their numbers, shared by the tools (which refuse a write that breaks
one) and the policy checker (which judges the Tracer's writes): both call the same functions, so
they cannot disagree.

Every check takes plain records (`Model.to_record()` dicts) and returns the problems it finds as
`(rule id, message)` pairs, in a fixed order; the tools raise the first message.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from taue.envs.runtime.money import cents

Record = dict[str, Any]
Problem = tuple[str, str]

CLOCK = "2025-06-12T09:30:00"
TODAY = CLOCK[:10]

DAILY_TRANSFER_LIMIT = {"standard": 2500.0, "premier": 10000.0}
SAVINGS_WITHDRAWALS_PER_MONTH = 6
PAYEE_FEE = {"standard": 2.0, "premier": 0.0}
EXPRESS_SHIPPING_FEE = {"standard": 25.0, "premier": 0.0}
CARD_LIMIT_MIN = 100
CARD_LIMIT_CAP = {"standard": 3000, "premium": 7500}
DISPUTE_WINDOW_DAYS = 60
PROVISIONAL_CREDIT_MIN = 25.0
DISPUTABLE = "card_purchase"
DATE_CHANGE_EVERY_DAYS = 365
LATEST_PAYMENT_DAY = 28
FIXED_DATE_LOANS = ("mortgage",)


def money(value: float) -> str:
    return f"{value:.2f}"


def days_between(earlier: str, later: str) -> int:
    return (date.fromisoformat(later) - date.fromisoformat(earlier)).days


def shift_days(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


# ------------------------------------------------------------------------------------ money moving


def _amount(amount: float) -> list[Problem]:
    return (
        []
        if amount > 0 and cents(amount) == amount
        else [("positive-amount", "amount must be a positive sum in dollars and cents")]
    )


def _outgoing(source: Record, amount: float, fee: float = 0.0) -> list[Problem]:
    """What any money leaving `source` must respect: open account, funds, daily limit, savings count."""
    problems: list[Problem] = []
    if source["status"] != "open":
        return [("open-accounts", f"account {source['account_id']} is {source['status']}")]
    if cents(amount + fee) > source["balance"]:
        needed = f" plus the {money(fee)} fee" if fee else ""
        problems.append(
            ("sufficient-funds", f"insufficient funds: account {source['account_id']} has "
             f"{money(source['balance'])} available, the payment needs {money(amount)}{needed}")
        )  # fmt: skip
    left = cents(source["daily_transfer_limit"] - source["transferred_today"])
    if amount > left:
        problems.append(
            ("daily-limit", f"daily transfer limit exceeded: {money(left)} of the "
             f"{money(source['daily_transfer_limit'])} limit is left today on account {source['account_id']}")
        )  # fmt: skip
    if source["kind"] == "savings" and source["withdrawals_this_month"] >= SAVINGS_WITHDRAWALS_PER_MONTH:
        problems.append(
            ("savings-withdrawals", f"savings account {source['account_id']} already had "
             f"{SAVINGS_WITHDRAWALS_PER_MONTH} withdrawals this month")
        )  # fmt: skip
    return problems


def transfer_problems(source: Record, target: Record, amount: float) -> list[Problem]:
    if source["account_id"] == target["account_id"]:
        return [("own-accounts", "cannot transfer from an account to itself")]
    if source["customer_id"] != target["customer_id"]:
        return [
            ("own-accounts", "both accounts must belong to the same customer; use a payee payment instead")
        ]
    if target["status"] != "open":
        return [("open-accounts", f"account {target['account_id']} is {target['status']}")]
    return _amount(amount) or _outgoing(source, amount)


def payee_problems(customer: Record, source: Record, payee: Record, amount: float) -> list[Problem]:
    if payee["customer_id"] != source["customer_id"]:
        return [("own-payee", f"payee {payee['payee_id']} is not a payee of the account's owner")]
    if payee["status"] != "active":
        return [("verified-payee", f"payee {payee['payee_id']} is not verified yet and cannot be paid")]
    if source["kind"] != "checking":
        return [("payee-from-checking", "payee payments can only be made from a checking account")]
    return _amount(amount) or _outgoing(source, amount, PAYEE_FEE[customer["tier"]])


# ------------------------------------------------------------------------------------------ cards


def freeze_problems(card: Record) -> list[Problem]:
    if card["status"] != "active":
        return [
            (
                "freeze-active",
                f"card {card['card_id']} is {card['status']}; only an active card can be frozen",
            )
        ]
    return []


def unfreeze_problems(card: Record) -> list[Problem]:
    status = card["status"]
    if status == "blocked":
        return [
            ("bank-block", f"card {card['card_id']} is blocked by the fraud team; only they can release it")
        ]
    if status in ("lost", "closed"):
        return [("lost-is-final", f"card {card['card_id']} is {status} and can never be reactivated")]
    if status != "frozen":
        return [("unfreeze-frozen", f"card {card['card_id']} is not frozen")]
    return []


def replacement_problems(customer: Record, card: Record, account: Record, shipping: str) -> list[Problem]:
    if card["status"] in ("lost", "closed"):
        return [("replace-once", f"card {card['card_id']} is already {card['status']}")]
    fee = EXPRESS_SHIPPING_FEE[customer["tier"]] if shipping == "express" else 0.0
    if fee and (account["status"] != "open" or account["balance"] < fee):
        return [("sufficient-funds", f"insufficient funds for the {money(fee)} express shipping fee "
                 f"on account {account['account_id']}")]  # fmt: skip
    return []


def limit_problems(card: Record, limit: int) -> list[Problem]:
    if card["status"] in ("lost", "closed", "blocked"):
        return [("limit-usable-card", f"card {card['card_id']} is {card['status']}; its limit cannot change")]
    cap = CARD_LIMIT_CAP[card["tier"]]
    if not CARD_LIMIT_MIN <= limit <= cap:
        return [("limit-cap", f"the daily limit of a {card['tier']} card must be between "
                 f"{CARD_LIMIT_MIN} and {cap}")]  # fmt: skip
    return []


# --------------------------------------------------------------------------------------- disputes


def dispute_problems(purchase: Record, amount: float) -> list[Problem]:
    if purchase["kind"] != DISPUTABLE:
        return [("card-purchases-only", f"transaction {purchase['transaction_id']} is a "
                 f"{purchase['kind'].replace('_', ' ')}; only card purchases can be disputed")]  # fmt: skip
    if purchase["status"] != "posted":
        return [
            ("posted-only", f"transaction {purchase['transaction_id']} is still pending; wait until it posts")
        ]
    if purchase["dispute_id"] is not None:
        return [("one-dispute", f"transaction {purchase['transaction_id']} is already disputed "
                 f"({purchase['dispute_id']})")]  # fmt: skip
    age = days_between(purchase["date"], TODAY)
    if age > DISPUTE_WINDOW_DAYS:
        return [("dispute-window", f"transaction {purchase['transaction_id']} posted {age} days ago; "
                 f"disputes must be filed within {DISPUTE_WINDOW_DAYS} days")]  # fmt: skip
    if not 0 < amount <= purchase["amount"] or cents(amount) != amount:
        return [("dispute-amount", f"the disputed amount must be more than 0 and at most "
                 f"{money(purchase['amount'])}")]  # fmt: skip
    return []


def provisional_credit(amount: float) -> float:
    return cents(amount) if amount >= PROVISIONAL_CREDIT_MIN else 0.0


# ------------------------------------------------------------------------------------------ loans


def payoff_amount(loan: Record) -> float:
    return cents(loan["principal_balance"] + loan["accrued_interest"])


def loan_payment_problems(loan: Record, source: Record, amount: float) -> list[Problem]:
    if loan["status"] != "active":
        return [("active-loan", f"loan {loan['loan_id']} is {loan['status'].replace('_', ' ')}")]
    if source["customer_id"] != loan["customer_id"]:
        return [("own-accounts", "the loan must be paid from an account of the borrower")]
    if source["status"] != "open":
        return [("open-accounts", f"account {source['account_id']} is {source['status']}")]
    problems = _amount(amount)
    if not problems and amount > payoff_amount(loan):
        problems.append(("no-overpayment", f"the payment is more than the payoff amount of "
                         f"{money(payoff_amount(loan))}"))  # fmt: skip
    if not problems and amount > source["balance"]:
        problems.append(("sufficient-funds", f"insufficient funds: account {source['account_id']} has "
                         f"{money(source['balance'])} available"))  # fmt: skip
    return problems


def date_change_problems(loan: Record, day: int) -> list[Problem]:
    if loan["status"] != "active":
        return [("active-loan", f"loan {loan['loan_id']} is {loan['status'].replace('_', ' ')}")]
    if loan["kind"] in FIXED_DATE_LOANS:
        return [("fixed-mortgage-date", "a mortgage's payment date cannot be changed")]
    problems: list[Problem] = []
    if loan["past_due_amount"] > 0:
        problems.append(("not-past-due", f"loan {loan['loan_id']} has {money(loan['past_due_amount'])} "
                         "past due; bring it current first"))  # fmt: skip
    changed = loan["last_date_change"]
    if changed is not None and days_between(changed, TODAY) < DATE_CHANGE_EVERY_DAYS:
        problems.append(("once-a-year", f"the payment date was already changed on {changed}; "
                         "it can change once every 12 months"))  # fmt: skip
    if not 1 <= day <= LATEST_PAYMENT_DAY:
        problems.append(("payment-day-range", f"the payment day must be between 1 and {LATEST_PAYMENT_DAY}"))
    elif day == loan["payment_day"]:
        problems.append(("payment-day-range", f"the payment day is already {day}"))
    return problems


def next_due_on(current_due: str, day: int) -> str:
    """The first due date on the new day: in the month of the current due date, or the month after
    when that day would not be after today."""
    due = date.fromisoformat(current_due).replace(day=day)
    if due.isoformat() <= TODAY:
        month = due.month % 12 + 1
        due = due.replace(year=due.year + (due.month == 12), month=month)
    return due.isoformat()
