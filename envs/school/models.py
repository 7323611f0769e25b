"""School tables: students, the course catalogue, this term's sections, enrolments, term invoices,
payments and transcript requests of Northvale University's student services desk.

Nested values (holds, payment methods, invoice lines, prerequisites) are JSON text columns so that
list order survives exactly. Money is in US dollars, rounded to cents. `to_record()` gives a row as
a plain dict (what the Tracer's seed view and the tests read).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import registry
from sqlmodel import Field

from taue.envs.runtime.database import DomainTable, JSONText


class SchoolTable(DomainTable, registry=registry()):
    """Base of the school tables (a record is every column, in declared order)."""


class Student(SchoolTable, table=True):
    """A student: identity, programme, academic standing, holds, payment methods and invoices."""

    __tablename__ = "students"

    student_id: str = Field(primary_key=True)
    first_name: str
    last_name: str
    email: str
    date_of_birth: str
    level: str
    """'undergraduate' or 'graduate' (tuition rate per credit)."""
    program: str
    entry_term: str
    standing: str
    """'good' or 'probation' (the term credit limit)."""
    status: str
    """'active' or 'on_leave': only active students register."""
    advisor: str
    holds: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONText)
    payment_methods: dict[str, dict[str, Any]] = Field(default_factory=dict, sa_type=JSONText)
    invoice_ids: list[str] = Field(default_factory=list, sa_type=JSONText)


class Course(SchoolTable, table=True):
    """A catalogue course: credits and the courses that must be passed first."""

    __tablename__ = "courses"

    course_code: str = Field(primary_key=True)
    title: str
    department: str
    credits: int
    level: str
    prerequisites: list[str] = Field(default_factory=list, sa_type=JSONText)


class Section(SchoolTable, table=True):
    """A section of a course in the current term, with its session's dates and deadlines."""

    __tablename__ = "sections"

    section_id: str = Field(primary_key=True)
    course_code: str
    term: str
    session: str
    instructor: str
    meets: str
    room: str
    capacity: int
    enrolled: int
    start_date: str
    end_date: str
    add_deadline: str
    drop_deadline: str
    """Last day of a free drop (full refund, no fee)."""
    half_refund_deadline: str
    """Last day a late drop still refunds half the tuition."""
    withdraw_deadline: str
    """Last day any drop is possible."""


class Enrollment(SchoolTable, table=True):
    """A student's place in a section: 'enrolled', 'dropped', 'withdrawn' (late drop, grade W) or
    'completed' (a past term, with its grade)."""

    __tablename__ = "enrollments"

    enrollment_id: str = Field(primary_key=True)
    student_id: str
    section_id: str
    course_code: str
    term: str
    credits: int
    status: str
    grade: str | None = None
    registered_on: str
    dropped_on: str | None = None
    tuition: float


class Invoice(SchoolTable, table=True):
    """A term's bill: charge and credit lines, what was paid (net of refunds) and the balance.
    A negative balance is a credit owed to the student."""

    __tablename__ = "invoices"

    invoice_id: str = Field(primary_key=True)
    student_id: str
    term: str
    items: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONText)
    total: float
    amount_paid: float
    balance: float
    due_date: str
    status: str
    """'open', 'overdue', 'paid' or 'credit'."""


class Payment(SchoolTable, table=True):
    """Money in ('payment', positive) or out ('refund', negative) on an invoice."""

    __tablename__ = "payments"

    payment_id: str = Field(primary_key=True)
    student_id: str
    invoice_id: str
    kind: str
    amount: float
    method_id: str
    date: str


class TranscriptRequest(SchoolTable, table=True):
    """An official transcript order and the fee paid for it."""

    __tablename__ = "transcript_requests"

    request_id: str = Field(primary_key=True)
    student_id: str
    copies: int
    delivery: str
    recipient: str
    fee: float
    method_id: str
    status: str
    requested_on: str


TABLES: list[type[SchoolTable]] = [Course, Enrollment, Invoice, Payment, Section, Student, TranscriptRequest]
