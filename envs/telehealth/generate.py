"""Deterministic telehealth seed data: our own patients, clinicians, visits, notes and devices.

`generate(seed)` draws everything from one `random.Random(seed)`, so the same seed always gives the
same rows. Shapes, id formats and sizes follow the published telehealth tables (two id families: the
short hand-written style `APPT007`, `REC012`, `lena_okafor_4821`, and the generated "tracer" style
`APPT_tracer_061`, `REC_tracer_031`, `ivo_brandt_tracer_0001`); names, texts and values are our own.
Dates are placed around the simulated clock (`rules.CLOCK`): visits before it are completed, later ones
scheduled.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from typing import Any

from sqlmodel import SQLModel

from taue.envs.runtime.money import cents
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
from taue.envs.telehealth.rules import TODAY

PATIENT_COUNT = 239
HAND_PATIENTS = 90
APPOINTMENT_COUNT = 214
HAND_APPOINTMENTS = 40
RECORD_COUNT = 149
HAND_RECORDS = 30
DEVICE_COUNT = 130
MEETING_ROOT = "https://telehealth.healthcenter.com/room/"

FIRST_NAMES = (
    "Lena", "Marcus", "Priya", "Tomas", "Aisha", "Gideon", "Hana", "Ruben", "Celeste", "Idris",
    "Freya", "Mateo", "Noor", "Oskar", "Yara", "Bastian", "Keiko", "Elio", "Saoirse", "Darius",
    "Ingrid", "Kwame", "Lucia", "Anselm", "Mirela", "Tobias", "Zainab", "Caspian", "Odette", "Rafferty",
    "Sunniva", "Emeka", "Liesel", "Joaquin", "Marisol", "Florian", "Annika", "Cyrus", "Beatrix", "Nikhil",
    "Wilhelmina", "Ezra", "Paloma", "Theo", "Ximena", "Arjun", "Greta", "Lorenzo", "Signe", "Dmitri",
)  # fmt: skip
LAST_NAMES = (
    "Okafor", "Brandt", "Lindqvist", "Moreau", "Castellanos", "Iyer", "Whitcombe", "Haddad", "Novak",
    "Fairweather", "Takeda", "Ferreira", "Albright", "Kowalczyk", "Mbeki", "Vasquez", "Holloway",
    "Eriksen", "Quintana", "Delacroix", "Abernathy", "Sato", "Pellegrino", "Rahimi", "Oyelaran",
    "Bjornstad", "Cardenas", "Lachance", "Mwangi", "Ostrowski", "Renner", "Szabo", "Trevino", "Ueda",
    "Valentin", "Winslow", "Yamamoto", "Zeller", "Ashdown", "Beaumont",
)  # fmt: skip
STREETS = (
    "Larkspur Lane", "Copper Beech Road", "Heron Cove Drive", "Millbrook Avenue", "Quarry Hill Road",
    "Sandpiper Court", "Thornfield Street", "Wrenwood Way", "Blue Spruce Terrace", "Ferry Landing Road",
    "Juniper Ridge Drive", "Old Orchard Lane", "Saltmarsh Avenue", "Foundry Street", "Kingfisher Row",
)  # fmt: skip
CITIES = (
    ("Worcester", "MA", "016"), ("Syracuse", "NY", "132"), ("Dayton", "OH", "454"), ("Fresno", "CA", "937"),
    ("Eugene", "OR", "974"), ("Knoxville", "TN", "379"), ("Lansing", "MI", "489"), ("Durham", "NC", "277"),
    ("Tacoma", "WA", "984"), ("Chattanooga", "TN", "374"), ("Albany", "NY", "122"),
    ("Flagstaff", "AZ", "860"),
)  # fmt: skip
EMAIL_DOMAINS = ("mailbox.example", "inbox.example", "patientmail.example")
POLICY_PREFIXES = ("KMH", "CRH", "BHA", "SCA", "PSH", "EFC")
PHARMACIES = ("Corner", "Riverside", "Main Street", "Harbor")
CONTROL = ("steady", "mixed", "improving")
PROGRESS = ("stable", "improving", "needs closer follow-up")
INSURERS = (
    "Keystone Mutual Health", "Cedar Ridge Health Plan", "Blue Harbor Assurance", "Summit Care Alliance",
    "Prairie State Health", "Evergreen Family Coverage",
)  # fmt: skip
RELATIONSHIPS = ("Spouse", "Partner", "Daughter", "Son", "Sister", "Brother", "Mother", "Father", "Friend")
CONDITIONS = (
    "Hypertension", "Type 2 Diabetes", "Asthma", "Hyperlipidemia", "Generalized Anxiety Disorder",
    "Major Depressive Disorder", "Epilepsy", "Atrial Fibrillation", "Hypothyroidism", "COPD",
    "Migraine", "Obstructive Sleep Apnea", "Chronic Kidney Disease Stage 2", "Eczema", "ADHD",
)  # fmt: skip
ALLERGIES = ("Penicillin", "Sulfa drugs", "Latex", "Peanuts", "Codeine", "Iodine contrast", "Shellfish")
SURGERIES = ("Appendectomy", "Knee arthroscopy", "Cholecystectomy", "Tonsillectomy", "Cataract surgery")

# medication -> (dosages, frequency, base price of one unit in USD, condition it treats)
MEDICATIONS: dict[str, tuple[tuple[str, ...], str, float, str]] = {
    "Atorvastatin": (("10mg", "20mg", "40mg"), "once daily", 4.0, "Hyperlipidemia"),
    "Rosuvastatin": (("5mg", "10mg", "20mg"), "once daily", 5.5, "Hyperlipidemia"),
    "Simvastatin": (("20mg", "40mg"), "once daily at bedtime", 3.2, "Hyperlipidemia"),
    "Lisinopril": (("5mg", "10mg", "20mg"), "once daily", 2.6, "Hypertension"),
    "Amlodipine": (("5mg", "10mg"), "once daily", 2.9, "Hypertension"),
    "Metoprolol Succinate": (("25mg", "50mg", "100mg"), "once daily", 3.8, "Atrial Fibrillation"),
    "Metformin": (("500mg", "1000mg"), "twice daily", 1.9, "Type 2 Diabetes"),
    "Insulin Glargine": (("10 units", "20 units"), "once daily at night", 38.0, "Type 2 Diabetes"),
    "Sertraline": (("50mg", "100mg"), "once daily", 3.4, "Major Depressive Disorder"),
    "Escitalopram": (("10mg", "20mg"), "once daily", 3.1, "Generalized Anxiety Disorder"),
    "Levothyroxine": (("50mcg", "75mcg", "100mcg"), "once daily before breakfast", 2.2, "Hypothyroidism"),
    "Montelukast": (("10mg",), "once daily in the evening", 3.0, "Asthma"),
    "Budesonide/Formoterol Inhaler": (("160/4.5mcg",), "two puffs twice daily", 61.0, "Asthma"),
    "Tiotropium Inhaler": (("18mcg",), "one inhalation daily", 55.0, "COPD"),
    "Lamotrigine": (("100mg", "200mg"), "twice daily", 4.6, "Epilepsy"),
    "Levetiracetam": (("500mg", "750mg"), "twice daily", 3.9, "Epilepsy"),
    "Warfarin": (("2mg", "5mg"), "once daily", 2.1, "Atrial Fibrillation"),
    "Clopidogrel": (("75mg",), "once daily", 3.3, "Atrial Fibrillation"),
    "Sumatriptan": (("50mg", "100mg"), "as needed for migraine", 6.2, "Migraine"),
    "Methylphenidate ER": (("18mg", "36mg"), "once daily in the morning", 9.5, "ADHD"),
    "Hydrocortisone Cream": (("1%",), "apply twice daily", 7.0, "Eczema"),
}
SUPPLY_ITEMS = {"Pill Organizer": 8.0, "Blood Pressure Cuff": 34.0, "Peak Flow Meter": 19.0}
"""Non-drug items that also have supplier lists."""
COMPANIES = (
    ("Alder Creek Pharmaceuticals", "USA"), ("Brightwell Generics", "USA"), ("Coastal Rx Labs", "USA"),
    ("Maple Leaf Remedies", "Canada"), ("Ganges Lifesciences", "India"), ("Saffron Remedies", "India"),
    ("Deccan Formulations", "India"), ("Rheinwald Pharma", "Germany"), ("Fjord Medica", "Denmark"),
    ("Emerald Isle Therapeutics", "Ireland"), ("Iberia Farmaceutica", "Spain"),
    ("Sierra Madre Laboratorios", "Mexico"), ("Sakura Seiyaku", "Japan"),
)  # fmt: skip
BRAND_SUFFIXES = ("ex", "ora", "vance", "line", "mira", "zen", "tab", "cor", "lix", "vita", "dral", "nova")

# provider specialty -> (count, id slug, title, credentials, appointment types)
SPECIALTIES: dict[str, tuple[int, str, str, tuple[str, ...], tuple[str, ...]]] = {
    "Primary Care": (12, "primary", "MD", ("MD",), ("routine_checkup", "follow_up", "sick_visit")),
    "Cardiology": (12, "cardiology", "MD", ("MD", "FACC"), ("specialist_consultation", "follow_up")),
    "Endocrinology": (11, "endocrinology", "MD", ("MD",), ("specialist_consultation", "medication_review")),
    "Neurology": (11, "neurology", "MD", ("MD",), ("specialist_consultation", "follow_up")),
    "Pediatrics": (10, "pediatrics", "MD", ("MD", "FAAP"), ("routine_checkup", "family_consultation")),
    "Care Coordination": (
        10,
        "care_coordination",
        "RN",
        ("RN",),
        ("care_coordination", "family_consultation"),
    ),
    "Device Coaching": (10, "device_coaching", "RT", ("RT", "RRT"), ("device_coaching",)),
    "Pulmonology": (10, "pulmonology", "MD", ("MD", "FCCP"), ("specialist_consultation", "device_coaching")),
    "Psychiatry": (9, "psychiatry", "MD", ("MD",), ("therapy_session", "medication_review")),
    "Dermatology": (3, "dermatology", "MD", ("MD", "FAAD"), ("specialist_consultation",)),
    "Pharmacy": (3, "pharmacy", "PharmD", ("PharmD",), ("medication_review",)),
    "Clinical Psychology": (2, "psychology", "PhD", ("PhD",), ("therapy_session",)),
    "Sleep Medicine": (2, "sleep", "MD", ("MD",), ("device_coaching", "follow_up")),
    "Nephrology": (2, "nephrology", "MD", ("MD",), ("specialist_consultation",)),
    "Rheumatology": (2, "rheumatology", "MD", ("MD",), ("specialist_consultation",)),
    "Physical Therapy": (2, "physical_therapy", "PT", ("PT", "DPT"), ("compliance_coaching",)),
    "Gastroenterology": (1, "gastroenterology", "MD", ("MD",), ("specialist_consultation",)),
    "Occupational Therapy": (1, "occupational_therapy", "OTR/L", ("OTR/L",), ("compliance_coaching",)),
    "Allergy and Immunology": (1, "allergy", "MD", ("MD",), ("specialist_consultation",)),
}
LANGUAGES = ("Spanish", "Mandarin", "French", "Hindi", "Portuguese", "Arabic", "Vietnamese", "German")
SLOTS = (
    "07:00",
    "07:30",
    "08:00",
    "08:30",
    "09:00",
    "09:30",
    "10:00",
    "10:30",
    "11:00",
    "11:30",
    "12:00",
    "13:00",
    "13:30",
    "14:00",
    "14:30",
    "15:00",
    "15:30",
    "16:00",
    "16:30",
)
DURATIONS = {30: 40, 45: 28, 40: 12, 35: 8, 50: 8, 60: 4}
COMPLAINTS = {
    "routine_checkup": "Annual wellness review and preventive screening",
    "follow_up": "Follow-up on {condition} after the last visit",
    "sick_visit": "Sore throat and low fever for three days",
    "specialist_consultation": "Specialist review of {condition}",
    "medication_review": "Review of current {condition} medications and side effects",
    "family_consultation": "Family meeting about {condition} care at home",
    "care_coordination": "Coordinating home care and referrals for {condition}",
    "device_coaching": "Coaching on home monitoring device use",
    "therapy_session": "Ongoing talk therapy for {condition}",
    "compliance_coaching": "Home exercise plan adherence check",
}
RECORD_TYPES = (
    "follow_up_note", "medication_supply_note", "interaction_review_note", "regimen_review_note",
    "telemetry_compliance_note", "family_coordination_note", "consultation_note", "annual_physical",
)  # fmt: skip
DEVICE_TYPES = {
    "Wearable EEG": ("NS-EEG", 36),
    "Cardiac Event Monitor": ("VC", 30),
    "Home Ventilator": ("", 34),
    "Continuous Glucose Monitor": ("", 30),
}
"""Device type -> (hand-style id prefix, or "" for tracer-style ids only; how many)."""
DEVICE_STATUSES = {
    "available": 48,
    "inspection": 28,
    "deployed": 30,
    "shipped": 18,
    "maintenance": 4,
    "missing_overdue": 2,
}
DEVICE_NOTES = {
    "available": "Cleaned and ready to ship",
    "inspection": "Returned unit awaiting safety inspection",
    "deployed": "In use at patient's home",
    "shipped": "On its way to the patient",
    "maintenance": "Sensor replacement in progress",
    "missing_overdue": "Not returned after loan period; follow up",
}

# Documented interactions: (medication, other, severity, risk score, overlap hours, hold, emergency, action)
INTERACTIONS: tuple[tuple[str, str, str, int, int, tuple[str, ...], bool, str], ...] = (
    ("Warfarin", "Aspirin", "high", 9, 48, ("Aspirin",), False,
     "Bleeding risk rises sharply; hold aspirin and ask the prescriber before the next dose."),
    ("Warfarin", "Sertraline", "moderate", 6, 24, (), False,
     "May raise INR; schedule an extra INR check this week."),
    ("Warfarin", "Simvastatin", "low", 3, 12, (), False, "Small INR effect; keep routine monitoring."),
    ("Sertraline", "Sumatriptan", "high", 8, 24, ("Sumatriptan",), False,
     "Serotonin syndrome risk; skip sumatriptan today and contact the neurology team."),
    ("Sertraline", "Tramadol", "high", 9, 36, ("Tramadol",), True,
     "Seizure and serotonin syndrome risk; stop tramadol and seek urgent review."),
    ("Sertraline", "Escitalopram", "high", 8, 48, ("Escitalopram",), False,
     "Two serotonergic antidepressants together; hold escitalopram until the psychiatrist advises."),
    ("Clopidogrel", "Omeprazole", "moderate", 5, 24, (), False,
     "Omeprazole can weaken clopidogrel; ask the pharmacist about pantoprazole instead."),
    ("Clopidogrel", "Warfarin", "high", 9, 72, ("Clopidogrel",), True,
     "Combined antithrombotic bleeding risk; urgent prescriber review before further doses."),
    ("Lamotrigine", "Valproate", "high", 8, 72, ("Valproate",), False,
     "Valproate doubles lamotrigine levels; hold valproate and call neurology for dosing."),
    ("Lamotrigine", "Levetiracetam", "low", 2, 6, (), False, "Commonly combined; no change needed."),
    ("Metoprolol Succinate", "Amlodipine", "low", 3, 8, (), False,
     "Additive blood pressure lowering; check for dizziness."),
    ("Metoprolol Succinate", "Clonidine", "moderate", 6, 24, (), False,
     "Rebound hypertension if clonidine stops suddenly; do not stop either drug abruptly."),
)  # fmt: skip


def _weighted(rng: random.Random, weights: dict[Any, int]) -> Any:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def _day(value: date) -> str:
    return value.strftime("%Y-%m-%d")


class _Names:
    """Unique name-based ids."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[tuple[str, str]] = set()

    def person(self) -> tuple[str, str]:
        while True:
            first, last = self.rng.choice(FIRST_NAMES), self.rng.choice(LAST_NAMES)
            if (first, last) not in self.used:
                self.used.add((first, last))
                return first, last


