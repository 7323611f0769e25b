"""Telehealth's parts for the Tracer (docs/tracer.md): the intents a customer brings, grounded on the
seed view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

from typing import Any

from taue.envs.runtime.authoring import Customer, Grounded, Intent, TracerSpec, write
from taue.envs.telehealth.generate import SPECIALTIES
from taue.envs.telehealth.policy_check import check_policy
from taue.envs.telehealth.seed_view import (
    BOOKABLE,
    CANCEL_BECAUSE,
    NOTES,
    PERSONAS,
    Record,
    Rng,
    View,
    _shuffled,
    _upcoming,
    customers,
    doctor,
    kind_words,
    load,
    visit_words,
)

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
        situation=f"You want a {kind_words(kind)} with {name}{of.replace('my ', 'your ')} on {day} at {time}"
        f"{billing}",
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
        situation=f"You want the care team to know something: ask for the note '{note}' on your {which[3:]}",
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


TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={3: 0.5, 4: 0.5},
    intent_counts={1: 0.25, 2: 0.55, 3: 0.2},
)
