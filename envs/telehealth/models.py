"""Telehealth tables in the published τ-Emotion-Bench layout, one SQLModel table per published file.

Column names are the published field names. Nested values, and every number whose int/float type
matters, are JSON text columns, so list order and `25` vs `25.0` survive exactly. Each model has
`to_record()` (the published record; absent optional fields are omitted) and
`from_record(key, record)` (the inverse; `key` is the published dict key, or the array index).

Published shape -> our rows (the primary key of each table in brackets):

- `patients`, `providers`, `appointments`, `medical_records`, `regimen_plans`: JSON objects keyed
  by id -> one row per record [the id, also a field of the record].
- `medication_suppliers`: object medication -> array of offers -> one row per medication
  [`medication`, the map key]; the offers array is one JSON column, order kept.
- `drug_interactions`: object medication -> medication -> details -> one row per outer key
  [`medication`, the map key]; the inner object is one JSON column.
- `telemetry_inventory`, `telemetry_uploads`: JSON arrays -> one row per element [`position`, the
  array index], so the published order is the primary-key order.

Object keys come back in primary-key order and JSON columns are stored with sorted keys; `to_record`
restores a reading order for known keys. Key order never changes the state (the published hash and
our canonical state sort keys). `rows_from_tables` / `tables_from_rows` convert a whole published
database (`{file stem: parsed JSON}`) to rows and back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Self

from sqlalchemy.orm import registry
from sqlmodel import Field

from taue.envs.runtime.database import DomainTable, JSONText, primary_key

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_KEY_ORDER = (
    "first_name",
    "last_name",
    "title",
    "name",
    "date_of_birth",
    "gender",
    "phone",
    "email",
    "address1",
    "address2",
    "city",
    "state",
    "zip",
    "primary",
    "provider",
    "policy_number",
    "group_number",
    "copay_primary",
    "copay_specialist",
    "conditions",
    "allergies",
    "medications",
    "surgeries",
    "procedure",
    "surgeon",
    "relationship",
    *WEEKDAYS,
    "medication",
    "company",
    "country",
    "dosage",
    "frequency",
    "quantity",
    "duration",
    "refills",
    "pharmacy",
    "brand",
    "brand_name",
    "price_usd",
    "currency",
    "unit_cost_usd",
    "supplier",
    "focus",
    "components",
    "daily_dose",
    "monthly_units",
    "unit_type",
    "preferred_brand",
    "pill_burden",
    "tablets_per_day",
    "devices_per_month",
    "notes",
    "synergy_notes",
    "severity",
    "risk_score",
    "time_overlap_hours",
    "action",
    "skip",
    "emergency",
    "blood_pressure",
    "heart_rate",
    "temperature",
    "weight",
    "height",
    "date",
    "note",
)
_KEY_RANK = {name: rank for rank, name in enumerate(_KEY_ORDER)}


def readable(value: Any) -> Any:
    """`value` with the keys of nested objects in a fixed reading order (unknown keys last, sorted)."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: (_KEY_RANK.get(key, len(_KEY_RANK)), key))
        return {key: readable(value[key]) for key in keys}
    if isinstance(value, list):
        return [readable(item) for item in value]
    return value


class TelehealthTable(DomainTable, registry=registry()):
    """Base of the telehealth tables; a record's nested objects list their keys in reading order."""

    def record_value(self, name: str, value: Any) -> Any:
        return readable(value)


class Patient(TelehealthTable, table=True):
    """A patient profile (`patients` table), keyed by patient id (e.g. `lena_okafor_4821`)."""

    __tablename__ = "patients"

    patient_id: str = Field(primary_key=True)
    name: dict[str, str] = Field(sa_type=JSONText)
    demographics: dict[str, str] = Field(sa_type=JSONText)
    address: dict[str, str] = Field(sa_type=JSONText)
    insurance: dict[str, Any] = Field(sa_type=JSONText)
    medical_history: dict[str, Any] = Field(sa_type=JSONText)
    emergency_contact: dict[str, str] = Field(sa_type=JSONText)


