"""Telehealth tools: published names, parameters, write semantics and quirks; failed writes change nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from taue.envs.telehealth import DOMAIN
from taue.envs.telehealth.generate import generate
from taue.envs.telehealth.models import WEEKDAYS, Appointment, MedicalRecord, Patient, Provider
from tests.envs.tool_harness import ToolHarness

Record = dict[str, Any]
ROWS = generate(DOMAIN.seed)
PATIENTS: dict[str, Record] = {r.patient_id: r.to_record() for r in ROWS if isinstance(r, Patient)}
PROVIDERS: dict[str, Record] = {r.provider_id: r.to_record() for r in ROWS if isinstance(r, Provider)}
APPOINTMENTS: dict[str, Record] = {
    r.appointment_id: r.to_record() for r in ROWS if isinstance(r, Appointment)
}
RECORDS: dict[str, Record] = {r.record_id: r.to_record() for r in ROWS if isinstance(r, MedicalRecord)}
TODAY = DOMAIN.clock[:10]


TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails

db = TOOLS.database_fixture()


def state(db) -> dict[str, dict[Any, Record]]:
    keys = {
        "appointments": "appointment_id",
        "medical_records": "record_id",
        "patients": "patient_id",
        "providers": "provider_id",
        "regimen_plans": "patient_id",
        "medication_suppliers": "medication",
        "drug_interactions": "medication",
        "telemetry_inventory": "position",
        "telemetry_uploads": "position",
    }
    raw = json.loads(db.canonical_state())
    return {table: {row[keys[table]]: row for row in rows} for table, rows in raw.items()}


def appointment_where(predicate: Callable[[Record], bool]) -> Record:
    return next(a for _, a in sorted(APPOINTMENTS.items()) if predicate(a))


def weekday(day: str) -> str:
    return WEEKDAYS[date.fromisoformat(day).weekday()]


def busy(provider_id: str) -> set[tuple[str, str]]:
    return {
        (a["date"], a["time"])
        for a in APPOINTMENTS.values()
        if a["provider_id"] == provider_id and a["status"] in ("scheduled", "pending_approval")
    }


def free_slot(provider_id: str, after: str = "2025-12-01") -> tuple[str, str]:
    """The first free bookable (date, time) of a provider after `after`."""
    for offset in range(60):
        day = (date.fromisoformat(after) + timedelta(days=offset)).isoformat()
        for slot in PROVIDERS[provider_id]["schedule"].get(weekday(day), []):
            if (day, slot) not in busy(provider_id):
                return day, slot
    raise LookupError(provider_id)


def off_day(provider_id: str) -> str:
    days = PROVIDERS[provider_id]["schedule"]
    return next(
        d
        for d in (
            "2025-12-01",
            "2025-12-02",
            "2025-12-03",
            "2025-12-04",
            "2025-12-05",
            "2025-12-06",
            "2025-12-07",
        )
        if weekday(d) not in days
    )


def provider_of(specialty: str) -> str:
    return next(pid for pid, p in sorted(PROVIDERS.items()) if p["specialty"] == specialty)


PATIENT_ID = sorted(PATIENTS)[5]


# ------------------------------------------------------------------------------------------ interface

S, N, A, INT, B = "string", "number", "array", "integer", "boolean"
PUBLISHED_PARAMETERS: dict[str, dict[str, tuple[str, bool]]] = {
    "calculate": {"expression": (S, True)},
    "cancel_appointment": {"appointment_id": (S, True)},
    "check_drug_interactions": {"primary_medication": (S, True), "current_medications": (A, True)},
    "find_patient_by_email": {"email": (S, True)},
    "find_patient_by_name_dob": {"first_name": (S, True), "last_name": (S, True), "date_of_birth": (S, True)},
    "get_appointment_details": {"appointment_id": (S, True)},
    "get_medical_record": {"record_id": (S, False), "appointment_id": (S, False)},
    "get_patient_details": {"patient_id": (S, True)},
    "get_provider_details": {"provider_id": (S, True)},
    "get_regimen_options": {"patient_id": (S, True)},
    "get_telemetry_upload": {"device_id": (S, True), "date": (S, True)},
    "list_available_providers": {"specialty": (S, False)},
    "list_medication_suppliers": {
        "medication": (S, True),
        "country_filter": (S, False),
        "limit": (INT, False),
    },
    "list_patient_appointments": {"patient_id": (S, True), "status_filter": (S, False)},
    "list_patient_medical_records": {"patient_id": (S, True), "limit": (INT, False)},
    "list_telemetry_devices": {"status_filter": (S, False), "limit": (INT, False)},
    "list_telemetry_uploads": {
        "device_id": (S, True),
        "start_date": (S, False),
        "end_date": (S, False),
        "limit": (INT, False),
    },
    "reschedule_appointment": {"appointment_id": (S, True), "new_date": (S, True), "new_time": (S, True)},
    "schedule_appointment": {
        "patient_id": (S, True),
        "provider_id": (S, True),
        "date": (S, True),
        "time": (S, True),
        "appointment_type": (S, True),
        "bill_insurance": (B, False),
        "voucher_id": (S, False),
        "payment_notes": (S, False),
    },
    "think": {"thought": (S, True)},
    "transfer_to_human_support": {"reason": (S, True)},
    "update_medical_record_note": {"record_id": (S, True), "note": (S, True)},
    "update_prescription_supplier": {
        "record_id": (S, True),
        "medication": (S, True),
        "supplier_company": (S, True),
        "brand_name": (S, True),
        "price_usd": (N, True),
        "currency": (S, False),
    },
}


def json_type(schema: Record) -> str:
    """The JSON type of a parameter; an optional one is `<type> | null`."""
    if "type" in schema:
        return schema["type"]
    types = [option["type"] for option in schema["anyOf"] if option["type"] != "null"]
    assert len(types) == 1, schema
    return types[0]


def test_tools_match_the_published_interface():
    assert set(DOMAIN.mcp_tools) == set(PUBLISHED_PARAMETERS)
    for name, parameters in PUBLISHED_PARAMETERS.items():
        schema = DOMAIN.mcp_tools[name].parameters
        assert {k: json_type(v) for k, v in schema["properties"].items()} == {
            k: t for k, (t, _) in parameters.items()
        }, name
        assert sorted(schema.get("required", [])) == sorted(k for k, (_, req) in parameters.items() if req), (
            name
        )
        assert DOMAIN.mcp_tools[name].description, name
        for key, value in schema["properties"].items():
            assert value.get("description"), (name, key)
    assert DOMAIN.write_tools == {
        "schedule_appointment",
        "cancel_appointment",
        "reschedule_appointment",
        "update_prescription_supplier",
        "update_medical_record_note",
    }
    assert DOMAIN.terminal_tools == {"transfer_to_human_support"}
    properties = DOMAIN.mcp_tools["schedule_appointment"].parameters["properties"]
    assert properties["bill_insurance"]["default"] is True
    assert (
        DOMAIN.mcp_tools["update_prescription_supplier"].parameters["properties"]["currency"]["default"]
        == "USD"
    )
    items = DOMAIN.mcp_tools["check_drug_interactions"].parameters["properties"]["current_medications"][
        "items"
    ]
    assert items == {"type": "string"}


async def test_optional_arguments_accept_null_as_published_tasks_send_it(db):
    listing = await ok(db, "list_telemetry_devices", status_filter=None, limit=None)
    assert listing.startswith("Telemetry devices:") and len(listing.splitlines()) == 131


# ---------------------------------------------------------------------------------------------- reads


async def test_find_patient_by_email_is_exact_and_not_found_is_plain_text(db):
    patient_id, patient = next((k, p) for k, p in sorted(PATIENTS.items()) if p["demographics"]["email"])
    email = patient["demographics"]["email"]
    assert await ok(db, "find_patient_by_email", email=email) == patient_id
    assert (
        await ok(db, "find_patient_by_email", email=email.upper())
        == f"No patient found with email: {email.upper()}"
    )


async def test_an_empty_email_finds_the_first_patient_without_one(db):
    """Quirk kept: the published lookup matches '' against patients whose email is empty."""
    without = sorted(k for k, p in PATIENTS.items() if p["demographics"]["email"] == "")
    assert len(without) == 2
    assert await ok(db, "find_patient_by_email", email="") == without[0]


async def test_find_patient_by_name_and_date_of_birth(db):
    patient = PATIENTS[PATIENT_ID]
    name, dob = patient["name"], patient["demographics"]["date_of_birth"]
    found = await ok(
        db,
        "find_patient_by_name_dob",
        first_name=name["first_name"].upper(),
        last_name=name["last_name"].lower(),
        date_of_birth=dob,
    )
    assert found == PATIENT_ID
    missing = await ok(
        db,
        "find_patient_by_name_dob",
        first_name=name["first_name"],
        last_name=name["last_name"],
        date_of_birth="1900-01-01",
    )
    assert (
        missing == f"No patient found with name: {name['first_name']} {name['last_name']} and DOB: 1900-01-01"
    )


async def test_patient_and_provider_details(db):
    patient = PATIENTS[PATIENT_ID]
    text = await ok(db, "get_patient_details", patient_id=PATIENT_ID)
    plan = patient["insurance"]["primary"]
    assert f"(ID: {PATIENT_ID})" in text and patient["demographics"]["email"] in text
    assert f"Primary Care Copay: ${plan['copay_primary']:.2f}" in text
    assert f"Specialist Copay: ${plan['copay_specialist']:.2f}" in text
    assert await ok(db, "get_patient_details", patient_id="nobody") == "Patient with ID nobody not found."
    provider_id = provider_of("Cardiology")
    text = await ok(db, "get_provider_details", provider_id=provider_id)
    provider = PROVIDERS[provider_id]
    assert "Specialty: Cardiology" in text and f"${provider['consultation_fee']:.2f}" in text
    first_day = next(iter(provider["schedule"]))
    assert f"- {first_day.title()}: {', '.join(provider['schedule'][first_day])}" in text
    assert await ok(db, "get_provider_details", provider_id="dr_x") == "Provider with ID dr_x not found."


async def test_readers_show_missing_fields_instead_of_failing(db):
    """Deliberate difference: the published readers fail with Error: '<key>' on these records."""
    unlicensed = next(pid for pid, p in sorted(PROVIDERS.items()) if "license_number" not in p)
    assert "License Number: Not recorded" in await ok(db, "get_provider_details", provider_id=unlicensed)
    no_complaint = appointment_where(lambda a: "chief_complaint" not in a)
    text = await ok(db, "get_appointment_details", appointment_id=no_complaint["appointment_id"])
    assert "Chief Complaint: Not recorded" in text and no_complaint["meeting_link"] in text


async def test_list_available_providers_filters_case_insensitively(db):
    listing = await ok(db, "list_available_providers", specialty="device coaching")
    ids = [pid for pid, p in sorted(PROVIDERS.items()) if p["specialty"] == "Device Coaching"]
    assert listing.startswith("Available Providers - device coaching:")
    assert [line.split("(ID: ")[1].rstrip(")") for line in listing.splitlines() if "(ID: " in line] == ids
    assert (await ok(db, "list_available_providers")).count("(ID: ") == len(PROVIDERS)
    assert (
        await ok(db, "list_available_providers", specialty="Astrology")
        == "No providers found with specialty: Astrology"
    )


async def test_list_patient_appointments_in_date_order_with_filter(db):
    patient_id = next(
        pid for pid in sorted(PATIENTS) if sum(a["patient_id"] == pid for a in APPOINTMENTS.values()) >= 3
    )
    mine = sorted(
        (a for a in APPOINTMENTS.values() if a["patient_id"] == patient_id),
        key=lambda a: (a["date"], a["time"], a["appointment_id"]),
    )
    listing = await ok(db, "list_patient_appointments", patient_id=patient_id)
    assert [line.split(":")[0][2:] for line in listing.splitlines()[1:]] == [
        a["appointment_id"] for a in mine
    ]
    status = mine[0]["status"]
    filtered = await ok(db, "list_patient_appointments", patient_id=patient_id, status_filter=status.upper())
    assert len(filtered.splitlines()) - 1 == sum(a["status"] == status for a in mine)
    none = await ok(db, "list_patient_appointments", patient_id=patient_id, status_filter="nope")
    assert none == f"No appointments found for patient {patient_id} with status nope."
    assert await ok(db, "list_patient_appointments", patient_id="x") == "Patient with ID x not found."


async def test_medical_record_readers(db):
    record_id, record = next((k, r) for k, r in sorted(RECORDS.items()) if r["appointment_id"])
    by_id = await ok(db, "get_medical_record", record_id=record_id)
    by_visit = await ok(db, "get_medical_record", appointment_id=record["appointment_id"])
    assert by_id.startswith(f"Medical Record ID: {record_id}")
    assert by_visit.startswith("Medical Record ID: ") and f"Assessment: {record['assessment']}" in by_id
    assert (await ok(db, "get_medical_record")).startswith("Please provide either a record_id")
    assert (
        await ok(db, "get_medical_record", record_id="REC999") == "Medical record with ID REC999 not found."
    )
    assert await ok(db, "get_medical_record", appointment_id="APPT999") == (
        "No medical record found for appointment ID APPT999."
    )
    patient_id = next(
        pid for pid in sorted(PATIENTS) if sum(r["patient_id"] == pid for r in RECORDS.values()) >= 2
    )
    listing = (await ok(db, "list_patient_medical_records", patient_id=patient_id)).splitlines()[1:]
    dates = [line.split("date=")[1].split(" ")[0] for line in listing]
    assert dates == sorted(dates, reverse=True) and len(listing) >= 2
    assert (
        len((await ok(db, "list_patient_medical_records", patient_id=patient_id, limit=1)).splitlines()) == 2
    )
    assert (
        await ok(db, "list_patient_medical_records", patient_id="x")
        == "No medical records found for patient x."
    )


async def test_list_medication_suppliers_sorts_filters_and_limits(db):
    listing = await ok(db, "list_medication_suppliers", medication="atorvastatin")
    prices = [float(line.split("price_usd=")[1]) for line in listing.splitlines()[1:]]
    assert listing.startswith("Suppliers for Atorvastatin:") and prices == sorted(prices) and len(prices) >= 3
    country = listing.splitlines()[1].split("(")[1].split(")")[0]
    in_country = await ok(
        db, "list_medication_suppliers", medication="Atorvastatin", country_filter=country.lower()
    )
    assert all(f"({country})" in line for line in in_country.splitlines()[1:])
    assert (
        len((await ok(db, "list_medication_suppliers", medication="Atorvastatin", limit=2)).splitlines()) == 3
    )
    assert await ok(db, "list_medication_suppliers", medication="Atorvastatin", country_filter="Narnia") == (
        "No suppliers in Narnia for Atorvastatin."
    )
    assert (await ok(db, "list_medication_suppliers", medication="Unobtainium")).startswith(
        "No supplier information available for Unobtainium."
    )


async def test_check_drug_interactions_walks_both_passes(db):
    text = await ok(
        db,
        "check_drug_interactions",
        primary_medication="warfarin",
        current_medications=["aspirin", "Sertraline", "Tramadol", "Metformin"],
    )
    lines = text.splitlines()
    assert lines[0] == "Drug interaction analysis:"
    assert lines[1].startswith("Warfarin + Aspirin: severity=high, risk_score=9, overlap_hours=48.")
    assert lines[2].startswith("Warfarin + Sertraline: severity=moderate")
    assert lines[3].startswith("Sertraline + Tramadol: severity=high")  # pass 2, found in reverse direction
    assert "Medications to hold today: Aspirin, Tramadol" in lines
    assert "Emergency escalation required: Yes" in lines
    assert "Peak overlap risk window (hours): 48" in lines
    assert lines[-1] == "Highest severity interaction: Warfarin + Aspirin (high)"
    calm = await ok(
        db, "check_drug_interactions", primary_medication="Metformin", current_medications=["Lisinopril"]
    )
    assert calm.startswith("No documented high-risk interactions found for Metformin")


async def test_regimen_options_and_missing_plan(db):
    plan_owner = next(r.patient_id for r in ROWS if type(r).__tablename__ == "regimen_plans")
    text = await ok(db, "get_regimen_options", patient_id=plan_owner)
    assert text.startswith("Current regimen components:") and "Option 1: Lowest monthly cost" in text
    assert "Option 2: Simplified schedule" in text
    assert (
        await ok(db, "get_regimen_options", patient_id="x")
        == "No regimen optimization data available for patient x."
    )


async def test_telemetry_readers(db):
    devices = (await ok(db, "list_telemetry_devices", status_filter="DEPLOYED", limit=5)).splitlines()[1:]
    ids = [line.split(" | ")[0] for line in devices]
    assert len(ids) == 5 and ids == sorted(ids) and all("status=deployed" in line for line in devices)
    assert (
        await ok(db, "list_telemetry_devices", status_filter="lost")
        == "No telemetry devices with status lost."
    )
    upload = next(r.to_record() for r in ROWS if type(r).__tablename__ == "telemetry_uploads")
    device = upload["device_id"]
    window = json.loads(
        await ok(
            db, "list_telemetry_uploads", device_id=device, start_date=upload["date"], end_date=upload["date"]
        )
    )
    assert window == [upload]
    everything = json.loads(await ok(db, "list_telemetry_uploads", device_id=device))
    assert [u["date"] for u in everything] == sorted(u["date"] for u in everything) and len(everything) >= 7
    assert len(json.loads(await ok(db, "list_telemetry_uploads", device_id=device, limit=2))) == 2
    assert json.loads(await ok(db, "get_telemetry_upload", device_id=device, date=upload["date"])) == upload
    assert await ok(db, "get_telemetry_upload", device_id=device, date="1999-01-01") == (
        f"No telemetry upload found for device {device} on 1999-01-01."
    )
    assert await ok(db, "list_telemetry_uploads", device_id="nope") == (
        "No telemetry uploads found for device nope in the specified window."
    )


async def test_calculate_think_and_transfer(db):
    assert await ok(db, "calculate", expression="(30 + 15) / 2") == "22.5"
    assert await ok(db, "think", thought="check the schedule first") == ""
    handoff = await ok(db, "transfer_to_human_support", reason="cannot join the video room")
    assert "Reason: cannot join the video room" in handoff


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


# ----------------------------------------------------------------------------------- prescriptions


def record_with(predicate: Callable[[list[Record]], bool]) -> Record:
    return next(
        r for _, r in sorted(RECORDS.items()) if r.get("prescriptions") and predicate(r["prescriptions"])
    )


async def test_supplier_switch_replaces_supplier_and_pharmacy_only(db):
    record = record_with(
        lambda rx: any(isinstance(p.get("supplier"), dict) and "country" in p["supplier"] for p in rx)
    )
    index = next(i for i, p in enumerate(record["prescriptions"]) if isinstance(p.get("supplier"), dict))
    medication = record["prescriptions"][index]["medication"]
    output = json.loads(
        await ok(
            db,
            "update_prescription_supplier",
            record_id=record["record_id"],
            medication=f"  {medication.upper()} ",
            supplier_company="Acme Rx",
            brand_name="Acmelin",
            price_usd=3,
        )
    )
    stored = state(db)["medical_records"][record["record_id"]]
    expected = [dict(p) for p in record["prescriptions"]]
    expected[index].update(
        pharmacy="Acme Rx (Acmelin)",
        supplier={"company": "Acme Rx", "brand_name": "Acmelin", "price_usd": 3.0, "currency": "USD"},
    )
    assert stored["prescriptions"] == expected and isinstance(
        stored["prescriptions"][index]["supplier"]["price_usd"], float
    )
    assert output == MedicalRecord(**stored).to_record()
    assert {k: v for k, v in stored.items() if k != "prescriptions"} == {
        k: v for k, v in state(db)["medical_records"][record["record_id"]].items() if k != "prescriptions"
    }
    assert db.written == {"medical_records": {record["record_id"]}}


async def test_supplier_matching_by_prefix_either_way(db):
    record = record_with(lambda rx: rx[0]["medication"] == "Metoprolol Succinate" or len(rx) >= 2)
    first = record["prescriptions"][0]["medication"]
    await ok(
        db,
        "update_prescription_supplier",
        record_id=record["record_id"],
        medication=f"{first} 50mg",
        supplier_company="Longer Name Co",
        brand_name="B1",
        price_usd=1.5,
        currency="EUR",
    )
    assert (
        state(db)["medical_records"][record["record_id"]]["prescriptions"][0]["supplier"]["currency"] == "EUR"
    )
    await ok(
        db,
        "update_prescription_supplier",
        record_id=record["record_id"],
        medication="",
        supplier_company="Empty Match Co",
        brand_name="B2",
        price_usd=2.5,
    )
    assert (
        state(db)["medical_records"][record["record_id"]]["prescriptions"][0]["pharmacy"]
        == "Empty Match Co (B2)"
    )
    second = record["prescriptions"][1]["medication"] if len(record["prescriptions"]) > 1 else first
    await ok(
        db,
        "update_prescription_supplier",
        record_id=record["record_id"],
        medication=second[:4],
        supplier_company="Short Co",
        brand_name="B3",
        price_usd=4.0,
    )
    rx = state(db)["medical_records"][record["record_id"]]["prescriptions"]
    target = next(p for p in rx if p["medication"].lower().startswith(second[:4].lower()))
    assert target["pharmacy"] == "Short Co (B3)"


async def test_supplier_switch_on_duplicate_names_updates_the_later_prescription(db):
    record = record_with(lambda rx: len(rx) >= 2)
    duplicated = [dict(p) for p in record["prescriptions"]]
    duplicated[1]["medication"] = duplicated[0]["medication"].lower()
    with db.transaction() as store:
        row = store.get(MedicalRecord, record["record_id"])
        row.prescriptions = duplicated
        store.save(row)
    await ok(
        db,
        "update_prescription_supplier",
        record_id=record["record_id"],
        medication=duplicated[0]["medication"],
        supplier_company="Later Co",
        brand_name="L",
        price_usd=1.0,
    )
    rx = state(db)["medical_records"][record["record_id"]]["prescriptions"]
    assert rx[1]["pharmacy"] == "Later Co (L)" and rx[0] == duplicated[0]


async def test_supplier_switch_errors_write_nothing(db):
    without = next(k for k, r in sorted(RECORDS.items()) if r.get("prescriptions") is None)
    record = record_with(lambda rx: True)
    args = {"supplier_company": "X", "brand_name": "Y", "price_usd": 1.0}
    await fails(
        db,
        "update_prescription_supplier",
        "medical record not found",
        record_id="REC999",
        medication="A",
        **args,
    )
    await fails(
        db,
        "update_prescription_supplier",
        "medical record has no prescriptions",
        record_id=without,
        medication="A",
        **args,
    )
    await fails(
        db,
        "update_prescription_supplier",
        f"medication Zzz not found in record {record['record_id']}",
        record_id=record["record_id"],
        medication="Zzz",
        **args,
    )
    result = await call(
        db,
        "update_prescription_supplier",
        record_id=record["record_id"],
        medication="A",
        supplier_company="X",
        brand_name="Y",
        price_usd="cheap",
    )
    assert not result.ok


async def test_empty_prescription_list_counts_as_none(db):
    record = record_with(lambda rx: True)
    with db.transaction() as store:
        row = store.get(MedicalRecord, record["record_id"])
        row.prescriptions = []
        store.save(row)
    await fails(
        db,
        "update_prescription_supplier",
        "medical record has no prescriptions",
        record_id=record["record_id"],
        medication="A",
        supplier_company="X",
        brand_name="Y",
        price_usd=1.0,
    )


# ------------------------------------------------------------------------------------------ notes


async def test_note_is_appended_and_notes_created_when_absent(db):
    with_notes = next(k for k, r in sorted(RECORDS.items()) if r.get("notes") == [])
    without = next(k for k, r in sorted(RECORDS.items()) if "notes" not in r)
    await ok(db, "update_medical_record_note", record_id=with_notes, note="first")
    output = json.loads(await ok(db, "update_medical_record_note", record_id=with_notes, note="second"))
    assert output["notes"] == [{"note": "first"}, {"note": "second"}]
    await ok(db, "update_medical_record_note", record_id=without, note="only")
    stored = state(db)["medical_records"]
    assert stored[with_notes]["notes"] == [{"note": "first"}, {"note": "second"}]
    assert stored[without]["notes"] == [{"note": "only"}]
    await fails(
        db, "update_medical_record_note", "medical record REC999 not found", record_id="REC999", note="x"
    )
    await fails(db, "update_medical_record_note", "medical record  not found", record_id="", note="x")
