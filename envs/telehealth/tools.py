"""Telehealth tools: the 23 published τ-Emotion-Bench telehealth tools, same names, parameters and effects.

Behaviour follows the published telehealth tool specification: check order, messages, new appointment ids
(`APPT` + the next number over both id families), copays, the cancellation date (taken from the
domain's simulated clock, never the machine's) and the prescription matching rules. A failed write is a
`ToolError` with the published text (without an `Error: ` prefix) and writes nothing. As published,
a read that finds nothing ("Patient with ID … not found.", "No telemetry upload found …") answers
with that sentence as ordinary text, not as an error. Readers show "Not recorded" where the published
ones fail on a missing field (see docs/compatibility.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from functools import wraps
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlalchemy import func
from sqlmodel import select

from taue.envs.runtime.common_tools import calculate, think
from taue.envs.runtime.database import Store
from taue.envs.runtime.domain import ends_conversation, writes
from taue.envs.telehealth.models import (
    Appointment,
    DrugInteraction,
    MedicalRecord,
    MedicationSupplierList,
    Patient,
    Provider,
    RegimenPlan,
    TelemetryDevice,
    TelemetryUpload,
)

MEETING_ROOT = "https://telehealth.healthcenter.com/room/"
ACTIVE = ("scheduled", "pending_approval")
SEVERITY_RANK = {"low": 1, "moderate": 2, "high": 3}
NOT_RECORDED = "Not recorded"
_APPOINTMENT_NUMBER = re.compile(r"APPT(?:_tracer_)?(\d+)")

PatientId = Annotated[str, Field(description="The patient id, e.g. 'lena_okafor_4821'.")]
ProviderId = Annotated[str, Field(description="The provider id, e.g. 'dr_okafor_cardiology'.")]
AppointmentId = Annotated[str, Field(description="The appointment id, e.g. 'APPT012' or 'APPT_tracer_105'.")]
RecordId = Annotated[str, Field(description="The medical record id, e.g. 'REC004' or 'REC_tracer_052'.")]
Day = Annotated[str, Field(description="A date as 'YYYY-MM-DD', e.g. '2025-12-03'.")]
Slot = Annotated[str, Field(description="A time slot as 'HH:MM' (24-hour), e.g. '14:30'.")]
Limit = Annotated[int | None, Field(description="Show at most this many entries (all when omitted).")]
DeviceId = Annotated[str, Field(description="The telemetry device id, e.g. 'NS-EEG-204'.")]


def _reader(fn: Callable[..., Awaitable[str]]) -> Callable[..., Awaitable[str]]:
    """A read tool: its "not found" `ToolError`s become the published plain-text answers."""

    @wraps(fn)
    async def read(*args: Any, **kwargs: Any) -> str:
        try:
            return await fn(*args, **kwargs)
        except ToolError as exc:
            return str(exc)

    return read


def _title(value: str) -> str:
    """'pending_approval' -> 'Pending Approval' (the published display form)."""
    return value.replace("_", " ").title()


def _money(value: Any) -> str:
    return f"${value:.2f}" if isinstance(value, int | float) else NOT_RECORDED


def _shown(value: Any) -> str:
    return NOT_RECORDED if value is None else str(value)


def _listed(values: list[str]) -> str:
    return ", ".join(values) if values else "None"


def _full_name(patient: Patient | None) -> str:
    if patient is None:
        return "Unknown Patient"
    return f"{patient.name.get('first_name', '')} {patient.name.get('last_name', '')}".strip()


def _provider_name(provider: Provider) -> str:
    name = provider.name
    return f"{name.get('title') or 'Dr.'} {name.get('first_name', '')} {name.get('last_name', '')}"


def _patient(db: Store, patient_id: str) -> Patient:
    return db.require(Patient, patient_id, f"Patient with ID {patient_id} not found.")


def _provider(db: Store, provider_id: str) -> Provider:
    return db.require(Provider, provider_id, f"Provider with ID {provider_id} not found.")


def _appointment(db: Store, appointment_id: str) -> Appointment:
    return db.require(Appointment, appointment_id, f"Appointment with ID {appointment_id} not found.")


def _check_slot(db: Store, provider: Provider, date: str, time: str, exclude: str | None = None) -> None:
    """The published checks of a booking slot: date format, working day, slot, no active booking there."""
    try:
        weekday = datetime.strptime(date, "%Y-%m-%d").strftime("%A")
    except ValueError:
        raise ToolError(f"Invalid date format: {date}. Please use YYYY-MM-DD format.") from None
    pid = provider.provider_id
    if weekday.lower() not in provider.schedule:
        raise ToolError(f"Provider {pid} does not work on {weekday}.")
    slots = provider.schedule[weekday.lower()]
    if time not in slots:
        available = ", ".join(slots) if slots else "None"
        raise ToolError(
            f"Provider {pid} is not available at {time} on {weekday}. Available times: {available}"
        )
    where = [
        Appointment.provider_id == pid,
        Appointment.date == date,
        Appointment.time == time,
        Appointment.status.in_(ACTIVE),  # type: ignore[attr-defined]
    ]
    if exclude is not None:
        where.append(Appointment.appointment_id != exclude)
    if db.scan(Appointment, *where):
        raise ToolError(f"Provider {pid} already has an appointment scheduled at {time} on {date}.")


def _next_appointment_number(db: Store) -> int:
    ids = set(db.session.exec(select(Appointment.appointment_id)))
    numbers = [int(m.group(1)) for i in ids if (m := _APPOINTMENT_NUMBER.fullmatch(i))]
    number = max(numbers, default=0) + 1
    while f"APPT{number:03d}" in ids or f"APPT_tracer_{number:03d}" in ids:
        number += 1
    return number


# ------------------------------------------------------------------------------------- patients


@_reader
async def find_patient_by_email(
    db: Store, email: Annotated[str, Field(description="The patient's email address, exactly as on file.")]
) -> str:
    """Find a patient's id from their email address (exact, case-sensitive match). Returns the bare
    patient id. Use it to authenticate the patient."""
    rows = db.scan(Patient, func.json_extract(Patient.demographics, "$.email") == email)
    if not rows:
        raise ToolError(f"No patient found with email: {email}")
    return rows[0].patient_id


@_reader
async def find_patient_by_name_dob(
    db: Store,
    first_name: Annotated[str, Field(description="The patient's first name, e.g. 'Lena'.")],
    last_name: Annotated[str, Field(description="The patient's last name, e.g. 'Okafor'.")],
    date_of_birth: Annotated[str, Field(description="Date of birth as 'YYYY-MM-DD', e.g. '1984-06-02'.")],
) -> str:
    """Find a patient's id from first and last name (case-insensitive) and date of birth (exact).
    Use it to authenticate a patient who does not know their email. Returns the bare patient id."""
    for patient in db.scan(
        Patient, func.json_extract(Patient.demographics, "$.date_of_birth") == date_of_birth
    ):
        name = patient.name
        if (
            name.get("first_name", "").lower() == first_name.lower()
            and name.get("last_name", "").lower() == last_name.lower()
        ):
            return patient.patient_id
    raise ToolError(f"No patient found with name: {first_name} {last_name} and DOB: {date_of_birth}")


@_reader
async def get_patient_details(db: Store, patient_id: PatientId) -> str:
    """Get a patient's profile: demographics, address, insurance and copays, conditions, allergies,
    current medications and emergency contact."""
    patient = _patient(db, patient_id)
    demo, address = patient.demographics, patient.address
    plan = patient.insurance.get("primary", {})
    history = patient.medical_history
    medications = [
        f"{m.get('name', '')} {m.get('dosage', '')} {m.get('frequency', '')}"
        for m in history.get("medications", [])
    ]
    contact = patient.emergency_contact
    return "\n".join(
        [
            f"Patient: {_full_name(patient)} (ID: {patient.patient_id})",
            f"Date of Birth: {demo.get('date_of_birth', '')}",
            f"Gender: {demo.get('gender', '')}",
            f"Phone: {demo.get('phone', '')}",
            f"Email: {demo.get('email', '')}",
            "Address:",
            f"  {address.get('address1', '')}",
            f"  {address.get('address2', '')}",
            f"  {address.get('city', '')}, {address.get('state', '')} {address.get('zip', '')}",
            f"  {address.get('country', '')}",
            "Insurance:",
            f"  Provider: {plan.get('provider', '')}",
            f"  Policy Number: {plan.get('policy_number', '')}",
            f"  Primary Care Copay: {_money(plan.get('copay_primary'))}",
            f"  Specialist Copay: {_money(plan.get('copay_specialist'))}",
            "Medical History:",
            f"  Conditions: {_listed(history.get('conditions', []))}",
            f"  Allergies: {_listed(history.get('allergies', []))}",
            f"  Medications: {_listed(medications)}",
            f"Emergency Contact: {contact.get('name', '')} ({contact.get('relationship', '')})",
            f"  Phone: {contact.get('phone', '')}",
        ]
    )


# ------------------------------------------------------------------------------------ providers


@_reader
async def get_provider_details(db: Store, provider_id: ProviderId) -> str:
    """Get a provider's profile: specialty, license, credentials, experience, contact, languages,
    consultation fee and weekly schedule of bookable time slots."""
    provider = _provider(db, provider_id)
    lines = [
        f"Provider ID: {provider.provider_id}",
        f"Name: {_provider_name(provider)}",
        f"Specialty: {provider.specialty}",
        f"License Number: {_shown(provider.license_number)}",
        f"Credentials: {', '.join(provider.credentials)}",
        f"Years of Experience: {provider.years_experience}",
        f"Phone: {provider.contact.get('phone', '')}",
        f"Email: {provider.contact.get('email', '')}",
        f"Languages: {', '.join(provider.languages)}",
        f"Consultation Fee: {_money(provider.consultation_fee)}",
        "Weekly Schedule:",
    ]
    for day, slots in provider.to_record()["schedule"].items():
        lines.append(f"- {day.title()}: {', '.join(slots) if slots else 'Not available'}")
    return "\n".join(lines)


@_reader
async def list_available_providers(
    db: Store,
    specialty: Annotated[
        str | None,
        Field(
            description="Only providers of this specialty (case-insensitive), e.g. 'Cardiology'; "
            "all when omitted."
        ),
    ] = None,
) -> str:
    """List providers, optionally of one specialty, with experience, languages, fee and phone."""
    where = [func.lower(Provider.specialty) == specialty.lower()] if specialty else []
    providers = db.scan(Provider, *where)
    if not providers:
        return f"No providers found with specialty: {specialty}" if specialty else "No providers found."
    lines = ["Available Providers" + (f" - {specialty}" if specialty else "") + ":"]
    for provider in providers:
        lines.extend(
            [
                f"- {_provider_name(provider)} (ID: {provider.provider_id})",
                f"  Specialty: {provider.specialty}",
                f"  Experience: {provider.years_experience} years",
                f"  Languages: {', '.join(provider.languages)}",
                f"  Consultation Fee: {_money(provider.consultation_fee)}",
                f"  Phone: {provider.contact.get('phone', '')}",
            ]
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------------- appointments


@_reader
async def get_appointment_details(db: Store, appointment_id: AppointmentId) -> str:
    """Get an appointment: patient, provider, date and time, duration, type, status, complaint,
    notes, insurance authorization, copay, meeting link, and any prescription, referral or
    cancellation."""
    appointment = _appointment(db, appointment_id)
    patient = db.get(Patient, appointment.patient_id)
    provider = db.get(Provider, appointment.provider_id)
    provider_line = (
        f"Dr. {provider.name.get('last_name', '')} - {provider.specialty}" if provider else "Unknown Provider"
    )
    lines = [
        f"Appointment ID: {appointment.appointment_id}",
        f"Patient: {_full_name(patient)} (ID: {appointment.patient_id})",
        f"Provider: {provider_line} (ID: {appointment.provider_id})",
        f"Date: {appointment.date}",
        f"Time: {appointment.time}",
        f"Duration: {appointment.duration_minutes} minutes",
        f"Type: {_title(appointment.type)}",
        f"Status: {_title(appointment.status)}",
        f"Chief Complaint: {_shown(appointment.chief_complaint)}",
        f"Notes: {_shown(appointment.notes)}",
        f"Insurance Authorization: {appointment.insurance_authorization}",
        f"Copay: {_money(appointment.copay_amount)}",
        f"Meeting Link: {_shown(appointment.meeting_link)}",
    ]
    issued = appointment.prescription_issued
    if issued:
        lines.extend(
            [
                "Prescription Issued:",
                *(
                    f"  {_title(key)}: {issued[key]}"
                    for key in ("medication", "dosage", "frequency", "quantity", "refills")
                    if key in issued
                ),
            ]
        )
    if appointment.referral_from:
        lines.append(f"Referral From: {appointment.referral_from}")
    if appointment.cancellation_reason or appointment.cancellation_date:
        lines.append(f"Cancellation Reason: {_title(appointment.cancellation_reason or '')}")
        lines.append(f"Cancellation Date: {_shown(appointment.cancellation_date)}")
    return "\n".join(lines)


def _appointment_sort_key(appointment: Appointment) -> tuple[int, datetime, str]:
    try:
        moment = datetime.strptime(f"{appointment.date} {appointment.time}", "%Y-%m-%d %H:%M")
        return 1, moment, appointment.appointment_id
    except ValueError:
        return 0, datetime.min, appointment.appointment_id


@_reader
async def list_patient_appointments(
    db: Store,
    patient_id: PatientId,
    status_filter: Annotated[
        str | None,
        Field(
            description="Only appointments with this status: scheduled, pending_approval, completed "
            "or cancelled."
        ),
    ] = None,
) -> str:
    """List a patient's appointments in date order, with provider, status and type."""
    patient = _patient(db, patient_id)
    where = [func.lower(Appointment.status) == status_filter.lower()] if status_filter else []
    appointments = sorted(
        db.scan(Appointment, Appointment.patient_id == patient_id, *where), key=_appointment_sort_key
    )
    with_status = f" with status {status_filter}" if status_filter else ""
    if not appointments:
        return f"No appointments found for patient {patient_id}{with_status}."
    lines = [f"Appointments for {_full_name(patient)} (ID: {patient_id}){with_status}:"]
    for appointment in appointments:
        provider = db.get(Provider, appointment.provider_id)
        who = (
            f"{provider.name.get('title') or 'Dr.'} {provider.name.get('last_name', '')} "
            f"({provider.specialty})"
            if provider
            else "Unknown Provider"
        )
        lines.append(
            f"- {appointment.appointment_id}: {appointment.date} at {appointment.time} with {who} "
            f"[{_title(appointment.status)}, Type: {_title(appointment.type)}]"
        )
    return "\n".join(lines)


