"""Airline tools: write semantics, error paths that change nothing, published quirks, read outputs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from taue.envs.airline import DOMAIN
from taue.envs.airline.generate import generate
from taue.envs.airline.models import Flight, Reservation, User
from tests.envs.tool_harness import ToolHarness

WRITE_TOOLS = {
    "book_reservation",
    "cancel_reservation",
    "send_certificate",
    "update_reservation_baggages",
    "update_reservation_flights",
    "update_reservation_passengers",
}


@pytest.fixture(scope="module")
def seed() -> dict[str, dict[str, Any]]:
    """Seed records by table, as published (users keyed by user id)."""
    tables: dict[str, dict[str, Any]] = {"flights": {}, "users": {}, "reservations": {}}
    for row in generate(DOMAIN.seed):
        if isinstance(row, Flight):
            tables["flights"][row.flight_number] = row.to_record()
        elif isinstance(row, User):
            tables["users"][row.user_id] = row.to_record()
        elif isinstance(row, Reservation):
            tables["reservations"][row.reservation_id] = row.to_record()
    return tables


TOOLS = ToolHarness(DOMAIN)
call, ok, fails = TOOLS.call, TOOLS.ok, TOOLS.fails

db = TOOLS.database_fixture()


async def reservation(db, reservation_id: str) -> dict[str, Any]:
    return json.loads(await ok(db, "get_reservation_details", reservation_id=reservation_id))


async def user(db, user_id: str) -> dict[str, Any]:
    return json.loads(await ok(db, "get_user_details", user_id=user_id))


def flights_text(db) -> str:
    return json.dumps(json.loads(db.canonical_state())["flights"])


# ---------------------------------------------------------------------------------------------
# finding entities in the seed


def methods_of(record: dict[str, Any], source: str) -> list[dict[str, Any]]:
    return [m for _, m in sorted(record["payment_methods"].items()) if m["source"] == source]


def user_with(seed, *sources: str, minimum: int = 1) -> tuple[str, dict[str, Any]]:
    """A user holding every source (balances of gift cards and certificates at least `minimum`)."""
    for user_id, record in sorted(seed["users"].items()):
        found = [methods_of(record, s) for s in sources]
        if all(found) and all(m[0].get("amount", minimum) >= minimum for m in found):
            return user_id, record
    raise LookupError(sources)


def open_seat(seed, cabin: str = "economy", seats: int = 1, skip: int = 0) -> tuple[str, str, dict[str, Any]]:
    """A (flight number, date, day) bookable for `seats` people in `cabin`."""
    found = []
    for number, flight in sorted(seed["flights"].items()):
        for date, day in sorted(flight["dates"].items()):
            if day["status"] == "available" and day["available_seats"][cabin] >= seats:
                found.append((number, date, day))
                if len(found) > skip:
                    return found[-1]
    raise LookupError(cabin)


def future(record: dict[str, Any]) -> bool:
    return all(s["date"] > "2024-05-15" for s in record["flights"])


def trip_of(seed, rule) -> dict[str, Any]:
    for _, record in sorted(seed["reservations"].items()):
        if rule(record, seed["users"][record["user_id"]]):
            return record
    raise LookupError(rule)


def booking(
    user_id: str, number: str, date: str, payments: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    arguments = {
        "user_id": user_id,
        "origin": "AAA",
        "destination": "BBB",
        "flight_type": "one_way",
        "cabin": "economy",
        "flights": [{"flight_number": number, "date": date}],
        "passengers": [{"first_name": "Pat", "last_name": "Example", "dob": "1990-01-01"}],
        "payment_methods": payments,
        "total_baggages": 1,
        "nonfree_baggages": 0,
        "insurance": "no",
    }
    return arguments | extra


# ---------------------------------------------------------------------------------------------
# the domain


def test_tool_set_matches_the_published_one():
    assert set(DOMAIN.mcp_tools) == {
        *WRITE_TOOLS,
        "calculate",
        "get_reservation_details",
        "get_user_details",
        "list_all_airports",
        "search_direct_flight",
        "search_onestop_flight",
        "think",
        "transfer_to_human_agents",
    }
    assert DOMAIN.write_tools == WRITE_TOOLS
    assert DOMAIN.terminal_tools == {"transfer_to_human_agents"}


def test_schemas_keep_published_names_types_and_required_fields():
    params = DOMAIN.mcp_tools["book_reservation"].parameters
    assert set(params["required"]) == {
        "user_id",
        "origin",
        "destination",
        "flight_type",
        "cabin",
        "flights",
        "passengers",
        "payment_methods",
        "total_baggages",
        "nonfree_baggages",
        "insurance",
    }
    props = params["properties"]
    assert props["cabin"]["enum"] == ["basic_economy", "economy", "business"]
    assert props["insurance"]["enum"] == ["yes", "no"]
    assert props["total_baggages"]["type"] == "integer"
    entry = params["$defs"]["PaymentEntry"]
    assert entry["required"] == ["payment_id", "amount"]
    assert {t["type"] for t in entry["properties"]["amount"]["anyOf"]} == {"integer", "number"}
    certificate = DOMAIN.mcp_tools["send_certificate"].parameters
    assert certificate["required"] == ["user_id", "amount"]
    flights = DOMAIN.mcp_tools["update_reservation_flights"].parameters
    assert flights["required"] == ["reservation_id", "cabin", "flights", "payment_id"]
    assert DOMAIN.mcp_tools["list_all_airports"].parameters.get("required", []) == []


# ---------------------------------------------------------------------------------------------
# reads


async def test_get_user_details_returns_the_published_record(db, seed):
    user_id = sorted(seed["users"])[0]
    output = await ok(db, "get_user_details", user_id=user_id)
    assert output == json.dumps(seed["users"][user_id])
    assert "user_id" not in json.loads(output)
    assert list(json.loads(output)) == [
        "name",
        "address",
        "email",
        "dob",
        "payment_methods",
        "saved_passengers",
        "membership",
        "reservations",
    ]
    await fails(db, "get_user_details", "user not found", user_id="nobody_0000")


async def test_get_reservation_details_and_its_misleading_error(db, seed):
    reservation_id = sorted(seed["reservations"])[0]
    assert await reservation(db, reservation_id) == seed["reservations"][reservation_id]
    await fails(db, "get_reservation_details", "user not found", reservation_id="ZZZZZZ")


async def test_list_all_airports_in_published_order(db):
    airports = json.loads(await ok(db, "list_all_airports"))
    assert len(airports) == 20
    assert list(airports)[:3] == ["SFO", "JFK", "LAX"]
    assert list(airports)[-1] == "LGA" and airports["LGA"] == "LaGuardia"


async def test_search_direct_flight_lists_only_available_matching_flights(db, seed):
    number, date, day = open_seat(seed)
    flight = seed["flights"][number]
    results = json.loads(
        await ok(
            db, "search_direct_flight", origin=flight["origin"], destination=flight["destination"], date=date
        )
    )
    expected = [
        n
        for n, f in sorted(seed["flights"].items())
        if (f["origin"], f["destination"]) == (flight["origin"], flight["destination"])
        and f["dates"][date]["status"] == "available"
    ]
    assert [r["flight_number"] for r in results] == expected
    mine = next(r for r in results if r["flight_number"] == number)
    assert "dates" not in mine and "date" not in mine
    assert mine["prices"] == day["prices"] and mine["status"] == "available"
    past = json.loads(
        await ok(
            db,
            "search_direct_flight",
            origin=flight["origin"],
            destination=flight["destination"],
            date="2024-05-10",
        )
    )
    assert past == []


def overnight_pair(seed, date: str) -> tuple[str, str] | None:
    for one in seed["flights"].values():
        if "+1" not in one["scheduled_arrival_time_est"]:
            continue
        for two in seed["flights"].values():
            if (
                two["origin"] == one["destination"]
                and one["scheduled_arrival_time_est"] <= two["scheduled_departure_time_est"]
            ):
                return one["origin"], two["destination"]
    return None


async def test_search_onestop_flight_connects_and_keeps_the_second_leg_quirk(db, seed):
    date = "2024-05-20"
    origin, destination = overnight_pair(seed, date)
    pairs = json.loads(
        await ok(db, "search_onestop_flight", origin=origin, destination=destination, date=date)
    )
    assert pairs
    for first, second in pairs:
        assert first["origin"] == origin and second["destination"] == destination
        assert first["destination"] == second["origin"]
        assert first["date"] == date
        assert first["scheduled_arrival_time_est"] <= second["scheduled_departure_time_est"]
        if "+1" in first["scheduled_arrival_time_est"]:
            assert second["date"] == "2024-05-21"
        # the second leg shows its day object for the *search* date, even when it flies the next day
        assert second["prices"] == seed["flights"][second["flight_number"]]["dates"][date]["prices"]
    assert any("+1" in first["scheduled_arrival_time_est"] for first, _ in pairs)


async def test_search_onestop_next_day_is_not_zero_padded(db, seed):
    origin, destination = overnight_pair(seed, "2024-05-05")
    pairs = json.loads(
        await ok(db, "search_onestop_flight", origin=origin, destination=destination, date="2024-05-20")
    )
    early = json.loads(
        await ok(db, "search_onestop_flight", origin=origin, destination=destination, date="2024-05-25")
    )
    assert any("+1" in p[0]["scheduled_arrival_time_est"] for p in pairs + early)
    # on the 5th an overnight first leg would need a second leg on "2024-05-6", which never exists
    fifth = json.loads(
        await ok(db, "search_onestop_flight", origin=origin, destination=destination, date="2024-05-05")
    )
    assert not any("+1" in p[0]["scheduled_arrival_time_est"] for p in fifth)


async def test_transfer_calculate_and_think(db):
    assert await ok(db, "transfer_to_human_agents", summary="wants a person") == "Transfer successful"
    assert await ok(db, "calculate", expression="(100 + 20) / 3") == "40.0"
    assert await ok(db, "think", thought="hmm") == ""
    await fails(db, "calculate", "invalid characters in expression", expression="2 ** x")


# ---------------------------------------------------------------------------------------------
# book_reservation


async def test_book_reservation_charges_each_method_its_own_way(db, seed):
    user_id, record = user_with(seed, "gift_card", "certificate", "credit_card")
    gift, certificate, card = (methods_of(record, s)[0] for s in ("gift_card", "certificate", "credit_card"))
    number, date, day = open_seat(seed)
    total = day["prices"]["economy"] + 30 + 50
    payments = [
        {"payment_id": gift["id"], "amount": 1},
        {"payment_id": certificate["id"], "amount": 1},
        {"payment_id": card["id"], "amount": total - 2},
    ]
    flights_before = flights_text(db)
    new = json.loads(
        await ok(
            db,
            "book_reservation",
            **booking(user_id, number, date, payments, insurance="yes", nonfree_baggages=1),
        )
    )
    assert new["reservation_id"] == "HATHAT"
    assert new["created_at"] == "2024-05-15T15:00:00" and "status" not in new
    flight = seed["flights"][number]
    assert new["flights"] == [
        {
            "flight_number": number,
            "date": date,
            "price": day["prices"]["economy"],
            "origin": flight["origin"],
            "destination": flight["destination"],
        }
    ]
    assert new["payment_history"] == payments
    assert (new["origin"], new["destination"]) == ("AAA", "BBB")  # stored as given
    after = await user(db, user_id)
    assert after["payment_methods"][gift["id"]]["amount"] == gift["amount"] - 1
    assert certificate["id"] not in after["payment_methods"]  # remainder lost
    assert after["payment_methods"][card["id"]] == card
    assert after["reservations"] == [*record["reservations"], "HATHAT"]
    assert await reservation(db, "HATHAT") == new
    assert flights_text(db) == flights_before  # seats are never taken


async def test_book_reservation_ids_are_fixed_and_the_fourth_overwrites(db, seed):
    user_id, record = user_with(seed, "credit_card")
    card = methods_of(record, "credit_card")[0]
    ids = []
    for skip in range(4):
        number, date, day = open_seat(seed, skip=skip)
        payments = [{"payment_id": card["id"], "amount": day["prices"]["economy"]}]
        ids.append(
            json.loads(await ok(db, "book_reservation", **booking(user_id, number, date, payments)))[
                "reservation_id"
            ]
        )
    assert ids == ["HATHAT", "HATHAU", "HATHAV", "HATHAV"]
    assert (await reservation(db, "HATHAV"))["flights"][0]["flight_number"] == number
    assert (await user(db, user_id))["reservations"][-4:] == ["HATHAT", "HATHAU", "HATHAV", "HATHAV"]


async def test_book_reservation_numbers_compare_by_value_and_keep_their_type(db, seed):
    user_id, record = user_with(seed, "credit_card")
    card = methods_of(record, "credit_card")[0]
    number, date, day = open_seat(seed)
    payments = [{"payment_id": card["id"], "amount": float(day["prices"]["economy"])}]
    await ok(db, "book_reservation", **booking(user_id, number, date, payments))
    assert '"amount":' + repr(float(day["prices"]["economy"])) in db.canonical_state()
    assert isinstance((await reservation(db, "HATHAT"))["payment_history"][0]["amount"], float)


async def test_book_reservation_keeps_extra_segment_keys_and_copies_lists(db, seed):
    user_id, record = user_with(seed, "credit_card")
    card = methods_of(record, "credit_card")[0]
    number, date, day = open_seat(seed)
    arguments = booking(
        user_id, number, date, [{"payment_id": card["id"], "amount": day["prices"]["economy"]}]
    )
    arguments["flights"][0] |= {"price": 1, "note": "window"}
    new = json.loads(await ok(db, "book_reservation", **arguments))
    assert new["flights"][0]["note"] == "window"
    assert new["flights"][0]["price"] == day["prices"]["economy"]  # always overwritten
    state = db.canonical_state()
    arguments["passengers"].append({"first_name": "Late", "last_name": "Edit", "dob": "2000-01-01"})
    assert db.canonical_state() == state


async def test_book_reservation_errors_change_nothing(db, seed):
    user_id, record = user_with(seed, "gift_card", "certificate", "credit_card")
    gift, certificate, card = (methods_of(record, s)[0] for s in ("gift_card", "certificate", "credit_card"))
    number, date, day = open_seat(seed)
    price = day["prices"]["economy"]
    pay = [{"payment_id": card["id"], "amount": price}]
    await fails(db, "book_reservation", "user not found", **booking("nobody_0000", number, date, pay))
    await fails(db, "book_reservation", "flight HAT999 not found", **booking(user_id, "HAT999", date, pay))
    await fails(
        db,
        "book_reservation",
        f"flight {number} not found on date 2024-06-01",
        **booking(user_id, number, "2024-06-01", pay),
    )
    await fails(
        db,
        "book_reservation",
        f"flight {number} not available on date 2024-05-03",
        **booking(user_id, number, "2024-05-03", pay),
    )
    full = next(
        (n, d)
        for n, f in sorted(seed["flights"].items())
        for d, x in sorted(f["dates"].items())
        if x["status"] == "available" and x["available_seats"]["economy"] == 0
    )
    await fails(
        db, "book_reservation", f"not enough seats on flight {full[0]}", **booking(user_id, *full, pay)
    )
    await fails(
        db,
        "book_reservation",
        "payment method credit_card_0000000 not found",
        **booking(user_id, number, date, [{"payment_id": "credit_card_0000000", "amount": price}]),
    )
    too_much = [{"payment_id": gift["id"], "amount": gift["amount"] + 1}]
    await fails(
        db,
        "book_reservation",
        f"not enough balance in payment method {gift['id']}",
        **booking(user_id, number, date, too_much),
    )
    short = [{"payment_id": card["id"], "amount": price - 1}]
    await fails(
        db,
        "book_reservation",
        f"payment amount does not add up, total price is {price}, but paid {price - 1}",
        **booking(user_id, number, date, short),
    )
    # the same certificate twice: the original crashes after charging the first entries; we roll back
    twice = [
        {"payment_id": certificate["id"], "amount": 1},
        {"payment_id": certificate["id"], "amount": 1},
        {"payment_id": gift["id"], "amount": 1},
        {"payment_id": card["id"], "amount": price - 3},
    ]
    await fails(db, "book_reservation", f"'{certificate['id']}'", **booking(user_id, number, date, twice))


# ---------------------------------------------------------------------------------------------
# cancel_reservation


async def test_cancel_reservation_appends_negated_history_every_time(db, seed):
    record = trip_of(seed, lambda r, u: r["payment_history"][0]["payment_id"].startswith("gift_card"))
    payer = record["payment_history"][0]
    owner_before = await user(db, record["user_id"])
    cancelled = json.loads(await ok(db, "cancel_reservation", reservation_id=record["reservation_id"]))
    assert cancelled["status"] == "cancelled"
    assert cancelled["payment_history"] == [
        payer,
        {"payment_id": payer["payment_id"], "amount": -payer["amount"]},
    ]
    assert await user(db, record["user_id"]) == owner_before  # no refund to the gift card
    again = json.loads(await ok(db, "cancel_reservation", reservation_id=record["reservation_id"]))
    negated = [{"payment_id": p["payment_id"], "amount": -p["amount"]} for p in cancelled["payment_history"]]
    assert again["payment_history"] == cancelled["payment_history"] + negated
    await fails(db, "cancel_reservation", "reservation not found", reservation_id="ZZZZZZ")


# ---------------------------------------------------------------------------------------------
# update_reservation_flights


def changeable(seed, source: str):
    """A future direct round trip whose owner has a `source` method, and that method."""

    def rule(record, owner):
        return (
            future(record)
            and record["flight_type"] == "round_trip"
            and len(record["flights"]) == 2
            and methods_of(owner, source)
        )

    record = trip_of(seed, rule)
    return record, methods_of(seed["users"][record["user_id"]], source)[0]


def other_flight(seed, record, index: int, cabin: str) -> tuple[str, str, int]:
    """Another bookable flight for segment `index`: same route, another number or date."""
    segment = record["flights"][index]
    for number, flight in sorted(seed["flights"].items()):
        if (flight["origin"], flight["destination"]) != (segment["origin"], segment["destination"]):
            continue
        for date, day in sorted(flight["dates"].items()):
            if (number, date) == (segment["flight_number"], segment["date"]) or day["status"] != "available":
                continue
            if day["available_seats"][cabin] >= len(record["passengers"]):
                return number, date, day["prices"][cabin]
    raise LookupError(segment)


async def test_update_flights_keeps_unchanged_prices_and_charges_the_difference(db, seed):
    record, card = changeable(seed, "credit_card")
    kept, count = record["flights"][0], len(record["passengers"])
    number, date, price = other_flight(seed, record, 1, record["cabin"])
    new_flights = [
        {"flight_number": kept["flight_number"], "date": kept["date"]},
        {"flight_number": number, "date": date},
    ]
    updated = json.loads(
        await ok(
            db,
            "update_reservation_flights",
            reservation_id=record["reservation_id"],
            cabin=record["cabin"],
            flights=new_flights,
            payment_id=card["id"],
        )
    )
    assert updated["flights"][0] == kept  # kept: old price, no re-check
    assert updated["flights"][1]["price"] == price
    difference = (price - record["flights"][1]["price"]) * count
    expected = record["payment_history"] + (
        [{"payment_id": card["id"], "amount": difference}] if difference else []
    )
    assert updated["payment_history"] == expected
    assert await user(db, record["user_id"]) == seed["users"][record["user_id"]]  # credit card: no balance


async def test_update_flights_with_another_cabin_reprices_everything_but_keeps_cabin(db, seed):
    record, card = changeable(seed, "credit_card")
    cabin = "business" if record["cabin"] != "business" else "economy"
    count = len(record["passengers"])
    days = [seed["flights"][s["flight_number"]]["dates"][s["date"]] for s in record["flights"]]
    # The seed is deterministic: if it ever lacks what the test needs, fail loudly, never skip.
    assert all(d["available_seats"][cabin] >= count for d in days), (
        "seed changed: no seats in the other cabin"
    )
    segments = [{"flight_number": s["flight_number"], "date": s["date"]} for s in record["flights"]]
    updated = json.loads(
        await ok(
            db,
            "update_reservation_flights",
            reservation_id=record["reservation_id"],
            cabin=cabin,
            flights=segments,
            payment_id=card["id"],
        )
    )
    assert [s["price"] for s in updated["flights"]] == [d["prices"][cabin] for d in days]
    assert updated["cabin"] == record["cabin"]  # the published tool never stores the new cabin


async def test_update_flights_gift_card_balance_moves_both_ways(db, seed):
    record, gift = changeable(seed, "gift_card")
    count = len(record["passengers"])
    kept = record["flights"][0]
    cheaper = min(
        (
            (n, d, day["prices"][record["cabin"]])
            for n, f in seed["flights"].items()
            if (f["origin"], f["destination"])
            == (record["flights"][1]["origin"], record["flights"][1]["destination"])
            for d, day in f["dates"].items()
            if day["status"] == "available" and day["available_seats"][record["cabin"]] >= count
        ),
        key=lambda option: (option[2], option[0], option[1]),
    )
    difference = (cheaper[2] - record["flights"][1]["price"]) * count
    assert difference <= gift["amount"], "seed changed: gift card too small for the cheaper flight"
    flights = [
        {"flight_number": kept["flight_number"], "date": kept["date"]},
        {"flight_number": cheaper[0], "date": cheaper[1]},
    ]
    await ok(
        db,
        "update_reservation_flights",
        reservation_id=record["reservation_id"],
        cabin=record["cabin"],
        flights=flights,
        payment_id=gift["id"],
    )
    balance = (await user(db, record["user_id"]))["payment_methods"][gift["id"]]["amount"]
    assert balance == gift["amount"] - difference


async def test_update_flights_errors_change_nothing(db, seed):
    record, card = changeable(seed, "credit_card")
    owner = seed["users"][record["user_id"]]
    segments = [{"flight_number": s["flight_number"], "date": s["date"]} for s in record["flights"]]
    args = {"reservation_id": record["reservation_id"], "cabin": record["cabin"], "flights": segments}
    await fails(
        db,
        "update_reservation_flights",
        "reservation not found",
        **(args | {"reservation_id": "ZZZZZZ", "payment_id": card["id"]}),
    )
    await fails(
        db, "update_reservation_flights", "payment method not found", **args, payment_id="credit_card_0000000"
    )
    bad = [segments[0], {"flight_number": "HAT999", "date": "2024-05-20"}]
    await fails(
        db,
        "update_reservation_flights",
        "flight HAT999 not found",
        **(args | {"flights": bad, "payment_id": card["id"]}),
    )
    past = [segments[0], {"flight_number": segments[1]["flight_number"], "date": "2024-05-02"}]
    await fails(
        db,
        "update_reservation_flights",
        f"flight {segments[1]['flight_number']} not available on date 2024-05-02",
        **(args | {"flights": past, "payment_id": card["id"]}),
    )
    certificates = methods_of(owner, "certificate")
    if certificates:
        await fails(
            db,
            "update_reservation_flights",
            "certificate cannot be used to update reservation",
            **args,
            payment_id=certificates[0]["id"],
        )


async def test_update_flights_gift_card_too_small(db, seed):
    def rule(record, owner):
        gifts = methods_of(owner, "gift_card")
        return future(record) and len(record["flights"]) == 1 and gifts and gifts[0]["amount"] < 50

    record = trip_of(seed, rule)
    gift = methods_of(seed["users"][record["user_id"]], "gift_card")[0]
    count = len(record["passengers"])
    segment = record["flights"][0]
    for number, flight in sorted(seed["flights"].items()):
        if (flight["origin"], flight["destination"]) != (segment["origin"], segment["destination"]):
            continue
        for date, day in sorted(flight["dates"].items()):
            enough_seats = day["status"] == "available" and day["available_seats"][record["cabin"]] >= count
            if enough_seats and (day["prices"][record["cabin"]] - segment["price"]) * count > gift["amount"]:
                await fails(
                    db,
                    "update_reservation_flights",
                    "gift card balance is not enough",
                    reservation_id=record["reservation_id"],
                    cabin=record["cabin"],
                    flights=[{"flight_number": number, "date": date}],
                    payment_id=gift["id"],
                )
                return
    raise AssertionError("seed changed: no flight dear enough to exceed the gift card")


# ---------------------------------------------------------------------------------------------
# update_reservation_baggages


async def test_update_baggages_charges_only_new_paid_bags(db, seed):
    record, gift = changeable(seed, "gift_card")
    assert gift["amount"] >= 100, "seed changed: gift card too small for two paid bags"
    rid = record["reservation_id"]
    updated = json.loads(
        await ok(
            db,
            "update_reservation_baggages",
            reservation_id=rid,
            total_baggages=7,
            nonfree_baggages=2,
            payment_id=gift["id"],
        )
    )
    assert (updated["total_baggages"], updated["nonfree_baggages"]) == (7, 2)
    assert updated["payment_history"][-1] == {"payment_id": gift["id"], "amount": 100}
    assert (await user(db, record["user_id"]))["payment_methods"][gift["id"]]["amount"] == gift[
        "amount"
    ] - 100
    # fewer bags: accepted, no refund and no payment entry
    fewer = json.loads(
        await ok(
            db,
            "update_reservation_baggages",
            reservation_id=rid,
            total_baggages=1,
            nonfree_baggages=1,
            payment_id=gift["id"],
        )
    )
    assert (fewer["total_baggages"], fewer["nonfree_baggages"]) == (1, 1)
    assert fewer["payment_history"] == updated["payment_history"]


async def test_update_baggages_errors_change_nothing(db, seed):
    def rule(record, owner):
        gifts = methods_of(owner, "gift_card")
        return methods_of(owner, "certificate") and gifts and gifts[0]["amount"] < 50

    record = trip_of(seed, rule)
    owner = seed["users"][record["user_id"]]
    args = {"reservation_id": record["reservation_id"], "total_baggages": 3, "nonfree_baggages": 1}
    await fails(
        db,
        "update_reservation_baggages",
        "reservation not found",
        **(args | {"reservation_id": "ZZZZZZ"}),
        payment_id="x",
    )
    await fails(
        db, "update_reservation_baggages", "payment method not found", **args, payment_id="gift_card_0000000"
    )
    await fails(
        db,
        "update_reservation_baggages",
        "certificate cannot be used to update reservation",
        **args,
        payment_id=methods_of(owner, "certificate")[0]["id"],
    )
    await fails(
        db,
        "update_reservation_baggages",
        "gift card balance is not enough",
        **args,
        payment_id=methods_of(owner, "gift_card")[0]["id"],
    )


# ---------------------------------------------------------------------------------------------
# update_reservation_passengers


async def test_update_passengers_replaces_the_list_but_not_its_length(db, seed):
    record = trip_of(seed, lambda r, u: len(r["passengers"]) == 2)
    rid = record["reservation_id"]
    people = [{"first_name": "Wren", "last_name": "Halvorsen", "dob": "1991-08-30"}, record["passengers"][1]]
    updated = json.loads(await ok(db, "update_reservation_passengers", reservation_id=rid, passengers=people))
    assert updated["passengers"] == people
    assert updated["payment_history"] == record["payment_history"]
    await fails(
        db,
        "update_reservation_passengers",
        "number of passengers does not match",
        reservation_id=rid,
        passengers=people[:1],
    )
    await fails(
        db, "update_reservation_passengers", "reservation not found", reservation_id="ZZZZZZ", passengers=[]
    )


async def test_a_cancelled_reservation_can_still_be_updated(db, seed):
    record = trip_of(seed, lambda r, u: len(r["passengers"]) == 1)
    rid = record["reservation_id"]
    await ok(db, "cancel_reservation", reservation_id=rid)
    person = [{"first_name": "Idris", "last_name": "Okonkwo", "dob": "1984-02-11"}]
    updated = json.loads(await ok(db, "update_reservation_passengers", reservation_id=rid, passengers=person))
    assert updated["status"] == "cancelled" and updated["passengers"] == person


# ---------------------------------------------------------------------------------------------
# send_certificate


async def test_send_certificate_uses_three_fixed_ids_then_refuses(db, seed):
    user_id = sorted(seed["users"])[0]
    outputs = [
        await ok(db, "send_certificate", user_id=user_id, amount=amount) for amount in (100, 50.5, 150.0)
    ]
    assert outputs[0] == f"Certificate certificate_3221322 added to user {user_id} with amount 100."
    assert outputs[1] == f"Certificate certificate_3221323 added to user {user_id} with amount 50.5."
    assert outputs[2].endswith("certificate_3221324 added to user " + user_id + " with amount 150.0.")
    methods = (await user(db, user_id))["payment_methods"]
    assert methods["certificate_3221322"] == {
        "source": "certificate",
        "amount": 100,
        "id": "certificate_3221322",
    }
    assert isinstance(methods["certificate_3221322"]["amount"], int)
    assert isinstance(methods["certificate_3221324"]["amount"], float)
    await fails(
        db, "send_certificate", "no more certificates can be sent to this user", user_id=user_id, amount=10
    )
    await fails(db, "send_certificate", "user not found", user_id="nobody_0000", amount=10)


async def test_bad_arguments_never_reach_the_database(db, seed):
    before = db.canonical_state()
    result = await call(db, "send_certificate", user_id=sorted(seed["users"])[0])
    assert not result.ok and "amount" in result.output
    result = await call(db, "book_reservation", user_id="x")
    assert not result.ok
    assert db.canonical_state() == before
