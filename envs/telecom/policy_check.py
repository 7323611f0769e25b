"""Telecom's policy as code: the hard rules of policy.md that the Tracer checks writes against
(docs/tracer.md). A gold write must break none; a policy challenge's asked-for write must break at
least one, and the broken rules' `reasons` are the phrases a refusal is accepted with."""

from __future__ import annotations

from collections.abc import Callable

from taue.contracts.tasks import Action
from taue.envs.runtime.authoring import Rule
from taue.envs.telecom import rules
from taue.envs.telecom.seed_view import Record, TelecomView

# --------------------------------------------------------------------------------------- policy rules

SENIOR_ONLY = Rule(
    "senior-plan-65-plus",
    "The mobile_senior plan is only for customers aged 65 or older.",
    ("65 or older", "aged 65", "only for customers aged 65", "senior plan is only"),
)
KNOWN_SERVICE = Rule(
    "service-from-catalogue", "Add catalogue services the account lacks; remove held ones.", ()
)
OWN_DEVICES = Rule("own-devices", "Only the customer's own devices can be put on a service.", ())
CATALOGUE_DEVICE = Rule("device-from-catalogue", "Only catalogue device models can be registered.", ())
TICKET_FIELDS = Rule("ticket-fields", "A ticket has a listed category, priority and status.", ())
URGENT_TICKET = Rule(
    "urgent-ticket",
    "Urgent is for a business customer's service down or a home security system offline.",
    ("urgent priority is only", "only for business customers", "business customer's service is down"),
)
BILLING_CYCLE = Rule(
    "billing-cycle",
    "The billing cycle is monthly, quarterly or annual.",
    ("monthly quarterly or annual", "monthly, quarterly or annual", "monthly, quarterly, or annual"),
)
PAYMENT_METHOD = Rule(
    "payment-method",
    "A payment is made by credit card or bank transfer.",
    ("credit card or bank transfer", "credit card or a bank transfer", "credit_card or bank_transfer"),
)
PAYMENT_DATE = Rule(
    "payment-dated-today",
    "A payment is dated today.",
    ("dated today", "today's date", f"dated {rules.TODAY}"),
)
PAYMENT_AMOUNT = Rule("payment-amount", "A payment is a positive amount no larger than the balance.", ())


# ----------------------------------------------------------------------------------------- the check


def check_policy(view: TelecomView, action: Action) -> list[Rule]:
    """The rules of policy.md that the write `action` breaks, judged on the seed records."""
    args = action.arguments
    customer = view.customers.get(args.get("customer_id", ""))
    check = _CHECKS.get(action.name)
    return check(view, customer, args) if check is not None else []


def _service_rules(view: TelecomView, customer: Record | None, args: Record) -> list[Rule]:
    service_id = args.get("service_id")
    held = customer["services"] if customer else []
    if args.get("action") != "add":
        return [] if args.get("action") == "remove" and service_id in held else [KNOWN_SERVICE]
    if customer is None or service_id not in view.services or service_id in held:
        return [KNOWN_SERVICE]
    broken = []
    if service_id == "mobile_senior" and not view.senior(customer["customer_id"]):
        broken.append(SENIOR_ONLY)
    own = {d["device_id"] for d in customer["devices"]}
    if not set(args.get("devices_ids") or ()) <= own:
        broken.append(OWN_DEVICES)
    return broken


def _device_rules(view: TelecomView, customer: Record | None, args: Record) -> list[Rule]:
    return [] if args.get("device_name") in view.devices else [CATALOGUE_DEVICE]


def _new_ticket_rules(view: TelecomView, customer: Record | None, args: Record) -> list[Rule]:
    ok = rules.ticket_fields_ok(args.get("category", ""), args.get("priority", ""))
    urgent = args.get("priority") == "urgent" and args.get("category") != "security"
    if urgent and not (customer and view.business(customer["customer_id"])):
        return [URGENT_TICKET]
    return [] if ok else [TICKET_FIELDS]


def _ticket_change_rules(view: TelecomView, customer: Record | None, args: Record) -> list[Rule]:
    ok = args.get("status") in rules.TICKET_STATUSES and args.get("priority") in rules.TICKET_PRIORITIES
    return [] if ok and args.get("ticket_id") in view.tickets else [TICKET_FIELDS]


def _billing_rules(view: TelecomView, customer: Record | None, args: Record) -> list[Rule]:
    return [] if args.get("billing_cycle") in rules.BILLING_CYCLES else [BILLING_CYCLE]


def _payment_rules(view: TelecomView, customer: Record | None, args: Record) -> list[Rule]:
    broken = [] if args.get("method") in rules.PAYMENT_METHODS else [PAYMENT_METHOD]
    if args.get("date") != rules.TODAY:
        broken.append(PAYMENT_DATE)
    balance = view.billing[customer["customer_id"]]["current_balance"] if customer else 0
    if not 0 < float(args.get("amount", 0)) <= balance:
        broken.append(PAYMENT_AMOUNT)
    return broken


# The check of each write, by tool name; a write not listed breaks no rule.
_CHECKS: dict[str, Callable[[TelecomView, Record | None, Record], list[Rule]]] = {
    "manage_service": _service_rules,
    "add_device": _device_rules,
    "create_support_ticket": _new_ticket_rules,
    "modify_support_ticket": _ticket_change_rules,
    "manage_billing": _billing_rules,
    "record_payment": _payment_rules,
}
