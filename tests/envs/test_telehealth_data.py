"""Telehealth seed data: deterministic, published shapes and sizes, exact round trips of published tables."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from datetime import date

import pytest

from taue.envs.runtime.database import SeedImage
from taue.envs.telehealth import DOMAIN
from taue.envs.telehealth.generate import generate
from taue.envs.telehealth.models import (
    MODEL_OF,
    TABLES,
    WEEKDAYS,
    Appointment,
    MedicalRecord,
    Patient,
    Provider,
    TelemetryDevice,
    TelemetryUpload,
    rows_from_tables,
    tables_from_rows,
)
from tests.envs.seed_rows import seed_rows
from tests.paths import PUBLISHED_DATA

PUBLISHED = PUBLISHED_DATA / "telehealth" / "db"
"""The published seed tables (../shared next to the checkout); absent on a user's machine."""
ROWS = seed_rows(DOMAIN)
TABLE_ROWS = tables_from_rows(ROWS)
PATIENTS, PROVIDERS = TABLE_ROWS["patients"], TABLE_ROWS["providers"]
APPOINTMENTS, RECORDS = TABLE_ROWS["appointments"], TABLE_ROWS["medical_records"]


def canonical(seed: int) -> str:
    database = SeedImage(DOMAIN.tables, generate(seed)).clone()
    try:
        return database.canonical_state()
    finally:
        database.close()


def stored_tables(rows) -> dict:
    """The published layout of `rows` after a trip through the SQLite seed image (JSON columns included)."""
    database = SeedImage(TABLES, rows).clone()
    try:
        with database.transaction() as store:
            return tables_from_rows(row for model in TABLES for row in store.scan(model))
    finally:
        database.close()


def test_sizes_follow_the_published_tables():
    sizes = {name: len(value) for name, value in TABLE_ROWS.items()}
    assert sizes == {
        "appointments": 214,
        "drug_interactions": 5,
        "medical_records": 149,
        "medication_suppliers": 24,
        "patients": 239,
        "providers": 114,
        "regimen_plans": 18,
        "telemetry_inventory": 130,
        "telemetry_uploads": sizes["telemetry_uploads"],
    }
    assert 150 <= sizes["telemetry_uploads"] <= 220
    assert 100 <= sum(len(offers) for offers in TABLE_ROWS["medication_suppliers"].values()) <= 180
    statuses = Counter(a["status"] for a in APPOINTMENTS.values())
    assert set(statuses) == {"scheduled", "completed", "pending_approval", "cancelled"}
    assert statuses["scheduled"] > statuses["completed"] > statuses["cancelled"]


def test_ids_have_both_published_families():
    assert any(re.fullmatch(r"APPT\d{3}", k) for k in APPOINTMENTS)
    assert any(re.fullmatch(r"APPT_tracer_\d{3}", k) for k in APPOINTMENTS)
    assert all(re.fullmatch(r"APPT(_tracer_)?\d{3}", k) for k in APPOINTMENTS)
    assert all(re.fullmatch(r"REC(_tracer_)?\d{3}", k) for k in RECORDS)
    assert all(re.fullmatch(r"[a-z]+_[a-z]+_(\d{4}|tracer_0001)", k) for k in PATIENTS)
    assert all(re.fullmatch(r"(dr_[a-z]+|[a-z]+_[a-z]+)_[a-z_]+(_tracer_0001)?", k) for k in PROVIDERS)
    devices = [d["device_id"] for d in TABLE_ROWS["telemetry_inventory"]]
    assert len(set(devices)) == len(devices)
    assert all(re.fullmatch(r"(NS-EEG|VC)-\d{3}|[A-Z]{6}_tracer_\d{3}", d) for d in devices)
    id_fields = {
        "appointments": "appointment_id",
        "medical_records": "record_id",
        "patients": "patient_id",
        "providers": "provider_id",
        "regimen_plans": "patient_id",
    }
    for name, field in id_fields.items():
        assert all(record[field] == key for key, record in TABLE_ROWS[name].items()), name


