"""The airline domain: flights, reservations and users, with the published τ-Emotion-Bench tools."""

from __future__ import annotations

from pathlib import Path

from taue.envs.airline.generate import generate
from taue.envs.airline.models import Flight, Reservation, User
from taue.envs.airline.rules import CLOCK
from taue.envs.airline.tools import (
    book_reservation,
    cancel_reservation,
    get_reservation_details,
    get_user_details,
    list_all_airports,
    search_direct_flight,
    search_onestop_flight,
    send_certificate,
    transfer_to_human_agents,
    update_reservation_baggages,
    update_reservation_flights,
    update_reservation_passengers,
)
from taue.envs.runtime.common_tools import calculate, think
from taue.envs.runtime.domain import Domain

DOMAIN = Domain(
    name="airline",
    folder=Path(__file__).parent,
    tables=[Flight, Reservation, User],
    tools=[
        book_reservation,
        calculate,
        cancel_reservation,
        get_reservation_details,
        get_user_details,
        list_all_airports,
        search_direct_flight,
        search_onestop_flight,
        send_certificate,
        think,
        transfer_to_human_agents,
        update_reservation_baggages,
        update_reservation_flights,
        update_reservation_passengers,
    ],
    generate=generate,
    clock=CLOCK,
    tracer=f"{__name__}.tracer:TRACER",
)