class Provider(TelehealthTable, table=True):
    """A clinician (`providers` table): specialty, weekly slot schedule, fee."""

    __tablename__ = "providers"

    provider_id: str = Field(primary_key=True)
    name: dict[str, str] = Field(sa_type=JSONText)
    specialty: str
    license_number: str | None = None
    credentials: list[str] = Field(sa_type=JSONText)
    contact: dict[str, str] = Field(sa_type=JSONText)
    schedule: dict[str, list[str]] = Field(sa_type=JSONText)
    """Lower-case English weekday -> "HH:MM" slot strings."""
    consultation_fee: int | float = Field(sa_type=JSONText)
    languages: list[str] = Field(sa_type=JSONText)
    years_experience: int | float = Field(sa_type=JSONText)

    record_optional = frozenset({"license_number"})


class Appointment(TelehealthTable, table=True):
    """A telehealth visit (`appointments` table), keyed `APPT001` or `APPT_tracer_061` style.

    `voucher_id` may be a stored null: it is part of the record whenever `payment_method` is (both
    are written by `schedule_appointment`), and otherwise only when not None.
    """

    __tablename__ = "appointments"

    appointment_id: str = Field(primary_key=True)
    patient_id: str
    provider_id: str
    date: str
    time: str
    duration_minutes: int | float = Field(sa_type=JSONText)
    type: str
    status: str
    chief_complaint: str | None = None
    notes: str | None = None
    insurance_authorization: str | None = None
    copay_amount: int | float | None = Field(default=None, sa_type=JSONText)
    meeting_link: str | None = None
    prescription_issued: dict[str, Any] | None = Field(default=None, sa_type=JSONText)
    referral_from: str | None = None
    cancellation_reason: str | None = None
    cancellation_date: str | None = None
    payment_method: str | None = None
    voucher_id: str | None = None
    insurance_billed: bool | None = None

    record_optional = frozenset(
        {
            "chief_complaint",
            "notes",
            "copay_amount",
            "meeting_link",
            "prescription_issued",
            "referral_from",
            "cancellation_reason",
            "cancellation_date",
            "payment_method",
            "voucher_id",
            "insurance_billed",
        }
    )
    """`insurance_authorization` is not one: it is null for self-pay bookings, and still listed."""

    def record_omits(self, name: str, value: Any) -> bool:
        # schedule_appointment writes voucher_id with payment_method, so it is then listed even as null
        if name == "voucher_id" and self.payment_method is not None:
            return False
        return super().record_omits(name, value)

    @staticmethod
    def id_aliases(key: str) -> list[str]:
        """Strings `schedule_appointment` derives from a new appointment's number (`APPT101` ->
        `AUTH000101`), renamed with it in the comparable state (envs/runtime/comparable.py)."""
        number = re.fullmatch(r"APPT(\d+)", key)
        return [f"AUTH{int(number.group(1)):06d}"] if number else []


class MedicalRecord(TelehealthTable, table=True):
    """A clinical note (`medical_records` table), keyed `REC001` or `REC_tracer_061` style.

    `appointment_id` may be null and is always part of the record; `prescriptions` and `notes` are
    absent from some records (None here).
    """

    __tablename__ = "medical_records"

    record_id: str = Field(primary_key=True)
    appointment_id: str | None = None
    patient_id: str
    provider_id: str
    date: str
    type: str
    vital_signs: dict[str, Any] | None = Field(default=None, sa_type=JSONText)
    subjective: str | None = None
    objective: str | None = None
    assessment: str | None = None
    plan: str | None = None
    lab_orders: list[Any] | None = Field(default=None, sa_type=JSONText)
    recommendations: list[Any] | None = Field(default=None, sa_type=JSONText)
    prescriptions: list[dict[str, Any]] | None = Field(default=None, sa_type=JSONText)
    notes: list[dict[str, Any]] | None = Field(default=None, sa_type=JSONText)
    next_appointment: str | None = None

    record_optional = frozenset(
        {
            "vital_signs",
            "subjective",
            "objective",
            "assessment",
            "plan",
            "lab_orders",
            "recommendations",
            "prescriptions",
            "notes",
            "next_appointment",
        }
    )