# ---------------------------------------------------------------------------------------- providers


def _schedule(rng: random.Random) -> dict[str, list[str]]:
    days = list(WEEKDAYS[:5])
    if rng.random() < 0.07:
        days.append(rng.choice(("saturday", "sunday")))
    if rng.random() < 0.05:
        days.remove(rng.choice(days[:5]))
    schedule = {}
    for day in days:
        count = _weighted(rng, {0: 2, 2: 8, 3: 25, 4: 35, 5: 20, 6: 10})
        schedule[day] = sorted(rng.sample(SLOTS, count))
    return schedule


def _providers(rng: random.Random, names: _Names) -> list[Provider]:
    providers: list[Provider] = []
    for specialty, (count, slug, title, credentials, _) in SPECIALTIES.items():
        for number in range(count):
            first, last = names.person()
            provider_id = f"dr_{last.lower()}_{slug}"
            if number >= 2 or any(p.provider_id == provider_id for p in providers):
                provider_id = f"{first.lower()}_{last.lower()}_{slug}_tracer_0001"
            name = {"first_name": first, "last_name": last, "title": title}
            languages = ["English", *rng.sample(LANGUAGES, _weighted(rng, {0: 5, 1: 4, 2: 1}))]
            provider = Provider(
                provider_id=provider_id,
                name=name,
                specialty=specialty,
                license_number=f"{title[:2].upper()}{rng.randint(10000, 99999)}",
                credentials=list(credentials),
                contact={
                    "phone": f"(555) {rng.randint(200, 899)}-{rng.randint(1000, 9999)}",
                    "email": f"{first.lower()}.{last.lower()}@carepoint.example",
                },
                schedule=_schedule(rng),
                consultation_fee=float(rng.randrange(90, 320, 10)),
                languages=languages,
                years_experience=rng.randint(2, 34),
            )
            providers.append(provider)
    # Like the published table: a few providers have no license number and one has no title.
    for provider in rng.sample(providers, 4):
        provider.license_number = None
    untitled = rng.choice(providers)
    untitled.name = {k: v for k, v in untitled.name.items() if k != "title"}
    return providers


