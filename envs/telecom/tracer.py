"""Telecom's parts for the Tracer (docs/tracer.md): the intents a customer brings, grounded on the
seed view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

import random
from typing import Any

from taue.envs.runtime.authoring import Alternative, Customer, Grounded, Intent, Lookups, TracerSpec, write
from taue.envs.telecom.phrases import BANKS
from taue.envs.telecom.policy_check import check_policy
from taue.envs.telecom.rules import BILLING_CYCLES, PAYMENT_METHODS, TODAY
from taue.envs.telecom.seed_view import (
    METHOD_WORDS,
    PERSONAS,
    TICKET_AREA,
    TIP,
    UNSUPPORTED_CYCLES,
    UNSUPPORTED_METHODS,
    Record,
    TelecomView,
    _device_problem,
    _priority,
    _problem_bindings,
    article,
    billing_options,
    customers,
    load,
    money,
    problem_words,
)
from taue.envs.telecom.tools import TICKET_PRIORITIES

# -------------------------------------------------------------------------------------------- intents

SERVICE_KEYS = {"tv_sports_addon": "sports", "security_home_monitoring": "security",
                "phone_business_voip": "voip"}  # fmt: skip


def _service_key(view: TelecomView, service_id: str) -> str:
    category = view.services[service_id]["category"]
    return SERVICE_KEYS.get(service_id, category if category in ("tv", "mobile", "internet") else "")


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
    wording = BANKS["add_service"].word(rng, {"plan": plan}, reason=_service_key(view, service_id))
    return Grounded(
        **wording.fields(),
        bindings={"service_id": service_id},
        write=write("manage_service", customer_id=customer.id, action="add", service_id=service_id),
        entities=frozenset({f"{customer.id}:service:{service_id}"}),
        known={"plan_to_add": plan},
        discoverable={"service_id": service_id},
        evidence=(service_id,),
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
    wording = BANKS["remove_service"].word(rng, {"plan": plan}, reason=_service_key(view, service_id))
    return Grounded(
        **wording.fields(),
        bindings={"service_id": Lookups(tuple(held[: held.index(service_id) + 1]))},
        write=write("manage_service", customer_id=customer.id, action="remove", service_id=service_id),
        entities=frozenset({f"{customer.id}:service:{service_id}"}),
        known={"plan_to_remove": plan},
        discoverable={"service_id": service_id},
        evidence=(service_id,),
    )


def _model(customer: Customer, name: str) -> str:
    """The entity of a device model on a customer's account: one intent per model, so one fact name."""
    return f"{customer.id}:model:{name}"


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
    key = "phone" if view.devices[name]["category"] == "mobile_phone" else "home"
    wording = BANKS["add_device"].word(rng, {"device": name, "a_device": article(name)}, reason=key)
    return Grounded(
        **wording.fields(),
        bindings={"device_name": name},
        write=write("add_device", customer_id=customer.id, device_name=name),
        entities=frozenset({f"{customer.id}:new-device", _model(customer, name)}),
        known={"new_device": name},
        evidence=(name,),
    )


def _fault_slots(view: TelecomView, name: str, issue: str) -> dict[str, str]:
    words = problem_words(view, name, issue)
    return {"device": name, "fault": words, "issue_words": words.removeprefix(name).strip()}


def _fault_key(view: TelecomView, name: str, issue: str) -> str:
    return f"{view.kind(name)}:{issue}"


def _fault(customer: Customer, device: Record, issue: str) -> dict[str, Any]:
    """What the customer knows of one fault: the device (one fact name in every intent) and the issue."""
    return {"faulty_device": device["name"], "issue": issue}


