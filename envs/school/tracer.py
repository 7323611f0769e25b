"""School's parts for the Tracer (docs/tracer.md): the intents a student brings, grounded on the seed
view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

from typing import Any

from taue.envs.runtime.authoring import Alternative, Customer, Grounded, Intent, Lookups, TracerSpec, write
from taue.envs.school.catalog import DEPARTMENTS, TRANSCRIPT_RECIPIENTS
from taue.envs.school.phrases import BANKS
from taue.envs.school.policy_check import check_policy
from taue.envs.school.reads import gpa
from taue.envs.school.rules import CURRENT_TERM, PASSING_FOR_PREREQUISITE, TODAY, clash, drop_terms
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

RECIPIENT_KINDS = {
    "admissions@graduate.mercer-hill.example": "school",
    "records@law.ashcombe.example": "school",
    "hr@brightwell-labs.example": "employer",
    "scholarships@weybridge-foundation.example": "scholarship",
}
"""Who a transcript goes to, for the reason the student gives; a postal recipient is named below."""


def _term_invoice(customer: Customer) -> str:
    return f"INV-{CURRENT_TERM}-{customer.id[1:]}"


def _invoice_changes(invoice_id: str) -> set[str]:
    """What a payment or a refund of an invoice must not share a task with: the invoice itself and the
    charges an add or a drop puts on it (an add and a drop of different courses go together)."""
    return {invoice_id, f"{invoice_id}:add", f"{invoice_id}:drop"}


def _method_fact(method: Record) -> str:
    """One name per payment method, whatever it is used for (paying, a fee, a refund)."""
    return "card" if method["type"] == "card" else "bank_account"


def _student(customer: Customer) -> dict[str, Any]:
    """The student id every school tool takes: a student who identifies with it states it (a known
    fact, customers()), so it is bound here rather than made discoverable by identification."""
    return {"student_id": customer.id}


def _level_fits(view: View, customer: Customer, code: str) -> bool:
    return (view.courses[code]["level"] == "graduate") == _graduate(view, customer)


def _subject(view: View, customer: Customer, code: str) -> str:
    """'major' when the course belongs to the student's programme's department, else 'elective'."""
    department = view.courses[code]["department"]
    name = DEPARTMENTS.get(department, department)
    return "major" if name in view.students[customer.id]["program"] else "elective"


# -------------------------------------------------------------------------------------- registration


def _addable(view: View, customer: Customer, section: Record) -> bool:
    course = view.courses[section["course_code"]]
    taking = {e["course_code"] for e in view.current(customer.id)}
    return (
        course["course_code"] not in taking | view.passed(customer.id)
        and set(course["prerequisites"]) <= view.passed(customer.id)
        and course["credits"] <= view.room(customer.id)
        and _level_fits(view, customer, course["course_code"])
    )


def _free(view: View, customer: Customer, section: Record, leaving: str = "") -> bool:
    """Whether the section meets when none of the student's other current sections does: no student
    asks to be double-booked."""
    taken = [e["section_id"] for e in view.current(customer.id) if e["section_id"] != leaving]
    return not any(clash(section, view.sections[s]) for s in taken if s in view.sections)


def register(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    if not view.may_register(customer.id):
        return None
    options = [s for s in view.sections.values() if view.open_to_adds(s) and view.seats_left(s) > 0]
    for section in shuffled(
        [s for s in options if _addable(view, customer, s) and _free(view, customer, s)], rng
    ):
        return _add(
            view, customer, section, rng, "register", _subject(view, customer, section["course_code"])
        )
    return None


def _missing_prerequisite(view: View, customer: Customer, code: str) -> tuple[str, str] | None:
    """(reason key, the missing prerequisite) when the student lacks one of the course's prerequisites
    but stands near it: taking it now, passed it below C-, or passed the others."""
    passed = view.passed(customer.id)
    missing = [p for p in view.courses[code]["prerequisites"] if p not in passed]
    if not missing:
        return None
    taking = {e["course_code"] for e in view.current(customer.id)}
    low = {  # passed, but below the C- a prerequisite needs (an F is no pass at all)
        e["course_code"]
        for e in view.completed(customer.id)
        if e["grade"] not in PASSING_FOR_PREREQUISITE and e["grade"] in ("D+", "D")
    }
    for key, group in (("in_progress", taking), ("low_grade", low)):
        near = [p for p in missing if p in group]
        if near:
            return key, near[0]
    return ("partial" if len(missing) < len(view.courses[code]["prerequisites"]) else ""), missing[0]


def register_missing_prerequisite(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    taking = {e["course_code"] for e in view.current(customer.id)} | view.passed(customer.id)
    near: list[tuple[dict[str, Any], tuple[str, str]]] = []
    other: list[tuple[dict[str, Any], tuple[str, str]]] = []
    for section in sorted(view.sections.values(), key=lambda s: s["section_id"]):
        code = section["course_code"]
        if not view.open_to_adds(section) or view.seats_left(section) <= 0 or code in taking:
            continue
        missing = _missing_prerequisite(view, customer, code)
        if missing is None or not _level_fits(view, customer, code):
            continue
        # A course one step beyond what the student has done, not an advanced course out of reach.
        (near if missing[0] else other).append((section, missing))
    options = near or [o for o in other if _number(o[0]["course_code"]) < 300 or _graduate(view, customer)]
    if not options:
        return None
    section, (key, prerequisite) = rng.choice(options)
    extra = {"prerequisite": course_words(view, prerequisite)}
    return _add(view, customer, section, rng, "register_missing_prerequisite", key, extra)


def _number(code: str) -> int:
    return int("".join(ch for ch in code if ch.isdigit()))


def _graduate(view: View, customer: Customer) -> bool:
    return view.students[customer.id]["level"] == "graduate"


def register_full_section(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _refused_add(
        view,
        customer,
        rng,
        lambda s: view.open_to_adds(s) and view.seats_left(s) <= 0,
        "register_full_section",
    )


def register_after_deadline(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _refused_add(
        view,
        customer,
        rng,
        lambda s: not view.open_to_adds(s) and view.seats_left(s) > 0,
        "register_after_deadline",
    )


def prerequisite_instead(view: View, customer: Customer, refused: Grounded, rng: Rng) -> Grounded | None:
    """The policy's alternative to a course without its prerequisite: a section of the missing
    prerequisite with a free seat, open to adds and clear of the timetable, which the student takes."""
    assert refused.write is not None
    course = view.sections[refused.write.arguments["section_id"]]["course_code"]
    missing = _missing_prerequisite(view, customer, course)
    if missing is None or missing[0] == "in_progress":
        return None
    options = [
        s
        for s in view.sections_of(missing[1])
        if view.open_to_adds(s)
        and view.seats_left(s) > 0
        and _addable(view, customer, s)
        and _free(view, customer, s)
    ]
    return _add(view, customer, rng.choice(options), rng, "prerequisite_instead") if options else None


def other_section(view: View, customer: Customer, refused: Grounded, rng: Rng) -> Grounded | None:
    """The policy's alternative to a full section: another section of the same course with a free
    seat, open to adds and clear of the student's timetable, which the student takes."""
    assert refused.write is not None
    full = view.sections[refused.write.arguments["section_id"]]
    options = [
        s
        for s in view.sections_of(full["course_code"])
        if s["section_id"] != full["section_id"]
        and view.open_to_adds(s)
        and view.seats_left(s) > 0
        and _free(view, customer, s)
    ]
    return _add(view, customer, rng.choice(options), rng, "other_section") if options else None


