"""Write `envs/telehealth/tasks.json`: 20 hand-designed emotional telehealth tasks and their neutral twins.

Run `python -m taue.envs.telehealth.author_tasks`. Every task is built from concrete entities of the seed
database (seed 0): each task function states what kind of patient it needs, the first patient (in
patient-id order) who fits and is not used by another task is taken, and the gold actions, the facts
and the expected outputs are computed from that patient's records. The script checks each scenario
against the rules in `check_draft` before writing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from taue.contracts.tasks import (
    Action,
    Emotion,
    Evaluation,
    Goal,
    Provenance,
    Task,
    UserScenario,
    neutral_twin,
)
from taue.envs.runtime.goal_targets import attach_targets
from taue.envs.telehealth.generate import generate
from taue.envs.telehealth.models import (
    WEEKDAYS,
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

TASKS_PATH = Path(__file__).with_name("tasks.json")
SEED = 0
ACTIVE = ("scheduled", "pending_approval")
NOT_ASKED = frozenset({"summary", "thought", "expression", "reason"})
"""Arguments the pester baseline never asks for (agent-runner/agents/pester.py)."""
Record = dict[str, Any]


def act(name: str, **arguments: Any) -> Action:
    return Action(name=name, arguments=arguments)


def money(value: float) -> str:
    """An amount as a patient would hear it: two decimals at most, no trailing zeros, no commas."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def day_after(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


# ------------------------------------------------------------------------------------------ seed data


class Seed:
    """The seed records of the telehealth domain, with the look-ups task functions need."""

    def __init__(self, seed: int) -> None:
        rows = generate(seed)
        self.patients: dict[str, Record] = {
            r.patient_id: r.to_record() for r in rows if isinstance(r, Patient)
        }
        self.providers: dict[str, Record] = {
            r.provider_id: r.to_record() for r in rows if isinstance(r, Provider)
        }
        self.appointments: dict[str, Record] = {
            r.appointment_id: r.to_record() for r in rows if isinstance(r, Appointment)
        }
        self.records: dict[str, Record] = {
            r.record_id: r.to_record() for r in rows if isinstance(r, MedicalRecord)
        }
        self.suppliers: dict[str, list[Record]] = {
            r.medication: r.to_record() for r in rows if isinstance(r, MedicationSupplierList)
        }
        self.regimens = {r.patient_id: r.to_record() for r in rows if isinstance(r, RegimenPlan)}
        self.interactions = {r.medication: r.to_record() for r in rows if isinstance(r, DrugInteraction)}
        self.devices = [r.to_record() for r in rows if isinstance(r, TelemetryDevice)]
        self.uploads = [r.to_record() for r in rows if isinstance(r, TelemetryUpload)]
        self.used: set[str] = set()

    def pick(self, plan: Callable[[str], Record | None]) -> Record:
        """The plan of the first unused patient (in id order) for whom `plan` finds one."""
        for patient_id in sorted(self.patients):
            if patient_id in self.used:
                continue
            found = plan(patient_id)
            if found is not None:
                self.used.add(patient_id)
                return {"patient_id": patient_id, "patient": self.patients[patient_id], **found}
        raise LookupError(f"no seed patient fits {plan.__name__}")

    # --- patients

    def email_ok(self, patient_id: str) -> bool:
        email = self.patients[patient_id]["demographics"]["email"]
        return bool(email) and [p for p in self.patients.values() if p["demographics"]["email"] == email] == [
            self.patients[patient_id]
        ]

    def name_dob_ok(self, patient_id: str) -> bool:
        def key(p: Record) -> tuple[str, str, str]:
            return (
                p["name"]["first_name"].lower(),
                p["name"]["last_name"].lower(),
                p["demographics"]["date_of_birth"],
            )

        mine = key(self.patients[patient_id])
        return sum(key(p) == mine for p in self.patients.values()) == 1

    def medications(self, patient_id: str) -> list[str]:
        return [m["name"] for m in self.patients[patient_id]["medical_history"]["medications"]]

    # --- appointments

    def appointments_of(self, patient_id: str, *statuses: str) -> list[Record]:
        found = [
            a for a in self.appointments.values() if a["patient_id"] == patient_id and a["status"] in statuses
        ]
        return sorted(found, key=lambda a: (a["date"], a["time"], a["appointment_id"]))

    def free_slots(self, provider_id: str, day: str, taken: tuple[tuple[str, str], ...] = ()) -> list[str]:
        weekday = WEEKDAYS[date.fromisoformat(day).weekday()]
        busy = {
            (a["date"], a["time"])
            for a in self.appointments.values()
            if a["provider_id"] == provider_id and a["status"] in ACTIVE
        }
        busy.update(taken)
        return [s for s in self.providers[provider_id]["schedule"].get(weekday, []) if (day, s) not in busy]

    def first_free(self, provider_id: str, after: str, nth: int = 0) -> tuple[str, str]:
        """The first day after `after` with a free slot of the provider, and its `nth` free slot."""
        for offset in range(1, 60):
            day = day_after(after, offset)
            slots = self.free_slots(provider_id, day)
            if slots:
                return day, slots[min(nth, len(slots) - 1)]
        raise LookupError(f"provider {provider_id} has no free slot after {after}")

    def providers_of(self, specialty: str) -> list[Record]:
        return [p for pid, p in sorted(self.providers.items()) if p["specialty"] == specialty]

    def copay(self, patient_id: str, provider_id: str) -> float:
        plan = self.patients[patient_id]["insurance"]["primary"]
        primary = self.providers[provider_id]["specialty"] == "Primary Care"
        return plan["copay_primary"] if primary else plan["copay_specialist"]

    # --- records and suppliers

    def records_of(self, patient_id: str) -> list[Record]:
        """The patient's records newest first, as `list_patient_medical_records` orders them."""
        mine = [r for _, r in sorted(self.records.items()) if r["patient_id"] == patient_id]
        return sorted(mine, key=lambda r: r["date"], reverse=True)

    def latest_with_prescriptions(self, patient_id: str, count: int = 1) -> Record | None:
        for record in self.records_of(patient_id):
            names = [p["medication"] for p in record.get("prescriptions") or []]
            if (
                len(names) >= count
                and len(set(names)) == len(names)
                and all(n in self.suppliers for n in names)
            ):
                return record
        return None

    def offers(self, medication: str, country: str | None = None) -> list[Record]:
        found = [o for o in self.suppliers[medication] if country is None or o["country"] == country]
        return sorted(found, key=lambda o: o["price_usd"])

    def peak_overlap_hours(self, primary: str, medications: list[str]) -> int:
        """The longest overlap window `check_drug_interactions` reports (names spelled as in the table)."""
        pairs = [(primary, m) for m in medications]
        pairs += [(a, b) for i, a in enumerate(medications) for b in medications[i + 1 :]]
        hours = [
            entry["time_overlap_hours"]
            for a, b in pairs
            for entry in (self.interactions.get(a, {}).get(b) or self.interactions.get(b, {}).get(a),)
            if entry
        ]
        return max(hours, default=0)

    # --- devices

    def device_of(self, patient_id: str) -> Record | None:
        for device in self.devices:
            if device["assigned_to"] == patient_id and self.uploads_of(device["device_id"]):
                return device
        return None

    def uploads_of(self, device_id: str) -> list[Record]:
        return sorted((u for u in self.uploads if u["device_id"] == device_id), key=lambda u: u["date"])


def full_name(plan: Record) -> str:
    return f"{plan['patient']['name']['first_name']} {plan['patient']['name']['last_name']}"


def doctor(seed: Seed, provider_id: str) -> str:
    name = seed.providers[provider_id]["name"]
    return f"{name['first_name']} {name['last_name']}"


def visit_text(seed: Seed, appointment: Record) -> str:
    return (
        f"your {appointment['type'].replace('_', ' ')} with {doctor(seed, appointment['provider_id'])} "
        f"on {appointment['date']} at {appointment['time']}"
    )


def supplier_arguments(record: Record, medication: str, offer: Record) -> dict[str, Any]:
    return {
        "record_id": record["record_id"],
        "medication": medication,
        "supplier_company": offer["company"],
        "brand_name": offer["brand_name"],
        "price_usd": offer["price_usd"],
    }


