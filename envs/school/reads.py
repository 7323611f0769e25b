"""School read tools: finding a student, their profile, enrolments, academic record, the catalogue,
sections and invoices. Every answer is JSON text; an unknown id is a `ToolError` saying which."""

from __future__ import annotations

import json
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from taue.envs.runtime.database import Store
from taue.envs.school.models import Course, Enrollment, Invoice, Payment, Section, Student
from taue.envs.school.rules import (
    CURRENT_TERM,
    GRADE_POINTS,
    TERM_NAMES,
    TUITION_PER_CREDIT,
    credit_limit,
)

StudentId = Annotated[str, Field(description="The student id, an 'N' and seven digits, e.g. 'N2417730'.")]
SectionId = Annotated[
    str, Field(description="A section of this term, course code and number, e.g. 'CS201-02'.")
]
CourseCode = Annotated[str, Field(description="A catalogue course code without spaces, e.g. 'MATH152'.")]
InvoiceId = Annotated[str, Field(description="A term invoice id, e.g. 'INV-2025FA-2417730'.")]
MethodId = Annotated[
    str, Field(description="A payment method id from the student's profile, e.g. 'card_4821'.")
]


def dump(value: Any) -> str:
    return json.dumps(value)


def student_row(db: Store, student_id: str) -> Student:
    return db.require(Student, student_id, f"student {student_id} not found")


def section_row(db: Store, section_id: str) -> Section:
    return db.require(Section, section_id, f"section {section_id} not found in the {CURRENT_TERM} term")


def invoice_row(db: Store, invoice_id: str) -> Invoice:
    return db.require(Invoice, invoice_id, f"invoice {invoice_id} not found")


def current_enrollments(db: Store, student_id: str) -> list[Enrollment]:
    return db.scan(Enrollment, Enrollment.student_id == student_id, Enrollment.term == CURRENT_TERM)


def current_credits(db: Store, student_id: str) -> int:
    return sum(e.credits for e in current_enrollments(db, student_id) if e.status == "enrolled")


def completed(db: Store, student_id: str) -> list[Enrollment]:
    return db.scan(Enrollment, Enrollment.student_id == student_id, Enrollment.status == "completed")


# ------------------------------------------------------------------------------------------ students


async def find_student(
    db: Store,
    date_of_birth: Annotated[str, Field(description="The student's date of birth as 'YYYY-MM-DD'.")],
    student_id: Annotated[str | None, Field(description="The student id, if the student gives it.")] = None,
    email: Annotated[
        str | None, Field(description="The student's university email, if given instead.")
    ] = None,
) -> str:
    """Verify a student's identity: their student id or university email, together with their date of
    birth, must match the records. Returns the student id. Use it before anything else."""
    if not student_id and not email:
        raise ToolError("give the student id or the email, with the date of birth")
    if student_id:
        student = db.get(Student, student_id)
        found = [student] if student is not None else []
    else:
        found = db.scan(Student, Student.email == str(email).strip().lower())
    match = [s for s in found if s.date_of_birth == date_of_birth]
    if not match:
        raise ToolError("no student matches these details")
    return match[0].student_id


async def get_student_details(db: Store, student_id: StudentId) -> str:
    """Get a student's profile: name, programme, level, academic standing, status, advisor, holds,
    term credit limit and credits now enrolled, payment methods on file and invoice ids."""
    student = student_row(db, student_id)
    record = student.to_record()
    record["credit_limit"] = credit_limit(record)
    record["current_term"] = CURRENT_TERM
    record["current_term_credits"] = current_credits(db, student_id)
    record["tuition_per_credit"] = TUITION_PER_CREDIT[student.level]
    return dump(record)


async def list_student_enrollments(db: Store, student_id: StudentId) -> str:
    """List a student's enrolments of the current term (Fall 2025), dropped ones included: section,
    course, credits, status, registration and drop dates, tuition charged."""
    student_row(db, student_id)
    rows = []
    for enrollment in current_enrollments(db, student_id):
        course = db.get(Course, enrollment.course_code)
        rows.append({**enrollment.to_record(), "title": course.title if course else ""})
    return dump({"student_id": student_id, "term": CURRENT_TERM, "enrollments": rows})


async def get_academic_record(db: Store, student_id: StudentId) -> str:
    """Get a student's academic record: every completed course of past terms with its grade, the
    GPA of each term and the cumulative GPA (W grades and dropped courses do not count)."""
    student_row(db, student_id)
    terms: dict[str, list[dict[str, Any]]] = {}
    for enrollment in completed(db, student_id):
        course = db.get(Course, enrollment.course_code)
        terms.setdefault(enrollment.term, []).append(
            {
                "course_code": enrollment.course_code,
                "title": course.title if course else "",
                "credits": enrollment.credits,
                "grade": enrollment.grade,
            }
        )
    listed = [
        {"term": term, "name": TERM_NAMES.get(term, term), "courses": courses, "term_gpa": gpa(courses)}
        for term, courses in sorted(terms.items())
    ]
    every = [c for courses in terms.values() for c in courses]
    earned = sum(c["credits"] for c in every if c["grade"] != "F")
    return dump(
        {"student_id": student_id, "terms": listed, "cumulative_gpa": gpa(every), "credits_earned": earned}
    )


def gpa(courses: list[dict[str, Any]]) -> float | None:
    credits = sum(c["credits"] for c in courses)
    if not credits:
        return None
    return round(sum(GRADE_POINTS[c["grade"]] * c["credits"] for c in courses) / credits, 2)


# ----------------------------------------------------------------------------------------- catalogue


async def get_course_details(db: Store, course_code: CourseCode) -> str:
    """Get a catalogue course: title, department, credits, prerequisites, and its sections this term
    with session, meeting times, seats left and the last day to add."""
    course = db.require(Course, course_code, f"course {course_code} not found")
    sections = [
        {
            "section_id": s.section_id,
            "session": s.session,
            "instructor": s.instructor,
            "meets": s.meets,
            "seats_left": s.capacity - s.enrolled,
            "add_deadline": s.add_deadline,
        }
        for s in db.scan(Section, Section.course_code == course_code)
    ]
    return dump({**course.to_record(), "term": CURRENT_TERM, "sections": sections})


async def get_section_details(db: Store, section_id: SectionId) -> str:
    """Get a section of this term: course, instructor, meeting times, room, capacity and seats left,
    session dates, and its deadlines (add, free drop, half refund, withdrawal)."""
    section = section_row(db, section_id)
    course = db.get(Course, section.course_code)
    record = section.to_record()
    record["seats_left"] = section.capacity - section.enrolled
    record["title"] = course.title if course else ""
    record["credits"] = course.credits if course else 0
    return dump(record)


# -------------------------------------------------------------------------------------------- money


async def get_invoice_details(db: Store, invoice_id: InvoiceId) -> str:
    """Get a term invoice: its charge and credit lines, total, amount paid, balance (negative: a
    credit owed to the student), due date, status, and the payments and refunds made on it."""
    invoice = invoice_row(db, invoice_id)
    payments = [p.to_record() for p in db.scan(Payment, Payment.invoice_id == invoice_id)]
    return dump({**invoice.to_record(), "payments": payments})