# ----------------------------------------------------------------------------------------- patients


def _address(rng: random.Random) -> dict[str, str]:
    city, state, prefix = rng.choice(CITIES)
    unit = rng.random()
    address2 = (
        f"Apt {rng.randint(1, 40)}{rng.choice('ABCD')}"
        if unit < 0.4
        else (f"Unit {rng.randint(100, 899)}" if unit < 0.55 else "")
    )
    return {
        "address1": f"{rng.randint(12, 9800)} {rng.choice(STREETS)}",
        "address2": address2,
        "city": city,
        "state": state,
        "zip": f"{prefix}{rng.randint(0, 99):02d}",
        "country": "USA",
    }


def _history(rng: random.Random, age: int) -> dict[str, Any]:
    conditions = rng.sample(CONDITIONS, _weighted(rng, {0: 3, 1: 4, 2: 3, 3: 1}))
    medications = []
    for condition in conditions:
        options = [m for m, spec in MEDICATIONS.items() if spec[3] == condition]
        for name in rng.sample(options, min(len(options), rng.choice((0, 1, 1, 2)))):
            dosages, frequency, _, _ = MEDICATIONS[name]
            medications.append({"name": name, "dosage": rng.choice(dosages), "frequency": frequency})
    history: dict[str, Any] = {
        "conditions": conditions,
        "allergies": rng.sample(ALLERGIES, _weighted(rng, {0: 5, 1: 3, 2: 1})),
        "medications": medications,
    }
    if age > 30 and rng.random() < 0.03:
        history["surgeries"] = [
            {
                "procedure": rng.choice(SURGERIES),
                "date": f"{rng.randint(2005, 2023)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                "surgeon": f"Dr. {rng.choice(LAST_NAMES)}",
            }
        ]
    return history