@writes
async def schedule_appointment(
    db: Store,
    patient_id: PatientId,
    provider_id: ProviderId,
    date: Day,
    time: Slot,
    appointment_type: Annotated[
        str,
        Field(
            description="The kind of visit, e.g. 'routine_checkup', 'follow_up', 'consultation', "
            "'specialist_consultation', 'sick_visit'."
        ),
    ],
    bill_insurance: Annotated[
        bool | None,
        Field(description="Bill the patient's insurance (copay applies). False for self-pay or a voucher."),
    ] = True,
    voucher_id: Annotated[
        str | None, Field(description="A telehealth voucher code, used only when insurance is not billed.")
    ] = None,
    payment_notes: Annotated[
        str | None, Field(description="Notes about payment, stored as the appointment's notes.")
    ] = None,
) -> str:
    """Book a 30-minute appointment in one of the provider's free time slots. The time must be one of
    the provider's slots for that weekday and not already taken. With insurance the patient's copay
    applies (primary care or specialist rate); otherwise the visit is self-pay or on a voucher.
    Confirm the details with the patient first. Returns a confirmation with the new appointment id
    and meeting link."""
    patient = _patient(db, patient_id)
    provider = _provider(db, provider_id)
    _check_slot(db, provider, date, time)
    number = _next_appointment_number(db)
    appointment_id = f"APPT{number:03d}"
    plan = patient.insurance.get("primary")
    if plan is None:
        raise ToolError("'primary'")
    copay = plan["copay_primary"] if provider.specialty == "Primary Care" else plan["copay_specialist"]
    insured = bool(bill_insurance)
    method = "insurance" if insured else ("telehealth_voucher" if voucher_id else "self_pay")
    appointment = Appointment(
        appointment_id=appointment_id,
        patient_id=patient_id,
        provider_id=provider_id,
        date=date,
        time=time,
        duration_minutes=30,
        type=appointment_type,
        status="scheduled",
        notes=payment_notes or "",
        insurance_authorization=f"AUTH{number:06d}" if insured else None,
        copay_amount=copay if insured else 0.0,
        meeting_link=MEETING_ROOT + appointment_id,
        payment_method=method,
        voucher_id=None if insured else voucher_id,
        insurance_billed=insured,
    )
    db.save(appointment)
    lines = [
        "Appointment scheduled successfully.",
        f"Appointment ID: {appointment_id}",
        f"Patient: {_full_name(patient)}",
        f"Provider: Dr. {provider.name.get('last_name', '')} - {provider.specialty}",
        f"Date: {date}",
        f"Time: {time}",
        f"Type: {_title(appointment_type)}",
    ]
    if insured:
        lines += [
            f"Copay: {_money(copay)}",
            f"Insurance Authorization: {appointment.insurance_authorization}",
        ]
    else:
        lines += ["Insurance: not billed", f"Payment Method: {_title(method)}"]
        lines += [f"Voucher: {voucher_id}"] if voucher_id else []
        lines += ["Amount Due Now: $0.00"]
        lines += [f"Payment Notes: {payment_notes}"] if payment_notes else []
    lines += [f"Meeting Link: {appointment.meeting_link}", "Please keep the appointment ID for your records."]
    return "\n".join(lines)


