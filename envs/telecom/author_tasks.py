"""Write `envs/telecom/tasks.json`: 20 hand-designed emotional telecom tasks and their neutral twins.

Run `python -m taue.envs.telecom.author_tasks`. Every task is built from concrete entities of the seed
database (seed 0): each task function states what kind of customer it needs, the first customer
(in a fixed shuffled order of the customer ids) who fits and is not used by another task is taken,
and the gold actions, the facts and the expected outputs are computed from that customer's
records. Before writing, every task is checked: `task_set_problems` plus the authoring rules of
`authoring_problems`.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taue.contracts.tasks import (
    Action,
    Emotion,
    Evaluation,
    Goal,
    Provenance,
    Task,
    UserScenario,
    neutral_twin,
)
from taue.envs.runtime.goal_targets import attach_targets
from taue.envs.telecom.generate import DEVICES, SENIOR_BORN_BY, SERVICES, generate
from taue.envs.telecom.models import Billing, Customer, SupportTicket

TASKS_PATH = Path(__file__).with_name("tasks.json")
SEED = 0
TODAY = "2025-09-18"
FIRST_NEW_TICKET = "TICKET241"
"""`create_support_ticket` numbers tickets count + 1; the seed has 240."""
Record = dict[str, Any]
NOT_ASKED = frozenset({"summary", "thought", "expression", "reason"})
"""Arguments the pester baseline never asks the user about (agent-runner/agents/pester.py)."""


def act(name: str, **arguments: Any) -> Action:
    return Action(name=name, arguments=arguments)


def money(value: float) -> str:
    """Dollars with two decimals, as the tools print balances and prices."""
    return f"{value:.2f}"


def plan_name(service_id: str) -> str:
    return SERVICES[service_id][0]


def goal(goal_id: str, request: str, *evidence: str, kind: str = "action") -> Goal:
    # Unvalidated: `build` gives each action goal its target (the gold write) before the task is made.
    return Goal.model_construct(id=goal_id, kind=kind, request=request, evidence=list(evidence))


def listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# ------------------------------------------------------------------------------------------ seed data


class Seed:
    """The seed records of the telecom domain, with the look-ups task functions need."""

    def __init__(self, seed: int) -> None:
        rows = generate(seed)
        self.customers = {r.customer_id: r.to_record() for r in rows if isinstance(r, Customer)}
        self.billing = {r.customer_id: r.to_record() for r in rows if isinstance(r, Billing)}
        self.tickets = {r.ticket_id: r.to_record() for r in rows if isinstance(r, SupportTicket)}
        assert len(self.tickets) + 1 == int(FIRST_NEW_TICKET.removeprefix("TICKET"))
        self.order = sorted(self.customers)
        random.Random(seed).shuffle(self.order)  # so the tasks' customers are not all alphabetically first
        self.used: set[str] = set()

    def pick(self, plan: Callable[[str], Record | None]) -> Record:
        """The plan of the first unused customer (in the fixed shuffled order) for whom `plan` finds one."""
        for customer_id in self.order:
            if customer_id in self.used:
                continue
            found = plan(customer_id)
            if found is not None:
                self.used.add(customer_id)
                return {
                    "id": customer_id,
                    "customer": self.customers[customer_id],
                    "bill": self.billing[customer_id],
                    **found,
                }
        raise LookupError(f"no seed customer fits {plan.__qualname__}")

    def residential(self, customer_id: str) -> bool:
        return self.customers[customer_id]["account"]["account_type"] == "residential"

    def senior(self, customer_id: str) -> bool:
        return self.customers[customer_id]["demographics"]["date_of_birth"] <= SENIOR_BORN_BY

    def has(self, customer_id: str, service_id: str) -> bool:
        return service_id in self.customers[customer_id]["services"]

    def category_services(self, customer_id: str, category: str) -> list[str]:
        return [s for s in self.customers[customer_id]["services"] if SERVICES[s][1] == category]

    def balance(self, customer_id: str) -> float:
        return self.billing[customer_id]["current_balance"]

    def open_ticket(self, customer_id: str) -> Record | None:
        return next(
            (
                t
                for _, t in sorted(self.tickets.items())
                if t["customer_id"] == customer_id and t["status"] == "open"
            ),
            None,
        )

    def devices(
        self, customer_id: str, category: str | None = None, service: str | None = None
    ) -> list[Record]:
        return [
            d
            for d in self.customers[customer_id]["devices"]
            if (category is None or DEVICES[d["name"]][0] == category)
            and (service is None or d["service"] == service)
        ]

    def ids_on(self, customer_id: str, service_id: str) -> list[str]:
        return [d["device_id"] for d in self.devices(customer_id, service=service_id)]

    def next_device_id(self, customer_id: str, added: int = 0) -> str:
        return str(len(self.customers[customer_id]["devices"]) + added + 1)

    def cycle(self, customer_id: str) -> str:
        return self.billing[customer_id].get("billing_cycle", "monthly")

    def monthly_after(self, customer_id: str, removed: list[str]) -> list[float]:
        return [v for k, v in self.billing[customer_id]["monthly_charges"].items() if k not in removed]


def identify(p: Record, by: str) -> tuple[list[Action], dict[str, str]]:
    """Gold actions that identify the customer and read their profile, and what the customer knows."""
    demographics = p["customer"]["demographics"]
    if by == "email":
        first = act("find_customer_by_email", email=demographics["email"])
        known = {"email": demographics["email"]}
    else:
        first = act("find_customer_by_phone", phone=demographics["phone"])
        known = {"phone": demographics["phone"]}
    return [first, act("get_customer_details", customer_id=p["id"])], known


def full_name(p: Record) -> str:
    name = p["customer"]["name"]
    return f"{name['first_name']} {name['last_name']}"


def current_cycle(p: Record) -> str:
    return p["bill"].get("billing_cycle", "monthly")


def billing_options(p: Record, **changes: Any) -> dict[str, Any]:
    """`manage_billing` arguments: the customer's current options with `changes` applied."""
    options = {
        "customer_id": p["id"],
        "paperless": p["bill"]["paperless"],
        "auto_pay": p["bill"]["auto_pay"],
        "billing_cycle": current_cycle(p),
    }
    return {**options, **changes}


def pay_off(p: Record, method: str) -> Action:
    return act(
        "record_payment", customer_id=p["id"], amount=p["bill"]["current_balance"], method=method, date=TODAY
    )


def switch(p: Record, old: str, new: str, devices_ids: list[str]) -> list[Action]:
    return [
        act("manage_service", customer_id=p["id"], action="remove", service_id=old),
        act("manage_service", customer_id=p["id"], action="add", service_id=new, devices_ids=devices_ids),
    ]


# ------------------------------------------------------------------------------------------- drafting


@dataclass
class Draft:
    """One task before it gets its id and emotion."""

    persona: str
    reason: str
    instruction: str
    known: dict[str, str]
    volunteered: list[str]
    unknown: list[str]
    discoverable: dict[str, str]
    goals: list[Goal]
    actions: list[Action]
    outputs: list[str] = field(default_factory=list)
    preferences: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------- tasks
# Each task function picks its customer with a `plan` and returns the task's draft.


