"""Sums of money in a report, and whether the service's confirmation of a write states them.

A confirmation carries the write's arguments and its result (`Notification.output`): the refund a
cancellation made, the fare difference a change charged, the amount a payment moved. A report that
names a sum for such a write ("I've refunded $25") names one of them, a total of two ("$356 in all"
for two refunds of $178), or a multiple or a share for a few passengers or items ("$178 each,
$534 for the three of you"); rounded to the dollar or to the cent, as people write sums. A
confirmation without a result states no sums, and nothing is checked against it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from itertools import combinations
from typing import Any

from taue.contracts.episode import Notification

SUM = re.compile(r"\$\s?(\d[\d,]*(?:\.\d+)?)|\b(\d[\d,]*(?:\.\d+)?) (?:dollars|usd)\b", re.IGNORECASE)
"""A sum of money in the agent's words: "$1,194.00", "$ 25", "178 dollars"."""
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
MULTIPLES = range(2, 10)
"""A per-passenger or per-item sum times a party's size."""


def sums_named(sentence: str) -> list[float]:
    """The sums of money a sentence names."""
    return [float((a or b).replace(",", "")) for a, b in SUM.findall(sentence)]


def stated_numbers(notification: Notification) -> frozenset[float]:
    """Every number the confirmation states, in its arguments and in its result (signs dropped: a
    refund may be logged as a negative payment); none without a result, which a sum is checked
    against."""
    if not notification.output.strip():
        return frozenset()
    numbers = set(_numbers(notification.arguments))
    numbers.update(abs(float(n)) for n in NUMBER.findall(_plain(notification.output)))
    return frozenset(n for n in numbers if n > 0)


def stated(amount: float, numbers: Iterable[float]) -> bool:
    """The sum is a stated number, a total of two, or a small multiple of one (to the cent or the
    dollar)."""
    pool = sorted(set(numbers))
    candidates = [*pool, *(a + b for a, b in combinations(pool, 2))]
    candidates += [n * k for n in pool for k in MULTIPLES] + [n / k for n in pool for k in MULTIPLES]
    return any(_same(amount, c) for c in candidates)


def _same(amount: float, number: float) -> bool:
    return abs(amount - number) < 0.005 or round(amount) == round(number)


def _numbers(value: Any) -> Iterable[float]:
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield abs(float(value))
    elif isinstance(value, str) and NUMBER.fullmatch(value.replace(",", "").strip()):
        yield abs(float(value.replace(",", "")))  # "178.00"; an id's digits ("ABC123") state no sum
    elif isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)


def _plain(output: str) -> str:
    """The result's numbers as text: a JSON result's values (not its ids' digits), else the text's."""
    try:
        return " ".join(str(n) for n in _numbers(json.loads(output)))
    except (ValueError, TypeError):
        return output.replace(",", "")