@writes
async def reschedule_appointment(
    db: Store, appointment_id: AppointmentId, new_date: Day, new_time: Slot
) -> str:
    """Move a scheduled or pending-approval appointment to another free slot of the same provider.
    Only the date and time change. Confirm the new slot with the patient first."""
    appointment = _appointment(db, appointment_id)
    if appointment.status == "cancelled":
        raise ToolError(f"Cannot reschedule appointment {appointment_id} - appointment has been cancelled.")
    if appointment.status == "completed":
        raise ToolError(
            f"Cannot reschedule appointment {appointment_id} - appointment has already been completed."
        )
    provider = _provider(db, appointment.provider_id)
    _check_slot(db, provider, new_date, new_time, exclude=appointment_id)
    old_date, old_time = appointment.date, appointment.time
    if appointment.meeting_link is None:  # the published tool fails here after writing
        raise ToolError("'meeting_link'")
    appointment.date, appointment.time = new_date, new_time
    db.save(appointment)
    patient = db.get(Patient, appointment.patient_id)
    return "\n".join(
        [
            "Appointment rescheduled successfully.",
            f"Appointment ID: {appointment_id}",
            f"Patient: {_full_name(patient)}",
            f"Provider: Dr. {provider.name.get('last_name', '')} - {provider.specialty}",
            f"Previous: {old_date} at {old_time}",
            f"New: {new_date} at {new_time}",
            f"Meeting Link: {appointment.meeting_link}",
        ]
    )


