"""What the telehealth tools share: published constants, parameter types, the read-tool wrapper, the
display helpers and the lookups that fail with the published messages."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from functools import wraps
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlmodel import col, select

from taue.envs.runtime.database import Store
from taue.envs.telehealth.models import (
    Appointment,
    Patient,
    Provider,
)
from taue.envs.telehealth.rules import ACTIVE

MEETING_ROOT = "https://telehealth.healthcenter.com/room/"
SEVERITY_RANK = {"low": 1, "moderate": 2, "high": 3}
NOT_RECORDED = "Not recorded"
APPOINTMENT_NUMBER = re.compile(r"APPT(?:_tracer_)?(\d+)")

PatientId = Annotated[str, Field(description="The patient id, e.g. 'lena_okafor_4821'.")]
ProviderId = Annotated[str, Field(description="The provider id, e.g. 'dr_okafor_cardiology'.")]
AppointmentId = Annotated[str, Field(description="The appointment id, e.g. 'APPT012' or 'APPT_tracer_105'.")]
RecordId = Annotated[str, Field(description="The medical record id, e.g. 'REC004' or 'REC_tracer_052'.")]
Day = Annotated[str, Field(description="A date as 'YYYY-MM-DD', e.g. '2025-12-03'.")]
Slot = Annotated[str, Field(description="A time slot as 'HH:MM' (24-hour), e.g. '14:30'.")]
Limit = Annotated[int | None, Field(description="Show at most this many entries (all when omitted).")]
DeviceId = Annotated[str, Field(description="The telemetry device id, e.g. 'NS-EEG-204'.")]


def reader(fn: Callable[..., Awaitable[str]]) -> Callable[..., Awaitable[str]]:
    """A read tool: its "not found" `ToolError`s become the published plain-text answers."""

    @wraps(fn)
    async def read(*args: Any, **kwargs: Any) -> str:
        try:
            return await fn(*args, **kwargs)
        except ToolError as exc:
            return str(exc)

    return read


def title(value: str) -> str:
    """'pending_approval' -> 'Pending Approval' (the published display form)."""
    return value.replace("_", " ").title()


def money(value: Any) -> str:
    return f"${value:.2f}" if isinstance(value, int | float) else NOT_RECORDED


def shown(value: Any) -> str:
    return NOT_RECORDED if value is None else str(value)


def listed(values: list[str]) -> str:
    return ", ".join(values) if values else "None"


def full_name(patient: Patient | None) -> str:
    if patient is None:
        return "Unknown Patient"
    return f"{patient.name.get('first_name', '')} {patient.name.get('last_name', '')}".strip()


def provider_name(provider: Provider) -> str:
    name = provider.name
    return f"{name.get('title') or 'Dr.'} {name.get('first_name', '')} {name.get('last_name', '')}"


def load_patient(db: Store, patient_id: str) -> Patient:
    return db.require(Patient, patient_id, f"Patient with ID {patient_id} not found.")


def load_provider(db: Store, provider_id: str) -> Provider:
    return db.require(Provider, provider_id, f"Provider with ID {provider_id} not found.")


def load_appointment(db: Store, appointment_id: str) -> Appointment:
    return db.require(Appointment, appointment_id, f"Appointment with ID {appointment_id} not found.")


def check_slot(db: Store, provider: Provider, date: str, time: str, exclude: str | None = None) -> None:
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
        col(Appointment.status).in_(ACTIVE),
    ]
    if exclude is not None:
        where.append(Appointment.appointment_id != exclude)
    if db.scan(Appointment, *where):
        raise ToolError(f"Provider {pid} already has an appointment scheduled at {time} on {date}.")


def next_appointment_number(db: Store) -> int:
    ids = set(db.session.exec(select(Appointment.appointment_id)))
    numbers = [int(m.group(1)) for i in ids if (m := APPOINTMENT_NUMBER.fullmatch(i))]
    number = max(numbers, default=0) + 1
    while f"APPT{number:03d}" in ids or f"APPT_tracer_{number:03d}" in ids:
        number += 1
    return number
