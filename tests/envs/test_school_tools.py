"""School tools: every tool's success path and each of its error paths (a failed call changes
nothing), the policy's numbers (tuition, refund shares, fees) and what the reads return."""

from __future__ import annotations

import json
from typing import Any

import pytest

from taue.contracts.tasks import Action
from taue.envs.school import DOMAIN
from taue.envs.school.policy_check import check_policy
from taue.envs.school.rules import TODAY, drop_terms
from taue.envs.school.seed_view import View, load
from tests.envs.tool_harness import ToolHarness

TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails
db = TOOLS.database_fixture()


@pytest.fixture(scope="module")
def view() -> View:
    return load(DOMAIN.seed)


def state(database) -> dict[str, Any]:
    return json.loads(database.canonical_state())


def first(items, what: str = "a fitting record"):
    for item in items:
        return item
    raise LookupError(what)


def registrable(view: View) -> tuple[str, str]:
    """(student, section) a registration succeeds for."""
    for student_id in sorted(view.students):
        if not view.may_register(student_id):
            continue
        for section_id, section in sorted(view.sections.items()):
            course = view.courses[section["course_code"]]
            if (
                view.open_to_adds(section)
                and view.seats_left(section) > 0
                and set(course["prerequisites"]) <= view.passed(student_id)
                and course["course_code"] not in {e["course_code"] for e in view.current(student_id)}
                and course["credits"] <= view.room(student_id)
            ):
                return student_id, section_id
    raise LookupError("registrable")


def enrolled_in(view: View, fits) -> tuple[str, str]:
    """(student, section) of an enrolment whose section fits."""
    return first(
        (
            (e["student_id"], e["section_id"])
            for _, e in sorted(view.enrollments.items())
            if e["status"] == "enrolled" and fits(view.sections[e["section_id"]])
        ),
    )


def invoice_where(view: View, fits) -> dict[str, Any]:
    return first(i for _, i in sorted(view.invoices.items()) if fits(i))


def method_of(view: View, student_id: str, kind: str) -> str | None:
    found = view.methods(student_id, kind)
    return found[0][0] if found else None


# ------------------------------------------------------------------------------------ identification


async def test_find_student_by_id_or_email_with_birth_date(db, view):
    student_id, student = sorted(view.students.items())[0]
    dob = student["date_of_birth"]
    assert await ok(db, "find_student", date_of_birth=dob, student_id=student_id) == student_id
    assert await ok(db, "find_student", date_of_birth=dob, email=student["email"].upper()) == student_id


async def test_find_student_errors(db, view):
    student_id, student = sorted(view.students.items())[0]
    await fails(
        db,
        "find_student",
        "no student matches these details",
        date_of_birth="1900-01-01",
        student_id=student_id,
    )
    await fails(
        db,
        "find_student",
        "no student matches these details",
        date_of_birth=student["date_of_birth"],
        email="nobody@northvale.edu",
    )
    await fails(
        db,
        "find_student",
        "no student matches these details",
        date_of_birth="2000-01-01",
        student_id="N0000000",
    )
    await fails(
        db,
        "find_student",
        "give the student id or the email, with the date of birth",
        date_of_birth=student["date_of_birth"],
    )


# ------------------------------------------------------------------------------------------- reads


async def test_student_details_show_limits_holds_and_credits(db, view):
    student_id = first(
        s for s, r in sorted(view.students.items()) if r["holds"] and r["standing"] == "probation"
    )
    details = json.loads(await ok(db, "get_student_details", student_id=student_id))
    assert details["holds"] == view.students[student_id]["holds"]
    assert details["credit_limit"] in (9, 12)
    assert details["current_term_credits"] == view.credits(student_id)
    await fails(db, "get_student_details", "student N0000000 not found", student_id="N0000000")


