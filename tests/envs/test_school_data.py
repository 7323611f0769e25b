"""School seed generator, tables and clock: size, variety, determinism, and both sides of every rule
present in the data (eligible and ineligible records)."""

from __future__ import annotations

from collections import Counter

import pytest

from taue.envs.school import DOMAIN
from taue.envs.school.generate import STUDENT_COUNT, generate
from taue.envs.school.models import Course, Enrollment, Invoice, Payment, Section, Student, TranscriptRequest
from taue.envs.school.rules import CLOCK, TODAY, drop_terms
from taue.envs.school.seed_view import View, load


@pytest.fixture(scope="module")
def rows():
    return generate(DOMAIN.seed)


@pytest.fixture(scope="module")
def view() -> View:
    return load(DOMAIN.seed)


def table(rows, model):
    return [row for row in rows if isinstance(row, model)]


def test_sizes_and_id_formats(rows):
    students = table(rows, Student)
    assert len(students) == STUDENT_COUNT >= 300
    assert len({s.student_id for s in students}) == len(students)
    assert len({s.email for s in students}) == len(students)
    assert all(
        s.student_id[0] == "N" and len(s.student_id) == 8 and s.student_id[1:].isdigit() for s in students
    )
    assert len(table(rows, Course)) >= 50 and len(table(rows, Section)) >= 100
    assert len(table(rows, Enrollment)) >= 3000
    assert len(table(rows, Invoice)) >= 1000 and len(table(rows, Payment)) >= 1000
    assert len(table(rows, TranscriptRequest)) >= 40


def test_the_generator_is_deterministic_and_depends_on_the_seed(rows):
    again = generate(DOMAIN.seed)
    assert [r.model_dump() for r in again] == [r.model_dump() for r in rows]
    other = generate(DOMAIN.seed + 1)
    assert [r.model_dump() for r in other] != [r.model_dump() for r in rows]


def test_the_clock_is_fixed_and_in_the_current_term():
    assert DOMAIN.clock == CLOCK == "2025-09-24T10:00:00"
    assert CLOCK.startswith(TODAY)
    assert DOMAIN.new_database().canonical_state() == DOMAIN.new_database().canonical_state()


def test_variety_of_people_and_money(rows):
    students = table(rows, Student)
    assert len({(s.first_name, s.last_name) for s in students}) > 300
    assert Counter(s.level for s in students)["graduate"] >= 40
    assert {s.standing for s in students} == {"good", "probation"}
    assert {s.status for s in students} == {"active", "on_leave"}
    assert {h["type"] for s in students for h in s.holds} == {"financial", "advising"}
    statuses = Counter(i.status for i in table(rows, Invoice))
    assert min(statuses[s] for s in ("open", "overdue", "paid", "credit")) >= 20
    grades = Counter(e.grade for e in table(rows, Enrollment) if e.status == "completed")
    assert len(grades) == 11 and grades["F"] > 50


def test_sections_are_consistent_with_enrolments(rows):
    enrolled = Counter(
        e.section_id for e in table(rows, Enrollment) if e.term == "2025FA" and e.status == "enrolled"
    )
    for section in table(rows, Section):
        assert section.enrolled == enrolled[section.section_id] <= section.capacity
        assert (
            section.add_deadline
            < section.drop_deadline
            < section.half_refund_deadline
            <= section.withdraw_deadline
        )


def test_invoices_add_up(rows):
    paid = Counter()
    for payment in table(rows, Payment):
        paid[payment.invoice_id] += payment.amount
    for invoice in table(rows, Invoice):
        assert invoice.total == round(sum(line["amount"] for line in invoice.items), 2)
        assert invoice.balance == round(invoice.total - invoice.amount_paid, 2)
        assert round(paid[invoice.invoice_id], 2) == invoice.amount_paid


def test_financial_holds_follow_overdue_invoices(view):
    for student_id, student in view.students.items():
        overdue = any(i["status"] == "overdue" for i in view.invoices_of(student_id))
        assert overdue == any(h["type"] == "financial" for h in student["holds"])


def test_both_sides_of_the_registration_rules_exist(view):
    sections = list(view.sections.values())
    assert any(view.open_to_adds(s) for s in sections) and any(not view.open_to_adds(s) for s in sections)
    assert any(view.seats_left(s) == 0 and view.open_to_adds(s) for s in sections)
    assert sum(view.may_register(s) for s in view.students) > 300
    assert any(not view.may_register(s) for s in view.students)
    courses = [c for c in view.courses.values() if c["prerequisites"]]
    met = [(s, c) for s in view.students for c in courses if set(c["prerequisites"]) <= view.passed(s)]
    assert len(met) > 100 and len(courses) * len(view.students) - len(met) > 100


def test_every_drop_outcome_is_represented(view):
    outcomes = Counter(
        drop_terms(view.sections[e["section_id"]]) is not None
        and drop_terms(view.sections[e["section_id"]])[0]
        for e in view.enrollments.values()
        if e["status"] == "enrolled"
    )
    assert all(outcomes[key] >= 20 for key in (1.0, 0.5, 0.0, False)), outcomes


def test_both_sides_of_the_money_and_transcript_rules_exist(view):
    methods = [m["type"] for s in view.students.values() for m in s["payment_methods"].values()]
    assert Counter(methods)["card"] > 200 and Counter(methods)["bank_account"] > 200
    credits = [i for i in view.invoices.values() if i["balance"] < 0]
    assert len(credits) > 50 and len([i for i in view.invoices.values() if i["balance"] > 0]) > 200
    unheld = [s for s in view.students if view.completed(s) and not view.students[s]["holds"]]
    assert len(unheld) > 200 and len([s for s in view.students if not view.completed(s)]) > 50
