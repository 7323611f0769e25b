"""Seed records and helpers the telehealth tool tests share."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from taue.envs.telehealth import DOMAIN
from taue.envs.telehealth.models import WEEKDAYS, Appointment, MedicalRecord, Patient, Provider
from tests.envs.seed_rows import seed_rows
from tests.envs.tool_harness import ToolHarness

Record = dict[str, Any]
ROWS = seed_rows(DOMAIN)
PATIENTS: dict[str, Record] = {r.patient_id: r.to_record() for r in ROWS if isinstance(r, Patient)}
PROVIDERS: dict[str, Record] = {r.provider_id: r.to_record() for r in ROWS if isinstance(r, Provider)}
APPOINTMENTS: dict[str, Record] = {
    r.appointment_id: r.to_record() for r in ROWS if isinstance(r, Appointment)
}
RECORDS: dict[str, Record] = {r.record_id: r.to_record() for r in ROWS if isinstance(r, MedicalRecord)}
TODAY = DOMAIN.clock[:10]


TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails


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