def _patient(rng: random.Random, names: _Names, number: int) -> Patient:
    first, last = names.person()
    patient_id = (
        f"{first.lower()}_{last.lower()}_{rng.randint(1000, 9999)}"
        if number < HAND_PATIENTS
        else f"{first.lower()}_{last.lower()}_tracer_0001"
    )
    born = date(rng.randint(1938, 2019), rng.randint(1, 12), rng.randint(1, 28))
    age = TODAY.year - born.year
    copay_primary = float(rng.choice((15, 20, 25, 30, 35)))
    return Patient(
        patient_id=patient_id,
        name={"first_name": first, "last_name": last},
        demographics={
            "date_of_birth": _day(born),
            "gender": rng.choice(("Female", "Male")),
            "phone": f"(555) {rng.randint(200, 899)}-{rng.randint(1000, 9999)}",
            "email": f"{first.lower()}.{last.lower()}@{rng.choice(EMAIL_DOMAINS)}",
        },
        address=_address(rng),
        insurance={
            "primary": {
                "provider": rng.choice(INSURERS),
                "policy_number": f"{rng.choice(POLICY_PREFIXES)}{rng.randint(10**8, 10**9 - 1)}",
                "group_number": f"GRP{rng.randint(100, 999)}",
                "copay_primary": copay_primary,
                "copay_specialist": copay_primary + float(rng.choice((20, 25, 30, 40))),
            }
        },
        medical_history=_history(rng, age),
        emergency_contact={
            "name": f"{rng.choice(FIRST_NAMES)} {rng.choice((last, rng.choice(LAST_NAMES)))}",
            "relationship": rng.choice(RELATIONSHIPS),
            "phone": f"(555) {rng.randint(200, 899)}-{rng.randint(1000, 9999)}",
        },
    )


