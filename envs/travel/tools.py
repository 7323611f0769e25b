"""Travel write tools (booking hotels, cars and packages; changing dates; cancelling; insurance and
claims) and the domain's tool list. The reads are in reads.py, the policy's hard rules in rules.py:
a write checks them all before it changes anything, and a call that fails changes nothing."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlmodel import SQLModel

from taue.envs.runtime.common_tools import calculate, think
from taue.envs.runtime.database import Store
from taue.envs.runtime.domain import ends_conversation, writes
from taue.envs.runtime.money import cents
from taue.envs.travel import rules
from taue.envs.travel.models import (
    Booking,
    CarOffer,
    Claim,
    Customer,
    HolidayPackage,
    Hotel,
    InsurancePolicy,
    Itinerary,
)
from taue.envs.travel.reads import (
    BookingId,
    CustomerId,
    ItineraryId,
    PolicyId,
    dump,
    find_customer_id,
    get_booking_details,
    get_customer_details,
    get_insurance_policy,
    get_itinerary_details,
    record,
    search_car_rentals,
    search_holiday_packages,
    search_hotels,
    valid_date,
)
from taue.envs.travel.rules import ROUNDING, Problem

FIRST_NEW_NUMBER = 900000
"""Created bookings, policies and claims are numbered from here (seed ids stay below)."""

Rate = Annotated[
    Literal["flexible", "non_refundable"],
    Field(description="'flexible' (can be changed or cancelled) or 'non_refundable' (cheaper, final)."),
]
PaymentMethodId = Annotated[
    str, Field(description="Id of a payment method on the customer's account, e.g. 'card_4417720'.")
]


def _refuse(problems: list[Problem]) -> None:
    if problems:
        raise ToolError(problems[0][1])


def _new_id(db: Store, model: type[SQLModel], prefix: str) -> str:
    return f"{prefix}{FIRST_NEW_NUMBER + db.count(model)}"


def _move_money(db: Store, customer: Customer, method_id: str, amount: float) -> None:
    """Charge (positive) or refund (negative) `amount`; only a travel credit keeps a balance here."""
    method = customer.payment_methods[method_id]
    if method["type"] == "travel_credit" and amount:
        method["balance"] = cents(method["balance"] - amount, ROUNDING)
        db.save(customer)


def _owner_and_itinerary(db: Store, customer_id: str, itinerary_id: str) -> tuple[Customer, Itinerary]:
    customer = db.require(Customer, customer_id, f"customer {customer_id} not found")
    itinerary = db.require(Itinerary, itinerary_id, f"itinerary {itinerary_id} not found")
    _refuse(rules.itinerary_problems(record(customer), record(itinerary)))
    return customer, itinerary


def _file_booking(db: Store, customer: Customer, itinerary: Itinerary, booking: Booking) -> str:
    """Store a new booking in its itinerary and charge it."""
    booking.booking_id = _new_id(db, Booking, "BK")
    booking.customer_id, booking.itinerary_id = customer.customer_id, itinerary.itinerary_id
    booking.status, booking.booked_at = "confirmed", db.clock
    db.save(booking)
    itinerary.booking_ids.append(booking.booking_id)
    db.save(itinerary)
    _move_money(db, customer, booking.payment_method_id, booking.total_price)
    return dump(record(booking))


# ------------------------------------------------------------------------------------------- booking


@writes
async def book_hotel(
    db: Store,
    customer_id: CustomerId,
    itinerary_id: ItineraryId,
    hotel_id: Annotated[str, Field(description="The hotel's id from search_hotels, e.g. 'HTL0042'.")],
    room_type: Annotated[str, Field(description="A room type the hotel has, e.g. 'standard' or 'deluxe'.")],
    check_in: Annotated[str, Field(description="Check-in date as 'YYYY-MM-DD'.")],
    check_out: Annotated[str, Field(description="Check-out date as 'YYYY-MM-DD'.")],
    rate: Rate,
    payment_method_id: PaymentMethodId,
) -> str:
    """Book a hotel room for a stay and add it to one of the customer's open itineraries. The price is
    the nightly rate of the room type at the chosen rate times the nights, charged to the payment
    method. Returns the new booking."""
    customer, itinerary = _owner_and_itinerary(db, customer_id, itinerary_id)
    hotel = db.require(Hotel, hotel_id, f"hotel {hotel_id} not found")
    valid_date(check_in, "check_in")
    valid_date(check_out, "check_out")
    _refuse(
        rules.dates_problems("hotel", check_in, check_out) + rules.hotel_problems(record(hotel), room_type)
    )
    nights = rules.days_between(check_in, check_out)
    nightly = hotel.rooms[room_type][rate]
    total = cents(nightly * nights, ROUNDING)
    _refuse(rules.payment_problems(record(customer), payment_method_id, total))
    booking = Booking(
        booking_id="",
        customer_id="",
        itinerary_id="",
        kind="hotel",
        item_id=hotel_id,
        item_name=hotel.name,
        city=hotel.city,
        start_date=check_in,
        end_date=check_out,
        details={"room_type": room_type, "nightly_rate": nightly, "nights": nights, "guests": 1},
        rate=rate,
        total_price=total,
        payment_method_id=payment_method_id,
        status="",
        booked_at="",
    )
    return _file_booking(db, customer, itinerary, booking)


@writes
async def book_car_rental(
    db: Store,
    customer_id: CustomerId,
    itinerary_id: ItineraryId,
    car_id: Annotated[str, Field(description="The offer's id from search_car_rentals, e.g. 'CAR0117'.")],
    pick_up_date: Annotated[str, Field(description="Pick-up date as 'YYYY-MM-DD'.")],
    drop_off_date: Annotated[str, Field(description="Drop-off date as 'YYYY-MM-DD'.")],
    rate: Rate,
    payment_method_id: PaymentMethodId,
) -> str:
    """Book a rental car (the customer is the driver) and add it to one of their open itineraries.
    The flexible price is the offer's daily rate times the days; the non-refundable daily rate is
    15 % lower (rounded to a dollar). Returns the new booking."""
    customer, itinerary = _owner_and_itinerary(db, customer_id, itinerary_id)
    car = db.require(CarOffer, car_id, f"car offer {car_id} not found")
    valid_date(pick_up_date, "pick_up_date")
    valid_date(drop_off_date, "drop_off_date")
    _refuse(
        rules.dates_problems("car", pick_up_date, drop_off_date)
        + rules.car_problems(record(customer), record(car), pick_up_date)
    )
    days = rules.days_between(pick_up_date, drop_off_date)
    daily = car.daily_rate if rate == "flexible" else rules.non_refundable(car.daily_rate)
    total = cents(daily * days, ROUNDING)
    _refuse(rules.payment_problems(record(customer), payment_method_id, total))
    booking = Booking(
        booking_id="",
        customer_id="",
        itinerary_id="",
        kind="car",
        item_id=car_id,
        item_name=f"{car.company} {car.car_class} ({car.example_model} or similar)",
        city=car.city,
        start_date=pick_up_date,
        end_date=drop_off_date,
        details={"car_class": car.car_class, "company": car.company, "daily_rate": daily, "days": days},
        rate=rate,
        total_price=total,
        payment_method_id=payment_method_id,
        status="",
        booked_at="",
    )
    return _file_booking(db, customer, itinerary, booking)


@writes
async def book_holiday_package(
    db: Store,
    customer_id: CustomerId,
    itinerary_id: ItineraryId,
    package_id: Annotated[str, Field(description="The package's id, e.g. 'PKG031'.")],
    departure_date: Annotated[str, Field(description="One of the package's departure dates, 'YYYY-MM-DD'.")],
    travellers: Annotated[int, Field(description="How many people travel, the customer included.")],
    payment_method_id: PaymentMethodId,
) -> str:
    """Book a holiday package on one of its departure dates and add it to one of the customer's open
    itineraries. The price is the price per person times the travellers; the seats are taken from
    that departure. Returns the new booking."""
    customer, itinerary = _owner_and_itinerary(db, customer_id, itinerary_id)
    package = db.require(HolidayPackage, package_id, f"holiday package {package_id} not found")
    valid_date(departure_date, "departure_date")
    _refuse(rules.package_problems(record(package), departure_date, travellers))
    total = cents(package.price_per_person * travellers, ROUNDING)
    _refuse(rules.payment_problems(record(customer), payment_method_id, total))
    package.departures[departure_date] -= travellers
    db.save(package)
    booking = Booking(
        booking_id="",
        customer_id="",
        itinerary_id="",
        kind="package",
        item_id=package_id,
        item_name=package.name,
        city=package.destination,
        start_date=departure_date,
        end_date=rules.shift(departure_date, package.nights),
        details={
            "travellers": travellers,
            "price_per_person": package.price_per_person,
            "nights": package.nights,
        },
        rate="standard",
        total_price=total,
        payment_method_id=payment_method_id,
        status="",
        booked_at="",
    )
    return _file_booking(db, customer, itinerary, booking)


# -------------------------------------------------------------------------------- changes and cancels


@writes
async def change_booking_dates(
    db: Store,
    booking_id: BookingId,
    new_start_date: Annotated[str, Field(description="New check-in or pick-up date, 'YYYY-MM-DD'.")],
    new_end_date: Annotated[str, Field(description="New check-out or drop-off date, 'YYYY-MM-DD'.")],
) -> str:
    """Move a flexible hotel or car booking to new dates. The booked nightly or daily rate stays; the
    price difference is charged to, or refunded to, the booking's payment method. Returns the booking
    and the price difference."""
    booking = db.require(Booking, booking_id, f"booking {booking_id} not found")
    valid_date(new_start_date, "new_start_date")
    valid_date(new_end_date, "new_end_date")
    _refuse(rules.change_problems(record(booking), new_start_date, new_end_date))
    total = rules.changed_total(record(booking), new_start_date, new_end_date)
    difference = cents(total - booking.total_price, ROUNDING)
    customer = db.require(Customer, booking.customer_id, f"customer {booking.customer_id} not found")
    _refuse(rules.payment_problems(record(customer), booking.payment_method_id, max(difference, 0.0)))
    length = rules.days_between(new_start_date, new_end_date)
    booking.start_date, booking.end_date, booking.total_price = new_start_date, new_end_date, total
    booking.details["nights" if booking.kind == "hotel" else "days"] = length
    db.save(booking)
    _move_money(db, customer, booking.payment_method_id, difference)
    return dump({**record(booking), "price_difference": difference})


@writes
async def cancel_booking(db: Store, booking_id: BookingId) -> str:
    """Cancel a booking. The cancellation fee depends on the kind and on the days left before the
    start (see the policy); the rest of the price is refunded to the booking's payment method.
    Returns the booking with its fee and refund."""
    booking = db.require(Booking, booking_id, f"booking {booking_id} not found")
    _refuse(rules.cancel_problems(record(booking)))
    fee = rules.cancellation_fee(record(booking))
    customer = db.require(Customer, booking.customer_id, f"customer {booking.customer_id} not found")
    booking.status, booking.cancelled_at = "cancelled", db.clock
    booking.cancellation_fee, booking.refund_amount = fee, cents(booking.total_price - fee, ROUNDING)
    db.save(booking)
    if booking.kind == "package":
        package = db.get(HolidayPackage, booking.item_id)
        if package is not None and booking.start_date in package.departures:
            package.departures[booking.start_date] += booking.details["travellers"]
            db.save(package)
    _move_money(db, customer, booking.payment_method_id, -booking.refund_amount)
    return dump(record(booking))


# ----------------------------------------------------------------------------------------- insurance


@writes
async def add_travel_insurance(
    db: Store,
    booking_id: BookingId,
    plan: Annotated[
        Literal["basic", "comprehensive"],
        Field(description="'basic' (cancellation, baggage) or 'comprehensive' (also medical and delay)."),
    ],
) -> str:
    """Insure an upcoming booking. The premium (6 % of the booking's price for basic, 10 % for
    comprehensive) is charged to the booking's payment method. Returns the new policy."""
    booking = db.require(Booking, booking_id, f"booking {booking_id} not found")
    _refuse(rules.insurance_problems(record(booking)))
    cost = rules.premium(record(booking), plan)
    customer = db.require(Customer, booking.customer_id, f"customer {booking.customer_id} not found")
    _refuse(rules.payment_problems(record(customer), booking.payment_method_id, cost))
    policy = InsurancePolicy(
        policy_id=_new_id(db, InsurancePolicy, "POL"),
        booking_id=booking_id,
        customer_id=booking.customer_id,
        plan=plan,
        premium=cost,
        trip_cost_covered=booking.total_price,
        purchased_at=db.clock,
        status="active",
    )
    db.save(policy)
    booking.policy_id = policy.policy_id
    db.save(booking)
    _move_money(db, customer, booking.payment_method_id, cost)
    return dump(record(policy))


