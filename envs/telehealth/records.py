"""Telehealth tools over medical records, prescriptions, medication suppliers, drug interactions and
regimen plans (the published tools; conventions in tools.py)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlmodel import select

from taue.envs.runtime.database import Store
from taue.envs.runtime.domain import writes
from taue.envs.telehealth.models import (
    Appointment,
    DrugInteraction,
    MedicalRecord,
    MedicationSupplierList,
    Patient,
    Provider,
    RegimenPlan,
)
from taue.envs.telehealth.tool_support import (
    SEVERITY_RANK,
    Limit,
    PatientId,
    RecordId,
    full_name,
    provider_name,
    reader,
    title,
)

# ------------------------------------------------------------------------------ medical records


@reader
async def get_medical_record(
    db: Store,
    record_id: Annotated[str | None, Field(description="The record id, e.g. 'REC004'.")] = None,
    appointment_id: Annotated[
        str | None, Field(description="Find the record written for this appointment instead.")
    ] = None,
) -> str:
    """Get a medical record (by record id, or by the appointment it belongs to): patient, provider,
    related appointment, date, type, the clinical note and recommendations. Prescriptions are not
    shown here; see list_patient_medical_records."""
    if record_id:
        record = db.require(MedicalRecord, record_id, f"Medical record with ID {record_id} not found.")
    elif appointment_id:
        found = db.scan(MedicalRecord, MedicalRecord.appointment_id == appointment_id)
        if not found:
            raise ToolError(f"No medical record found for appointment ID {appointment_id}.")
        record = found[0]
    else:
        return "Please provide either a record_id or an appointment_id to look up a medical record."
    patient = db.get(Patient, record.patient_id)
    provider = db.get(Provider, record.provider_id)
    lines = [
        f"Medical Record ID: {record.record_id}",
        f"Patient: {full_name(patient)} (ID: {record.patient_id})",
        f"Provider: {provider_name(provider) if provider else 'Unknown Provider'} (ID: {record.provider_id})",
    ]
    visit = db.get(Appointment, record.appointment_id) if record.appointment_id else None
    if visit is not None:
        lines.append(f"Related Appointment: {visit.appointment_id} on {visit.date} at {visit.time}")
    lines += [f"Date: {record.date}", f"Type: {title(record.type)}"]
    for label in ("subjective", "objective", "assessment", "plan"):
        text = getattr(record, label)
        if text:
            lines.append(f"{label.title()}: {text}")
    if record.recommendations:
        lines += ["Recommendations:", *(f"- {item}" for item in record.recommendations)]
    return "\n".join(lines)


@reader
async def list_patient_medical_records(db: Store, patient_id: PatientId, limit: Limit = None) -> str:
    """List a patient's medical records, newest first, with their appointment and prescribed
    medications."""
    records = sorted(
        db.scan(MedicalRecord, MedicalRecord.patient_id == patient_id), key=lambda r: r.date, reverse=True
    )
    if limit is not None and limit > 0:
        records = records[:limit]
    if not records:
        return f"No medical records found for patient {patient_id}."
    lines = [f"Medical records for patient {patient_id} (newest first):"]
    for record in records:
        medications = [str(p.get("medication", "")) for p in record.prescriptions or []]
        lines.append(
            f"record_id={record.record_id} | date={record.date} | appointment_id={record.appointment_id} | "
            f"medications={', '.join(medications) if medications else 'None recorded'}"
        )
    return "\n".join(lines)


def _match_prescription(prescriptions: list[dict[str, Any]], medication: str) -> dict[str, Any] | None:
    """The published matching: exact name (trimmed, case-insensitive; later duplicates win), else the
    first name that is a prefix of the request or has the request as its prefix."""
    by_key: dict[str, dict[str, Any]] = {}
    for prescription in prescriptions:
        by_key[str(prescription.get("medication", "")).strip().lower()] = prescription
    wanted = medication.strip().lower()
    if wanted in by_key:
        return by_key[wanted]
    return next((p for key, p in by_key.items() if wanted.startswith(key) or key.startswith(wanted)), None)


@writes
async def update_prescription_supplier(
    db: Store,
    record_id: RecordId,
    medication: Annotated[
        str, Field(description="The prescribed medication to change, e.g. 'Atorvastatin'.")
    ],
    supplier_company: Annotated[
        str, Field(description="The supplier company, as listed by list_medication_suppliers.")
    ],
    brand_name: Annotated[str, Field(description="The brand name of that supplier's product.")],
    price_usd: Annotated[float, Field(description="The supplier's listed price in USD, e.g. 4.15.")],
    currency: Annotated[str, Field(description="Currency of the price.")] = "USD",
) -> str:
    """Switch one prescription of a medical record to another supplier: sets the prescription's
    pharmacy and supplier (company, brand, price). Nothing else changes. Confirm with the patient
    first. Returns the updated medical record."""
    record = db.require(MedicalRecord, record_id, "medical record not found")
    if not record.prescriptions:
        raise ToolError("medical record has no prescriptions")
    prescription = _match_prescription(record.prescriptions, medication)
    if prescription is None:
        raise ToolError(f"medication {medication} not found in record {record_id}")
    prescription["pharmacy"] = f"{supplier_company} ({brand_name})"
    prescription["supplier"] = {
        "company": supplier_company,
        "brand_name": brand_name,
        "price_usd": float(price_usd),
        "currency": currency,
    }
    db.save(record)
    return json.dumps(record.to_record())


@writes
async def update_medical_record_note(
    db: Store,
    record_id: RecordId,
    note: Annotated[str, Field(description="The note to add to the record, in plain words.")],
) -> str:
    """Add a note to a medical record (e.g. a patient's request or an agreed follow-up). Existing notes
    are kept. Returns the updated medical record."""
    record = db.require(MedicalRecord, record_id, f"medical record {record_id} not found")
    record.notes = [*(record.notes or []), {"note": note}]
    db.save(record)
    return json.dumps(record.to_record())


# ---------------------------------------------------------------------------- medications & plans


@reader
async def list_medication_suppliers(
    db: Store,
    medication: Annotated[
        str, Field(description="Catalogue name of the medication or item, e.g. 'Atorvastatin'.")
    ],
    country_filter: Annotated[
        str | None, Field(description="Only suppliers in this country, e.g. 'India'.")
    ] = None,
    limit: Limit = None,
) -> str:
    """List supplier offers for a medication (company, country, brand, price in USD), cheapest first."""
    names = list(
        db.session.exec(select(MedicationSupplierList.medication).order_by(MedicationSupplierList.medication))
    )
    key = next((name for name in names if name.lower() == medication.lower()), None)
    if key is None:
        return (
            f"No supplier information available for {medication}. Use the medication's catalogue name, "
            "e.g. as written in the patient's prescription."
        )
    offers = db.require(MedicationSupplierList, key, "").offers
    if not offers:
        return f"No supplier information found for {medication}."
    if country_filter:
        offers = [o for o in offers if str(o.get("country", "")).lower() == country_filter.lower()]
        if not offers:
            return f"No suppliers in {country_filter} for {medication}."
    offers = sorted(offers, key=lambda o: o.get("price_usd", 0))
    if limit is not None and limit > 0:
        offers = offers[:limit]
    lines = [f"Suppliers for {key}:"]
    for offer in offers:
        lines.append(
            f"{offer.get('company')} ({offer.get('country')}) | brand={offer.get('brand_name')} | "
            f"price_usd={offer.get('price_usd', 0):.2f}"
        )
    return "\n".join(lines)


class _InteractionTable:
    """The documented drug interactions, looked up by either medication of a pair and in any case."""

    def __init__(self, db: Store) -> None:
        self.table: dict[str, dict[str, dict[str, Any]]] = {
            row.medication: row.interactions for row in db.scan(DrugInteraction)
        }
        self.spelling: dict[str, str] = {}
        for outer, inner in self.table.items():
            for name in (outer, *inner):
                self.spelling.setdefault(name.lower(), name)

    def canon(self, name: str) -> str:
        return self.spelling.get(name.lower(), name)

    def pair(self, a: str, b: str) -> dict[str, Any] | None:
        for first, second in ((self.canon(a), self.canon(b)), (self.canon(b), self.canon(a))):
            for other, details in self.table.get(first, {}).items():
                if other.lower() == second.lower():
                    return details
        return None


@reader
async def check_drug_interactions(
    db: Store,
    primary_medication: Annotated[str, Field(description="The medication to check, e.g. 'Warfarin'.")],
    current_medications: Annotated[
        list[str],
        Field(description="The other medications the patient takes, e.g. ['Aspirin', 'Sertraline']."),
    ],
) -> str:
    """Check documented interactions between a medication and the patient's other medications (and
    among those). Reports each interaction's severity, risk score, overlap window and action, which
    medications to hold today, and whether emergency escalation is needed."""
    table = _InteractionTable(db)
    checks = [(primary_medication, m) for m in current_medications]
    checks += [(a, b) for i, a in enumerate(current_medications) for b in current_medications[i + 1 :]]
    found = [
        (f"{table.canon(a)} + {table.canon(b)}", details)
        for a, b in checks
        if (details := table.pair(a, b)) is not None
    ]
    if not found:
        return (
            f"No documented high-risk interactions found for {primary_medication} with the listed "
            "medications. Continue routine monitoring."
        )
    return _interaction_report(found)


def _interaction_report(found: list[tuple[str, dict[str, Any]]]) -> str:
    """The analysis of the interactions found, each given as its pair's label and its details."""
    lines, hold, emergency, peak = [], set(), False, 0
    highest: tuple[int, str] = (0, "")
    for label, details in found:
        severity, hours = details.get("severity", "unknown"), details.get("time_overlap_hours", 0)
        lines.append(
            f"{label}: severity={severity}, risk_score={details.get('risk_score')}, "
            f"overlap_hours={hours}. {details.get('action', 'Monitor.')}"
        )
        hold.update(details.get("skip", []))
        emergency = emergency or bool(details.get("emergency", False))
        peak = max(peak, hours)
        rank = SEVERITY_RANK.get(severity, 0)
        if rank > highest[0]:
            highest = (rank, f"{label} ({severity})")
    report = [
        "Drug interaction analysis:",
        *lines,
        "",
        f"Medications to hold today: {', '.join(sorted(hold)) if hold else 'None'}",
        f"Emergency escalation required: {'Yes' if emergency else 'No'}",
        f"Peak overlap risk window (hours): {peak}",
    ]
    if highest[0]:
        report.append(f"Highest severity interaction: {highest[1]}")
    return "\n".join(report)


