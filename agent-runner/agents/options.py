"""What an agent can show a customer to choose from: records and options found in its own tool results.

The style agents (`style_agents.py`) use it the way a real agent uses what its reads returned: the
customer's reservations or orders, each described by its details, when the customer named one
without its id; the flights, item variants, sections, time slots or payment methods a need could use,
when the need has a choice. Everything shown comes from tool results of the episode (the gold reads,
and a detail read per candidate record), never from the task's scenario.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mcp import Client

from taue.contracts.tasks import Action, Goal
from taue.runner.agents.oracle import call_each
from taue.runner.agents.wordings import plain

IDENTITY_KEYS = frozenset(
    {"user_id", "customer_id", "account_id", "guest_id", "patient_id", "student_id", "bank_customer_id"}
)
"""Arguments naming the customer: never a record to pick nor an option."""
PAYMENT_KEYS = frozenset(
    {"payment_id", "payment_method_id", "method_id", "from_account_id", "refund_to", "pay_from"}
)
"""Arguments naming how a need is paid or where its refund goes."""
ELEMENT_KEYS = ("flight_number", "seat")
"""Keys besides `id` and `*_id` that identify an element of a list."""
MAX_OPTIONS = 4
BOOKKEEPING = frozenset(
    {"created_at", "updated_at", "placed_at", "ready_at", "cancelled_at", "registered_on"}
)
"""Details of a record no agent reads out."""
WHAT_AND_WHEN = re.compile(r"^(name|title|\w+ name|\w+ title)\b|\d{4}-\d\d-\d\d|\b\d{1,2}:\d\d")
"""Details a customer recognises a record by (its name, its date or time): shown first."""


@dataclass(frozen=True)
class Option:
    value: Any
    """What the write's argument holds when this option is chosen."""
    label: str
    """How the agent shows it."""
    name: str = ""
    """How the agent calls it in a sentence: its id, or its label where the id is internal (a payment
    method's) or there is no other (a time slot)."""