@writes
async def file_insurance_claim(
    db: Store,
    policy_id: PolicyId,
    category: Annotated[
        Literal["cancellation", "baggage", "medical", "delay"], Field(description="What the claim is for.")
    ],
    incident_date: Annotated[str, Field(description="When it happened, 'YYYY-MM-DD'.")],
    amount: Annotated[float, Field(description="The amount claimed in US dollars.")],
) -> str:
    """File a claim on a travel insurance policy. It is checked against the plan's coverage, dates
    and limits, and starts in status 'submitted'. Returns the new claim."""
    policy = db.require(InsurancePolicy, policy_id, f"insurance policy {policy_id} not found")
    valid_date(incident_date, "incident_date")
    booking = db.require(Booking, policy.booking_id, f"booking {policy.booking_id} not found")
    claims = [record(c) for c in db.scan(Claim, Claim.policy_id == policy_id)]
    _refuse(rules.claim_problems(record(policy), record(booking), claims, category, incident_date, amount))
    claim = Claim(
        claim_id=_new_id(db, Claim, "CLM"),
        policy_id=policy_id,
        category=category,
        incident_date=incident_date,
        amount_claimed=cents(amount, ROUNDING),
        status="submitted",
        filed_at=db.clock,
    )
    db.save(claim)
    return dump(record(claim))


@ends_conversation
async def transfer_to_human_agents(
    db: Store,
    summary: Annotated[
        str, Field(description="Short summary of the customer's request for the human agent.")
    ],
) -> str:
    """Hand the customer over to a human travel agent; the conversation ends here. Only when the
    customer asks for a person or the request is outside what these tools and the policy allow."""
    return "Transfer successful"


TOOLS = (
    add_travel_insurance,
    book_car_rental,
    book_holiday_package,
    book_hotel,
    calculate,
    cancel_booking,
    change_booking_dates,
    file_insurance_claim,
    find_customer_id,
    get_booking_details,
    get_customer_details,
    get_insurance_policy,
    get_itinerary_details,
    search_car_rentals,
    search_holiday_packages,
    search_hotels,
    think,
    transfer_to_human_agents,
)
