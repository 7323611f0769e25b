"""The bank's parts for the Tracer (docs/tracer.md): the intents a customer brings, grounded on the
seed view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

import json
import random
from typing import Any

from taue.envs.bank import rules
from taue.envs.bank.policy_check import check_policy
from taue.envs.bank.rules import CARD_LIMIT_CAP, CARD_LIMIT_MIN, DISPUTE_WINDOW_DAYS, EXPRESS_SHIPPING_FEE
from taue.envs.bank.seed_view import (
    PERSONAS,
    BankView,
    Record,
    account_words,
    card_words,
    customers,
    dollars,
    load,
    loan_words,
    purchase_age,
    purchase_words,
)
from taue.envs.runtime.authoring import Customer, Grounded, Intent, TracerSpec, write

# ------------------------------------------------------------------------------------------ transfers


def _nice_amount(rng: random.Random, most: float) -> float | None:
    """A round amount a person would name, at most `most`."""
    steps = [value for value in (25, 40, 50, 60, 75, 100, 120, 150, 200, 250, 300, 400, 500, 750, 1000,
                                 1200, 1500, 2000) if value <= most]  # fmt: skip
    return float(rng.choice(steps)) if steps else None


def _transfer(view: BankView, customer: Customer, rng: random.Random, too_much: bool) -> Grounded | None:
    accounts = view.open_accounts(customer.id)
    pairs = [(a, b) for a in accounts for b in accounts if a is not b]
    for source, target in rng.sample(pairs, len(pairs)):
        if (
            source["kind"] == "savings"
            and source["withdrawals_this_month"] >= rules.SAVINGS_WITHDRAWALS_PER_MONTH
        ):
            continue
        most = min(source["balance"], view.left_today(source))
        amount = _too_much(rng, source, view.left_today(source)) if too_much else _nice_amount(rng, most)
        if amount is None:
            continue
        words, to = account_words(source), account_words(target)
        return Grounded(
            request=f"Please move {dollars(amount)} from my {words} to my {to}.",
            situation=f"You want {dollars(amount)} moved from your {words} to your {to}",
            bindings={"account_id": view.account_lookups(source)},
            write=write(
                "internal_transfer",
                from_account_id=source["account_id"],
                to_account_id=target["account_id"],
                amount=amount,
            ),
            entities=frozenset({source["account_id"], target["account_id"]}),
            known={"transfer": f"{dollars(amount)} from your {words} to your {to}"},
            discoverable={"from_account_id": source["account_id"], "to_account_id": target["account_id"]},
            evidence=(source["account_id"], target["account_id"], json.dumps(amount)),
            reason="Move money between my accounts.",
        )
    return None


def _too_much(rng: random.Random, source: Record, left: float) -> float | None:
    """More than the balance or more than what is left of the daily limit, whichever is smaller."""
    ceiling = min(source["balance"], left)
    if ceiling > 3000:
        return None
    return float(int(ceiling // 100) * 100 + rng.choice((100, 200, 500)))


def move_money(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _transfer(view, customer, rng, too_much=False)


def move_too_much(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _transfer(view, customer, rng, too_much=True)


def _payment(view: BankView, customer: Customer, rng: random.Random, pending: bool) -> Grounded | None:
    status = "pending_verification" if pending else "active"
    payees = [p for p in view.payees_of.get(customer.id, []) if p["status"] == status]
    fee = rules.PAYEE_FEE[view.tier(customer.id)]
    for source in view.open_accounts(customer.id, "checking"):
        amount = _nice_amount(rng, min(source["balance"] - fee, view.left_today(source), 600))
        if not payees or amount is None:
            continue
        payee, words = rng.choice(payees), account_words(source)
        fee_words = f" (the {dollars(fee)} fee is fine)" if fee else ""
        return Grounded(
            request=f"I need to pay {dollars(amount)} to {payee['name']} from my {words}{fee_words}.",
            situation=f"You want to pay {dollars(amount)} to your payee {payee['name']} from your {words}"
            + (f"; you accept the {dollars(fee)} payment fee" if fee else ""),
            bindings={"account_id": view.account_lookups(source)},
            write=write(
                "pay_payee", from_account_id=source["account_id"], payee_id=payee["payee_id"], amount=amount
            ),
            entities=frozenset({source["account_id"], payee["payee_id"]}),
            known={"payment": f"{dollars(amount)} to {payee['name']} from your {words}"},
            discoverable={"payee_id": payee["payee_id"], "from_account_id": source["account_id"]},
            evidence=(payee["payee_id"], json.dumps(amount)),
            reason="Pay a bill to one of my payees.",
        )
    return None


def pay_bill(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _payment(view, customer, rng, pending=False)


def pay_unverified_payee(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _payment(view, customer, rng, pending=True)


# ---------------------------------------------------------------------------------------------- cards


def _card_goal(view: BankView, card: Record, **fields: Any) -> Grounded:
    fields.setdefault("bindings", {})
    account = view.accounts[card["account_id"]]
    fields["bindings"] = {"card_id": view.card_lookups(card), "account_id": view.account_lookups(account),
                          **fields["bindings"]}  # fmt: skip
    fields.setdefault("entities", frozenset({card["card_id"]}))
    fields.setdefault("discoverable", {"card_id": card["card_id"]})
    fields.setdefault("evidence", (card["card_id"],))
    return Grounded(**fields)


def freeze(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    cards = view.distinct_cards(customer.id, "active")
    if not cards:
        return None
    card = rng.choice(cards)
    words = card_words(card)
    return _card_goal(
        view, card,
        request=f"I can't find my {words}. Please freeze it for now; I may still find it at home.",
        situation=f"You cannot find your {words} and want it frozen for now, not cancelled, since it may "
        "still turn up at home",
        write=write("freeze_card", card_id=card["card_id"]),
        known={"card": words},
        reason="Freeze a misplaced card.",
    )  # fmt: skip


def _unfreeze(
    view: BankView, customer: Customer, rng: random.Random, statuses: tuple[str, ...]
) -> Grounded | None:
    cards = view.distinct_cards(customer.id, *statuses)
    if not cards:
        return None
    card = rng.choice(cards)
    words = card_words(card)
    if card["status"] == "lost":
        mine, yours = (
            f"I found my {words} that I reported lost. Please",
            f"You found your {words} that you had reported lost and",
        )
    elif card["status"] == "frozen":
        mine, yours = (
            f"I froze my {words} when I misplaced it, and I have found it again. Please",
            f"You froze your {words} when you misplaced it, have found it again and",
        )
    else:
        mine, yours = f"My {words} stopped working. Please", f"Your {words} stopped working and"
    return _card_goal(
        view, card,
        request=f"{mine} unfreeze it; I want to use it again.",
        situation=f"{yours} want it unfrozen so you can use it again",
        write=write("unfreeze_card", card_id=card["card_id"]),
        known={"card": words},
        reason="Unfreeze a card.",
    )  # fmt: skip


def unfreeze(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _unfreeze(view, customer, rng, ("frozen",))


def unfreeze_blocked(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _unfreeze(view, customer, rng, ("blocked", "lost"))


def lost_card(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    cards = view.distinct_cards(customer.id, "active", "frozen")
    if not cards:
        return None
    card = rng.choice(cards)
    fee = EXPRESS_SHIPPING_FEE[view.tier(customer.id)]
    affordable = view.accounts[card["account_id"]]["balance"] >= fee + 50
    shipping = "express" if affordable and rng.random() < 0.5 else "standard"
    words = card_words(card)
    how = "express" if shipping == "express" else "standard (free)"
    return _card_goal(
        view, card,
        request=f"My {words} was stolen. Please cancel it and send me a new one by {how} shipping.",
        situation=f"Your {words} was stolen from your bag; you want it reported and a replacement sent by "
        f"{how} shipping" + (f", even if it costs {dollars(fee)}" if shipping == "express" and fee else ""),
        write=write("report_card_lost", card_id=card["card_id"], shipping=shipping),
        known={"card": words, "shipping": shipping},
        evidence=(card["card_id"], shipping),
        reason="Report a stolen card.",
    )  # fmt: skip


def _limit(view: BankView, customer: Customer, rng: random.Random, above_cap: bool) -> Grounded | None:
    cards = view.distinct_cards(customer.id, "active", "frozen")
    if not cards:
        return None
    card = rng.choice(cards)
    cap = CARD_LIMIT_CAP[card["tier"]]
    if above_cap:
        limit = cap + rng.choice((1000, 2000, 5000))
    else:
        options = [v for v in range(CARD_LIMIT_MIN * 5, cap + 1, 250) if v != card["daily_limit"]]
        limit = rng.choice(options)
    words = card_words(card)
    why = "for a large purchase this week" if limit > card["daily_limit"] else "to keep my spending in check"
    return _card_goal(
        view, card,
        request=f"Please set the daily purchase limit of my {words} to {limit} dollars {why}.",
        situation=f"You want the daily purchase limit of your {words} set to {limit} dollars "
        + why.replace("my ", "your "),
        write=write("update_card_limit", card_id=card["card_id"], daily_limit=limit),
        known={"card": words, "new_daily_limit": str(limit)},
        evidence=(card["card_id"], str(limit)),
        reason="Change a card's daily limit.",
    )  # fmt: skip


def card_limit(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _limit(view, customer, rng, above_cap=False)


def limit_above_cap(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _limit(view, customer, rng, above_cap=True)


# ------------------------------------------------------------------------------------------- disputes

STORIES = {
    "unauthorized": ("I never made it", "you never made that purchase"),
    "duplicate_charge": ("it was charged twice", "the merchant charged you twice for it"),
    "not_received": ("the order never arrived", "what you ordered never arrived"),
    "cancelled_service": ("I had cancelled that membership", "you had cancelled that service beforehand"),
}


def _dispute(view: BankView, customer: Customer, rng: random.Random, late: bool) -> Grounded | None:
    purchases = [
        p for p in view.purchases(customer.id)
        if (purchase_age(p) > DISPUTE_WINDOW_DAYS) == late and purchase_age(p) <= DISPUTE_WINDOW_DAYS + 50
    ]  # fmt: skip
    if not purchases:
        return None
    purchase = rng.choice(purchases)
    words = purchase_words(purchase)
    if not late and purchase["amount"] >= 40 and rng.random() < 0.35:
        billed = rules.cents(purchase["amount"] - rng.choice((10, 15, 20, 25)))
        amount, reason = rules.cents(purchase["amount"] - billed), "wrong_amount"
        mine = f"the bill was only {dollars(billed)}, so dispute the extra {dollars(amount)}"
        yours = f"the bill was only {dollars(billed)}, so you dispute the extra {dollars(amount)}"
    else:
        amount, reason = purchase["amount"], rng.choice(sorted(STORIES))
        mine, yours = STORIES[reason]
    account = view.accounts[purchase["account_id"]]
    return Grounded(
        request=f"I want to dispute {words}: {mine}.",
        situation=f"You want to dispute {words} on your {account_words(account)} because {yours}",
        bindings={"account_id": view.account_lookups(account), "card_id": purchase["card_id"]},
        write=write("file_dispute", transaction_id=purchase["transaction_id"], amount=amount, reason=reason),
        entities=frozenset({purchase["transaction_id"]}),
        known={"charge": words, "dispute_reason": reason, "disputed_amount": dollars(amount)},
        discoverable={"transaction_id": purchase["transaction_id"]},
        evidence=(purchase["transaction_id"],),
        reason="Dispute a card charge.",
    )


def dispute_charge(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _dispute(view, customer, rng, late=False)


def dispute_too_late(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _dispute(view, customer, rng, late=True)


# ---------------------------------------------------------------------------------------------- loans


def _loan_goal(view: BankView, loan: Record, **fields: Any) -> Grounded:
    fields["bindings"] = {"loan_id": view.loan_lookups(loan), **fields.get("bindings", {})}
    fields.setdefault("entities", frozenset({loan["loan_id"]}))
    fields.setdefault("discoverable", {"loan_id": loan["loan_id"]})
    fields.setdefault("evidence", (loan["loan_id"],))
    return Grounded(**fields)


def _loan_payment(view: BankView, customer: Customer, rng: random.Random, payoff: bool) -> Grounded | None:
    for loan in rng.sample(view.single_kind_loans(customer.id), len(view.single_kind_loans(customer.id))):
        amount = rules.payoff_amount(loan) if payoff else loan["monthly_payment"]
        if amount > rules.payoff_amount(loan):
            continue
        sources = [a for a in view.open_accounts(customer.id) if a["balance"] >= amount]
        if not sources:
            continue
        source = rng.choice(sources)
        what = "pay off my" if payoff else "make this month's installment on my"
        words, pay = loan_words(loan), account_words(source)
        return _loan_goal(
            view, loan,
            request=f"I'd like to {what} {words} from my {pay}.",
            situation=f"You want to {what.replace('my', 'your')} {words} from your {pay}"
            + (" in full today" if payoff else ", for the regular monthly amount"),
            bindings={"account_id": source["account_id"]},
            write=write("make_loan_payment", loan_id=loan["loan_id"], from_account_id=source["account_id"],
                        amount=amount),
            entities=frozenset({loan["loan_id"], source["account_id"]}),
            known={"loan": words, "pay_from": pay},
            discoverable={"loan_id": loan["loan_id"], "amount": dollars(amount)},
            evidence=(loan["loan_id"], source["account_id"]),
            reason="Pay off a loan." if payoff else "Make a loan payment.",
        )  # fmt: skip
    return None


def loan_payment(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _loan_payment(view, customer, rng, payoff=False)


def loan_payoff(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _loan_payment(view, customer, rng, payoff=True)


def _date_movable(loan: Record) -> bool:
    """Whether the loan's due day may move at all (any other day of 1 to 28)."""
    return not rules.date_change_problems(loan, loan["payment_day"] % rules.LATEST_PAYMENT_DAY + 1)


