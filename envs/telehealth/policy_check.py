"""Telehealth's policy as code: the hard rules of policy.md that the Tracer checks writes against
(docs/tracer.md). A gold write must break none; a policy challenge's asked-for write must break at
least one, and the broken rules' `reasons` are the phrases a refusal is accepted with."""

from __future__ import annotations

from taue.contracts.tasks import Action
from taue.envs.runtime.authoring import Rule
from taue.envs.telehealth.rules import ACTIVE
from taue.envs.telehealth.seed_view import Record, View

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
