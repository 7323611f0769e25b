"""Travel tools, part one: the tool set, every read, and the three booking writes with each of their
error paths (a failed call changes nothing). Changes, cancellations, insurance and claims are in
test_travel_tools_changes.py, which shares the seed helpers below."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from taue.envs.travel import DOMAIN
from taue.envs.travel.rules import TODAY, age_on, shift
from taue.envs.travel.seed_view import TravelView, load
from tests.envs.tool_harness import ToolHarness

Record = dict[str, Any]
WRITE_TOOLS = {
    "add_travel_insurance",
    "book_car_rental",
    "book_holiday_package",
    "book_hotel",
    "cancel_booking",
    "change_booking_dates",
    "file_insurance_claim",
}
READ_TOOLS = {
    "find_customer_id",
    "get_booking_details",
    "get_customer_details",
    "get_insurance_policy",
    "get_itinerary_details",
    "search_car_rentals",
    "search_holiday_packages",
    "search_hotels",
}

TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails
db = TOOLS.database_fixture()


@pytest.fixture(scope="module")
def seed() -> TravelView:
    return load(DOMAIN.seed)


def first(records: dict[str, Record] | list[Record], rule: Callable[[Record], bool]) -> Record:
    """The first record (in key order) the rule accepts."""
    items = [records[k] for k in sorted(records)] if isinstance(records, dict) else records
    for record in items:
        if rule(record):
            return record
    raise LookupError("no seed record fits")


def card_of(seed: TravelView, customer_id: str) -> str:
    return seed.cards(customer_id)[0][0]


def credit_of(seed: TravelView, customer_id: str) -> tuple[str, float] | None:
    methods = seed.customers[customer_id]["payment_methods"]
    return next(((k, m["balance"]) for k, m in sorted(methods.items()) if m["type"] == "travel_credit"), None)


def open_trip(seed: TravelView, rule: Callable[[Record], bool] = lambda c: True) -> tuple[Record, Record]:
    """(customer, one of their open itineraries) for a customer the rule accepts."""
    for customer_id, customer in sorted(seed.customers.items()):
        trips = seed.open_trips(customer_id)
        if trips and seed.cards(customer_id) and rule(customer):
            return customer, trips[0]
    raise LookupError("no open itinerary")


async def state(db) -> dict[str, Any]:
    return json.loads(db.canonical_state())


def rows_of(full: dict[str, Any], table: str) -> list[Record]:
    return full[table]


# --------------------------------------------------------------------------------------------- domain


def test_tool_set_and_kinds():
    assert set(DOMAIN.mcp_tools) == WRITE_TOOLS | READ_TOOLS | {
        "calculate",
        "think",
        "transfer_to_human_agents",
    }
    assert DOMAIN.write_tools == WRITE_TOOLS
    assert DOMAIN.terminal_tools == {"transfer_to_human_agents"}
    book = DOMAIN.mcp_tools["book_hotel"].parameters
    assert book["properties"]["rate"]["enum"] == ["flexible", "non_refundable"]
    claim = DOMAIN.mcp_tools["file_insurance_claim"].parameters
    assert claim["properties"]["category"]["enum"] == ["cancellation", "baggage", "medical", "delay"]
    assert all(DOMAIN.mcp_tools[name].description for name in DOMAIN.mcp_tools)


async def test_utility_tools_and_transfer(db):
    assert await ok(db, "calculate", expression="3 * (120 + 0.5)") == "361.5"
    assert await ok(db, "think", thought="the stay is flexible") == ""
    assert await ok(db, "transfer_to_human_agents", summary="wants a fee waived") == "Transfer successful"


# ---------------------------------------------------------------------------------------------- reads


async def test_find_customer_id_by_email_and_last_name(db, seed):
    customer = first(seed.customers, lambda c: True)
    found = await ok(
        db, "find_customer_id", email=customer["email"].upper(), last_name=customer["last_name"].lower()
    )
    assert json.loads(found) == {"customer_id": customer["customer_id"]}
    message = "no customer with that email and last name"
    await fails(db, "find_customer_id", message, email=customer["email"], last_name="Nobody")
    await fails(db, "find_customer_id", message, email="nobody@example.com", last_name=customer["last_name"])


async def test_get_customer_details_lists_itineraries_and_policies(db, seed):
    customer_id = first(seed.customers, lambda c: c["customer_id"] in seed.policies_of)["customer_id"]
    details = json.loads(await ok(db, "get_customer_details", customer_id=customer_id))
    assert details["email"] == seed.customers[customer_id]["email"]
    assert details["payment_methods"] == seed.customers[customer_id]["payment_methods"]
    assert [i["itinerary_id"] for i in details["itineraries"]] == seed.trips_of[customer_id]
    for trip in details["itineraries"]:
        assert trip["booking_ids"] == seed.itineraries[trip["itinerary_id"]]["booking_ids"]
    assert details["insurance_policy_ids"] == seed.policies_of[customer_id]
    await fails(db, "get_customer_details", "customer nobody_0000 not found", customer_id="nobody_0000")


async def test_get_itinerary_details_summarises_its_bookings(db, seed):
    trip = first(seed.itineraries, lambda i: len(i["booking_ids"]) > 1)
    details = json.loads(await ok(db, "get_itinerary_details", itinerary_id=trip["itinerary_id"]))
    assert details["title"] == trip["title"] and details["status"] == trip["status"]
    assert [b["booking_id"] for b in details["bookings"]] == trip["booking_ids"]
    booking = seed.bookings[trip["booking_ids"][0]]
    assert details["bookings"][0]["total_price"] == booking["total_price"]
    assert details["bookings"][0]["status"] == booking["status"]
    await fails(db, "get_itinerary_details", "itinerary ITN00000 not found", itinerary_id="ITN00000")


async def test_get_booking_details_returns_the_seed_record(db, seed):
    booking = first(seed.bookings, lambda b: b["policy_id"] is not None)
    assert json.loads(await ok(db, "get_booking_details", booking_id=booking["booking_id"])) == booking
    await fails(db, "get_booking_details", "booking BK000000 not found", booking_id="BK000000")


async def test_get_insurance_policy_lists_its_claims(db, seed):
    policy_id = sorted(seed.claims_of)[0]
    details = json.loads(await ok(db, "get_insurance_policy", policy_id=policy_id))
    assert details["plan"] == seed.policies[policy_id]["plan"]
    assert details["claims"] == seed.claims_of[policy_id]
    await fails(db, "get_insurance_policy", "insurance policy POL000000 not found", policy_id="POL000000")


async def test_search_hotels_prices_the_stay(db, seed):
    check_in, check_out = shift(TODAY, 10), shift(TODAY, 13)
    hotels = json.loads(await ok(db, "search_hotels", city="lisbon", check_in=check_in, check_out=check_out))
    assert {h["hotel_id"] for h in hotels} == {
        h["hotel_id"] for h in seed.hotels.values() if h["city"] == "Lisbon"
    }
    hotel = hotels[0]
    room = next(iter(hotel["rooms"].values()))
    assert hotel["nights"] == 3
    assert room["flexible_total"] == room["flexible"] * 3
    assert room["non_refundable_total"] == room["non_refundable"] * 3 < room["flexible_total"]
    await fails(
        db,
        "search_hotels",
        "no hotels found in Atlantis",
        city="Atlantis",
        check_in=check_in,
        check_out=check_out,
    )
    await fails(
        db,
        "search_hotels",
        "check_out must be 1 to 30 days after check_in",
        city="Lisbon",
        check_in=check_out,
        check_out=check_in,
    )
    await fails(
        db,
        "search_hotels",
        "check_in 'June 5' is not a date of the form YYYY-MM-DD",
        city="Lisbon",
        check_in="June 5",
        check_out=check_out,
    )


async def test_search_car_rentals_prices_the_rental(db, seed):
    pick_up, drop_off = shift(TODAY, 5), shift(TODAY, 9)
    offers = json.loads(
        await ok(db, "search_car_rentals", city="Rome", pick_up_date=pick_up, drop_off_date=drop_off)
    )
    assert {o["car_id"] for o in offers} == {c["car_id"] for c in seed.cars.values() if c["city"] == "Rome"}
    offer = offers[0]
    assert offer["days"] == 4 and offer["flexible_total"] == offer["daily_rate"] * 4
    assert offer["non_refundable_daily_rate"] == float(round(offer["daily_rate"] * 0.85))
    await fails(
        db,
        "search_car_rentals",
        "no car rentals found in Atlantis",
        city="Atlantis",
        pick_up_date=pick_up,
        drop_off_date=drop_off,
    )
    await fails(
        db,
        "search_car_rentals",
        "drop_off_date must be 1 to 28 days after pick_up_date",
        city="Rome",
        pick_up_date=pick_up,
        drop_off_date=shift(pick_up, 29),
    )


async def test_search_holiday_packages_lists_departures(db, seed):
    packages = json.loads(await ok(db, "search_holiday_packages", destination="Kyoto"))
    assert packages == [p for _, p in sorted(seed.packages.items()) if p["destination"] == "Kyoto"]
    assert all(len(p["departures"]) == 5 for p in packages)
    await fails(
        db, "search_holiday_packages", "no holiday packages found for Atlantis", destination="Atlantis"
    )


# ------------------------------------------------------------------------------------------- booking


def hotel_with_room(seed: TravelView, city: str, rule: Callable[[Record], bool]) -> tuple[Record, str]:
    for hotel in (h for _, h in sorted(seed.hotels.items()) if h["city"] == city):
        for kind, room in sorted(hotel["rooms"].items()):
            if rule(room):
                return hotel, kind
    raise LookupError(city)


def hotel_booking(customer: Record, trip: Record, hotel: Record, room: str, **extra: Any) -> Record:
    return {
        "customer_id": customer["customer_id"],
        "itinerary_id": trip["itinerary_id"],
        "hotel_id": hotel["hotel_id"],
        "room_type": room,
        "check_in": shift(TODAY, 20),
        "check_out": shift(TODAY, 23),
        "rate": "flexible",
        "payment_method_id": sorted(customer["payment_methods"])[0],
        **extra,
    }


async def test_book_hotel_creates_the_booking_in_the_itinerary(db, seed):
    customer, trip = open_trip(seed)
    hotel, room = hotel_with_room(seed, seed.city_of(trip), lambda r: r["rooms_left"] > 0)
    card = card_of(seed, customer["customer_id"])
    args = hotel_booking(customer, trip, hotel, room, rate="non_refundable", payment_method_id=card)
    booking = json.loads(await ok(db, "book_hotel", **args))
    assert booking["booking_id"] == f"BK{900000 + len(seed.bookings)}"
    assert booking["status"] == "confirmed" and booking["booked_at"] == DOMAIN.clock
    assert booking["total_price"] == hotel["rooms"][room]["non_refundable"] * 3
    assert booking["details"] == {
        "room_type": room,
        "nightly_rate": hotel["rooms"][room]["non_refundable"],
        "nights": 3,
        "guests": 1,
    }
    details = json.loads(await ok(db, "get_itinerary_details", itinerary_id=trip["itinerary_id"]))
    assert details["booking_ids"][-1] == booking["booking_id"]


async def test_book_hotel_with_travel_credit_takes_the_balance(db, seed):
    def affords_a_stay(customer: Record) -> bool:
        money = (credit_of(seed, customer["customer_id"]) or ("", 0.0))[1]
        trips = seed.open_trips(customer["customer_id"])
        hotels = [h for h in seed.hotels.values() if trips and h["city"] == seed.city_of(trips[0])]
        return any(
            r["rooms_left"] and r["flexible"] * 3 <= money for h in hotels for r in h["rooms"].values()
        )

    customer, trip = open_trip(seed, affords_a_stay)
    credit, balance = credit_of(seed, customer["customer_id"])
    hotel, room = hotel_with_room(
        seed, seed.city_of(trip), lambda r: r["rooms_left"] > 0 and r["flexible"] * 3 <= balance
    )
    booking = json.loads(
        await ok(db, "book_hotel", **hotel_booking(customer, trip, hotel, room, payment_method_id=credit))
    )
    details = json.loads(await ok(db, "get_customer_details", customer_id=customer["customer_id"]))
    assert details["payment_methods"][credit]["balance"] == round(balance - booking["total_price"], 2)


async def test_book_hotel_refusals_change_nothing(db, seed):
    customer, trip = open_trip(seed)
    cid, city = customer["customer_id"], seed.city_of(trip)
    hotel, room = hotel_with_room(seed, city, lambda r: r["rooms_left"] > 0)
    args = hotel_booking(customer, trip, hotel, room)
    await fails(db, "book_hotel", "customer nobody_0000 not found", **{**args, "customer_id": "nobody_0000"})
    await fails(db, "book_hotel", "itinerary ITN00000 not found", **{**args, "itinerary_id": "ITN00000"})
    other = first(seed.itineraries, lambda i: i["customer_id"] != cid)
    await fails(
        db,
        "book_hotel",
        f"itinerary {other['itinerary_id']} does not belong to customer {cid}",
        **{**args, "itinerary_id": other["itinerary_id"]},
    )
    closed_owner = first(seed.itineraries, lambda i: i["status"] == "closed")
    owner = seed.customers[closed_owner["customer_id"]]
    await fails(
        db,
        "book_hotel",
        f"itinerary {closed_owner['itinerary_id']} is closed; bookings can only be added "
        "to an open itinerary",
        **hotel_booking(owner, closed_owner, hotel, room),
    )
    await fails(db, "book_hotel", "hotel HTL9999 not found", **{**args, "hotel_id": "HTL9999"})
    await fails(
        db,
        "book_hotel",
        f"the start date {TODAY} must be after today ({TODAY})",
        **{**args, "check_in": TODAY},
    )
    await fails(
        db,
        "book_hotel",
        "a hotel booking lasts at most 30 nights, not 31",
        **{**args, "check_out": shift(args["check_in"], 31)},
    )
    await fails(
        db,
        "book_hotel",
        f"the end date {args['check_in']} must be after the start date {args['check_in']}",
        **{**args, "check_out": args["check_in"]},
    )
    kinds = ", ".join(sorted(hotel["rooms"]))
    await fails(
        db,
        "book_hotel",
        f"hotel {hotel['hotel_id']} has no 'penthouse' rooms (it has {kinds})",
        **{**args, "room_type": "penthouse"},
    )
    full, full_room = hotel_with_room(seed, city, lambda r: r["rooms_left"] == 0)
    await fails(
        db,
        "book_hotel",
        f"no '{full_room}' rooms are left at hotel {full['hotel_id']}",
        **{**args, "hotel_id": full["hotel_id"], "room_type": full_room},
    )
    await fails(
        db,
        "book_hotel",
        f"payment method card_0000000 is not on customer {cid}'s account",
        **{**args, "payment_method_id": "card_0000000"},
    )
    await fails(
        db,
        "book_hotel",
        "check_in '2025/07/01' is not a date of the form YYYY-MM-DD",
        **{**args, "check_in": "2025/07/01"},
    )


async def test_book_hotel_refuses_a_travel_credit_that_is_too_small(db, seed):
    customer, trip = open_trip(seed, lambda c: 0 < (credit_of(seed, c["customer_id"]) or ("", 0))[1] < 200)
    credit, balance = credit_of(seed, customer["customer_id"])
    hotel, room = hotel_with_room(seed, seed.city_of(trip), lambda r: r["rooms_left"] > 0)
    args = hotel_booking(customer, trip, hotel, room, payment_method_id=credit)
    total = hotel["rooms"][room]["flexible"] * 3
    await fails(
        db, "book_hotel", f"travel credit {credit} has ${balance:.2f}, less than the ${total:.2f} due", **args
    )


def car_offer(seed: TravelView, city: str, rule: Callable[[Record], bool]) -> Record:
    return first([c for _, c in sorted(seed.cars.items()) if c["city"] == city], rule)


async def test_book_car_rental_flexible_and_non_refundable(db, seed):
    customer, trip = open_trip(seed, lambda c: age_on(c["date_of_birth"], TODAY) >= 30)
    offer = car_offer(seed, seed.city_of(trip), lambda c: c["cars_left"] > 0)
    args = {
        "customer_id": customer["customer_id"],
        "itinerary_id": trip["itinerary_id"],
        "car_id": offer["car_id"],
        "pick_up_date": shift(TODAY, 12),
        "drop_off_date": shift(TODAY, 16),
        "rate": "flexible",
        "payment_method_id": card_of(seed, customer["customer_id"]),
    }
    flexible = json.loads(await ok(db, "book_car_rental", **args))
    assert flexible["kind"] == "car" and flexible["total_price"] == offer["daily_rate"] * 4
    assert flexible["details"]["days"] == 4 and flexible["end_date"] == args["drop_off_date"]
    cheaper = json.loads(await ok(db, "book_car_rental", **{**args, "rate": "non_refundable"}))
    assert cheaper["total_price"] == float(round(offer["daily_rate"] * 0.85)) * 4
    assert cheaper["booking_id"] == f"BK{900001 + len(seed.bookings)}"


async def test_book_car_rental_refusals_change_nothing(db, seed):
    young, trip = open_trip(seed, lambda c: age_on(c["date_of_birth"], shift(TODAY, 12)) < 25)
    city, cid = seed.city_of(trip), young["customer_id"]
    big = car_offer(seed, city, lambda c: c["min_driver_age"] == 25 and c["cars_left"] > 0)
    age = age_on(young["date_of_birth"], shift(TODAY, 12))
    args = {
        "customer_id": cid,
        "itinerary_id": trip["itinerary_id"],
        "car_id": big["car_id"],
        "pick_up_date": shift(TODAY, 12),
        "drop_off_date": shift(TODAY, 16),
        "rate": "flexible",
        "payment_method_id": card_of(seed, cid),
    }
    await fails(
        db,
        "book_car_rental",
        f"the driver must be at least 25 on the pick-up day to rent a "
        f"{big['car_class']} car; the customer will be {age}",
        **args,
    )
    await fails(db, "book_car_rental", "car offer CAR9999 not found", **{**args, "car_id": "CAR9999"})
    none_left = first(seed.cars, lambda c: c["cars_left"] == 0)
    await fails(
        db,
        "book_car_rental",
        f"no cars are left for offer {none_left['car_id']}",
        **{**args, "car_id": none_left["car_id"]},
    )
    small = car_offer(seed, city, lambda c: c["min_driver_age"] == 21 and c["cars_left"] > 0)
    await fails(
        db,
        "book_car_rental",
        "a car booking lasts at most 28 days, not 29",
        **{**args, "car_id": small["car_id"], "drop_off_date": shift(args["pick_up_date"], 29)},
    )
    await fails(
        db,
        "book_car_rental",
        f"payment method card_0000000 is not on customer {cid}'s account",
        **{**args, "car_id": small["car_id"], "payment_method_id": "card_0000000"},
    )
    assert json.loads(await ok(db, "book_car_rental", **{**args, "car_id": small["car_id"]}))["city"] == city


def package_in(seed: TravelView, city: str, seats: Callable[[int], bool]) -> tuple[Record, str]:
    for package in (p for _, p in sorted(seed.packages.items()) if p["destination"] == city):
        for departure, left in sorted(package["departures"].items()):
            if seats(left):
                return package, departure
    raise LookupError(city)


async def test_book_holiday_package_takes_the_seats(db, seed):
    customer, trip = open_trip(seed)
    package, departure = package_in(seed, seed.city_of(trip), lambda left: left >= 3)
    args = {
        "customer_id": customer["customer_id"],
        "itinerary_id": trip["itinerary_id"],
        "package_id": package["package_id"],
        "departure_date": departure,
        "travellers": 3,
        "payment_method_id": card_of(seed, customer["customer_id"]),
    }
    booking = json.loads(await ok(db, "book_holiday_package", **args))
    assert booking["total_price"] == package["price_per_person"] * 3 and booking["rate"] == "standard"
    assert booking["end_date"] == shift(departure, package["nights"])
    listed = json.loads(await ok(db, "search_holiday_packages", destination=package["destination"]))
    after = next(p for p in listed if p["package_id"] == package["package_id"])
    assert after["departures"][departure] == package["departures"][departure] - 3


async def test_book_holiday_package_refusals_change_nothing(db, seed):
    customer, trip = open_trip(seed)
    package, departure = package_in(seed, seed.city_of(trip), lambda left: left >= 2)
    pid = package["package_id"]
    args = {
        "customer_id": customer["customer_id"],
        "itinerary_id": trip["itinerary_id"],
        "package_id": pid,
        "departure_date": departure,
        "travellers": 2,
        "payment_method_id": card_of(seed, customer["customer_id"]),
    }
    listed = ", ".join(sorted(package["departures"]))
    await fails(
        db,
        "book_holiday_package",
        f"package {pid} does not depart on 2025-12-24 (departures: {listed})",
        **{**args, "departure_date": "2025-12-24"},
    )
    most = package["max_travellers"]
    await fails(
        db,
        "book_holiday_package",
        f"package {pid} takes 1 to {most} travellers",
        **{**args, "travellers": most + 1},
    )
    await fails(
        db, "book_holiday_package", f"package {pid} takes 1 to {most} travellers", **{**args, "travellers": 0}
    )
    await fails(
        db, "book_holiday_package", "holiday package PKG999 not found", **{**args, "package_id": "PKG999"}
    )
    empty, gone = package_in(seed, seed.city_of(trip), lambda left: left == 0)
    await fails(
        db,
        "book_holiday_package",
        f"only 0 seats are left on the {gone} departure of package {empty['package_id']}",
        **{**args, "package_id": empty["package_id"], "departure_date": gone},
    )