def report_problem(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    found = _device_problem(view, customer, rng, ("no_service", "slow_speeds"))
    if found is None:
        return None
    device, issue = found
    name = device["name"]
    category = TICKET_AREA[view.devices[name]["category"]]
    priority = _priority(view, customer.id, issue)
    wording = BANKS["report_problem"].word(
        rng, _fault_slots(view, name, issue), reason=_fault_key(view, name, issue)
    )
    return Grounded(
        **wording.fields(),
        bindings=_problem_bindings(view, customer, device, issue),
        write=write("create_support_ticket", customer_id=customer.id, category=category, priority=priority),
        entities=frozenset({_model(customer, name), f"{customer.id}:ticket:{category}"}),
        known=_fault(customer, device, issue),
        discoverable={"category": category},
        evidence=(category, priority),
        decided=frozenset({"priority"}),
    )


def billing_question(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    charges = view.billing[customer.id]["monthly_charges"]
    late = "late_fee" in charges
    topic = "the late fee" if late else rng.choice(("the taxes and fees", "the monthly charges"))
    wording = BANKS["billing_question"].word(
        rng, {"topic": topic, "topic_cap": topic.capitalize()}, reason="late_fee" if late else ""
    )
    return Grounded(
        **wording.fields(),
        bindings={"service_id": Lookups(tuple(view.customers[customer.id]["services"]))},
        write=write("create_support_ticket", customer_id=customer.id, category="billing", priority="medium"),
        entities=frozenset({f"{customer.id}:ticket:billing"}),
        known={"billing_question": f"{topic} on the bill"},
        evidence=("billing",),
        decided=frozenset({"priority"}),
    )


def reopen_ticket(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    tickets = view.tickets_of(customer.id, "closed")
    if not tickets:
        return None
    ticket = rng.choice(tickets)
    tid, status, priority = ticket["ticket_id"], ticket["status"], ticket["priority"]
    return Grounded(
        **BANKS["reopen_ticket"].word(rng, {"ticket_id": tid}).fields(),
        bindings={"ticket_id": tid},
        write=write("modify_support_ticket", ticket_id=tid, status="open", priority=priority),
        entities=frozenset({tid}),
        known={"ticket_id": tid, "wanted_change": "status open, priority as it is"},
        discoverable={"current_status": status, "current_priority": priority},
        evidence=(tid,),
    )


def resolve_ticket(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    tickets = view.tickets_of(customer.id, "open", "in_progress")
    if not tickets:
        return None
    ticket = rng.choice(tickets)
    tid, status, priority = ticket["ticket_id"], ticket["status"], ticket["priority"]
    new = rng.choice(("resolved", "closed"))
    return Grounded(
        **BANKS["resolve_ticket"].word(rng, {"ticket_id": tid, "status": new}).fields(),
        bindings={"ticket_id": tid},
        write=write("modify_support_ticket", ticket_id=tid, status=new, priority=priority),
        entities=frozenset({tid}),
        known={"ticket_id": tid, "wanted_change": f"status {new}, priority as it is"},
        discoverable={"current_status": status, "current_priority": priority},
        evidence=(tid,),
    )


def escalate_ticket(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    """An open ticket about a device with no service, filed below the priority the policy gives it."""
    target = _priority(view, customer.id, "no_service")
    tickets = [
        t for t in view.tickets_of(customer.id, "open", "in_progress")
        if TICKET_PRIORITIES.index(t["priority"]) < TICKET_PRIORITIES.index(target)
    ]  # fmt: skip
    found = _device_problem(view, customer, rng, ("no_service",))
    if not tickets or found is None:
        return None
    ticket = rng.choice(tickets)
    device, issue = found
    tid, status, priority = ticket["ticket_id"], ticket["status"], ticket["priority"]
    wording = BANKS["escalate_ticket"].word(rng, {"ticket_id": tid, "device": device["name"]})
    return Grounded(
        **wording.fields(),
        bindings={"ticket_id": tid, **_problem_bindings(view, customer, device, issue)},
        write=write("modify_support_ticket", ticket_id=tid, status=status, priority=target),
        entities=frozenset({tid, _model(customer, device["name"])}),
        known={"ticket_id": tid, **_fault(customer, device, issue), "wanted_change": "a raised priority"},
        discoverable={"current_status": status, "current_priority": priority},
        evidence=(tid,),
        decided=frozenset({"priority"}),
    )


CHANGES: dict[tuple[str, bool | str], tuple[str, str]] = {
    ("paperless", True): ("switch the account to paperless bills", "paperless_on"),
    ("paperless", False): ("go back to paper bills by mail", "paperless_off"),
    ("auto_pay", True): ("turn on automatic payments", "autopay_on"),
    ("auto_pay", False): ("turn off automatic payments", "autopay_off"),
}


def change_billing(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    options = billing_options(view, customer.id)
    choices: list[tuple[str, bool | str]] = [
        ("paperless", not options["paperless"]),
        ("auto_pay", not options["auto_pay"]),
        ("billing_cycle", rng.choice([c for c in BILLING_CYCLES if c != options["billing_cycle"]])),
    ]
    option, value = rng.choice(choices)
    if option == "billing_cycle":
        change, key = f"change the billing from {options['billing_cycle']} to {value}", "cycle"
    else:
        change, key = CHANGES[option, value]
    return Grounded(
        **BANKS["change_billing"].word(rng, {"change": change}, reason=key).fields(),
        bindings={},
        write=write("manage_billing", **billing_options(view, customer.id, **{option: value})),
        entities=frozenset({f"{customer.id}:billing"}),
        known={"billing_change": change},
        evidence=(str(value) if option == "billing_cycle" else option,),
    )


def make_payment(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    balance = view.billing[customer.id]["current_balance"]
    if balance <= 0:
        return None
    method = rng.choice(PAYMENT_METHODS)
    known = {"payment_method": method, "payment_date": TODAY}
    if balance >= 30 and rng.random() < 0.4:
        amount = float(rng.randrange(10, int(balance * 0.8), 5))
        what, key = f"${money(amount)} toward the balance", "partial"
        known["payment_amount"] = money(amount)
    else:
        amount, what, key = balance, "the whole balance", ""
    wording = BANKS["make_payment"].word(rng, {"what": what, "by": METHOD_WORDS[method]}, reason=key)
    return Grounded(
        **wording.fields(),
        bindings={},
        write=write("record_payment", customer_id=customer.id, amount=amount, method=method, date=TODAY),
        entities=frozenset({f"{customer.id}:balance"}),
        known=known,
        discoverable={"amount": str(amount), "date": TODAY},
        evidence=(str(amount),),
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
        **BANKS["senior_quote"].word(rng, {"plan": plan}).fields(),
        kind="information",
        bindings={"service_id": service_id, "original_price": price},
        entities=frozenset({f"{customer.id}:quote:{service_id}"}),
        known={"plan_to_quote": plan},
        discoverable={"service_id": service_id, "original_price": money(price)},
        evidence=(money(max(price - 5.0, 0.0)),),
    )


def troubleshooting_tips(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    found = _device_problem(view, customer, rng)
    if found is None:
        return None
    device, issue = found
    name = device["name"]
    wording = BANKS["troubleshooting_tips"].word(
        rng, _fault_slots(view, name, issue), reason=_fault_key(view, name, issue)
    )
    return Grounded(
        **wording.fields(),
        kind="information",
        bindings=_problem_bindings(view, customer, device, issue),
        entities=frozenset({_model(customer, name)}),
        known=_fault(customer, device, issue),
        evidence=(TIP[(view.kind(name), issue)],),
    )


def underage_senior_plan(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    held = view.customers[customer.id]["services"]
    if view.senior(customer.id) or "mobile_senior" in held:
        return None
    plan = view.plan("mobile_senior")
    return Grounded(
        **BANKS["underage_senior_plan"].word(rng, {"plan": plan}).fields(),
        bindings={"service_id": "mobile_senior"},
        write=write("manage_service", customer_id=customer.id, action="add", service_id="mobile_senior"),
        entities=frozenset({f"{customer.id}:service:mobile_senior"}),
        known={"plan_to_add": plan},
    )


def unsupported_cycle(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    cycle = rng.choice(UNSUPPORTED_CYCLES)
    key = "long" if cycle == "semiannual" else "short"
    return Grounded(
        **BANKS["unsupported_cycle"].word(rng, {"cycle": cycle}, reason=key).fields(),
        bindings={},
        write=write("manage_billing", **billing_options(view, customer.id, billing_cycle=cycle)),
        entities=frozenset({f"{customer.id}:billing"}),
        known={"billing_change": f"billed {cycle}"},
    )


def unsupported_method(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    """A payment of the whole balance by a method the policy does not take."""
    balance = view.billing[customer.id]["current_balance"]
    if balance <= 0:
        return None
    method, words = rng.choice(UNSUPPORTED_METHODS)
    return Grounded(
        **BANKS["unsupported_method"].word(rng, {"method": words}).fields(),
        bindings={},
        write=write("record_payment", customer_id=customer.id, amount=balance, method=method, date=TODAY),
        entities=frozenset({f"{customer.id}:balance"}),
        known={"payment_method": words},
    )


def pay_supported(
    view: TelecomView, customer: Customer, refused: Grounded, rng: random.Random
) -> Grounded | None:
    """The policy's alternative to a payment by a method it does not take: the same payment of the
    balance by credit card or bank transfer, which the customer takes."""
    assert refused.write is not None
    balance, method = refused.write.arguments["amount"], rng.choice(PAYMENT_METHODS)
    return Grounded(
        **BANKS["pay_supported"].word(rng, {"by": METHOD_WORDS[method]}).fields(),
        bindings={},
        write=write("record_payment", customer_id=customer.id, amount=balance, method=method, date=TODAY),
        entities=refused.entities,
        known={"payment_method_instead": method, "payment_date": TODAY},
        discoverable={"amount": str(balance), "date": TODAY},
        evidence=(str(balance), method),
    )


def backdated_payment(view: TelecomView, customer: Customer, rng: random.Random) -> Grounded | None:
    """A payment of the whole balance dated the day of the last (late) payment instead of today."""
    bill = view.billing[customer.id]
    balance = bill["current_balance"]
    if balance <= 0:
        return None
    method, day = rng.choice(PAYMENT_METHODS), bill["payment_history"][0]["date"]
    wording = BANKS["backdated_payment"].word(rng, {"by": METHOD_WORDS[method], "day": day})
    return Grounded(
        **wording.fields(),
        bindings={},
        write=write("record_payment", customer_id=customer.id, amount=balance, method=method, date=day),
        entities=frozenset({f"{customer.id}:balance"}),
        known={"payment_method": method, "payment_date": day},
    )


SERVICE_READS = ("get_services", "get_service_details", "get_billing_details")
CATALOGUE = ("get_services",)
DEVICE_READS = ("get_device_details", "troubleshoot_device")
BILLING = ("get_billing_details",)
TICKET_READS = ("get_support_ticket_details", *DEVICE_READS)


def intent(
    ground: Any, terminal: str, topic: str, reads=(), required=(), challenge=False, weight=1.0
) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, tuple(reads), tuple(required), challenge, weight)


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
    intent(reopen_ticket, "modify_support_ticket", "reopening a support ticket", TICKET_READS[:1],
           TICKET_READS[:1], weight=0.35),
    intent(resolve_ticket, "modify_support_ticket", "closing a support ticket", TICKET_READS[:1],
           TICKET_READS[:1], weight=0.3),
    intent(escalate_ticket, "modify_support_ticket", "updating a support ticket", TICKET_READS,
           TICKET_READS[:1], weight=0.4),
    intent(change_billing, "manage_billing", "changing billing options", BILLING, BILLING),
    intent(make_payment, "record_payment", "paying a bill", BILLING, BILLING, weight=2.0),
    intent(senior_quote, "get_senior_discount", "a senior price", SERVICE_READS[:2], CATALOGUE, weight=0.5),
    intent(troubleshooting_tips, "troubleshoot_device", "a device that does not work", DEVICE_READS[:1],
           weight=0.4),
    intent(underage_senior_plan, "manage_service", "adding a service", SERVICE_READS[:2], CATALOGUE, True),
    intent(unsupported_cycle, "manage_billing", "changing billing options", BILLING, BILLING, True),
    Intent("unsupported_method", "record_payment", unsupported_method, "paying a bill", BILLING, BILLING,
           challenge=True, weight=0.5,
           alternative=Alternative("pay_supported", "record_payment", pay_supported)),
    intent(backdated_payment, "record_payment", "paying a bill", BILLING, BILLING, True, weight=0.5),
)  # fmt: skip


TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={2: 0.8, 3: 0.16, 4: 0.04},
    intent_counts={2: 0.15, 3: 0.45, 4: 0.4},
)