def test_appointments_fit_schedules_copays_and_each_other():
    active = Counter()
    for appointment in APPOINTMENTS.values():
        patient, provider = PATIENTS[appointment["patient_id"]], PROVIDERS[appointment["provider_id"]]
        weekday = WEEKDAYS[date.fromisoformat(appointment["date"]).weekday()]
        assert appointment["time"] in provider["schedule"][weekday], appointment["appointment_id"]
        plan = patient["insurance"]["primary"]
        copay = plan["copay_primary"] if provider["specialty"] == "Primary Care" else plan["copay_specialist"]
        assert appointment["copay_amount"] == copay and isinstance(copay, float)
        assert type(appointment["duration_minutes"]) is int
        if appointment["status"] in ("scheduled", "pending_approval"):
            active[(appointment["provider_id"], appointment["date"], appointment["time"])] += 1
            assert appointment["date"] > DOMAIN.clock[:10]
        if appointment["status"] == "completed":
            assert appointment["date"] < DOMAIN.clock[:10]
    assert max(active.values()) == 1


def test_like_the_published_tables_some_fields_are_missing():
    assert sum("chief_complaint" not in a for a in APPOINTMENTS.values()) == 1
    assert sum("meeting_link" not in a for a in APPOINTMENTS.values()) == 1
    assert sum("license_number" not in p for p in PROVIDERS.values()) == 4
    assert sum("title" not in p["name"] for p in PROVIDERS.values()) == 1
    assert sum(p["demographics"]["email"] == "" for p in PATIENTS.values()) == 2
    assert sum(r["appointment_id"] is None for r in RECORDS.values()) >= 2
    assert 0 < sum("prescriptions" not in r for r in RECORDS.values()) < 10
    assert 0 < sum("notes" not in r for r in RECORDS.values()) < 40


def test_references_are_consistent():
    for record in RECORDS.values():
        assert record["patient_id"] in PATIENTS and record["provider_id"] in PROVIDERS
        assert record["appointment_id"] is None or record["appointment_id"] in APPOINTMENTS
        for prescription in record.get("prescriptions", []):
            assert prescription["medication"] in TABLE_ROWS["medication_suppliers"]
    devices = {d["device_id"]: d for d in TABLE_ROWS["telemetry_inventory"]}
    assert all(d["assigned_to"] is None or d["assigned_to"] in PATIENTS for d in devices.values())
    for upload in TABLE_ROWS["telemetry_uploads"]:
        assert devices[upload["device_id"]]["status"] == "deployed"
        assert (upload["event"] == "upload_missing") == (upload["synced_at"] is None)
        assert isinstance(upload["usage_hours"], float)
    assert set(TABLE_ROWS["regimen_plans"]) <= set(PATIENTS)


def test_own_rows_round_trip_through_the_models_and_the_database():
    again = rows_from_tables(json.loads(json.dumps(TABLE_ROWS)))
    assert tables_from_rows(again) == TABLE_ROWS
    assert stored_tables(again) == TABLE_ROWS
    positions = [r.position for r in ROWS if isinstance(r, TelemetryUpload)]
    assert positions == list(range(len(positions)))
    record = next(r for r in ROWS if isinstance(r, MedicalRecord) and r.appointment_id is None).to_record()
    assert "appointment_id" in record and record["appointment_id"] is None


def test_model_from_record_is_the_inverse_of_to_record():
    for model in (Patient, Provider, Appointment, MedicalRecord):
        row = next(r for r in ROWS if isinstance(r, model))
        key = row.to_record()[model.__table__.primary_key.columns.keys()[0]]
        assert model.from_record(key, row.to_record()).to_record() == row.to_record()
    device = next(r for r in ROWS if isinstance(r, TelemetryDevice))
    assert TelemetryDevice.from_record(7, device.to_record()).position == 7
    assert set(MODEL_OF) == {model.__tablename__ for model in TABLES} and len(MODEL_OF) == 9


@pytest.mark.skipif(
    not PUBLISHED.is_dir(), reason=f"published τ-Emotion-Bench data not present at {PUBLISHED}"
)
def test_published_tables_round_trip_exactly():
    """Every published telehealth file -> from_record -> SQLite -> to_record equals the parsed JSON."""
    published = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in PUBLISHED.glob("*.json")}
    assert set(published) == set(MODEL_OF)
    back = stored_tables(rows_from_tables(published))
    for name, value in published.items():
        assert back[name] == value, name
        assert json.dumps(back[name], sort_keys=True) == json.dumps(value, sort_keys=True), name


def test_seed_database_is_small_and_resets_fast():
    database = DOMAIN.new_database()
    assert len(database.canonical_state()) < 3 * 1024 * 1024
    assert len(DOMAIN.seed_image._image) < 3 * 1024 * 1024
    started = time.perf_counter()
    for _ in range(200):
        database.reset()
    assert (time.perf_counter() - started) / 200 < 0.01
    database.close()