async def test_enrollments_academic_record_and_gpa(db, view):
    student_id = first(s for s in sorted(view.students) if view.completed(s) and view.current(s))
    listed = json.loads(await ok(db, "list_student_enrollments", student_id=student_id))
    assert {e["section_id"] for e in listed["enrollments"] if e["status"] == "enrolled"} == {
        e["section_id"] for e in view.current(student_id)
    }
    record = json.loads(await ok(db, "get_academic_record", student_id=student_id))
    assert record["cumulative_gpa"] == view.cumulative_gpa(student_id)
    grades = {(c["course_code"], t["term"]): c["grade"] for t in record["terms"] for c in t["courses"]}
    assert grades == {(e["course_code"], e["term"]): e["grade"] for e in view.completed(student_id)}
    await fails(db, "list_student_enrollments", "student N1 not found", student_id="N1")
    await fails(db, "get_academic_record", "student N1 not found", student_id="N1")


async def test_course_section_and_invoice_reads(db, view):
    course = json.loads(await ok(db, "get_course_details", course_code="CS310"))
    assert course["prerequisites"] == ["CS201", "CS150"] and course["credits"] == 3
    assert [s["section_id"] for s in course["sections"]] == [
        s["section_id"] for s in view.sections_of("CS310")
    ]
    section_id, section = sorted(view.sections.items())[0]
    shown = json.loads(await ok(db, "get_section_details", section_id=section_id))
    assert shown["seats_left"] == section["capacity"] - section["enrolled"]
    assert shown["drop_deadline"] == section["drop_deadline"]
    invoice = invoice_where(view, lambda i: i["amount_paid"] > 0)
    details = json.loads(await ok(db, "get_invoice_details", invoice_id=invoice["invoice_id"]))
    assert details["balance"] == invoice["balance"]
    assert round(sum(p["amount"] for p in details["payments"]), 2) == invoice["amount_paid"]
    await fails(db, "get_course_details", "course XX999 not found", course_code="XX999")
    await fails(
        db, "get_section_details", "section XX999-01 not found in the 2025FA term", section_id="XX999-01"
    )
    await fails(db, "get_invoice_details", "invoice INV-0 not found", invoice_id="INV-0")


# ------------------------------------------------------------------------------------ registration


async def test_register_charges_tuition_and_takes_a_seat(db, view):
    student_id, section_id = registrable(view)
    section, student = view.sections[section_id], view.students[student_id]
    credits = view.courses[section["course_code"]]["credits"]
    result = json.loads(await ok(db, "register_for_section", student_id=student_id, section_id=section_id))
    rate = 420.0 if student["level"] == "undergraduate" else 650.0
    assert result["enrollment"]["tuition"] == credits * rate and result["enrollment"]["status"] == "enrolled"
    after = json.loads(await ok(db, "get_section_details", section_id=section_id))
    assert after["enrolled"] == section["enrolled"] + 1
    invoice = json.loads(await ok(db, "get_invoice_details", invoice_id=result["invoice_id"]))
    assert invoice["items"][-1]["amount"] == credits * rate
    assert (
        check_policy(
            view,
            Action(
                name="register_for_section", arguments={"student_id": student_id, "section_id": section_id}
            ),
        )
        == []
    )


async def test_first_registration_of_the_term_opens_an_invoice(db, view):
    student_id = first(
        s
        for s in sorted(view.students)
        if view.may_register(s) and not any(i["term"] == "2025FA" for i in view.invoices_of(s))
    )
    section_id = first(
        sid
        for sid, s in sorted(view.sections.items())
        if view.open_to_adds(s)
        and view.seats_left(s) > 0
        and set(view.courses[s["course_code"]]["prerequisites"]) <= view.passed(student_id)
        and view.courses[s["course_code"]]["credits"] <= view.room(student_id)
    )
    result = json.loads(await ok(db, "register_for_section", student_id=student_id, section_id=section_id))
    details = json.loads(await ok(db, "get_student_details", student_id=student_id))
    assert result["invoice_id"] in details["invoice_ids"]
    invoice = json.loads(await ok(db, "get_invoice_details", invoice_id=result["invoice_id"]))
    assert [line["amount"] for line in invoice["items"][:2]] == [85.0, 120.0]


