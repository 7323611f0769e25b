"""Telehealth appointment writes: scheduling, rescheduling and cancelling, their published checks and
messages, and that a failed call writes nothing."""

from __future__ import annotations

from datetime import date, timedelta

from taue.envs.telehealth import DOMAIN
from taue.envs.telehealth.models import Appointment
from tests.envs.telehealth_helpers import (
    APPOINTMENTS,
    PATIENT_ID,
    PATIENTS,
    PROVIDERS,
    TODAY,
    TOOLS,
    appointment_where,
    fails,
    free_slot,
    off_day,
    ok,
    provider_of,
    state,
    weekday,
)

db = TOOLS.database_fixture()


# ----------------------------------------------------------------------------------------- scheduling


async def test_schedule_with_insurance_writes_the_published_record(db):
    specialist = provider_of("Cardiology")
    day, slot = free_slot(specialist)
    output = await ok(
        db,
        "schedule_appointment",
        patient_id=PATIENT_ID,
        provider_id=specialist,
        date=day,
        time=slot,
        appointment_type="specialist_consultation",
    )
    stored = state(db)["appointments"]["APPT215"]
    copay = PATIENTS[PATIENT_ID]["insurance"]["primary"]["copay_specialist"]
    assert {k: v for k, v in stored.items() if v is not None} == {
        "appointment_id": "APPT215",
        "patient_id": PATIENT_ID,
        "provider_id": specialist,
        "date": day,
        "time": slot,
        "duration_minutes": 30,
        "type": "specialist_consultation",
        "status": "scheduled",
        "notes": "",
        "insurance_authorization": "AUTH000215",
        "copay_amount": copay,
        "meeting_link": "https://telehealth.healthcenter.com/room/APPT215",
        "payment_method": "insurance",
        "insurance_billed": True,
    }
    assert isinstance(stored["copay_amount"], float) and stored["chief_complaint"] is None
    record = next(r for r in [Appointment(**stored)]).to_record()
    assert "voucher_id" in record and record["voucher_id"] is None and "chief_complaint" not in record
    assert "Appointment ID: APPT215" in output and f"Copay: ${copay:.2f}" in output


async def test_schedule_ids_count_up_over_both_id_families(db):
    gp = provider_of("Primary Care")
    day, slot = free_slot(gp)
    await ok(
        db,
        "schedule_appointment",
        patient_id=PATIENT_ID,
        provider_id=gp,
        date=day,
        time=slot,
        appointment_type="routine_checkup",
    )
    with db.transaction() as store:
        store.save(
            Appointment(
                **{**APPOINTMENTS["APPT001"], "appointment_id": "APPT_tracer_900", "status": "cancelled"}
            )
        )
        store.save(
            Appointment(
                **{**APPOINTMENTS["APPT001"], "appointment_id": "APPT_other_990", "status": "cancelled"}
            )
        )
    day2, slot2 = free_slot(gp, (date.fromisoformat(day) + timedelta(days=1)).isoformat())
    await ok(
        db,
        "schedule_appointment",
        patient_id=PATIENT_ID,
        provider_id=gp,
        date=day2,
        time=slot2,
        appointment_type="routine_checkup",
    )
    appointments = state(db)["appointments"]
    assert (
        appointments["APPT215"]["copay_amount"]
        == PATIENTS[PATIENT_ID]["insurance"]["primary"]["copay_primary"]
    )
    assert appointments["APPT901"]["insurance_authorization"] == "AUTH000901"


async def test_schedule_without_insurance_uses_voucher_or_self_pay(db):
    gp = provider_of("Primary Care")
    day, slot = free_slot(gp)
    output = await ok(
        db,
        "schedule_appointment",
        patient_id=PATIENT_ID,
        provider_id=gp,
        date=day,
        time=slot,
        appointment_type="routine_checkup",
        bill_insurance=False,
        voucher_id="TV-1",
        payment_notes="employer voucher",
    )
    voucher = state(db)["appointments"]["APPT215"]
    assert (voucher["payment_method"], voucher["voucher_id"], voucher["insurance_billed"]) == (
        "telehealth_voucher",
        "TV-1",
        False,
    )
    assert voucher["copay_amount"] == 0.0 and voucher["insurance_authorization"] is None
    assert voucher["notes"] == "employer voucher" and "Amount Due Now: $0.00" in output
    day2, slot2 = free_slot(gp, (date.fromisoformat(day) + timedelta(days=1)).isoformat())
    await ok(
        db,
        "schedule_appointment",
        patient_id=PATIENT_ID,
        provider_id=gp,
        date=day2,
        time=slot2,
        appointment_type="sick_visit",
        bill_insurance=None,
        voucher_id="",
    )
    self_pay = state(db)["appointments"]["APPT216"]
    assert (self_pay["payment_method"], self_pay["voucher_id"]) == ("self_pay", "")
    assert Appointment(**self_pay).to_record()["voucher_id"] == ""


