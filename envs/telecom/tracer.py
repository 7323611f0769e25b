"""Telecom's parts for the Tracer (docs/tracer.md): the intents a customer brings, grounded on the
seed view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

import random
from typing import Any

from taue.envs.runtime.authoring import Customer, Grounded, Intent, Lookups, TracerSpec, write
from taue.envs.telecom.policy_check import check_policy
from taue.envs.telecom.seed_view import (
    ADVERBS,
    BILLING_WORDS,
    CYCLES,
    METHOD_WORDS,
    METHODS,
    PERSONAS,
    TICKET_AREA,
    TIP,
    TODAY,
    UNSUPPORTED_CYCLES,
    UNSUPPORTED_METHODS,
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


TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={2: 0.4, 3: 0.35, 4: 0.25},
    intent_counts={1: 0.05, 2: 0.4, 3: 0.55},
)