def _patients(rng: random.Random, names: _Names) -> list[Patient]:
    patients = [_patient(rng, names, number) for number in range(PATIENT_COUNT)]
    # Like the published table: a couple of patients have an empty email.
    for patient in rng.sample(patients[HAND_PATIENTS:], 2):
        patient.demographics = {**patient.demographics, "email": ""}
    return patients


# ------------------------------------------------------------------------------------- appointments


def _condition_of(patient: Patient) -> str:
    conditions = patient.medical_history["conditions"]
    return conditions[0].lower() if conditions else "general health"


def _copay(patient: Patient, provider: Provider) -> float:
    plan = patient.insurance["primary"]
    return plan["copay_primary"] if provider.specialty == "Primary Care" else plan["copay_specialist"]


def _free_slot(
    rng: random.Random, provider: Provider, taken: set[tuple[str, str, str]], first: date, days: int
) -> tuple[str, str] | None:
    for _ in range(40):
        day = first + timedelta(days=rng.randrange(days))
        slots = provider.schedule.get(WEEKDAYS[day.weekday()], [])
        if slots:
            slot = rng.choice(slots)
            if (provider.provider_id, _day(day), slot) not in taken:
                taken.add((provider.provider_id, _day(day), slot))
                return _day(day), slot
    return None


