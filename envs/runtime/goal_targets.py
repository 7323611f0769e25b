"""Targets of action goals: which ground-truth write carries out each goal, and its key arguments.

A task author (or the importer) names a goal by what a report of it would contain (`evidence`); the
scripted user needs the write itself, to recognise the service's confirmation structurally. For
each action goal without targets, the write whose argument values contain most of the goal's
evidence is chosen (earlier, not yet chosen writes win ties), plus any other write holding an id of
the evidence that the first lacks ("cancel both of my visits"). A target's key arguments are the
write's top-level ids and the arguments its evidence names, widened by further scalar arguments
until no two targets of the task share a tool and key arguments.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from taue.contracts.tasks import Action, Goal, Target


class TargetError(ValueError):
    """A goal whose write cannot be found among the ground-truth actions."""


def attach_targets(
    goals: Iterable[Goal],
    actions: list[Action],
    write_tools: frozenset[str],
    pinned: dict[str, Action] | None = None,
) -> list[Goal]:
    """The goals, each action goal with its targets (validated `Goal`s; existing targets are kept).
    `pinned` names the one write of a goal outright (goal id -> write) instead of searching for it."""
    writes = [a for a in actions if a.name in write_tools]
    drafts = list(goals)
    primary: dict[str, int] = {}
    for goal in drafts:
        if goal.kind != "action" or goal.targets or goal.refusal_expected:
            continue
        if pinned and goal.id in pinned:
            writes.append(pinned[goal.id])
            primary[goal.id] = len(writes) - 1
        else:
            primary[goal.id] = _best_write(goal, writes, set(primary.values()))
    chosen: list[tuple[str, Action, dict[str, Any]]] = []
    for goal in drafts:
        if goal.id not in primary:
            continue
        indexes = [primary[goal.id]]
        if not (pinned and goal.id in pinned):
            indexes += _further_writes(goal, writes, indexes[0], set(primary.values()))
        chosen += [(goal.id, writes[i], _key_arguments(writes[i], goal.evidence)) for i in indexes]
    _widen_until_unique(chosen)
    result = []
    for goal in drafts:
        fields = goal.model_dump(exclude={"targets"}) | {"targets": goal.targets}
        if goal.id in primary:
            fields["targets"] = [Target(tool=a.name, arguments=k) for g, a, k in chosen if g == goal.id]
        result.append(Goal.model_validate(fields))
    return result


def _further_writes(goal: Goal, writes: list[Action], first: int, primaries: set[int]) -> list[int]:
    """Other writes the goal also asks for: an id in its evidence that the first write lacks
    ("cancel both": the second appointment id) and that no other goal's first write holds."""
    own = {_text(v) for _, v in scalars(writes[first].arguments)}
    extra_ids = [item for item in goal.evidence if item not in own]
    found = []
    for index, write in enumerate(writes):
        if index == first or index in primaries:
            continue
        ids = {_text(v) for name, v in scalars(write.arguments) if _is_id(name.rsplit(".", 1)[-1], v)}
        if any(item in ids for item in extra_ids):
            found.append(index)
    return found


def _best_write(goal: Goal, writes: list[Action], taken: set[int]) -> int:
    scores = [_evidence_hits(goal.evidence, write) for write in writes]
    if not scores or max(scores) == 0:
        raise TargetError(f"goal {goal.id!r}: no ground-truth write contains its evidence {goal.evidence}")
    best = max(scores)
    candidates = [i for i, score in enumerate(scores) if score == best]
    return next((i for i in candidates if i not in taken), candidates[0])


def _evidence_hits(evidence: list[str], write: Action) -> int:
    return sum(
        1 for item in evidence if any(_hit(item, name, value) for name, value in scalars(write.arguments))
    )


def _hit(item: str, name: str, value: Any) -> bool:
    """The evidence item is this argument's value, or names this yes/no argument ("auto" ↔ auto_pay)."""
    return _text(value) == item or (isinstance(value, bool) and item.lower() in name.lower())


def scalars(arguments: dict[str, Any], prefix: str = "") -> Iterable[tuple[str, Any]]:
    """(argument path, value) for every scalar inside the arguments; list items share their path."""
    for name, value in arguments.items():
        path = f"{prefix}{name}"
        if isinstance(value, dict):
            yield from scalars(value, f"{path}.")
        elif isinstance(value, list):
            for item in value:
                yield from scalars(item, f"{path}.") if isinstance(item, dict) else [(path, item)]
        else:
            yield path, value


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _key_arguments(write: Action, evidence: list[str]) -> dict[str, Any]:
    keys = {
        name: value
        for name, value in write.arguments.items()
        if _is_id(name, value)
        or any(_hit(item, path, v) for item in evidence for path, v in scalars({name: value}))
    }
    return keys or dict(list(write.arguments.items())[:1])


def _is_id(name: str, value: Any) -> bool:
    return isinstance(value, str) and (name == "id" or name.endswith("_id"))


def _widen_until_unique(chosen: list[tuple[str, Action, dict[str, Any]]]) -> None:
    """Add scalar arguments to colliding targets until each (tool, key arguments) is unique."""
    for index, (_, action, keys) in enumerate(chosen):
        others = [(a, k) for i, (_, a, k) in enumerate(chosen) if i != index and a.name == action.name]
        for name, value in action.arguments.items():
            if not any(_same_target(keys, other_keys) for _, other_keys in others):
                break
            if name not in keys and not isinstance(value, dict | list):
                keys[name] = value


def _same_target(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(name in b and b[name] == value for name, value in a.items()) or all(
        name in a and a[name] == value for name, value in b.items()
    )


def ambiguous_targets(goals: list[Goal]) -> list[str]:
    """Targets that do not identify their goal among the task's goals (one call could match two)."""
    problems = []
    targets = [(goal.id, target) for goal in goals for target in goal.targets]
    for i, (goal_id, target) in enumerate(targets):
        for other_id, other in targets[i + 1 :]:
            if target.tool == other.tool and _same_target(target.arguments, other.arguments):
                problems.append(
                    f"goals {goal_id!r} and {other_id!r}: one {target.tool} call could match both targets"
                )
    return problems
