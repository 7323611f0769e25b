"""Telehealth's seed records as the Tracer reads them (docs/tracer.md): an indexed view, the
customers and the phrasing helpers its intents and policy check share."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cached_property
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.runtime.authoring import Customer, Lookups
from taue.envs.telehealth import models as m
from taue.envs.telehealth.generate import SLOTS, generate
from taue.envs.telehealth.rules import ACTIVE, TODAY

Record = dict[str, Any]
Rng = random.Random
DAYS = tuple((TODAY + timedelta(days=n)).isoformat() for n in range(3, 36))
"""The days a new visit or a move may fall on."""
BOOKABLE = ("Primary Care", "Cardiology", "Endocrinology", "Neurology", "Pulmonology", "Psychiatry")

PERSONAS = tuple(
    [
        "a retired postal worker who keeps a paper diary of every appointment",
        "a night-shift nurse calling between two shifts",
        "a graduate student juggling classes and a new diagnosis",
        "a long-haul truck driver calling from a rest stop",
        "a primary-school teacher with ten minutes before the bell",
        "a caregiver who fits their own care around a parent's visits",
        "a freelance designer who pays close attention to costs",
        "a newly retired engineer who likes to double-check details",
        "a restaurant manager with a packed week",
        "a parent of three who is always short on time",
        "a software developer who prefers quick, precise answers",
        "a farmer calling on a patchy rural connection",
    ]
)
NOTES = tuple(
    [
        "Patient asks the care team to call back about side effects of {medication}",
        "Patient requests a printed copy of the care plan by mail",
        "Patient will share a week of home readings before the next visit",
        "Patient asks the care team to review the {medication} dose at the next visit",
        "Patient prefers morning video visits from now on",
        "Patient travelling until mid January; please contact by email",
        "Patient asks for a refill reminder for {medication}",
        "Patient reports new dizziness in the mornings and asks for a call back",
    ]
)

# ------------------------------------------------------------------------------------------ seed view


@dataclass
class View:
    patients: dict[str, Record]
    providers: dict[str, Record]
    appointments: dict[str, Record]
    records: dict[str, Record]
    suppliers: dict[str, list[Record]]
    interactions: dict[str, dict[str, Record]]
    free: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    @cached_property
    def by_patient(self) -> dict[str, list[Record]]:
        """Each patient's visits in `list_patient_appointments` order."""
        found: dict[str, list[Record]] = {}
        for visit in sorted(
            self.appointments.values(), key=lambda a: (a["date"], a["time"], a["appointment_id"])
        ):
            found.setdefault(visit["patient_id"], []).append(visit)
        return found

    def visits(self, patient_id: str, *statuses: str) -> list[Record]:
        return [a for a in self.by_patient.get(patient_id, []) if not statuses or a["status"] in statuses]

    def visit_lookups(self, visit: Record, status_filter: str | None) -> Lookups:
        listed = self.visits(visit["patient_id"], *([status_filter] if status_filter else []))
        ids = [a["appointment_id"] for a in listed]
        return Lookups(tuple(ids[: ids.index(visit["appointment_id"]) + 1]))

    @cached_property
    def records_by_patient(self) -> dict[str, list[Record]]:
        """Each patient's records newest first, as `list_patient_medical_records` lists them."""
        found: dict[str, list[Record]] = {}
        for _, record in sorted(self.records.items()):
            found.setdefault(record["patient_id"], []).append(record)
        return {p: sorted(rs, key=lambda r: r["date"], reverse=True) for p, rs in found.items()}

    def records_of(self, patient_id: str) -> list[Record]:
        return self.records_by_patient.get(patient_id, [])

    def record_lookups(self, record: Record) -> Lookups:
        ids = [r["record_id"] for r in self.records_of(record["patient_id"])]
        return Lookups(tuple(ids[: ids.index(record["record_id"]) + 1]))

    def medications(self, patient_id: str) -> list[str]:
        return [x["name"] for x in self.patients[patient_id]["medical_history"]["medications"]]

    @cached_property
    def busy(self) -> set[tuple[str, str, str]]:
        return {
            (a["provider_id"], a["date"], a["time"])
            for a in self.appointments.values()
            if a["status"] in ACTIVE
        }

    def slots(self, provider_id: str, day: str) -> list[str]:
        weekday = m.WEEKDAYS[date.fromisoformat(day).weekday()]
        return self.providers[provider_id]["schedule"].get(weekday, [])

    def free_slot(self, provider_id: str, rng: Rng) -> tuple[str, str] | None:
        free = self.free_slots(provider_id)
        return rng.choice(free) if free else None

    def free_slots(self, provider_id: str) -> list[tuple[str, str]]:
        if provider_id not in self.free:
            slots = [(d, s) for d in DAYS for s in self.slots(provider_id, d)]
            self.free[provider_id] = [(d, s) for d, s in slots if (provider_id, d, s) not in self.busy]
        return self.free[provider_id]

    def bad_slot(self, provider_id: str, rng: Rng, exclude: str = "") -> tuple[str, str] | None:
        """A future slot the provider cannot be booked in: a day off, an unlisted time or a taken slot."""
        days = DAYS
        off = [(d, rng.choice(SLOTS[2:12])) for d in days if not self.slots(provider_id, d)]
        unlisted = [
            (d, s)
            for d in days
            for s in SLOTS
            if self.slots(provider_id, d) and s not in self.slots(provider_id, d)
        ]
        taken = [
            (a["date"], a["time"])
            for a in self.appointments.values()
            if a["provider_id"] == provider_id and a["status"] in ACTIVE and a["appointment_id"] != exclude
        ]
        kinds = [k for k in (off, unlisted, taken) if k]
        return rng.choice(rng.choice(kinds)) if kinds else None

    @cached_property
    def name_dob_counts(self) -> Counter[tuple[str, str, str]]:
        return Counter(_name_dob(p) for p in self.patients.values())

    @cached_property
    def email_counts(self) -> Counter[str]:
        return Counter(p["demographics"]["email"] for p in self.patients.values())