class RegimenPlan(TelehealthTable, table=True):
    """A patient's current medication regimen and optimized alternatives (`regimen_plans` table)."""

    __tablename__ = "regimen_plans"

    patient_id: str = Field(primary_key=True)
    current_regimen: dict[str, Any] = Field(sa_type=JSONText)
    optimized_regimens: list[dict[str, Any]] = Field(sa_type=JSONText)


class MedicationSupplierList(TelehealthTable, table=True):
    """The supplier offers for one medication (`medication_suppliers`: medication -> offers array)."""

    __tablename__ = "medication_suppliers"

    medication: str = Field(primary_key=True)
    offers: list[dict[str, Any]] = Field(sa_type=JSONText)
    """`{company, country, brand_name, price_usd}` objects, in published order."""

    # The published record is the offers array itself, not an object of the row's columns.
    def to_record(self) -> list[dict[str, Any]]:  # type: ignore[override]  # an array, not an object
        return readable(self.offers)

    @classmethod
    def from_record(cls, key: str, record: list[dict[str, Any]]) -> Self:  # type: ignore[override]  # array
        return cls(medication=key, offers=record)


class DrugInteraction(TelehealthTable, table=True):
    """One medication's documented interactions (`drug_interactions`: medication -> medication -> details)."""

    __tablename__ = "drug_interactions"

    medication: str = Field(primary_key=True)
    interactions: dict[str, dict[str, Any]] = Field(sa_type=JSONText)
    """Other medication -> `{severity, risk_score, time_overlap_hours, action, skip, emergency}`."""

    # The published record is the interactions object itself, not an object of the row's columns.
    def to_record(self) -> dict[str, Any]:
        return readable(self.interactions)

    @classmethod
    def from_record(cls, key: str, record: dict[str, Any]) -> Self:
        return cls(medication=key, interactions=record)


class TelemetryDevice(TelehealthTable, table=True):
    """A remote-monitoring device (`telemetry_inventory`, a published array; `position` = its index)."""

    __tablename__ = "telemetry_inventory"
    record_has_key = False

    position: int = Field(primary_key=True)
    device_id: str
    device_type: str
    status: str
    last_audit: str
    assigned_to: str | None = None
    notes: str


class TelemetryUpload(TelehealthTable, table=True):
    """One day of device data (`telemetry_uploads`, a published array; `position` = its index)."""

    __tablename__ = "telemetry_uploads"
    record_has_key = False

    position: int = Field(primary_key=True)
    device_id: str
    date: str
    usage_hours: int | float = Field(sa_type=JSONText)
    synced_at: str | None = None
    event: str
    alerts: list[str] = Field(sa_type=JSONText)


TABLES: tuple[type[TelehealthTable], ...] = (
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
MODEL_OF: dict[str, type[TelehealthTable]] = {model.__tablename__: model for model in TABLES}
ARRAY_TABLES = frozenset({"telemetry_inventory", "telemetry_uploads"})
"""Tables published as JSON arrays (keyed here by array index); the others are JSON objects."""


def _key(row: TelehealthTable) -> Any:
    return getattr(row, primary_key(type(row)))


def rows_from_tables(tables: dict[str, Any]) -> list[TelehealthTable]:
    """Rows for a published database `{file stem: parsed JSON}` (every file optional)."""
    rows: list[TelehealthTable] = []
    for name, value in tables.items():
        model = MODEL_OF[name]
        items = enumerate(value) if name in ARRAY_TABLES else value.items()
        rows.extend(model.from_record(key, record) for key, record in items)
    return rows


def tables_from_rows(rows: Iterable[TelehealthTable]) -> dict[str, Any]:
    """The published database (`{file stem: JSON value}`) for rows; every table present."""
    grouped: dict[str, list[TelehealthTable]] = {name: [] for name in sorted(MODEL_OF)}
    for row in rows:
        grouped[row.__tablename__].append(row)
    tables: dict[str, Any] = {}
    for name, table_rows in grouped.items():
        ordered = sorted(table_rows, key=_key)
        if name in ARRAY_TABLES:
            tables[name] = [row.to_record() for row in ordered]
        else:
            tables[name] = {_key(row): row.to_record() for row in ordered}
    return tables
