"""A structured user scenario for the scripted user, derived from a published task.

Published tasks carry only a free-text instruction for an LLM user. The scripted user needs facts
and goals (docs/tasks.md), so they are derived from the ground truth:

- the task's `user_id` is a known fact the user states first (`email` when it is an e-mail address);
- every other scalar in the ground-truth arguments is a fact: *known* when the instruction states it
  (the user can give it), *discoverable* otherwise (the agent's tools can find it, so asking the
  user for it is needless);
- each ground-truth write is one `action` goal, in order, asked for in plain words with only the ids
  the customer knows ("I'd like to cancel pending order (#W123)."), whose evidence is the write's ids
  (or its first values) and whose target is that write (its ids as key arguments, widened until no
  two goals share a target);
- each expected output is an `information` goal;
- a task with neither writes nor outputs (pure look-ups) gets the looked-up values as expected
  outputs, so the scripted user has something to confirm; the task is flagged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from taue.contracts.tasks import Action, Goal, UserScenario
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.goal_targets import attach_targets

MAX_FACTS = 40
MAX_EVIDENCE = 3
MIN_MENTION_CHARS = 3
NO_FACT_TOOLS = frozenset({"think", "calculate"})


@dataclass
class Derived:
    scenario: UserScenario
    outputs: list[str]
    flags: list[str] = field(default_factory=list)


def _scalars(value: Any, name: str) -> Iterator[tuple[str, str]]:
    """(fact name, text) for every string or number inside `value`; nested values take their key."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, str | int | float):
        text = str(value).strip()
        if text:
            yield name, text
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _scalars(item, str(key))
    elif isinstance(value, list):
        for item in value:
            yield from _scalars(item, name)


def mentioned(text: str, instruction: str) -> bool:
    """`text` occurs in the instruction as a whole token (case-insensitive; pass the instruction
    lower-cased)."""
    if len(text) < MIN_MENTION_CHARS:
        return False
    needle = text.lower()
    start = instruction.find(needle)
    while start != -1:
        end = start + len(needle)
        if not (_word_char(instruction, start - 1) or _word_char(instruction, end)):
            return True
        start = instruction.find(needle, start + 1)
    return False


def _word_char(text: str, index: int) -> bool:
    return 0 <= index < len(text) and text[index].isascii() and text[index].isalnum()


def _clean(text: str) -> bool:
    """Usable as evidence: printable ASCII without quotes or backslashes (it then reads the same in
    JSON, in Python's repr and in an agent's message)."""
    return text.isascii() and text.isprintable() and not any(c in text for c in "\"'\\")


def _identity_fact(user_id: str) -> str:
    return "email" if "@" in user_id else "user_id"


def _facts(user_id: str, instruction: str, actions: list[Action]) -> tuple[dict[str, str], dict[str, str]]:
    identity = _identity_fact(user_id)
    known: dict[str, str] = {identity: user_id}
    discoverable: dict[str, str] = {}
    seen = {user_id}
    lowered = instruction.lower()
    for action in actions:
        if action.name in NO_FACT_TOOLS:
            continue
        for argument, value in action.arguments.items():
            for name, text in _scalars(value, argument):
                if text in seen or len(known) + len(discoverable) >= MAX_FACTS:
                    continue
                seen.add(text)
                unique = _unique_name(name, known, discoverable)
                (known if mentioned(text, lowered) else discoverable)[unique] = text
    return known, discoverable


def _unique_name(name: str, *taken: dict[str, str]) -> str:
    candidate, number = name, 1
    while any(candidate in facts for facts in taken):
        number += 1
        candidate = f"{name}_{number}"
    return candidate


def _evidence(arguments: dict[str, Any]) -> list[str]:
    """The ids of a write (top-level `*_id` strings), else its first clean values."""
    ids = [v for k, v in arguments.items() if k.endswith("id") and isinstance(v, str) and _clean(v)]
    if ids:
        return list(dict.fromkeys(ids))[:MAX_EVIDENCE]
    values = [text for name in arguments for _, text in _scalars(arguments[name], name) if _clean(text)]
    return list(dict.fromkeys(values))[:MAX_EVIDENCE]


def _request(action: Action, known: dict[str, str]) -> str:
    """The write as the customer asks for it: the tool's words as plain words and only the ids the
    customer knows (those the instruction states), never a field name or an id it was not given."""
    values = set(known.values())
    shown = [v for v in action.arguments.values() if isinstance(v, str) and v in values][:2]
    target = f" ({', '.join(shown)})" if shown else ""
    return f"I'd like to {action.name.replace('_', ' ')}{target}."


def _lookup_outputs(actions: list[Action], fallback: str) -> list[str]:
    """For a look-up-only task: the first argument value of each look-up."""
    values = []
    for action in actions:
        if action.name in NO_FACT_TOOLS or not action.arguments:
            continue
        first = next(iter(action.arguments.values()))
        if isinstance(first, str) and _clean(first) and "," not in first:
            values.append(first)
    return list(dict.fromkeys(values)) or [fallback]


def derive(
    domain: Domain, user_id: str, instruction: str, actions: list[Action], outputs: list[str]
) -> Derived:
    """The scripted user's scenario for one published task (see the module docstring)."""
    known, discoverable = _facts(user_id, instruction, actions)
    goals: list[Goal] = []
    pinned: dict[str, Action] = {}
    for action in actions:
        evidence = _evidence(action.arguments) if action.name in domain.write_tools else []
        if evidence:
            goal_id = f"g{len(goals) + 1}"
            pinned[goal_id] = action
            goals.append(
                Goal.model_construct(
                    id=goal_id, kind="action", request=_request(action, known), evidence=evidence
                )
            )
    flags: list[str] = []
    if not goals and not outputs:
        outputs = _lookup_outputs(actions, user_id)
        flags.append(
            f"look-up-only task (no write, no expected output): expected outputs {outputs} added "
            "so that the scripted user can confirm it; the original scores the database alone"
        )
    for output in outputs:
        goals.append(
            Goal(
                id=f"g{len(goals) + 1}",
                kind="information",
                request="Could you also look up and tell me what I asked about?",
                evidence=[output],
            )
        )
    goals = attach_targets(goals, actions, domain.write_tools, pinned)
    identity = _identity_fact(user_id)
    scenario = UserScenario(
        persona=f"A customer of the {domain.base} service (account {user_id}).",
        reason_for_call=f"I'm contacting {domain.base} customer service about my account.",
        known_info=known,
        volunteered=[identity],
        discoverable=discoverable,
        goals=goals,
    )
    return Derived(scenario=scenario, outputs=list(outputs), flags=flags)