def _appointment_id(number: int) -> str:
    return f"APPT{number:03d}" if number <= HAND_APPOINTMENTS else f"APPT_tracer_{number:03d}"


def _status(rng: random.Random, day: str) -> str:
    if day < _day(TODAY):
        return "completed" if rng.random() < 0.85 else "cancelled"
    return _weighted(rng, {"scheduled": 90, "pending_approval": 5, "cancelled": 2})


def _appointments(
    rng: random.Random, patients: list[Patient], providers: list[Provider]
) -> list[Appointment]:
    taken: set[tuple[str, str, str]] = set()
    appointments: list[Appointment] = []
    number = 0
    while len(appointments) < APPOINTMENT_COUNT:
        patient, provider = rng.choice(patients), rng.choice(providers)
        past = rng.random() < 0.12
        window = (TODAY - timedelta(days=150), 149) if past else (TODAY + timedelta(days=1), 70)
        slot = _free_slot(rng, provider, taken, *window)
        if slot is None:
            continue
        number += 1
        appointments.append(_appointment(rng, _appointment_id(number), patient, provider, *slot))
    # Like the published table: one visit has no chief complaint, one cancelled visit no meeting link.
    appointments[6].chief_complaint = None
    cancelled = next(a for a in appointments if a.status == "cancelled")
    cancelled.meeting_link = None
    return appointments


def _appointment(
    rng: random.Random, appointment_id: str, patient: Patient, provider: Provider, day: str, time: str
) -> Appointment:
    kind = rng.choice(SPECIALTIES[provider.specialty][4])
    status = _status(rng, day)
    condition = _condition_of(patient)
    appointment = Appointment(
        appointment_id=appointment_id,
        patient_id=patient.patient_id,
        provider_id=provider.provider_id,
        date=day,
        time=time,
        duration_minutes=_weighted(rng, DURATIONS),
        type=kind,
        status=status,
        chief_complaint=COMPLAINTS[kind].format(condition=condition),
        notes=rng.choice(
            (
                "Patient prefers video over phone.",
                "Bring a current medication list.",
                "Check readings from the home monitor before the visit.",
                "Interpreter not needed.",
                "Caregiver will join the call.",
                "Upload recent lab results to the portal beforehand.",
            )
        ),
        insurance_authorization=(
            "PENDING" if status == "pending_approval" else f"AUTH{rng.randint(100000, 999999)}"
        ),
        copay_amount=_copay(patient, provider),
        meeting_link=MEETING_ROOT + appointment_id,
    )
    if status == "cancelled":
        appointment.cancellation_reason = rng.choice(("patient_cancelled", "provider_unavailable"))
        appointment.cancellation_date = _day(
            datetime.fromisoformat(day).date() - timedelta(days=rng.randint(1, 5))
        )
    if status == "completed" and patient.medical_history["medications"] and rng.random() < 0.2:
        med = patient.medical_history["medications"][0]
        appointment.prescription_issued = {
            "medication": med["name"],
            "dosage": med["dosage"],
            "frequency": med["frequency"],
            "quantity": f"{rng.choice((30, 60, 90))} units",
            "refills": rng.randint(0, 3),
        }
    if kind == "specialist_consultation" and rng.random() < 0.15:
        appointment.referral_from = f"Primary care referral ({rng.choice(LAST_NAMES)})"
    return appointment


# ------------------------------------------------------------------------------------ supplier lists


def _brand(rng: random.Random, medication: str, used: set[str]) -> str:
    stem = medication.split()[0].split("/")[0][:5].title()
    while True:
        brand = stem + rng.choice(BRAND_SUFFIXES)
        if brand not in used:
            used.add(brand)
            return brand


def _supplier_lists(rng: random.Random) -> list[MedicationSupplierList]:
    items = {name: spec[2] for name, spec in MEDICATIONS.items()}
    items.update(SUPPLY_ITEMS)
    lists = []
    for name, base in items.items():
        companies = rng.sample(COMPANIES, _weighted(rng, {3: 5, 4: 8, 5: 5, 8: 3, 12: 3}))
        used: set[str] = set()
        offers = [
            {
                "company": company,
                "country": country,
                "brand_name": _brand(rng, name, used),
                "price_usd": cents(base * rng.uniform(0.55, 1.6)),
            }
            for company, country in companies
        ]
        lists.append(MedicationSupplierList(medication=name, offers=offers))
    return lists


