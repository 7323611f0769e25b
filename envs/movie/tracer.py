"""Movie's parts for the Tracer (docs/tracer.md): the intents a guest brings, grounded on the seed
view (seed_view.py), and the spec the builder reads; the policy's rules are in policy_check.py."""

from __future__ import annotations

from typing import Any

from taue.envs.movie.generate import TIERS
from taue.envs.movie.policy_check import check_policy
from taue.envs.movie.seed_view import (
    CLOCK,
    CUTOFF,
    MINIMUM_TERM_DAYS,
    PERSONAS,
    REFUND_BECAUSE,
    TIER_CHANGE_DAYS,
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
from taue.envs.runtime.authoring import Customer, Grounded, Intent, Lookups, TracerSpec, write

# ------------------------------------------------------------------------------------------- buying


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
    words, pay = show_words(view, show), card_words(method)
    use = f", using {credits} of my ticket credits" if credits else ""
    yours = f", using {credits} ticket credits" if credits else ", without using any ticket credits"
    chosen = seat_words(seats)
    return Grounded(
        request=f"I'd like {len(seats)} {kind} seat{'s' * (count > 1)} ({chosen}) for {words}{use}, "
        f"paid with my {pay}.",
        situation=f"You want to buy tickets for {words}: seats {chosen}{yours}, the rest paid with your "
        f"{pay}",
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
        reason="Buy movie tickets.",
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
    words, pay = show_words(view, show), card_words(method)
    return Grounded(
        request=f"I need {count} seats together ({seat_words(seats)}) for {words} in one order, paid "
        f"with my {pay}.",
        situation=f"You are organising a group outing and want all {count} seats {seat_words(seats)} for "
        f"{words} in a single order, paid with your {pay}",
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
        reason="Buy tickets for a group.",
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
        return Grounded(
            kind="information",
            request=f"When does the last showing of {film} start at {theatre} on {day}, and in which format?",
            situation=f"You want to know when the last showing of {film} at {theatre} on {day} starts "
            "and its format; you do not want to buy anything for it yet",
            bindings={**_show_search(view, last, rng), "film_title": film},
            entities=frozenset({f"question:{last['showtime_id']}"}),
            known={"film": film, "theatre": theatre, "show_date": day},
            discoverable={"showtime_id": last["showtime_id"]},
            evidence=(clock_time(last["starts_at"]),),
            reason="Ask about showtimes.",
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
    mine, new = order_words(view, order), show_words(view, show)
    facts = _show_facts(view, show)
    return _order_goal(
        view,
        order,
        show,
        rng=rng,
        request=f"Please move {mine.replace('your ', 'my ')} to {new}, seats {seat_words(seats)}.",
        situation=f"You want {mine} moved to {new}, seats {seat_words(seats)}"
        + ("" if same_film else "; you have changed your mind about which film to see"),
        write=write(
            "exchange_tickets", order_id=order["order_id"], new_showtime_id=show["showtime_id"], seats=seats
        ),
        entities=frozenset({order["order_id"], *(f"seat:{show['showtime_id']}:{s}" for s in seats)}),
        known={
            "order_to_exchange": mine,
            "new_film": facts["film"],
            "new_theatre": facts["theatre"],
            "new_show_date": facts["show_date"],
            "new_show_time": facts["show_time"],
            "new_seats": seat_words(seats),
        },
        discoverable={"order_id": order["order_id"], "new_showtime_id": show["showtime_id"]},
        evidence=(order["order_id"], show["showtime_id"]),
        reason="Exchange movie tickets." if same_film else "Swap tickets to another film.",
    )


def exchange_show(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _exchange(view, customer, rng, same_film=True)


def exchange_other_film(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _exchange(view, customer, rng, same_film=False)


def _refund(view: View, order: Record, rng: Rng) -> Grounded:
    mine, because = order_words(view, order), rng.choice(REFUND_BECAUSE)
    return _order_goal(
        view,
        order,
        request=f"Please refund {mine.replace('your ', 'my ')}; {because.replace('you are', 'I am')}.",
        situation=f"You want a refund for {mine} because {because}",
        write=write("refund_order", order_id=order["order_id"]),
        known={"order_to_refund": mine, "refund_reason": because},
        reason="Refund movie tickets.",
    )


def refund_tickets(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    orders = _upcoming(view, customer, rng)
    return _refund(view, orders[0], rng) if orders else None


def refund_too_late(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    orders = [
        o
        for o in view.distinct_orders(customer.id, "confirmed", "completed")
        if view.show_of(o)["starts_at"] < CUTOFF and view.show_of(o)["starts_at"] >= "2025-03-10"
    ]
    return _refund(view, rng.choice(orders), rng) if orders else None


# --------------------------------------------------------------------------------------- membership


def _membership_goal(
    view: View, customer: Customer, new_plan: str, request: str, situation: str, reason: str
) -> Grounded:
    """A membership change; the careful agent also looks at the latest orders (they keep their seats)."""
    orders = view.accounts[customer.id]["orders"]
    bindings = {"order_id": Lookups(tuple(orders[-2:][::-1]))} if orders else {}
    return Grounded(
        request=request,
        situation=situation,
        bindings=bindings,
        write=write("change_membership", account_id=customer.id, new_plan=new_plan),
        entities=frozenset({f"{customer.id}:membership"}),
        known={"membership_wish": TIER_WORDS[new_plan]},
        evidence=(customer.id, new_plan),
        reason=reason,
    )


def _tier_change(view: View, customer: Customer, rng: Rng, allowed: bool) -> Grounded | None:
    membership = view.accounts[customer.id]["membership"]
    if membership.get("status") != "active":
        return None
    if (days_since(membership["tier_changed_on"]) >= TIER_CHANGE_DAYS) != allowed:
        return None
    new_plan = "premiere" if membership["tier"] == "plus" else "plus"
    word = "upgrade" if new_plan == "premiere" else "downgrade"
    plan = TIER_WORDS[new_plan]
    credits = TIERS[new_plan]["credits"]
    return _membership_goal(
        view,
        customer,
        new_plan,
        f"I'd like to {word} my membership to {plan}.",
        f"You want to {word} your membership to {plan} ({credits} ticket credits a month)",
        "Change the membership tier.",
    )


def change_tier(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _tier_change(view, customer, rng, allowed=True)


def change_tier_too_soon(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _tier_change(view, customer, rng, allowed=False)


def _cancel(view: View, customer: Customer, rng: Rng, allowed: bool) -> Grounded | None:
    membership = view.accounts[customer.id]["membership"]
    if membership.get("status") != "active":
        return None
    if (days_since(membership["member_since"]) >= MINIMUM_TERM_DAYS) != allowed:
        return None
    because = rng.choice(("you are moving away", "you rarely go to the movies now", "money is tight"))
    plan = TIER_WORDS[membership["tier"]]
    return _membership_goal(
        view,
        customer,
        "cancel",
        f"Please cancel my {plan} membership; {because.replace('you are', 'I am')}.",
        f"You want your {plan} membership cancelled because {because}; you accept "
        "that unused credits are lost",
        "Cancel the membership.",
    )


def cancel_membership(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _cancel(view, customer, rng, allowed=True)


def cancel_in_minimum_term(view: View, customer: Customer, rng: Rng) -> Grounded | None:
    return _cancel(view, customer, rng, allowed=False)


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
    intent(showtime_question, "get_showtime_details", "finding a showtime", BUY[:2], "search_showtimes"),
    challenge(too_many_seats, "purchase_tickets", "buying tickets for a group", BUY, *BUY[1:]),
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
    walk_lengths={2: 0.2, 3: 0.45, 4: 0.35},
    intent_counts={1: 0.1, 2: 0.5, 3: 0.4},
)