@writes
async def cancel_appointment(db: Store, appointment_id: AppointmentId) -> str:
    """Cancel a scheduled or pending-approval appointment (completed ones cannot be cancelled). The
    cancellation is recorded as requested by the patient, dated today. Confirm with the patient first."""
    appointment = _appointment(db, appointment_id)
    if appointment.status == "cancelled":
        raise ToolError(f"Appointment {appointment_id} is already cancelled.")
    if appointment.status == "completed":
        raise ToolError(
            f"Cannot cancel appointment {appointment_id} - appointment has already been completed."
        )
    appointment.status = "cancelled"
    appointment.cancellation_reason = "patient_cancelled"
    appointment.cancellation_date = db.clock[:10]
    db.save(appointment)
    patient = db.get(Patient, appointment.patient_id)
    provider = db.get(Provider, appointment.provider_id)
    who = (
        f"Dr. {provider.name.get('last_name', '')} - {provider.specialty}" if provider else "Unknown Provider"
    )
    return "\n".join(
        [
            "Appointment cancelled successfully.",
            f"Appointment ID: {appointment_id}",
            f"Patient: {_full_name(patient)}",
            f"Provider: {who}",
            f"Original Date: {appointment.date} at {appointment.time}",
            f"Reason: {_title(appointment.cancellation_reason)}",
            f"Cancellation Date: {appointment.cancellation_date}",
        ]
    )


