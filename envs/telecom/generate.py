"""Deterministic seed data for the telecom domain: our own plans, device models, customers and bills.

`generate(seed)` draws everything from one `random.Random(seed)`, so the same seed always gives the
same rows. Shapes and sizes follow the published telecom tables (a catalogue of about 15 plans and
19 device models, 500 customers with one billing record each, 240 support tickets) and their id
formats (`first_last_1234`, `ACC` + 9 digits, `TICKET00001`); names, plans, prices and values are
our own. Dates fit the domain clock, 2025-09-18: last payments fell in the month before it, next
bills in the month after.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import date
from typing import Any

from sqlmodel import SQLModel

from taue.envs.runtime.money import cents
from taue.envs.telecom import rules
from taue.envs.telecom.models import Billing, Customer, Device, Service, SupportTicket
from taue.envs.telecom.rules import SENIOR_BORN_BY

TODAY = date.fromisoformat(rules.TODAY)
CUSTOMER_COUNT = 500
TICKET_COUNT = 240

# service id | display name | category | monthly price
_SERVICE_TABLE = """
mobile_essentials | Essentials Mobile 5GB | mobile | 30.0
mobile_unlimited | Unlimited Mobile | mobile | 75.0
mobile_unlimited_plus | Unlimited Plus Mobile | mobile | 90.0
mobile_senior | Senior Mobile 65+ | mobile | 40.0
mobile_family_4lines | Family Share 4 Lines | mobile | 150.0
mobile_business_8lines | Business Mobile 8 Lines | mobile | 360.0
internet_dsl_50mb | DSL Internet 50 Mbps | internet | 30.0
internet_cable_200mb | Cable Internet 200 Mbps | internet | 45.0
internet_fiber_300mb | Fiber Internet 300 Mbps | internet | 50.0
internet_fiber_1gb | Fiber Internet 1 Gbps | internet | 75.0
internet_fiber_5gb | Fiber Internet 5 Gbps | internet | 130.0
tv_essentials | TV Essentials | tv | 40.0
tv_entertainment | TV Entertainment | tv | 70.0
tv_sports_addon | Sports Add-on | tv | 25.0
phone_business_voip | Business VoIP Phone Lines | phone | 120.0
security_home_monitoring | Home Security Monitoring | security | 35.0
"""

# catalogue name | category | manufacturer | model
_DEVICE_TABLE = """
iPhone 16 Pro | mobile_phone | Apple | A3293
iPhone 16 | mobile_phone | Apple | A3287
iPhone 14 | mobile_phone | Apple | A2649
Galaxy S24 | mobile_phone | Samsung | SM-S921U
Galaxy A35 | mobile_phone | Samsung | SM-A356U
Pixel 9 | mobile_phone | Google | GUR25
Pixel 8a | mobile_phone | Google | G6GPR
Moto G Power | mobile_phone | Motorola | XT2415
Nokia G42 | mobile_phone | HMD | TA-1581
WiFi 6 Gateway | networking | Linkwave | LW-G6
Mesh WiFi 7 Router | networking | Linkwave | LW-M7
Cable Modem Router | networking | Linkwave | LW-CM3
Business Router Pro | networking | Linkwave | LW-BRP
4K Streaming Box | tv | Signalcast | SC-4K2
50" QLED TV | tv | Vistara | VQ50-Q
65" OLED TV | tv | Vistara | VO65-X
Lobby Display TV | tv | Vistara | VD55-L
Desk IP Phone | phone | Polytel | PT-310
Smart Home Security Kit | security | Guardline | GL-HUB2
"""


def _rows(table: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.split("|")] for line in table.strip().splitlines()]


SERVICES = {sid: (name, category, float(price)) for sid, name, category, price in _rows(_SERVICE_TABLE)}
"""service id -> (display name, category, price)."""
DEVICES = {name: (category, maker, model) for name, category, maker, model in _rows(_DEVICE_TABLE)}
"""catalogue name -> (category, manufacturer, model)."""
PHONES = tuple(name for name, (category, _, _) in DEVICES.items() if category == "mobile_phone")

FIRST_NAMES = (
    "Adaeze", "Bastian", "Carys", "Dorian", "Elowen", "Fabian", "Giulia", "Henrik", "Ilse", "Jasper",
    "Kalani", "Lorenzo", "Marisol", "Nikolai", "Odette", "Percy", "Renata", "Silas", "Tova", "Ulric",
    "Valentina", "Wesley", "Xiomara", "Yannick", "Zuri", "Anouk", "Bodhi", "Cosima", "Desmond", "Esther",
    "Florian", "Gemma", "Harlan", "Isolde", "Jude", "Kiran", "Linnea", "Matteo", "Nell", "Orion",
)  # fmt: skip
LAST_NAMES = (
    "Achterberg", "Baptiste", "Cavanagh", "Dimitriou", "Ellingsen", "Fairweather", "Gutierrez",
    "Hallstrom", "Ibsen", "Jaramillo", "Kristiansen", "Lombardi", "Mwangi", "Nordin", "Oyelaran",
    "Prescott", "Rinaldi", "Sato", "Thorne", "Urquhart", "Vasconcelos", "Wexley", "Yamada", "Zamora",
    "Ashdown", "Blackwood", "Carraway", "Drummond", "Everly", "Fitzroy",
)  # fmt: skip
STREETS = (
    "Aspen Grove", "Bellflower Street", "Copper Ridge Road", "Driftwood Lane", "Evergreen Terrace",
    "Falcon Crest Drive", "Glenwood Avenue", "Hawthorn Way", "Ivy Bridge Road", "Jasmine Court",
    "Kingfisher Lane", "Lakeside Drive", "Meadowbrook Road", "Nightingale Way", "Oakmont Avenue",
)  # fmt: skip
CITIES = (
    ("Fort Collins", "CO", "805"), ("Eugene", "OR", "974"), ("Ann Arbor", "MI", "481"),
    ("Chattanooga", "TN", "374"), ("Santa Fe", "NM", "875"), ("Bozeman", "MT", "597"),
    ("Asheville", "NC", "288"), ("Flagstaff", "AZ", "860"), ("Duluth", "MN", "558"),
    ("Bellingham", "WA", "982"), ("Ithaca", "NY", "148"), ("Sarasota", "FL", "342"),
    ("Fresno", "CA", "937"), ("San Jose", "CA", "951"), ("Lubbock", "TX", "794"),
)  # fmt: skip
PAYMENT_METHODS = ("credit_card", "auto_pay_credit_card", "bank_transfer", "auto_pay_bank", "invoice")


def _pick_weighted(rng: random.Random, weights: Mapping[str, float]) -> str:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def _plan_services(rng: random.Random, business: bool, senior: bool) -> list[str]:
    """2-4 service ids, at most one base plan per category (plus the sports add-on)."""
    if business:
        mobile = _pick_weighted(rng, {"mobile_business_8lines": 7, "mobile_unlimited_plus": 3})
        services = [mobile, rng.choice(("internet_fiber_1gb", "internet_fiber_5gb"))]
        if rng.random() < 0.6:
            services.append("phone_business_voip")
        if rng.random() < 0.25:
            services.append("tv_essentials")
        return services[:4]
    mobile_weights = {
        "mobile_essentials": 3,
        "mobile_unlimited": 4,
        "mobile_unlimited_plus": 2,
        "mobile_family_4lines": 2,
    }
    if senior:
        mobile_weights["mobile_senior"] = 6
    services = [_pick_weighted(rng, mobile_weights)]
    internet = {
        "internet_dsl_50mb": 1,
        "internet_cable_200mb": 3,
        "internet_fiber_300mb": 3,
        "internet_fiber_1gb": 3,
        "internet_fiber_5gb": 1,
    }
    services.append(_pick_weighted(rng, internet))
    if rng.random() < 0.45:
        services.append(rng.choice(("tv_essentials", "tv_essentials", "tv_entertainment")))
        if rng.random() < 0.3:
            services.append("tv_sports_addon")
    if len(services) < 4 and rng.random() < 0.15:
        services.append("security_home_monitoring")
    return services


def _devices_for(rng: random.Random, service_id: str) -> list[str]:
    """Catalogue names of the equipment a customer has on one service."""
    if service_id == "mobile_family_4lines":
        return [rng.choice(PHONES) for _ in range(rng.randint(2, 4))]
    if service_id == "mobile_business_8lines":
        return [rng.choice(PHONES) for _ in range(rng.randint(3, 8))]
    if service_id.startswith("mobile_"):
        return [rng.choice(PHONES)]
    if service_id == "internet_fiber_5gb":
        return ["Mesh WiFi 7 Router"]
    if service_id.startswith("internet_cable"):
        return ["Cable Modem Router"]
    if service_id.startswith("internet_"):
        return [rng.choice(("WiFi 6 Gateway", "WiFi 6 Gateway", "Mesh WiFi 7 Router"))]
    if service_id in ("tv_essentials", "tv_entertainment"):
        boxes = ["4K Streaming Box"] * rng.randint(1, 2)
        return boxes + ([rng.choice(('50" QLED TV', '65" OLED TV'))] if rng.random() < 0.4 else [])
    if service_id == "phone_business_voip":
        return ["Desk IP Phone"] * rng.randint(1, 4)
    if service_id == "security_home_monitoring":
        return ["Smart Home Security Kit"]
    return []


def _device_list(rng: random.Random, services: list[str], business: bool) -> list[dict[str, Any]]:
    devices: list[dict[str, Any]] = []
    for service_id in services:
        names = _devices_for(rng, service_id)
        if business and service_id.startswith("internet_"):
            names = ["Business Router Pro"]
        if business and service_id == "tv_essentials":
            names = ["Lobby Display TV"]
        for name in names:
            devices.append({"device_id": str(len(devices) + 1), "name": name, "service": service_id})
    return devices


def _fees(
    rng: random.Random, services: list[str], devices: list[dict[str, Any]], late: bool
) -> dict[str, float]:
    fees: dict[str, float] = {}
    boxes = sum(device["name"] == "4K Streaming Box" for device in devices)
    if boxes:
        fees["streaming_box_rental"] = 7.5 * boxes
    if any(device["name"] == "WiFi 6 Gateway" for device in devices) and rng.random() < 0.6:
        fees["gateway_rental"] = 6.0
    if "mobile_senior" in services:
        fees["senior_discount"] = -5.0
    base = sum(SERVICES[sid][2] for sid in services) + sum(fees.values())
    fees["taxes_fees"] = cents(base * rng.uniform(0.06, 0.1))
    if late:
        fees["late_fee"] = 15.0
    return fees


def _months_before(day: date, months: int) -> date:
    month = day.month - months
    year = day.year + (month - 1) // 12
    return day.replace(year=year, month=(month - 1) % 12 + 1)


class _Unique:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def new(self, make: Any) -> str:
        while True:
            value = make()
            if value not in self.used:
                self.used.add(value)
                return value


def _customer_and_bill(rng: random.Random, unique: _Unique, index: int) -> tuple[Customer, Billing]:
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    customer_id = unique.new(lambda: f"{first.lower()}_{last.lower()}_{rng.randint(1000, 9999)}")
    born = date(rng.randint(1938, 2006), rng.randint(1, 12), rng.randint(1, 28)).isoformat()
    business = rng.random() < 0.15
    services = _plan_services(rng, business, born <= SENIOR_BORN_BY)
    devices = _device_list(rng, services, business)
    method = rng.choice(PAYMENT_METHODS if business else PAYMENT_METHODS[:4])
    auto_pay = method.startswith("auto_pay")
    paperless = rng.random() < 0.65
    city, state, zip_prefix = rng.choice(CITIES)
    unit = rng.random()
    account_number = f"ACC{3_000_000 + index:09d}"
    customer = Customer(
        customer_id=customer_id,
        name={"first_name": first, "last_name": last},
        demographics={
            "date_of_birth": born,
            "phone": unique.new(lambda: f"(555) {rng.randint(200, 999)}-{rng.randint(0, 9999):04d}"),
            "email": unique.new(lambda: f"{first.lower()}.{last.lower()}{rng.randint(10, 9999)}@example.com"),
        },
        address={
            "address1": f"{rng.randint(12, 9890)} {rng.choice(STREETS)}",
            "address2": ""
            if unit < 0.6
            else f"Apt {rng.randint(1, 40)}"
            if unit < 0.85
            else f"Unit {rng.randint(1, 9)}",
            "city": city,
            "state": state,
            "zip": f"{zip_prefix}{rng.randint(1, 99):02d}",
            "country": "USA",
        },
        account={
            "account_number": account_number,
            "account_type": "business" if business else "residential",
            "created_date": date(rng.randint(2014, 2025), rng.randint(1, 8), rng.randint(1, 28)).isoformat(),
            "credit_score": rng.randint(560, 835),
            "payment_method": method,
        },
        services=services,
        devices=devices,
        billing_preferences={"paperless": paperless, "auto_pay": auto_pay, "billing_cycle": "monthly"},
    )
    return customer, _bill(rng, customer, account_number, method, auto_pay, paperless)


def _bill(
    rng: random.Random, customer: Customer, account_number: str, method: str, auto_pay: bool, paperless: bool
) -> Billing:
    late = rng.random() < 0.1
    charges = {sid: SERVICES[sid][2] for sid in customer.services}
    charges.update(_fees(rng, customer.services, customer.devices, late))
    total = cents(sum(charges.values()))
    bill_day = rng.randint(1, 28)
    last_paid = (
        TODAY.replace(day=bill_day)
        if bill_day < TODAY.day
        else _months_before(TODAY, 1).replace(day=bill_day)
    )
    history = [
        {"date": _months_before(last_paid, back).isoformat(), "amount": total, "status": "completed"}
        for back in range(rng.choice((3, 4)))
    ]
    if late:
        history[0]["status"] = "late"
    return Billing(
        customer_id=customer.customer_id,
        account_number=account_number,
        current_balance=cents(total * rng.uniform(0.25, 1.0)) if late else 0.0,
        last_payment={
            "amount": total,
            "date": history[0]["date"],
            "method": method,
            "status": history[0]["status"],
        },
        next_bill_date=_months_before(last_paid, -1).isoformat(),
        monthly_charges=charges,
        payment_history=history,
        auto_pay=auto_pay,
        paperless=paperless,
    )


def _tickets(rng: random.Random, customers: list[Customer]) -> list[SupportTicket]:
    return [
        SupportTicket(
            ticket_id=f"TICKET{number:05d}",
            customer_id=rng.choice(customers).customer_id,
            status="open" if rng.random() < 0.3 else "closed",
            priority=_pick_weighted(rng, {"low": 1, "medium": 2, "high": 1}),
        )
        for number in range(1, TICKET_COUNT + 1)
    ]


def catalogue() -> list[SQLModel]:
    """The service and device catalogues (the same for every seed)."""
    services = [
        Service(service_id=sid, name=name, category=category, price=price)
        for sid, (name, category, price) in SERVICES.items()
    ]
    devices = [
        Device(device_name=name, category=category, manufacturer=maker, model=model)
        for name, (category, maker, model) in DEVICES.items()
    ]
    return [*services, *devices]


def generate(seed: int) -> list[SQLModel]:
    """All seed rows (catalogues, customers, billing records, tickets) for `seed`."""
    rng = random.Random(seed)
    unique = _Unique(rng)
    pairs = [_customer_and_bill(rng, unique, index) for index in range(CUSTOMER_COUNT)]
    customers = [customer for customer, _ in pairs]
    return [*catalogue(), *customers, *(bill for _, bill in pairs), *_tickets(rng, customers)]
