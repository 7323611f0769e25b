"""The bank's parts for the Tracer (docs/tracer.md): the intents a customer brings, grounded on the
seed view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

import json
import random
from typing import Any

from taue.envs.bank import rules
from taue.envs.bank.phrases import BANKS
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
from taue.envs.runtime.authoring import Alternative, Customer, Grounded, Intent, TracerSpec, write

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
        key = "to_savings" if target["kind"] == "savings" else "to_checking"
        slots = {"amount": f"${dollars(amount)}", "source": words, "target": to}
        bank = BANKS["move_too_much" if too_much else "move_money"]
        return Grounded(
            **bank.word(rng, slots, reason=key).fields(),
            bindings={"account_id": view.account_lookups(source)},
            write=write(
                "internal_transfer",
                from_account_id=source["account_id"],
                to_account_id=target["account_id"],
                amount=amount,
            ),
            entities=frozenset({source["account_id"], target["account_id"]}),
            known={"transfer": f"${dollars(amount)} from your {words} to your {to}"},
            discoverable={"from_account_id": source["account_id"], "to_account_id": target["account_id"]},
            evidence=(source["account_id"], target["account_id"], json.dumps(amount)),
        )
    return None


def _too_much(rng: random.Random, source: Record, left: float) -> float | None:
    """More than the balance or more than what is left of the daily limit, whichever is smaller."""
    ceiling = min(source["balance"], left)
    if ceiling > 3000:
        return None
    return float(int(ceiling // 100) * 100 + rng.choice((100, 200, 500)))


def move_what_is_left(
    view: BankView, customer: Customer, refused: Grounded, rng: random.Random
) -> Grounded | None:
    """The policy's alternative to a transfer above the balance or what is left of the daily limit:
    a round amount within both, between the same accounts, which the customer takes."""
    assert refused.write is not None
    arguments = refused.write.arguments
    source, target = view.accounts[arguments["from_account_id"]], view.accounts[arguments["to_account_id"]]
    most = min(source["balance"], view.left_today(source))
    amounts = [a for a in (_nice_amount(rng, most) for _ in range(3)) if a is not None]
    if not amounts:
        return None
    amount = max(amounts)  # near what is still available, as the policy offers
    words, to = account_words(source), account_words(target)
    slots = {"amount": f"${dollars(amount)}", "source": words, "target": to}
    return Grounded(
        **BANKS["move_what_is_left"].word(rng, slots).fields(),
        bindings={"account_id": view.account_lookups(source)},
        write=write("internal_transfer", from_account_id=source["account_id"],
                    to_account_id=target["account_id"], amount=amount),
        entities=frozenset({source["account_id"], target["account_id"]}),
        known={"smaller_transfer": f"${dollars(amount)}"},
        evidence=(source["account_id"], target["account_id"], json.dumps(amount)),
    )  # fmt: skip


def move_money(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _transfer(view, customer, rng, too_much=False)


def move_too_much(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _transfer(view, customer, rng, too_much=True)


def _payment(view: BankView, customer: Customer, rng: random.Random, pending: bool) -> Grounded | None:
    """A payment to a saved payee; the payee fee (standard customers) is the agent's to disclose."""
    status = "pending_verification" if pending else "active"
    payees = [p for p in view.payees_of.get(customer.id, []) if p["status"] == status]
    fee = rules.PAYEE_FEE[view.tier(customer.id)]
    for source in view.open_accounts(customer.id, "checking"):
        amount = _nice_amount(rng, min(source["balance"] - fee, view.left_today(source), 600))
        if not payees or amount is None:
            continue
        payee, words = rng.choice(payees), account_words(source)
        slots = {"amount": f"${dollars(amount)}", "payee": payee["name"], "source": words}
        bank = BANKS["pay_unverified_payee" if pending else "pay_bill"]
        return Grounded(
            **bank.word(rng, slots, reason=payee["category"]).fields(),
            bindings={"account_id": view.account_lookups(source)},
            write=write(
                "pay_payee", from_account_id=source["account_id"], payee_id=payee["payee_id"], amount=amount
            ),
            entities=frozenset({source["account_id"], payee["payee_id"]}),
            known={"payment": f"${dollars(amount)} to {payee['name']} from your {words}"},
            discoverable={"payee_id": payee["payee_id"], "from_account_id": source["account_id"]},
            evidence=(payee["payee_id"], json.dumps(amount)),
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
        **BANKS["freeze"].word(rng, {"card": words}).fields(),
        write=write("freeze_card", card_id=card["card_id"]),
        known={"card": words},
    )  # fmt: skip


