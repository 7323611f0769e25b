"""School's parts for the Tracer (docs/tracer.md): the intents a student brings, grounded on the seed
view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

from typing import Any

from taue.envs.runtime.authoring import Customer, Grounded, Intent, Lookups, TracerSpec, write
from taue.envs.school.catalog import TRANSCRIPT_RECIPIENTS
from taue.envs.school.policy_check import check_policy
from taue.envs.school.reads import gpa
from taue.envs.school.rules import CURRENT_TERM, TODAY, drop_terms
from taue.envs.school.seed_view import (
    PERSONAS,
    Record,
    Rng,
    View,
    course_words,
    customers,
    load,
    method_words,
    money,
    section_words,
    shuffled,
    term_words,
)


def _term_invoice(customer: Customer) -> str:
    return f"INV-{CURRENT_TERM}-{customer.id[1:]}"


# -------------------------------------------------------------------------------------- registration


def _addable(view: View, customer: Customer, section: Record) -> bool:
    course = view.courses[section["course_code"]]
    taking = {e["course_code"] for e in view.current(customer.id)}
    return (
        course["course_code"] not in taking | view.passed(customer.id)
        and set(course["prerequisites"]) <= view.passed(customer.id)
        and course["credits"] <= view.room(customer.id)
        and (course["level"] == "graduate") == (view.students[customer.id]["level"] == "graduate")
    )


def register(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    if not view.may_register(customer.id):
        return None
    options = [s for s in view.sections.values() if view.open_to_adds(s) and view.seats_left(s) > 0]
    for section in shuffled([s for s in options if _addable(view, customer, s)], rng):
        return _add(view, customer, section, "Add a course to your schedule.")
    return None


def register_missing_prerequisite(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    taking = {e["course_code"] for e in view.current(customer.id)} | view.passed(customer.id)
    options = [
        s
        for s in view.sections.values()
        if view.open_to_adds(s)
        and view.seats_left(s) > 0
        and s["course_code"] not in taking
        and not set(view.courses[s["course_code"]]["prerequisites"]) <= view.passed(customer.id)
    ]
    return (
        _add(
            view,
            customer,
            rng.choice(sorted(options, key=lambda s: s["section_id"])),
            "Add a course you were told you can take.",
        )
        if options
        else None
    )


def register_full_section(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _refused_add(view, customer, rng, lambda s: view.open_to_adds(s) and view.seats_left(s) <= 0)


def register_after_deadline(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _refused_add(view, customer, rng, lambda s: not view.open_to_adds(s) and view.seats_left(s) > 0)


def _refused_add(view: View, customer: Customer, rng: Rng, fits: Any) -> Grounded | None:
    if not view.may_register(customer.id):
        return None
    options = sorted(
        (s for s in view.sections.values() if fits(s) and _addable(view, customer, s)),
        key=lambda s: s["section_id"],
    )
    return _add(view, customer, rng.choice(options), "Add a course late in the term.") if options else None


def _add(view: View, customer: Customer, section: Record, reason: str) -> Grounded:
    words, code = section_words(view, section), section["course_code"]
    return Grounded(
        request=f"I'd like to register for {words}, meeting {section['meets']}.",
        situation=f"You want to register for {words}, which meets {section['meets']}; you accept the tuition "
        "it adds to your term invoice",
        bindings={"course_code": code, "section_id": section["section_id"]},
        write=write("register_for_section", student_id=customer.id, section_id=section["section_id"]),
        entities=frozenset({f"course:{customer.id}:{code}", f"{customer.id}:load", _term_invoice(customer)}),
        known={"section_to_add": f"{section['section_id']}, {course_words(view, code)}"},
        discoverable={"section_id": section["section_id"]},
        evidence=(section["section_id"],),
        reason=reason,
    )


# ---------------------------------------------------------------------------------- drops and swaps


def drop(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _drop(view, customer, rng, lambda s: drop_terms(s) is not None)


def drop_after_withdrawal_deadline(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _drop(view, customer, rng, lambda s: drop_terms(s) is None)


def _drop(view: View, customer: Customer, rng: Rng, fits: Any) -> Grounded | None:
    options = [e for e in view.current(customer.id) if fits(view.sections[e["section_id"]])]
    if not options:
        return None
    enrollment = rng.choice(options)
    section = view.sections[enrollment["section_id"]]
    words = section_words(view, section)
    return Grounded(
        request=f"Please drop me from {words}.",
        situation=f"You want to drop {words}; you accept whatever refund and late-drop fee the rules give",
        bindings={"section_id": view.enrolled_lookups(enrollment), "invoice_id": _term_invoice(customer)},
        write=write("drop_section", student_id=customer.id, section_id=section["section_id"]),
        entities=frozenset({f"course:{customer.id}:{section['course_code']}", _term_invoice(customer)}),
        known={"section_to_drop": f"{section['section_id']}, {course_words(view, section['course_code'])}"},
        discoverable={"section_id": section["section_id"]},
        evidence=(section["section_id"],),
        reason="Drop a course.",
    )


def swap(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    for enrollment in shuffled(view.current(customer.id), rng):
        others = [
            s
            for s in view.sections_of(enrollment["course_code"])
            if s["section_id"] != enrollment["section_id"] and view.open_to_adds(s) and view.seats_left(s) > 0
        ]
        if not others:
            continue
        new = rng.choice(others)
        old = view.sections[enrollment["section_id"]]
        code = enrollment["course_code"]
        return Grounded(
            request=f"Can you move me from {old['section_id']} to {new['section_id']} in "
            f"{course_words(view, code)}? The new time ({new['meets']}) suits me better.",
            situation=f"You are enrolled in {section_words(view, old)} and want to move to section "
            f"{new['section_id']} of the same course, which meets {new['meets']}",
            bindings={"course_code": code, "section_id": new["section_id"]},
            write=write(
                "swap_section",
                student_id=customer.id,
                section_id=old["section_id"],
                new_section_id=new["section_id"],
            ),
            entities=frozenset({f"course:{customer.id}:{code}"}),
            known={"current_section": old["section_id"], "wanted_section": new["section_id"]},
            discoverable={"new_section_id": new["section_id"]},
            evidence=(new["section_id"],),
            reason="Change to another section of a course.",
        )
    return None


# -------------------------------------------------------------------------------------------- money


def pay(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    invoices = [i for i in view.invoices_of(customer.id) if i["balance"] > 0]
    methods = [*view.methods(customer.id, "card"), *view.methods(customer.id, "bank_account")]
    if not invoices or not methods:
        return None
    invoice, (method_id, method) = rng.choice(invoices), rng.choice(methods)
    full = rng.random() < 0.6 or invoice["balance"] <= 200
    amount = invoice["balance"] if full else float(rng.randrange(100, int(invoice["balance"]) // 2 + 101, 50))
    return _payment(view, customer, invoice, method_id, method, amount, full, "Pay tuition.")


def overpay(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    invoices = [i for i in view.invoices_of(customer.id) if i["status"] == "open"]
    methods = view.methods(customer.id, "card") or view.methods(customer.id, "bank_account")
    if not invoices or not methods:
        return None
    invoice, (method_id, method) = rng.choice(invoices), rng.choice(methods)
    amount = round(invoice["balance"] + rng.randrange(200, 1500, 100), 2)
    return _payment(
        view,
        customer,
        invoice,
        method_id,
        method,
        amount,
        False,
        "Pay ahead for next term.",
        " so the extra sits as credit for next term",
    )


def _payment(
    view: View,
    customer: Customer,
    invoice: Record,
    method_id: str,
    method: Record,
    amount: float,
    full: bool,
    reason: str,
    why: str = "",
) -> Grounded:
    term, pay_with = term_words(invoice["term"]), method_words(method)
    sum_words = "the full balance" if full else money(amount)
    known = {
        "invoice": f"{term} invoice",
        "pay_with": pay_with,
        "amount": "the full balance" if full else money(amount),
    }
    entities = {invoice["invoice_id"]} | (
        {f"{customer.id}:hold"} if invoice["status"] == "overdue" else set()
    )
    return Grounded(
        request=f"I want to pay {sum_words} of my {term} invoice with my {pay_with}{why}.",
        situation=f"You want to pay {sum_words} of your {term} invoice with your {pay_with}{why}",
        bindings={"invoice_id": view.invoice_lookups(invoice)},
        write=write(
            "make_payment",
            student_id=customer.id,
            invoice_id=invoice["invoice_id"],
            method_id=method_id,
            amount=amount,
        ),
        entities=frozenset(entities),
        known=known,
        discoverable={"invoice_id": invoice["invoice_id"], "method_id": method_id},
        evidence=(invoice["invoice_id"],),
        reason=reason,
    )


def refund(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    invoices = [i for i in view.invoices_of(customer.id) if i["balance"] < 0]
    return _refund(view, customer, rng, invoices, "Get a credit balance refunded.")


def refund_without_credit(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    invoices = [i for i in view.invoices_of(customer.id) if i["status"] == "paid"]
    return _refund(view, customer, rng, invoices, "Ask for money back on a paid invoice.")


def _refund(view: View, customer: Customer, rng: Rng, invoices: list[Record], reason: str) -> Grounded | None:
    banks = view.methods(customer.id, "bank_account")
    if not invoices or not banks:
        return None
    invoice, (method_id, method) = rng.choice(invoices), rng.choice(banks)
    term, to = term_words(invoice["term"]), method_words(method)
    return Grounded(
        request=f"I believe I have money coming back on my {term} invoice; please refund it to my {to}.",
        situation=f"You believe your {term} invoice leaves money owed to you, "
        f"and want it refunded to your {to}",
        bindings={"invoice_id": view.invoice_lookups(invoice)},
        write=write(
            "refund_credit_balance",
            student_id=customer.id,
            invoice_id=invoice["invoice_id"],
            method_id=method_id,
        ),
        entities=frozenset({invoice["invoice_id"]}),
        known={"invoice": f"{term} invoice", "refund_to": to},
        discoverable={"invoice_id": invoice["invoice_id"], "method_id": method_id},
        evidence=(invoice["invoice_id"],),
        reason=reason,
    )


# -------------------------------------------------------------------------------------- transcripts


def transcript(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    held = any(h["type"] == "financial" for h in view.students[customer.id]["holds"])
    return None if held else _transcript(view, customer, rng, rng.randint(1, 3))


def transcript_on_hold(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    held = any(h["type"] == "financial" for h in view.students[customer.id]["holds"])
    return _transcript(view, customer, rng, rng.randint(1, 2)) if held else None


def _transcript(view: View, customer: Customer, rng: Rng, copies: int) -> Grounded | None:
    cards = view.methods(customer.id, "card")
    if not cards or not view.completed(customer.id):
        return None
    method_id, method = rng.choice(cards)
    recipient = rng.choice(TRANSCRIPT_RECIPIENTS)
    delivery = "electronic" if "@" in recipient else "mail"
    how = "by email" if delivery == "electronic" else "by mail"
    plural = "copy" if copies == 1 else "copies"
    return Grounded(
        request=f"I need {copies} official transcript {plural} sent {how} to {recipient}, paid with my "
        f"{method_words(method)}.",
        situation=f"You need {copies} official transcript {plural} sent {how} to {recipient}, the fee paid "
        f"with your {method_words(method)}",
        bindings={"invoice_id": Lookups(tuple(view.students[customer.id]["invoice_ids"]))},
        write=write(
            "request_transcript",
            student_id=customer.id,
            copies=copies,
            delivery=delivery,
            recipient=recipient,
            method_id=method_id,
        ),
        entities=frozenset({f"{customer.id}:transcript", f"{customer.id}:hold"}),
        known={
            "copies": str(copies),
            "delivery": delivery,
            "recipient": recipient,
            "pay_with": method_words(method),
        },
        discoverable={"method_id": method_id},
        evidence=(recipient,),
        reason="Order official transcripts.",
    )


# -------------------------------------------------------------------------------------- information


def grade_lookup(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    done = view.completed(customer.id)
    if not done:
        return None
    enrollment = rng.choice(done)
    words, term = course_words(view, enrollment["course_code"]), term_words(enrollment["term"])
    cumulative = view.cumulative_gpa(customer.id)
    term_gpa = gpa([e for e in done if e["term"] == enrollment["term"]])
    return Grounded(
        kind="information",
        request=f"I took {words} in {term}. What was my GPA that term, and what is my cumulative GPA?",
        situation=f"You took {words} in {term} and want to know your GPA for that term and your "
        "cumulative GPA",
        bindings={"course_code": enrollment["course_code"]},
        entities=frozenset({f"{customer.id}:record"}),
        known={"course": words, "term": term},
        evidence=tuple(dict.fromkeys((str(term_gpa), str(cumulative)))),
        reason="Check a grade and the GPA.",
    )


def drop_deadline(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    options = [
        e for e in view.current(customer.id) if view.sections[e["section_id"]]["drop_deadline"] >= TODAY
    ]
    if not options:
        return None
    enrollment = rng.choice(options)
    section = view.sections[enrollment["section_id"]]
    words = section_words(view, section)
    return Grounded(
        kind="information",
        request=f"Until what date can I drop {words} and still get all my tuition back?",
        situation=f"You are unsure about {words} and want to know the last day you could drop it with a full "
        "refund; you do not want to drop it yet",
        bindings={"section_id": view.enrolled_lookups(enrollment), "course_code": section["course_code"]},
        entities=frozenset({f"course:{customer.id}:{section['course_code']}"}),
        known={"section": f"{section['section_id']}, {course_words(view, section['course_code'])}"},
        evidence=(section["drop_deadline"],),
        reason="Ask about the drop deadline.",
    )


# -------------------------------------------------------------------------------------------- intents

ENROL = "list_student_enrollments"
RECORD, COURSE, SECTION, INVOICE = (
    "get_academic_record",
    "get_course_details",
    "get_section_details",
    "get_invoice_details",
)


def intent(ground: Any, terminal: str, topic: str, reads: tuple[str, ...], *required: str) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, reads, required)


def challenge(ground: Any, terminal: str, topic: str, reads: tuple[str, ...], *required: str) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, reads, required, challenge=True)


ADD_READS = (ENROL, RECORD, COURSE, SECTION)
DROP_READS = (ENROL, SECTION, INVOICE)

INTENTS = (
    intent(register, "register_for_section", "adding a course", ADD_READS, COURSE),
    intent(drop, "drop_section", "dropping a course", DROP_READS, SECTION),
    intent(swap, "swap_section", "changing a section", (ENROL, COURSE, SECTION), COURSE),
    intent(pay, "make_payment", "paying tuition", (ENROL, INVOICE), INVOICE),
    intent(refund, "refund_credit_balance", "a tuition refund", (ENROL, INVOICE), INVOICE),
    intent(transcript, "request_transcript", "ordering transcripts", (ENROL, RECORD, INVOICE), RECORD),
    intent(grade_lookup, RECORD, "checking grades", (ENROL, COURSE)),
    intent(drop_deadline, SECTION, "a drop deadline", (ENROL, COURSE, SECTION)),
    challenge(register_missing_prerequisite, "register_for_section", "adding a course", ADD_READS, COURSE),
    challenge(register_full_section, "register_for_section", "adding a course", ADD_READS, COURSE),
    challenge(register_after_deadline, "register_for_section", "adding a course", ADD_READS, COURSE),
    challenge(drop_after_withdrawal_deadline, "drop_section", "dropping a course", DROP_READS, SECTION),
    challenge(overpay, "make_payment", "paying tuition", (ENROL, INVOICE), INVOICE),
    challenge(refund_without_credit, "refund_credit_balance", "a tuition refund", (ENROL, INVOICE), INVOICE),
    challenge(
        transcript_on_hold, "request_transcript", "ordering transcripts", (ENROL, RECORD, INVOICE), RECORD
    ),
)


TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={2: 0.2, 3: 0.45, 4: 0.35},
    intent_counts={1: 0.15, 2: 0.5, 3: 0.35},
)
