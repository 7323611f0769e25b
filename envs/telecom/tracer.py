"""Telecom's parts for the Tracer (docs/tracer.md): customers, intents grounded on their plans, devices,
tickets and bills, and the hard rules of policy.md as code."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.runtime.authoring import Customer, Grounded, Intent, Lookups, Rule, TracerSpec
from taue.envs.telecom import models
from taue.envs.telecom.generate import SENIOR_BORN_BY, generate
from taue.envs.telecom.tools import TICKET_CATEGORIES, TICKET_PRIORITIES

Record = dict[str, Any]

TODAY = "2025-09-18"
CYCLES = ("monthly", "quarterly", "annual")
ADVERBS = {"monthly": "monthly", "quarterly": "quarterly", "annual": "annually"}
BILLING_WORDS = {
    ("paperless", True): "paperless bills from now on",
    ("paperless", False): "paper bills by mail again",
    ("auto_pay", True): "automatic payments turned on",
    ("auto_pay", False): "automatic payments turned off",
}
METHODS = ("credit_card", "bank_transfer")
STATUSES = ("open", "in_progress", "resolved", "closed")
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
    "payment-dated-today", "A payment is dated today.", ("dated today", "today's date", "dated 2025-09-18")
)
PAYMENT_AMOUNT = Rule("payment-amount", "A payment is a positive amount no larger than the balance.", ())


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


def write(name: str, **arguments: Any) -> Action:
    return Action(name=name, arguments=arguments)


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


# -------------------------------------------------------------------------------------------- intents


def add_service(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    held = set(view.customers[customer.id]["services"])
    options = []
    if held & {"tv_essentials", "tv_entertainment"} and "tv_sports_addon" not in held:
        options.append("tv_sports_addon")
    if not any(s.startswith("tv_") for s in held):
        options += ["tv_essentials", "tv_entertainment"]
    if "security_home_monitoring" not in held:
        options.append("security_home_monitoring")
    if view.business(customer.id) and "phone_business_voip" not in held:
        options.append("phone_business_voip")
    if not options:
        return None
    service_id = rng.choice(options)
    plan = view.plan(service_id)
    return Grounded(
        request=f"I'd like to add {plan} to my account.",
        situation=f"You want {plan} added to your account; no devices need to go on it for now",
        bindings={"service_id": service_id},
        write=write("manage_service", customer_id=customer.id, action="add", service_id=service_id),
        entities=frozenset({f"{customer.id}:service:{service_id}"}),
        known={"plan_to_add": plan},
        discoverable={"service_id": service_id},
        evidence=(service_id,),
        reason="Add a service.",
    )


def remove_service(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    held = view.customers[customer.id]["services"]
    options = [
        s for s in held if not (s in ("tv_essentials", "tv_entertainment") and "tv_sports_addon" in held)
    ]
    if not options:
        return None
    service_id = rng.choice(options)
    plan = view.plan(service_id)
    return Grounded(
        request=f"Please remove {plan} from my account; I don't use it any more.",
        situation=f"You want {plan} removed from your account because you no longer use it",
        bindings={"service_id": Lookups(tuple(held[: held.index(service_id) + 1]))},
        write=write("manage_service", customer_id=customer.id, action="remove", service_id=service_id),
        entities=frozenset({f"{customer.id}:service:{service_id}"}),
        known={"plan_to_remove": plan},
        discoverable={"service_id": service_id},
        evidence=(service_id,),
        reason="Remove a service.",
    )


def add_device(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    held = view.customers[customer.id]["services"]
    options = [name for name, d in sorted(view.devices.items()) if d["category"] == "mobile_phone"]
    if any(s.startswith("tv_") for s in held):
        options.append("4K Streaming Box")
    if any(s.startswith("internet_") for s in held):
        options.append("Mesh WiFi 7 Router")
    if "phone_business_voip" in held:
        options.append("Desk IP Phone")
    name = rng.choice(options)
    return Grounded(
        request=f"I bought {article(name)} and want it registered on my account.",
        situation=f"You bought {article(name)} and want it registered on your account; it needs no plan yet",
        bindings={"device_name": name},
        write=write("add_device", customer_id=customer.id, device_name=name),
        entities=frozenset({f"{customer.id}:new-device"}),
        known={"device_name": name},
        evidence=(name,),
        reason="Register a new device.",
    )


def report_problem(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    found = _device_problem(view, customer, rng, ("no_service", "slow_speeds"))
    if found is None:
        return None
    device, issue = found
    name, words = device["name"], problem_words(view, device["name"], issue)
    category = TICKET_AREA[view.devices[name]["category"]]
    priority = _priority(view, customer.id, issue)
    return Grounded(
        request=f"My {words}. If the usual fixes don't help, please open a ticket with {priority} priority.",
        situation=f"Your {words}. You will try the troubleshooting steps and want a support ticket with "
        f"{priority} priority opened for it",
        bindings=_problem_bindings(view, customer, device, issue),
        write=write("create_support_ticket", customer_id=customer.id, category=category, priority=priority),
        entities=frozenset(
            {f"{customer.id}:device:{device['device_id']}", f"{customer.id}:ticket:{category}"}
        ),
        known={"device": name, "issue": issue, "ticket_priority": priority},
        discoverable={"category": category},
        evidence=(category, priority),
        reason="Report a problem with a device.",
    )


def billing_question(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    charges = view.billing[customer.id]["monthly_charges"]
    topic = (
        "the late fee" if "late_fee" in charges else rng.choice(("the taxes and fees", "the monthly charges"))
    )
    return Grounded(
        request=f"I don't understand {topic} on my bill. Please open a billing ticket with medium priority "
        "so someone looks into it.",
        situation=f"You do not understand {topic} on your bill and want a billing support ticket with medium "
        "priority opened so someone looks into it",
        bindings={"service_id": Lookups(tuple(view.customers[customer.id]["services"]))},
        write=write("create_support_ticket", customer_id=customer.id, category="billing", priority="medium"),
        entities=frozenset({f"{customer.id}:ticket:billing"}),
        known={"question": f"{topic} on my bill", "ticket_priority": "medium"},
        evidence=("billing",),
        reason="Question a charge on the bill.",
    )


def update_ticket(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    tickets = view.tickets_of(customer.id, "open", "closed")
    if not tickets:
        return None
    ticket = rng.choice(tickets)
    tid, status, priority = ticket["ticket_id"], ticket["status"], ticket["priority"]
    bindings: dict[str, Any] = {"ticket_id": tid}
    known = {"ticket_id": tid}
    if status == "closed":
        new = ("open", priority)
        request = f"Ticket {tid} was closed, but the problem is back. Please reopen it."
        situation = f"The problem behind your support ticket {tid} is back, so you want the ticket reopened"
    elif rng.random() < 0.3:
        new = (rng.choice(("resolved", "closed")), priority)
        request = f"The problem on ticket {tid} is fixed, so please mark it {new[0]}."
        situation = f"The problem behind your support ticket {tid} is fixed; you want it marked {new[0]}"
    else:
        found = _device_problem(view, customer, rng, ("no_service",))
        target = _priority(view, customer.id, "no_service")
        if found is None or TICKET_PRIORITIES.index(priority) >= TICKET_PRIORITIES.index(target):
            return None
        device, issue = found
        new = (status, target)
        bindings.update(_problem_bindings(view, customer, device, issue))
        known.update({"device": device["name"], "issue": issue})
        request = (
            f"Ticket {tid} is about my {device['name']}, which still has no service. Please raise it to "
            f"{target} priority."
        )
        situation = (
            f"Your support ticket {tid} is about your {device['name']}, which still has no service; you want "
            f"the ticket raised to {target} priority"
        )
    known["wanted_change"] = f"status {new[0]}, priority {new[1]}"
    return Grounded(
        request=request,
        situation=situation,
        bindings=bindings,
        write=write("modify_support_ticket", ticket_id=tid, status=new[0], priority=new[1]),
        entities=frozenset({tid}),
        known=known,
        discoverable={"current_status": status, "current_priority": priority},
        evidence=(tid,),
        reason="Update a support ticket.",
    )


def change_billing(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    options = billing_options(view, customer.id)
    choices = [
        ("paperless", not options["paperless"]),
        ("auto_pay", not options["auto_pay"]),
        ("billing_cycle", rng.choice([c for c in CYCLES if c != options["billing_cycle"]])),
    ]
    option, value = rng.choice(choices)
    if option == "billing_cycle":
        wording = f"to be billed {ADVERBS[value]} instead of {ADVERBS[options['billing_cycle']]}"
    else:
        wording = BILLING_WORDS[option, value]
    return Grounded(
        request=f"I'd like {wording}, please; leave my other billing options as they are.",
        situation=f"You want {wording}; your other billing options stay as they are",
        bindings={},
        write=write("manage_billing", **billing_options(view, customer.id, **{option: value})),
        entities=frozenset({f"{customer.id}:billing"}),
        known={"billing_change": wording},
        evidence=(str(value) if option == "billing_cycle" else option,),
        reason="Change a billing option.",
    )


def make_payment(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    balance = view.billing[customer.id]["current_balance"]
    if balance <= 0:
        return None
    method = rng.choice(METHODS)
    by = METHOD_WORDS[method]
    if balance >= 30 and rng.random() < 0.4:
        amount = float(rng.randrange(10, int(balance * 0.8), 5))
        request = f"I want to pay ${money(amount)} toward my balance today by {by}."
        known = {"payment_amount": money(amount), "payment_method": method}
    else:
        amount = balance
        request = f"I want to pay off my whole balance today by {by}."
        known = {"payment_method": method}
    known["payment_date"] = TODAY
    return Grounded(
        request=request,
        situation=request.replace("I want", "You want").replace("my ", "your "),
        bindings={},
        write=write("record_payment", customer_id=customer.id, amount=amount, method=method, date=TODAY),
        entities=frozenset({f"{customer.id}:balance"}),
        known=known,
        discoverable={"amount": str(amount), "date": TODAY},
        evidence=(str(amount),),
        reason="Pay the bill.",
    )


def senior_quote(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    if not view.senior(customer.id):
        return None
    held = set(view.customers[customer.id]["services"])
    options = [s for s in sorted(view.services) if s not in held and s != "mobile_senior"]
    service_id = rng.choice(options)
    price = view.services[service_id]["price"]
    plan = view.plan(service_id)
    return Grounded(
        kind="information",
        request=f"I'm over 65. What would {plan} cost me with the senior discount?",
        situation=f"You are over 65 and want to know what {plan} would cost you with the senior discount",
        bindings={"service_id": service_id, "original_price": price},
        entities=frozenset({f"{customer.id}:quote:{service_id}"}),
        known={"plan_to_quote": plan},
        discoverable={"service_id": service_id, "original_price": money(price)},
        evidence=(money(max(price - 5.0, 0.0)),),
        reason="Ask for a senior price.",
    )


def troubleshooting_tips(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    found = _device_problem(view, customer, rng)
    if found is None:
        return None
    device, issue = found
    name = device["name"]
    return Grounded(
        kind="information",
        request=f"My {problem_words(view, name, issue)}. What should I try?",
        situation=f"Your {problem_words(view, name, issue)} and you want to know what to try",
        bindings=_problem_bindings(view, customer, device, issue),
        entities=frozenset({f"{customer.id}:device:{device['device_id']}"}),
        known={"device": name, "issue": issue},
        evidence=(TIP[(view.kind(name), issue)],),
        reason="Get help with a device problem.",
    )


def underage_senior_plan(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    held = view.customers[customer.id]["services"]
    if view.senior(customer.id) or "mobile_senior" in held:
        return None
    plan = view.plan("mobile_senior")
    return Grounded(
        request=f"I heard {plan} is cheaper. Please add it to my account.",
        situation=f"You heard {plan} is cheaper and want it added to your account; you are not 65 yet",
        bindings={"service_id": "mobile_senior"},
        write=write("manage_service", customer_id=customer.id, action="add", service_id="mobile_senior"),
        entities=frozenset({f"{customer.id}:service:mobile_senior"}),
        known={"plan_to_add": plan},
        reason="Add the senior mobile plan.",
    )


def unsupported_cycle(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    cycle = rng.choice(UNSUPPORTED_CYCLES)
    return Grounded(
        request=f"I'd like to be billed {cycle} from now on.",
        situation=f"You want to be billed {cycle} from now on",
        bindings={},
        write=write("manage_billing", **billing_options(view, customer.id, billing_cycle=cycle)),
        entities=frozenset({f"{customer.id}:billing"}),
        known={"billing_change": f"billed {cycle}"},
        reason="Change the billing cycle.",
    )


def improper_payment(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    """A payment by a method the policy does not take, or dated another day than today."""
    bill = view.billing[customer.id]
    balance = bill["current_balance"]
    if balance <= 0:
        return None
    if rng.random() < 0.6:
        method, words = rng.choice(UNSUPPORTED_METHODS)
        day, request = TODAY, f"I want to pay off my whole balance today with {words}."
        known = {"payment_method": words}
    else:
        method, day = rng.choice(METHODS), bill["payment_history"][0]["date"]
        request = (
            f"I want to pay off my whole balance by {METHOD_WORDS[method]}, but please date the payment "
            f"{day} so it counts as on time."
        )
        known = {"payment_method": method, "payment_date": day}
    return Grounded(
        request=request,
        situation=request.replace("I want", "You want").replace("my ", "your "),
        bindings={},
        write=write("record_payment", customer_id=customer.id, amount=balance, method=method, date=day),
        entities=frozenset({f"{customer.id}:balance"}),
        known=known,
        reason="Pay the bill.",
    )


SERVICE_READS = ("get_services", "get_service_details", "get_billing_details")
CATALOGUE = ("get_services",)
DEVICE_READS = ("get_device_details", "troubleshoot_device")
BILLING = ("get_billing_details",)
TICKET_READS = ("get_support_ticket_details", *DEVICE_READS)


def intent(ground: Any, terminal: str, topic: str, reads=(), required=(), challenge=False) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, tuple(reads), tuple(required), challenge)


INTENTS = (
    intent(add_service, "manage_service", "adding a service", SERVICE_READS, CATALOGUE),
    intent(remove_service, "manage_service", "removing a service", SERVICE_READS[1:]),
    intent(add_device, "add_device", "registering a new device", DEVICE_READS[:1]),
    intent(
        report_problem, "create_support_ticket", "a device that does not work", DEVICE_READS, DEVICE_READS[1:]
    ),
    intent(
        billing_question,
        "create_support_ticket",
        "a question about a bill",
        (*BILLING, "get_service_details"),
        BILLING,
    ),
    intent(
        update_ticket, "modify_support_ticket", "updating a support ticket", TICKET_READS, TICKET_READS[:1]
    ),
    intent(change_billing, "manage_billing", "changing billing options", BILLING, BILLING),
    intent(make_payment, "record_payment", "paying a bill", BILLING, BILLING),
    intent(senior_quote, "get_senior_discount", "a senior price", SERVICE_READS[:2], CATALOGUE),
    intent(troubleshooting_tips, "troubleshoot_device", "a device that does not work", DEVICE_READS[:1]),
    intent(underage_senior_plan, "manage_service", "adding a service", SERVICE_READS[:2], CATALOGUE, True),
    intent(unsupported_cycle, "manage_billing", "changing billing options", BILLING, BILLING, True),
    intent(improper_payment, "record_payment", "paying a bill", BILLING, BILLING, True),
)


# ----------------------------------------------------------------------------------------- the check


def check_policy(view: TelecomView, action: Action) -> list[Rule]:
    """The rules of policy.md that the write `action` breaks, judged on the seed records."""
    args, name = action.arguments, action.name
    customer = view.customers.get(args.get("customer_id", ""))
    if name == "manage_service":
        service_id = args.get("service_id")
        held = customer["services"] if customer else []
        if args.get("action") == "add":
            if service_id not in view.services or service_id in held:
                return [KNOWN_SERVICE]
            broken = []
            if service_id == "mobile_senior" and not view.senior(customer["customer_id"]):
                broken.append(SENIOR_ONLY)
            own = {d["device_id"] for d in customer["devices"]}
            if not set(args.get("devices_ids") or ()) <= own:
                broken.append(OWN_DEVICES)
            return broken
        return [] if args.get("action") == "remove" and service_id in held else [KNOWN_SERVICE]
    if name == "add_device":
        return [] if args.get("device_name") in view.devices else [CATALOGUE_DEVICE]
    if name == "create_support_ticket":
        ok = args.get("category") in TICKET_CATEGORIES and args.get("priority") in TICKET_PRIORITIES
        urgent = args.get("priority") == "urgent" and args.get("category") != "security"
        if urgent and not (customer and view.business(customer["customer_id"])):
            return [URGENT_TICKET]
        return [] if ok else [TICKET_FIELDS]
    if name == "modify_support_ticket":
        ok = args.get("status") in STATUSES and args.get("priority") in TICKET_PRIORITIES
        return [] if ok and args.get("ticket_id") in view.tickets else [TICKET_FIELDS]
    if name == "manage_billing":
        return [] if args.get("billing_cycle") in CYCLES else [BILLING_CYCLE]
    if name == "record_payment":
        broken = [] if args.get("method") in METHODS else [PAYMENT_METHOD]
        if args.get("date") != TODAY:
            broken.append(PAYMENT_DATE)
        balance = view.billing[customer["customer_id"]]["current_balance"] if customer else 0
        if not 0 < float(args.get("amount", 0)) <= balance:
            broken.append(PAYMENT_AMOUNT)
        return broken
    return []


TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={2: 0.5, 3: 0.3, 4: 0.2},
    intent_counts={1: 0.05, 2: 0.4, 3: 0.55},
)
