"""A structured user scenario for the scripted user, derived from a published task.

Published tasks carry only a free-text instruction for an LLM user. The scripted user needs facts
and goals (docs/tasks.md), so they are derived from the ground truth:

- the task's `user_id` is a known fact the user states first (`email` when it is an e-mail address);
  unless the instruction says the customer does not know it and another fact identifies the user;
- every other scalar in the ground-truth arguments (conversation-ending tools' aside) is a fact:
  *known* when the instruction states it, in its spelling or another (`statements.stated_value`:
  "one-way", "May 20", "2 checked bags"; the user can give it), *discoverable* otherwise (the
  agent's tools can find it, so asking the user for it is needless);
- what else the instruction states is known too (`statements.stated_facts`: the customer's name,
  record ids, how it pays, its reasons, route, dates, budget and preferences), and what it says
  the customer does not know is unknown (`statements.unknown_facts`), never known or discoverable;
- each ground-truth write is one `action` goal, in order, asked for in plain words with only the ids
  the customer knows ("I'd like to cancel pending order (#W123)."), whose evidence is the write's ids
  (or its first values) and whose target is that write (its ids as key arguments, widened until no
  two goals share a target);
- what the customer asks that no gold write does is a `refusal_expected` action goal with the
  policy's reasons (`refusals.py`): every request of a task without gold writes (the policy forbids
  it), and a request naming a record no gold write touches; flagged;
- each expected output is an `information` goal;
- a task with no goal so far and no outputs (pure look-ups) gets the looked-up values as expected
  outputs, so the scripted user has something to confirm; the task is flagged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from taue.contracts.tasks import Action, Goal, UserScenario
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.goal_targets import attach_targets
from taue.envs.task_sets.policy_reasons import Rule, rules
from taue.envs.task_sets.refusals import refusal_drafts, refusal_goals
from taue.envs.task_sets.statements import preferences, stated_facts, stated_value, unknown_facts

MAX_FACTS = 40
MAX_EVIDENCE = 3
MIN_MENTION_CHARS = 3
NO_FACT_TOOLS = frozenset({"think", "calculate"})
IDENTITY = ("user_id", "email", "full_name", "first_name", "last_name", "zip", "zip_code", "phone")
"""Facts that identify the customer (the first known ones are volunteered when the user id is not)."""


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


def _facts(
    domain: Domain, user_id: str, instruction: str, actions: list[Action], skipped: frozenset[str]
) -> tuple[dict[str, str], dict[str, str]]:
    identity = _identity_fact(user_id)
    known: dict[str, str] = {identity: user_id}
    discoverable: dict[str, str] = {}
    seen = {user_id}
    lowered = instruction.lower()
    for action in actions:
        if action.name in skipped:
            continue
        enums = _enums(domain, action.name)
        for argument, value in action.arguments.items():
            for name, text in _scalars(value, argument):
                if text in seen or len(known) + len(discoverable) >= MAX_FACTS:
                    continue
                seen.add(text)
                unique = _unique_name(name, known, discoverable)
                said = mentioned(text, lowered) or stated_value(name, text, lowered, enums.get(name, ()))
                (known if said else discoverable)[unique] = text
    heads = _id_arguments(domain)
    for name, text in stated_facts(instruction, heads, [*known.values(), *discoverable.values()]):
        if len(known) + len(discoverable) < MAX_FACTS:
            known[_unique_name(name, known, discoverable)] = text
    return known, discoverable


def _enums(domain: Domain, tool: str) -> dict[str, list[str]]:
    """The allowed values of each argument of `tool` that has them."""
    mcp = domain.mcp_tools.get(tool)
    properties = mcp.parameters.get("properties", {}) if mcp is not None else {}
    return {name: [str(v) for v in spec["enum"]] for name, spec in properties.items() if "enum" in spec}


def _id_arguments(domain: Domain) -> dict[str, set[str]]:
    """Each id argument of the domain's tools -> its own words (`reservation_id` -> {"reservation"})."""
    return {
        name: set(name.removesuffix("_id").split("_"))
        for tool in domain.mcp_tools.values()
        for name in tool.parameters.get("properties", {})
        if name.endswith("_id")
    }


