"""Telehealth tools: the published interface and every read tool (appointments and records are in
their own files)."""

from __future__ import annotations

import json

from taue.envs.telehealth import DOMAIN
from tests.envs.telehealth_helpers import (
    APPOINTMENTS,
    PATIENT_ID,
    PATIENTS,
    PROVIDERS,
    RECORDS,
    ROWS,
    TOOLS,
    Record,
    appointment_where,
    ok,
    provider_of,
)

db = TOOLS.database_fixture()


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