def t01_upgrade_and_clear_balance(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ok = seed.residential(cid) and seed.has(cid, "mobile_unlimited") and seed.balance(cid) > 0
        return {} if ok and seed.ids_on(cid, "mobile_unlimited") else None

    p = seed.pick(plan)
    reads, known = identify(p, "email")
    ids, amount = seed.ids_on(p["id"], "mobile_unlimited"), p["bill"]["current_balance"]
    return Draft(
        persona=f"{full_name(p)}, a delivery driver who relies on mobile data all day.",
        reason="Move from Unlimited Mobile to Unlimited Plus Mobile and pay off the overdue balance.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). You want your Unlimited Mobile plan replaced "
            "by Unlimited Plus Mobile, keeping the same phone on it. You also know your bill is overdue and "
            "want to pay the whole balance now with your credit card. You do not know any ids."
        ),
        known={
            **known,
            "current_plan": plan_name("mobile_unlimited"),
            "wanted_plan": plan_name("mobile_unlimited_plus"),
            "method": "credit card",
        },
        volunteered=["email"],
        unknown=["plan ids", "balance owed"],
        discoverable={
            "customer_id": p["id"],
            "service_id": "mobile_unlimited and mobile_unlimited_plus",
            "devices_ids": listed(ids),
            "amount": str(amount),
            "date": TODAY,
        },
        goals=[
            goal(
                "switch",
                "Please move my phone from Unlimited Mobile to Unlimited Plus Mobile.",
                "mobile_unlimited_plus",
            ),
            goal("pay", "And I want to pay off my whole balance with my credit card.", str(amount)),
        ],
        actions=[
            *reads,
            act("get_service_details", service_id="mobile_unlimited_plus"),
            *switch(p, "mobile_unlimited", "mobile_unlimited_plus", ids),
            act("get_billing_details", customer_id=p["id"]),
            pay_off(p, "credit_card"),
        ],
    )