async def test_schedule_with_insurance_ignores_a_voucher(db):
    gp = provider_of("Primary Care")
    day, slot = free_slot(gp)
    await ok(
        db,
        "schedule_appointment",
        patient_id=PATIENT_ID,
        provider_id=gp,
        date=day,
        time=slot,
        appointment_type="follow_up",
        voucher_id="TV-9",
    )
    stored = state(db)["appointments"]["APPT215"]
    assert stored["voucher_id"] is None and stored["payment_method"] == "insurance"


async def test_schedule_errors_in_published_order_write_nothing(db):
    gp = provider_of("Primary Care")
    day, slot = free_slot(gp)
    base = {
        "patient_id": PATIENT_ID,
        "provider_id": gp,
        "date": day,
        "time": slot,
        "appointment_type": "follow_up",
    }
    await fails(
        db,
        "schedule_appointment",
        "Patient with ID ghost not found.",
        **{**base, "patient_id": "ghost", "provider_id": "ghost"},
    )
    await fails(
        db, "schedule_appointment", "Provider with ID ghost not found.", **{**base, "provider_id": "ghost"}
    )
    await fails(
        db,
        "schedule_appointment",
        "Invalid date format: 12/01/2025. Please use YYYY-MM-DD format.",
        **{**base, "date": "12/01/2025"},
    )
    closed = off_day(gp)
    await fails(
        db,
        "schedule_appointment",
        f"Provider {gp} does not work on {date.fromisoformat(closed).strftime('%A')}.",
        **{**base, "date": closed},
    )
    slots = PROVIDERS[gp]["schedule"][weekday(day)]
    await fails(
        db,
        "schedule_appointment",
        f"Provider {gp} is not available at 03:00 on {date.fromisoformat(day).strftime('%A')}. "
        f"Available times: {', '.join(slots)}",
        **{**base, "time": "03:00"},
    )
    await ok(db, "schedule_appointment", **base)
    await fails(
        db,
        "schedule_appointment",
        f"Provider {gp} already has an appointment scheduled at {slot} on {day}.",
        **{**base, "patient_id": sorted(PATIENTS)[9]},
    )


async def test_only_active_appointments_block_a_slot(db):
    taken = appointment_where(lambda a: a["status"] == "pending_approval")
    base = {
        "patient_id": PATIENT_ID,
        "provider_id": taken["provider_id"],
        "date": taken["date"],
        "time": taken["time"],
        "appointment_type": "follow_up",
    }
    await fails(
        db,
        "schedule_appointment",
        f"Provider {taken['provider_id']} already has an appointment scheduled at {taken['time']} on "
        f"{taken['date']}.",
        **base,
    )
    await ok(db, "cancel_appointment", appointment_id=taken["appointment_id"])
    await ok(db, "schedule_appointment", **base)


# ----------------------------------------------------------------------------------- rescheduling


async def test_reschedule_changes_only_date_and_time(db):
    visit = appointment_where(lambda a: a["status"] == "scheduled")
    day, slot = free_slot(visit["provider_id"], "2026-01-05")
    output = await ok(
        db, "reschedule_appointment", appointment_id=visit["appointment_id"], new_date=day, new_time=slot
    )
    stored = state(db)["appointments"][visit["appointment_id"]]
    assert Appointment(**stored).to_record() == {**visit, "date": day, "time": slot}
    assert f"Previous: {visit['date']} at {visit['time']}" in output and visit["meeting_link"] in output


async def test_reschedule_to_its_own_slot_and_pending_visits(db):
    visit = appointment_where(lambda a: a["status"] == "pending_approval")
    before = db.canonical_state()
    await ok(
        db,
        "reschedule_appointment",
        appointment_id=visit["appointment_id"],
        new_date=visit["date"],
        new_time=visit["time"],
    )
    assert db.canonical_state() == before
    day, slot = free_slot(visit["provider_id"], "2026-01-05")
    await ok(
        db, "reschedule_appointment", appointment_id=visit["appointment_id"], new_date=day, new_time=slot
    )
    assert state(db)["appointments"][visit["appointment_id"]]["status"] == "pending_approval"


