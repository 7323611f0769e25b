"""Which values of a scenario are ids (records the customer may quote) and which only look like
them: dates, zip codes and flight numbers are facts, not reference numbers. Shared by the
instruction writer (the "no other ids" sentence lists every id the text states) and the semantic
lints (docs/tracer.md, "Semantic lints")."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from taue.contracts.tasks import Action, UserScenario
from taue.tracer import semantic_words as w

ID_FACT = re.compile(r"(^|_)(id|number)$")
"""Facts named like an id ("user_id", "ticket_id", "card_number")."""


def is_id_fact(name: str) -> bool:
    """A fact named like an id, numbered or not ("ticket_id", "ticket_id_2")."""
    return ID_FACT.search(re.sub(r"_\d+$", "", name)) is not None


def split_values(value: object) -> Iterator[str]:
    """The single values of an argument or fact ("A and B" and lists hold several)."""
    items = value if isinstance(value, list) else [value]
    for item in items:
        if isinstance(item, str):
            yield from (part.strip() for part in item.split(" and ") if part.strip())


def not_an_id(value: str) -> bool:
    """A value that is a fact and no id: a date, a zip code."""
    return bool(w.ISO_DATE.fullmatch(value) or w.MONTH_DATE.fullmatch(value) or w.ZIP_CODE.fullmatch(value))


def flight_numbers(facts: Iterable[tuple[str, object]]) -> set[str]:
    """The flight numbers in facts or arguments the scenario calls flights ("cancelled_flight")."""
    return {
        token
        for name, value in facts
        if w.FLIGHT_FACT.search(name)
        for token in w.FLIGHT_NUMBER.findall(str(value))
    }


def record_ids(scenario: UserScenario, actions: Iterable[Action]) -> set[str]:
    """Every id of the scenario: id facts the customer knows, ids the agent's tools find, flight
    numbers, id arguments of the gold calls. Dates are not ids (`not-an-id` catches a date called one)."""
    actions = list(actions)
    values: list[object] = [v for name, v in scenario.known_info.items() if is_id_fact(name)]
    values += list(scenario.discoverable.values())
    values += sorted(flight_numbers(scenario.known_info.items()))
    for action in actions:
        values += [v for name, v in action.arguments.items() if w.ID_ARGUMENT.search(name)]
    found = {single for value in values for single in split_values(value)}
    return {v for v in found if w.ID_TOKEN.fullmatch(v) and not w.ISO_DATE.fullmatch(v)}


def gold_arguments(actions: Iterable[Action]) -> list[tuple[str, object]]:
    return [(name, value) for a in actions for name, value in a.arguments.items()]


def mentions(text: str, value: str) -> bool:
    """Whether `value` occurs in `text` as a whole token."""
    return re.search(rf"(?<![\w#]){re.escape(value)}(?!\w)", text) is not None


def stated_ids(
    texts: Iterable[str], scenario: UserScenario, actions: Iterable[Action], listed: Iterable[str] = ()
) -> list[str]:
    """The scenario's ids the texts state that `listed` does not hold, sorted."""
    text, listed = " ".join(texts), " ".join(listed)
    return sorted(i for i in record_ids(scenario, actions) if mentions(text, i) and not mentions(listed, i))


def known_flights(scenario: UserScenario, actions: Iterable[Action]) -> set[str]:
    """Flight numbers of the scenario's flight facts and of gold arguments named for flights."""
    return flight_numbers([*scenario.known_info.items(), *gold_arguments(actions)])