def _refused_add(view: View, customer: Customer, rng: Rng, fits: Any, bank: str) -> Grounded | None:
    if not view.may_register(customer.id):
        return None
    options = sorted(
        (s for s in view.sections.values() if fits(s) and _addable(view, customer, s)),
        key=lambda s: s["section_id"],
    )
    return _add(view, customer, rng.choice(options), rng, bank) if options else None


def _add(
    view: View,
    customer: Customer,
    section: Record,
    rng: Rng,
    bank: str,
    why: str = "",
    extra: dict[str, str] | None = None,
) -> Grounded:
    words, code = section_words(view, section), section["course_code"]
    slots = {"section": words, "meets": section["meets"], "prerequisite": "", **(extra or {})}
    return Grounded(
        **BANKS[bank].word(rng, slots, reason=why).fields(),
        bindings={**_student(customer), "course_code": code, "section_id": section["section_id"]},
        write=write("register_for_section", student_id=customer.id, section_id=section["section_id"]),
        entities=frozenset(
            {f"course:{customer.id}:{code}", f"{customer.id}:load", f"{_term_invoice(customer)}:add"}
        ),
        known={"section_to_add": f"{section['section_id']}, {course_words(view, code)}"},
        evidence=(section["section_id"],),
    )


# ---------------------------------------------------------------------------------- drops and swaps


