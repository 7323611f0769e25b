"""The bank's policy as code: the hard rules of policy.md that the Tracer checks writes against
(docs/tracer.md). A gold write must break none; a policy challenge's asked-for write must break at
least one, and the broken rules' `reasons` are the phrases a refusal is accepted with.

The judgement itself is rules.py's, the same functions the write tools refuse with; this module
names each rule and applies it to the seed records.
"""

from __future__ import annotations

from taue.contracts.tasks import Action
from taue.envs.bank import rules
from taue.envs.bank.seed_view import BankView
from taue.envs.runtime.authoring import Rule

RULES = {
    rule.id: rule
    for rule in (
        Rule("known-records", "Act only on records that exist and belong to the verified customer.", ()),
        Rule("positive-amount", "Amounts are positive sums in dollars and cents.", ()),
        Rule("own-accounts", "Transfers move money between the customer's own accounts only.",
             ("same customer", "your own accounts")),
        Rule("open-accounts", "Only open accounts send or receive money.", ("closed account", "is closed")),
        Rule("sufficient-funds", "The balance must cover the amount (and any fee); no overdraft.",
             ("insufficient funds", "not enough money", "balance does not cover", "not cover")),
        Rule("daily-limit", "Money sent out by transfer or payment counts toward the daily transfer limit.",
             ("daily transfer limit", "daily limit", "left to transfer today")),
        Rule("savings-withdrawals", "A savings account allows 6 transfers or payments out per month.",
             ("6 withdrawals", "six withdrawals", "withdrawals this month")),
        Rule("own-payee", "Payments go only to the customer's own saved payees.", ("saved payees",)),
        Rule("verified-payee", "Only active (verified) payees can be paid.",
             ("pending verification", "not verified", "verified yet")),
        Rule("payee-from-checking", "Payee payments are made from a checking account.",
             ("from a checking account", "checking account only")),
        Rule("freeze-active", "Only an active card can be frozen.", ("only an active card",)),
        Rule("unfreeze-frozen", "Only a frozen card can be unfrozen.", ("not frozen",)),
        Rule("bank-block", "A card blocked by the fraud team cannot be unfrozen.",
             ("fraud team", "blocked by the bank", "fraud block")),
        Rule("lost-is-final", "A lost or closed card can never be reactivated.",
             ("reported lost", "never be reactivated", "cannot be reactivated", "replacement card")),
        Rule("replace-once", "A card already lost or closed is not reported again.", ("already",)),
        Rule("limit-usable-card", "A blocked, lost or closed card's limit cannot change.",
             ("cannot change",)),
        Rule("limit-cap", "Daily card limits run from 100 to 3,000 (standard) or 7,500 (premium).",
             ("3,000", "3000", "7,500", "7500", "above the cap", "maximum limit", "card's cap")),
        Rule("card-purchases-only", "Only card purchases can be disputed.", ("only card purchases",)),
        Rule("posted-only", "A pending purchase must post before it is disputed.", ("pending", "posts")),
        Rule("one-dispute", "A purchase can be disputed once.", ("already disputed",)),
        Rule("dispute-window", "Disputes must be filed within 60 days of the purchase.",
             ("60 days", "60-day", "sixty days", "dispute window")),
        Rule("dispute-amount", "A dispute is for more than 0 and at most the purchase amount.",
             ("purchase amount",)),
        Rule("active-loan", "Only active loans take payments or date changes.", ("paid off",)),
        Rule("no-overpayment", "A loan payment cannot exceed the payoff amount.", ("payoff amount",)),
        Rule("fixed-mortgage-date", "A mortgage's payment date cannot be changed.",
             ("mortgage", "mortgage payment dates")),
        Rule("not-past-due", "A payment date moves only while the loan has nothing past due.",
             ("past due", "past-due")),
        Rule("once-a-year", "A loan's payment date moves at most once every 12 months.",
             ("12 months", "once a year", "twelve months", "once every")),
        Rule("payment-day-range", "A new payment day is a different day from 1 to 28.",
             ("1 to 28", "between 1 and 28")),
    )
}  # fmt: skip


def check_policy(view: BankView, action: Action) -> list[Rule]:
    """The rules of policy.md that the write `action` breaks, judged on the seed records."""
    try:
        problems = _problems(view, action.name, action.arguments)
    except KeyError:
        return [RULES["known-records"]]
    return [RULES[rule_id] for rule_id in dict.fromkeys(rule_id for rule_id, _ in problems)]


def _problems(view: BankView, name: str, args: dict) -> list[rules.Problem]:
    accounts, cards, loans = view.accounts, view.cards, view.loans
    if name == "internal_transfer":
        source, target = accounts[args["from_account_id"]], accounts[args["to_account_id"]]
        return rules.transfer_problems(source, target, args["amount"])
    if name == "pay_payee":
        source = accounts[args["from_account_id"]]
        customer = view.customers[source["customer_id"]]
        return rules.payee_problems(customer, source, view.payees[args["payee_id"]], args["amount"])
    if name == "freeze_card":
        return rules.freeze_problems(cards[args["card_id"]])
    if name == "unfreeze_card":
        return rules.unfreeze_problems(cards[args["card_id"]])
    if name == "report_card_lost":
        card = cards[args["card_id"]]
        customer = view.customers[card["customer_id"]]
        return rules.replacement_problems(customer, card, accounts[card["account_id"]], args["shipping"])
    if name == "update_card_limit":
        return rules.limit_problems(cards[args["card_id"]], args["daily_limit"])
    if name == "file_dispute":
        return rules.dispute_problems(view.transactions[args["transaction_id"]], args["amount"])
    if name == "make_loan_payment":
        return rules.loan_payment_problems(
            loans[args["loan_id"]], accounts[args["from_account_id"]], args["amount"]
        )
    if name == "change_loan_payment_date":
        return rules.date_change_problems(loans[args["loan_id"]], args["payment_day"])
    raise KeyError(name)
