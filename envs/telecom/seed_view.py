"""Telecom's seed records as the Tracer reads them (docs/tracer.md): an indexed view, the
customers and the phrasing helpers its intents and policy check share."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.runtime.authoring import Customer, Lookups
from taue.envs.telecom import models
from taue.envs.telecom.generate import generate
from taue.envs.telecom.rules import SENIOR_BORN_BY

Record = dict[str, Any]

ADVERBS = {"monthly": "monthly", "quarterly": "quarterly", "annual": "annually"}
BILLING_WORDS = {
    ("paperless", True): "paperless bills from now on",
    ("paperless", False): "paper bills by mail again",
    ("auto_pay", True): "automatic payments turned on",
    ("auto_pay", False): "automatic payments turned off",
}
METHOD_WORDS = {"credit_card": "credit card", "bank_transfer": "bank transfer"}
ISSUE_WORDS = {
    "no_service": "has no service at all",
    "slow_speeds": "is painfully slow",
    "battery_drain": "loses its battery charge within hours",
    "slow_data": "gets painfully slow data",
}
TICKET_AREA = {"mobile_phone": "mobile", "networking": "internet", "tv": "tv", "phone": "phone"}
ISSUES_OF = {
    "mobile_phone": ("no_service", "slow_speeds", "battery_drain"),
    "phone": ("no_service",),
    "networking": ("no_service", "slow_speeds"),
    "tv": ("no_service",),
}
TIP = {  # a phrase of the troubleshooting steps that only this kind of device and issue gets
    ("handset", "battery_drain"): "brightness",
    ("handset", "no_service"): "coverage area",
    ("handset", "slow_speeds"): "data usage",
    ("networking", "no_service"): "firmware update",
    ("networking", "slow_speeds"): "speed test",
    ("tv", "no_service"): "set-top box",
}
UNSUPPORTED_CYCLES = ("weekly", "biweekly", "semiannual")
UNSUPPORTED_METHODS = (("paypal", "PayPal"), ("gift_card", "a gift card"), ("check", "a paper check"))

PERSONAS = (
    "a delivery driver who relies on mobile data all day",
    "a retired teacher who reads every bill line by line",
    "a freelance translator who works from home",
    "a parent juggling the family's phones and streaming",
    "a small-business owner calling between customers",
    "a nurse calling on a break between shifts",
    "a graduate student watching every dollar",
    "a software developer who wants things done quickly",
    "a night-shift security guard calling before bed",
    "a first-time homeowner setting up the house",
    "a sales rep who is on the road most of the week",
    "a caregiver handling the account for an elderly parent",
)

# ------------------------------------------------------------------------------------------ seed view


@dataclass
class TelecomView:
    customers: dict[str, Record]
    billing: dict[str, Record]
    tickets: dict[str, Record]
    services: dict[str, Record]
    devices: dict[str, Record]

    def tickets_of(self, customer_id: str, *statuses: str) -> list[Record]:
        tickets = [t for _, t in sorted(self.tickets.items()) if t["customer_id"] == customer_id]
        return [t for t in tickets if t["status"] in statuses]

    def kind(self, device_name: str) -> str:
        category = self.devices[device_name]["category"]
        return "handset" if category in ("mobile_phone", "phone") else category

    def device_lookups(self, customer: Record, device: Record) -> Lookups:
        """The customer's device models, in profile order and once each, up to the wanted one."""
        names = list(dict.fromkeys(d["name"] for d in customer["devices"]))
        return Lookups(tuple(names[: names.index(device["name"]) + 1]))

    def senior(self, customer_id: str) -> bool:
        return self.customers[customer_id]["demographics"]["date_of_birth"] <= SENIOR_BORN_BY

    def business(self, customer_id: str) -> bool:
        return self.customers[customer_id]["account"]["account_type"] == "business"

    def plan(self, service_id: str) -> str:
        name = self.services[service_id]["name"]
        return f"the {name}" if name.endswith("Add-on") else name


def load(seed: int) -> TelecomView:
    rows = generate(seed)
    return TelecomView(
        customers={r.customer_id: r.to_record() for r in rows if isinstance(r, models.Customer)},
        billing={r.customer_id: r.to_record() for r in rows if isinstance(r, models.Billing)},
        tickets={r.ticket_id: r.to_record() for r in rows if isinstance(r, models.SupportTicket)},
        services={r.service_id: r.to_record() for r in rows if isinstance(r, models.Service)},
        devices={r.device_name: r.to_record() for r in rows if isinstance(r, models.Device)},
    )


def customers(view: TelecomView) -> list[Customer]:
    result = []
    for index, (customer_id, record) in enumerate(sorted(view.customers.items())):
        name = f"{record['name']['first_name']} {record['name']['last_name']}"
        by = "phone" if index % 3 == 2 else "email"
        known = {by: record["demographics"][by]}
        identity = (
            Action(name=f"find_customer_by_{by}", arguments=known),
            Action(name="get_customer_details", arguments={"customer_id": customer_id}),
        )
        result.append(Customer(customer_id, name, identity, known, {"customer_id": customer_id}))
    return result


# ------------------------------------------------------------------------------------------- phrasing


def article(name: str) -> str:
    return f"{'an' if name[0].lower() in 'aeio' else 'a'} {name}"


def problem_words(view: TelecomView, device_name: str, issue: str) -> str:
    handset = issue == "slow_speeds" and view.kind(device_name) == "handset"
    return f"{device_name} {ISSUE_WORDS['slow_data' if handset else issue]}"


def money(value: float) -> str:
    return f"{value:.2f}"


def billing_options(view: TelecomView, customer_id: str, **changes: Any) -> dict[str, Any]:
    """`manage_billing` arguments: the billing account's current options with `changes` applied."""
    bill = view.billing[customer_id]
    current = {
        "customer_id": customer_id,
        "paperless": bill["paperless"],
        "auto_pay": bill["auto_pay"],
        "billing_cycle": bill.get("billing_cycle", "monthly"),
    }
    return {**current, **changes}


def _device_problem(
    view: TelecomView, customer: Customer, rng: random.Random, issues: tuple[str, ...] | None = None
) -> tuple[Record, str] | None:
    """One of the customer's devices (on a service) and an issue its troubleshooting knows."""
    record = view.customers[customer.id]
    options = [
        (device, issue)
        for device in record["devices"]
        if device["service"] is not None
        for issue in ISSUES_OF.get(view.devices[device["name"]]["category"], ())
        if issues is None or issue in issues
    ]
    return rng.choice(options) if options else None


def _priority(view: TelecomView, customer_id: str, issue: str) -> str:
    return "medium" if issue != "no_service" else "urgent" if view.business(customer_id) else "high"


def _problem_bindings(view: TelecomView, customer: Customer, device: Record, issue: str) -> dict[str, Any]:
    return {"device_name": view.device_lookups(view.customers[customer.id], device), "issue": issue}