# ------------------------------------------------------------------------------------------- drafting


@dataclass
class Draft:
    """One task before it gets its id and emotion."""

    persona: str
    reason: str
    instruction: str
    known: dict[str, str]
    volunteered: list[str]
    unknown: list[str]
    discoverable: dict[str, str]
    goals: list[Goal]
    actions: list[Action]
    outputs: list[str] = field(default_factory=list)
    preferences: list[str] = field(default_factory=list)


def identify(plan: Record, by: str) -> tuple[list[Action], dict[str, str]]:
    """The gold action that authenticates the patient, and the facts the patient knows for it."""
    patient = plan["patient"]
    if by == "email":
        known = {"email": patient["demographics"]["email"]}
        return [act("find_patient_by_email", **known)], known
    known = {
        "first_name": patient["name"]["first_name"],
        "last_name": patient["name"]["last_name"],
        "date_of_birth": patient["demographics"]["date_of_birth"],
    }
    return [act("find_patient_by_name_dob", **known)], known


def goal(goal_id: str, request: str, *evidence: str, kind: str = "action") -> Goal:
    # Unvalidated: `build` gives each action goal its target (the gold write) before the task is made.
    return Goal.model_construct(id=goal_id, kind=kind, request=request, evidence=list(evidence))


def who(plan: Record, by: str, known: dict[str, str]) -> str:
    if by == "email":
        return f"You are {full_name(plan)} (email {known['email']})."
    return (
        f"You are {full_name(plan)}, born {known['date_of_birth']}; you do not remember which email you used."
    )


# ---------------------------------------------------------------------------------------------- tasks
# Each task function picks its patient with a `plan` and returns the task's draft.


