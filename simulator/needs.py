"""Details per need: the questions a policy makes an agent ask, answered for the need at hand.

Every domain's policy makes the agent ask before it writes: how the customer pays or where a refund
goes, and often why (a cancellation's reason). A customer always has an answer to those, even when
the scenario names no such fact:

- **payment**: when the scenario gives the customer no payment fact but a need's write pays with a
  method (a write argument whose name speaks of paying or refunding, valued like `gift_card_0131`),
  the customer knows that method by its kind ("the gift card"; never its number) as a known fact
  `pay_with` (`pay_with_2`, … for needs paid differently);
- **reason**: when the scenario names no reason, "reason" is a fact the customer does not have: the
  question is placed, answered plainly, and costs nothing the first time.

With several payment facts (`pay_with`, `pay_with_2`), a question about paying is about the need the
agent is working on: `for_need` picks the fact whose value that need's request names (or whose
method its write pays with). A proposal for a need that names another need's payment is declined
with the right method (`other_payment`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from taue.contracts.tasks import Goal, UserScenario
from taue.contracts.text import contains, tokens
from taue.simulator.disclosure import is_detail

_KIND_ID = re.compile(r"^([a-z]+(?:_[a-z]+)*)_\d+$")
_PAYING_ARGUMENT = re.compile(r"pay|refund")
_NUMBER = re.compile(r"_\d+$")
REASON = "reason"
"""The fact a customer without a stated reason is asked for."""


def with_policy_facts(scenario: UserScenario) -> UserScenario:
    """The scenario with the answers a customer always has to the policy's questions (above)."""
    known = dict(scenario.known_info)
    unknown = list(scenario.unknown_info)
    if not any(is_detail(name) for name in known):
        for index, method in enumerate(dict.fromkeys(_paid_with(scenario.goals))):
            known["pay_with" if index == 0 else f"pay_with_{index + 1}"] = method
    names = [*known, *unknown, *scenario.discoverable]
    if not any("reason" in name or "because" in name for name in names):
        unknown.append(REASON)
    if known == scenario.known_info and unknown == scenario.unknown_info:
        return scenario
    return scenario.model_copy(update={"known_info": known, "unknown_info": unknown})


def for_need(name: str, goal: Goal | None, known: Mapping[str, str]) -> str:
    """The payment fact of `name`'s kind that belongs to `goal` (its request names the value, or its
    write pays with that method); `name` itself otherwise."""
    if goal is None or not is_detail(name):
        return name
    family = _NUMBER.sub("", name)
    siblings = [n for n in known if _NUMBER.sub("", n) == family]
    own = [n for n in siblings if _belongs(known[n], goal)]
    return own[0] if own and name not in own else name


def other_payment(goal: Goal, message: str, known: Mapping[str, str]) -> str | None:
    """The goal's own payment fact when the message names another payment fact's value and not
    the goal's: the proposal pays the wrong way."""
    payments = {n: v for n, v in known.items() if is_detail(n)}
    own = [n for n, v in payments.items() if _belongs(v, goal)]
    others = [v for n, v in payments.items() if n not in own]
    if not own or not others:
        return None
    words = tokens(message)
    if any(_names(words, payments[n]) for n in own):
        return None
    return own[0] if any(_names(words, value) for value in others) else None


def _belongs(value: str, goal: Goal) -> bool:
    return contains(goal.request, value) or value in _paid_with([goal])


def _names(words: list[str], value: str) -> bool:
    """A payment value is named by its number ("ending in 4908") or, without one, by all of it."""
    numbers = [t for t in tokens(value) if t.isdigit() and len(t) >= 3]
    return any(contains(words, n) for n in numbers) if numbers else contains(words, value)


def _paid_with(goals: list[Goal]) -> Iterator[str]:
    """Each payment method the goals' writes pay with, by its kind in words ("the gift card")."""
    for goal in goals:
        for target in goal.targets:
            for argument, value in target.arguments.items():
                match = _KIND_ID.match(value) if isinstance(value, str) else None
                if match and _PAYING_ARGUMENT.search(argument):
                    yield f"the {match.group(1).replace('_', ' ')}"
