"""Airline seed generator, table models and task file."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime

import pytest

from taue.envs.airline import DOMAIN
from taue.envs.airline.generate import generate
from taue.envs.airline.models import Flight, Reservation, User

CLOCK = datetime(2024, 5, 15, 15, 0)


@pytest.fixture(scope="module")
def rows():
    return generate(DOMAIN.seed)


def table(rows, model):
    return [row for row in rows if isinstance(row, model)]


# ---------------------------------------------------------------------------------------------
# generator


def test_sizes_and_id_formats(rows):
    flights, users, reservations = table(rows, Flight), table(rows, User), table(rows, Reservation)
    assert [f.flight_number for f in flights] == [f"HAT{n:03d}" for n in range(1, 301)]
    assert len(users) == 500 and len({u.user_id for u in users}) == 500
    assert 1800 <= len(reservations) <= 2200
    for reservation in reservations:
        assert len(reservation.reservation_id) == 6 and reservation.reservation_id.isalnum()
        assert reservation.reservation_id.isupper() or reservation.reservation_id.isdigit()
        assert reservation.reservation_id not in {"HATHAT", "HATHAU", "HATHAV"}
    for user in users:
        _, _, digits = user.user_id.rsplit("_", 2)
        assert len(digits) == 4 and digits.isdigit()
        for payment_id, method in user.payment_methods.items():
            assert method["id"] == payment_id
            assert payment_id == f"{method['source']}_{payment_id.rsplit('_', 1)[1]}"
            assert payment_id not in {"certificate_3221322", "certificate_3221323", "certificate_3221324"}
            assert not isinstance(method.get("amount", 0), float)


def test_seed_image_stays_small():
    assert len(DOMAIN.seed_image.image_bytes) < 4 * 1024 * 1024


def test_flight_days_follow_the_clock(rows):
    airports = set()
    for flight in table(rows, Flight):
        airports |= {flight.origin, flight.destination}
        assert list(flight.dates) == [f"2024-05-{d:02d}" for d in range(1, 31)]
        for date, day in flight.dates.items():
            status = day["status"]
            if date < "2024-05-15":
                assert status in {"landed", "cancelled"}
            elif date > "2024-05-15":
                assert status == "available"
                assert all(
                    isinstance(v, int) for v in [*day["prices"].values(), *day["available_seats"].values()]
                )
            elif status == "landed":
                assert datetime.fromisoformat(day["actual_arrival_time_est"]) <= CLOCK
            elif status == "flying":
                assert datetime.fromisoformat(day["actual_departure_time_est"]) <= CLOCK
                assert datetime.fromisoformat(day["estimated_arrival_time_est"]) > CLOCK
            else:
                assert status in {"on time", "delayed"}
                assert datetime.fromisoformat(day["estimated_departure_time_est"]) > CLOCK
    assert len(airports) == 20
    today = Counter(f.dates["2024-05-15"]["status"] for f in table(rows, Flight))
    assert set(today) == {"landed", "flying", "on time", "delayed"}


def test_reservations_are_consistent_with_users_and_flights(rows):
    users = {u.user_id: u for u in table(rows, User)}
    flights = {f.flight_number: f for f in table(rows, Flight)}
    owned = Counter()
    for r in table(rows, Reservation):
        owner = users[r.user_id]
        owned[r.user_id] += 1
        assert r.reservation_id in owner.reservations
        assert r.status is None and r.nonfree_baggages == 0
        assert r.created_at < "2024-05-15T15:00:00"
        (payment,) = r.payment_history
        assert owner.payment_methods[payment["payment_id"]]["source"] in {"credit_card", "gift_card"}
        count = len(r.passengers)
        fares = sum(s["price"] for s in r.flights) * count
        assert payment["amount"] == fares + (30 * count if r.insurance == "yes" else 0)
        for segment in r.flights:
            flight = flights[segment["flight_number"]]
            assert (segment["origin"], segment["destination"]) == (flight.origin, flight.destination)
            assert segment["date"] in flight.dates
        assert r.flights[0]["origin"] == r.origin
    assert all(len(u.reservations) == owned[u.user_id] for u in users.values())


# ---------------------------------------------------------------------------------------------
# models


def test_records_round_trip_through_the_models(rows):
    for row in rows[:5] + rows[300:305] + rows[-5:]:
        model = type(row)
        key = getattr(row, {Flight: "flight_number", User: "user_id", Reservation: "reservation_id"}[model])
        record = json.loads(json.dumps(row.to_record()))
        assert model.from_record(key, record).to_record() == row.to_record()
    user = table(rows, User)[0].to_record()
    assert "user_id" not in user
    reservation = table(rows, Reservation)[0]
    assert "status" not in reservation.to_record()
    reservation.status = "cancelled"
    assert list(reservation.to_record())[-1] == "status"
