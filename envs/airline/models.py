"""Airline tables: flights, reservations and users, in the published τ-Emotion-Bench layout.

Each table has one primary-key column (the published dict key). Nested values live in JSON text
columns so that list order and int/float types survive exactly. `to_record()` gives the published
JSON record of a row and `from_record()` builds a row from one.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import registry
from sqlmodel import Field

from taue.envs.runtime.database import DomainTable, JSONText

NEW_CERTIFICATE_IDS = ("certificate_3221322", "certificate_3221323", "certificate_3221324")
"""The ids `send_certificate` gives, lowest free one first."""

_KEY_ORDER = (
    "first_name", "last_name", "dob",
    "address1", "address2", "city", "country", "state", "zip",
    "source", "brand", "last_four", "payment_id", "amount", "id",
    "status",
    "actual_departure_time_est", "actual_arrival_time_est",
    "estimated_departure_time_est", "estimated_arrival_time_est",
    "available_seats", "prices", "basic_economy", "economy", "business",
    "flight_number", "date", "price", "origin", "destination",
)  # fmt: skip
_KEY_RANK = {name: rank for rank, name in enumerate(_KEY_ORDER)}


def readable(value: Any) -> Any:
    """`value` with the keys of nested objects in the published reading order.

    JSON columns are stored with sorted keys; key order never matters for the state, only for how
    a tool's JSON answer reads. Unknown keys (dates, payment ids) come last, sorted.
    """
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: (_KEY_RANK.get(key, len(_KEY_RANK)), key))
        return {key: readable(value[key]) for key in keys}
    if isinstance(value, list):
        return [readable(item) for item in value]
    return value


class AirlineTable(DomainTable, registry=registry()):
    """Base of the airline tables; a record's nested objects list their keys in reading order."""

    def record_value(self, name: str, value: Any) -> Any:
        return readable(value)


class Flight(AirlineTable, table=True):
    """A scheduled flight and its per-day status, seats and prices (`dates`: "YYYY-MM-DD" -> day)."""

    __tablename__ = "flights"

    flight_number: str = Field(primary_key=True)
    origin: str
    destination: str
    scheduled_departure_time_est: str
    scheduled_arrival_time_est: str
    dates: dict[str, dict[str, Any]] = Field(default_factory=dict, sa_type=JSONText)

    def summary(self) -> dict[str, Any]:
        """The flight record without its `dates`."""
        return {
            "flight_number": self.flight_number,
            "origin": self.origin,
            "destination": self.destination,
            "scheduled_departure_time_est": self.scheduled_departure_time_est,
            "scheduled_arrival_time_est": self.scheduled_arrival_time_est,
        }


class Reservation(AirlineTable, table=True):
    """A booking: its segments, passengers, payments and bags. `status` is None until cancelled."""

    __tablename__ = "reservations"

    reservation_id: str = Field(primary_key=True)
    user_id: str
    origin: str
    destination: str
    flight_type: str
    cabin: str
    flights: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONText)
    passengers: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONText)
    payment_history: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONText)
    created_at: str
    total_baggages: int
    nonfree_baggages: int
    insurance: str
    status: str | None = None

    record_optional = frozenset({"status"})


class User(AirlineTable, table=True):
    """A customer: profile, payment methods (id -> method), saved passengers, reservation ids."""

    __tablename__ = "users"
    record_has_key = False  # the published user record has no `user_id` field

    user_id: str = Field(primary_key=True)
    name: dict[str, str] = Field(sa_type=JSONText)
    address: dict[str, str] = Field(sa_type=JSONText)
    email: str
    dob: str
    payment_methods: dict[str, dict[str, Any]] = Field(default_factory=dict, sa_type=JSONText)
    saved_passengers: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONText)
    membership: str
    reservations: list[str] = Field(default_factory=list, sa_type=JSONText)

    @staticmethod
    def created_ids_in(record: dict[str, Any]) -> list[tuple[str, str, Any]]:
        """Certificates `send_certificate` created in this user's payment methods, for the comparable
        state (envs/runtime/comparable.py): (kind, id, content)."""
        methods = record.get("payment_methods") or {}
        return [("certificates", key, methods[key]) for key in NEW_CERTIFICATE_IDS if key in methods]
