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

from datetime import datetime
from typing import Annotated

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlalchemy import func

from taue.envs.runtime.common_tools import calculate, think
from taue.envs.runtime.database import Store
from taue.envs.runtime.domain import ends_conversation, writes
from taue.envs.telehealth.models import (
    Appointment,
    Patient,
    Provider,
)
from taue.envs.telehealth.records import (
    check_drug_interactions,
    get_medical_record,
    get_regimen_options,
    list_medication_suppliers,
    list_patient_medical_records,
    update_medical_record_note,
    update_prescription_supplier,
)
from taue.envs.telehealth.telemetry import (
    get_telemetry_upload,
    list_telemetry_devices,
    list_telemetry_uploads,
)
from taue.envs.telehealth.tool_support import (
    MEETING_ROOT,
    AppointmentId,
    Day,
    PatientId,
    ProviderId,
    Slot,
    check_slot,
    full_name,
    listed,
    load_appointment,
    load_patient,
    load_provider,
    money,
    next_appointment_number,
    provider_name,
    reader,
    shown,
    title,
)

# ------------------------------------------------------------------------------------- patients


@reader
async def find_patient_by_email(
    db: Store, email: Annotated[str, Field(description="The patient's email address, exactly as on file.")]
) -> str:
    """Find a patient's id from their email address (exact, case-sensitive match). Returns the bare
    patient id. Use it to authenticate the patient."""
    rows = db.scan(Patient, func.json_extract(Patient.demographics, "$.email") == email)
    if not rows:
        raise ToolError(f"No patient found with email: {email}")
    return rows[0].patient_id


@reader
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


@reader
async def get_patient_details(db: Store, patient_id: PatientId) -> str:
    """Get a patient's profile: demographics, address, insurance and copays, conditions, allergies,
    current medications and emergency contact."""
    patient = load_patient(db, patient_id)
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
            f"Patient: {full_name(patient)} (ID: {patient.patient_id})",
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
            f"  Primary Care Copay: {money(plan.get('copay_primary'))}",
            f"  Specialist Copay: {money(plan.get('copay_specialist'))}",
            "Medical History:",
            f"  Conditions: {listed(history.get('conditions', []))}",
            f"  Allergies: {listed(history.get('allergies', []))}",
            f"  Medications: {listed(medications)}",
            f"Emergency Contact: {contact.get('name', '')} ({contact.get('relationship', '')})",
            f"  Phone: {contact.get('phone', '')}",
        ]
    )


# ------------------------------------------------------------------------------------ providers


@reader
async def get_provider_details(db: Store, provider_id: ProviderId) -> str:
    """Get a provider's profile: specialty, license, credentials, experience, contact, languages,
    consultation fee and weekly schedule of bookable time slots."""
    provider = load_provider(db, provider_id)
    lines = [
        f"Provider ID: {provider.provider_id}",
        f"Name: {provider_name(provider)}",
        f"Specialty: {provider.specialty}",
        f"License Number: {shown(provider.license_number)}",
        f"Credentials: {', '.join(provider.credentials)}",
        f"Years of Experience: {provider.years_experience}",
        f"Phone: {provider.contact.get('phone', '')}",
        f"Email: {provider.contact.get('email', '')}",
        f"Languages: {', '.join(provider.languages)}",
        f"Consultation Fee: {money(provider.consultation_fee)}",
        "Weekly Schedule:",
    ]
    for day, slots in provider.to_record()["schedule"].items():
        lines.append(f"- {day.title()}: {', '.join(slots) if slots else 'Not available'}")
    return "\n".join(lines)


@reader
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
                f"- {provider_name(provider)} (ID: {provider.provider_id})",
                f"  Specialty: {provider.specialty}",
                f"  Experience: {provider.years_experience} years",
                f"  Languages: {', '.join(provider.languages)}",
                f"  Consultation Fee: {money(provider.consultation_fee)}",
                f"  Phone: {provider.contact.get('phone', '')}",
            ]
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------------- appointments