def _due_day(view: BankView, customer: Customer, rng: random.Random, allowed: bool) -> Grounded | None:
    loans = [loan for loan in view.single_kind_loans(customer.id) if _date_movable(loan) == allowed]
    if not loans:
        return None
    loan = rng.choice(loans)
    day = rng.choice([d for d in (1, 5, 10, 15, 20, 25, 28) if d != loan["payment_day"]])
    words = loan_words(loan)
    return _loan_goal(
        view, loan,
        request=f"My pay date changed. Please move the due date of my {words} to day {day} of each month.",
        situation=f"Your pay date changed, so you want the monthly due date of your {words} moved to day "
        f"{day} of the month",
        write=write("change_loan_payment_date", loan_id=loan["loan_id"], payment_day=day),
        known={"loan": words, "new_payment_day": str(day)},
        evidence=(loan["loan_id"], str(day)),
        reason="Move a loan's due date.",
    )  # fmt: skip


def move_due_date(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _due_day(view, customer, rng, allowed=True)


def move_due_date_refused(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _due_day(view, customer, rng, allowed=False)


def payoff_quote(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    loans = view.single_kind_loans(customer.id)
    if not loans:
        return None
    loan = rng.choice(loans)
    words = loan_words(loan)
    return _loan_goal(
        view, loan,
        kind="information",
        request=f"How much would it take to pay off my {words} today?",
        situation=f"You are thinking about paying off your {words} and want to know today's payoff amount; "
        "you do not want to pay anything yet",
        known={"loan": words},
        evidence=(dollars(rules.payoff_amount(loan)),),
        reason="Ask for a loan payoff amount.",
    )  # fmt: skip


def next_due(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    loans = view.single_kind_loans(customer.id)
    if not loans:
        return None
    loan = rng.choice(loans)
    words = loan_words(loan)
    return _loan_goal(
        view, loan,
        kind="information",
        request=f"When is the next payment on my {words} due, and how much is it?",
        situation=f"You want to know when the next payment of your {words} is due and how much it is",
        known={"loan": words},
        evidence=(loan["next_due_date"], dollars(loan["monthly_payment"])),
        reason="Check a loan's next payment.",
    )  # fmt: skip


# -------------------------------------------------------------------------------------------- intents

ACCOUNT = ("get_account_details",)
HISTORY = ("list_account_transactions",)
CARD = ("get_card_details",)
LOAN = ("get_loan_details",)
QUOTE = ("get_loan_payoff_quote",)


def intent(ground: Any, terminal: str, topic: str, reads=(), required=(), challenge=False) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, tuple(reads), tuple(required), challenge)


INTENTS = (
    intent(move_money, "internal_transfer", "moving money between accounts", ACCOUNT + HISTORY,
           ACCOUNT),
    intent(pay_bill, "pay_payee", "paying a bill", ("list_payees", *ACCOUNT), ("list_payees",)),
    intent(freeze, "freeze_card", "a missing card", CARD + HISTORY, CARD),
    intent(unfreeze, "unfreeze_card", "unfreezing a card", CARD + ACCOUNT, CARD),
    intent(lost_card, "report_card_lost", "a stolen card", CARD + ACCOUNT, CARD),
    intent(card_limit, "update_card_limit", "a card limit", CARD + ACCOUNT, CARD),
    intent(dispute_charge, "file_dispute", "disputing a charge", HISTORY + ACCOUNT + CARD, HISTORY),
    intent(loan_payment, "make_loan_payment", "a loan payment", LOAN + ACCOUNT + QUOTE, LOAN),
    intent(loan_payoff, "make_loan_payment", "paying off a loan", LOAN + ACCOUNT + QUOTE, QUOTE),
    intent(move_due_date, "change_loan_payment_date", "a loan due date", LOAN + QUOTE, LOAN),
    intent(payoff_quote, "get_loan_payoff_quote", "a loan payoff amount", LOAN),
    intent(next_due, "get_loan_details", "a loan's next payment", LOAN + QUOTE),
    intent(move_too_much, "internal_transfer", "moving money between accounts", ACCOUNT + HISTORY,
           ACCOUNT, True),
    intent(pay_unverified_payee, "pay_payee", "paying a bill", ("list_payees", *ACCOUNT), ("list_payees",),
           True),
    intent(unfreeze_blocked, "unfreeze_card", "unfreezing a card", CARD + ACCOUNT, CARD, True),
    intent(limit_above_cap, "update_card_limit", "a card limit", CARD + ACCOUNT, CARD, True),
    intent(dispute_too_late, "file_dispute", "disputing a charge", HISTORY + ACCOUNT, HISTORY, True),
    intent(move_due_date_refused, "change_loan_payment_date", "a loan due date", LOAN + QUOTE, LOAN, True),
)  # fmt: skip


TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={2: 0.15, 3: 0.45, 4: 0.4},
    intent_counts={1: 0.05, 2: 0.4, 3: 0.55},
)