async def test_reschedule_errors_write_nothing(db):
    cancelled = appointment_where(lambda a: a["status"] == "cancelled")["appointment_id"]
    completed = appointment_where(lambda a: a["status"] == "completed")["appointment_id"]
    visit = appointment_where(lambda a: a["status"] == "scheduled")
    vid, pid = visit["appointment_id"], visit["provider_id"]
    await fails(
        db,
        "reschedule_appointment",
        "Appointment with ID APPT999 not found.",
        appointment_id="APPT999",
        new_date="2025-12-01",
        new_time="09:00",
    )
    await fails(
        db,
        "reschedule_appointment",
        f"Cannot reschedule appointment {cancelled} - appointment has been cancelled.",
        appointment_id=cancelled,
        new_date="x",
        new_time="x",
    )
    await fails(
        db,
        "reschedule_appointment",
        f"Cannot reschedule appointment {completed} - appointment has already been completed.",
        appointment_id=completed,
        new_date="x",
        new_time="x",
    )
    await fails(
        db,
        "reschedule_appointment",
        "Invalid date format: 2025-13-01. Please use YYYY-MM-DD format.",
        appointment_id=vid,
        new_date="2025-13-01",
        new_time="09:00",
    )
    closed = off_day(pid)
    await fails(
        db,
        "reschedule_appointment",
        f"Provider {pid} does not work on {date.fromisoformat(closed).strftime('%A')}.",
        appointment_id=vid,
        new_date=closed,
        new_time="09:00",
    )


async def test_reschedule_conflicts_with_another_visit(db):
    visit = appointment_where(lambda a: a["status"] == "scheduled")
    day, slot = free_slot(visit["provider_id"], "2026-01-05")
    await ok(
        db,
        "schedule_appointment",
        patient_id=PATIENT_ID,
        provider_id=visit["provider_id"],
        date=day,
        time=slot,
        appointment_type="follow_up",
    )
    await fails(
        db,
        "reschedule_appointment",
        f"Provider {visit['provider_id']} already has an appointment scheduled at {slot} on {day}.",
        appointment_id=visit["appointment_id"],
        new_date=day,
        new_time=slot,
    )


async def test_reschedule_without_meeting_link_rolls_back(db):
    """The published tool writes the new slot and then fails reading the missing link; ours writes nothing."""
    visit = appointment_where(lambda a: a["status"] == "scheduled")
    with db.transaction() as store:
        row = store.get(Appointment, visit["appointment_id"])
        row.meeting_link = None
        store.save(row)
    day, slot = free_slot(visit["provider_id"], "2026-01-05")
    await fails(
        db,
        "reschedule_appointment",
        "'meeting_link'",
        appointment_id=visit["appointment_id"],
        new_date=day,
        new_time=slot,
    )


# ------------------------------------------------------------------------------------- cancelling


async def test_cancel_stamps_the_simulated_clock_date(db):
    visit = appointment_where(lambda a: a["status"] == "pending_approval")
    output = await ok(db, "cancel_appointment", appointment_id=visit["appointment_id"])
    stored = Appointment(**state(db)["appointments"][visit["appointment_id"]]).to_record()
    assert stored == {
        **visit,
        "status": "cancelled",
        "cancellation_reason": "patient_cancelled",
        "cancellation_date": TODAY,
    }
    assert (
        TODAY == "2025-11-24"
        and "Reason: Patient Cancelled" in output
        and f"Cancellation Date: {TODAY}" in output
    )


async def test_cancel_is_deterministic_across_episodes():
    visit = appointment_where(lambda a: a["status"] == "scheduled")
    hashes = []
    for _ in range(2):
        database = DOMAIN.new_database()
        await ok(database, "cancel_appointment", appointment_id=visit["appointment_id"])
        hashes.append(database.state_hash())
        database.close()
    assert hashes[0] == hashes[1]


async def test_cancel_errors_write_nothing(db):
    cancelled = appointment_where(lambda a: a["status"] == "cancelled")["appointment_id"]
    completed = appointment_where(lambda a: a["status"] == "completed")["appointment_id"]
    await fails(db, "cancel_appointment", "Appointment with ID nope not found.", appointment_id="nope")
    await fails(
        db, "cancel_appointment", f"Appointment {cancelled} is already cancelled.", appointment_id=cancelled
    )
    await fails(
        db,
        "cancel_appointment",
        f"Cannot cancel appointment {completed} - appointment has already been completed.",
        appointment_id=completed,
    )