@reader
async def get_appointment_details(db: Store, appointment_id: AppointmentId) -> str:
    """Get an appointment: patient, provider, date and time, duration, type, status, complaint,
    notes, insurance authorization, copay, meeting link, and any prescription, referral or
    cancellation."""
    appointment = load_appointment(db, appointment_id)
    patient = db.get(Patient, appointment.patient_id)
    provider = db.get(Provider, appointment.provider_id)
    provider_line = (
        f"Dr. {provider.name.get('last_name', '')} - {provider.specialty}" if provider else "Unknown Provider"
    )
    lines = [
        f"Appointment ID: {appointment.appointment_id}",
        f"Patient: {full_name(patient)} (ID: {appointment.patient_id})",
        f"Provider: {provider_line} (ID: {appointment.provider_id})",
        f"Date: {appointment.date}",
        f"Time: {appointment.time}",
        f"Duration: {appointment.duration_minutes} minutes",
        f"Type: {title(appointment.type)}",
        f"Status: {title(appointment.status)}",
        f"Chief Complaint: {shown(appointment.chief_complaint)}",
        f"Notes: {shown(appointment.notes)}",
        f"Insurance Authorization: {appointment.insurance_authorization}",
        f"Copay: {money(appointment.copay_amount)}",
        f"Meeting Link: {shown(appointment.meeting_link)}",
    ]
    issued = appointment.prescription_issued
    if issued:
        lines.extend(
            [
                "Prescription Issued:",
                *(
                    f"  {title(key)}: {issued[key]}"
                    for key in ("medication", "dosage", "frequency", "quantity", "refills")
                    if key in issued
                ),
            ]
        )
    if appointment.referral_from:
        lines.append(f"Referral From: {appointment.referral_from}")
    if appointment.cancellation_reason or appointment.cancellation_date:
        lines.append(f"Cancellation Reason: {title(appointment.cancellation_reason or '')}")
        lines.append(f"Cancellation Date: {shown(appointment.cancellation_date)}")
    return "\n".join(lines)


def _appointment_sort_key(appointment: Appointment) -> tuple[int, datetime, str]:
    try:
        moment = datetime.strptime(f"{appointment.date} {appointment.time}", "%Y-%m-%d %H:%M")
        return 1, moment, appointment.appointment_id
    except ValueError:
        return 0, datetime.min, appointment.appointment_id


@reader
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
    patient = load_patient(db, patient_id)
    where = [func.lower(Appointment.status) == status_filter.lower()] if status_filter else []
    appointments = sorted(
        db.scan(Appointment, Appointment.patient_id == patient_id, *where), key=_appointment_sort_key
    )
    with_status = f" with status {status_filter}" if status_filter else ""
    if not appointments:
        return f"No appointments found for patient {patient_id}{with_status}."
    lines = [f"Appointments for {full_name(patient)} (ID: {patient_id}){with_status}:"]
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
            f"[{title(appointment.status)}, Type: {title(appointment.type)}]"
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
    patient = load_patient(db, patient_id)
    provider = load_provider(db, provider_id)
    check_slot(db, provider, date, time)
    number = next_appointment_number(db)
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
        f"Patient: {full_name(patient)}",
        f"Provider: Dr. {provider.name.get('last_name', '')} - {provider.specialty}",
        f"Date: {date}",
        f"Time: {time}",
        f"Type: {title(appointment_type)}",
    ]
    if insured:
        lines += [
            f"Copay: {money(copay)}",
            f"Insurance Authorization: {appointment.insurance_authorization}",
        ]
    else:
        lines += ["Insurance: not billed", f"Payment Method: {title(method)}"]
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
    appointment = load_appointment(db, appointment_id)
    if appointment.status == "cancelled":
        raise ToolError(f"Cannot reschedule appointment {appointment_id} - appointment has been cancelled.")
    if appointment.status == "completed":
        raise ToolError(
            f"Cannot reschedule appointment {appointment_id} - appointment has already been completed."
        )
    provider = load_provider(db, appointment.provider_id)
    check_slot(db, provider, new_date, new_time, exclude=appointment_id)
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
            f"Patient: {full_name(patient)}",
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
    appointment = load_appointment(db, appointment_id)
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
            f"Patient: {full_name(patient)}",
            f"Provider: {who}",
            f"Original Date: {appointment.date} at {appointment.time}",
            f"Reason: {title(appointment.cancellation_reason)}",
            f"Cancellation Date: {appointment.cancellation_date}",
        ]
    )


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
