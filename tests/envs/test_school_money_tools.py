"""School tools for money and documents: payments (and the financial hold they lift), credit
refunds, transcript orders, the transfer and the shared utilities; each error path changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from taue.envs.school import DOMAIN
from taue.envs.school.seed_view import View, load
from tests.envs.tool_harness import ToolHarness

TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails
db = TOOLS.database_fixture()


@pytest.fixture(scope="module")
def view() -> View:
    return load(DOMAIN.seed)


def first(items):
    for item in items:
        return item
    raise LookupError("no fitting record")


def invoice_where(view: View, fits) -> dict[str, Any]:
    return first(i for _, i in sorted(view.invoices.items()) if fits(i))


def any_method(view: View, student_id: str, kind: str | None = None) -> str:
    methods = view.students[student_id]["payment_methods"]
    return first(k for k in sorted(methods) if kind is None or methods[k]["type"] == kind)


# -------------------------------------------------------------------------------------------- payments


async def test_partial_payment_lowers_the_balance(db, view):
    invoice = invoice_where(view, lambda i: i["status"] == "open" and i["balance"] > 300)
    student_id = invoice["student_id"]
    method = any_method(view, student_id)
    result = json.loads(
        await ok(
            db,
            "make_payment",
            student_id=student_id,
            invoice_id=invoice["invoice_id"],
            method_id=method,
            amount=100.0,
        )
    )
    assert result["invoice"]["balance"] == round(invoice["balance"] - 100, 2)
    assert result["payment"]["amount"] == 100.0 and result["payment"]["kind"] == "payment"
    assert result["invoice"]["status"] == "open"


async def test_paying_the_overdue_balance_lifts_the_financial_hold(db, view):
    student_id = first(
        s
        for s in sorted(view.students)
        if [i["status"] for i in view.invoices_of(s)].count("overdue") == 1
        and any(h["type"] == "financial" for h in view.students[s]["holds"])
    )
    invoice = first(i for i in view.invoices_of(student_id) if i["status"] == "overdue")
    result = json.loads(
        await ok(
            db,
            "make_payment",
            student_id=student_id,
            invoice_id=invoice["invoice_id"],
            method_id=any_method(view, student_id),
            amount=invoice["balance"],
        )
    )
    assert result["invoice"]["status"] == "paid" and result["invoice"]["balance"] == 0
    assert all(h["type"] != "financial" for h in result["holds"])
    details = json.loads(await ok(db, "get_student_details", student_id=student_id))
    assert all(h["type"] != "financial" for h in details["holds"])


async def test_payment_refusals(db, view):
    invoice = invoice_where(view, lambda i: i["status"] == "open")
    student_id, invoice_id = invoice["student_id"], invoice["invoice_id"]
    method = any_method(view, student_id)
    over = round(invoice["balance"] + 500, 2)
    await fails(
        db,
        "make_payment",
        f"the amount {over:.2f} exceeds the balance due of {invoice['balance']:.2f}",
        student_id=student_id,
        invoice_id=invoice_id,
        method_id=method,
        amount=over,
    )
    await fails(
        db,
        "make_payment",
        "the amount must be positive",
        student_id=student_id,
        invoice_id=invoice_id,
        method_id=method,
        amount=0.0,
    )
    await fails(
        db,
        "make_payment",
        f"payment method card_0000x is not on file for student {student_id}",
        student_id=student_id,
        invoice_id=invoice_id,
        method_id="card_0000x",
        amount=10.0,
    )
    paid = invoice_where(view, lambda i: i["status"] == "paid")
    await fails(
        db,
        "make_payment",
        f"invoice {paid['invoice_id']} has no balance due",
        student_id=paid["student_id"],
        invoice_id=paid["invoice_id"],
        method_id=any_method(view, paid["student_id"]),
        amount=10.0,
    )
    other = invoice_where(view, lambda i: i["student_id"] != student_id)
    await fails(
        db,
        "make_payment",
        f"invoice {other['invoice_id']} does not belong to student {student_id}",
        student_id=student_id,
        invoice_id=other["invoice_id"],
        method_id=method,
        amount=10.0,
    )
    await fails(
        db,
        "make_payment",
        "invoice INV-0 not found",
        student_id=student_id,
        invoice_id="INV-0",
        method_id=method,
        amount=10.0,
    )


# ------------------------------------------------------------------------------------------- refunds


def credit_with_bank(view: View) -> dict[str, Any]:
    return invoice_where(
        view,
        lambda i: (
            i["balance"] < 0
            and view.methods(i["student_id"], "bank_account")
            and view.methods(i["student_id"], "card")
        ),
    )


async def test_refund_pays_out_the_whole_credit(db, view):
    invoice = credit_with_bank(view)
    student_id = invoice["student_id"]
    bank = any_method(view, student_id, "bank_account")
    result = json.loads(
        await ok(
            db,
            "refund_credit_balance",
            student_id=student_id,
            invoice_id=invoice["invoice_id"],
            method_id=bank,
        )
    )
    assert result["refund"]["amount"] == invoice["balance"] and result["refund"]["kind"] == "refund"
    assert result["invoice"]["balance"] == 0 and result["invoice"]["status"] == "paid"


async def test_refund_refusals(db, view):
    invoice = credit_with_bank(view)
    student_id, invoice_id = invoice["student_id"], invoice["invoice_id"]
    await fails(
        db,
        "refund_credit_balance",
        "credit balances are refunded only to a bank account on file, not to a card",
        student_id=student_id,
        invoice_id=invoice_id,
        method_id=any_method(view, student_id, "card"),
    )
    await fails(
        db,
        "refund_credit_balance",
        f"payment method bank_x is not on file for student {student_id}",
        student_id=student_id,
        invoice_id=invoice_id,
        method_id="bank_x",
    )
    paid = invoice_where(view, lambda i: i["balance"] >= 0 and view.methods(i["student_id"], "bank_account"))
    await fails(
        db,
        "refund_credit_balance",
        f"invoice {paid['invoice_id']} has no credit balance to refund",
        student_id=paid["student_id"],
        invoice_id=paid["invoice_id"],
        method_id=any_method(view, paid["student_id"], "bank_account"),
    )
    await fails(
        db,
        "refund_credit_balance",
        f"invoice {paid['invoice_id']} does not belong to student {student_id}",
        student_id=student_id,
        invoice_id=paid["invoice_id"],
        method_id="bank_x",
    )


# --------------------------------------------------------------------------------------- transcripts


def transcript_student(view: View, held: bool) -> str:
    return first(
        s
        for s in sorted(view.students)
        if view.completed(s)
        and view.methods(s, "card")
        and view.methods(s, "bank_account")
        and any(h["type"] == "financial" for h in view.students[s]["holds"]) == held
    )


@pytest.mark.parametrize(
    ("delivery", "recipient", "fee"),
    [
        ("electronic", "records@law.ashcombe.example", 16.0),
        ("mail", "Registrar, 1 Elm St, Troy, NY 12180", 24.0),
    ],
)
async def test_transcript_fee_per_copy(db, view, delivery, recipient, fee):
    student_id = transcript_student(view, held=False)
    result = json.loads(
        await ok(
            db,
            "request_transcript",
            student_id=student_id,
            copies=2,
            delivery=delivery,
            recipient=recipient,
            method_id=any_method(view, student_id, "card"),
        )
    )
    assert result["fee"] == fee and result["status"] == "processing"
    stored = json.loads(db.canonical_state())["transcript_requests"]
    assert [r for r in stored if r["request_id"] == result["request_id"]] == [result]


async def test_transcript_refusals(db, view):
    student_id = transcript_student(view, held=False)
    card, bank = any_method(view, student_id, "card"), any_method(view, student_id, "bank_account")
    email = "hr@brightwell-labs.example"
    args = {"student_id": student_id, "delivery": "electronic", "recipient": email}
    await fails(db, "request_transcript", "a request is for 1 to 5 copies", copies=6, method_id=card, **args)
    await fails(db, "request_transcript", "a request is for 1 to 5 copies", copies=0, method_id=card, **args)
    await fails(
        db, "request_transcript", "transcript fees are paid by card only", copies=1, method_id=bank, **args
    )
    await fails(
        db,
        "request_transcript",
        f"payment method card_x is not on file for student {student_id}",
        copies=1,
        method_id="card_x",
        **args,
    )
    await fails(
        db,
        "request_transcript",
        "electronic delivery needs an email address, mail delivery a postal address",
        student_id=student_id,
        copies=1,
        delivery="mail",
        recipient=email,
        method_id=card,
    )
    held = transcript_student(view, held=True)
    hold = first(h for h in view.students[held]["holds"] if h["type"] == "financial")
    await fails(
        db,
        "request_transcript",
        f"transcripts are blocked by a financial hold: {hold['reason']}",
        student_id=held,
        copies=1,
        delivery="electronic",
        recipient=email,
        method_id=any_method(view, held, "card"),
    )
    newcomer = first(
        s
        for s in sorted(view.students)
        if not view.completed(s) and view.methods(s, "card") and not view.students[s]["holds"]
    )
    await fails(
        db,
        "request_transcript",
        f"student {newcomer} has no completed coursework to put on a transcript",
        student_id=newcomer,
        copies=1,
        delivery="electronic",
        recipient=email,
        method_id=any_method(view, newcomer, "card"),
    )


# ---------------------------------------------------------------------------------- the other tools


async def test_transfer_ends_the_conversation_and_utilities_work(db):
    assert await ok(db, "transfer_to_human_agents", summary="grade appeal") == "Transfer successful"
    assert "transfer_to_human_agents" in DOMAIN.terminal_tools
    assert DOMAIN.write_tools == {
        "register_for_section",
        "drop_section",
        "swap_section",
        "make_payment",
        "refund_credit_balance",
        "request_transcript",
    }


async def test_calculate_and_think(db):
    assert await ok(db, "calculate", expression="3 * 420 + 85") == "1345.0"
    assert await ok(db, "think", thought="check the deadline") == ""
    await fails(db, "calculate", "invalid characters in expression", expression="import os")