def t02_new_phone_new_line(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ok = seed.residential(cid) and not seed.billing[cid]["paperless"]
        return {} if ok and not seed.has(cid, "mobile_essentials") else None

    p = seed.pick(plan)
    reads, known = identify(p, "phone")
    new_id = seed.next_device_id(p["id"])
    return Draft(
        persona=f"{full_name(p)}, a parent setting up a first phone for a teenager.",
        reason="Register a new Pixel 9 on a new Essentials Mobile line and switch to paperless bills.",
        instruction=(
            f"You are {full_name(p)} (phone {known['phone']}). You bought a Pixel 9 for your teenager and "
            "want it registered on your account with a new Essentials Mobile 5GB line of its own. You also "
            "want paperless bills from now on; everything else about billing stays as it is."
        ),
        known={
            **known,
            "device_name": "Pixel 9",
            "wanted_plan": plan_name("mobile_essentials"),
            "paperless": "yes, paperless bills please",
        },
        volunteered=["phone", "device_name"],
        unknown=["device ids", "plan ids"],
        discoverable={
            "customer_id": p["id"],
            "service_id": "mobile_essentials",
            "devices_ids": new_id,
            "auto_pay": str(p["bill"]["auto_pay"]),
            "billing_cycle": current_cycle(p),
        },
        goals=[
            goal(
                "line",
                "Please add my new Pixel 9 and give it its own Essentials Mobile line.",
                "Pixel 9",
                "mobile_essentials",
            ),
            goal("paperless", "Also, I'd like paperless bills from now on.", "paperless"),
        ],
        actions=[
            *reads,
            act("get_device_details", device_name="Pixel 9"),
            act("add_device", customer_id=p["id"], device_name="Pixel 9"),
            act(
                "manage_service",
                customer_id=p["id"],
                action="add",
                service_id="mobile_essentials",
                devices_ids=[new_id],
            ),
            act("get_billing_details", customer_id=p["id"]),
            act("manage_billing", **billing_options(p, paperless=True)),
        ],
    )


def t03_dead_phone(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        phones = seed.devices(cid, "mobile_phone")
        ok = seed.residential(cid) and seed.balance(cid) > 0 and len(phones) == 1
        return {"phone_device": phones[0]} if ok else None

    p = seed.pick(plan)
    reads, known = identify(p, "phone")
    device, amount = p["phone_device"]["name"], p["bill"]["current_balance"]
    return Draft(
        persona=f"{full_name(p)}, a home nurse who needs to be reachable by patients.",
        reason="The mobile phone has had no service since the morning; also pay the overdue bill.",
        instruction=(
            f"You are {full_name(p)} (phone {known['phone']}). Your only mobile phone has had no service at "
            "all since this morning. Go through the troubleshooting, then have a support ticket opened and "
            "ask for its number. Worried the outage is about your overdue bill, you also want to pay the "
            "full balance by bank transfer."
        ),
        known={**known, "issue": "no service at all on my mobile phone", "method": "bank transfer"},
        volunteered=["phone", "issue"],
        unknown=["priority", "category", "balance owed"],
        discoverable={"customer_id": p["id"], "device_name": device, "amount": str(amount), "date": TODAY},
        goals=[
            goal(
                "ticket",
                "My phone has no service at all. What is the number of the support ticket?",
                FIRST_NEW_TICKET,
                kind="information",
            ),
            goal("pay", "I also want to pay my full balance by bank transfer.", str(amount)),
        ],
        actions=[
            *reads,
            act("get_device_details", device_name=device),
            act("troubleshoot_device", device_name=device, issue="no_service"),
            act("create_support_ticket", customer_id=p["id"], category="mobile", priority="high"),
            act("get_billing_details", customer_id=p["id"]),
            pay_off(p, "bank_transfer"),
        ],
        outputs=[FIRST_NEW_TICKET],
    )


def t04_tv_upgrade_quarterly(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ok = (
            seed.residential(cid) and seed.has(cid, "tv_essentials") and not seed.has(cid, "tv_entertainment")
        )
        return {} if ok and seed.ids_on(cid, "tv_essentials") and seed.cycle(cid) != "quarterly" else None

    p = seed.pick(plan)
    reads, known = identify(p, "email")
    ids = seed.ids_on(p["id"], "tv_essentials")
    return Draft(
        persona=f"{full_name(p)}, a retired film buff who watches a lot of television.",
        reason="Upgrade TV Essentials to TV Entertainment on the same boxes and move to quarterly billing.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). You want to move from TV Essentials to TV "
            "Entertainment, keeping all your TV equipment on the new package. You would also like to be "
            "billed quarterly instead of monthly, with your other billing options unchanged."
        ),
        known={
            **known,
            "current_package": plan_name("tv_essentials"),
            "wanted_package": plan_name("tv_entertainment"),
            "billing_cycle": "quarterly",
        },
        volunteered=["email"],
        unknown=["plan ids"],
        discoverable={
            "customer_id": p["id"],
            "service_id": "tv_essentials and tv_entertainment",
            "devices_ids": listed(ids),
            "paperless": str(p["bill"]["paperless"]),
            "auto_pay": str(p["bill"]["auto_pay"]),
        },
        goals=[
            goal("tv", "I'd like to upgrade from TV Essentials to TV Entertainment.", "tv_entertainment"),
            goal("cycle", "And please bill me quarterly from now on.", "quarterly"),
        ],
        actions=[
            *reads,
            act("get_services"),
            *switch(p, "tv_essentials", "tv_entertainment", ids),
            act("get_billing_details", customer_id=p["id"]),
            act("manage_billing", **billing_options(p, billing_cycle="quarterly")),
        ],
    )


def t05_escalate_outage(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ticket, routers = seed.open_ticket(cid), seed.devices(cid, "networking")
        ok = seed.residential(cid) and seed.balance(cid) > 0 and ticket is not None and len(routers) == 1
        return {"ticket": ticket, "router": routers[0]} if ok and ticket["priority"] != "urgent" else None

    p = seed.pick(plan)
    reads, known = identify(p, "email")
    ticket, router, amount = p["ticket"], p["router"]["name"], p["bill"]["current_balance"]
    tid = ticket["ticket_id"]
    return Draft(
        persona=f"{full_name(p)}, a freelance translator who works from home.",
        reason="The home internet is down; escalate the open ticket to urgent and pay the overdue balance.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). Your home internet has been completely down "
            f"and you already have support ticket {tid} open about it. Try the troubleshooting steps for the "
            "router, then have the ticket raised to urgent priority. You also want to pay the whole overdue "
            "balance with your credit card."
        ),
        known={
            **known,
            "ticket_id": tid,
            "priority": "urgent",
            "issue": "no internet at all",
            "method": "credit card",
        },
        volunteered=["email", "ticket_id"],
        unknown=["balance owed"],
        discoverable={
            "customer_id": p["id"],
            "status": ticket["status"],
            "device_name": router,
            "amount": str(amount),
            "date": TODAY,
        },
        goals=[
            goal(
                "escalate", f"My internet is still down. Please raise ticket {tid} to urgent.", tid, "urgent"
            ),
            goal("pay", "And I want to pay my overdue balance in full by credit card.", str(amount)),
        ],
        actions=[
            *reads[:1],
            act("get_support_ticket_details", ticket_id=tid),
            reads[1],
            act("troubleshoot_device", device_name=router, issue="no_service"),
            act("modify_support_ticket", ticket_id=tid, status=ticket["status"], priority="urgent"),
            act("get_billing_details", customer_id=p["id"]),
            pay_off(p, "credit_card"),
        ],
    )


def t06_ticket_fixed_new_phone_autopay(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ticket = seed.open_ticket(cid)
        ok = seed.residential(cid) and ticket is not None and not seed.billing[cid]["auto_pay"]
        return {"ticket": ticket} if ok else None

    p = seed.pick(plan)
    reads, known = identify(p, "phone")
    ticket = p["ticket"]
    tid = ticket["ticket_id"]
    return Draft(
        persona=f"{full_name(p)}, a cheerful bakery owner tidying up loose ends.",
        reason="A ticket's problem is fixed; register a new Galaxy S24 and turn on automatic payments.",
        instruction=(
            f"You are {full_name(p)} (phone {known['phone']}). The problem behind your support ticket {tid} "
            "is fixed, so you want the ticket marked resolved (its priority can stay as it is). You bought "
            "a Galaxy S24 and want it registered on your account. Finally, turn on automatic payments and "
            "leave the other billing options alone."
        ),
        known={
            **known,
            "ticket_id": tid,
            "status": "resolved",
            "device_name": "Galaxy S24",
            "auto_pay": "yes, turn automatic payments on",
        },
        volunteered=["phone", "ticket_id"],
        unknown=["device ids"],
        discoverable={
            "customer_id": p["id"],
            "priority": ticket["priority"],
            "paperless": str(p["bill"]["paperless"]),
            "billing_cycle": current_cycle(p),
        },
        goals=[
            goal("resolve", f"Ticket {tid} can be marked resolved; it is fixed.", tid, "resolved"),
            goal("device", "Please register my new Galaxy S24 on my account.", "Galaxy S24"),
            goal("autopay", "And please switch on automatic payments.", "auto"),
        ],
        actions=[
            *reads,
            act("get_support_ticket_details", ticket_id=tid),
            act("modify_support_ticket", ticket_id=tid, status="resolved", priority=ticket["priority"]),
            act("add_device", customer_id=p["id"], device_name="Galaxy S24"),
            act("get_billing_details", customer_id=p["id"]),
            act("manage_billing", **billing_options(p, auto_pay=True)),
        ],
    )


def t07_senior_quote_and_plan(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ok = seed.senior(cid) and seed.has(cid, "mobile_unlimited") and seed.ids_on(cid, "mobile_unlimited")
        return {} if ok and not seed.has(cid, "mobile_senior") else None

    p = seed.pick(plan)
    reads, known = identify(p, "email")
    ids, price = seed.ids_on(p["id"], "mobile_unlimited"), SERVICES["mobile_unlimited_plus"][2]
    quote = money(max(price - 5.0, 0.0))
    return Draft(
        persona=f"{full_name(p)}, a retiree who keeps a close eye on the monthly budget.",
        reason="Hear the senior price of Unlimited Plus Mobile, then move to the Senior Mobile plan instead.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}), aged over 65. Ask what Unlimited Plus Mobile "
            "would cost you with the senior discount. Whatever the answer, you then decide to replace your "
            "Unlimited Mobile plan with the Senior Mobile 65+ plan, keeping your phone on it."
        ),
        known={
            **known,
            "quoted_plan": plan_name("mobile_unlimited_plus"),
            "current_plan": plan_name("mobile_unlimited"),
            "wanted_plan": plan_name("mobile_senior"),
        },
        volunteered=["email"],
        unknown=["plan ids", "plan prices"],
        discoverable={
            "customer_id": p["id"],
            "service_id": "mobile_unlimited_plus, mobile_unlimited and mobile_senior",
            "original_price": money(price),
            "devices_ids": listed(ids),
        },
        goals=[
            goal(
                "quote",
                "What would Unlimited Plus Mobile cost me with the senior discount?",
                quote,
                kind="information",
            ),
            goal(
                "switch",
                "Then please put my phone on the Senior Mobile plan instead of Unlimited.",
                "mobile_senior",
            ),
        ],
        actions=[
            *reads,
            act("get_service_details", service_id="mobile_unlimited_plus"),
            act("get_senior_discount", original_price=money(price)),
            *switch(p, "mobile_unlimited", "mobile_senior", ids),
        ],
        outputs=[quote],
    )


def t08_home_security(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ok = seed.residential(cid) and not seed.category_services(cid, "security")
        return {} if ok and seed.cycle(cid) != "annual" else None

    p = seed.pick(plan)
    reads, known = identify(p, "email")
    kit, new_id = "Smart Home Security Kit", seed.next_device_id(p["id"])
    return Draft(
        persona=f"{full_name(p)}, who has just moved into a house on a quiet street.",
        reason="Start security monitoring with a new kit, book its installation, bill annually.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). You bought a Smart Home Security Kit and want "
            "it registered and covered by the Home Security Monitoring service. You want a support ticket "
            "for the installation and its number. You also want to switch to annual billing, other options "
            "unchanged."
        ),
        known={
            **known,
            "device_name": kit,
            "wanted_plan": plan_name("security_home_monitoring"),
            "billing_cycle": "annual",
        },
        volunteered=["email", "device_name"],
        unknown=["priority", "category"],
        discoverable={
            "customer_id": p["id"],
            "service_id": "security_home_monitoring",
            "devices_ids": new_id,
            "paperless": str(p["bill"]["paperless"]),
            "auto_pay": str(p["bill"]["auto_pay"]),
        },
        goals=[
            goal(
                "monitoring",
                "Please register my new security kit and start Home Security Monitoring with it.",
                "security_home_monitoring",
            ),
            goal(
                "ticket",
                "What is the number of the installation ticket?",
                FIRST_NEW_TICKET,
                kind="information",
            ),
            goal("cycle", "And I'd like to be billed once a year.", "annual"),
        ],
        actions=[
            *reads,
            act("add_device", customer_id=p["id"], device_name=kit),
            act(
                "manage_service",
                customer_id=p["id"],
                action="add",
                service_id="security_home_monitoring",
                devices_ids=[new_id],
            ),
            act("create_support_ticket", customer_id=p["id"], category="security", priority="low"),
            act("get_billing_details", customer_id=p["id"]),
            act("manage_billing", **billing_options(p, billing_cycle="annual")),
        ],
        outputs=[FIRST_NEW_TICKET],
    )


def t09_internet_downgrade(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ok = seed.residential(cid) and seed.has(cid, "internet_fiber_1gb") and seed.balance(cid) > 0
        return {} if ok and seed.ids_on(cid, "internet_fiber_1gb") else None

    p = seed.pick(plan)
    reads, known = identify(p, "phone")
    ids, amount = seed.ids_on(p["id"], "internet_fiber_1gb"), p["bill"]["current_balance"]
    return Draft(
        persona=f"{full_name(p)}, a graduate student cutting costs after a rent increase.",
        reason="Downgrade Fiber 1 Gbps to Fiber 300 Mbps on the same router and pay the overdue balance.",
        instruction=(
            f"You are {full_name(p)} (phone {known['phone']}). Money is tight: you want to go down from "
            "Fiber Internet 1 Gbps to Fiber Internet 300 Mbps, keeping your router on it, and pay your "
            "whole overdue balance by bank transfer."
        ),
        known={
            **known,
            "current_plan": plan_name("internet_fiber_1gb"),
            "wanted_plan": plan_name("internet_fiber_300mb"),
            "method": "bank transfer",
        },
        volunteered=["phone"],
        unknown=["plan ids", "balance owed"],
        discoverable={
            "customer_id": p["id"],
            "service_id": "internet_fiber_1gb and internet_fiber_300mb",
            "devices_ids": listed(ids),
            "amount": str(amount),
            "date": TODAY,
        },
        goals=[
            goal("downgrade", "Please move me down to Fiber Internet 300 Mbps.", "internet_fiber_300mb"),
            goal("pay", "And pay off what I owe by bank transfer.", str(amount)),
        ],
        actions=[
            *reads,
            act("get_service_details", service_id="internet_fiber_300mb"),
            *switch(p, "internet_fiber_1gb", "internet_fiber_300mb", ids),
            act("get_billing_details", customer_id=p["id"]),
            pay_off(p, "bank_transfer"),
        ],
    )


def t10_cancel_tv(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        tv = [s for s in seed.category_services(cid, "tv") if s != "tv_sports_addon"]
        ok = seed.residential(cid) and seed.has(cid, "tv_sports_addon") and len(tv) == 1
        return {"tv": tv[0]} if ok and not seed.billing[cid]["paperless"] else None

    p = seed.pick(plan)
    reads, known = identify(p, "email")
    tv = p["tv"]
    remaining = seed.monthly_after(p["id"], [tv, "tv_sports_addon"])
    expression = " + ".join(str(v) for v in remaining)
    total = str(round(sum(remaining), 2))  # what `calculate` answers for the expression
    return Draft(
        persona=f"{full_name(p)}, who is giving up television to spend more time outdoors.",
        reason="Cancel the TV package and the Sports Add-on, hear the new monthly total, go paperless.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). You want your TV service cancelled, both "
            f"{plan_name(tv)} and the Sports Add-on. Ask what your monthly charges will add up to "
            "afterwards. You also want paperless bills, with nothing else about billing changed."
        ),
        known={
            **known,
            "tv_to_cancel": f"{plan_name(tv)} and the Sports Add-on",
            "paperless": "yes, paperless please",
        },
        volunteered=["email"],
        unknown=["plan ids", "monthly charges"],
        discoverable={
            "customer_id": p["id"],
            "service_id": f"tv_sports_addon and {tv}",
            "auto_pay": str(p["bill"]["auto_pay"]),
            "billing_cycle": current_cycle(p),
        },
        goals=[
            goal(
                "cancel",
                f"Please cancel my TV: {plan_name(tv)} and the Sports Add-on.",
                tv,
                "tv_sports_addon",
            ),
            goal("total", "What will my monthly charges add up to now?", total, kind="information"),
            goal("paperless", "And switch me to paperless bills.", "paperless"),
        ],
        actions=[
            *reads,
            act("manage_service", customer_id=p["id"], action="remove", service_id="tv_sports_addon"),
            act("manage_service", customer_id=p["id"], action="remove", service_id=tv),
            act("get_billing_details", customer_id=p["id"]),
            act("calculate", expression=expression),
            act("manage_billing", **billing_options(p, paperless=True)),
        ],
        outputs=[total],
    )


def t11_partial_payment_dispute(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        balance = seed.balance(cid)
        ok = seed.residential(cid) and balance >= 40 and seed.billing[cid]["auto_pay"]
        return {} if ok else None

    p = seed.pick(plan)
    reads, known = identify(p, "email")
    balance = p["bill"]["current_balance"]
    amount = float(int(balance // 2))
    remaining = money(max(round(balance - amount, 2), 0.0))
    return Draft(
        persona=f"{full_name(p)}, a shift worker who thinks a late fee on the bill is unfair.",
        reason="Pay part of the balance, dispute the late fee in a ticket, and stop automatic payments.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). You want to pay ${amount:.0f} of your balance "
            "now by credit card and ask how much is left afterwards. You dispute the late fee on your bill "
            "and want a support ticket about it, and its number. You also want automatic payments turned "
            "off, other billing options unchanged."
        ),
        known={
            **known,
            "amount": f"{amount:.0f} dollars",
            "method": "credit card",
            "dispute": "the late fee on my bill",
            "auto_pay": "no, turn automatic payments off",
        },
        volunteered=["email", "amount"],
        unknown=["priority", "category", "balance owed"],
        discoverable={
            "customer_id": p["id"],
            "date": TODAY,
            "paperless": str(p["bill"]["paperless"]),
            "billing_cycle": current_cycle(p),
        },
        goals=[
            goal("pay", f"I want to pay {amount:.0f} dollars by credit card now.", str(amount)),
            goal("left", "How much will I still owe after that?", remaining, kind="information"),
            goal(
                "ticket",
                "I dispute the late fee. What is the number of the ticket for it?",
                FIRST_NEW_TICKET,
                kind="information",
            ),
            goal("autopay", "And please turn off automatic payments.", "auto"),
        ],
        actions=[
            *reads,
            act("get_billing_details", customer_id=p["id"]),
            act("record_payment", customer_id=p["id"], amount=amount, method="credit_card", date=TODAY),
            act("create_support_ticket", customer_id=p["id"], category="billing", priority="medium"),
            act("manage_billing", **billing_options(p, auto_pay=False)),
        ],
        outputs=[remaining, FIRST_NEW_TICKET],
    )


def t12_family_plan(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ok = seed.residential(cid) and seed.has(cid, "mobile_unlimited") and not seed.billing[cid]["auto_pay"]
        return {} if ok and len(seed.ids_on(cid, "mobile_unlimited")) == 1 else None

    p = seed.pick(plan)
    reads, known = identify(p, "email")
    old = seed.ids_on(p["id"], "mobile_unlimited")
    new = [seed.next_device_id(p["id"]), seed.next_device_id(p["id"], 1)]
    return Draft(
        persona=f"{full_name(p)}, whose two children are getting their first phones.",
        reason="Register two new phones and move everyone to the Family Share plan; turn on auto-pay.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). You bought a Pixel 8a and a Galaxy A35 for "
            "your children. Register both, and replace your Unlimited Mobile plan with Family Share 4 Lines "
            "covering your own phone and both new ones. Then turn on automatic payments, other options "
            "unchanged."
        ),
        known={
            **known,
            "device_name": "Pixel 8a and Galaxy A35",
            "current_plan": plan_name("mobile_unlimited"),
            "wanted_plan": plan_name("mobile_family_4lines"),
            "auto_pay": "yes, turn automatic payments on",
        },
        volunteered=["email"],
        unknown=["device ids", "plan ids"],
        discoverable={
            "customer_id": p["id"],
            "service_id": "mobile_unlimited and mobile_family_4lines",
            "devices_ids": listed(old + new),
            "paperless": str(p["bill"]["paperless"]),
            "billing_cycle": current_cycle(p),
        },
        goals=[
            goal(
                "phones",
                "Please register the Pixel 8a and the Galaxy A35 I bought.",
                "Pixel 8a",
                "Galaxy A35",
            ),
            goal(
                "family",
                "Then put my phone and both new ones on Family Share 4 Lines instead of Unlimited.",
                "mobile_family_4lines",
            ),
            goal("autopay", "And turn on automatic payments, please.", "auto"),
        ],
        actions=[
            *reads,
            act("add_device", customer_id=p["id"], device_name="Pixel 8a"),
            act("add_device", customer_id=p["id"], device_name="Galaxy A35"),
            *switch(p, "mobile_unlimited", "mobile_family_4lines", old + new),
            act("get_billing_details", customer_id=p["id"]),
            act("manage_billing", **billing_options(p, auto_pay=True)),
        ],
    )


def t13_slow_cable(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ok = seed.residential(cid) and seed.has(cid, "internet_cable_200mb")
        return {} if ok and len(seed.ids_on(cid, "internet_cable_200mb")) == 1 else None

    p = seed.pick(plan)
    reads, known = identify(p, "phone")
    ids = seed.ids_on(p["id"], "internet_cable_200mb")
    router = seed.devices(p["id"], service="internet_cable_200mb")[0]["name"]
    return Draft(
        persona=f"{full_name(p)}, a game developer whose uploads crawl every evening.",
        reason="Slow cable internet: get tips, then move to Fiber 1 Gbps on the same router.",
        instruction=(
            f"You are {full_name(p)} (phone {known['phone']}). Your cable internet is very slow. Ask what "
            "you should try with your router, then have Cable Internet 200 Mbps replaced by Fiber Internet "
            "1 Gbps, keeping the router on the new plan."
        ),
        known={
            **known,
            "issue": "very slow internet",
            "current_plan": plan_name("internet_cable_200mb"),
            "wanted_plan": plan_name("internet_fiber_1gb"),
        },
        volunteered=["phone", "issue"],
        unknown=["plan ids"],
        discoverable={
            "customer_id": p["id"],
            "device_name": router,
            "service_id": "internet_cable_200mb and internet_fiber_1gb",
            "devices_ids": listed(ids),
        },
        goals=[
            goal(
                "tips",
                "My internet is crawling. What should I try with my router?",
                "speed test",
                kind="information",
            ),
            goal("upgrade", "Please switch me to Fiber Internet 1 Gbps.", "internet_fiber_1gb"),
        ],
        actions=[
            *reads,
            act("troubleshoot_device", device_name=router, issue="slow_speeds"),
            act("get_service_details", service_id="internet_fiber_1gb"),
            *switch(p, "internet_cable_200mb", "internet_fiber_1gb", ids),
        ],
        outputs=["speed test"],
    )


def t14_battery_ticket(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ticket, phones = seed.open_ticket(cid), seed.devices(cid, "mobile_phone")
        ok = seed.residential(cid) and seed.balance(cid) > 0 and ticket is not None and len(phones) == 1
        return {"ticket": ticket, "phone_device": phones[0]} if ok else None

    p = seed.pick(plan)
    reads, known = identify(p, "email")
    tid, device, amount = p["ticket"]["ticket_id"], p["phone_device"]["name"], p["bill"]["current_balance"]
    return Draft(
        persona=f"{full_name(p)}, a sales rep whose phone dies by lunchtime.",
        reason="Battery drain: get tips, move the open ticket to in progress and high, pay the balance.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). Your phone's battery drains within hours. Ask "
            f"for the troubleshooting tips. Your ticket {tid} about it should be set to in_progress with "
            "high priority. You also want to pay your full overdue balance by credit card."
        ),
        known={
            **known,
            "ticket_id": tid,
            "issue": "my phone battery drains within hours",
            "status": "in_progress",
            "priority": "high",
            "method": "credit card",
        },
        volunteered=["email", "ticket_id", "issue"],
        unknown=["balance owed"],
        discoverable={"customer_id": p["id"], "device_name": device, "amount": str(amount), "date": TODAY},
        goals=[
            goal("tips", "My battery is draining fast. What can I do?", "brightness", kind="information"),
            goal("ticket", f"Please set ticket {tid} to in progress with high priority.", tid, "in_progress"),
            goal("pay", "And I'll pay my full balance by credit card.", str(amount)),
        ],
        actions=[
            *reads,
            act("troubleshoot_device", device_name=device, issue="battery_drain"),
            act("get_support_ticket_details", ticket_id=tid),
            act("modify_support_ticket", ticket_id=tid, status="in_progress", priority="high"),
            act("get_billing_details", customer_id=p["id"]),
            pay_off(p, "credit_card"),
        ],
        outputs=["brightness"],
    )


def t15_business_phones(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ok = not seed.residential(cid) and not seed.has(cid, "phone_business_voip")
        return {} if ok and seed.cycle(cid) != "quarterly" else None

    p = seed.pick(plan)
    reads, known = identify(p, "email")
    new = [seed.next_device_id(p["id"]), seed.next_device_id(p["id"], 1)]
    return Draft(
        persona=f"{full_name(p)}, the office manager of a small architecture firm.",
        reason="Two new desk phones on Business VoIP lines, an installation ticket, and quarterly billing.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}), calling for your business account. You bought "
            "two Desk IP Phones: register both and add Business VoIP Phone Lines with both phones on it. "
            "Ask for a support ticket to set the phones up and get its number. Then switch to quarterly "
            "billing, other options unchanged."
        ),
        known={
            **known,
            "device_name": "Desk IP Phone (two of them)",
            "wanted_plan": plan_name("phone_business_voip"),
            "billing_cycle": "quarterly",
        },
        volunteered=["email", "device_name"],
        unknown=["priority", "category", "device ids"],
        discoverable={
            "customer_id": p["id"],
            "service_id": "phone_business_voip",
            "devices_ids": listed(new),
            "paperless": str(p["bill"]["paperless"]),
            "auto_pay": str(p["bill"]["auto_pay"]),
        },
        goals=[
            goal(
                "voip",
                "Please register our two new Desk IP Phones and add Business VoIP Phone Lines for them.",
                "Desk IP Phone",
                "phone_business_voip",
            ),
            goal("ticket", "What is the number of the setup ticket?", FIRST_NEW_TICKET, kind="information"),
            goal("cycle", "And we'd like quarterly billing.", "quarterly"),
        ],
        actions=[
            *reads,
            act("add_device", customer_id=p["id"], device_name="Desk IP Phone"),
            act("add_device", customer_id=p["id"], device_name="Desk IP Phone"),
            act(
                "manage_service",
                customer_id=p["id"],
                action="add",
                service_id="phone_business_voip",
                devices_ids=new,
            ),
            act("create_support_ticket", customer_id=p["id"], category="phone", priority="low"),
            act("get_billing_details", customer_id=p["id"]),
            act("manage_billing", **billing_options(p, billing_cycle="quarterly")),
        ],
        outputs=[FIRST_NEW_TICKET],
    )


def t16_senior_tv_quotes(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ok = seed.senior(cid) and seed.has(cid, "tv_essentials") and seed.ids_on(cid, "tv_essentials")
        return {} if ok and not seed.has(cid, "internet_fiber_5gb") else None

    p = seed.pick(plan)
    reads, known = identify(p, "phone")
    ids = seed.ids_on(p["id"], "tv_essentials")
    tv_price, net_price = SERVICES["tv_entertainment"][2], SERVICES["internet_fiber_5gb"][2]
    tv_quote, net_quote = money(tv_price - 5.0), money(net_price - 5.0)
    return Draft(
        persona=f"{full_name(p)}, a widowed retiree who likes to compare prices before deciding.",
        reason="Senior prices of TV Entertainment and Fiber 5 Gbps, then the TV upgrade on the same boxes.",
        instruction=(
            f"You are {full_name(p)} (phone {known['phone']}), a senior customer. Ask what TV Entertainment "
            "and Fiber Internet 5 Gbps would each cost you with the senior discount. After hearing both, you "
            "decide "
            "to upgrade only the TV: TV Essentials becomes TV Entertainment on the same equipment."
        ),
        known={
            **known,
            "quoted_plans": f"{plan_name('tv_entertainment')} and {plan_name('internet_fiber_5gb')}",
            "current_package": plan_name("tv_essentials"),
        },
        volunteered=["phone"],
        unknown=["plan prices", "plan ids"],
        discoverable={
            "customer_id": p["id"],
            "service_id": "tv_entertainment, internet_fiber_5gb and tv_essentials",
            "original_price": f"{money(tv_price)} and {money(net_price)}",
            "devices_ids": listed(ids),
        },
        goals=[
            goal(
                "quotes",
                "What would TV Entertainment and Fiber Internet 5 Gbps cost me with the senior discount?",
                tv_quote,
                net_quote,
                kind="information",
            ),
            goal(
                "upgrade", "I'll take TV Entertainment instead of TV Essentials, please.", "tv_entertainment"
            ),
        ],
        actions=[
            *reads,
            act("get_service_details", service_id="tv_entertainment"),
            act("get_senior_discount", original_price=money(tv_price)),
            act("get_service_details", service_id="internet_fiber_5gb"),
            act("get_senior_discount", original_price=money(net_price)),
            *switch(p, "tv_essentials", "tv_entertainment", ids),
        ],
        outputs=[tv_quote, net_quote],
    )


def t17_settle_everything(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ticket = seed.open_ticket(cid)
        ok = seed.balance(cid) > 0 and ticket is not None and not seed.billing[cid]["auto_pay"]
        return {"ticket": ticket} if ok else None

    p = seed.pick(plan)
    reads, known = identify(p, "email")
    ticket, amount = p["ticket"], p["bill"]["current_balance"]
    tid = ticket["ticket_id"]
    return Draft(
        persona=f"{full_name(p)}, who wants the account in order before a long trip abroad.",
        reason="Pay the balance, turn on automatic payments, and close an open ticket.",
        instruction=(
            f"You are {full_name(p)} (email {known['email']}). Before travelling you want your whole balance "
            "paid by credit card and automatic payments turned on, with the other billing options "
            f"unchanged. Your support ticket {tid} should be closed, its priority left as it is."
        ),
        known={
            **known,
            "ticket_id": tid,
            "method": "credit card",
            "auto_pay": "yes, turn automatic payments on",
            "status": "closed",
        },
        volunteered=["email", "ticket_id"],
        unknown=["balance owed"],
        discoverable={
            "customer_id": p["id"],
            "amount": str(amount),
            "date": TODAY,
            "paperless": str(p["bill"]["paperless"]),
            "billing_cycle": current_cycle(p),
            "priority": ticket["priority"],
        },
        goals=[
            goal("pay", "First, please pay off my whole balance with my credit card.", str(amount)),
            goal("autopay", "Then turn on automatic payments.", "auto"),
            goal("close", f"And close ticket {tid}; I won't need it.", tid, "closed"),
        ],
        actions=[
            *reads,
            act("get_billing_details", customer_id=p["id"]),
            pay_off(p, "credit_card"),
            act("manage_billing", **billing_options(p, auto_pay=True)),
            act("get_support_ticket_details", ticket_id=tid),
            act("modify_support_ticket", ticket_id=tid, status="closed", priority=ticket["priority"]),
        ],
    )


def t18_moving_out_security(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ok = seed.has(cid, "security_home_monitoring") and seed.balance(cid) > 0
        return {} if ok else None

    p = seed.pick(plan)
    reads, known = identify(p, "phone")
    amount = p["bill"]["current_balance"]
    return Draft(
        persona=f"{full_name(p)}, who is moving in with family after a hard year.",
        reason="Cancel home security monitoring, get a pick-up ticket for the kit, and pay what is owed.",
        instruction=(
            f"You are {full_name(p)} (phone {known['phone']}). You are moving out and want Home Security "
            "Monitoring cancelled, a support ticket for someone to collect the security kit (ask for its "
            "number), and your full balance paid by bank transfer."
        ),
        known={**known, "plan_to_cancel": plan_name("security_home_monitoring"), "method": "bank transfer"},
        volunteered=["phone"],
        unknown=["priority", "category", "balance owed"],
        discoverable={
            "customer_id": p["id"],
            "service_id": "security_home_monitoring",
            "amount": str(amount),
            "date": TODAY,
        },
        goals=[
            goal("cancel", "Please cancel my Home Security Monitoring.", "security_home_monitoring"),
            goal(
                "ticket",
                "What is the number of the ticket for collecting the kit?",
                FIRST_NEW_TICKET,
                kind="information",
            ),
            goal("pay", "And I'll pay everything I owe by bank transfer.", str(amount)),
        ],
        actions=[
            *reads,
            act(
                "manage_service", customer_id=p["id"], action="remove", service_id="security_home_monitoring"
            ),
            act("create_support_ticket", customer_id=p["id"], category="security", priority="low"),
            act("get_billing_details", customer_id=p["id"]),
            pay_off(p, "bank_transfer"),
        ],
        outputs=[FIRST_NEW_TICKET],
    )


def t19_new_tv(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        ok = seed.residential(cid) and not seed.category_services(cid, "tv")
        return {} if ok and seed.cycle(cid) != "quarterly" else None

    p = seed.pick(plan)
    reads, known = identify(p, "email")
    tv, new_id = '50" QLED TV', seed.next_device_id(p["id"])
    return Draft(
        persona=f"{full_name(p)}, who just bought a first television for the new flat.",
        reason="Register a new 50-inch QLED TV, start TV Entertainment on it, and move to quarterly billing.",
        instruction=(
            f'You are {full_name(p)} (email {known["email"]}). You bought a 50" QLED TV and want it '
            "registered and on a new TV Entertainment package. You would also like quarterly billing, other "
            "options unchanged."
        ),
        known={
            **known,
            "device_name": tv,
            "wanted_package": plan_name("tv_entertainment"),
            "billing_cycle": "quarterly",
        },
        volunteered=["email", "device_name"],
        unknown=["plan ids", "device ids"],
        discoverable={
            "customer_id": p["id"],
            "service_id": "tv_entertainment",
            "devices_ids": new_id,
            "paperless": str(p["bill"]["paperless"]),
            "auto_pay": str(p["bill"]["auto_pay"]),
        },
        goals=[
            goal(
                "tv",
                'Please register my new 50" QLED TV and start TV Entertainment on it.',
                "QLED TV",
                "tv_entertainment",
            ),
            goal("cycle", "And please bill me quarterly.", "quarterly"),
        ],
        actions=[
            *reads,
            act("get_device_details", device_name=tv),
            act("add_device", customer_id=p["id"], device_name=tv),
            act("get_service_details", service_id="tv_entertainment"),
            act(
                "manage_service",
                customer_id=p["id"],
                action="add",
                service_id="tv_entertainment",
                devices_ids=[new_id],
            ),
            act("get_billing_details", customer_id=p["id"]),
            act("manage_billing", **billing_options(p, billing_cycle="quarterly")),
        ],
    )


def t20_two_outages(seed: Seed) -> Draft:
    def plan(cid: str) -> Record | None:
        boxes, routers = seed.devices(cid, "tv"), seed.devices(cid, "networking")
        boxes = [d for d in boxes if d["name"] == "4K Streaming Box"]
        ok = seed.residential(cid) and seed.balance(cid) > 0 and len(boxes) == 1 and len(routers) == 1
        return {"box": boxes[0]["name"], "router": routers[0]["name"]} if ok else None

    p = seed.pick(plan)
    reads, known = identify(p, "phone")
    box, router, amount = p["box"], p["router"], p["bill"]["current_balance"]
    second = f"TICKET{int(FIRST_NEW_TICKET.removeprefix('TICKET')) + 1:03d}"
    return Draft(
        persona=f"{full_name(p)}, a night-shift security guard whose evening at home went wrong.",
        reason="No TV service and slow internet: troubleshoot both, a ticket for each, pay the bill.",
        instruction=(
            f"You are {full_name(p)} (phone {known['phone']}). Your TV shows no service through the "
            "streaming box and your internet is slow. Go through troubleshooting for both, and have a "
            "support ticket opened for each problem; ask for both ticket numbers. You also want to pay your "
            "full balance by bank transfer."
        ),
        known={
            **known,
            "issue": "no TV service and slow internet",
            "method": "bank transfer",
        },
        volunteered=["phone", "issue"],
        unknown=["priority", "category", "balance owed"],
        discoverable={
            "customer_id": p["id"],
            "device_name": f"{box} and {router}",
            "amount": str(amount),
            "date": TODAY,
        },
        goals=[
            goal(
                "tickets",
                "My TV has no service and my internet is slow. What are the ticket numbers?",
                FIRST_NEW_TICKET,
                second,
                kind="information",
            ),
            goal("pay", "And I want to pay my full balance by bank transfer.", str(amount)),
        ],
        actions=[
            *reads,
            act("troubleshoot_device", device_name=box, issue="no_service"),
            act("create_support_ticket", customer_id=p["id"], category="tv", priority="high"),
            act("troubleshoot_device", device_name=router, issue="slow_speeds"),
            act("create_support_ticket", customer_id=p["id"], category="internet", priority="medium"),
            act("get_billing_details", customer_id=p["id"]),
            pay_off(p, "bank_transfer"),
        ],
        outputs=[FIRST_NEW_TICKET, second],
    )


TASK_FUNCTIONS: list[Callable[[Seed], Draft]] = [
    t01_upgrade_and_clear_balance,
    t02_new_phone_new_line,
    t03_dead_phone,
    t04_tv_upgrade_quarterly,
    t05_escalate_outage,
    t06_ticket_fixed_new_phone_autopay,
    t07_senior_quote_and_plan,
    t08_home_security,
    t09_internet_downgrade,
    t10_cancel_tv,
    t11_partial_payment_dispute,
    t12_family_plan,
    t13_slow_cable,
    t14_battery_ticket,
    t15_business_phones,
    t16_senior_tv_quotes,
    t17_settle_everything,
    t18_moving_out_security,
    t19_new_tv,
    t20_two_outages,
]

# family, emotion, politeness, urgency, trust, how the user feels and behaves (one per task, in order)
EMOTIONS: list[tuple[str, str, str, str, str, str]] = [
    (
        "anger",
        "frustration",
        "cold",
        "high",
        "skeptical",
        "You are fed up with paying for a plan that keeps throttling you and with a bill that already "
        "looks wrong. You answer in clipped sentences and expect the agent to get something wrong, so you "
        "want every change stated back to you.",
    ),
    (
        "enjoyment",
        "excitement",
        "warm",
        "moderate",
        "trusting",
        "You are thrilled to be giving your teenager a first phone and it shows in how you talk. You are "
        "friendly and chatty and happy to let the agent handle the details.",
    ),
    (
        "fear",
        "desperation",
        "neutral",
        "high",
        "cautious",
        "You are desperate because patients cannot reach you while your phone is dead. You talk fast, push "
        "for speed and check that each step really happened.",
    ),
    (
        "enjoyment",
        "pride",
        "warm",
        "low",
        "trusting",
        "You are proud of the home cinema corner you have just finished and like to mention it. You are in "
        "no hurry, polite and glad to follow the agent's lead.",
    ),
    (
        "anger",
        "exasperation",
        "cold",
        "high",
        "skeptical",
        "You have reported this outage before and nothing happened, and you are at the end of your rope. "
        "You are curt, you want action right now, and you doubt the agent will follow through.",
    ),
    (
        "enjoyment",
        "relief",
        "warm",
        "low",
        "trusting",
        "You are relieved that the problem on your ticket is finally gone and in a generous mood. You take "
        "your time, thank the agent often and trust them completely.",
    ),
    (
        "sadness",
        "discouragement",
        "neutral",
        "low",
        "cautious",
        "You feel discouraged that everything seems to cost more every month. You speak slowly and a "
        "little flatly, and want each price explained before you agree to anything.",
    ),
    (
        "fear",
        "nervousness",
        "warm",
        "moderate",
        "cautious",
        "You are nervous about living alone in a new house and want the alarm sorted out soon. You are "
        "kind to the agent but ask them to confirm each step.",
    ),
    (
        "sadness",
        "helplessness",
        "neutral",
        "moderate",
        "trusting",
        "You feel helpless about your money situation and a bit embarrassed to be behind on the bill. You "
        "speak quietly and rely on the agent to tell you what to do.",
    ),
    (
        "disgust",
        "dislike",
        "cold",
        "moderate",
        "skeptical",
        "You dislike how much of the TV lineup is filler you never watch, and you are done paying for it. "
        "You are terse and expect the company to try to keep you on it.",
    ),
    (
        "anger",
        "bitterness",
        "neutral",
        "moderate",
        "skeptical",
        "You are bitter about a late fee you think you were charged unfairly. You stay civil but make "
        "little digs about the company and doubt anything will come of your complaint.",
    ),
    (
        "enjoyment",
        "peace",
        "warm",
        "low",
        "trusting",
        "You feel calm and content, sorting out the family phones on a quiet afternoon. You are warm and "
        "patient and happy to go at the agent's pace.",
    ),
    (
        "anger",
        "annoyance",
        "neutral",
        "high",
        "cautious",
        "You are annoyed that your uploads crawl every evening and you have a deadline tonight. You want "
        "it fixed quickly and listen carefully to what the agent proposes.",
    ),
    (
        "fear",
        "anxiety",
        "warm",
        "high",
        "trusting",
        "You are anxious that your phone will die while you are on the road tomorrow. You are polite but "
        "hurried, and you trust the agent to sort it out fast.",
    ),
    (
        "disgust",
        "distaste",
        "neutral",
        "low",
        "trusting",
        "You find the old office phones distasteful to use and are glad to see them go. You are matter of "
        "fact, unhurried and willing to go along with the agent.",
    ),
    (
        "sadness",
        "disappointment",
        "warm",
        "low",
        "trusting",
        "You are a little disappointed that prices have gone up since your late partner handled the bills. "
        "You are gentle and unhurried and trust the agent to explain things.",
    ),
    (
        "disgust",
        "aversion",
        "cold",
        "low",
        "skeptical",
        "You have an aversion to dealing with phone companies and want to spend as little time on this as "
        "possible. You are cold, watch for hidden charges and question anything that sounds like a sales "
        "pitch.",
    ),
    (
        "sadness",
        "sorrow",
        "neutral",
        "moderate",
        "cautious",
        "You are sad to be leaving the house you lived in for years. You speak softly and want each step "
        "explained before you say yes.",
    ),
    (
        "anger",
        "argumentativeness",
        "cold",
        "moderate",
        "cautious",
        "You are in a combative mood and push back on the first thing the agent says about the TV package. "
        "You are blunt, but you come round once things are explained clearly.",
    ),
    (
        "fear",
        "dread",
        "cold",
        "high",
        "skeptical",
        "You dread another evening with no TV and barely working internet, and you suspect the company is "
        "cutting you off over the bill. You are cold, want it handled immediately and trust nothing until "
        "you hear the ticket numbers.",
    ),
]


def to_task(number: int, draft: Draft, emotion: tuple[str, str, str, str, str, str]) -> Task:
    family, name, politeness, urgency, trust, behaviour = emotion
    task_id = f"telecom-{number:03d}"
    return Task(
        id=task_id,
        domain="telecom",
        user_scenario=UserScenario(
            persona=draft.persona,
            reason_for_call=draft.reason,
            known_info=draft.known,
            volunteered=draft.volunteered,
            unknown_info=draft.unknown,
            discoverable=draft.discoverable,
            goals=attach_targets(draft.goals, draft.actions, _write_tools()),
            preferences=draft.preferences,
        ),
        instruction=draft.instruction,
        emotion=Emotion(
            family=family,
            emotion=name,
            politeness=politeness,  # type: ignore[arg-type]
            urgency=urgency,  # type: ignore[arg-type]
            trust=trust,  # type: ignore[arg-type]
            instruction=behaviour,
        ),
        evaluation=Evaluation(actions=draft.actions, outputs=draft.outputs),
        twin=f"{task_id}-neutral",
        provenance=Provenance(source="hand-written", seed=SEED),
    )


def _write_tools() -> frozenset[str]:
    from taue.envs.telecom import DOMAIN

    return DOMAIN.write_tools


def build_tasks(seed: int = SEED) -> list[Task]:
    """The emotional tasks, each followed by its neutral twin."""
    data = Seed(seed)
    tasks = []
    for number, (function, emotion) in enumerate(zip(TASK_FUNCTIONS, EMOTIONS, strict=True), start=1):
        task = to_task(number, function(data), emotion)
        tasks.extend([task, neutral_twin(task)])
    return tasks


def argument_names(actions: list[Action]) -> list[str]:
    """Every argument name of the actions, nested ones too, once, in order of appearance."""
    names: list[str] = []

    def collect(arguments: dict[str, Any]) -> None:
        for name, value in arguments.items():
            if name not in names:
                names.append(name)
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, dict):
                    collect(item)

    for action in actions:
        collect(action.arguments)
    return names


def authoring_problems(task: Task) -> list[str]:
    """The authoring rules the task schema does not check itself."""
    scenario, names = task.user_scenario, set(argument_names(task.evaluation.actions))
    problems = []
    if len(scenario.discoverable) < 4:
        problems.append("fewer than 4 discoverable facts")
    problems += [
        f"discoverable {n!r} is no gold argument name" for n in scenario.discoverable if n not in names
    ]
    if not set(scenario.volunteered) & names:
        problems.append("no volunteered fact is a gold argument")
    return [f"task {task.id!r}: {p}" for p in problems]


def main() -> None:
    from taue.envs.runtime.task_checks import task_set_problems
    from taue.envs.telecom import DOMAIN

    tasks = build_tasks()
    problems = [p for task in tasks for p in authoring_problems(task)]
    problems += asyncio.run(task_set_problems(DOMAIN, tasks))
    if problems:
        raise SystemExit("tasks not written:\n" + "\n".join(problems))
    payload = [task.model_dump(mode="json") for task in tasks]
    TASKS_PATH.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    gold = [len(t.evaluation.actions) for t in tasks if t.emotion is not None]
    print(f"wrote {len(tasks)} tasks to {TASKS_PATH} ({sum(gold) / len(gold):.2f} gold actions per task)")


if __name__ == "__main__":
    main()