def _interactions() -> list[DrugInteraction]:
    grouped: dict[str, dict[str, dict[str, Any]]] = {}
    for medication, other, severity, risk, hours, hold, emergency, action in INTERACTIONS:
        grouped.setdefault(medication, {})[other] = {
            "severity": severity,
            "risk_score": risk,
            "time_overlap_hours": hours,
            "action": action,
            "skip": list(hold),
            "emergency": emergency,
        }
    return [DrugInteraction(medication=name, interactions=entry) for name, entry in grouped.items()]


# ----------------------------------------------------------------------------------- medical records


def _prescription(
    rng: random.Random, medication: dict[str, str], suppliers: dict[str, list]
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "medication": medication["name"],
        "dosage": medication["dosage"],
        "frequency": medication["frequency"],
    }
    shape = rng.random()
    if shape < 0.25:
        entry.update(
            quantity=f"{rng.choice((30, 60, 90))} tablets",
            refills=rng.randint(0, 5),
            pharmacy=f"{rng.choice(PHARMACIES)} Pharmacy",
        )
    elif shape < 0.5:
        offer = rng.choice(suppliers[medication["name"]])
        entry["supplier"] = {
            "company": offer["company"],
            "brand_name": offer["brand_name"],
            "price_usd": offer["price_usd"],
            "country": offer["country"],
        }
    elif shape < 0.6:
        entry.update(duration=f"{rng.choice((30, 60, 90))} days", refills=rng.randint(0, 3))
    return entry


def _records(
    rng: random.Random,
    patients: list[Patient],
    providers: list[Provider],
    appointments: list[Appointment],
    suppliers: dict[str, list],
) -> list[MedicalRecord]:
    provider_index = {p.provider_id: p for p in providers}
    by_patient: dict[str, list[Appointment]] = {}
    for appointment in appointments:
        by_patient.setdefault(appointment.patient_id, []).append(appointment)
    medicated = [p for p in patients if p.medical_history["medications"]]
    records = []
    for number in range(1, RECORD_COUNT + 1):
        patient = medicated[(number * 7) % len(medicated)] if number % 3 else rng.choice(patients)
        visits = by_patient.get(patient.patient_id, [])
        visit = rng.choice(visits) if visits and number % 50 != 0 else None
        provider = provider_index[visit.provider_id] if visit else rng.choice(providers)
        when = TODAY - timedelta(days=rng.randint(3, 240))
        condition = _condition_of(patient)
        record = MedicalRecord(
            record_id=f"REC{number:03d}" if number <= HAND_RECORDS else f"REC_tracer_{number:03d}",
            appointment_id=visit.appointment_id if visit else None,
            patient_id=patient.patient_id,
            provider_id=provider.provider_id,
            date=_day(when),
            type=rng.choice(RECORD_TYPES),
            subjective=f"Patient reports {rng.choice(CONTROL)} control of {condition}.",
            objective=rng.choice(
                (
                    "Alert and well appearing on video.",
                    "Home readings reviewed with the patient.",
                    "No acute distress; speech and breathing normal.",
                )
            ),
            assessment=f"{condition.capitalize()}, {rng.choice(PROGRESS)}.",
            plan=rng.choice(
                (
                    "Continue current treatment and recheck in three months.",
                    "Adjust the dosing schedule and review at the next visit.",
                    "Share home readings weekly through the portal.",
                )
            ),
            prescriptions=[
                _prescription(rng, med, suppliers) for med in patient.medical_history["medications"]
            ],
            notes=[],
        )
        if number % 6 == 0:
            record.notes = None
        if number % 50 == 7:
            record.prescriptions = None
        if number % 40 == 11:
            record.recommendations = ["Walk 20 minutes daily", "Keep a symptom diary"]
            record.next_appointment = _day(TODAY + timedelta(days=rng.randint(20, 60)))
        if number % 75 == 3:
            record.vital_signs = {
                "blood_pressure": f"{rng.randint(110, 150)}/{rng.randint(70, 95)}",
                "heart_rate": f"{rng.randint(58, 96)} bpm",
            }
            record.lab_orders = ["Lipid panel", "HbA1c"]
        records.append(record)
    return records


# ------------------------------------------------------------------------------------ regimen plans


def _component(
    rng: random.Random, medication: dict[str, str], suppliers: dict[str, list], brand: str | None = None
) -> dict[str, Any]:
    offer = rng.choice(suppliers[medication["name"]])
    daily = 2 if "twice" in medication["frequency"] else 1
    return {
        "medication": medication["name"],
        "dosage": medication["dosage"],
        "daily_dose": daily,
        "monthly_units": daily * 30,
        "unit_type": "inhaler" if "Inhaler" in medication["name"] else "tablet",
        "preferred_brand": brand or offer["brand_name"],
        "supplier": offer["company"],
        "unit_cost_usd": cents(offer["price_usd"] / 30),
    }