# ------------------------------------------------------------------------------ medical records


@_reader
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
        f"Patient: {_full_name(patient)} (ID: {record.patient_id})",
        f"Provider: {_provider_name(provider) if provider else 'Unknown Provider'} "
        f"(ID: {record.provider_id})",
    ]
    visit = db.get(Appointment, record.appointment_id) if record.appointment_id else None
    if visit is not None:
        lines.append(f"Related Appointment: {visit.appointment_id} on {visit.date} at {visit.time}")
    lines += [f"Date: {record.date}", f"Type: {_title(record.type)}"]
    for label in ("subjective", "objective", "assessment", "plan"):
        text = getattr(record, label)
        if text:
            lines.append(f"{label.title()}: {text}")
    if record.recommendations:
        lines += ["Recommendations:", *(f"- {item}" for item in record.recommendations)]
    return "\n".join(lines)


@_reader
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


@_reader
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


def _interaction_table(db: Store) -> dict[str, dict[str, dict[str, Any]]]:
    return {row.medication: row.interactions for row in db.scan(DrugInteraction)}


@_reader
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
    table = _interaction_table(db)
    spelling: dict[str, str] = {}
    for outer, inner in table.items():
        for name in (outer, *inner):
            spelling.setdefault(name.lower(), name)

    def canon(name: str) -> str:
        return spelling.get(name.lower(), name)

    def pair(a: str, b: str) -> dict[str, Any] | None:
        for first, second in ((canon(a), canon(b)), (canon(b), canon(a))):
            for other, details in table.get(first, {}).items():
                if other.lower() == second.lower():
                    return details
        return None

    checks = [(primary_medication, m) for m in current_medications]
    checks += [(a, b) for i, a in enumerate(current_medications) for b in current_medications[i + 1 :]]
    lines, hold, emergency, peak = [], set(), False, 0
    highest: tuple[int, str] = (0, "")
    for a, b in checks:
        details = pair(a, b)
        if details is None:
            continue
        severity, hours = details.get("severity", "unknown"), details.get("time_overlap_hours", 0)
        lines.append(
            f"{canon(a)} + {canon(b)}: severity={severity}, risk_score={details.get('risk_score')}, "
            f"overlap_hours={hours}. {details.get('action', 'Monitor.')}"
        )
        hold.update(details.get("skip", []))
        emergency = emergency or bool(details.get("emergency", False))
        peak = max(peak, hours)
        rank = SEVERITY_RANK.get(severity, 0)
        if rank > highest[0]:
            highest = (rank, f"{canon(a)} + {canon(b)} ({severity})")
    if not lines:
        return (
            f"No documented high-risk interactions found for {primary_medication} with the listed "
            "medications. Continue routine monitoring."
        )
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


