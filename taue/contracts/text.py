"""Matching values in free text the way a reader would: by tokens, numbers by value.

"$1,568" reads as the number 1568, so it matches "1568" and "1568.00" but not "15680" or "156.8";
case, punctuation and whitespace never matter; identifiers such as `credit_card_1673693`, `#W1795741`
or `2024-05-21` stay single tokens. Used by the scripted user (is a goal's value named? is the
information said?) and by the scorer (is an expected output in the agent's messages?).
"""

from __future__ import annotations

import re
from typing import Any

_DIGIT_COMMA = re.compile(r"(?<=\d),(?=\d{3}\b)")
_TOKEN = re.compile(r"[a-z0-9_]+(?:[.\-/:@+][a-z0-9_]+)*")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def tokens(text: str) -> list[str]:
    """The text as comparable tokens: lower case, thousands commas dropped, numbers canonical."""
    cleaned = _DIGIT_COMMA.sub("", text.lower())
    return [_canonical(token) for token in _TOKEN.findall(cleaned)]


def _canonical(token: str) -> str:
    if _NUMBER.fullmatch(token):
        value = float(token)
        return str(int(value)) if value.is_integer() else repr(value)
    return token


def contains(haystack: str | list[str], needle: str | Any) -> bool:
    """Whether the needle's tokens occur, in order and adjacent, among the haystack's tokens."""
    words = tokens(haystack) if isinstance(haystack, str) else haystack
    wanted = tokens(needle if isinstance(needle, str) else _plain(needle))
    if not wanted:
        return False
    width = len(wanted)
    return any(words[i : i + width] == wanted for i in range(len(words) - width + 1))


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


ECHO_LIMIT = 64
"""Characters of any client input an error message may repeat (domain servers, simulator)."""


def shown(value: object, limit: int = ECHO_LIMIT) -> str:
    """`repr` of a client-supplied value for an error message, cut to `limit` characters (with the full
    length said): an id pasted 50 MB long is never echoed back whole."""
    text = str(value)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text)} characters)"