async def test_registration_refusals(db, view):
    student_id, section_id = registrable(view)
    closed = first(s for s, r in sorted(view.sections.items()) if not view.open_to_adds(r))
    await fails(
        db,
        "register_for_section",
        f"the add deadline for section {closed} was {view.sections[closed]['add_deadline']}",
        student_id=student_id,
        section_id=closed,
    )
    full = first(
        s for s, r in sorted(view.sections.items()) if view.open_to_adds(r) and view.seats_left(r) <= 0
    )
    capacity = view.sections[full]["capacity"]
    await fails(
        db,
        "register_for_section",
        f"section {full} is full ({capacity} seats)",
        student_id=student_id,
        section_id=full,
    )
    student_id, taking, other = first(
        (e["student_id"], e["course_code"], s["section_id"])
        for _, e in sorted(view.enrollments.items())
        if e["status"] == "enrolled" and view.may_register(e["student_id"])
        for s in view.sections_of(e["course_code"])
        if view.open_to_adds(s) and view.seats_left(s) > 0
    )
    await fails(
        db,
        "register_for_section",
        f"student {student_id} is already enrolled in {taking} this term",
        student_id=student_id,
        section_id=other,
    )
    await fails(db, "register_for_section", "student N1 not found", student_id="N1", section_id=section_id)
    await fails(
        db,
        "register_for_section",
        "section CS999-01 not found in the 2025FA term",
        student_id=student_id,
        section_id="CS999-01",
    )


async def test_registration_needs_prerequisites_and_room_for_the_credits(db, view):
    newcomer = first(s for s in sorted(view.students) if view.may_register(s) and not view.completed(s))
    section = first(
        s
        for _, s in sorted(view.sections.items())
        if view.open_to_adds(s) and view.seats_left(s) > 0 and view.courses[s["course_code"]]["prerequisites"]
    )
    course = view.courses[section["course_code"]]
    await fails(
        db,
        "register_for_section",
        f"missing prerequisites for {course['course_code']}: "
        f"{', '.join(course['prerequisites'])} (each passed with C- or better)",
        student_id=newcomer,
        section_id=section["section_id"],
    )
    open_intro = [
        s
        for s in view.sections.values()
        if view.open_to_adds(s)
        and view.seats_left(s) > 0
        and not view.courses[s["course_code"]]["prerequisites"]
    ]
    for student_id in sorted(view.students):
        taking = {e["course_code"] for e in view.current(student_id)}
        fits = [
            s
            for s in open_intro
            if s["course_code"] not in taking
            and view.courses[s["course_code"]]["credits"] > view.room(student_id)
        ]
        if view.may_register(student_id) and fits:
            credits = view.credits(student_id) + view.courses[fits[0]["course_code"]]["credits"]
            limit = view.room(student_id) + view.credits(student_id)
            await fails(
                db,
                "register_for_section",
                f"adding {fits[0]['course_code']} would bring the term to "
                f"{credits} credits, above the limit of {limit}",
                student_id=student_id,
                section_id=fits[0]["section_id"],
            )
            return
    pytest.fail("no student near the credit limit")


async def test_holds_and_leave_block_registration(db, view):
    _, section_id = registrable(view)
    held = first(s for s, r in sorted(view.students.items()) if r["holds"] and r["status"] == "active")
    hold = view.students[held]["holds"][0]
    await fails(
        db,
        "register_for_section",
        f"registration is blocked by a {hold['type']} hold: {hold['reason']}",
        student_id=held,
        section_id=section_id,
    )
    away = first(s for s, r in sorted(view.students.items()) if r["status"] == "on_leave")
    await fails(
        db,
        "register_for_section",
        f"student {away} is on leave and cannot register",
        student_id=away,
        section_id=section_id,
    )


# -------------------------------------------------------------------------------------------- drops


