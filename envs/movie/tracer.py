"""Movie's parts for the Tracer (docs/tracer.md): the intents a guest brings, grounded on the seed
view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

from typing import Any

from taue.envs.movie.phrases import BANKS
from taue.envs.movie.policy_check import check_policy
from taue.envs.movie.rules import MAX_SEATS, MINIMUM_TERM_DAYS, TIER_CHANGE_DAYS
from taue.envs.movie.seed_view import (
    CLOCK,
    CUTOFF,
    PERSONAS,
    TIER_WORDS,
    Record,
    Rng,
    View,
    card_words,
    clock_time,
    customers,
    days_since,
    exchange_charge,
    load,
    long_day,
    open_block,
    order_words,
    purchase_amount,
    seat_words,
    show_words,
)
from taue.envs.runtime.authoring import (
    Alternative,
    Customer,
    Grounded,
    Intent,
    Lookups,
    TracerSpec,
    Wording,
    write,
)

SOON = "2025-03-17T00:00:00"
"""A refund for a show before this moment is for one within about two days of the clock."""

# ------------------------------------------------------------------------------------------- buying


def seat_list(seats: list[str]) -> str:
    """The seats with their noun: "seat G2", "seats D2 and D3"."""
    return f"seat{'s' * (len(seats) > 1)} {seat_words(seats)}"


def _findable(view: View, show: Record) -> bool:
    """The guest can name the show by film, theatre, day, time and format without ambiguity."""
    same = [
        s
        for s in view.day_shows(show["theatre_id"], show["starts_at"][:10], show["film_id"])
        if s["starts_at"] == show["starts_at"]
    ]
    return len(same) == 1


def _show_search(view: View, show: Record, rng: Rng) -> dict[str, Any]:
    """Bindings that find `show`: its theatre, day, the film filter (or none) and the show itself."""
    title = view.films[show["film_id"]]["title"] if rng.random() < 0.6 else None
    return {
        "theatre_id": show["theatre_id"],
        "date": show["starts_at"][:10],
        "film_title": title,
        "showtime_id": show["showtime_id"],
    }


def _show_facts(view: View, show: Record) -> dict[str, str]:
    return {
        "film": view.films[show["film_id"]]["title"],
        "theatre": view.theatres[show["theatre_id"]]["name"],
        "show_date": long_day(show["starts_at"]),
        "show_time": clock_time(show["starts_at"]),
        "show_format": show["format"],
    }


def _payer(view: View, customer: Customer, amount: float, rng: Rng) -> Record | None:
    methods = view.accounts[customer.id]["payment_methods"]
    usable = [
        {**methods[k], "id": k}
        for k in sorted(methods)
        if methods[k]["type"] == "credit_card" or methods[k]["balance"] >= amount
    ]
    return rng.choice(usable) if usable else None


def _pick_show(
    view: View, customer: Customer, rng: Rng, count: int, kind: str
) -> tuple[Record, list[str]] | None:
    home = view.accounts[customer.id]["home_theatre_id"]
    for _ in range(12):
        show = rng.choice(view.on_sale)
        if rng.random() < 0.5 and show["theatre_id"] != home:
            continue
        seats = open_block(show, count, kind, rng) if _findable(view, show) else None
        if seats:
            return show, seats
    return None


def buy_tickets(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    count = rng.choice((1, 2, 2, 2, 3, 4, 4, 5, 6))
    kind = "premium" if rng.random() < 0.3 else "standard"
    picked = _pick_show(view, customer, rng, count, kind)
    if picked is None:
        return None
    show, seats = picked
    balance = view.accounts[customer.id]["membership"].get("credits", 0)
    credits = (
        min(count, balance, rng.choice((1, 2))) if view.member(customer.id) and rng.random() < 0.5 else 0
    )
    amount = purchase_amount(view, customer.id, show, seats, credits)
    method = _payer(view, customer, amount, rng)
    if method is None:
        return None
    pay = card_words(method)
    member = view.member(customer.id)
    slots = {
        "show": show_words(view, show),
        "tickets": f"{count} {kind} seat{'s' * (count > 1)}",
        "seats": seat_words(seats),
        "seat_list": seat_list(seats),
        "payment": pay,
        "my_credits": f", using {credits} of my ticket credits" if credits else "",
        "your_credits": (
            f", using {credits} of your ticket credits"
            if credits
            else ", without using any ticket credits"
            if member
            else ""
        ),
    }
    party = "one" if count == 1 else "two" if count == 2 else "group"
    return Grounded(
        **BANKS["buy_tickets"].word(rng, slots, reason=party).fields(),
        bindings=_show_search(view, show, rng),
        write=write(
            "purchase_tickets",
            account_id=customer.id,
            showtime_id=show["showtime_id"],
            seats=seats,
            payment_id=method["id"],
            credits=credits,
        ),
        entities=frozenset({f"{customer.id}:purchase", *(f"seat:{show['showtime_id']}:{s}" for s in seats)}),
        known={
            **_show_facts(view, show),
            "seats": seat_words(seats),
            "ticket_credits_to_use": str(credits),
            "pay_with": pay,
        },
        discoverable={"showtime_id": show["showtime_id"], "payment_id": method["id"]},
        evidence=(show["showtime_id"], seats[0]),
    )


def too_many_seats(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    count = rng.choice((9, 10, 12))
    picked = _pick_show(view, customer, rng, count, "standard")
    if picked is None:
        return None
    show, seats = picked
    method = _payer(view, customer, 10_000, rng)
    if method is None:
        return None
    pay = card_words(method)
    slots = {"count": count, "seats": seat_words(seats), "show": show_words(view, show), "payment": pay}
    return Grounded(
        **BANKS["too_many_seats"].word(rng, slots).fields(),
        bindings=_show_search(view, show, rng),
        write=write(
            "purchase_tickets",
            account_id=customer.id,
            showtime_id=show["showtime_id"],
            seats=seats,
            payment_id=method["id"],
            credits=0,
        ),
        entities=frozenset({f"{customer.id}:purchase", *(f"seat:{show['showtime_id']}:{s}" for s in seats)}),
        known={**_show_facts(view, show), "seats": seat_words(seats), "pay_with": pay},
        discoverable={"showtime_id": show["showtime_id"]},
        evidence=(show["showtime_id"],),
    )


def showtime_question(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    for _ in range(8):
        show = rng.choice(view.on_sale)
        listed = view.day_shows(show["theatre_id"], show["starts_at"][:10], show["film_id"])
        last = listed[-1]
        if last["starts_at"] <= CLOCK or len(listed) < 2 or listed[-2]["starts_at"] == last["starts_at"]:
            continue
        facts = _show_facts(view, last)
        film, theatre, day = facts["film"], facts["theatre"], facts["show_date"]
        slots = {"film": film, "theatre": theatre, "day": day}
        return Grounded(
            **BANKS["showtime_question"].word(rng, slots).fields(),
            kind="information",
            bindings={**_show_search(view, last, rng), "film_title": film},
            entities=frozenset({f"question:{last['showtime_id']}"}),
            known={"film": film, "theatre": theatre, "show_date": day},
            discoverable={"showtime_id": last["showtime_id"]},
            evidence=(clock_time(last["starts_at"]),),
        )
    return None


# -------------------------------------------------------------------------------- exchanges, refunds


def _upcoming(view: View, customer: Customer, rng: Rng) -> list[Record]:
    orders = [
        o for o in view.distinct_orders(customer.id, "confirmed") if view.show_of(o)["starts_at"] >= CUTOFF
    ]
    rng.shuffle(orders)
    return orders


def _order_goal(view: View, order: Record, show: Record | None = None, **fields: Any) -> Grounded:
    bindings = {"order_id": view.order_lookups(order), "showtime_id": order["showtime_id"]}
    if show is not None:
        bindings = {"order_id": view.order_lookups(order), **_show_search(view, show, fields.pop("rng"))}
    fields.setdefault("entities", frozenset({order["order_id"]}))
    fields.setdefault("discoverable", {"order_id": order["order_id"]})
    fields.setdefault("evidence", (order["order_id"],))
    return Grounded(bindings=bindings, **fields)


def _exchange(view: View, customer: Customer, rng: Rng, same_film: bool) -> Grounded | None:
    for order in _upcoming(view, customer, rng)[:4]:
        old = view.show_of(order)
        options = [
            s
            for s in view.on_sale
            if (s["film_id"] == old["film_id"]) == same_film
            and s["showtime_id"] != old["showtime_id"]
            and s["starts_at"][:10] <= "2025-03-20"
            and (s["theatre_id"] == old["theatre_id"] or rng.random() < 0.2)
        ]
        rng.shuffle(options)
        kind = order["seats"][0]["type"] if order["seats"][0]["type"] != "accessible" else "standard"
        for show in options[:6]:
            seats = open_block(show, len(order["seats"]), kind, rng) if _findable(view, show) else None
            if not seats:
                continue
            method = view.accounts[customer.id]["payment_methods"][order["payment_id"]]
            charge = exchange_charge(view, order, show, seats)
            if method["type"] == "gift_card" and method["balance"] < charge:
                continue
            return _exchange_goal(view, order, show, seats, same_film, rng)
    return None


def _exchange_goal(
    view: View, order: Record, show: Record, seats: list[str], same_film: bool, rng: Rng
) -> Grounded:
    yours, old = order_words(view, order), view.show_of(order)
    facts = _show_facts(view, show)
    slots = {
        "yours": yours,
        "mine": "my " + yours.removeprefix("your "),
        "new": show_words(view, show),
        "seat_list": seat_list(seats),
        "old_day": long_day(old["starts_at"]).split()[0],
        "old_time": clock_time(old["starts_at"]),
        "old_film": view.films[old["film_id"]]["title"],
        "new_film": facts["film"],
    }
    direction = "later" if show["starts_at"] > old["starts_at"] else "earlier"
    same_day = show["starts_at"][:10] == old["starts_at"][:10]
    known = {
        "order_to_exchange": yours,
        "new_theatre": facts["theatre"],
        "new_show_date": facts["show_date"],
        "new_show_time": facts["show_time"],
        "new_seats": seat_words(seats),
    }
    if not same_film:  # the film of the same-film exchange is the order's: one fact, stated once
        known = {"order_to_exchange": yours, "new_film": facts["film"], **known}
    intent = "exchange_show" if same_film else "exchange_other_film"
    return _order_goal(
        view,
        order,
        show,
        rng=rng,
        **BANKS[intent].word(rng, slots, reason=f"{direction}_{'same_day' if same_day else 'day'}").fields(),
        write=write(
            "exchange_tickets", order_id=order["order_id"], new_showtime_id=show["showtime_id"], seats=seats
        ),
        entities=frozenset({order["order_id"], *(f"seat:{show['showtime_id']}:{s}" for s in seats)}),
        known=known,
        discoverable={"order_id": order["order_id"], "new_showtime_id": show["showtime_id"]},
        evidence=(order["order_id"], show["showtime_id"]),
    )


def exchange_show(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _exchange(view, customer, rng, same_film=True)


def eight_seats(view: View, customer: Customer, refused: Grounded, rng: Rng) -> Grounded | None:
    """The policy's alternative to an order of more than eight seats: one order of eight of the
    seats chosen (a group is never split into several orders), which the customer takes."""
    assert refused.write is not None
    arguments = refused.write.arguments
    show = view.showtimes[arguments["showtime_id"]]
    seats = list(arguments["seats"][:MAX_SEATS])
    method = view.accounts[customer.id]["payment_methods"][arguments["payment_id"]]
    slots = {"count": MAX_SEATS, "seats": seat_words(seats), "show": show_words(view, show)}
    slots["payment"] = card_words(method)
    return Grounded(
        **BANKS["eight_seats"].word(rng, slots).fields(),
        bindings=_show_search(view, show, rng),
        write=write("purchase_tickets", **{**arguments, "seats": seats}),
        entities=refused.entities,
        known={"seats_instead": seat_words(seats)},
        discoverable={"showtime_id": show["showtime_id"]},
        evidence=(show["showtime_id"], seats[-1]),
    )


def exchange_other_film(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _exchange(view, customer, rng, same_film=False)


def _refund(view: View, order: Record, rng: Rng, intent: str) -> Grounded:
    yours, starts = order_words(view, order), view.show_of(order)["starts_at"]
    if intent == "refund_too_late":
        when = "past" if starts <= CLOCK else "imminent"
    else:
        when = "soon" if starts < SOON else "later"
    slots = {"yours": yours, "mine": "my " + yours.removeprefix("your ")}
    wording = BANKS[intent].word(rng, slots, reason=when)
    return _order_goal(
        view,
        order,
        **wording.fields(),
        write=write("refund_order", order_id=order["order_id"]),
        known={"order_to_refund": yours, "refund_reason": wording.reason},
    )


def refund_tickets(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    orders = _upcoming(view, customer, rng)
    return _refund(view, orders[0], rng, "refund_tickets") if orders else None


def refund_too_late(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    orders = [
        o
        for o in view.distinct_orders(customer.id, "confirmed", "completed")
        if view.show_of(o)["starts_at"] < CUTOFF and view.show_of(o)["starts_at"] >= "2025-03-10"
    ]
    return _refund(view, rng.choice(orders), rng, "refund_too_late") if orders else None


# --------------------------------------------------------------------------------------- membership


def _membership_goal(view: View, customer: Customer, new_plan: str, wording: Wording) -> Grounded:
    """A membership change; the careful agent also looks at the latest orders (they keep their seats)."""
    orders = view.accounts[customer.id]["orders"]
    bindings = {"order_id": Lookups(tuple(orders[-2:][::-1]))} if orders else {}
    return Grounded(
        **wording.fields(),
        bindings=bindings,
        write=write("change_membership", account_id=customer.id, new_plan=new_plan),
        entities=frozenset({f"{customer.id}:membership"}),
        known={"membership_wish": TIER_WORDS[new_plan]},
        evidence=(customer.id, new_plan),
    )


def _tier_change(view: View, customer: Customer, rng: Rng, intent: str, allowed: bool) -> Grounded | None:
    membership = view.accounts[customer.id]["membership"]
    if membership.get("status") != "active":
        return None
    if (days_since(membership["tier_changed_on"]) >= TIER_CHANGE_DAYS) != allowed:
        return None
    new_plan = "premiere" if membership["tier"] == "plus" else "plus"
    word = "upgrade" if new_plan == "premiere" else "downgrade"
    wording = BANKS[intent].word(rng, {"word": word, "plan": TIER_WORDS[new_plan]}, reason=word)
    return _membership_goal(view, customer, new_plan, wording)


def change_tier(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _tier_change(view, customer, rng, "change_tier", allowed=True)


def change_tier_too_soon(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _tier_change(view, customer, rng, "change_tier_too_soon", allowed=False)


def _cancel(view: View, customer: Customer, rng: Rng, intent: str, allowed: bool) -> Grounded | None:
    membership = view.accounts[customer.id]["membership"]
    if membership.get("status") != "active":
        return None
    if (days_since(membership["member_since"]) >= MINIMUM_TERM_DAYS) != allowed:
        return None
    wording = BANKS[intent].word(rng, {"plan": TIER_WORDS[membership["tier"]]})
    return _membership_goal(view, customer, "cancel", wording)


def cancel_membership(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _cancel(view, customer, rng, "cancel_membership", allowed=True)


def cancel_in_minimum_term(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _cancel(view, customer, rng, "cancel_in_minimum_term", allowed=False)


# -------------------------------------------------------------------------------------------- intents

BUY = ("list_theatres", "search_showtimes", "get_showtime_details")
ORDER = ("get_order_details", "get_showtime_details")
EXCHANGE = ("get_order_details", "list_theatres", "search_showtimes", "get_showtime_details")
MEMBER = ("get_membership_details", "get_order_details")


def intent(ground: Any, terminal: str, topic: str, reads: tuple[str, ...], *required: str) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, reads, required)


def challenge(ground: Any, terminal: str, topic: str, reads: tuple[str, ...], *required: str) -> Intent:
    return Intent(ground.__name__, terminal, ground, topic, reads, required, challenge=True)


INTENTS = (
    intent(buy_tickets, "purchase_tickets", "buying movie tickets", BUY, *BUY[1:]),
    intent(
        exchange_show,
        "exchange_tickets",
        "exchanging tickets",
        EXCHANGE,
        "get_order_details",
        "search_showtimes",
    ),
    intent(refund_tickets, "refund_order", "a ticket refund", ORDER, "get_order_details"),
    intent(change_tier, "change_membership", "changing a membership", MEMBER, MEMBER[0]),
    intent(cancel_membership, "change_membership", "cancelling a membership", MEMBER, MEMBER[0]),
    Intent(
        "showtime_question",
        "get_showtime_details",
        showtime_question,
        "finding a showtime",
        BUY[:2],
        ("search_showtimes",),
        weight=0.35,
    ),
    Intent(
        "too_many_seats",
        "purchase_tickets",
        too_many_seats,
        "buying tickets for a group",
        BUY,
        BUY[1:],
        challenge=True,
        alternative=Alternative("eight_seats", "purchase_tickets", eight_seats),
    ),
    challenge(
        exchange_other_film,
        "exchange_tickets",
        "exchanging tickets",
        EXCHANGE,
        "get_order_details",
        "search_showtimes",
    ),
    challenge(refund_too_late, "refund_order", "a ticket refund", ORDER, "get_order_details"),
    challenge(change_tier_too_soon, "change_membership", "changing a membership", MEMBER, MEMBER[0]),
    challenge(cancel_in_minimum_term, "change_membership", "cancelling a membership", MEMBER, MEMBER[0]),
)


TRACER = TracerSpec(
    load=load,
    customers=customers,
    intents=INTENTS,
    check_policy=check_policy,
    personas=PERSONAS,
    walk_lengths={2: 0.25, 3: 0.45, 4: 0.3},
    intent_counts={2: 0.2, 3: 0.45, 4: 0.35},
)
