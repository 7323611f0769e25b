"""School write tools (registration, drops, section swaps, payments, credit refunds, transcript
orders) and the domain's tool list. Each write checks the hard rules of policy.md first and fails
with a `ToolError` saying what was wrong; a failed call changes nothing (one transaction per call)."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from taue.envs.runtime.common_tools import calculate, think
from taue.envs.runtime.database import Store
from taue.envs.runtime.domain import ends_conversation, writes
from taue.envs.runtime.money import cents
from taue.envs.school.models import Course, Enrollment, Invoice, Payment, Section, Student, TranscriptRequest
from taue.envs.school.reads import (
    InvoiceId,
    MethodId,
    SectionId,
    StudentId,
    completed,
    current_credits,
    current_enrollments,
    dump,
    find_student,
    get_academic_record,
    get_course_details,
    get_invoice_details,
    get_section_details,
    get_student_details,
    invoice_row,
    list_student_enrollments,
    section_row,
    student_row,
)
from taue.envs.school.rules import (
    CURRENT_DUE_DATE,
    CURRENT_TERM,
    MAX_TRANSCRIPT_COPIES,
    PASSING_FOR_PREREQUISITE,
    REGISTRATION_BLOCKING_HOLDS,
    TODAY,
    TRANSCRIPT_BLOCKING_HOLDS,
    TRANSCRIPT_FEE,
    TUITION_PER_CREDIT,
    blocking,
    credit_limit,
    drop_terms,
    invoice_status,
)

ACTIVITY_FEE, TECHNOLOGY_FEE = 85.0, 120.0


def _enrolled_in(db: Store, student_id: str, section_id: str) -> Enrollment:
    for enrollment in current_enrollments(db, student_id):
        if enrollment.section_id == section_id and enrollment.status == "enrolled":
            return enrollment
    raise ToolError(f"student {student_id} is not enrolled in section {section_id}")


def _open_seat(section: Section) -> None:
    if section.add_deadline < TODAY:
        raise ToolError(f"the add deadline for section {section.section_id} was {section.add_deadline}")
    if section.enrolled >= section.capacity:
        raise ToolError(f"section {section.section_id} is full ({section.capacity} seats)")


def _own_invoice(db: Store, student: Student, invoice_id: str) -> Invoice:
    invoice = invoice_row(db, invoice_id)
    if invoice.student_id != student.student_id:
        raise ToolError(f"invoice {invoice_id} does not belong to student {student.student_id}")
    return invoice


def _method(student: Student, method_id: str) -> dict:
    method = student.payment_methods.get(method_id)
    if method is None:
        raise ToolError(f"payment method {method_id} is not on file for student {student.student_id}")
    return method


def _rebalance(db: Store, invoice: Invoice) -> None:
    invoice.total = cents(sum(line["amount"] for line in invoice.items))
    invoice.balance = cents(invoice.total - invoice.amount_paid)
    invoice.status = invoice_status(invoice.balance, invoice.due_date)
    db.save(invoice)


def _term_invoice(db: Store, student: Student) -> Invoice:
    """The student's current-term invoice, opened with the term's fees if there is none yet."""
    invoice_id = f"INV-{CURRENT_TERM}-{student.student_id[1:]}"
    invoice = db.get(Invoice, invoice_id)
    if invoice is None:
        items = [
            {"description": "Student activity fee", "amount": ACTIVITY_FEE},
            {"description": "Technology fee", "amount": TECHNOLOGY_FEE},
        ]
        invoice = Invoice(
            invoice_id=invoice_id,
            student_id=student.student_id,
            term=CURRENT_TERM,
            items=items,
            total=0.0,
            amount_paid=0.0,
            balance=0.0,
            due_date=CURRENT_DUE_DATE,
            status="open",
        )
        student.invoice_ids = [*student.invoice_ids, invoice_id]
        db.save(student)
    return invoice


# ------------------------------------------------------------------------------------- registration


def _check_registration(db: Store, student: Student, section: Section, course: Course) -> None:
    if student.status != "active":
        raise ToolError(
            f"student {student.student_id} is {student.status.replace('_', ' ')} and cannot register"
        )
    for hold in blocking(student.holds, REGISTRATION_BLOCKING_HOLDS):
        raise ToolError(f"registration is blocked by a {hold['type']} hold: {hold['reason']}")
    _open_seat(section)
    taking = [e.course_code for e in current_enrollments(db, student.student_id) if e.status == "enrolled"]
    if course.course_code in taking:
        raise ToolError(f"student {student.student_id} is already enrolled in {course.course_code} this term")
    passed = {e.course_code for e in completed(db, student.student_id) if e.grade in PASSING_FOR_PREREQUISITE}
    missing = [code for code in course.prerequisites if code not in passed]
    if missing:
        raise ToolError(
            f"missing prerequisites for {course.course_code}: {', '.join(missing)} "
            "(each passed with C- or better)"
        )
    credits, limit = (
        current_credits(db, student.student_id) + course.credits,
        credit_limit(student.to_record()),
    )
    if credits > limit:
        raise ToolError(
            f"adding {course.course_code} would bring the term to {credits} credits, above the "
            f"limit of {limit}"
        )


@writes
async def register_for_section(db: Store, student_id: StudentId, section_id: SectionId) -> str:
    """Register a student in a section of this term. Checks status, holds, the add deadline, seats,
    prerequisites and the credit limit; charges the tuition (credits times the rate per credit) to
    the student's term invoice. Returns the new enrolment and the invoice balance."""
    student, section = student_row(db, student_id), section_row(db, section_id)
    course = db.require(Course, section.course_code, f"course {section.course_code} not found")
    _check_registration(db, student, section, course)
    tuition = cents(course.credits * TUITION_PER_CREDIT[student.level])
    enrollment = Enrollment(
        enrollment_id=db.next_id(Enrollment, "EN"),
        student_id=student_id,
        section_id=section_id,
        course_code=course.course_code,
        term=CURRENT_TERM,
        credits=course.credits,
        status="enrolled",
        registered_on=TODAY,
        tuition=tuition,
    )
    db.save(enrollment)
    section.enrolled += 1
    db.save(section)
    invoice = _term_invoice(db, student)
    line = {"description": f"Tuition {section_id} ({course.credits} credits)", "amount": tuition}
    invoice.items = [*invoice.items, line]
    _rebalance(db, invoice)
    return dump(
        {
            "enrollment": enrollment.to_record(),
            "invoice_id": invoice.invoice_id,
            "invoice_balance": invoice.balance,
        }
    )


