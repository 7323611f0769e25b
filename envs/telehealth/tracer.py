"""Telehealth's parts for the Tracer (docs/tracer.md): patients, intents grounded on their visits,
records, prescriptions and devices, and the hard rules of policy.md as code."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cached_property
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.runtime.authoring import Customer, Grounded, Intent, Lookups, Rule, TracerSpec
from taue.envs.telehealth import models as m
from taue.envs.telehealth.generate import SLOTS, SPECIALTIES, TODAY, generate

Record = dict[str, Any]
Rng = random.Random
ACTIVE = ("scheduled", "pending_approval")
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
        "a caregiver who manages her own care between her father's visits",
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
CANCEL_BECAUSE = tuple(
    [
        "you will be travelling that week",
        "you are feeling better",
        "you booked it by mistake",
        "it clashes with your work schedule",
    ]
)

# --------------------------------------------------------------------------------------- policy rules

SLOT_WORDS = "not on their schedule|not in their schedule|not on the schedule|"


def rule(rule_id: str, text: str, reasons: str) -> Rule:
    """A rule whose refusal phrases are given as one '|'-separated string."""
    return Rule(rule_id, text, tuple(r for r in reasons.split("|") if r))


ACTIVE_ONLY = rule(
    "active-visits-only",
    "Only scheduled and pending-approval visits can be moved or cancelled.",
    "already completed|already been completed|already took place|already happened|already cancelled|"
    "already been cancelled|only scheduled",
)
PROVIDER_DAY = rule(
    "provider-weekday",
    "A provider can only be booked on a weekday that appears in their schedule.",
    SLOT_WORDS + "does not work on|doesn't work on|not available on|isn't available on",
)
PROVIDER_SLOT = rule(
    "provider-slot",
    "A provider can only be booked at one of that day's listed slots.",
    SLOT_WORDS + "not available at|isn't available at|not one of|not a listed",
)
SLOT_TAKEN = rule(
    "slot-free",
    "A slot another active visit already holds cannot be booked.",
    "already booked|already taken|already has an appointment|not free|not available at|isn't available at",
)
VOUCHER_SELF_PAY = rule(
    "voucher-without-insurance", "A voucher is used only when insurance is not billed.", ""
)
LISTED_OFFER = rule(
    "listed-supplier-offer",
    "A prescription's supplier must be one of the listed offers, exactly as listed.",
    "exactly as listed|listed price|listed offer|not listed|isn't listed|not on the list",
)
ON_RECORD = rule(
    "prescription-on-record", "Only a prescription on the record can change.", "not on that record"
)
NOTE_TEXT = rule("note-text", "A note must say something.", "")


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


def write(name: str, **arguments: Any) -> Action:
    return Action(name=name, arguments=arguments)


def _shuffled(records: list[Record], rng: Rng) -> list[Record]:
    records = list(records)
    rng.shuffle(records)
    return records


def _upcoming(view: View, customer: Customer) -> list[Record]:
    return [
        v for v in view.visits(customer.id, *ACTIVE) if v["date"] > TODAY.isoformat() and v["meeting_link"]
    ]


# -------------------------------------------------------------------------------- appointment intents


def reschedule_visit(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    for visit in _shuffled(_upcoming(view, customer), rng):
        slot = view.free_slot(visit["provider_id"], rng)
        if slot is not None:
            return _move(view, visit, slot)
    return None


def move_to_unavailable_slot(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    for visit in _shuffled(_upcoming(view, customer), rng):
        slot = view.bad_slot(visit["provider_id"], rng, exclude=visit["appointment_id"])
        if slot is not None:
            return _move(view, visit, slot)
    return None


def _move(view: View, visit: Record, slot: tuple[str, str]) -> Grounded:
    new_date, new_time = slot
    moved = {"new_date": new_date, "new_time": new_time}
    words = visit_words(view, visit)
    return Grounded(
        request=f"I need to move my {words} to {new_date} at {new_time}.",
        situation=f"You need your {words} moved to {new_date} at {new_time}, with the same doctor",
        bindings={
            "status_filter": None,
            "appointment_id": view.visit_lookups(visit, None),
            "provider_id": visit["provider_id"],
        },
        write=write("reschedule_appointment", appointment_id=visit["appointment_id"], **moved),
        entities=frozenset({visit["appointment_id"], f"slot:{visit['provider_id']}:{new_date}:{new_time}"}),
        known={"visit_to_move": words, **moved},
        discoverable={"appointment_id": visit["appointment_id"], "provider_id": visit["provider_id"]},
        evidence=(visit["appointment_id"], new_date),
        reason="Move a video visit to another time.",
    )


def cancel_visit(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    visits = _upcoming(view, customer)
    if not visits:
        return None
    return _cancel(view, rng.choice(visits), rng)


def cancel_past_visit(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    visits = view.visits(customer.id, "completed", "cancelled")
    return _cancel(view, rng.choice(visits), rng) if visits else None


def _cancel(view: View, visit: Record, rng: Rng) -> Grounded:
    status_filter = "scheduled" if visit["status"] == "scheduled" else None
    words = visit_words(view, visit)
    because = rng.choice(CANCEL_BECAUSE)
    label = "scheduled " if status_filter else ""
    return Grounded(
        request=f"Please cancel my {label}{words}.",
        situation=f"You want your {words} cancelled because {because}",
        bindings={"status_filter": status_filter, "appointment_id": view.visit_lookups(visit, status_filter)},
        write=write("cancel_appointment", appointment_id=visit["appointment_id"]),
        entities=frozenset({visit["appointment_id"]}),
        known={"visit_to_cancel": words, "cancel_because": because},
        discoverable={"appointment_id": visit["appointment_id"]},
        evidence=(visit["appointment_id"],),
        reason="Cancel a video visit.",
    )


def book_visit(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _new_visit(view, customer, rng, view.free_slot)


def book_unavailable_slot(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _new_visit(view, customer, rng, view.bad_slot)


def _new_visit(view: View, customer: Customer, rng: Rng, pick: Any) -> Grounded | None:
    specialty = rng.choice(BOOKABLE)
    provider = rng.choice([p for _, p in sorted(view.providers.items()) if p["specialty"] == specialty])
    slot = pick(provider["provider_id"], rng)
    kind = rng.choice(SPECIALTIES[specialty][4])
    pay = pick == view.free_slot
    return _booking(view, customer, provider["provider_id"], kind, slot, rng, {}, pay=pay) if slot else None


def book_follow_up(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    for visit in _shuffled(view.visits(customer.id), rng):
        slot = view.free_slot(visit["provider_id"], rng)
        if slot is None:
            continue
        kinds = SPECIALTIES[view.providers[visit["provider_id"]]["specialty"]][4]
        kind = "follow_up" if "follow_up" in kinds else visit["type"]
        bindings = {
            "status_filter": None,
            "appointment_id": view.visit_lookups(visit, None),
            "provider_id": visit["provider_id"],
        }
        when = f"the doctor of my visit on {visit['date']}"
        return _booking(view, customer, visit["provider_id"], kind, slot, rng, bindings, when, visit)
    return None


def _booking(
    view: View,
    customer: Customer,
    provider_id: str,
    kind: str,
    slot: tuple[str, str],
    rng: Rng,
    bindings: dict[str, Any],
    who: str = "",
    visit: Record | None = None,
    pay: bool = True,
) -> Grounded:
    day, time = slot
    name = doctor(view, provider_id)
    specialty = view.providers[provider_id]["specialty"]
    arguments: dict[str, Any] = {
        "patient_id": customer.id,
        "provider_id": provider_id,
        "date": day,
        "time": time,
        "appointment_type": kind,
    }
    known = {
        "doctor": name,
        "specialty": specialty,
        "visit_type": kind,
        "visit_date": day,
        "visit_time": time,
    }
    billing, paying = "", rng.random() if pay else 1.0
    if paying < 0.2:
        code = f"TVH-{rng.randint(10000, 99999)}"
        notes = "Employer wellness voucher"
        arguments.update(bill_insurance=False, voucher_id=code, payment_notes=notes)
        known.update(voucher_code=code, payment_note=notes)
        billing = (
            f", not billed to insurance but paid with telehealth voucher {code} (payment note '{notes}')"
        )
    elif paying < 0.35:
        notes = "Patient pays out of pocket"
        arguments.update(bill_insurance=False, payment_notes=notes)
        known.update(payment_note=notes)
        billing = f", as self-pay without insurance (payment note '{notes}')"
    of = f" ({who})" if who else f" ({specialty})"
    entities = {f"provider:{provider_id}", f"slot:{provider_id}:{day}:{time}"}
    if visit is not None:
        entities.add(visit["appointment_id"])
    return Grounded(
        request=f"Please book a {kind_words(kind)} with {name}{of} on {day} at {time}{billing}.",
        situation=f"You want a {kind_words(kind)} with {name}{of} on {day} at {time}{billing}",
        bindings={"status_filter": None, "specialty": specialty, "provider_id": provider_id, **bindings},
        write=write("schedule_appointment", **arguments),
        entities=frozenset(entities),
        known=known,
        discoverable={"provider_id": provider_id},
        evidence=(day, time),
        reason="Book a video visit.",
    )


def visit_link(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    visits = _upcoming(view, customer)
    if not visits:
        return None
    visit = rng.choice(visits)
    words = visit_words(view, visit)
    return Grounded(
        kind="information",
        request=f"What is the video link for my {words}, and the doctor's phone number in case I can't join?",
        situation=f"You want the video meeting link for your {words}, and the doctor's phone number in case "
        "you cannot join",
        bindings={
            "status_filter": None,
            "appointment_id": view.visit_lookups(visit, None),
            "provider_id": visit["provider_id"],
        },
        entities=frozenset({visit["appointment_id"]}),
        known={"visit_for_link": words},
        discoverable={"appointment_id": visit["appointment_id"]},
        evidence=(visit["meeting_link"], view.providers[visit["provider_id"]]["contact"]["phone"]),
        reason="Find the link of a video visit.",
    )


# ------------------------------------------------------------------------- records and prescriptions


def add_note(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    records = view.records_of(customer.id)
    if not records:
        return None
    latest = rng.random() < 0.5 or len({r["date"] for r in records}) < len(records)
    record = records[0] if latest else rng.choice(records)
    medications = view.medications(customer.id)
    templates = [t for t in NOTES if medications or "{medication}" not in t]
    note = rng.choice(templates).format(medication=rng.choice(medications) if medications else "")
    which = "my latest medical record" if latest else f"my medical record from {record['date']}"
    return Grounded(
        request=f"Please add this note to {which}: '{note}'.",
        situation=f"You want the care team to know something: ask for the note '{note}' on {which[3:]}",
        bindings={
            "limit": 1 if latest else None,
            "record_id": view.record_lookups(record),
            "appointment_id": None,
        },
        write=write("update_medical_record_note", record_id=record["record_id"], note=note),
        entities=frozenset({f"note:{record['record_id']}"}),
        known={"note": note, "record_to_note": which[3:]},
        discoverable={"record_id": record["record_id"]},
        evidence=(record["record_id"],),
        reason="Pass a message on to the care team.",
    )


def _prescribed(view: View, customer: Customer, rng: Rng) -> tuple[Record, str] | None:
    """A record and a medication prescribed on it (the newest record holding it, its date unique)."""
    records = view.records_of(customer.id)
    dates = [r["date"] for r in records]
    options = []
    for record in records:
        for name in [p["medication"] for p in record.get("prescriptions") or []]:
            newest = next(
                r for r in records if name in [p["medication"] for p in r.get("prescriptions") or []]
            )
            if newest is record and dates.count(record["date"]) == 1 and name in view.suppliers:
                options.append((record, name))
    return rng.choice(options) if options else None


def switch_supplier(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    found = _prescribed(view, customer, rng)
    if found is None:
        return None
    record, medication = found
    offers = sorted(view.suppliers[medication], key=lambda o: o["price_usd"])
    current = next(p for p in record["prescriptions"] if p["medication"] == medication).get("supplier") or {}
    way, country = rng.choice(("cheapest", "country", "named")), None
    if way == "country":
        country = rng.choice(sorted({o["country"] for o in offers}))
        offers = [o for o in offers if o["country"] == country]
    if way == "named":
        offer = rng.choice(offers)
        wanted = offer["company"]
    elif len(offers) > 1 and offers[0]["price_usd"] == offers[1]["price_usd"]:
        return None
    else:
        offer = offers[0]
        wanted = "the cheapest listed supplier" + (f" based in {country}" if country else "")
    if offer["company"] == current.get("company"):
        return None
    return _supplier_goal(
        view,
        record,
        medication,
        offer,
        offer["price_usd"],
        f"switch the {medication} prescription on my medical record from {record['date']} to {wanted}",
        {"medication": medication, "wanted_supplier": wanted, "record_date": record["date"]},
        country,
    )


def supplier_price_match(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    found = _prescribed(view, customer, rng)
    if found is None:
        return None
    record, medication = found
    offer = rng.choice(view.suppliers[medication])
    price = round(offer["price_usd"] * rng.choice((0.6, 0.7, 0.8)), 2)
    quoted = f"{offer['company']} at ${price:.2f}"
    return _supplier_goal(
        view,
        record,
        medication,
        offer,
        price,
        f"switch my {medication} prescription (on my medical record from {record['date']}) to {quoted}, "
        "the price they quoted me",
        {"medication": medication, "quoted_offer": quoted, "record_date": record["date"]},
    )


def _supplier_goal(
    view: View,
    record: Record,
    medication: str,
    offer: Record,
    price: float,
    wish: str,
    known: dict[str, str],
    country: str | None = None,
) -> Grounded:
    company = offer["company"]
    return Grounded(
        request=f"Please {wish}.",
        situation=f"You want to {wish.replace('my ', 'your ').replace('they quoted me', 'you were quoted')}",
        bindings={
            "limit": None,
            "record_id": view.record_lookups(record),
            "appointment_id": None,
            "medication": medication,
            "country_filter": country,
        },
        write=write(
            "update_prescription_supplier",
            record_id=record["record_id"],
            medication=medication,
            supplier_company=company,
            brand_name=offer["brand_name"],
            price_usd=price,
        ),
        entities=frozenset({record["record_id"]}),
        known=known,
        discoverable={"record_id": record["record_id"], "supplier_company": company},
        evidence=(company,),
        reason="Have a prescription filled by another supplier.",
    )


def interaction_check(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    taking = view.medications(customer.id)
    options = sorted(
        {
            other
            for outer, inner in view.interactions.items()
            for other in (*inner, outer)
            if other not in taking and any(_interaction(view, other, m) for m in taking)
        }
    )
    if not options:
        return None
    new = rng.choice(options)
    pairs = [(new, m) for m in taking] + [(a, b) for i, a in enumerate(taking) for b in taking[i + 1 :]]
    hours = max((e["time_overlap_hours"] for a, b in pairs if (e := _interaction(view, a, b))), default=0)
    return Grounded(
        kind="information",
        request=f"I was told to start {new}. Can you check it against my current medicines and tell me how "
        "many hours the risk window lasts?",
        situation=f"You were told to start {new} and want it checked against your current medicines, and to "
        "know how many hours the risk window lasts",
        bindings={"primary_medication": new, "current_medications": taking, "limit": None},
        entities=frozenset({f"interaction:{customer.id}"}),
        known={"new_medication": new},
        discoverable={"current_medications": ", ".join(taking)},
        evidence=(f"{hours} hours",),
        reason="Check a new medicine against the current ones.",
    )


def _interaction(view: View, a: str, b: str) -> Record | None:
    return view.interactions.get(a, {}).get(b) or view.interactions.get(b, {}).get(a)


# -------------------------------------------------------------------------------------------- intents

VISIT_READS = ("list_patient_appointments", "get_appointment_details", "get_provider_details")
BOOK_READS = ("list_patient_appointments", "list_available_providers", "get_provider_details")
RECORD_READS = ("list_patient_medical_records", "get_medical_record")
SUPPLY_READS = (*RECORD_READS, "list_medication_suppliers")
CHECK_READS = ("list_patient_medical_records", "get_regimen_options")

GAD_GPR = ("get_appointment_details", "get_provider_details")


def intent(ground: Any, terminal: str, topic: str, reads: tuple[str, ...], *required: str) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, reads, required)


def challenge(ground: Any, terminal: str, topic: str, reads: tuple[str, ...], *required: str) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, reads, required, challenge=True)


INTENTS = (
    intent(reschedule_visit, "reschedule_appointment", "rescheduling a visit", VISIT_READS, *GAD_GPR),
    intent(cancel_visit, "cancel_appointment", "cancelling a visit", VISIT_READS[:2]),
    intent(book_visit, "schedule_appointment", "booking a visit", BOOK_READS, *BOOK_READS[1:]),
    intent(book_follow_up, "schedule_appointment", "booking a follow-up visit", VISIT_READS, *GAD_GPR),
    intent(add_note, "update_medical_record_note", "leaving a message for the care team", RECORD_READS),
    intent(
        switch_supplier,
        "update_prescription_supplier",
        "changing where a prescription is filled",
        SUPPLY_READS,
        "list_patient_medical_records",
        "list_medication_suppliers",
    ),
    intent(visit_link, "get_provider_details", "joining a video visit", VISIT_READS[:2], GAD_GPR[0]),
    intent(interaction_check, "check_drug_interactions", "checking a new medicine", CHECK_READS),
    challenge(book_unavailable_slot, "schedule_appointment", "booking a visit", BOOK_READS, *BOOK_READS[1:]),
    challenge(
        move_to_unavailable_slot, "reschedule_appointment", "rescheduling a visit", VISIT_READS, *GAD_GPR
    ),
    challenge(cancel_past_visit, "cancel_appointment", "cancelling a visit", VISIT_READS[:2], GAD_GPR[0]),
    challenge(
        supplier_price_match,
        "update_prescription_supplier",
        "changing where a prescription is filled",
        SUPPLY_READS,
        "list_medication_suppliers",
    ),
)


# ----------------------------------------------------------------------------------------- the check


def check_policy(view: View, action: Action) -> list[Rule]:
    """The rules of policy.md that the write `action` breaks, judged on the seed records."""
    args, name = action.arguments, action.name
    broken: list[Rule] = []
    if name in ("cancel_appointment", "reschedule_appointment"):
        visit = view.appointments[args["appointment_id"]]
        if visit["status"] not in ACTIVE:
            broken.append(ACTIVE_ONLY)
        if name == "reschedule_appointment":
            broken += _slot_rules(
                view, visit["provider_id"], args["new_date"], args["new_time"], visit["appointment_id"]
            )
    elif name == "schedule_appointment":
        broken += _slot_rules(view, args["provider_id"], args["date"], args["time"])
        if args.get("voucher_id") and args.get("bill_insurance", True):
            broken.append(VOUCHER_SELF_PAY)
    elif name == "update_prescription_supplier":
        record = view.records[args["record_id"]]
        if args["medication"] not in [p["medication"] for p in record.get("prescriptions") or []]:
            broken.append(ON_RECORD)
        offer = (args["supplier_company"], args["brand_name"], args["price_usd"])
        listed = [
            (o["company"], o["brand_name"], o["price_usd"])
            for o in view.suppliers.get(args["medication"], [])
        ]
        if offer not in listed:
            broken.append(LISTED_OFFER)
    elif name == "update_medical_record_note" and not str(args.get("note", "")).strip():
        broken.append(NOTE_TEXT)
    return broken


def _slot_rules(view: View, provider_id: str, day: str, time: str, exclude: str = "") -> list[Rule]:
    slots = view.slots(provider_id, day)
    if not slots:
        return [PROVIDER_DAY]
    if time not in slots:
        return [PROVIDER_SLOT]
    holders = [a["appointment_id"] for a in view.appointments.values() if a["status"] in ACTIVE]
    holders = [h for h in holders if _slot_of(view.appointments[h]) == (provider_id, day, time)]
    return [SLOT_TAKEN] if set(holders) - {exclude} else []


def _slot_of(visit: Record) -> tuple[str, str, str]:
    return visit["provider_id"], visit["date"], visit["time"]


TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={3: 0.5, 4: 0.5},
    intent_counts={1: 0.2, 2: 0.6, 3: 0.2},
)