def _burden(components: list[dict[str, Any]]) -> dict[str, int]:
    tablets = sum(c["daily_dose"] for c in components if c["unit_type"] == "tablet")
    return {
        "tablets_per_day": tablets,
        "devices_per_month": sum(c["unit_type"] != "tablet" for c in components),
    }


def _regimens(rng: random.Random, patients: list[Patient], suppliers: dict[str, list]) -> list[RegimenPlan]:
    candidates = [p for p in patients if len(p.medical_history["medications"]) >= 2]
    plans = []
    for patient in rng.sample(candidates, min(18, len(candidates))):
        meds = patient.medical_history["medications"]
        current = [_component(rng, med, suppliers) for med in meds]
        options = []
        for name, focus in (
            ("Lowest monthly cost", "Cheapest listed supplier for each medication"),
            ("Simplified schedule", "Fewer daily doses where a once-daily form exists"),
        ):
            components = [_component(rng, med, suppliers) for med in meds]
            if name == "Simplified schedule":
                for component in components:
                    component["daily_dose"], component["monthly_units"] = 1, 30
            options.append(
                {
                    "name": name,
                    "focus": focus,
                    "components": components,
                    "pill_burden": _burden(components),
                    "synergy_notes": [
                        "Same active ingredients as today",
                        "Discuss with the prescriber first",
                    ],
                }
            )
        plans.append(
            RegimenPlan(
                patient_id=patient.patient_id,
                current_regimen={
                    "components": current,
                    "pill_burden": _burden(current),
                    "notes": ["Medications reviewed at the last visit"],
                },
                optimized_regimens=options,
            )
        )
    return plans


# ---------------------------------------------------------------------------------------- telemetry


def _devices(rng: random.Random, patients: list[Patient]) -> list[TelemetryDevice]:
    devices: list[TelemetryDevice] = []
    number = 200
    for device_type, (prefix, count) in DEVICE_TYPES.items():
        for index in range(count):
            number += 1
            tracer = device_type.replace(" ", "").upper()[:6]
            device_id = f"{prefix}-{number}" if prefix and index < count // 2 else f"{tracer}_tracer_{number}"
            status = _weighted(rng, DEVICE_STATUSES)
            devices.append(
                TelemetryDevice(
                    position=len(devices),
                    device_id=device_id,
                    device_type=device_type,
                    status=status,
                    last_audit=_day(TODAY - timedelta(days=rng.randint(2, 120))),
                    assigned_to=rng.choice(patients).patient_id
                    if status in ("deployed", "shipped")
                    else None,
                    notes=DEVICE_NOTES[status],
                )
            )
    return devices


def _uploads(rng: random.Random, devices: list[TelemetryDevice]) -> list[TelemetryUpload]:
    uploads: list[TelemetryUpload] = []
    deployed = [d for d in devices if d.status == "deployed"]
    for index, device in enumerate(deployed[:25]):
        start = TODAY - timedelta(days=rng.randint(14, 30))
        for offset in range(14 if index < 2 else 7):
            missing = rng.random() < 0.14
            day = start + timedelta(days=offset)
            uploads.append(
                TelemetryUpload(
                    position=len(uploads),
                    device_id=device.device_id,
                    date=_day(day),
                    usage_hours=0.0 if missing else round(rng.uniform(3.0, 9.5), 1),
                    synced_at=None
                    if missing
                    else f"{_day(day + timedelta(days=1))}T0{rng.randint(5, 7)}:{rng.randint(10, 59)}:00Z",
                    event="upload_missing" if missing else "normal",
                    alerts=["No data received", "Usage below compliance threshold"] if missing else [],
                )
            )
    return uploads


def generate(seed: int) -> list[SQLModel]:
    """All seed rows of the nine tables for `seed`; the same seed gives the same rows."""
    rng = random.Random(seed)
    names = _Names(rng)
    providers = _providers(rng, names)
    patients = _patients(rng, names)
    suppliers = _supplier_lists(rng)
    offers = {s.medication: s.offers for s in suppliers}
    appointments = _appointments(rng, patients, providers)
    records = _records(rng, patients, providers, appointments, offers)
    regimens = _regimens(rng, patients, offers)
    devices = _devices(rng, patients)
    uploads = _uploads(rng, devices)
    return [
        *providers,
        *patients,
        *suppliers,
        *_interactions(),
        *appointments,
        *records,
        *regimens,
        *devices,
        *uploads,
    ]
