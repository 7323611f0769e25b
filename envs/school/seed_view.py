"""School's seed records as the Tracer reads them (docs/tracer.md): an indexed view, the customers
and the phrasing helpers its intents and policy check share."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.runtime.authoring import Customer, Lookups
from taue.envs.runtime.database import DomainTable
from taue.envs.school import models as m
from taue.envs.school.generate import generate
from taue.envs.school.reads import gpa
from taue.envs.school.rules import (
    CURRENT_TERM,
    PASSING_FOR_PREREQUISITE,
    REGISTRATION_BLOCKING_HOLDS,
    TERM_NAMES,
    TODAY,
    blocking,
    credit_limit,
)

Record = dict[str, Any]
Rng = random.Random

PERSONAS = (
    "a first-year student still learning how the registrar works",
    "a senior trying to graduate on time",
    "a graduate student working as a teaching assistant",
    "a student athlete juggling practice and classes",
    "a commuter student who works evenings",
    "an international student careful about every deadline",
    "a parent returning to finish a degree",
    "a transfer student sorting out a new schedule",
    "a student who pays tuition from a part-time job",
    "a pre-med student anxious about prerequisites",
    "a music student with rehearsals every night",
    "a student applying to graduate programmes this autumn",
)


@dataclass
class View:
    students: dict[str, Record]
    courses: dict[str, Record]
    sections: dict[str, Record]
    enrollments: dict[str, Record]
    invoices: dict[str, Record]

    @cached_property
    def by_student(self) -> dict[str, list[Record]]:
        found: dict[str, list[Record]] = {}
        for _, enrollment in sorted(self.enrollments.items()):
            found.setdefault(enrollment["student_id"], []).append(enrollment)
        return found

    def current(self, student_id: str, status: str = "enrolled") -> list[Record]:
        rows = self.by_student.get(student_id, [])
        return [e for e in rows if e["term"] == CURRENT_TERM and e["status"] == status]

    def passed(self, student_id: str) -> set[str]:
        rows = self.by_student.get(student_id, [])
        return {
            e["course_code"]
            for e in rows
            if e["status"] == "completed" and e["grade"] in PASSING_FOR_PREREQUISITE
        }

    def completed(self, student_id: str) -> list[Record]:
        return [e for e in self.by_student.get(student_id, []) if e["status"] == "completed"]

    def credits(self, student_id: str) -> int:
        return sum(e["credits"] for e in self.current(student_id))

    def seats_left(self, section: Record) -> int:
        return section["capacity"] - section["enrolled"]

    def open_to_adds(self, section: Record) -> bool:
        return section["add_deadline"] >= TODAY

    def may_register(self, student_id: str) -> bool:
        student = self.students[student_id]
        return student["status"] == "active" and not blocking(student["holds"], REGISTRATION_BLOCKING_HOLDS)

    def room(self, student_id: str) -> int:
        return credit_limit(self.students[student_id]) - self.credits(student_id)

    def sections_of(self, course_code: str) -> list[Record]:
        return [s for _, s in sorted(self.sections.items()) if s["course_code"] == course_code]

    def enrolled_lookups(self, enrollment: Record) -> Lookups:
        ids = [e["section_id"] for e in self.current(enrollment["student_id"])]
        return Lookups(tuple(ids[: ids.index(enrollment["section_id"]) + 1]))

    def invoice_lookups(self, invoice: Record) -> Lookups:
        ids = self.students[invoice["student_id"]]["invoice_ids"]
        return Lookups(tuple(ids[: ids.index(invoice["invoice_id"]) + 1]))

    def invoices_of(self, student_id: str) -> list[Record]:
        return [self.invoices[i] for i in self.students[student_id]["invoice_ids"]]

    def methods(self, student_id: str, kind: str) -> list[tuple[str, Record]]:
        methods = self.students[student_id]["payment_methods"]
        return [(key, methods[key]) for key in sorted(methods) if methods[key]["type"] == kind]

    def cumulative_gpa(self, student_id: str) -> float | None:
        return gpa(self.completed(student_id))


def load(seed: int) -> View:
    rows = generate(seed)

    def table(model: type[DomainTable], key: str) -> dict[str, Record]:
        return {getattr(r, key): r.to_record() for r in rows if isinstance(r, model)}

    return View(
        students=table(m.Student, "student_id"),
        courses=table(m.Course, "course_code"),
        sections=table(m.Section, "section_id"),
        enrollments=table(m.Enrollment, "enrollment_id"),
        invoices=table(m.Invoice, "invoice_id"),
    )


def customers(view: View) -> list[Customer]:
    result = []
    for index, (student_id, student) in enumerate(sorted(view.students.items())):
        name = f"{student['first_name']} {student['last_name']}"
        dob = student["date_of_birth"]
        if index % 2:
            # The student states their id: one known fact, so identification makes nothing
            # discoverable (the grounders bind `student_id` for the workflows' calls).
            known = {"student_id": student_id, "date_of_birth": dob}
            found = {"date_of_birth": dob, "student_id": student_id}
            bindings = {}
        else:
            known = {"email": student["email"], "date_of_birth": dob}
            found = {"date_of_birth": dob, "email": student["email"]}
            bindings = {"student_id": student_id}
        identity = (
            Action(name="find_student", arguments=found),
            Action(name="get_student_details", arguments={"student_id": student_id}),
        )
        result.append(Customer(student_id, name, identity, known, bindings))
    return result


# ------------------------------------------------------------------------------------------- phrasing


def course_words(view: View, code: str) -> str:
    return f"{code} ({view.courses[code]['title']})"


def section_words(view: View, section: Record) -> str:
    return f"section {section['section_id']} of {course_words(view, section['course_code'])}"


def term_words(term: str) -> str:
    return TERM_NAMES.get(term, term)


def method_words(method: Record) -> str:
    if method["type"] == "card":
        return f"{method['brand']} card ending in {method['last_four']}"
    return f"{method['bank']} account ending in {method['last_four']}"


def money(amount: float) -> str:
    return f"{amount:.2f} dollars"


def shuffled(records: list[Record], rng: Rng) -> list[Record]:
    records = list(records)
    rng.shuffle(records)
    return records