@_reader
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


# ------------------------------------------------------------------------------------ telemetry


@_reader
async def list_telemetry_devices(
    db: Store,
    status_filter: Annotated[
        str | None,
        Field(
            description="Only devices with this status: available, inspection, deployed, shipped, "
            "maintenance or missing_overdue."
        ),
    ] = None,
    limit: Limit = None,
) -> str:
    """List remote-monitoring devices in the inventory (id, status, last audit, notes), by device id."""
    if db.count(TelemetryDevice) == 0:
        return "Telemetry inventory is empty."
    where = [func.lower(TelemetryDevice.status) == status_filter.lower()] if status_filter else []
    devices = sorted(db.scan(TelemetryDevice, *where), key=lambda d: d.device_id)
    if not devices:
        return f"No telemetry devices with status {status_filter}."
    if limit is not None and limit > 0:
        devices = devices[:limit]
    lines = ["Telemetry devices:"]
    lines += [
        f"{d.device_id} | status={d.status} | last_audit={d.last_audit} | notes={d.notes}" for d in devices
    ]
    return "\n".join(lines)


@_reader
async def list_telemetry_uploads(
    db: Store,
    device_id: DeviceId,
    start_date: Annotated[str | None, Field(description="First day to include, 'YYYY-MM-DD'.")] = None,
    end_date: Annotated[str | None, Field(description="Last day to include, 'YYYY-MM-DD'.")] = None,
    limit: Limit = None,
) -> str:
    """List a device's daily data uploads (usage hours, sync time, event, alerts) in date order,
    optionally within a date window. Returns a JSON array."""
    where = [TelemetryUpload.device_id == device_id]
    if start_date:
        where.append(TelemetryUpload.date >= start_date)
    if end_date:
        where.append(TelemetryUpload.date <= end_date)
    uploads = sorted(db.scan(TelemetryUpload, *where), key=lambda u: u.date)
    if limit is not None and limit > 0:
        uploads = uploads[:limit]
    if not uploads:
        return f"No telemetry uploads found for device {device_id} in the specified window."
    return json.dumps([upload.to_record() for upload in uploads])


