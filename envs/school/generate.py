"""Deterministic school seed data: Northvale University's catalogue, this term's sections, and a few
hundred students with their past grades, current enrolments, term invoices, payments and transcript
orders.

`generate(seed)` draws everything from one `random.Random(seed)`; nothing reads the machine's clock.
Past terms are complete (graded, mostly paid); the current term (Fall 2025) is under way at the
simulated clock, its sections spread over sessions whose deadlines fall on both sides of today.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import SQLModel

from taue.envs.runtime.money import cents
from taue.envs.school.catalog import (
    ADVISORS,
    BANKS,
    BUILDINGS,
    CARD_BRANDS,
    COURSES,
    DEPARTMENTS,
    FIRST_NAMES,
    INSTRUCTORS,
    LAST_NAMES,
    MEETINGS,
    PROGRAMS,
    TRANSCRIPT_RECIPIENTS,
)
from taue.envs.school.models import (
    Course,
    Enrollment,
    Invoice,
    Payment,
    Section,
    Student,
    TranscriptRequest,
)
from taue.envs.school.rules import (
    CREDIT_LIMIT,
    CURRENT_DUE_DATE,
    CURRENT_TERM,
    GRADE_POINTS,
    PASSING_FOR_PREREQUISITE,
    PAST_TERMS,
    TODAY,
    TUITION_PER_CREDIT,
    invoice_status,
    session_dates,
    shift,
)

STUDENT_COUNT = 520
SESSION_WEIGHTS = {"full": 40, "early": 14, "late_start": 18, "second_half": 18, "first_half": 10}
GRADE_WEIGHTS = {
    "A": 15,
    "A-": 12,
    "B+": 13,
    "B": 15,
    "B-": 10,
    "C+": 8,
    "C": 8,
    "C-": 5,
    "D+": 3,
    "D": 4,
    "F": 7,
}
TERM_DATES = {  # (registration day, due date)
    "2024FA": ("2024-08-12", "2024-10-15"),
    "2025SP": ("2025-01-06", "2025-02-15"),
    "2025SU": ("2025-05-12", "2025-06-15"),
}
FEES = {"2024FA": 85.0, "2025SP": 85.0, "2025SU": 40.0, CURRENT_TERM: 85.0}
TECHNOLOGY_FEE = 120.0


@dataclass
class _Counters:
    enrollment: int = 100000
    payment: int = 500000
    transcript: int = 20000

    def next(self, kind: str, prefix: str) -> str:
        value = getattr(self, kind) + 1
        setattr(self, kind, value)
        return f"{prefix}{value}"


@dataclass
class _Seed:
    rng: random.Random
    counters: _Counters = field(default_factory=_Counters)
    courses: dict[str, Course] = field(default_factory=dict)
    sections: dict[str, Section] = field(default_factory=dict)
    rows: list[SQLModel] = field(default_factory=list)


def generate(seed: int = 0) -> list[SQLModel]:
    state = _Seed(random.Random(seed))
    _catalogue(state)
    _sections(state)
    used_ids: set[str] = set()
    used_emails: set[str] = set()
    for _ in range(STUDENT_COUNT):
        _student(state, used_ids, used_emails)
    counts: dict[str, int] = {}
    for row in state.rows:
        if isinstance(row, Enrollment) and row.term == CURRENT_TERM and row.status == "enrolled":
            counts[row.section_id] = counts.get(row.section_id, 0) + 1
    for section_id, section in sorted(state.sections.items()):
        section.enrolled = counts.get(section_id, 0)
        full = state.rng.random() < 0.22 and section.enrolled >= 4
        section.capacity = section.enrolled if full else max(section.enrolled + state.rng.randint(1, 12), 12)
    return [*state.courses.values(), *state.sections.values(), *state.rows]


# ------------------------------------------------------------------------------------- catalogue


def _catalogue(state: _Seed) -> None:
    for code, title, credits, prerequisites in COURSES:
        number = _number(code)
        department = DEPARTMENTS[code.rstrip("0123456789")]
        level = "graduate" if number >= 500 else "undergraduate"
        state.courses[code] = Course(
            course_code=code,
            title=title,
            department=department,
            credits=credits,
            level=level,
            prerequisites=list(prerequisites),
        )


def _sections(state: _Seed) -> None:
    rng = state.rng
    sessions, weights = list(SESSION_WEIGHTS), list(SESSION_WEIGHTS.values())
    for code in state.courses:
        count = rng.choices((1, 2, 3), weights=(3, 5, 2))[0]
        for number in range(1, count + 1):
            session = rng.choices(sessions, weights=weights)[0]
            section_id = f"{code}-{number:02d}"
            state.sections[section_id] = Section(
                section_id=section_id,
                course_code=code,
                term=CURRENT_TERM,
                session=session,
                instructor=rng.choice(INSTRUCTORS),
                meets=rng.choice(MEETINGS),
                room=f"{rng.choice(BUILDINGS)} {rng.randint(1, 4)}{rng.randint(0, 3)}{rng.randint(1, 9)}",
                capacity=0,
                enrolled=0,
                **session_dates(session),
            )


# --------------------------------------------------------------------------------------- students


def _student(state: _Seed, used_ids: set[str], used_emails: set[str]) -> None:
    rng = state.rng
    level = "graduate" if rng.random() < 0.16 else "undergraduate"
    student_id = f"N{rng.randint(2000000, 2999999)}"
    while student_id in used_ids:
        student_id = f"N{rng.randint(2000000, 2999999)}"
    used_ids.add(student_id)
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    email = f"{first}.{last}{rng.randint(1, 99)}@northvale.edu".lower()
    while email in used_emails:
        email = f"{first}.{last}{rng.randint(100, 999)}@northvale.edu".lower()
    used_emails.add(email)
    born = rng.randint(1986, 2001) if level == "graduate" else rng.randint(1998, 2007)
    entry = rng.choices(("2024FA", "2025SP", CURRENT_TERM), weights=(55, 15, 30))[0]
    student = Student(
        student_id=student_id,
        first_name=first,
        last_name=last,
        email=email,
        date_of_birth=f"{born}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        level=level,
        program=rng.choice(PROGRAMS[level]),
        entry_term=entry,
        standing="good",
        status="on_leave" if rng.random() < 0.05 else "active",
        advisor=rng.choice(ADVISORS),
        payment_methods=_payment_methods(rng),
    )
    passed = _past_terms(state, student)
    if student.status == "active" and rng.random() > 0.07:  # a few have not registered for the term yet
        _current_term(state, student, passed)
    _transcripts(state, student)
    state.rows.append(student)


def _payment_methods(rng: random.Random) -> dict[str, dict[str, Any]]:
    methods: dict[str, dict[str, Any]] = {}
    for kind in rng.choice((("card",), ("card", "bank"), ("bank",), ("card", "card", "bank"))):
        last_four = f"{rng.randint(0, 9999):04d}"
        method_id = f"{kind}_{last_four}"
        if kind == "card":
            methods[method_id] = {"type": "card", "brand": rng.choice(CARD_BRANDS), "last_four": last_four}
        else:
            methods[method_id] = {"type": "bank_account", "bank": rng.choice(BANKS), "last_four": last_four}
    return methods


def _eligible(state: _Seed, student: Student, code: str, passed: set[str], taken: set[str]) -> bool:
    """Whether the generator lets the student take the course: undergraduates follow prerequisites;
    graduate students (admitted with a degree) take upper-level and graduate courses."""
    course = state.courses[code]
    if code in taken:
        return False
    if student.level == "graduate":
        return course.level == "graduate" or _number(code) >= 300
    return course.level == "undergraduate" and set(course.prerequisites) <= passed


def _number(code: str) -> int:
    return int("".join(ch for ch in code if ch.isdigit()))


def _past_terms(state: _Seed, student: Student) -> set[str]:
    rng = state.rng
    passed: set[str] = set()
    taken: set[str] = set()
    terms = [t for t in PAST_TERMS if t >= student.entry_term and student.entry_term != CURRENT_TERM]
    points: list[tuple[float, int]] = []
    for term in terms:
        load = rng.randint(0, 2) if term == "2025SU" else rng.randint(3, 5)
        options = [c for c in sorted(state.courses) if _eligible(state, student, c, passed, taken)]
        chosen = rng.sample(options, min(load, len(options)))
        lines = []
        for code in chosen:
            grade = rng.choices(list(GRADE_WEIGHTS), weights=list(GRADE_WEIGHTS.values()))[0]
            credits = state.courses[code].credits
            tuition = cents(credits * TUITION_PER_CREDIT[student.level])
            state.rows.append(
                Enrollment(
                    enrollment_id=state.counters.next("enrollment", "EN"),
                    student_id=student.student_id,
                    section_id=f"{code}-{term}",
                    course_code=code,
                    term=term,
                    credits=credits,
                    status="completed",
                    grade=grade,
                    registered_on=TERM_DATES[term][0],
                    tuition=tuition,
                )
            )
            taken.add(code)
            points.append((GRADE_POINTS[grade], credits))
            if grade in PASSING_FOR_PREREQUISITE:
                passed.add(code)
            lines.append({"description": f"Tuition {code} ({credits} credits)", "amount": tuition})
        if lines:
            _invoice(state, student, term, lines, TERM_DATES[term][1])
    credits = sum(c for _, c in points)
    if credits and sum(p * c for p, c in points) / credits < 2.0:
        student.standing = "probation"
        if rng.random() < 0.5:
            student.holds.append(
                {
                    "hold_id": f"HA-{student.student_id[1:]}",
                    "type": "advising",
                    "reason": "Academic probation: meet your advisor before registering",
                    "placed_on": "2025-06-02",
                }
            )
    return passed


def _current_term(state: _Seed, student: Student, passed: set[str]) -> None:
    rng = state.rng
    limit = CREDIT_LIMIT[(student.level, student.standing)]
    room = limit - rng.choice((0, 3, 4, 6, 7))
    options = [
        s
        for s in state.sections.values()
        if _eligible(state, student, s.course_code, passed, set()) and s.course_code not in passed
    ]
    rng.shuffle(options)
    lines, credits, courses = [], 0, set()
    for section in options[: rng.randint(2, 7)]:
        course = state.courses[section.course_code]
        if course.course_code in courses or credits + course.credits > room:
            continue
        courses.add(course.course_code)
        tuition = cents(course.credits * TUITION_PER_CREDIT[student.level])
        registered = shift(min(section.start_date, "2025-09-20"), -rng.randint(3, 60))
        dropped = rng.random() < 0.08 and section.drop_deadline < TODAY
        state.rows.append(
            Enrollment(
                enrollment_id=state.counters.next("enrollment", "EN"),
                student_id=student.student_id,
                section_id=section.section_id,
                course_code=course.course_code,
                term=CURRENT_TERM,
                credits=course.credits,
                status="dropped" if dropped else "enrolled",
                registered_on=registered,
                dropped_on=shift(section.start_date, rng.randint(1, 12)) if dropped else None,
                tuition=tuition,
            )
        )
        lines.append(
            {"description": f"Tuition {section.section_id} ({course.credits} credits)", "amount": tuition}
        )
        if dropped:
            lines.append({"description": f"Drop refund {section.section_id} (100%)", "amount": -tuition})
        else:
            credits += course.credits
    if lines:
        _invoice(state, student, CURRENT_TERM, lines, CURRENT_DUE_DATE)


# --------------------------------------------------------------------------------------- invoices


def _invoice(state: _Seed, student: Student, term: str, lines: list[dict[str, Any]], due: str) -> None:
    rng = state.rng
    lines = [
        *lines,
        {"description": "Student activity fee", "amount": FEES[term]},
        {"description": "Technology fee", "amount": TECHNOLOGY_FEE},
    ]
    tuition = sum(line["amount"] for line in lines if line["description"].startswith("Tuition"))
    if rng.random() < 0.12:
        award = cents(tuition + rng.randrange(200, 1200, 25))
        lines.append({"description": "Presidential Scholarship", "amount": -award})
    elif rng.random() < 0.3:
        lines.append({"description": "Northvale Grant", "amount": -float(rng.randrange(500, 4000, 50))})
    total = cents(sum(line["amount"] for line in lines))
    invoice_id = f"INV-{term}-{student.student_id[1:]}"
    paid = _amount_paid(rng, term, total)
    balance = cents(total - paid)
    invoice = Invoice(
        invoice_id=invoice_id,
        student_id=student.student_id,
        term=term,
        items=lines,
        total=total,
        amount_paid=paid,
        balance=balance,
        due_date=due,
        status=invoice_status(balance, due),
    )
    state.rows.append(invoice)
    student.invoice_ids.append(invoice_id)
    _payments(state, student, invoice, due)
    if invoice.status == "overdue" and not any(h["type"] == "financial" for h in student.holds):
        student.holds.append(
            {
                "hold_id": f"HF-{student.student_id[1:]}",
                "type": "financial",
                "reason": f"Overdue balance on {invoice_id}",
                "placed_on": shift(due, 30),
            }
        )


def _amount_paid(rng: random.Random, term: str, total: float) -> float:
    if total <= 0:
        return 0.0
    share = rng.random()
    if term != CURRENT_TERM:
        return total if share > 0.16 else cents(total - min(total, rng.randrange(150, 1500, 25)))
    if share < 0.22:
        return total
    if share < 0.55:
        return float(min(rng.randrange(250, 3000, 50), int(total // 100) * 50))
    return 0.0


def _payments(state: _Seed, student: Student, invoice: Invoice, due: str) -> None:
    rng, remaining = state.rng, invoice.amount_paid
    parts = [remaining] if remaining < 1000 or rng.random() < 0.6 else [cents(remaining / 2)] * 2
    parts[-1] = cents(remaining - sum(parts[:-1]))
    for index, amount in enumerate(parts):
        if amount <= 0:
            continue
        state.rows.append(
            Payment(
                payment_id=state.counters.next("payment", "PAY"),
                student_id=student.student_id,
                invoice_id=invoice.invoice_id,
                kind="payment",
                amount=amount,
                method_id=rng.choice(sorted(student.payment_methods)),
                date=shift(due, -rng.randint(5, 40) + 20 * index),
            )
        )


def _transcripts(state: _Seed, student: Student) -> None:
    rng = state.rng
    if student.entry_term == CURRENT_TERM or rng.random() > 0.3:
        return
    delivery = rng.choice(("electronic", "mail"))
    recipients = [r for r in TRANSCRIPT_RECIPIENTS if ("@" in r) == (delivery == "electronic")]
    copies = rng.randint(1, 3)
    cards = [m for m, v in sorted(student.payment_methods.items()) if v["type"] == "card"]
    if not cards:
        return
    state.rows.append(
        TranscriptRequest(
            request_id=state.counters.next("transcript", "TR"),
            student_id=student.student_id,
            copies=copies,
            delivery=delivery,
            recipient=rng.choice(recipients),
            fee=cents(copies * (8.0 if delivery == "electronic" else 12.0)),
            method_id=rng.choice(cards),
            status="sent",
            requested_on=shift("2025-09-20", -rng.randint(10, 300)),
        )
    )