def t01_move_visit_and_note(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        visits = seed.appointments_of(pid, "scheduled")
        if seed.email_ok(pid) and visits and seed.records_of(pid):
            return {"visit": visits[0], "record": seed.records_of(pid)[0]}
        return None

    p = seed.pick(plan)
    visit, record = p["visit"], p["record"]
    new_date, new_time = seed.first_free(visit["provider_id"], day_after(visit["date"], 2), nth=1)
    reads, known = identify(p, "email")
    note = "Patient will bring a week of home blood pressure readings to the rescheduled visit"
    return Draft(
        persona=f"{full_name(p)}, a night-shift warehouse supervisor juggling a changed rota.",
        reason="A new work schedule clashes with an upcoming video visit.",
        instruction=(
            f"{who(p, 'email', known)} Your work rota changed and {visit_text(seed, visit)} no longer works. "
            f"Move it to {new_date} at {new_time} with the same doctor. Also ask for a note on your latest "
            f"medical record saying: '{note}'. You do not know any ids."
        ),
        known={
            **known,
            "new_date": new_date,
            "new_time": new_time,
            "note": note,
            "doctor": doctor(seed, visit["provider_id"]),
        },
        volunteered=["email"],
        unknown=["appointment id", "record id"],
        discoverable={
            "patient_id": p["patient_id"],
            "appointment_id": visit["appointment_id"],
            "provider_id": visit["provider_id"],
            "record_id": record["record_id"],
        },
        goals=[
            goal(
                "move",
                f"I need to move my visit with {doctor(seed, visit['provider_id'])} to {new_date} at "
                f"{new_time}.",
                visit["appointment_id"],
                new_date,
            ),
            goal(
                "note",
                "Please add a note about my blood pressure readings to my latest record.",
                record["record_id"],
            ),
        ],
        actions=[
            *reads,
            act("list_patient_appointments", patient_id=p["patient_id"]),
            act("get_provider_details", provider_id=visit["provider_id"]),
            act(
                "reschedule_appointment",
                appointment_id=visit["appointment_id"],
                new_date=new_date,
                new_time=new_time,
            ),
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("update_medical_record_note", record_id=record["record_id"], note=note),
        ],
    )


def t02_switch_doctor(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        if not seed.name_dob_ok(pid):
            return None
        for visit in seed.appointments_of(pid, "scheduled"):
            specialty = seed.providers[visit["provider_id"]]["specialty"]
            others = [d for d in seed.providers_of(specialty) if d["provider_id"] != visit["provider_id"]]
            if specialty != "Primary Care" and others:
                return {"visit": visit, "other": others[0], "specialty": specialty}
        return None

    p = seed.pick(plan)
    visit, other, specialty = p["visit"], p["other"], p["specialty"]
    new_date, new_time = seed.first_free(other["provider_id"], visit["date"])
    copay = "$" + money(seed.copay(p["patient_id"], other["provider_id"]))
    reads, known = identify(p, "name_dob")
    other_name = doctor(seed, other["provider_id"])
    return Draft(
        persona=f"{full_name(p)}, a retired bus driver who did not get on with the booked specialist.",
        reason=f"Wants to see a different {specialty} provider instead of the booked one.",
        instruction=(
            f"{who(p, 'name_dob', known)} Cancel {visit_text(seed, visit)}; you would rather see "
            f"{other_name}, another {specialty} provider. Book a {visit['type'].replace('_', ' ')} with "
            f"{other_name} on {new_date} at {new_time}, billed to your insurance, and ask what your copay "
            "will be."
        ),
        known={
            **known,
            "specialty": specialty,
            "wanted_doctor": other_name,
            "date": new_date,
            "time": new_time,
        },
        volunteered=["first_name", "last_name", "date_of_birth"],
        unknown=["appointment id", "copay"],
        discoverable={
            "patient_id": p["patient_id"],
            "appointment_id": visit["appointment_id"],
            "provider_id": other["provider_id"],
            "appointment_type": visit["type"],
        },
        goals=[
            goal("cancel", f"Please cancel {visit_text(seed, visit)}.", visit["appointment_id"]),
            goal(
                "book", f"Book me with {other_name} on {new_date} at {new_time} instead.", new_date, new_time
            ),
            goal("copay", "What will my copay be for the new visit?", copay, kind="information"),
        ],
        actions=[
            *reads,
            act("list_patient_appointments", patient_id=p["patient_id"]),
            act("cancel_appointment", appointment_id=visit["appointment_id"]),
            act("list_available_providers", specialty=specialty),
            act("get_provider_details", provider_id=other["provider_id"]),
            act(
                "schedule_appointment",
                patient_id=p["patient_id"],
                provider_id=other["provider_id"],
                date=new_date,
                time=new_time,
                appointment_type=visit["type"],
            ),
        ],
        outputs=[copay],
    )


def t03_cheaper_supplier_abroad(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        record = seed.latest_with_prescriptions(pid)
        if not record or not seed.name_dob_ok(pid):
            return None
        medication = record["prescriptions"][0]["medication"]
        for country in ("India", "Mexico", "Canada"):
            if seed.offers(medication, country):
                return {"record": record, "medication": medication, "country": country}
        return None

    p = seed.pick(plan)
    record, medication, country = p["record"], p["medication"], p["country"]
    offer = seed.offers(medication, country)[0]
    price = money(offer["price_usd"])
    reads, known = identify(p, "name_dob")
    return Draft(
        persona=f"{full_name(p)}, a freelance translator paying for medicines out of pocket.",
        reason=f"Wants the {medication} prescription filled by a cheaper supplier.",
        instruction=(
            f"{who(p, 'name_dob', known)} Your {medication} is getting expensive. Ask for your latest "
            f"{medication} prescription to be switched to the cheapest supplier based in {country}, and ask "
            "what that supplier charges per unit."
        ),
        known={**known, "medication": medication, "country_filter": country},
        volunteered=["first_name", "last_name"],
        unknown=["record id", "supplier names"],
        discoverable={
            "patient_id": p["patient_id"],
            "record_id": record["record_id"],
            "supplier_company": offer["company"],
            "brand_name": offer["brand_name"],
            "price_usd": str(offer["price_usd"]),
        },
        goals=[
            goal(
                "switch",
                f"Please move my {medication} to the cheapest supplier in {country}.",
                offer["company"],
            ),
            goal("price", "How much does that supplier charge per unit?", price, kind="information"),
        ],
        actions=[
            *reads,
            act("get_patient_details", patient_id=p["patient_id"]),
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("list_medication_suppliers", medication=medication, country_filter=country),
            act("update_prescription_supplier", **supplier_arguments(record, medication, offer)),
        ],
        outputs=[price],
    )


def t04_aspirin_on_warfarin(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        if "Warfarin" in seed.medications(pid) and seed.email_ok(pid) and seed.records_of(pid):
            return {"record": seed.records_of(pid)[0]}
        return None

    p = seed.pick(plan)
    record = p["record"]
    meds = seed.medications(p["patient_id"])
    window = f"{seed.peak_overlap_hours('Aspirin', meds)} hours"
    cardiologist = seed.providers_of("Cardiology")[0]
    new_date, new_time = seed.first_free(cardiologist["provider_id"], "2025-12-01")
    reads, known = identify(p, "email")
    note = "Interaction check advised holding aspirin today while on warfarin; cardiology visit booked"
    return Draft(
        persona=f"{full_name(p)}, a keen gardener on blood thinners who bought aspirin for a sore back.",
        reason="Wants to know whether aspirin is safe with the current medicines, and a cardiology visit.",
        instruction=(
            f"{who(p, 'email', known)} You want to start taking aspirin for back pain. Ask the "
            "agent to check "
            "it against your current medicines, and ask how many hours the risk window lasts. Have "
            "the result "
            "noted on your latest record, and book a follow-up with "
            f"{doctor(seed, cardiologist['provider_id'])} "
            f"(cardiology) on {new_date} at {new_time} using your insurance."
        ),
        known={
            **known,
            "primary_medication": "Aspirin",
            "specialty": "Cardiology",
            "wanted_doctor": doctor(seed, cardiologist["provider_id"]),
            "date": new_date,
            "time": new_time,
            "appointment_type": "follow_up",
            "note": note,
        },
        volunteered=["email", "primary_medication"],
        unknown=["which medicines interact"],
        discoverable={
            "patient_id": p["patient_id"],
            "current_medications": " and ".join(meds),
            "record_id": record["record_id"],
            "provider_id": cardiologist["provider_id"],
        },
        goals=[
            goal(
                "window",
                "Is aspirin safe with my medicines, and how many hours does the risk last?",
                window,
                kind="information",
            ),
            goal("note", "Please put that on my record.", record["record_id"]),
            goal("book", f"Book the cardiology follow-up on {new_date} at {new_time}.", new_date, new_time),
        ],
        actions=[
            *reads,
            act("get_patient_details", patient_id=p["patient_id"]),
            act("check_drug_interactions", primary_medication="Aspirin", current_medications=meds),
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("update_medical_record_note", record_id=record["record_id"], note=note),
            act("list_available_providers", specialty="Cardiology"),
            act("get_provider_details", provider_id=cardiologist["provider_id"]),
            act(
                "schedule_appointment",
                patient_id=p["patient_id"],
                provider_id=cardiologist["provider_id"],
                date=new_date,
                time=new_time,
                appointment_type="follow_up",
            ),
        ],
        outputs=[window],
    )


def t05_device_usage_and_coaching(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        device = seed.device_of(pid)
        if device and seed.email_ok(pid) and seed.records_of(pid):
            uploads = seed.uploads_of(device["device_id"])
            normal = [u for u in uploads if u["event"] == "normal"]
            if normal:
                return {
                    "device": device,
                    "uploads": uploads,
                    "day": normal[-1],
                    "record": seed.records_of(pid)[0],
                }
        return None

    p = seed.pick(plan)
    device, uploads, day, record = p["device"], p["uploads"], p["day"], p["record"]
    start, end = uploads[0]["date"], uploads[-1]["date"]
    coach = seed.providers_of("Device Coaching")[0]
    new_date, new_time = seed.first_free(coach["provider_id"], "2025-11-28")
    hours = str(day["usage_hours"])
    reads, known = identify(p, "email")
    note = f"Patient asked for coaching on {device['device_type']} {device['device_id']} after missed uploads"
    return Draft(
        persona=f"{full_name(p)}, a retired science teacher using a home monitoring device.",
        reason="The home device seems to be missing uploads; wants data and a coaching session.",
        instruction=(
            f"{who(p, 'email', known)} Your {device['device_type']} (device id {device['device_id']}) "
            f"may not be uploading. Ask what it recorded between {start} and {end}, and how many "
            "hours of use "
            f"it logged on {day['date']}. Then book a device coaching session with "
            f"{doctor(seed, coach['provider_id'])} on {new_date} at {new_time} on your insurance, and have a "
            "note added to your latest record that you asked for coaching."
        ),
        known={
            **known,
            "device_id": device["device_id"],
            "start_date": start,
            "end_date": end,
            "date": f"{day['date']} for the device data and {new_date} for the session",
            "time": new_time,
            "specialty": "Device Coaching",
            "note": note,
        },
        volunteered=["email", "device_id"],
        unknown=["record id"],
        discoverable={
            "patient_id": p["patient_id"],
            "provider_id": coach["provider_id"],
            "record_id": record["record_id"],
            "appointment_type": "device_coaching",
        },
        goals=[
            goal(
                "usage", f"How many hours did my device record on {day['date']}?", hours, kind="information"
            ),
            goal("book", f"Book a device coaching session on {new_date} at {new_time}.", new_date, new_time),
            goal("note", "And note on my record that I asked for coaching.", record["record_id"]),
        ],
        actions=[
            *reads,
            act("list_telemetry_uploads", device_id=device["device_id"], start_date=start, end_date=end),
            act("get_telemetry_upload", device_id=device["device_id"], date=day["date"]),
            act("list_available_providers", specialty="Device Coaching"),
            act("get_provider_details", provider_id=coach["provider_id"]),
            act(
                "schedule_appointment",
                patient_id=p["patient_id"],
                provider_id=coach["provider_id"],
                date=new_date,
                time=new_time,
                appointment_type="device_coaching",
            ),
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("update_medical_record_note", record_id=record["record_id"], note=note),
        ],
        outputs=[hours],
    )


def t06_voucher_visit(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        visits = seed.appointments_of(pid, "scheduled")
        return {"visit": visits[0]} if visits and seed.email_ok(pid) else None

    p = seed.pick(plan)
    visit = p["visit"]
    gp = seed.providers_of("Primary Care")[1]
    new_date, new_time = seed.first_free(gp["provider_id"], "2025-12-02", nth=2)
    voucher, notes = "TVH-48213", "Employer wellness voucher"
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, a café owner whose employer-sponsored voucher is about to expire.",
        reason="Replace a visit with a primary care visit paid by a telehealth voucher.",
        instruction=(
            f"{who(p, 'email', known)} Cancel {visit_text(seed, visit)}. Instead book a routine checkup with "
            f"{doctor(seed, gp['provider_id'])} (primary care) on {new_date} at {new_time}, NOT billed to "
            f"insurance: pay with telehealth voucher {voucher}, and have '{notes}' recorded as the "
            "payment note."
        ),
        known={
            **known,
            "specialty": "Primary Care",
            "wanted_doctor": doctor(seed, gp["provider_id"]),
            "date": new_date,
            "time": new_time,
            "bill_insurance": "no, do not bill insurance",
            "voucher_id": voucher,
            "payment_notes": notes,
        },
        volunteered=["email", "voucher_id"],
        unknown=["appointment id"],
        discoverable={
            "patient_id": p["patient_id"],
            "appointment_id": visit["appointment_id"],
            "provider_id": gp["provider_id"],
            "appointment_type": "routine_checkup",
        },
        goals=[
            goal("cancel", f"Cancel {visit_text(seed, visit)}.", visit["appointment_id"]),
            goal(
                "book",
                f"Book a checkup on {new_date} at {new_time} paid with voucher {voucher}.",
                voucher,
                new_date,
            ),
        ],
        actions=[
            *reads,
            act("list_patient_appointments", patient_id=p["patient_id"]),
            act("cancel_appointment", appointment_id=visit["appointment_id"]),
            act("list_available_providers", specialty="Primary Care"),
            act("get_provider_details", provider_id=gp["provider_id"]),
            act(
                "schedule_appointment",
                patient_id=p["patient_id"],
                provider_id=gp["provider_id"],
                date=new_date,
                time=new_time,
                appointment_type="routine_checkup",
                bill_insurance=False,
                voucher_id=voucher,
                payment_notes=notes,
            ),
        ],
    )


def t07_pending_visit_link(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        pending = seed.appointments_of(pid, "pending_approval")
        return {"visit": pending[0]} if pending and seed.name_dob_ok(pid) else None

    p = seed.pick(plan)
    visit = p["visit"]
    new_date, new_time = seed.first_free(visit["provider_id"], day_after(visit["date"], 1), nth=1)
    link = visit["meeting_link"]
    reads, known = identify(p, "name_dob")
    return Draft(
        persona=f"{full_name(p)}, a school librarian with an appointment still awaiting approval.",
        reason="Move a visit that is pending approval and get its video link.",
        instruction=(
            f"{who(p, 'name_dob', known)} You have {visit_text(seed, visit)}, still pending "
            "approval. Move it "
            f"to {new_date} at {new_time} and ask for the meeting link of the visit."
        ),
        known={
            **known,
            "new_date": new_date,
            "new_time": new_time,
            "doctor": doctor(seed, visit["provider_id"]),
        },
        volunteered=["first_name", "last_name", "date_of_birth"],
        unknown=["appointment id", "meeting link"],
        discoverable={
            "patient_id": p["patient_id"],
            "appointment_id": visit["appointment_id"],
            "provider_id": visit["provider_id"],
            "status_filter": "pending_approval",
        },
        goals=[
            goal(
                "move",
                f"Please move my pending visit to {new_date} at {new_time}.",
                visit["appointment_id"],
                new_date,
            ),
            goal("link", "What is the meeting link for that visit?", link, kind="information"),
        ],
        actions=[
            *reads,
            act("list_patient_appointments", patient_id=p["patient_id"], status_filter="pending_approval"),
            act("get_appointment_details", appointment_id=visit["appointment_id"]),
            act("get_provider_details", provider_id=visit["provider_id"]),
            act(
                "reschedule_appointment",
                appointment_id=visit["appointment_id"],
                new_date=new_date,
                new_time=new_time,
            ),
        ],
        outputs=[link],
    )


def t08_cancel_two_and_note(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        visits = seed.appointments_of(pid, "scheduled")
        if len(visits) >= 2 and seed.email_ok(pid) and seed.records_of(pid):
            return {"first": visits[0], "second": visits[1], "record": seed.records_of(pid)[0]}
        return None

    p = seed.pick(plan)
    first, second, record = p["first"], p["second"], p["record"]
    reads, known = identify(p, "email")
    note = "Patient travelling abroad until mid January and cancelled upcoming visits"
    return Draft(
        persona=f"{full_name(p)}, an engineer leaving for a two-month posting overseas.",
        reason="Going abroad: cancel both upcoming visits and leave a note for the care team.",
        instruction=(
            f"{who(p, 'email', known)} You are going abroad. Cancel {visit_text(seed, first)} and "
            f"{visit_text(seed, second)}, and have a note added to your latest record: '{note}'."
        ),
        known={**known, "note": note, "visits": f"{visit_text(seed, first)} and {visit_text(seed, second)}"},
        volunteered=["email"],
        unknown=["appointment ids", "record id"],
        discoverable={
            "patient_id": p["patient_id"],
            "appointment_id": f"{first['appointment_id']} and {second['appointment_id']}",
            "record_id": record["record_id"],
            "status_filter": "scheduled",
        },
        goals=[
            goal(
                "cancel",
                "Please cancel both of my upcoming visits.",
                first["appointment_id"],
                second["appointment_id"],
            ),
            goal("note", "Add a note that I am abroad until mid January.", record["record_id"]),
        ],
        actions=[
            *reads,
            act("list_patient_appointments", patient_id=p["patient_id"], status_filter="scheduled"),
            act("cancel_appointment", appointment_id=first["appointment_id"]),
            act("cancel_appointment", appointment_id=second["appointment_id"]),
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("update_medical_record_note", record_id=record["record_id"], note=note),
        ],
    )


def t09_two_suppliers(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        record = seed.latest_with_prescriptions(pid, count=2)
        if record is None or not seed.name_dob_ok(pid):
            return None
        second = record["prescriptions"][1]["medication"]
        return {"record": record} if seed.offers(second, "USA") else None

    p = seed.pick(plan)
    record = p["record"]
    first_med, second_med = (rx["medication"] for rx in record["prescriptions"][:2])
    first_offer, second_offer = seed.offers(first_med)[0], seed.offers(second_med, "USA")[0]
    reads, known = identify(p, "name_dob")
    return Draft(
        persona=f"{full_name(p)}, a part-time bookkeeper who compares every price.",
        reason="Switch two prescriptions on the latest record to other suppliers.",
        instruction=(
            f"{who(p, 'name_dob', known)} On your latest prescriptions, move {first_med} to the cheapest "
            f"supplier listed anywhere, and {second_med} to the cheapest supplier based in the USA."
        ),
        known={
            **known,
            "medication": f"{first_med} and {second_med}",
            "country_filter": "USA for " + second_med,
        },
        volunteered=["first_name", "last_name"],
        unknown=["record id"],
        discoverable={
            "patient_id": p["patient_id"],
            "record_id": record["record_id"],
            "supplier_company": f"{first_offer['company']} and {second_offer['company']}",
            "brand_name": f"{first_offer['brand_name']} and {second_offer['brand_name']}",
            "price_usd": f"{first_offer['price_usd']} and {second_offer['price_usd']}",
        },
        goals=[
            goal("first", f"Switch my {first_med} to the cheapest supplier.", first_offer["company"]),
            goal("second", f"And my {second_med} to the cheapest one in the USA.", second_offer["company"]),
        ],
        actions=[
            *reads,
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("list_medication_suppliers", medication=first_med),
            act("update_prescription_supplier", **supplier_arguments(record, first_med, first_offer)),
            act("list_medication_suppliers", medication=second_med, country_filter="USA"),
            act("update_prescription_supplier", **supplier_arguments(record, second_med, second_offer)),
        ],
    )


def t10_move_and_switch(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        visits = seed.appointments_of(pid, "scheduled")
        record = seed.latest_with_prescriptions(pid)
        return {"visit": visits[-1], "record": record} if visits and record and seed.email_ok(pid) else None

    p = seed.pick(plan)
    visit, record = p["visit"], p["record"]
    medication = record["prescriptions"][0]["medication"]
    offer = seed.offers(medication)[0]
    new_date, new_time = seed.first_free(visit["provider_id"], visit["date"])
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, a musician back from touring with a pile of admin.",
        reason="Move a visit a little later and switch a prescription to the cheapest supplier.",
        instruction=(
            f"{who(p, 'email', known)} Move {visit_text(seed, visit)} to {new_date} at {new_time}. "
            "Also switch "
            f"your {medication} prescription to whichever listed supplier is cheapest."
        ),
        known={**known, "new_date": new_date, "new_time": new_time, "medication": medication},
        volunteered=["email", "medication"],
        unknown=["appointment id", "record id"],
        discoverable={
            "patient_id": p["patient_id"],
            "appointment_id": visit["appointment_id"],
            "provider_id": visit["provider_id"],
            "record_id": record["record_id"],
            "supplier_company": offer["company"],
            "brand_name": offer["brand_name"],
        },
        goals=[
            goal("move", f"Move my visit to {new_date} at {new_time}.", visit["appointment_id"], new_date),
            goal("switch", f"Switch my {medication} to the cheapest supplier.", offer["company"]),
        ],
        actions=[
            *reads,
            act("list_patient_appointments", patient_id=p["patient_id"]),
            act("get_provider_details", provider_id=visit["provider_id"]),
            act(
                "reschedule_appointment",
                appointment_id=visit["appointment_id"],
                new_date=new_date,
                new_time=new_time,
            ),
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("list_medication_suppliers", medication=medication),
            act("update_prescription_supplier", **supplier_arguments(record, medication, offer)),
        ],
    )


def t11_gp_in_my_language(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        if seed.name_dob_ok(pid) and not seed.appointments_of(pid, *ACTIVE) and seed.records_of(pid):
            return {"record": seed.records_of(pid)[0]}
        return None

    p = seed.pick(plan)
    record = p["record"]
    gp = next(d for d in seed.providers_of("Primary Care") if len(d["languages"]) > 1)
    language = gp["languages"][-1]
    new_date, new_time = seed.first_free(gp["provider_id"], "2025-12-07")
    copay = "$" + money(seed.copay(p["patient_id"], gp["provider_id"]))
    note = f"Patient prefers clinicians who speak {language}"
    reads, known = identify(p, "name_dob")
    return Draft(
        persona=f"{full_name(p)}, who wants a doctor in their mother tongue for a first checkup in years.",
        reason=f"Book a checkup with a {language}-speaking primary care doctor and note the preference.",
        instruction=(
            f"{who(p, 'name_dob', known)} Book a routine checkup with a primary care doctor who speaks "
            f"{language}; {doctor(seed, gp['provider_id'])} is the one you want, on {new_date} at "
            f"{new_time}, "
            f"on your insurance. Ask what your copay will be, and have '{note}' noted on your latest record."
        ),
        known={
            **known,
            "specialty": "Primary Care",
            "language": language,
            "wanted_doctor": doctor(seed, gp["provider_id"]),
            "date": new_date,
            "time": new_time,
            "note": note,
        },
        volunteered=["first_name", "last_name", "date_of_birth", "specialty"],
        unknown=["copay", "record id"],
        discoverable={
            "patient_id": p["patient_id"],
            "provider_id": gp["provider_id"],
            "appointment_type": "routine_checkup",
            "record_id": record["record_id"],
        },
        goals=[
            goal(
                "book",
                f"Book a {language}-speaking primary care checkup on {new_date} at {new_time}.",
                new_date,
                new_time,
            ),
            goal("copay", "What is my copay for that?", copay, kind="information"),
            goal("note", "Please note my language preference on my record.", record["record_id"]),
        ],
        actions=[
            *reads,
            act("get_patient_details", patient_id=p["patient_id"]),
            act("list_available_providers", specialty="Primary Care"),
            act("get_provider_details", provider_id=gp["provider_id"]),
            act(
                "schedule_appointment",
                patient_id=p["patient_id"],
                provider_id=gp["provider_id"],
                date=new_date,
                time=new_time,
                appointment_type="routine_checkup",
            ),
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("update_medical_record_note", record_id=record["record_id"], note=note),
        ],
        outputs=[copay],
    )


def t12_cancel_with_reason_note(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        visits = seed.appointments_of(pid, "scheduled")
        if visits and seed.email_ok(pid) and seed.records_of(pid):
            return {"visit": visits[0], "record": seed.records_of(pid)[0]}
        return None

    p = seed.pick(plan)
    visit, record = p["visit"], p["record"]
    reads, known = identify(p, "email")
    note = "Patient cancelled the upcoming visit after starting care with a local clinic"
    return Draft(
        persona=f"{full_name(p)}, who has moved their care to a clinic near a new home.",
        reason="Cancel a visit and leave a note explaining why.",
        instruction=(
            f"{who(p, 'email', known)} Cancel {visit_text(seed, visit)}, and have this note added "
            "to your most "
            f"recent medical record: '{note}'."
        ),
        known={**known, "note": note, "visit": visit_text(seed, visit)},
        volunteered=["email"],
        unknown=["appointment id", "record id"],
        discoverable={
            "patient_id": p["patient_id"],
            "appointment_id": visit["appointment_id"],
            "record_id": record["record_id"],
            "status_filter": "scheduled",
        },
        goals=[
            goal("cancel", f"Cancel {visit_text(seed, visit)}.", visit["appointment_id"]),
            goal("note", "Note on my record why I cancelled.", record["record_id"]),
        ],
        actions=[
            *reads,
            act("list_patient_appointments", patient_id=p["patient_id"], status_filter="scheduled"),
            act("get_appointment_details", appointment_id=visit["appointment_id"]),
            act("cancel_appointment", appointment_id=visit["appointment_id"]),
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("update_medical_record_note", record_id=record["record_id"], note=note),
        ],
    )


def t13_regimen_and_supplier(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        record = seed.latest_with_prescriptions(pid)
        if pid in seed.regimens and record and seed.email_ok(pid):
            return {"record": record}
        return None

    p = seed.pick(plan)
    record = p["record"]
    medication = record["prescriptions"][0]["medication"]
    offer = seed.offers(medication)[0]
    option = seed.regimens[p["patient_id"]]["optimized_regimens"][1]["name"]
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, a retiree on several daily medicines who wants fewer pills.",
        reason="Hear the regimen alternatives on file and switch one prescription's supplier.",
        instruction=(
            f"{who(p, 'email', known)} Ask which optimized regimen options are on file for you; you "
            "care most "
            f"about the one that simplifies your schedule. Also switch your {medication} to the cheapest "
            "listed supplier."
        ),
        known={**known, "medication": medication},
        volunteered=["email"],
        unknown=["regimen options", "record id"],
        discoverable={
            "patient_id": p["patient_id"],
            "record_id": record["record_id"],
            "supplier_company": offer["company"],
            "brand_name": offer["brand_name"],
            "price_usd": str(offer["price_usd"]),
        },
        goals=[
            goal(
                "options",
                "Which regimen options are there? I'd like a simpler schedule.",
                option,
                kind="information",
            ),
            goal("switch", f"Switch my {medication} to the cheapest supplier.", offer["company"]),
        ],
        actions=[
            *reads,
            act("get_regimen_options", patient_id=p["patient_id"]),
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("list_medication_suppliers", medication=medication),
            act("update_prescription_supplier", **supplier_arguments(record, medication, offer)),
        ],
        outputs=[option],
    )


def t14_tramadol_check(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        meds = seed.medications(pid)
        if "Sertraline" in meds and seed.name_dob_ok(pid) and seed.records_of(pid):
            return {"record": seed.records_of(pid)[0]}
        return None

    p = seed.pick(plan)
    record = p["record"]
    meds = seed.medications(p["patient_id"])
    window = f"{seed.peak_overlap_hours('Tramadol', meds)} hours"
    psychiatrist = seed.providers_of("Psychiatry")[0]
    new_date, new_time = seed.first_free(psychiatrist["provider_id"], "2025-11-25")
    reads, known = identify(p, "name_dob")
    note = "Dentist prescribed tramadol; interaction check flagged urgent review with current antidepressant"
    return Draft(
        persona=f"{full_name(p)}, who was just given tramadol after a tooth extraction.",
        reason="Check a new painkiller against current medicines, note it, and book a medication review.",
        instruction=(
            f"{who(p, 'name_dob', known)} Your dentist prescribed tramadol. Ask the agent to check "
            "it against "
            "your current medicines and to tell you the longest risk window in hours. Have the "
            "result noted on "
            "your latest record and book a medication review with "
            f"{doctor(seed, psychiatrist['provider_id'])} "
            f"(psychiatry) on {new_date} at {new_time} on your insurance."
        ),
        known={
            **known,
            "primary_medication": "Tramadol",
            "specialty": "Psychiatry",
            "wanted_doctor": doctor(seed, psychiatrist["provider_id"]),
            "date": new_date,
            "time": new_time,
            "appointment_type": "medication_review",
            "note": note,
        },
        volunteered=["first_name", "last_name", "primary_medication"],
        unknown=["interaction details"],
        discoverable={
            "patient_id": p["patient_id"],
            "current_medications": " and ".join(meds),
            "record_id": record["record_id"],
            "provider_id": psychiatrist["provider_id"],
        },
        goals=[
            goal(
                "check",
                "Is tramadol safe with what I take? What is the longest risk window in hours?",
                window,
                kind="information",
            ),
            goal("note", "Please note it on my record.", record["record_id"]),
            goal("book", f"Book a medication review on {new_date} at {new_time}.", new_date, new_time),
        ],
        actions=[
            *reads,
            act("get_patient_details", patient_id=p["patient_id"]),
            act("check_drug_interactions", primary_medication="Tramadol", current_medications=meds),
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("update_medical_record_note", record_id=record["record_id"], note=note),
            act("get_provider_details", provider_id=psychiatrist["provider_id"]),
            act(
                "schedule_appointment",
                patient_id=p["patient_id"],
                provider_id=psychiatrist["provider_id"],
                date=new_date,
                time=new_time,
                appointment_type="medication_review",
            ),
        ],
        outputs=[window],
    )


def t15_move_one_cancel_other(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        visits = seed.appointments_of(pid, "scheduled")
        return {"keep": visits[0], "drop": visits[1]} if len(visits) >= 2 and seed.name_dob_ok(pid) else None

    p = seed.pick(plan)
    keep, drop = p["keep"], p["drop"]
    new_date, new_time = seed.first_free(keep["provider_id"], day_after(keep["date"], 6))
    reads, known = identify(p, "name_dob")
    return Draft(
        persona=f"{full_name(p)}, a new parent whose calendar just fell apart.",
        reason="Move one upcoming visit and cancel another.",
        instruction=(
            f"{who(p, 'name_dob', known)} Move {visit_text(seed, keep)} to {new_date} at "
            f"{new_time}, and cancel "
            f"{visit_text(seed, drop)}."
        ),
        known={
            **known,
            "new_date": new_date,
            "new_time": new_time,
            "visit_to_cancel": visit_text(seed, drop),
        },
        volunteered=["first_name", "last_name", "date_of_birth"],
        unknown=["appointment ids"],
        discoverable={
            "patient_id": p["patient_id"],
            "appointment_id": f"{keep['appointment_id']} and {drop['appointment_id']}",
            "provider_id": keep["provider_id"],
            "status_filter": "scheduled",
        },
        goals=[
            goal(
                "move",
                f"Move {visit_text(seed, keep)} to {new_date} at {new_time}.",
                keep["appointment_id"],
                new_date,
            ),
            goal("cancel", f"And cancel {visit_text(seed, drop)}.", drop["appointment_id"]),
        ],
        actions=[
            *reads,
            act("list_patient_appointments", patient_id=p["patient_id"], status_filter="scheduled"),
            act("get_provider_details", provider_id=keep["provider_id"]),
            act(
                "reschedule_appointment",
                appointment_id=keep["appointment_id"],
                new_date=new_date,
                new_time=new_time,
            ),
            act("get_appointment_details", appointment_id=drop["appointment_id"]),
            act("cancel_appointment", appointment_id=drop["appointment_id"]),
        ],
    )


def t16_supplier_in_country_and_note(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        record = seed.latest_with_prescriptions(pid)
        if record is None or not seed.email_ok(pid):
            return None
        rx = next((rx for rx in record["prescriptions"] if isinstance(rx.get("supplier"), dict)), None)
        if rx and seed.offers(rx["medication"], "Canada"):
            return {"record": record, "medication": rx["medication"]}
        return None

    p = seed.pick(plan)
    record, medication = p["record"], p["medication"]
    offer = seed.offers(medication, "Canada")[0]
    reads, known = identify(p, "email")
    note = f"Patient prefers {medication} from a Canadian supplier going forward"
    return Draft(
        persona=f"{full_name(p)}, a snowbird who spends winters near the Canadian border.",
        reason="Switch a prescription to a Canadian supplier and note the preference.",
        instruction=(
            f"{who(p, 'email', known)} Switch your {medication} prescription on your latest record to the "
            f"cheapest supplier based in Canada, and ask for a note on that record: '{note}'."
        ),
        known={**known, "medication": medication, "country_filter": "Canada", "note": note},
        volunteered=["email", "medication"],
        unknown=["record id"],
        discoverable={
            "patient_id": p["patient_id"],
            "record_id": record["record_id"],
            "supplier_company": offer["company"],
            "brand_name": offer["brand_name"],
            "price_usd": str(offer["price_usd"]),
        },
        goals=[
            goal("switch", f"Move my {medication} to the cheapest Canadian supplier.", offer["company"]),
            goal("note", "And note that preference on the record.", record["record_id"]),
        ],
        actions=[
            *reads,
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("list_medication_suppliers", medication=medication, country_filter="Canada"),
            act("update_prescription_supplier", **supplier_arguments(record, medication, offer)),
            act("update_medical_record_note", record_id=record["record_id"], note=note),
        ],
    )


def t17_missed_uploads(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        device = seed.device_of(pid)
        visits = seed.appointments_of(pid, "scheduled")
        if device and visits and seed.name_dob_ok(pid) and seed.records_of(pid):
            missing = [u for u in seed.uploads_of(device["device_id"]) if u["event"] == "upload_missing"]
            if missing:
                return {
                    "device": device,
                    "missing": missing[0],
                    "visit": visits[-1],
                    "record": seed.records_of(pid)[0],
                }
        return None

    p = seed.pick(plan)
    device, missing, visit, record = p["device"], p["missing"], p["visit"], p["record"]
    start, end = day_after(missing["date"], -3), day_after(missing["date"], 3)
    alert = missing["alerts"][0]
    new_date, new_time = seed.first_free(visit["provider_id"], "2025-11-24")
    reads, known = identify(p, "name_dob")
    note = f"Device {device['device_id']} missed its upload on {missing['date']}; visit moved earlier"
    return Draft(
        persona=f"{full_name(p)}, a careful patient worried that the home monitor stopped working.",
        reason="The home monitor missed an upload; wants to know what happened and an earlier visit.",
        instruction=(
            f"{who(p, 'name_dob', known)} Your device {device['device_id']} seems to have missed a day. Ask "
            f"for its uploads from {start} to {end}, and what alert it raised on {missing['date']}. "
            "Then move "
            f"{visit_text(seed, visit)} earlier, to {new_date} at {new_time}, and have a note added to your "
            f"latest record: '{note}'."
        ),
        known={
            **known,
            "device_id": device["device_id"],
            "start_date": start,
            "end_date": end,
            "date": missing["date"],
            "new_date": new_date,
            "new_time": new_time,
            "note": note,
        },
        volunteered=["last_name", "device_id"],
        unknown=["appointment id", "record id"],
        discoverable={
            "patient_id": p["patient_id"],
            "appointment_id": visit["appointment_id"],
            "provider_id": visit["provider_id"],
            "record_id": record["record_id"],
        },
        goals=[
            goal("alert", f"What alert did my device raise on {missing['date']}?", alert, kind="information"),
            goal(
                "move",
                f"Move my visit earlier to {new_date} at {new_time}.",
                visit["appointment_id"],
                new_date,
            ),
            goal("note", "Please note the missed upload on my record.", record["record_id"]),
        ],
        actions=[
            *reads,
            act("list_telemetry_uploads", device_id=device["device_id"], start_date=start, end_date=end),
            act("get_telemetry_upload", device_id=device["device_id"], date=missing["date"]),
            act("list_patient_appointments", patient_id=p["patient_id"]),
            act("get_provider_details", provider_id=visit["provider_id"]),
            act(
                "reschedule_appointment",
                appointment_id=visit["appointment_id"],
                new_date=new_date,
                new_time=new_time,
            ),
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("update_medical_record_note", record_id=record["record_id"], note=note),
        ],
        outputs=[alert],
    )


def t18_two_bookings(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        if seed.email_ok(pid) and not seed.appointments_of(pid, *ACTIVE) and seed.records_of(pid):
            return {"record": seed.records_of(pid)[0]}
        return None

    p = seed.pick(plan)
    record = p["record"]
    endo, gp = seed.providers_of("Endocrinology")[0], seed.providers_of("Primary Care")[2]
    endo_date, endo_time = seed.first_free(endo["provider_id"], "2025-12-03")
    gp_date, gp_time = seed.first_free(gp["provider_id"], "2025-12-10", nth=1)
    notes = "Paying by card at check-in"
    note = "New thyroid diagnosis; endocrinology consultation and primary care checkup booked"
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, newly diagnosed with a thyroid problem and sorting out care.",
        reason="Book an endocrinology consultation on insurance and a self-paid primary care visit.",
        instruction=(
            f"{who(p, 'email', known)} Book a specialist consultation with "
            f"{doctor(seed, endo['provider_id'])} "
            f"(endocrinology) on {endo_date} at {endo_time} on your insurance. Also book a routine "
            "checkup with "
            f"{doctor(seed, gp['provider_id'])} (primary care) on {gp_date} at {gp_time} that you "
            "pay yourself "
            f"(do not bill insurance, no voucher), with the payment note '{notes}'. Finally ask for "
            "a note on "
            f"your latest record: '{note}'."
        ),
        known={
            **known,
            "specialty": "Endocrinology and Primary Care",
            "wanted_doctor": f"{doctor(seed, endo['provider_id'])} and {doctor(seed, gp['provider_id'])}",
            "date": f"{endo_date} and {gp_date}",
            "time": f"{endo_time} and {gp_time}",
            "bill_insurance": "yes for the specialist, no for the checkup",
            "payment_notes": notes,
            "note": note,
        },
        volunteered=["email", "specialty"],
        unknown=["copays", "record id"],
        discoverable={
            "patient_id": p["patient_id"],
            "provider_id": f"{endo['provider_id']} and {gp['provider_id']}",
            "appointment_type": "specialist_consultation and routine_checkup",
            "record_id": record["record_id"],
        },
        goals=[
            goal(
                "endo",
                f"Book the endocrinology consultation on {endo_date} at {endo_time}.",
                endo_date,
                endo_time,
            ),
            goal("gp", f"And a self-paid checkup on {gp_date} at {gp_time}.", gp_date, gp_time),
            goal("note", "Please note the new diagnosis plan on my record.", record["record_id"]),
        ],
        actions=[
            *reads,
            act("list_available_providers", specialty="Endocrinology"),
            act("get_provider_details", provider_id=endo["provider_id"]),
            act(
                "schedule_appointment",
                patient_id=p["patient_id"],
                provider_id=endo["provider_id"],
                date=endo_date,
                time=endo_time,
                appointment_type="specialist_consultation",
            ),
            act("list_available_providers", specialty="Primary Care"),
            act("get_provider_details", provider_id=gp["provider_id"]),
            act(
                "schedule_appointment",
                patient_id=p["patient_id"],
                provider_id=gp["provider_id"],
                date=gp_date,
                time=gp_time,
                appointment_type="routine_checkup",
                bill_insurance=False,
                payment_notes=notes,
            ),
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("update_medical_record_note", record_id=record["record_id"], note=note),
        ],
    )


def t19_pending_to_self_pay(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        pending = seed.appointments_of(pid, "pending_approval")
        return {"visit": pending[0]} if pending and seed.name_dob_ok(pid) else None

    p = seed.pick(plan)
    visit = p["visit"]
    new_date, new_time = seed.first_free(visit["provider_id"], visit["date"])
    notes = "Self-pay while insurance approval is pending"
    reads, known = identify(p, "name_dob")
    return Draft(
        persona=f"{full_name(p)}, tired of waiting for an insurer to approve a visit.",
        reason="Drop a visit stuck in approval and rebook with the same provider as self-pay.",
        instruction=(
            f"{who(p, 'name_dob', known)} {visit_text(seed, visit).capitalize()} is still pending approval. "
            f"Cancel it and book the same kind of visit with the same provider on {new_date} at {new_time}, "
            f"paid by yourself (no insurance, no voucher), with the payment note '{notes}'."
        ),
        known={
            **known,
            "date": new_date,
            "time": new_time,
            "status_filter": "pending_approval",
            "bill_insurance": "no",
            "payment_notes": notes,
        },
        volunteered=["first_name", "last_name", "date_of_birth"],
        unknown=["appointment id"],
        discoverable={
            "patient_id": p["patient_id"],
            "appointment_id": visit["appointment_id"],
            "provider_id": visit["provider_id"],
            "appointment_type": visit["type"],
        },
        goals=[
            goal("cancel", "Cancel the visit that is stuck in approval.", visit["appointment_id"]),
            goal("book", f"Rebook it on {new_date} at {new_time} as self-pay.", new_date, new_time),
        ],
        actions=[
            *reads,
            act("list_patient_appointments", patient_id=p["patient_id"], status_filter="pending_approval"),
            act("get_appointment_details", appointment_id=visit["appointment_id"]),
            act("cancel_appointment", appointment_id=visit["appointment_id"]),
            act("get_provider_details", provider_id=visit["provider_id"]),
            act(
                "schedule_appointment",
                patient_id=p["patient_id"],
                provider_id=visit["provider_id"],
                date=new_date,
                time=new_time,
                appointment_type=visit["type"],
                bill_insurance=False,
                payment_notes=notes,
            ),
        ],
    )


def t20_supplier_move_note(seed: Seed) -> Draft:
    def plan(pid: str) -> Record | None:
        visits = seed.appointments_of(pid, *ACTIVE)
        record = seed.latest_with_prescriptions(pid)
        return {"visit": visits[0], "record": record} if visits and record and seed.email_ok(pid) else None

    p = seed.pick(plan)
    visit, record = p["visit"], p["record"]
    medication = record["prescriptions"][-1]["medication"]
    offer = seed.offers(medication)[1]
    new_date, new_time = seed.first_free(visit["provider_id"], day_after(visit["date"], 3), nth=1)
    note = f"Patient switched {medication} supplier and moved the next visit"
    reads, known = identify(p, "email")
    return Draft(
        persona=f"{full_name(p)}, a paramedic with no patience left after a double shift.",
        reason="Switch a prescription to a named supplier, move a visit, and note the changes.",
        instruction=(
            f"{who(p, 'email', known)} Switch your {medication} prescription to {offer['company']}, the "
            f"second-cheapest listed supplier. Move {visit_text(seed, visit)} to {new_date} at {new_time}. "
            f"Then have a note added to that prescription's record: '{note}'."
        ),
        known={
            **known,
            "medication": medication,
            "wanted_supplier": offer["company"],
            "new_date": new_date,
            "new_time": new_time,
            "note": note,
        },
        volunteered=["email", "medication"],
        unknown=["record id", "appointment id"],
        discoverable={
            "patient_id": p["patient_id"],
            "record_id": record["record_id"],
            "brand_name": offer["brand_name"],
            "price_usd": str(offer["price_usd"]),
            "appointment_id": visit["appointment_id"],
            "provider_id": visit["provider_id"],
        },
        goals=[
            goal("switch", f"Switch my {medication} to {offer['company']}.", offer["company"]),
            goal("move", f"Move my visit to {new_date} at {new_time}.", visit["appointment_id"], new_date),
            goal("note", "Note both changes on the record.", record["record_id"]),
        ],
        actions=[
            *reads,
            act("list_patient_medical_records", patient_id=p["patient_id"]),
            act("list_medication_suppliers", medication=medication),
            act("update_prescription_supplier", **supplier_arguments(record, medication, offer)),
            act("list_patient_appointments", patient_id=p["patient_id"]),
            act("get_provider_details", provider_id=visit["provider_id"]),
            act(
                "reschedule_appointment",
                appointment_id=visit["appointment_id"],
                new_date=new_date,
                new_time=new_time,
            ),
            act("update_medical_record_note", record_id=record["record_id"], note=note),
        ],
    )


# -------------------------------------------------------------------------------------------- emotions
# (family, emotion, politeness, urgency, trust, how the user feels and behaves), one per task.

EMOTIONS: list[tuple[str, str, str, str, str, str]] = [
    (
        "anger",
        "frustration",
        "cold",
        "high",
        "skeptical",
        "You are fed up with having to rearrange your care around a new work schedule. You answer in short, "
        "clipped sentences and want proof of every change, because you expect the system to mess it up.",
    ),
    (
        "fear",
        "anxiety",
        "neutral",
        "high",
        "cautious",
        "You are anxious about being left without the right specialist. You want this sorted quickly but "
        "double-check each detail the agent reads back.",
    ),
    (
        "sadness",
        "disappointment",
        "warm",
        "low",
        "trusting",
        "You are a little let down that your medicine keeps getting pricier. You stay friendly and unhurried "
        "and trust the agent to find a sensible option.",
    ),
    (
        "enjoyment",
        "relief",
        "warm",
        "low",
        "trusting",
        "You are relieved your back pain finally has a plan and you are in a good mood. You are "
        "chatty and kind, "
        "in no hurry, and happy to follow the agent's lead.",
    ),
    (
        "disgust",
        "distaste",
        "cold",
        "moderate",
        "skeptical",
        "You find the device and its constant alerts off-putting and say so bluntly. You are curt "
        "and suspect "
        "the agent will brush you off, so you make them spell out the numbers.",
    ),
    (
        "anger",
        "annoyance",
        "neutral",
        "high",
        "cautious",
        "You are irritated that your voucher is about to lapse and let it show without being rude. "
        "You want it "
        "done fast, yet you check each step before saying yes.",
    ),
    (
        "fear",
        "nervousness",
        "warm",
        "moderate",
        "cautious",
        "You are nervous that your pending visit will fall through and you apologise for asking "
        "things twice. "
        "You are polite and want reassurance before agreeing to anything.",
    ),
    (
        "sadness",
        "helplessness",
        "neutral",
        "moderate",
        "trusting",
        "You feel overwhelmed by leaving the country and sorting everything at once. You rely on "
        "the agent to "
        "handle the details and accept their explanations readily.",
    ),
    (
        "enjoyment",
        "excitement",
        "warm",
        "low",
        "trusting",
        "You love finding a bargain and you are cheerful about the savings. You chat happily, take "
        "your time and "
        "trust the agent's suggestions.",
    ),
    (
        "anger",
        "exasperation",
        "cold",
        "high",
        "skeptical",
        "You have run out of patience with paperwork after weeks on the road. You are sharp, cut long "
        "explanations short, and believe nothing until the agent shows it.",
    ),
    (
        "disgust",
        "dislike",
        "neutral",
        "moderate",
        "cautious",
        "You dislike dealing with clinics over video and do not hide it, though you stay civil. "
        "You want every "
        "detail confirmed before anything is booked.",
    ),
    (
        "fear",
        "dread",
        "cold",
        "high",
        "cautious",
        "You dread being billed for a visit you no longer need and it shows in terse, tense "
        "replies. You want "
        "this done immediately and you confirm every detail the agent reads out.",
    ),
    (
        "sadness",
        "discouragement",
        "warm",
        "moderate",
        "cautious",
        "You feel worn down by how many pills you take every day. You are kind to the agent but "
        "hesitant, and "
        "you want each step confirmed before you agree.",
    ),
    (
        "enjoyment",
        "pride",
        "neutral",
        "low",
        "trusting",
        "You are proud of keeping your medicines in order and mention it now and then. You are relaxed and "
        "matter-of-fact and let the agent handle the details.",
    ),
    (
        "anger",
        "bitterness",
        "cold",
        "moderate",
        "skeptical",
        "You resent that the clinic booked two visits in your first weeks with a newborn and you "
        "let it show. "
        "You are blunt, doubt the agent's answers, and accept them only once the changes are confirmed.",
    ),
    (
        "fear",
        "desperation",
        "neutral",
        "high",
        "trusting",
        "You are desperate to have your prescription sorted before you drive north this weekend. "
        "You talk fast, "
        "stress how urgent it is, and you are ready to do whatever the agent suggests.",
    ),
    (
        "disgust",
        "aversion",
        "warm",
        "low",
        "trusting",
        "You recoil at the thought of wearing the monitor for another week if it is not even "
        "recording. You stay "
        "pleasant and patient and trust the agent to take care of it.",
    ),
    (
        "sadness",
        "sorrow",
        "neutral",
        "low",
        "cautious",
        "You are low because the new diagnosis reminds you how much your health has changed. You "
        "speak quietly "
        "and slowly and want each step explained before you agree.",
    ),
    (
        "enjoyment",
        "peace",
        "neutral",
        "moderate",
        "trusting",
        "You feel calm now that you have decided to pay for the visit yourself. You speak in an even, "
        "businesslike way and take the agent at their word.",
    ),
    (
        "disgust",
        "repugnance",
        "cold",
        "high",
        "skeptical",
        "You are revolted by your old supplier's service and want it switched at once. You are "
        "cold and brief, "
        "expect more stalling, and want proof that every change went through.",
    ),
]

TASK_FUNCTIONS: list[Callable[[Seed], Draft]] = [
    t01_move_visit_and_note,
    t02_switch_doctor,
    t03_cheaper_supplier_abroad,
    t04_aspirin_on_warfarin,
    t05_device_usage_and_coaching,
    t06_voucher_visit,
    t07_pending_visit_link,
    t08_cancel_two_and_note,
    t09_two_suppliers,
    t10_move_and_switch,
    t11_gp_in_my_language,
    t12_cancel_with_reason_note,
    t13_regimen_and_supplier,
    t14_tramadol_check,
    t15_move_one_cancel_other,
    t16_supplier_in_country_and_note,
    t17_missed_uploads,
    t18_two_bookings,
    t19_pending_to_self_pay,
    t20_supplier_move_note,
]


def argument_names(actions: list[Action]) -> list[str]:
    """Every argument name of the actions, nested ones too, once (what the pester baseline asks for)."""
    names: list[str] = []

    def collect(arguments: dict[str, Any]) -> None:
        for name, value in arguments.items():
            if name not in NOT_ASKED and name not in names:
                names.append(name)
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, dict):
                    collect(item)

    for action in actions:
        collect(action.arguments)
    return names


def needless_for_pester(draft: Draft | Task) -> list[str]:
    """The gold-argument names the pester baseline asks for needlessly: volunteered or discoverable."""
    if isinstance(draft, Task):
        scenario, actions = draft.user_scenario, draft.evaluation.actions
        volunteered, discoverable = scenario.volunteered, scenario.discoverable
    else:
        actions, volunteered, discoverable = draft.actions, draft.volunteered, draft.discoverable
    return [name for name in argument_names(actions) if name in volunteered or name in discoverable]


def check_draft(number: int, draft: Draft) -> None:
    """The authoring rules a scenario must follow (docs/tasks.md); raises on the first broken one."""
    names = set(argument_names(draft.actions))
    problems = []
    if len(draft.discoverable) < 4 or not set(draft.discoverable) <= names:
        problems.append(f"discoverable {sorted(draft.discoverable)} must be >= 4 gold argument names")
    if set(draft.discoverable) & set(draft.known):
        problems.append("a fact is both known and discoverable")
    if not set(draft.volunteered) & names:
        problems.append("no volunteered fact is a gold argument")
    if not 5 <= len(needless_for_pester(draft)) <= 16:
        problems.append(f"pester would ask {len(needless_for_pester(draft))} needless questions")
    if problems:
        raise ValueError(f"task {number}: " + "; ".join(problems))


def to_task(number: int, draft: Draft, emotion: tuple[str, str, str, str, str, str]) -> Task:
    family, name, politeness, urgency, trust, behaviour = emotion
    task_id = f"telehealth-{number:03d}"
    return Task(
        id=task_id,
        domain="telehealth",
        user_scenario=UserScenario(
            persona=draft.persona,
            reason_for_call=draft.reason,
            known_info=draft.known,
            volunteered=draft.volunteered,
            unknown_info=draft.unknown,
            discoverable=draft.discoverable,
            goals=attach_targets(draft.goals, draft.actions, _write_tools()),
            preferences=draft.preferences,
        ),
        instruction=draft.instruction,
        emotion=Emotion(
            family=family,
            emotion=name,
            politeness=politeness,
            urgency=urgency,
            trust=trust,
            instruction=behaviour,
        ),
        evaluation=Evaluation(actions=draft.actions, outputs=draft.outputs),
        twin=f"{task_id}-neutral",
        provenance=Provenance(source="hand-written", seed=SEED),
    )


def _write_tools() -> frozenset[str]:
    from taue.envs.telehealth import DOMAIN

    return DOMAIN.write_tools


def build_tasks(seed: int = SEED) -> list[Task]:
    """The emotional tasks, each followed by its neutral twin."""
    data = Seed(seed)
    tasks = []
    for number, (function, emotion) in enumerate(zip(TASK_FUNCTIONS, EMOTIONS, strict=True), start=1):
        draft = function(data)
        check_draft(number, draft)
        task = to_task(number, draft, emotion)
        tasks.extend([task, neutral_twin(task)])
    return tasks


def main() -> None:
    tasks = build_tasks()
    payload = [task.model_dump(mode="json") for task in tasks]
    TASKS_PATH.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(tasks)} tasks to {TASKS_PATH}")


if __name__ == "__main__":
    main()
