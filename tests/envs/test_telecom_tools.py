"""Telecom tools: published names, parameters and write semantics, quirks too; failed calls change nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from taue.envs.telecom import DOMAIN
from taue.envs.telecom.generate import SERVICES
from taue.envs.telecom.models import Billing, Customer, SupportTicket
from tests.envs.seed_rows import seed_rows
from tests.envs.tool_harness import ToolHarness

Record = dict[str, Any]
ROWS = seed_rows(DOMAIN)
CUSTOMERS: dict[str, Record] = {r.customer_id: r.to_record() for r in ROWS if isinstance(r, Customer)}
BILLING: dict[str, Record] = {r.customer_id: r.to_record() for r in ROWS if isinstance(r, Billing)}
TICKETS: dict[str, Record] = {r.ticket_id: r.to_record() for r in ROWS if isinstance(r, SupportTicket)}
KEYS = {
    "billing": "customer_id",
    "customers": "customer_id",
    "devices": "device_name",
    "services": "service_id",
    "support_tickets": "ticket_id",
}


TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails

db = TOOLS.database_fixture()


def state(db) -> dict[str, dict[str, Record]]:
    raw = json.loads(db.canonical_state())
    return {table: {row[KEYS[table]]: row for row in rows} for table, rows in raw.items()}


def customer_where(predicate: Callable[[str, Record], bool]) -> str:
    return next(cid for cid, c in sorted(CUSTOMERS.items()) if predicate(cid, c))


def on_service(customer: Record, service_id: str) -> list[str]:
    return [d["device_id"] for d in customer["devices"] if d["service"] == service_id]


def write_directly(db, edit: Callable[[Any], None]) -> None:
    """Set up a state the tools cannot reach (e.g. data imported from elsewhere)."""
    with db.transaction() as store:
        edit(store)


# ------------------------------------------------------------------------------------------ interface

PUBLISHED_PARAMETERS = {
    "add_device": ({"customer_id": "string", "device_name": "string"}, ["customer_id", "device_name"]),
    "calculate": ({"expression": "string"}, ["expression"]),
    "create_support_ticket": (
        {"customer_id": "string", "category": "string", "priority": "string"},
        ["category", "customer_id"],
    ),
    "find_customer_by_email": ({"email": "string"}, ["email"]),
    "find_customer_by_phone": ({"phone": "string"}, ["phone"]),
    "get_billing_details": ({"customer_id": "string"}, ["customer_id"]),
    "get_customer_details": ({"customer_id": "string"}, ["customer_id"]),
    "get_device_details": ({"device_name": "string"}, ["device_name"]),
    "get_senior_discount": ({"original_price": "string"}, ["original_price"]),
    "get_service_details": ({"service_id": "string"}, ["service_id"]),
    "get_services": ({}, []),
    "get_support_ticket_details": ({"ticket_id": "string"}, ["ticket_id"]),
    "manage_billing": (
        {"customer_id": "string", "paperless": "boolean", "auto_pay": "boolean", "billing_cycle": "string"},
        ["auto_pay", "billing_cycle", "customer_id", "paperless"],
    ),
    "manage_service": (
        {"customer_id": "string", "action": "string", "service_id": "string", "devices_ids": "array"},
        ["action", "customer_id"],
    ),
    "modify_support_ticket": (
        {"ticket_id": "string", "status": "string", "priority": "string"},
        ["priority", "status", "ticket_id"],
    ),
    "record_payment": (
        {"customer_id": "string", "amount": "number", "method": "string", "date": "string"},
        ["amount", "customer_id", "date", "method"],
    ),
    "think": ({"thought": "string"}, ["thought"]),
    "troubleshoot_device": ({"device_name": "string", "issue": "string"}, ["device_name", "issue"]),
}


def test_tools_match_the_published_interface():
    assert set(DOMAIN.mcp_tools) == set(PUBLISHED_PARAMETERS)
    for name, (parameters, required) in PUBLISHED_PARAMETERS.items():
        schema = DOMAIN.mcp_tools[name].parameters
        assert {k: v["type"] for k, v in schema["properties"].items()} == parameters, name
        assert sorted(schema.get("required", [])) == required, name
        assert DOMAIN.mcp_tools[name].description, name
        assert all(value.get("description") for value in schema["properties"].values()), name
    devices_ids = DOMAIN.mcp_tools["manage_service"].parameters["properties"]["devices_ids"]
    assert devices_ids["items"] == {"type": "string"}
    assert DOMAIN.write_tools == {
        "add_device",
        "create_support_ticket",
        "manage_billing",
        "manage_service",
        "modify_support_ticket",
        "record_payment",
    }


async def test_the_declared_transfer_tool_is_not_registered(db):
    """The published environment names transfer_to_human_support as terminating but never registers it."""
    assert DOMAIN.terminal_tools == frozenset()
    before = db.canonical_state()
    result = await call(db, "transfer_to_human_support", summary="wants a person")
    assert not result.ok and result.output.startswith("Unknown tool: transfer_to_human_support")
    assert db.canonical_state() == before


# ---------------------------------------------------------------------------------------------- reads


async def test_find_customer_by_email_ignores_case(db):
    customer_id, customer = sorted(CUSTOMERS.items())[5]
    email = customer["demographics"]["email"]
    assert await ok(db, "find_customer_by_email", email=email.upper()) == customer_id
    await fails(
        db,
        "find_customer_by_email",
        "No customer found with email address: nobody@example.com",
        email="nobody@example.com",
    )


async def test_find_customer_by_phone_compares_digits_only(db):
    customer_id, customer = sorted(CUSTOMERS.items())[9]
    phone = customer["demographics"]["phone"]
    digits = "".join(ch for ch in phone if ch.isdigit())
    assert await ok(db, "find_customer_by_phone", phone=phone) == customer_id
    assert (
        await ok(db, "find_customer_by_phone", phone=f"{digits[:3]}.{digits[3:6]}.{digits[6:]}")
        == customer_id
    )
    assert await ok(db, "find_customer_by_phone", phone=digits) == customer_id
    await fails(
        db,
        "find_customer_by_phone",
        "No customer found with phone number: (555) 000-0000",
        phone="(555) 000-0000",
    )


async def test_detail_readers_return_the_published_records(db):
    customer_id, customer = sorted(CUSTOMERS.items())[0]
    details = await ok(db, "get_customer_details", customer_id=customer_id)
    assert json.loads(details) == customer
    assert list(json.loads(details)) == [
        "customer_id",
        "name",
        "demographics",
        "address",
        "account",
        "services",
        "devices",
        "billing_preferences",
    ]
    assert json.loads(await ok(db, "get_billing_details", customer_id=customer_id)) == BILLING[customer_id]
    ticket_id, ticket = sorted(TICKETS.items())[3]
    assert json.loads(await ok(db, "get_support_ticket_details", ticket_id=ticket_id)) == ticket
    service = json.loads(await ok(db, "get_service_details", service_id="tv_entertainment"))
    assert service == {
        "service_id": "tv_entertainment",
        "name": "TV Entertainment",
        "category": "tv",
        "price": 70.0,
    }
    device = json.loads(await ok(db, "get_device_details", device_name='50" QLED TV'))
    assert device == {"category": "tv", "manufacturer": "Vistara", "model": "VQ50-Q"}
    catalogue = json.loads(await ok(db, "get_services"))
    assert list(catalogue) == sorted(SERVICES) and catalogue["mobile_senior"]["price"] == 40.0
    await fails(db, "get_customer_details", "Customer not found: nobody_0000", customer_id="nobody_0000")
    await fails(
        db,
        "get_billing_details",
        "No billing information found for customer: nobody_0000",
        customer_id="nobody_0000",
    )
    await fails(db, "get_support_ticket_details", "Support ticket not found: TICKET1", ticket_id="TICKET1")
    await fails(db, "get_service_details", "Service not found: tv_gold", service_id="tv_gold")
    await fails(db, "get_device_details", "Device not found: Pixel 1", device_name="Pixel 1")


async def test_senior_discount_takes_five_dollars_off(db):
    assert await ok(db, "get_senior_discount", original_price="95.00") == "90.00"
    assert await ok(db, "get_senior_discount", original_price=75) == "70.00"
    assert await ok(db, "get_senior_discount", original_price="3") == "0.00"
    await fails(db, "get_senior_discount", "original_price must be a number", original_price="cheap")


async def test_troubleshooting_depends_on_the_device_category(db):
    phone = await ok(db, "troubleshoot_device", device_name="Pixel 9", issue="battery_drain")
    assert (
        phone.startswith("\nTroubleshooting steps:\n1) ") and phone.endswith("\n") and "brightness" in phone
    )
    assert [line[:2] for line in phone.strip().splitlines()[1:]] == ["1)", "2)", "3)", "4)"]
    assert "speed test" in await ok(
        db, "troubleshoot_device", device_name="Cable Modem Router", issue="slow_speeds"
    )
    assert "Polytel" not in await ok(
        db, "troubleshoot_device", device_name="Desk IP Phone", issue="no_service"
    )
    assert (
        await ok(db, "troubleshoot_device", device_name="WiFi 6 Gateway", issue="battery_drain")
        == "Unknown issue"
    )
    assert (
        await ok(db, "troubleshoot_device", device_name="Smart Home Security Kit", issue="no_service")
        == "Unknown issue"
    )
    assert "input" in await ok(db, "troubleshoot_device", device_name="4K Streaming Box", issue="no_service")
    # A TV with any issue but no_service fails in the original (it refers to a missing issue member).
    await fails(db, "troubleshoot_device", "NO_SIGNAL", device_name='65" OLED TV', issue="slow_speeds")
    # The issue is checked before the device.
    await fails(
        db, "troubleshoot_device", "'flickering' is not a valid Issue", device_name="Nope", issue="flickering"
    )
    await fails(db, "troubleshoot_device", "Device not found: Nope", device_name="Nope", issue="no_service")


async def test_calculate_and_think(db):
    assert await ok(db, "calculate", expression="85.0 + 12.5 + -5.0") == "92.5"
    assert await ok(db, "think", thought="remove first, then add") == ""


# ------------------------------------------------------------------------------------------- services


async def test_manage_service_list_gives_full_records_in_the_customers_order(db):
    customer_id, customer = sorted(CUSTOMERS.items())[2]
    listing = json.loads(await ok(db, "manage_service", customer_id=customer_id, action="list"))
    assert listing["customer_id"] == customer_id
    assert [s["service_id"] for s in listing["services"]] == customer["services"]
    assert listing["services"][0]["price"] == SERVICES[customer["services"][0]][2]


async def test_add_service_moves_devices_and_charges_the_price(db):
    customer_id = customer_where(
        lambda _, c: "tv_sports_addon" not in c["services"] and "tv_essentials" in c["services"]
    )
    customer = CUSTOMERS[customer_id]
    moved = on_service(customer, "tv_essentials")[:1]
    output = await ok(
        db,
        "manage_service",
        customer_id=customer_id,
        action="add",
        service_id="tv_sports_addon",
        devices_ids=moved,
    )
    assert output == f"Success: Added service 'Sports Add-on' to customer {customer_id}"
    after = state(db)
    new_customer, bill = after["customers"][customer_id], after["billing"][customer_id]
    assert new_customer["services"] == [*customer["services"], "tv_sports_addon"]
    assert bill["monthly_charges"] == {**BILLING[customer_id]["monthly_charges"], "tv_sports_addon": 25.0}
    assert isinstance(bill["monthly_charges"]["tv_sports_addon"], float)
    # The device is moved silently; its old service stays on the account and on the bill.
    assert [d["service"] for d in new_customer["devices"] if d["device_id"] in moved] == ["tv_sports_addon"]
    assert "tv_essentials" in new_customer["services"] and "tv_essentials" in bill["monthly_charges"]
    assert bill["current_balance"] == BILLING[customer_id]["current_balance"]


async def test_remove_service_detaches_devices_and_drops_the_charge(db):
    customer_id = customer_where(lambda _, c: len(on_service(c, "internet_fiber_1gb")) == 1)
    customer = CUSTOMERS[customer_id]
    name = next(d["name"] for d in customer["devices"] if d["service"] == "internet_fiber_1gb")
    output = await ok(
        db, "manage_service", customer_id=customer_id, action="remove", service_id="internet_fiber_1gb"
    )
    assert output == (
        f"Success: Removed service 'Fiber Internet 1 Gbps' from customer {customer_id}. "
        f"Devices [{name!r}] are now no longer associated with the service."
    )
    after = state(db)
    assert "internet_fiber_1gb" not in after["customers"][customer_id]["services"]
    assert "internet_fiber_1gb" not in after["billing"][customer_id]["monthly_charges"]
    detached = [d for d in after["customers"][customer_id]["devices"] if d["name"] == name]
    assert detached[0]["service"] is None and len(after["customers"][customer_id]["devices"]) == len(
        customer["devices"]
    )


async def test_switching_plans_is_remove_then_add_with_the_same_devices(db):
    customer_id = customer_where(lambda _, c: len(on_service(c, "mobile_unlimited")) == 1)
    ids = on_service(CUSTOMERS[customer_id], "mobile_unlimited")
    await ok(db, "manage_service", customer_id=customer_id, action="remove", service_id="mobile_unlimited")
    await ok(
        db,
        "manage_service",
        customer_id=customer_id,
        action="add",
        service_id="mobile_senior",
        devices_ids=ids,
    )
    after = state(db)
    assert after["customers"][customer_id]["services"][-1] == "mobile_senior"
    assert [d["service"] for d in after["customers"][customer_id]["devices"] if d["device_id"] in ids] == [
        "mobile_senior"
    ]
    assert after["billing"][customer_id]["monthly_charges"]["mobile_senior"] == 40.0


async def test_manage_service_errors_write_nothing(db):
    customer_id, customer = sorted(CUSTOMERS.items())[1]
    owned, missing = customer["services"][0], next(s for s in SERVICES if s not in customer["services"])
    await fails(
        db, "manage_service", "Customer not found: ghost_0000", customer_id="ghost_0000", action="list"
    )
    await fails(
        db, "manage_service", "Service ID is required for action: add", customer_id=customer_id, action="add"
    )
    await fails(
        db,
        "manage_service",
        "Service ID is required for action: upgrade",
        customer_id=customer_id,
        action="upgrade",
        service_id="",
    )
    await fails(
        db,
        "manage_service",
        "Invalid action: suspend. Valid actions are: add, remove, list",
        customer_id=customer_id,
        action="suspend",
        service_id=owned,
    )
    await fails(
        db,
        "manage_service",
        "Service not found: tv_gold",
        customer_id=customer_id,
        action="add",
        service_id="tv_gold",
    )
    await fails(
        db,
        "manage_service",
        f"Customer {customer_id} already has service: {owned}",
        customer_id=customer_id,
        action="add",
        service_id=owned,
    )
    await fails(
        db,
        "manage_service",
        f"Customer {customer_id} does not have service: {missing}",
        customer_id=customer_id,
        action="remove",
        service_id=missing,
    )


async def test_a_bad_device_id_rolls_back_the_devices_moved_before_it(db):
    """The original keeps the devices moved before the bad id; we roll the whole call back. The
    message still shows the device list as the original has it at that moment (first device moved)."""
    customer_id, customer = sorted(CUSTOMERS.items())[4]
    missing = next(s for s in SERVICES if s not in customer["services"])
    moved = [{**d, "service": missing} if d["device_id"] == "1" else d for d in customer["devices"]]
    await fails(
        db,
        "manage_service",
        f"Device not found: 99 in devices {moved!r}",
        customer_id=customer_id,
        action="add",
        service_id=missing,
        devices_ids=["1", "99"],
    )


async def test_removing_a_service_outside_the_catalogue_uses_its_id_as_name(db):
    customer_id = sorted(CUSTOMERS)[6]

    def legacy(store) -> None:
        customer, bill = store.get(Customer, customer_id), store.get(Billing, customer_id)
        customer.services.append("legacy_dialup")
        bill.monthly_charges["legacy_dialup"] = 9.99
        store.save(customer)
        store.save(bill)

    write_directly(db, legacy)
    output = await ok(
        db, "manage_service", customer_id=customer_id, action="remove", service_id="legacy_dialup"
    )
    assert output.startswith(
        f"Success: Removed service 'legacy_dialup' from customer {customer_id}. Devices []"
    )


async def test_removing_a_service_without_a_charge_fails_and_rolls_back(db):
    """The original detaches devices and drops the service, then fails on the missing charge."""
    customer_id, customer = sorted(CUSTOMERS.items())[7]
    service_id = customer["services"][0]

    def drop_charge(store) -> None:
        bill = store.get(Billing, customer_id)
        del bill.monthly_charges[service_id]
        store.save(bill)

    write_directly(db, drop_charge)
    await fails(
        db,
        "manage_service",
        f"'{service_id}'",
        customer_id=customer_id,
        action="remove",
        service_id=service_id,
    )


# -------------------------------------------------------------------------------------------- devices


async def test_add_device_takes_the_next_id_without_a_service(db):
    customer_id, customer = sorted(CUSTOMERS.items())[8]
    output = await ok(db, "add_device", customer_id=customer_id, device_name='65" OLED TV')
    assert output == f"Success: Added device '65\" OLED TV' to customer {customer_id}"
    devices = state(db)["customers"][customer_id]["devices"]
    assert devices[:-1] == customer["devices"]
    assert devices[-1] == {
        "device_id": str(len(customer["devices"]) + 1),
        "name": '65" OLED TV',
        "service": None,
    }
    await fails(
        db, "add_device", "Invalid device name: Walkman", customer_id=customer_id, device_name="Walkman"
    )
    await fails(
        db, "add_device", "Customer not found: ghost_0000", customer_id="ghost_0000", device_name="Pixel 9"
    )


async def test_add_device_ids_come_from_the_list_length_and_may_repeat(db):
    customer_id, customer = sorted(CUSTOMERS.items())[10]

    def drop_first(store) -> None:
        row = store.get(Customer, customer_id)
        row.devices = row.devices[1:]
        store.save(row)

    write_directly(db, drop_first)
    await ok(db, "add_device", customer_id=customer_id, device_name="Pixel 9")
    ids = [d["device_id"] for d in state(db)["customers"][customer_id]["devices"]]
    assert ids[-1] == str(len(customer["devices"])) and ids.count(ids[-1]) == 2


# -------------------------------------------------------------------------------------------- tickets


async def test_new_tickets_count_from_the_table_size_with_three_digit_padding(db):
    customer_id = sorted(CUSTOMERS)[11]
    assert await ok(db, "create_support_ticket", customer_id=customer_id, category="internet") == (
        f"Success: Created support ticket TICKET241 for customer {customer_id}"
    )
    await ok(db, "create_support_ticket", customer_id=customer_id, category="billing", priority="urgent")
    tickets = state(db)["support_tickets"]
    assert tickets["TICKET241"] == {
        "ticket_id": "TICKET241",
        "customer_id": customer_id,
        "status": "open",
        "priority": "medium",
        "category": "internet",
    }
    assert tickets["TICKET242"]["priority"] == "urgent" and len(tickets) == 242
    assert tickets["TICKET00001"]["category"] is None  # seed tickets have none


async def test_a_new_ticket_id_that_is_taken_overwrites_that_ticket(db):
    """Ids depend only on the ticket count, so after a deletion the next id can exist already."""
    customer_id = sorted(CUSTOMERS)[18]

    def take_next_id(store) -> None:
        store.session.add(
            SupportTicket(ticket_id="TICKET241", customer_id="someone_else", status="closed", priority="low")
        )
        store.session.delete(store.get(SupportTicket, "TICKET00001"))

    write_directly(db, take_next_id)
    await ok(db, "create_support_ticket", customer_id=customer_id, category="tv", priority="high")
    tickets = state(db)["support_tickets"]
    assert len(tickets) == 240
    assert tickets["TICKET241"] == {
        "ticket_id": "TICKET241",
        "customer_id": customer_id,
        "status": "open",
        "priority": "high",
        "category": "tv",
    }


async def test_create_ticket_errors_write_nothing(db):
    customer_id = sorted(CUSTOMERS)[12]
    categories = "mobile, internet, tv, billing, account, device, security, phone"
    await fails(
        db, "create_support_ticket", "Customer not found: ghost_0000", customer_id="ghost_0000", category="tv"
    )
    await fails(
        db,
        "create_support_ticket",
        f"Invalid category: roaming. Valid categories: {categories}",
        customer_id=customer_id,
        category="roaming",
        priority="asap",
    )
    await fails(
        db,
        "create_support_ticket",
        "Invalid priority: asap. Valid priorities: low, medium, high, urgent",
        customer_id=customer_id,
        category="tv",
        priority="asap",
    )


async def test_modify_ticket_writes_any_status_and_priority(db):
    ticket_id = sorted(TICKETS)[20]
    output = await ok(
        db, "modify_support_ticket", ticket_id=ticket_id, status="waiting_on_customer", priority="whenever"
    )
    expected = f"Success: Modified support ticket {ticket_id} with status waiting_on_customer and priority "
    assert output == expected + "whenever"
    ticket = state(db)["support_tickets"][ticket_id]
    assert (ticket["status"], ticket["priority"]) == ("waiting_on_customer", "whenever")
    assert ticket["customer_id"] == TICKETS[ticket_id]["customer_id"]
    await fails(
        db,
        "modify_support_ticket",
        "Support ticket not found: TICKET241",
        ticket_id="TICKET241",
        status="open",
        priority="low",
    )


# -------------------------------------------------------------------------------------------- billing


async def test_manage_billing_writes_the_billing_record_not_the_preferences(db):
    customer_id, customer = sorted(CUSTOMERS.items())[13]
    output = json.loads(
        await ok(
            db,
            "manage_billing",
            customer_id=customer_id,
            paperless=False,
            auto_pay=True,
            billing_cycle="annual",
        )
    )
    after = state(db)
    bill = after["billing"][customer_id]
    assert (bill["paperless"], bill["auto_pay"], bill["billing_cycle"]) == (False, True, "annual")
    assert output == {
        "customer_id": customer_id,
        "billing": {**BILLING[customer_id], "paperless": False, "auto_pay": True, "billing_cycle": "annual"},
    }
    assert list(output["billing"])[-1] == "billing_cycle"
    assert after["customers"][customer_id]["billing_preferences"] == customer["billing_preferences"]
    await ok(
        db,
        "manage_billing",
        customer_id=customer_id,
        paperless=True,
        auto_pay=False,
        billing_cycle="fortnightly",
    )
    assert state(db)["billing"][customer_id]["billing_cycle"] == "fortnightly"  # not validated


async def test_manage_billing_errors_write_nothing(db):
    await fails(
        db,
        "manage_billing",
        "Customer not found: ghost_0000",
        customer_id="ghost_0000",
        paperless=True,
        auto_pay=True,
        billing_cycle="monthly",
    )
    customer_id = sorted(CUSTOMERS)[14]

    def drop_bill(store) -> None:
        store.session.delete(store.get(Billing, customer_id))

    write_directly(db, drop_bill)
    await fails(
        db,
        "manage_billing",
        f"'{customer_id}'",
        customer_id=customer_id,
        paperless=True,
        auto_pay=True,
        billing_cycle="monthly",
    )


async def test_record_payment_lowers_the_balance_and_replaces_the_last_payment(db):
    customer_id = customer_where(lambda cid, _: BILLING[cid]["current_balance"] > 30)
    bill = BILLING[customer_id]
    output = json.loads(
        await ok(
            db,
            "record_payment",
            customer_id=customer_id,
            amount="20.004",
            method="bank_transfer",
            date="2025-09-18",
        )
    )
    left = round(bill["current_balance"] - 20.0, 2)
    assert output == {
        "customer_id": customer_id,
        "amount": "20.00",
        "method": "bank_transfer",
        "date": "2025-09-18",
        "current_balance": f"{left:.2f}",
    }
    after = state(db)["billing"][customer_id]
    assert after["current_balance"] == left
    assert after["payment_history"] == [
        *bill["payment_history"],
        {"date": "2025-09-18", "amount": 20.0, "status": "completed"},
    ]
    assert after["last_payment"] == {
        "amount": 20.0,
        "date": "2025-09-18",
        "method": "bank_transfer",
        "status": "completed",
    }


async def test_overpayment_clamps_the_balance_at_zero_as_a_float(db):
    customer_id = customer_where(lambda cid, _: BILLING[cid]["current_balance"] == 0)
    output = json.loads(
        await ok(
            db, "record_payment", customer_id=customer_id, amount=50, method="credit_card", date="2025-09-18"
        )
    )
    assert output["current_balance"] == "0.00" and output["amount"] == "50.00"
    after = state(db)["billing"][customer_id]
    assert after["current_balance"] == 0.0 and type(after["current_balance"]) is float
    assert type(after["last_payment"]["amount"]) is float


async def test_record_payment_errors_write_nothing(db):
    customer_id = sorted(CUSTOMERS)[15]
    await fails(
        db,
        "record_payment",
        "No billing information found for customer: ghost_0000",
        customer_id="ghost_0000",
        amount="abc",
        method="credit_card",
        date="2025-09-18",
    )
    for amount in ("abc", "nan", "inf"):
        await fails(
            db,
            "record_payment",
            "amount must be a number",
            customer_id=customer_id,
            amount=amount,
            method="credit_card",
            date="2025-09-18",
        )


async def test_wrong_argument_types_are_refused_without_writing(db):
    customer_id = sorted(CUSTOMERS)[16]
    before = db.canonical_state()
    for name, arguments in [
        (
            "manage_service",
            {"customer_id": customer_id, "action": "add", "service_id": "tv_essentials", "devices_ids": "1"},
        ),
        (
            "manage_billing",
            {
                "customer_id": customer_id,
                "paperless": "sometimes",
                "auto_pay": True,
                "billing_cycle": "annual",
            },
        ),
        (
            "record_payment",
            {"customer_id": customer_id, "amount": None, "method": "credit_card", "date": "2025-09-18"},
        ),
        ("create_support_ticket", {"customer_id": customer_id}),
    ]:
        result = await call(db, name, **arguments)
        assert not result.ok, name
    assert db.canonical_state() == before


async def test_successful_writes_are_logged_as_writes(db):
    customer_id = sorted(CUSTOMERS)[17]
    listing = await call(db, "manage_service", customer_id=customer_id, action="list")
    assert listing.ok and listing.writes  # list goes through the write tool; it changes nothing
    assert (await call(db, "get_billing_details", customer_id=customer_id)).writes is False