@writes
async def drop_section(db: Store, student_id: StudentId, section_id: SectionId) -> str:
    """Drop a section the student is enrolled in this term. Up to the free-drop deadline the tuition
    is refunded in full; after it, the drop is a withdrawal (grade W) with a late-drop fee and a 50 %
    refund until the half-refund deadline, no refund after it; after the withdrawal deadline nothing
    can be dropped. Refunds and fees go on the term invoice. Returns the enrolment and the invoice."""
    student = student_row(db, student_id)
    section = section_row(db, section_id)
    enrollment = _enrolled_in(db, student_id, section_id)
    terms = drop_terms(section.to_record())
    if terms is None:
        raise ToolError(
            f"the withdrawal deadline for section {section_id} was {section.withdraw_deadline}; "
            "it can no longer be dropped"
        )
    share, fee, status = terms
    enrollment.status, enrollment.dropped_on = status, TODAY
    enrollment.grade = "W" if status == "withdrawn" else None
    db.save(enrollment)
    section.enrolled -= 1
    db.save(section)
    invoice = _term_invoice(db, student)
    lines = []
    if share:
        refund = cents(enrollment.tuition * share)
        lines.append({"description": f"Drop refund {section_id} ({int(share * 100)}%)", "amount": -refund})
    if fee:
        lines.append({"description": f"Late drop fee {section_id}", "amount": fee})
    invoice.items = [*invoice.items, *lines]
    _rebalance(db, invoice)
    return dump(
        {
            "enrollment": enrollment.to_record(),
            "refund_percent": int(share * 100),
            "late_drop_fee": fee,
            "invoice": invoice.to_record(),
        }
    )


@writes
async def swap_section(
    db: Store,
    student_id: StudentId,
    section_id: SectionId,
    new_section_id: Annotated[
        str, Field(description="The other section of the same course, e.g. 'CS201-03'.")
    ],
) -> str:
    """Move a student from a section they are enrolled in to another section of the same course this
    term (a different time or instructor). The new section must still be open to adds and have a
    free seat; tuition does not change and no fee applies. Returns the updated enrolment."""
    student_row(db, student_id)
    old, new = section_row(db, section_id), section_row(db, new_section_id)
    enrollment = _enrolled_in(db, student_id, section_id)
    if new.course_code != old.course_code or new.section_id == old.section_id:
        raise ToolError(f"section {new_section_id} is not another section of {old.course_code}")
    _open_seat(new)
    enrollment.section_id = new_section_id
    db.save(enrollment)
    old.enrolled -= 1
    new.enrolled += 1
    db.save(old)
    db.save(new)
    return dump({"enrollment": enrollment.to_record()})


# ------------------------------------------------------------------------------------------- money