def _unknowns(
    domain: Domain, instruction: str, known: dict[str, str], discoverable: dict[str, str]
) -> list[str]:
    """Facts the instruction says the customer lacks, taken out of `known` and `discoverable`; the
    user's identity stays known unless another fact identifies the user."""
    names = [*known, *discoverable, *_id_arguments(domain)]
    lacking = unknown_facts(instruction, dict.fromkeys(_base(n) for n in names))
    others = [n for n in known if n in IDENTITY and n not in lacking]
    unknown = []
    for name in [n for n in dict.fromkeys(names) if _base(n) in lacking]:
        if name in known and name == _identity_fact(known.get(name, "")) and not others:
            continue
        known.pop(name, None)
        discoverable.pop(name, None)
        unknown.append(name)
    return unknown


def _base(name: str) -> str:
    return re.sub(r"_\d+$", "", name)


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


def _lookup_outputs(actions: list[Action], fallback: str, skipped: frozenset[str]) -> list[str]:
    """For a look-up-only task: the first argument value of each look-up."""
    values = []
    for action in actions:
        if action.name in skipped or not action.arguments:
            continue
        first = next(iter(action.arguments.values()))
        if isinstance(first, str) and _clean(first) and "," not in first:
            values.append(first)
    return list(dict.fromkeys(values)) or [fallback]


def derive(
    domain: Domain,
    user_id: str,
    instruction: str,
    actions: list[Action],
    outputs: list[str],
    policy: str | None = None,
) -> Derived:
    """The scripted user's scenario for one published task (see the module docstring); `policy` is
    the task set's policy document (default: the base domain's)."""
    skipped = NO_FACT_TOOLS | domain.terminal_tools
    known, discoverable = _facts(domain, user_id, instruction, actions, skipped)
    unknown = _unknowns(domain, instruction, known, discoverable)
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
    no_write = not any(a.name in domain.write_tools for a in actions)
    rules_ = policy_rules(domain if policy is None else policy)
    drafts = refusal_drafts(domain, rules_, user_id, instruction, actions, not no_write)
    refusals, refusal_flags = refusal_goals(drafts, len(goals) + 1)
    goals += refusals
    if refusals and no_write:
        flags.append(
            "no-write task: the gold makes no write, so what the instruction asks is refused by the "
            "policy; each request is a refusal-expected goal (the original scores the unchanged database)"
        )
    flags += refusal_flags
    if not goals and not outputs:
        outputs = _lookup_outputs(actions, user_id, skipped)
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
    volunteered = [identity] if identity in known else [n for n in known if n in IDENTITY]
    scenario = UserScenario(
        persona=f"A customer of the {domain.base} service (account {user_id}).",
        reason_for_call=f"I'm contacting {domain.base} customer service about my account.",
        known_info=known,
        volunteered=volunteered,
        unknown_info=unknown,
        discoverable=discoverable,
        goals=goals,
        preferences=preferences(instruction),
    )
    return Derived(scenario=scenario, outputs=list(outputs), flags=flags)


def read_policy(path: Path) -> str:
    """A task set's policy document (its rules are parsed once per text: `policy_rules`)."""
    return path.read_text(encoding="utf-8")


@lru_cache(maxsize=16)
def _policy_rules(policy: str) -> list[Rule]:
    return rules(policy)


def policy_rules(source: Domain | str) -> list[Rule]:
    """The rules of a policy document (a domain's own, when given the domain); none when unreadable."""
    if isinstance(source, str):
        return _policy_rules(source)
    try:
        return _policy_rules(source.policy)
    except OSError:
        return []
