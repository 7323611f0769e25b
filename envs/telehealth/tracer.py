"""Telehealth's parts for the Tracer (docs/tracer.md): the intents a customer brings, grounded on the
seed view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

from datetime import date
from typing import Any

from taue.envs.runtime.authoring import Alternative, Customer, Grounded, Intent, TracerSpec, Wording, write
from taue.envs.telehealth.generate import SPECIALTIES, TODAY
from taue.envs.telehealth.phrases import BANKS
from taue.envs.telehealth.policy_check import check_policy
from taue.envs.telehealth.seed_view import (
    BOOKABLE,
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

SICK_DAYS = 10
"""A sick visit is booked within this many days: nobody books one for a cough a month ahead."""


def _days_to(day: str) -> int:
    return (date.fromisoformat(day) - TODAY).days


# -------------------------------------------------------------------------------- appointment intents


def reschedule_visit(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    for visit in _shuffled(_upcoming(view, customer), rng):
        slot = view.free_slot(visit["provider_id"], rng)
        if slot is not None:
            return _move(view, visit, slot, rng, "reschedule_visit")
    return None


def move_to_unavailable_slot(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    for visit in _shuffled(_upcoming(view, customer), rng):
        slot = view.bad_slot(visit["provider_id"], rng, exclude=visit["appointment_id"])
        if slot is not None:
            return _move(view, visit, slot, rng, "move_to_unavailable_slot")
    return None


def move_instead(view: View, customer: Customer, refused: Grounded, rng: Rng) -> Grounded | None:
    """The policy's alternative to a slot the provider cannot take: a listed free slot of the same
    provider, the nearest to the one refused, which the customer takes."""
    assert refused.write is not None
    arguments = refused.write.arguments
    visit = view.appointments[arguments["appointment_id"]]
    free = [s for s in view.free_slots(visit["provider_id"]) if s != (visit["date"], visit["time"])]
    if not free:
        return None
    wanted = date.fromisoformat(arguments["new_date"])
    nearest = sorted(free, key=lambda s: (abs((date.fromisoformat(s[0]) - wanted).days), s))[:3]
    return _move(view, visit, rng.choice(nearest), rng, "move_instead")


def _move(view: View, visit: Record, slot: tuple[str, str], rng: Rng, bank: str) -> Grounded:
    new_date, new_time = slot
    moved = {"new_date": new_date, "new_time": new_time}
    words = visit_words(view, visit)
    why = "same_day" if new_date == visit["date"] else "earlier" if new_date < visit["date"] else "later"
    wording = BANKS[bank].word(rng, {"visit": words, **moved}, reason=why)
    return Grounded(
        **wording.fields(),
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
    )


def cancel_visit(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    visits = _upcoming(view, customer)
    if not visits:
        return None
    visit = rng.choice(visits)
    days = _days_to(visit["date"])
    if days <= 7:
        why = "better" if visit["type"] in ("sick_visit", "follow_up") and rng.random() < 0.5 else "soon"
    else:
        why = "weeks" if days <= 28 else "later"
    return _cancel(view, visit, rng, "cancel_visit", why)


def cancel_past_visit(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    """A visit that already took place or was already cancelled: the customer believes it still
    counts (a dropped call, a cancellation never confirmed), which the policy does not allow."""
    visits = view.visits(customer.id, "completed", "cancelled")
    if not visits:
        return None
    visit = rng.choice(visits)
    return _cancel(view, visit, rng, "cancel_past_visit", visit["status"])


def _cancel(view: View, visit: Record, rng: Rng, bank: str, why: str) -> Grounded:
    status_filter = "scheduled" if visit["status"] == "scheduled" else None
    words = visit_words(view, visit)
    label = "scheduled " if status_filter else ""
    wording = BANKS[bank].word(rng, {"visit": label + words}, reason=why)
    return Grounded(
        **wording.fields(),
        bindings={"status_filter": status_filter, "appointment_id": view.visit_lookups(visit, status_filter)},
        write=write("cancel_appointment", appointment_id=visit["appointment_id"]),
        entities=frozenset({visit["appointment_id"]}),
        known={"visit_to_cancel": words},
        discoverable={"appointment_id": visit["appointment_id"]},
        evidence=(visit["appointment_id"],),
    )


def book_visit(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _new_visit(view, customer, rng, free=True)


def book_unavailable_slot(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _new_visit(view, customer, rng, free=False)


def _new_visit(view: View, customer: Customer, rng: Rng, free: bool) -> Grounded | None:
    specialty = rng.choice(BOOKABLE)
    provider = rng.choice([p for _, p in sorted(view.providers.items()) if p["specialty"] == specialty])
    provider_id = provider["provider_id"]
    # A first visit with a doctor is not a follow-up (book_follow_up books those after a visit).
    kind = rng.choice([k for k in SPECIALTIES[specialty][4] if k != "follow_up"])
    if free:
        slots = view.free_slots(provider_id)
        if kind == "sick_visit":  # someone unwell wants to be seen soon
            slots = [s for s in slots if _days_to(s[0]) <= SICK_DAYS]
        slot = rng.choice(slots) if slots else None
    else:
        slot = view.bad_slot(provider_id, rng)
        if slot is not None and kind == "sick_visit" and _days_to(slot[0]) > SICK_DAYS:
            return None
    if slot is None:
        return None
    bank = "book_visit" if free else "book_unavailable_slot"
    return _booking(view, customer, provider_id, kind, slot, rng, bank, pay=free)


FOLLOW_GAP = 7
"""A follow-up comes at least this many days after the visit it follows."""
ONGOING = (
    "therapy_session",
    "medication_review",
    "device_coaching",
    "care_coordination",
    "compliance_coaching",
)
"""Visit types that recur as such; other visits are followed by a `follow_up` where the doctor offers one."""


def book_follow_up(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    for visit in _shuffled(view.visits(customer.id, "completed", "scheduled"), rng):
        specialty = view.providers[visit["provider_id"]]["specialty"]
        kinds = SPECIALTIES[specialty][4]
        kind = "follow_up" if "follow_up" in kinds else visit["type"] if visit["type"] in ONGOING else None
        if kind is None or specialty == "Pediatrics":
            continue
        # The follow-up comes after the visit it follows.
        after = (date.fromisoformat(visit["date"]) - TODAY).days + FOLLOW_GAP
        slots = [s for s in view.free_slots(visit["provider_id"]) if _days_to(s[0]) >= after]
        if not slots:
            continue
        bindings = {
            "status_filter": None,
            "appointment_id": view.visit_lookups(visit, None),
            "provider_id": visit["provider_id"],
        }
        why = "past" if visit["status"] == "completed" else "upcoming"
        return _booking(
            view, customer, visit["provider_id"], kind, rng.choice(slots), rng, "book_follow_up", bindings,
            visit, why,
        )  # fmt: skip
    return None


def _booking(
    view: View,
    customer: Customer,
    provider_id: str,
    kind: str,
    slot: tuple[str, str],
    rng: Rng,
    bank: str,
    bindings: dict[str, Any] | None = None,
    visit: Record | None = None,
    why: str = "",
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
        known.update(voucher_id=code, payment_note=notes)
        billing = (
            f", not billed to insurance but paid with telehealth voucher {code} (payment note '{notes}')"
        )
    elif paying < 0.35:
        notes = "Patient pays out of pocket"
        arguments.update(bill_insurance=False, payment_notes=notes)
        known.update(payment_note=notes)
        billing = f", as self-pay without insurance (payment note '{notes}')"
    slots = {"kind": kind_words(kind), "doctor": name, "specialty": specialty, "date": day, "time": time}
    slots["billing"] = billing
    if visit is not None:
        slots["prior_date"] = visit["date"]
    wording = BANKS[bank].word(rng, slots, reason=why or kind)
    entities = {f"provider:{provider_id}", f"slot:{provider_id}:{day}:{time}"}
    if visit is not None:
        entities.add(visit["appointment_id"])
    return Grounded(
        **wording.fields(),
        bindings={
            "status_filter": None,
            "specialty": specialty,
            "provider_id": provider_id,
            **(bindings or {}),
        },
        write=write("schedule_appointment", **arguments),
        entities=frozenset(entities),
        known=known,
        discoverable={"provider_id": provider_id},
        evidence=(day, time),
    )


def visit_link(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    visits = _upcoming(view, customer)
    if not visits:
        return None
    visit = rng.choice(visits)
    words = visit_words(view, visit)
    why = "soon" if _days_to(visit["date"]) <= 7 else ""
    return Grounded(
        **BANKS["visit_link"].word(rng, {"visit": words}, reason=why).fields(),
        kind="information",
        bindings={
            "status_filter": None,
            "appointment_id": view.visit_lookups(visit, None),
            "provider_id": visit["provider_id"],
        },
        entities=frozenset({visit["appointment_id"]}),
        known={"visit_for_link": words},
        discoverable={"appointment_id": visit["appointment_id"]},
        evidence=(visit["meeting_link"], view.providers[visit["provider_id"]]["contact"]["phone"]),
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
        **BANKS["add_note"]
        .word(rng, {"note": note, "record": which, "your_record": "your" + which[2:]})
        .fields(),
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
    slots = {
        "medication": medication,
        "record_date": record["date"],
        "wanted": wanted,
        "country": country or "",
    }
    wording = BANKS["switch_supplier"].word(rng, slots, reason=way)
    known = {"medication": medication, "wanted_supplier": wanted, "record_date": record["date"]}
    # A supplier the customer names is a fact they state, not one the tools must find.
    facts = {} if way == "named" else {"supplier_company": offer["company"]}
    return _supplier_goal(view, record, medication, offer, offer["price_usd"], wording, known, facts, country)


def supplier_price_match(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    found = _prescribed(view, customer, rng)
    if found is None:
        return None
    record, medication = found
    offer = rng.choice(view.suppliers[medication])
    price = round(offer["price_usd"] * rng.choice((0.6, 0.7, 0.8)), 2)
    quoted = f"{offer['company']} at ${price:.2f}"
    slots = {"medication": medication, "record_date": record["date"], "quoted": quoted}
    wording = BANKS["supplier_price_match"].word(rng, slots)
    known = {"medication": medication, "quoted_offer": quoted, "record_date": record["date"]}
    return _supplier_goal(view, record, medication, offer, price, wording, known, {})


def _supplier_goal(
    view: View,
    record: Record,
    medication: str,
    offer: Record,
    price: float,
    wording: Wording,
    known: dict[str, str],
    found: dict[str, str],
    country: str | None = None,
) -> Grounded:
    company = offer["company"]
    return Grounded(
        **wording.fields(),
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
        discoverable={"record_id": record["record_id"], **found},
        evidence=(company,),
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
        **BANKS["interaction_check"].word(rng, {"new": new}).fields(),
        kind="information",
        bindings={"primary_medication": new, "current_medications": taking, "limit": None},
        entities=frozenset({f"interaction:{customer.id}"}),
        known={"new_medication": new},
        discoverable={"current_medications": ", ".join(taking)},
        evidence=(f"{hours} hours",),
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


def intent(
    ground: Any, terminal: str, topic: str, reads: tuple[str, ...], *required: str, weight: float = 1.0
) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, reads, required, weight=weight)


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
    intent(
        visit_link, "get_provider_details", "joining a video visit", VISIT_READS[:2], GAD_GPR[0], weight=0.25
    ),
    intent(interaction_check, "check_drug_interactions", "checking a new medicine", CHECK_READS, weight=0.25),
    challenge(book_unavailable_slot, "schedule_appointment", "booking a visit", BOOK_READS, *BOOK_READS[1:]),
    Intent(
        "move_to_unavailable_slot",
        "reschedule_appointment",
        move_to_unavailable_slot,
        "rescheduling a visit",
        VISIT_READS,
        GAD_GPR,
        challenge=True,
        alternative=Alternative("move_instead", "reschedule_appointment", move_instead),
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
    walk_lengths={3: 0.8, 4: 0.2},
    intent_counts={2: 0.2, 3: 0.45, 4: 0.35},
)