@writes
async def make_payment(
    db: Store,
    student_id: StudentId,
    invoice_id: InvoiceId,
    method_id: MethodId,
    amount: Annotated[float, Field(description="Dollars to pay, at most the balance due, e.g. 250.0.")],
) -> str:
    """Pay some or all of an invoice's balance with a card or bank account on file. Paying off every
    overdue balance lifts the student's financial hold. Returns the payment and the invoice."""
    student = student_row(db, student_id)
    invoice = _own_invoice(db, student, invoice_id)
    _method(student, method_id)
    if amount <= 0:
        raise ToolError("the amount must be positive")
    if invoice.balance <= 0:
        raise ToolError(f"invoice {invoice_id} has no balance due")
    if cents(amount) > invoice.balance:
        raise ToolError(f"the amount {cents(amount):.2f} exceeds the balance due of {invoice.balance:.2f}")
    payment = Payment(
        payment_id=db.next_id(Payment, "PAY"),
        student_id=student_id,
        invoice_id=invoice_id,
        kind="payment",
        amount=cents(amount),
        method_id=method_id,
        date=TODAY,
    )
    db.save(payment)
    invoice.amount_paid = cents(invoice.amount_paid + amount)
    _rebalance(db, invoice)
    overdue = db.scan(Invoice, Invoice.student_id == student_id, Invoice.status == "overdue")
    if not overdue and any(h["type"] == "financial" for h in student.holds):
        student.holds = [h for h in student.holds if h["type"] != "financial"]
        db.save(student)
    return dump({"payment": payment.to_record(), "invoice": invoice.to_record(), "holds": student.holds})


@writes
async def refund_credit_balance(
    db: Store, student_id: StudentId, invoice_id: InvoiceId, method_id: MethodId
) -> str:
    """Pay out the whole credit balance of an invoice (a negative balance) by direct deposit to a bank
    account on file. Returns the refund and the invoice, whose balance is then zero."""
    student = student_row(db, student_id)
    invoice = _own_invoice(db, student, invoice_id)
    method = _method(student, method_id)
    if invoice.balance >= 0:
        raise ToolError(f"invoice {invoice_id} has no credit balance to refund")
    if method["type"] != "bank_account":
        raise ToolError("credit balances are refunded only to a bank account on file, not to a card")
    refund = Payment(
        payment_id=db.next_id(Payment, "PAY"),
        student_id=student_id,
        invoice_id=invoice_id,
        kind="refund",
        amount=invoice.balance,
        method_id=method_id,
        date=TODAY,
    )
    db.save(refund)
    invoice.amount_paid = cents(invoice.amount_paid + invoice.balance)
    _rebalance(db, invoice)
    return dump({"refund": refund.to_record(), "invoice": invoice.to_record()})


# ------------------------------------------------------------------------------------- transcripts


@writes
async def request_transcript(
    db: Store,
    student_id: StudentId,
    copies: Annotated[int, Field(description="Number of official copies, 1 to 5.")],
    delivery: Annotated[
        Literal["electronic", "mail"], Field(description="Electronic (PDF by email) or mail.")
    ],
    recipient: Annotated[
        str, Field(description="Recipient's email (electronic) or full postal address (mail).")
    ],
    method_id: Annotated[str, Field(description="A card on file that pays the fee, e.g. 'card_4821'.")],
) -> str:
    """Order official transcripts. Fees: 8 dollars a copy electronic, 12 dollars a copy by mail,
    charged at once to a card on file. Blocked by a financial hold. Returns the request."""
    student = student_row(db, student_id)
    if not 1 <= copies <= MAX_TRANSCRIPT_COPIES:
        raise ToolError(f"a request is for 1 to {MAX_TRANSCRIPT_COPIES} copies")
    for hold in blocking(student.holds, TRANSCRIPT_BLOCKING_HOLDS):
        raise ToolError(f"transcripts are blocked by a {hold['type']} hold: {hold['reason']}")
    if not completed(db, student_id):
        raise ToolError(f"student {student_id} has no completed coursework to put on a transcript")
    if ("@" in recipient) != (delivery == "electronic"):
        raise ToolError("electronic delivery needs an email address, mail delivery a postal address")
    if _method(student, method_id)["type"] != "card":
        raise ToolError("transcript fees are paid by card only")
    request = TranscriptRequest(
        request_id=db.next_id(TranscriptRequest, "TR"),
        student_id=student_id,
        copies=copies,
        delivery=delivery,
        recipient=recipient,
        fee=cents(copies * TRANSCRIPT_FEE[delivery]),
        method_id=method_id,
        status="processing",
        requested_on=TODAY,
    )
    db.save(request)
    return dump(request.to_record())


@ends_conversation
async def transfer_to_human_agents(
    db: Store,
    summary: Annotated[str, Field(description="Short summary of the student's request for the human agent.")],
) -> str:
    """Hand the student over to a human staff member; the conversation ends here. Use it only when
    the student asks for a person or the request is outside what these tools and the policy allow
    (grade appeals, hold disputes, prerequisite waivers, tuition exceptions)."""
    return "Transfer successful"


TOOLS = [
    calculate,
    drop_section,
    find_student,
    get_academic_record,
    get_course_details,
    get_invoice_details,
    get_section_details,
    get_student_details,
    list_student_enrollments,
    make_payment,
    refund_credit_balance,
    register_for_section,
    request_transcript,
    swap_section,
    think,
    transfer_to_human_agents,
]