def _components(components: list[dict[str, Any]]) -> list[str]:
    return [
        f"- {c.get('medication')} | dosage={c.get('dosage')} | daily_dose={c.get('daily_dose')} | "
        f"monthly_units={c.get('monthly_units')} | unit_type={c.get('unit_type')} | "
        f"brand={c.get('preferred_brand')} | supplier={c.get('supplier')} | "
        f"unit_cost_usd={c.get('unit_cost_usd', 0):.2f}"
        for c in components
    ]


def _burden(burden: dict[str, Any]) -> str:
    tablets, devices = burden.get("tablets_per_day"), burden.get("devices_per_month")
    return f"tablets_per_day={tablets}, devices_per_month={devices}"


@reader
async def get_regimen_options(db: Store, patient_id: PatientId) -> str:
    """Get a patient's current medication regimen (components, costs, pill burden) and the optimized
    alternatives on file (e.g. cheaper suppliers or fewer daily doses)."""
    plan = db.get(RegimenPlan, patient_id)
    if plan is None:
        return f"No regimen optimization data available for patient {patient_id}."
    current = plan.current_regimen
    lines = [
        "Current regimen components:",
        *_components(current.get("components", [])),
        f"Current pill burden: {_burden(current.get('pill_burden', {}))}",
        f"Current notes: {'; '.join(current.get('notes', [])) or 'None'}",
        "",
        "Optimized regimen options:",
    ]
    for number, option in enumerate(plan.optimized_regimens, start=1):
        lines += [
            f"Option {number}: {option.get('name')}",
            f"  Focus: {option.get('focus')}",
            *(f"  {line}" for line in _components(option.get("components", []))),
            f"  Pill burden: {_burden(option.get('pill_burden', {}))}",
            f"  Synergy notes: {'; '.join(option.get('synergy_notes', [])) or 'None'}",
        ]
    return "\n".join(lines)