def parse(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def is_id_key(name: str) -> bool:
    return name == "id" or name.endswith(("_id", "_ids")) or name in ELEMENT_KEYS


def record_keys(goal: Goal, write: Action, heard: str = "") -> list[tuple[str, str]]:
    """The records a write changes: its goal's target arguments that are ids (not the customer's, not a
    payment's, not a new one, not what a booking picks from a catalogue); with `heard` (what the
    customer said, lower case), only those whose id the customer never gave."""
    found = []
    for target in goal.targets:
        if target.tool != write.name:
            continue
        for name, value in target.arguments.items():
            if (
                isinstance(value, str)
                and is_id_key(name)
                and name not in IDENTITY_KEYS | PAYMENT_KEYS
                and not name.startswith("new_")
                and not (name in CATALOGUE and write.name.startswith(CREATING))
                and value.lower() not in heard
            ):
                found.append((name, value))
    return found


def flat_arguments(arguments: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(name, scalar value) for every argument, nested ones too (`flights.flight_number`)."""
    for name, value in arguments.items():
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, dict):
                yield from flat_arguments(item, f"{prefix}{name}.")
            elif isinstance(item, str | int) and not isinstance(item, bool):
                yield f"{prefix}{name}", item


def containers(node: Any) -> Iterator[list[Any]]:
    """Every list (of records or of plain values) and every dict of records inside a tool result."""
    if isinstance(node, list):
        if len(node) > 1:
            yield node
        for item in node:
            yield from containers(item)
    elif isinstance(node, dict):
        values = list(node.values())
        if len(values) > 1 and all(isinstance(v, dict) for v in values):
            yield values
        for value in values:
            yield from containers(value)


def element_key(element: Any, value: Any) -> str | None:
    """The identifying key under which `element` holds `value` ("" for a plain string equal to it)."""
    if isinstance(element, dict):
        return next((k for k, v in element.items() if v == value and is_id_key(k)), None)
    return "" if isinstance(value, str) and element == value else None


def siblings(outputs: list[tuple[Action, str]], value: Any, skip: frozenset[str]) -> list[tuple[Any, Any]]:
    """(value, element) of `value`'s container in the first tool result holding it among others; results
    of calls whose arguments hold one of `skip` (the record's own details) are not looked at."""
    for action, text in outputs:
        if any(str(v) in skip for _, v in flat_arguments(action.arguments)):
            continue
        for container in containers(parse(text)):
            key = next((k for e in container if (k := element_key(e, value)) is not None), None)
            if key is None:
                continue
            found: list[tuple[Any, Any]] = (
                [(e[key], e) for e in container if isinstance(e, dict) and key in e]
                if key
                else [(e, e) for e in container if isinstance(e, str)]
            )
            if len(found) > 1:
                return found
    return []


CATALOGUE = frozenset(
    {"hotel_id", "car_id", "package_id", "camp_id", "game_id", "showtime_id", "section_id", "provider_id"}
)
"""Ids of what a booking picks from a catalogue (when the write creates something)."""
CREATING = ("book", "buy", "purchase", "register", "schedule", "add", "create")


def choices(write: Action, outputs: list[tuple[Action, str]], records: list[tuple[str, str]]) -> list[Option]:
    """The options of the first argument of `write` that was picked among several in a tool result (a
    flight among the search's, a variant, a time slot, a payment method), the chosen one first."""
    skip = frozenset(str(v) for _, v in records)
    for name, value in flat_arguments(write.arguments):
        key = name.rsplit(".", 1)[-1]
        if key in IDENTITY_KEYS or str(value) in skip or not _choosable(key, write):
            continue
        found = siblings(outputs, value, skip)
        if found:
            return _options(value, [(v, e) for v, e in found if _usable(e)] or found)
    return []


def _choosable(key: str, write: Action) -> bool:
    """A plain value, or an id that is chosen rather than changed: a new one, a payment method, a
    flight, what a booking picks from a catalogue."""
    if not is_id_key(key):
        return True
    creating = write.name.startswith(CREATING)
    return (
        key.startswith("new_")
        or key in PAYMENT_KEYS
        or key in ELEMENT_KEYS
        or (creating and key in CATALOGUE)
    )


def _usable(element: Any) -> bool:
    """Not an option a customer could take: unavailable, sold out, closed."""
    if not isinstance(element, dict):
        return True
    if element.get("available") is False or element.get("status") in ("cancelled", "closed", "sold_out"):
        return False
    return not any(k.endswith("_left") and v == 0 for k, v in element.items())


def _options(value: Any, found: list[tuple[Any, Any]]) -> list[Option]:
    chosen = next((e for v, e in found if v == value), value)
    others = [(v, e) for v, e in found if v != value]
    if isinstance(value, str) and not isinstance(chosen, dict):  # plain values (time slots): the nearest
        at = [v for v, _ in found].index(value)
        others.sort(key=lambda pair: abs([v for v, _ in found].index(pair[0]) - at))
    picked = [(value, chosen), *others[: MAX_OPTIONS - 1]]
    return [_option(v, e) for v, e in picked]


def _option(value: Any, element: Any) -> Option:
    if not isinstance(element, dict):
        return Option(value, str(value), str(value))
    shown = label(element, brief=True)
    return Option(value, shown, shown if _pays(element) else str(value))


def _pays(record: dict[str, Any]) -> bool:
    return "last_four" in record or "source" in record


def arrange(options: list[Option], rng: random.Random) -> list[Option]:
    """The options in a shown order: the chosen one (first in `options`) at a seeded place."""
    shown = list(options[1:])
    shown.insert(rng.randrange(len(shown) + 1), options[0])
    return shown


def label(record: dict[str, Any], key: str | None = None, brief: bool = False) -> str:
    """A record in a line: a payment method as a customer names it ("Visa credit card ending in 2998",
    "gift card (balance 414)"), anything else by its short details ("origin LAX; destination EWR; cabin
    economy; flights on …"); `brief` (an option) leaves out its availability."""
    if _pays(record):
        source = str(record.get("source") or record.get("kind") or "card").replace("_", " ")
        text = f"{str(record.get('brand') or '').title()} {source}".strip()
        text += f" ending in {record['last_four']}" if "last_four" in record else ""
        extras = [f"{k} {record[k]}" for k in ("balance", "amount") if k in record]
        return text + (f" ({', '.join(extras)})" if extras else "")
    parts = []
    for name, value in record.items():
        if name == key or name in BOOKKEEPING or value in (None, "", [], {}):
            continue
        if is_id_key(name) and not (isinstance(value, str) and value.isalpha()):
            continue  # codes say nothing to a customer; a slug ("riverside") does
        if brief and (name == "status" or name.startswith("available") or name.endswith("_left")):
            continue
        spoken = name.replace("_", " ")
        if isinstance(value, str | int | float) and not isinstance(value, bool) and len(str(value)) <= 40:
            parts.append(f"{spoken} {plain(value).replace('_', ' ')}")
        elif isinstance(value, dict) and all(isinstance(v, str | int | float) for v in value.values()):
            parts.append(f"{spoken}: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in value.items()))
        elif isinstance(value, list) and all(isinstance(item, dict) for item in value):
            named = [str(item[k]) for item in value for k in ("name", "title", "item_name") if k in item]
            dates = [str(item["date"]) for item in value if "date" in item]
            if named or dates:
                parts.append(f"{spoken}: {', '.join(named[:3])}" if named else f"{spoken} on {dates[0]}")
    parts.sort(key=lambda part: not WHAT_AND_WHEN.search(part))
    return "; ".join(parts[:5])


async def candidate_records(
    client: Client, outputs: list[tuple[Action, str]], name: str, value: str
) -> list[Option]:
    """The customer's records of the kind of `value` (the right one first), each with its details: the
    records listed beside it in a tool result, described from that result, or, where the result lists
    bare ids (a profile's reservations), from the detail read that fetched `value` made for each."""
    found = siblings(outputs, value, frozenset())
    if not found:
        return []
    found.sort(key=lambda pair: pair[0] != value)
    found = found[:MAX_OPTIONS]
    if all(isinstance(e, dict) for _, e in found):
        return [Option(v, label(e, name), str(v)) for v, e in found]
    detail = next((a for a, _ in outputs if value in a.arguments.values()), None)
    if detail is None:
        return []
    described = []
    for record, _ in found:
        argument = next(k for k, v in detail.arguments.items() if v == value)
        fetched: list[tuple[Action, str]] = []
        call = Action(name=detail.name, arguments={**detail.arguments, argument: record})
        if await call_each(client, [call], fetched) is None and isinstance(parse(fetched[0][1]), dict):
            described.append(Option(record, label(parse(fetched[0][1]), name), str(record)))
    return described if len(described) > 1 and described[0].value == value else []


def other_statuses(outputs: list[tuple[Action, str]], exclude: set[str]) -> list[tuple[str, str, str]]:
    """(kind, id, status) of the records in tool results that no write touches: what a chatty agent
    mentions in passing ("your previous order O70110 was completed")."""
    seen: dict[str, tuple[str, str, str]] = {}
    for _, text in outputs:
        for record in _records(parse(text)):
            key = next((k for k in record if k.endswith("_id") and k not in IDENTITY_KEYS), None)
            status = record.get("status")
            if (
                key
                and isinstance(status, str)
                and isinstance(record[key], str)
                and record[key] not in exclude
            ):
                seen.setdefault(record[key], (key.removesuffix("_id").replace("_", " "), record[key], status))
    return list(seen.values())


def _records(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _records(value)
    elif isinstance(node, list):
        for item in node:
            yield from _records(item)