@pytest.mark.parametrize(
    ("session", "share", "fee", "status"),
    [
        ("late_start", 1.0, 0.0, "dropped"),
        ("full", 0.5, 50.0, "withdrawn"),
        ("early", 0.0, 50.0, "withdrawn"),
    ],
)
async def test_drop_refunds_by_date(db, view, session, share, fee, status):
    student_id, section_id = enrolled_in(view, lambda s: s["session"] == session)
    assert drop_terms(view.sections[section_id]) == (share, fee, status)
    enrollment = first(e for e in view.current(student_id) if e["section_id"] == section_id)
    result = json.loads(await ok(db, "drop_section", student_id=student_id, section_id=section_id))
    assert result["enrollment"]["status"] == status and result["enrollment"]["dropped_on"] == TODAY
    assert result["enrollment"]["grade"] == ("W" if status == "withdrawn" else None)
    assert result["refund_percent"] == int(share * 100) and result["late_drop_fee"] == fee
    change = sum(
        line["amount"] for line in result["invoice"]["items"][-2:] if section_id in line["description"]
    )
    assert change == round(fee - enrollment["tuition"] * share, 2)
    section = json.loads(await ok(db, "get_section_details", section_id=section_id))
    assert section["enrolled"] == view.sections[section_id]["enrolled"] - 1


async def test_drop_refusals(db, view):
    student_id, section_id = enrolled_in(view, lambda s: drop_terms(s) is None)
    deadline = view.sections[section_id]["withdraw_deadline"]
    await fails(
        db,
        "drop_section",
        f"the withdrawal deadline for section {section_id} was {deadline}; it can no longer be dropped",
        student_id=student_id,
        section_id=section_id,
    )
    other = first(
        s for s in sorted(view.sections) if s not in {e["section_id"] for e in view.current(student_id)}
    )
    await fails(
        db,
        "drop_section",
        f"student {student_id} is not enrolled in section {other}",
        student_id=student_id,
        section_id=other,
    )
    await fails(db, "drop_section", "student N1 not found", student_id="N1", section_id=section_id)


# -------------------------------------------------------------------------------------------- swaps


def swappable(view: View, open_new: bool = True) -> tuple[str, str, str]:
    for _, enrollment in sorted(view.enrollments.items()):
        if enrollment["status"] != "enrolled" or enrollment["term"] != "2025FA":
            continue
        for other in view.sections_of(enrollment["course_code"]):
            opened = view.open_to_adds(other) and view.seats_left(other) > 0
            if other["section_id"] != enrollment["section_id"] and opened == open_new:
                return enrollment["student_id"], enrollment["section_id"], other["section_id"]
    raise LookupError("swap")


async def test_swap_moves_the_seat_and_keeps_tuition(db, view):
    student_id, old, new = swappable(view)
    result = json.loads(
        await ok(db, "swap_section", student_id=student_id, section_id=old, new_section_id=new)
    )
    assert result["enrollment"]["section_id"] == new
    for section_id, change in ((old, -1), (new, 1)):
        shown = json.loads(await ok(db, "get_section_details", section_id=section_id))
        assert shown["enrolled"] == view.sections[section_id]["enrolled"] + change
    assert state(db)["invoices"] == json.loads(DOMAIN.new_database().canonical_state())["invoices"]


async def test_swap_refusals(db, view):
    student_id, old, new = swappable(view)
    other_course = first(
        s
        for s in sorted(view.sections)
        if view.sections[s]["course_code"] != view.sections[old]["course_code"]
    )
    await fails(
        db,
        "swap_section",
        f"section {other_course} is not another section of {view.sections[old]['course_code']}",
        student_id=student_id,
        section_id=old,
        new_section_id=other_course,
    )
    await fails(
        db,
        "swap_section",
        f"section {old} is not another section of {view.sections[old]['course_code']}",
        student_id=student_id,
        section_id=old,
        new_section_id=old,
    )
    await fails(
        db,
        "swap_section",
        f"student {student_id} is not enrolled in section {other_course}",
        student_id=student_id,
        section_id=other_course,
        new_section_id=new,
    )
    student_id, old, closed = swappable(view, open_new=False)
    section = view.sections[closed]
    message = (
        f"the add deadline for section {closed} was {section['add_deadline']}"
        if section["add_deadline"] < TODAY
        else f"section {closed} is full ({section['capacity']} seats)"
    )
    await fails(db, "swap_section", message, student_id=student_id, section_id=old, new_section_id=closed)
