"""School's policy as code: the hard rules of policy.md that the Tracer checks writes against
(docs/tracer.md). A gold write must break none; a policy challenge's asked-for write must break at
least one, and the broken rules' `reasons` are the phrases a refusal is accepted with. The write
tools (tools.py) enforce the same rules with the same numbers (rules.py)."""

from __future__ import annotations

from taue.contracts.tasks import Action
from taue.envs.runtime.authoring import Rule
from taue.envs.school.rules import (
    MAX_TRANSCRIPT_COPIES,
    REGISTRATION_BLOCKING_HOLDS,
    TRANSCRIPT_BLOCKING_HOLDS,
    blocking,
    drop_terms,
)
from taue.envs.school.seed_view import Record, View

# --------------------------------------------------------------------------------------- policy rules


def rule(rule_id: str, text: str, reasons: str) -> Rule:
    """A rule whose refusal phrases are given as one '|'-separated string."""
    return Rule(rule_id, text, tuple(r for r in reasons.split("|") if r))


ACTIVE = rule("active-status", "Only active students register.", "on leave|not active")
HOLDS = rule("registration-holds", "A financial or advising hold blocks registration.", "hold|blocked")
ADD_DEADLINE = rule(
    "add-deadline",
    "Sections are added on or before their add deadline.",
    "add deadline|deadline to add|deadline has passed|too late to add",
)
SEATS = rule(
    "seat-capacity",
    "Only a section with a free seat can be added.",
    "full|no seats|no free seat|no open seat|capacity",
)
PREREQUISITES = rule(
    "prerequisites", "Every prerequisite passed with C- or better.", "prerequisite|pre-requisite"
)
SAME_COURSE = rule(
    "one-section-per-course", "One section of a course per term.", "already enrolled|already registered"
)
CREDIT_LIMIT = rule(
    "credit-limit",
    "The term's credits stay within the credit limit.",
    "credit limit|too many credits|maximum",
)
ENROLLED = rule(
    "enrolled-only",
    "Only a section the student is enrolled in can be dropped or changed.",
    "not enrolled|not registered",
)
WITHDRAW_DEADLINE = rule(
    "withdrawal-deadline",
    "Nothing is dropped after the withdrawal deadline.",
    "withdrawal deadline|withdraw deadline|can no longer be dropped|deadline has passed",
)
SWAP_SAME_COURSE = rule(
    "swap-same-course", "A section change stays within the same course.", "same course|different course"
)
OWN_INVOICE = rule("own-invoice", "Only the student's own invoices.", "not your invoice|another student")
METHOD_ON_FILE = rule("method-on-file", "Only payment methods on file.", "not on file")
PAYMENT_AMOUNT = rule(
    "payment-within-balance",
    "A payment is positive and at most the balance due.",
    "exceeds the balance|more than the balance|overpay|prepay|balance due|no balance",
)
CREDIT_ONLY = rule(
    "refund-credit-only",
    "Only a credit (negative) balance is refunded.",
    "no credit|nothing to refund|not a credit|no refund",
)
BANK_ONLY = rule(
    "refund-to-bank",
    "Credit refunds go only to a bank account on file.",
    "bank account|direct deposit|not to a card",
)
COPIES = rule("transcript-copies", "One to five transcript copies per request.", "five copies|5 copies")
TRANSCRIPT_HOLD = rule("transcript-hold", "A financial hold blocks transcripts.", "financial hold|hold")
COMPLETED_WORK = rule(
    "transcript-coursework", "A transcript needs completed coursework.", "no completed|completed coursework"
)
CARD_FEE = rule("transcript-card", "Transcript fees are paid by a card on file.", "card")
RECIPIENT = rule(
    "transcript-recipient",
    "Electronic copies go to an email, mailed ones to an address.",
    "email address|postal address",
)


# ----------------------------------------------------------------------------------------- the check


def check_policy(view: View, action: Action) -> list[Rule]:
    """The rules of policy.md that the write `action` breaks, judged on the seed records."""
    args, name = action.arguments, action.name
    student = view.students[args["student_id"]]
    if name == "register_for_section":
        return _registration_rules(view, student, view.sections[args["section_id"]])
    if name == "drop_section":
        enrolled = _enrolled(view, student, args["section_id"])
        if enrolled is None:
            return [ENROLLED]
        return [WITHDRAW_DEADLINE] if drop_terms(view.sections[args["section_id"]]) is None else []
    if name == "swap_section":
        return _swap_rules(view, student, args["section_id"], args["new_section_id"])
    if name in ("make_payment", "refund_credit_balance"):
        return _money_rules(view, student, name, args)
    if name == "request_transcript":
        return _transcript_rules(view, student, args)
    return []


def _enrolled(view: View, student: Record, section_id: str) -> Record | None:
    return next((e for e in view.current(student["student_id"]) if e["section_id"] == section_id), None)


def _registration_rules(view: View, student: Record, section: Record) -> list[Rule]:
    sid, code = student["student_id"], section["course_code"]
    course = view.courses[code]
    broken = [] if student["status"] == "active" else [ACTIVE]
    broken += [HOLDS] if blocking(student["holds"], REGISTRATION_BLOCKING_HOLDS) else []
    broken += [] if view.open_to_adds(section) else [ADD_DEADLINE]
    broken += [] if view.seats_left(section) > 0 else [SEATS]
    broken += [SAME_COURSE] if code in {e["course_code"] for e in view.current(sid)} else []
    broken += [] if set(course["prerequisites"]) <= view.passed(sid) else [PREREQUISITES]
    broken += [] if course["credits"] <= view.room(sid) else [CREDIT_LIMIT]
    return broken


def _swap_rules(view: View, student: Record, section_id: str, new_section_id: str) -> list[Rule]:
    old, new = view.sections[section_id], view.sections[new_section_id]
    broken = [] if _enrolled(view, student, section_id) else [ENROLLED]
    if new["course_code"] != old["course_code"] or section_id == new_section_id:
        broken.append(SWAP_SAME_COURSE)
    broken += [] if view.open_to_adds(new) else [ADD_DEADLINE]
    broken += [] if view.seats_left(new) > 0 else [SEATS]
    return broken


def _money_rules(view: View, student: Record, name: str, args: Record) -> list[Rule]:
    invoice = view.invoices[args["invoice_id"]]
    method = student["payment_methods"].get(args["method_id"])
    broken = [] if invoice["student_id"] == student["student_id"] else [OWN_INVOICE]
    broken += [] if method is not None else [METHOD_ON_FILE]
    if name == "make_payment":
        fits = 0 < args["amount"] <= invoice["balance"]
        return broken + ([] if fits else [PAYMENT_AMOUNT])
    broken += [] if invoice["balance"] < 0 else [CREDIT_ONLY]
    return broken + ([] if method is None or method["type"] == "bank_account" else [BANK_ONLY])


def _transcript_rules(view: View, student: Record, args: Record) -> list[Rule]:
    method = student["payment_methods"].get(args["method_id"])
    broken = [] if 1 <= args["copies"] <= MAX_TRANSCRIPT_COPIES else [COPIES]
    broken += [TRANSCRIPT_HOLD] if blocking(student["holds"], TRANSCRIPT_BLOCKING_HOLDS) else []
    broken += [] if view.completed(student["student_id"]) else [COMPLETED_WORK]
    broken += [] if ("@" in args["recipient"]) == (args["delivery"] == "electronic") else [RECIPIENT]
    return broken + ([] if method is not None and method["type"] == "card" else [CARD_FEE])
