"""How demanding and how natural a set of tasks is (docs/tracer.md, "Realism"): writes and reads per
task, declared vs realised mixes, instruction length, reasons and preferences, sentence-skeleton
diversity, the most common sentence, the most common frame (`tracer/frames.py`), and ids denied
after one was given. `REALISM_TARGETS` are the
requirements every domain's emotional evaluation set meets (`set_problems`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from taue.contracts.tasks import Task
from taue.tracer.frames import frames_in
from taue.tracer.lints import NO_ID_PHRASES, sentences
from taue.tracer.mixes import mix_gap
from taue.tracer.prose import known_ids

REALISM_TARGETS = {
    "writes_per_task": 2.5,
    "no_write_share": 0.05,
    "words": 110,
    "reason_share": 0.8,
    "preference_share": 0.5,
    "skeleton_share": 0.6,
    "top_sentence_share": 0.3,
    "ids_denied": 0,
    "mix_gap": 5.0,
    "top_frame_share": 0.1,
}
"""Minimums (writes, words, shares of reasons, preferences and skeletons) and maximums (the rest)."""
MAXIMUMS = ("no_write_share", "top_sentence_share", "ids_denied", "mix_gap", "top_frame_share")
_DIGITS = re.compile(r"\S*\d\S*")
_NAME = re.compile(r"(?<!^)(?<![.:;!?] )\b[A-Z][\w'-]*")


def skeleton(sentence: str, task: Task) -> str:
    """A sentence with its names, ids and numbers masked: what stays when the facts change."""
    text = sentence
    for value in sorted(task.user_scenario.known_info.values(), key=len, reverse=True):
        if len(value) > 2:
            text = text.replace(value, "<fact>")
    return _NAME.sub("N", _DIGITS.sub("#", text))


def realism(
    tasks: list[Task],
    write_tools: frozenset[str],
    intent_counts: Mapping[int, float] | None = None,
    walk_lengths: Mapping[int, float] | None = None,
) -> dict[str, Any]:
    """The realism measures of one set of tasks (use the emotional tasks only: twins repeat them)."""
    count = len(tasks) or 1
    writes = [sum(a.name in write_tools for a in t.evaluation.actions) for t in tasks]
    reads = [len(t.evaluation.actions) - w for t, w in zip(tasks, writes, strict=True)]
    stages = [t.provenance.stages for t in tasks]
    needs = sum(len(s.get("reasons", [])) for s in stages) or 1  # an accepted alternative is no need
    said = [(s, skeleton(s, t)) for t in tasks for s in sentences(t.instruction)]
    tasks_with = Counter(sk for t in tasks for sk in {skeleton(s, t) for s in sentences(t.instruction)})
    frames = Counter(f for t in tasks for f in frames_in(sentences(t.instruction)))
    realised_counts = Counter(len(s.get("intents", [])) for s in stages)
    realised_lengths = Counter(n for s in stages for n in s.get("walk_lengths", []))
    result: dict[str, Any] = {
        "writes_per_task": round(sum(writes) / count, 2),
        "reads_per_task": round(sum(reads) / count, 2),
        "no_write_share": round(sum(w == 0 for w in writes) / count, 3),
        "words": round(sum(len(t.instruction.split()) for t in tasks) / count, 1),
        "reason_share": round(sum(bool(r) for s in stages for r in s.get("reasons", [])) / needs, 3),
        "preference_share": round(sum(bool(p) for s in stages for p in s.get("preferences", [])) / needs, 3),
        "skeleton_share": round(len({sk for _, sk in said}) / (len(said) or 1), 3),
        "top_sentence": tasks_with.most_common(1)[0][0] if tasks_with else "",
        "top_sentence_share": round(tasks_with.most_common(1)[0][1] / count, 3) if tasks_with else 0.0,
        "top_frame": frames.most_common(1)[0][0] if frames else "",
        "top_frame_share": round(frames.most_common(1)[0][1] / count, 3) if frames else 0.0,
        "ids_denied": sum(_denies_ids(t) for t in tasks),
        "intent_mix": _mix(intent_counts, realised_counts),
        "walk_mix": _mix(walk_lengths, realised_lengths),
    }
    gaps = [m["gap"] for m in (result["intent_mix"], result["walk_mix"]) if m.get("gap") is not None]
    result["mix_gap"] = max(gaps, default=0.0)
    return result


def _denies_ids(task: Task) -> bool:
    return bool(known_ids(task.user_scenario)) and any(p in task.instruction for p in NO_ID_PHRASES)


def _mix(declared: Mapping[int, float] | None, realised: Counter[int]) -> dict[str, Any]:
    total = sum(realised.values()) or 1
    shares = {str(k): round(v / total, 3) for k, v in sorted(realised.items())}
    if not declared:
        return {"realised": shares, "gap": None}
    weight = sum(declared.values())
    return {
        "declared": {str(k): round(v / weight, 3) for k, v in sorted(declared.items())},
        "realised": shares,
        "gap": mix_gap(declared, realised),
    }


def realism_problems(measures: Mapping[str, Any]) -> list[str]:
    """The realism targets a set misses."""
    problems = []
    for name, target in REALISM_TARGETS.items():
        value = measures[name]
        if name in MAXIMUMS and value > target:
            problems.append(f"{name.replace('_', ' ')} {value} > {target}")
        elif name not in MAXIMUMS and value < target:
            problems.append(f"{name.replace('_', ' ')} {value} < {target}")
    return problems