def _unfreeze(
    view: BankView, customer: Customer, rng: random.Random, statuses: tuple[str, ...]
) -> Grounded | None:
    """The card's status decides the story: a frozen card was misplaced and found, a lost one was
    found after the report, a blocked one just stopped working (the customer knows no block)."""
    cards = view.distinct_cards(customer.id, *statuses)
    if not cards:
        return None
    card = rng.choice(cards)
    words = card_words(card)
    bank = BANKS["unfreeze" if "frozen" in statuses else "unfreeze_blocked"]
    return _card_goal(
        view, card,
        **bank.word(rng, {"card": words}, reason=card["status"]).fields(),
        write=write("unfreeze_card", card_id=card["card_id"]),
        known={"card": words},
    )  # fmt: skip


def unfreeze(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _unfreeze(view, customer, rng, ("frozen",))


def unfreeze_blocked(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _unfreeze(view, customer, rng, ("blocked", "lost"))


GONE = {"stolen": "was stolen", "lost": "is lost", "frozen": "is lost for good"}


def lost_card(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    """A card reported lost or stolen (a frozen one: misplaced, frozen, never found). The customer
    names the shipping; the express fee (standard customers) is the agent's to disclose."""
    cards = view.distinct_cards(customer.id, "active", "frozen")
    if not cards:
        return None
    card = rng.choice(cards)
    fee = EXPRESS_SHIPPING_FEE[view.tier(customer.id)]
    affordable = view.accounts[card["account_id"]]["balance"] >= fee + 50
    shipping = "express" if affordable and rng.random() < 0.5 else "standard"
    story = "frozen" if card["status"] == "frozen" else rng.choice(("stolen", "lost"))
    words = card_words(card)
    slots = {"card": words, "gone": GONE[story], "shipping": shipping}
    return _card_goal(
        view, card,
        **BANKS["lost_card"].word(rng, slots, reason=story).fields(),
        write=write("report_card_lost", card_id=card["card_id"], shipping=shipping),
        known={"card": words, "shipping": shipping},
        evidence=(card["card_id"], shipping),
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
    key = "raise" if limit > card["daily_limit"] else "lower"
    bank = BANKS["limit_above_cap" if above_cap else "card_limit"]
    return _card_goal(
        view, card,
        **bank.word(rng, {"card": words, "limit": f"${limit}"}, reason=key).fields(),
        write=write("update_card_limit", card_id=card["card_id"], daily_limit=limit),
        known={"card": words, "new_daily_limit": str(limit)},
        evidence=(card["card_id"], str(limit)),
    )  # fmt: skip


def card_limit(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _limit(view, customer, rng, above_cap=False)


def limit_above_cap(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _limit(view, customer, rng, above_cap=True)


# ------------------------------------------------------------------------------------------- disputes

STORIES = ("unauthorized", "duplicate_charge")
SHIPPED = ("Brightline Electronics", "Summit Outdoor Supply", "Lumen Home Goods", "Quickcart Online")
BOOKED = ("Northwind Airlines", "Harbor Hotel & Suites", "StreamBox Subscription", "Atlas Fitness Club")


def _stories(purchase: Record) -> tuple[str, ...]:
    """The dispute reasons the merchant makes plausible: an order that never came needs a merchant
    that ships, a cancelled service one that sells a booking or a membership."""
    merchant = purchase["description"]
    return (
        STORIES
        + (("not_received",) if merchant in SHIPPED else ())
        + (("cancelled_service",) if merchant in BOOKED else ())
    )


def _dispute(view: BankView, customer: Customer, rng: random.Random, late: bool) -> Grounded | None:
    purchases = [
        p for p in view.purchases(customer.id)
        if (purchase_age(p) > DISPUTE_WINDOW_DAYS) == late and purchase_age(p) <= DISPUTE_WINDOW_DAYS + 50
    ]  # fmt: skip
    if not purchases:
        return None
    purchase = rng.choice(purchases)
    words = purchase_words(purchase)
    billed = extra = ""
    if not late and purchase["amount"] >= 40 and rng.random() < 0.35:
        paid = rules.cents(purchase["amount"] - rng.choice((10, 15, 20, 25)))
        amount, reason = rules.cents(purchase["amount"] - paid), "wrong_amount"
        billed, extra = f"${dollars(paid)}", f"${dollars(amount)}"
    else:
        amount, reason = purchase["amount"], rng.choice(_stories(purchase))
    account = view.accounts[purchase["account_id"]]
    slots = {"charge": words, "account": account_words(account), "billed": billed, "extra": extra}
    bank = BANKS["dispute_too_late" if late else "dispute_charge"]
    return Grounded(
        **bank.word(rng, slots, reason=reason).fields(),
        bindings={"account_id": view.account_lookups(account), "card_id": purchase["card_id"]},
        write=write("file_dispute", transaction_id=purchase["transaction_id"], amount=amount, reason=reason),
        entities=frozenset({purchase["transaction_id"]}),
        known={"charge": words, "dispute_reason": reason, "disputed_amount": dollars(amount)},
        discoverable={"transaction_id": purchase["transaction_id"]},
        evidence=(purchase["transaction_id"],),
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
    """This month's installment, or the payoff (quoted by the agent: no figure in the customer's words)."""
    for loan in rng.sample(view.single_kind_loans(customer.id), len(view.single_kind_loans(customer.id))):
        amount = rules.payoff_amount(loan) if payoff else loan["monthly_payment"]
        if amount > rules.payoff_amount(loan):
            continue
        sources = [a for a in view.open_accounts(customer.id) if a["balance"] >= amount]
        if not sources:
            continue
        source = rng.choice(sources)
        words, pay = loan_words(loan), account_words(source)
        bank = BANKS["loan_payoff" if payoff else "loan_payment"]
        return _loan_goal(
            view, loan,
            **bank.word(rng, {"loan": words, "source": pay}).fields(),
            bindings={"account_id": source["account_id"]},
            write=write("make_loan_payment", loan_id=loan["loan_id"], from_account_id=source["account_id"],
                        amount=amount),
            entities=frozenset({loan["loan_id"], source["account_id"]}),
            known={"loan": words, "pay_from": pay},
            discoverable={"loan_id": loan["loan_id"], "amount": dollars(amount)},
            evidence=(loan["loan_id"], source["account_id"]),
        )  # fmt: skip
    return None


def loan_payment(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _loan_payment(view, customer, rng, payoff=False)


def loan_payoff(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    return _loan_payment(view, customer, rng, payoff=True)


def _date_movable(loan: Record) -> bool:
    """Whether the loan's due day may move at all (any other day of 1 to 28)."""
    return not rules.date_change_problems(loan, loan["payment_day"] % rules.LATEST_PAYMENT_DAY + 1)


def _ordinal(day: int) -> str:
    return f"{day}{'st' if day in (1, 21) else 'nd' if day in (2, 22) else 'rd' if day in (3, 23) else 'th'}"


def _due_day(view: BankView, customer: Customer, rng: random.Random, allowed: bool) -> Grounded | None:
    loans = [loan for loan in view.single_kind_loans(customer.id) if _date_movable(loan) == allowed]
    if not loans:
        return None
    loan = rng.choice(loans)
    day = rng.choice([d for d in (1, 5, 10, 15, 20, 25, 28) if d != loan["payment_day"]])
    words = loan_words(loan)
    # only a change on record within the last 12 months lets the customer speak of an earlier move
    changed = loan["last_date_change"]
    recent = changed is not None and rules.days_between(changed, rules.TODAY) < rules.DATE_CHANGE_EVERY_DAYS
    key = "recent" if recent else ""
    bank = BANKS["move_due_date" if allowed else "move_due_date_refused"]
    return _loan_goal(
        view, loan,
        **bank.word(rng, {"loan": words, "day": _ordinal(day)}, reason=key).fields(),
        write=write("change_loan_payment_date", loan_id=loan["loan_id"], payment_day=day),
        known={"loan": words, "new_payment_day": str(day)},
        evidence=(loan["loan_id"], str(day)),
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
        **BANKS["payoff_quote"].word(rng, {"loan": words}).fields(),
        kind="information",
        known={"loan": words},
        evidence=(dollars(rules.payoff_amount(loan)),),
    )  # fmt: skip


def next_due(view: BankView, customer: Customer, rng: random.Random) -> Grounded | None:
    loans = view.single_kind_loans(customer.id)
    if not loans:
        return None
    loan = rng.choice(loans)
    words = loan_words(loan)
    return _loan_goal(
        view, loan,
        **BANKS["next_due"].word(rng, {"loan": words}).fields(),
        kind="information",
        known={"loan": words},
        evidence=(loan["next_due_date"], dollars(loan["monthly_payment"])),
    )  # fmt: skip


# -------------------------------------------------------------------------------------------- intents

ACCOUNT = ("get_account_details",)
HISTORY = ("list_account_transactions",)
CARD = ("get_card_details",)
LOAN = ("get_loan_details",)
QUOTE = ("get_loan_payoff_quote",)


def intent(
    ground: Any, terminal: str, topic: str, reads=(), required=(), challenge=False, weight=1.0
) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, tuple(reads), tuple(required), challenge, weight)


INTENTS = (
    intent(move_money, "internal_transfer", "moving money between accounts", ACCOUNT + HISTORY,
           ACCOUNT),
    intent(pay_bill, "pay_payee", "paying a bill", ("list_payees", *ACCOUNT), ("list_payees",)),
    intent(freeze, "freeze_card", "a missing card", CARD + HISTORY, CARD),
    intent(unfreeze, "unfreeze_card", "unfreezing a card", CARD + ACCOUNT, CARD, weight=1.5),
    intent(lost_card, "report_card_lost", "a lost or stolen card", CARD + ACCOUNT, CARD),
    intent(card_limit, "update_card_limit", "a card limit", CARD + ACCOUNT, CARD),
    intent(dispute_charge, "file_dispute", "disputing a charge", HISTORY + ACCOUNT + CARD, HISTORY),
    intent(loan_payment, "make_loan_payment", "a loan payment", LOAN + ACCOUNT + QUOTE, LOAN),
    intent(loan_payoff, "make_loan_payment", "paying off a loan", LOAN + ACCOUNT + QUOTE, QUOTE),
    intent(move_due_date, "change_loan_payment_date", "a loan due date", LOAN + QUOTE, LOAN),
    intent(payoff_quote, "get_loan_payoff_quote", "a loan payoff amount", LOAN, weight=0.25),
    intent(next_due, "get_loan_details", "a loan's next payment", LOAN + QUOTE, weight=0.25),
    Intent("move_too_much", "internal_transfer", move_too_much, "moving money between accounts",
           ACCOUNT + HISTORY, ACCOUNT, challenge=True,
           alternative=Alternative("move_what_is_left", "internal_transfer", move_what_is_left)),
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
    walk_lengths={2: 0.5, 3: 0.42, 4: 0.08},
    intent_counts={2: 0.15, 3: 0.45, 4: 0.4},
)