@_reader
async def get_telemetry_upload(db: Store, device_id: DeviceId, date: Day) -> str:
    """Get one day's upload of a device (usage hours, sync time, event, alerts) as a JSON object."""
    found = db.scan(TelemetryUpload, TelemetryUpload.device_id == device_id, TelemetryUpload.date == date)
    if not found:
        raise ToolError(f"No telemetry upload found for device {device_id} on {date}.")
    return json.dumps(found[0].to_record())


# ------------------------------------------------------------------------------------- hand-off


@ends_conversation
async def transfer_to_human_support(
    db: Store, reason: Annotated[str, Field(description="Why the patient needs a person, in one sentence.")]
) -> str:
    """Hand the patient over to human support staff; the conversation ends here. Only when the patient
    asks for a person or the request is outside what these tools and the policy allow (e.g. a
    technical problem with the video platform)."""
    return "\n".join(
        [
            "Transferring you to our patient support team.",
            f"Reason: {reason}",
            "A support specialist will be with you shortly; the typical wait is under 5 minutes.",
        ]
    )


TOOLS = [
    calculate,
    cancel_appointment,
    check_drug_interactions,
    find_patient_by_email,
    find_patient_by_name_dob,
    get_appointment_details,
    get_medical_record,
    get_patient_details,
    get_provider_details,
    get_regimen_options,
    get_telemetry_upload,
    list_available_providers,
    list_medication_suppliers,
    list_patient_appointments,
    list_patient_medical_records,
    list_telemetry_devices,
    list_telemetry_uploads,
    reschedule_appointment,
    schedule_appointment,
    think,
    transfer_to_human_support,
    update_medical_record_note,
    update_prescription_supplier,
]