def load(seed: int) -> View:
    rows = generate(seed)
    return View(
        patients={r.patient_id: r.to_record() for r in rows if isinstance(r, m.Patient)},
        providers={r.provider_id: r.to_record() for r in rows if isinstance(r, m.Provider)},
        appointments={r.appointment_id: r.to_record() for r in rows if isinstance(r, m.Appointment)},
        records={r.record_id: r.to_record() for r in rows if isinstance(r, m.MedicalRecord)},
        suppliers={r.medication: r.to_record() for r in rows if isinstance(r, m.MedicationSupplierList)},
        interactions={r.medication: r.to_record() for r in rows if isinstance(r, m.DrugInteraction)},
    )


def _name_dob(patient: Record) -> tuple[str, str, str]:
    name = patient["name"]
    return (name["first_name"].lower(), name["last_name"].lower(), patient["demographics"]["date_of_birth"])


def customers(view: View) -> list[Customer]:
    result = []
    for index, (patient_id, patient) in enumerate(sorted(view.patients.items())):
        if _minor(patient):
            continue  # a child's care is managed by a parent, never by the child on the phone
        name = f"{patient['name']['first_name']} {patient['name']['last_name']}"
        email = patient["demographics"]["email"]
        by_name = view.name_dob_counts[_name_dob(patient)] == 1 and (
            index % 3 == 2 or view.email_counts[email] > 1
        )
        if by_name:
            known = {
                "first_name": patient["name"]["first_name"],
                "last_name": patient["name"]["last_name"],
                "date_of_birth": patient["demographics"]["date_of_birth"],
            }
            first = Action(name="find_patient_by_name_dob", arguments=known)
        elif view.email_counts[email] == 1:
            known = {"email": email}
            first = Action(name="find_patient_by_email", arguments=known)
        else:
            continue
        identity = (first, Action(name="get_patient_details", arguments={"patient_id": patient_id}))
        result.append(Customer(patient_id, name, identity, known, {"patient_id": patient_id}))
    return result


def _minor(patient: Record) -> bool:
    born = date.fromisoformat(patient["demographics"]["date_of_birth"])
    return (TODAY.year - born.year - ((TODAY.month, TODAY.day) < (born.month, born.day))) < 18


# ------------------------------------------------------------------------------------------- phrasing


def doctor(view: View, provider_id: str) -> str:
    name = view.providers[provider_id]["name"]
    return f"Dr. {name['first_name']} {name['last_name']}"


def kind_words(kind: str) -> str:
    return kind.replace("_", " ")


def visit_words(view: View, visit: Record) -> str:
    return (
        f"{kind_words(visit['type'])} with {doctor(view, visit['provider_id'])} on {visit['date']} "
        f"at {visit['time']}"
    )


def _shuffled(records: list[Record], rng: Rng) -> list[Record]:
    records = list(records)
    rng.shuffle(records)
    return records


def _upcoming(view: View, customer: Customer) -> list[Record]:
    return [
        v for v in view.visits(customer.id, *ACTIVE) if v["date"] > TODAY.isoformat() and v["meeting_link"]
    ]
