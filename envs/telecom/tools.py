"""Telecom tools: the 18 published τ-Emotion-Bench telecom tools, same names, parameters and effects.

Behaviour follows the published telecom tool specification, quirks that decide the final database included
(ticket ids `TICKET` + count + 1 padded to 3 digits, device ids `str(len(devices) + 1)`,
`manage_billing` writing the billing record and never the customer's preferences, payments
clamping the balance at 0). Errors are `ToolError`s carrying the published message without its
`Error: ` prefix; unlike the original, a call that fails writes nothing.

The published environment names `transfer_to_human_support` as its conversation-ending tool but
never registers it, so it is not offered here either (calling it is an unknown-tool error).
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field, WithJsonSchema
from sqlmodel import col, func, select

from taue.envs.runtime.common_tools import calculate, think
from taue.envs.runtime.database import Store
from taue.envs.runtime.domain import writes
from taue.envs.runtime.money import cents
from taue.envs.telecom.models import Billing, Customer, Device, Service, SupportTicket
from taue.envs.telecom.rules import TICKET_CATEGORIES, TICKET_PRIORITIES

ISSUES = ("no_service", "slow_speeds", "battery_drain")

CustomerId = Annotated[str, Field(description="The customer's id, e.g. 'maya_okafor_1234'.")]
ServiceIdText = "A service id from the catalogue, e.g. 'mobile_unlimited' or 'internet_fiber_1gb'."
TicketId = Annotated[str, Field(description="The support ticket id exactly as issued, e.g. 'TICKET00042'.")]
DeviceName = Annotated[
    str,
    Field(
        description="A device model name from the device catalogue, exactly as written there, e.g. "
        "'Pixel 9', 'WiFi 6 Gateway' or '4K Streaming Box'."
    ),
]

# ---------------------------------------------------------------------------------------------- helpers


def _dump(value: Any) -> str:
    return json.dumps(value)


def _customer(db: Store, customer_id: str) -> Customer:
    return db.require(Customer, customer_id, f"Customer not found: {customer_id}")


def _billing(db: Store, customer_id: str) -> Billing:
    return db.require(Billing, customer_id, f"No billing information found for customer: {customer_id}")


def _number(value: Any, message: str) -> float:
    """`float(value)` as the original converts it, or a `ToolError` with `message`."""
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ToolError(message) from None


def _digits(text: str) -> str:
    return "".join(filter(str.isdigit, text))


# ---------------------------------------------------------------------------------------------- reads


async def find_customer_by_email(
    db: Store,
    email: Annotated[
        str, Field(description="The customer's email address, e.g. 'maya.okafor12@example.com'.")
    ],
) -> str:
    """Find a customer by email address (case-insensitive). Returns the bare customer id."""
    wanted = email.lower()
    stored = func.coalesce(func.json_extract(Customer.demographics, "$.email"), "")
    query = select(Customer.customer_id, stored).order_by(Customer.customer_id)
    if wanted.isascii():
        query = query.where(func.lower(stored) == wanted)  # SQLite's lower() folds ASCII letters only
    for customer_id, value in db.session.exec(query):
        if str(value).lower() == wanted:
            return customer_id
    raise ToolError(f"No customer found with email address: {email}")


async def find_customer_by_phone(
    db: Store,
    phone: Annotated[
        str, Field(description="The customer's phone number in any format, e.g. '(555) 301-2233'.")
    ],
) -> str:
    """Find a customer by phone number; only the digits are compared, so any formatting works. Returns
    the bare customer id."""
    wanted = _digits(phone)
    stored = func.coalesce(func.json_extract(Customer.demographics, "$.phone"), "")
    for customer_id, value in db.session.exec(
        select(Customer.customer_id, stored).order_by(Customer.customer_id)
    ):
        if _digits(str(value)) == wanted:
            return customer_id
    raise ToolError(f"No customer found with phone number: {phone}")


async def get_customer_details(db: Store, customer_id: CustomerId) -> str:
    """Get a customer's profile: name, date of birth, phone, email, address, account (number, type,
    payment method), service ids, devices (each with its device id, model name and the service it is
    on) and billing preferences."""
    return _dump(_customer(db, customer_id).to_record())


async def get_service_details(db: Store, service_id: Annotated[str, Field(description=ServiceIdText)]) -> str:
    """Get one service plan of the catalogue: id, name, category and monthly price."""
    return _dump(db.require(Service, service_id, f"Service not found: {service_id}").to_record())


async def get_services(db: Store) -> str:
    """List every service plan of the catalogue: a JSON object from service id to the plan's id, name,
    category and monthly price."""
    return _dump({row.service_id: row.to_record() for row in db.scan(Service)})


async def get_device_details(db: Store, device_name: DeviceName) -> str:
    """Get a device model of the catalogue: its category (mobile_phone, networking, tv, phone,
    security), manufacturer and model number."""
    return _dump(db.require(Device, device_name, f"Device not found: {device_name}").to_record())


async def get_billing_details(db: Store, customer_id: CustomerId) -> str:
    """Get a customer's billing account: account number, current balance, last payment, next bill
    date, monthly charges (per service id and fee), payment history and the auto-pay and paperless
    settings."""
    return _dump(_billing(db, customer_id).to_record())


async def get_support_ticket_details(db: Store, ticket_id: TicketId) -> str:
    """Get a support ticket: its customer, status and priority (and category, when it has one)."""
    return _dump(db.require(SupportTicket, ticket_id, f"Support ticket not found: {ticket_id}").to_record())


async def get_senior_discount(
    db: Store,
    original_price: Annotated[
        str | float,
        WithJsonSchema({"type": "string"}),
        Field(description="The plan's regular monthly price, e.g. '75.00'."),
    ],
) -> str:
    """Quote a plan's price with the fixed $5 senior discount taken off (never below zero). Returns the
    discounted price with two decimals. It changes nothing on the account."""
    price = _number(original_price, "original_price must be a number")
    return f"{max(price - 5.0, 0.0):.2f}"


_STEPS = {
    ("handset", "battery_drain"): (
        "Power the device off and on again",
        "Turn the screen brightness down",
        "Close apps running in the background",
        "Contact support if the problem continues",
    ),
    ("handset", "no_service"): (
        "Power the device off and on again",
        "Make sure you are inside the coverage area",
        "Reset the network settings",
        "Contact support if the problem continues",
    ),
    ("handset", "slow_speeds"): (
        "Power the device off and on again",
        "Check data usage against the plan's limits",
        "Reset the network settings",
        "Contact support if the problem continues",
    ),
    ("networking", "no_service"): (
        "Unplug the router, wait 30 seconds and plug it back in",
        "Check that every cable is firmly connected",
        "Install any available firmware update",
        "Contact support if the problem continues",
    ),
    ("networking", "slow_speeds"): (
        "Unplug the router, wait 30 seconds and plug it back in",
        "Check that every cable is firmly connected",
        "Run a speed test",
        "Contact support if the problem continues",
    ),
    ("tv", "no_service"): (
        "Make sure the right input or source is selected",
        "Check the cable connections",
        "Restart the set-top box",
        "Contact support if the problem continues",
    ),
}


async def troubleshoot_device(
    db: Store,
    device_name: DeviceName,
    issue: Annotated[
        str,
        Field(
            description="The problem: 'no_service', 'slow_speeds' or 'battery_drain'.",
            json_schema_extra={"enum": list(ISSUES)},
        ),
    ],
) -> str:
    """Get troubleshooting steps for a device model and an issue, to walk the customer through. It
    changes nothing on the account."""
    if issue not in ISSUES:
        raise ToolError(f"{issue!r} is not a valid Issue")
    device = db.require(Device, device_name, f"Device not found: {device_name}")
    kind = "handset" if device.category in ("mobile_phone", "phone") else device.category
    if kind == "tv" and issue != "no_service":
        raise ToolError("NO_SIGNAL")  # the original fails this way for every TV issue but no_service
    steps = _STEPS.get((kind, issue))
    if steps is None:
        return "Unknown issue"
    numbered = "".join(f"{number}) {step}\n" for number, step in enumerate(steps, start=1))
    return f"\nTroubleshooting steps:\n{numbered}"


# --------------------------------------------------------------------------------------------- writes


def _attach(customer: Customer, devices_ids: list[str], service_id: str) -> None:
    """Put each listed device on `service_id`, in order; an unknown id fails with the list as it stands."""
    devices = customer.devices
    for device_id in devices_ids:
        device = next((d for d in devices if d.get("device_id") == device_id), None)
        if device is None:
            raise ToolError(f"Device not found: {device_id} in devices {customer.ordered_devices()!r}")
        device["service"] = service_id


def _add_service(db: Store, customer: Customer, service_id: str, devices_ids: list[str] | None) -> str:
    service = db.require(Service, service_id, f"Service not found: {service_id}")
    if service_id in customer.services:
        raise ToolError(f"Customer {customer.customer_id} already has service: {service_id}")
    if devices_ids:
        _attach(customer, devices_ids, service_id)
    customer.services.append(service_id)
    db.save(customer)
    billing = db.get(Billing, customer.customer_id)
    if billing is not None:
        billing.monthly_charges[service_id] = service.price
        db.save(billing)
    return f"Success: Added service '{service.name}' to customer {customer.customer_id}"


def _remove_service(db: Store, customer: Customer, service_id: str) -> str:
    if service_id not in customer.services:
        raise ToolError(f"Customer {customer.customer_id} does not have service: {service_id}")
    detached = []
    for device in customer.devices:
        if device.get("service") == service_id:
            device["service"] = None
            detached.append(device.get("name"))
    customer.services.remove(service_id)
    db.save(customer)
    billing = db.get(Billing, customer.customer_id)
    if billing is not None:
        if service_id not in billing.monthly_charges:
            raise ToolError(f"'{service_id}'")
        del billing.monthly_charges[service_id]
        db.save(billing)
    service = db.get(Service, service_id)
    name = service.name if service is not None else service_id
    return (
        f"Success: Removed service '{name}' from customer {customer.customer_id}. "
        f"Devices {detached!r} are now no longer associated with the service."
    )


@writes
async def manage_service(
    db: Store,
    customer_id: CustomerId,
    action: Annotated[
        str, Field(description="'add' a service, 'remove' a service, or 'list' the customer's services.")
    ],
    service_id: Annotated[
        str | None,
        WithJsonSchema({"type": "string"}),
        Field(description=f"{ServiceIdText} Needed for 'add' and 'remove'."),
    ] = None,
    devices_ids: Annotated[
        list[str] | None,
        WithJsonSchema({"type": "array", "items": {"type": "string"}}),
        Field(
            description="With 'add': ids of the customer's own devices (e.g. ['1', '3'], as listed in the "
            "customer's details) to put on the new service; a device on another service is moved."
        ),
    ] = None,
) -> str:
    """Add a service to a customer's account, remove one, or list the customer's services.

    Adding puts the plan on the account and its price on the monthly charges, and moves the listed
    devices onto it. Removing takes the plan and its monthly charge off and leaves the devices that
    were on it without a service. To switch plans, remove the old one, then add the new one with the
    device ids that were on the old one. Confirm with the customer before adding or removing."""
    customer = _customer(db, customer_id)
    if action == "list":
        held = db.scan(Service, col(Service.service_id).in_(customer.services))
        rows = {row.service_id: row for row in held}
        listed = [rows[sid].to_record() for sid in customer.services if sid in rows]
        return _dump({"customer_id": customer_id, "services": listed})
    if not service_id:
        raise ToolError(f"Service ID is required for action: {action}")
    if action == "add":
        return _add_service(db, customer, service_id, devices_ids)
    if action == "remove":
        return _remove_service(db, customer, service_id)
    raise ToolError(f"Invalid action: {action}. Valid actions are: add, remove, list")


@writes
async def add_device(db: Store, customer_id: CustomerId, device_name: DeviceName) -> str:
    """Register a device the customer owns on their account, with no service yet. It gets the next
    device id (one more than the number of devices the customer has). Confirm with the customer
    first."""
    customer = _customer(db, customer_id)
    if db.get(Device, device_name) is None:
        raise ToolError(f"Invalid device name: {device_name}")
    customer.devices.append(
        {"device_id": str(len(customer.devices) + 1), "name": device_name, "service": None}
    )
    db.save(customer)
    return f"Success: Added device '{device_name}' to customer {customer_id}"


@writes
async def create_support_ticket(
    db: Store,
    customer_id: CustomerId,
    category: Annotated[
        str,
        Field(
            description="What the ticket is about: 'mobile', 'internet', 'tv', 'billing', 'account', "
            "'device', 'security' or 'phone'.",
            json_schema_extra={"enum": list(TICKET_CATEGORIES)},
        ),
    ],
    priority: Annotated[
        str,
        Field(
            description="'low' (not time-critical), 'medium' (standard, the default), 'high' (important) or "
            "'urgent' (critical, within 24 hours).",
            json_schema_extra={"enum": list(TICKET_PRIORITIES)},
        ),
    ] = "medium",
) -> str:
    """Open a support ticket for a customer. It starts with status 'open'. Open one ticket per issue,
    and confirm the category and priority with the customer first. Returns the new ticket id."""
    _customer(db, customer_id)
    if category not in TICKET_CATEGORIES:
        raise ToolError(f"Invalid category: {category}. Valid categories: {', '.join(TICKET_CATEGORIES)}")
    if priority not in TICKET_PRIORITIES:
        raise ToolError(f"Invalid priority: {priority}. Valid priorities: {', '.join(TICKET_PRIORITIES)}")
    ticket_id = f"TICKET{db.count(SupportTicket) + 1:03d}"
    fields = {"customer_id": customer_id, "status": "open", "priority": priority, "category": category}
    ticket = db.get(SupportTicket, ticket_id)  # taken when imported ids use the short padding too
    if ticket is None:
        ticket = SupportTicket(ticket_id=ticket_id, **fields)
    else:  # the original overwrites that record
        for name, value in fields.items():
            setattr(ticket, name, value)
    db.save(ticket)
    return f"Success: Created support ticket {ticket_id} for customer {customer_id}"


@writes
async def modify_support_ticket(
    db: Store,
    ticket_id: TicketId,
    status: Annotated[
        str, Field(description="The ticket's new status, e.g. 'open', 'in_progress', 'resolved' or 'closed'.")
    ],
    priority: Annotated[
        str, Field(description="The ticket's new priority: 'low', 'medium', 'high' or 'urgent'.")
    ],
) -> str:
    """Set a support ticket's status and priority (both are written; pass the current value to keep
    one). Confirm with the customer first."""
    ticket = db.require(SupportTicket, ticket_id, f"Support ticket not found: {ticket_id}")
    ticket.status, ticket.priority = status, priority
    db.save(ticket)
    return f"Success: Modified support ticket {ticket_id} with status {status} and priority {priority}"


@writes
async def manage_billing(
    db: Store,
    customer_id: CustomerId,
    paperless: Annotated[
        bool, Field(description="True for paperless (electronic) bills, false for paper bills.")
    ],
    auto_pay: Annotated[bool, Field(description="True to pay each bill automatically, false otherwise.")],
    billing_cycle: Annotated[
        str, Field(description="How often the customer is billed: 'monthly', 'quarterly' or 'annual'.")
    ],
) -> str:
    """Set a customer's billing options: paperless bills, automatic payment and billing cycle. All three
    are written; pass the current value of any option the customer does not want to change. Confirm
    with the customer first. Returns the updated billing account."""
    _customer(db, customer_id)
    billing = db.require(Billing, customer_id, f"'{customer_id}'")
    billing.paperless, billing.auto_pay, billing.billing_cycle = paperless, auto_pay, billing_cycle
    db.save(billing)
    return _dump({"customer_id": customer_id, "billing": billing.to_record()})


@writes
async def record_payment(
    db: Store,
    customer_id: CustomerId,
    amount: Annotated[
        float | str,
        WithJsonSchema({"type": "number"}),
        Field(description="The amount paid, in dollars, e.g. 52.4."),
    ],
    method: Annotated[str, Field(description="How the customer pays: 'credit_card' or 'bank_transfer'.")],
    date: Annotated[
        str, Field(description="The payment date as 'YYYY-MM-DD' (today, unless told otherwise).")
    ],
) -> str:
    """Record a payment on a customer's account: the balance goes down by the amount (never below
    zero; an overpayment is not kept as credit), and the payment is added to the history and becomes
    the last payment. Confirm the amount and method with the customer first. Returns the amount and
    the new balance."""
    billing = _billing(db, customer_id)
    paid = _number(amount, "amount must be a number")
    if not math.isfinite(paid):
        raise ToolError("amount must be a number")
    paid = cents(paid, "published")
    try:
        balance = float(billing.current_balance)
    except (TypeError, ValueError) as exc:
        raise ToolError(str(exc)) from None
    new_balance = max(cents(balance - paid, "published"), 0.0)
    billing.current_balance = new_balance
    billing.payment_history.append({"date": date, "amount": paid, "status": "completed"})
    billing.last_payment = {"amount": paid, "date": date, "method": method, "status": "completed"}
    db.save(billing)
    return _dump(
        {
            "customer_id": customer_id,
            "amount": f"{paid:.2f}",
            "method": method,
            "date": date,
            "current_balance": f"{new_balance:.2f}",
        }
    )


TOOLS = [
    add_device,
    calculate,
    create_support_ticket,
    find_customer_by_email,
    find_customer_by_phone,
    get_billing_details,
    get_customer_details,
    get_device_details,
    get_senior_discount,
    get_service_details,
    get_services,
    get_support_ticket_details,
    manage_billing,
    manage_service,
    modify_support_ticket,
    record_payment,
    think,
    troubleshoot_device,
]