def drop(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _drop(view, customer, rng, lambda s: drop_terms(s) is not None, "drop")


def drop_after_withdrawal_deadline(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _drop(view, customer, rng, lambda s: drop_terms(s) is None, "drop_after_withdrawal_deadline")


def _drop(view: View, customer: Customer, rng: Rng, fits: Any, bank: str) -> Grounded | None:
    options = [e for e in view.current(customer.id) if fits(view.sections[e["section_id"]])]
    if not options:
        return None
    enrollment = rng.choice(options)
    section = view.sections[enrollment["section_id"]]
    terms = drop_terms(section)
    started = section["start_date"] <= TODAY
    why = "" if terms is None else "late" if terms[1] else "free" if started else "before"
    return Grounded(
        **BANKS[bank].word(rng, {"section": section_words(view, section)}, reason=why).fields(),
        bindings={
            **_student(customer),
            "section_id": view.enrolled_lookups(enrollment),
            "invoice_id": _term_invoice(customer),
        },
        write=write("drop_section", student_id=customer.id, section_id=section["section_id"]),
        entities=frozenset(
            {f"course:{customer.id}:{section['course_code']}", f"{_term_invoice(customer)}:drop"}
        ),
        known={"section_to_drop": f"{section['section_id']}, {course_words(view, section['course_code'])}"},
        evidence=(section["section_id"],),
    )


def swap(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    for enrollment in shuffled(view.current(customer.id), rng):
        others = [
            s
            for s in view.sections_of(enrollment["course_code"])
            if s["section_id"] != enrollment["section_id"]
            and view.open_to_adds(s)
            and view.seats_left(s) > 0
            and _free(view, customer, s, leaving=enrollment["section_id"])
        ]
        if not others:
            continue
        new = rng.choice(others)
        old = view.sections[enrollment["section_id"]]
        code = enrollment["course_code"]
        why = "time" if new["meets"] != old["meets"] else "instructor"
        slots = {
            "old": section_words(view, old),
            "old_id": old["section_id"],
            "new_id": new["section_id"],
            "new_meets": new["meets"],
            "new_instructor": new["instructor"],
            "course": course_words(view, code),
        }
        return Grounded(
            **BANKS["swap"].word(rng, slots, reason=why).fields(),
            bindings={**_student(customer), "course_code": code, "section_id": new["section_id"]},
            write=write(
                "swap_section",
                student_id=customer.id,
                section_id=old["section_id"],
                new_section_id=new["section_id"],
            ),
            entities=frozenset({f"course:{customer.id}:{code}"}),
            known={"current_section": old["section_id"], "wanted_section": new["section_id"]},
            evidence=(new["section_id"],),
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
    why = invoice["status"] if full else "part"
    return _payment(view, customer, invoice, method_id, method, amount, full, rng, "pay", why)


def overpay(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    invoices = [i for i in view.invoices_of(customer.id) if i["status"] == "open"]
    methods = view.methods(customer.id, "card") or view.methods(customer.id, "bank_account")
    if not invoices or not methods:
        return None
    invoice, (method_id, method) = rng.choice(invoices), rng.choice(methods)
    amount = round(invoice["balance"] + rng.randrange(200, 1500, 100), 2)
    return _payment(view, customer, invoice, method_id, method, amount, False, rng, "overpay")


def _payment(
    view: View,
    customer: Customer,
    invoice: Record,
    method_id: str,
    method: Record,
    amount: float,
    full: bool,
    rng: Rng,
    bank: str,
    why: str = "",
) -> Grounded:
    term, pay_with = term_words(invoice["term"]), method_words(method)
    sum_words = "the full balance" if full else money(amount)
    known = {"invoice": f"{term} invoice", _method_fact(method): pay_with, "amount": sum_words}
    entities = _invoice_changes(invoice["invoice_id"]) | (
        {f"{customer.id}:hold"} if invoice["status"] == "overdue" else set()
    )
    slots = {"amount": sum_words, "term": term, "method": pay_with}
    return Grounded(
        **BANKS[bank].word(rng, slots, reason=why).fields(),
        bindings={**_student(customer), "invoice_id": view.invoice_lookups(invoice)},
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
    )


def refund(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    invoices = [i for i in view.invoices_of(customer.id) if i["balance"] < 0]
    return _refund(view, customer, rng, invoices, "refund")


def refund_without_credit(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    invoices = [i for i in view.invoices_of(customer.id) if i["status"] == "paid"]
    return _refund(view, customer, rng, invoices, "refund_without_credit")


def _refund(view: View, customer: Customer, rng: Rng, invoices: list[Record], bank: str) -> Grounded | None:
    banks = view.methods(customer.id, "bank_account")
    if not invoices or not banks:
        return None
    invoice, (method_id, method) = rng.choice(invoices), rng.choice(banks)
    term, to = term_words(invoice["term"]), method_words(method)
    awards = [i["description"] for i in invoice["items"] if i["amount"] < 0]
    left = {"dropped", "withdrawn"}
    dropped = any(
        e["term"] == invoice["term"] and e["status"] in left for e in view.by_student.get(customer.id, [])
    )
    why = "award" if bank == "refund" and awards else "dropped" if dropped else ""
    slots = {"term": term, "method": to, "award": awards[0] if awards else ""}
    return Grounded(
        **BANKS[bank].word(rng, slots, reason=why).fields(),
        bindings={**_student(customer), "invoice_id": view.invoice_lookups(invoice)},
        write=write(
            "refund_credit_balance",
            student_id=customer.id,
            invoice_id=invoice["invoice_id"],
            method_id=method_id,
        ),
        entities=frozenset(_invoice_changes(invoice["invoice_id"])),
        known={"invoice": f"{term} invoice", _method_fact(method): to},
        discoverable={"invoice_id": invoice["invoice_id"], "method_id": method_id},
        evidence=(invoice["invoice_id"],),
    )


# -------------------------------------------------------------------------------------- transcripts


def transcript(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    held = any(h["type"] == "financial" for h in view.students[customer.id]["holds"])
    return None if held else _transcript(view, customer, rng, rng.randint(1, 3), "transcript")


def transcript_on_hold(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    held = any(h["type"] == "financial" for h in view.students[customer.id]["holds"])
    return _transcript(view, customer, rng, rng.randint(1, 2), "transcript_on_hold") if held else None


def _transcript(view: View, customer: Customer, rng: Rng, copies: int, bank: str) -> Grounded | None:
    cards = view.methods(customer.id, "card")
    if not cards or not view.completed(customer.id):
        return None
    method_id, method = rng.choice(cards)
    recipient = rng.choice(TRANSCRIPT_RECIPIENTS)
    delivery = "electronic" if "@" in recipient else "mail"
    how = "by email" if delivery == "electronic" else "by mail"
    kind = RECIPIENT_KINDS.get(recipient) or ("school" if "University" in recipient else "employer")
    why = f"{kind}_{'email' if delivery == 'electronic' else 'mail'}"
    plural = "copy" if copies == 1 else "copies"
    slots = {
        "copies": f"{copies} official transcript {plural}",
        "how": how,
        "recipient": recipient,
        "method": method_words(method),
    }
    return Grounded(
        **BANKS[bank].word(rng, slots, reason=why).fields(),
        bindings={
            **_student(customer),
            "invoice_id": Lookups(tuple(view.students[customer.id]["invoice_ids"])),
        },
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
            _method_fact(method): method_words(method),
        },
        discoverable={"method_id": method_id},
        evidence=(recipient,),
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
        **BANKS["grade_lookup"].word(rng, {"course": words, "term": term}).fields(),
        kind="information",
        bindings={**_student(customer), "course_code": enrollment["course_code"]},
        entities=frozenset({f"{customer.id}:record"}),
        known={"course": words, "term": term},
        evidence=tuple(dict.fromkeys((str(term_gpa), str(cumulative)))),
    )


def drop_deadline(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    options = [
        e for e in view.current(customer.id) if view.sections[e["section_id"]]["drop_deadline"] >= TODAY
    ]
    if not options:
        return None
    enrollment = rng.choice(options)
    section = view.sections[enrollment["section_id"]]
    started = section["start_date"] <= TODAY
    return Grounded(
        **BANKS["drop_deadline"]
        .word(rng, {"section": section_words(view, section)}, reason="" if started else "before")
        .fields(),
        kind="information",
        bindings={
            **_student(customer),
            "section_id": view.enrolled_lookups(enrollment),
            "course_code": section["course_code"],
        },
        entities=frozenset({f"course:{customer.id}:{section['course_code']}"}),
        known={"section": f"{section['section_id']}, {course_words(view, section['course_code'])}"},
        evidence=(section["drop_deadline"],),
    )


# -------------------------------------------------------------------------------------------- intents

ENROL = "list_student_enrollments"
RECORD, COURSE, SECTION, INVOICE = (
    "get_academic_record",
    "get_course_details",
    "get_section_details",
    "get_invoice_details",
)


def intent(
    ground: Any, terminal: str, topic: str, reads: tuple[str, ...], *required: str, weight: float = 1.0
) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, reads, required, weight=weight)


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
    intent(grade_lookup, RECORD, "checking grades", (ENROL, COURSE), weight=0.15),
    intent(drop_deadline, SECTION, "a drop deadline", (ENROL, COURSE, SECTION), weight=0.15),
    Intent(
        "register_missing_prerequisite",
        "register_for_section",
        register_missing_prerequisite,
        "adding a course",
        ADD_READS,
        (COURSE,),
        challenge=True,
        alternative=Alternative(
            "prerequisite_instead", "register_for_section", prerequisite_instead, ADD_READS, (COURSE,)
        ),
    ),
    Intent(
        "register_full_section",
        "register_for_section",
        register_full_section,
        "adding a course",
        ADD_READS,
        (COURSE,),
        challenge=True,
        alternative=Alternative("other_section", "register_for_section", other_section, ADD_READS, (COURSE,)),
    ),
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
    walk_lengths={2: 0.4, 3: 0.48, 4: 0.12},
    intent_counts={2: 0.2, 3: 0.45, 4: 0.35},
)
