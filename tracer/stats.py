"""What a built task set looks like: gold calls, intents, writes, refusals, conditions, rejections;
and the properties a domain's sets must have (`set_problems`)."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

from taue.contracts.emotions import FAMILIES
from taue.contracts.tasks import Task
from taue.envs.runtime.domain import Domain
from taue.tracer.conditions import chi_square

REPORT_FILE = "tracer_report.json"
MIN_MEAN_GOLD = 6.5
MIN_REFUSAL_SHARE = 0.10
MIN_FAMILY_SHARE = 0.15
MIN_DISTINCT_SHARE = 0.90
DIMENSIONS = ("politeness", "urgency", "trust")


def emotional(tasks: list[Task]) -> list[Task]:
    return [task for task in tasks if task.emotion is not None]


def is_challenge(task: Task) -> bool:
    return any(goal.refusal_expected for goal in task.user_scenario.goals)


def set_stats(tasks: list[Task], write_tools: frozenset[str]) -> dict[str, Any]:
    """The statistics of one set of emotional tasks (twins left out)."""
    count = len(tasks) or 1
    gold = [len(task.evaluation.actions) for task in tasks]
    emotions = [task.emotion for task in tasks if task.emotion]
    conditions = [task.condition_id for task in tasks]
    families = Counter(e.family for e in emotions)
    return {
        "tasks": len(tasks),
        "gold_calls": {
            "mean": round(sum(gold) / count, 2),
            "distribution": dict(sorted(Counter(gold).items())),
        },
        "intents_per_task": dict(sorted(Counter(len(_stages(t).get("intents", [])) for t in tasks).items())),
        "intents": dict(Counter(i for t in tasks for i in _stages(t).get("intents", [])).most_common()),
        "writes": dict(
            Counter(
                a.name for t in tasks for a in t.evaluation.actions if a.name in write_tools
            ).most_common()
        ),
        "refusal_share": round(sum(map(is_challenge, tasks)) / count, 3),
        "challenge_branches": challenge_branches(tasks),
        "situations": situation_table(tasks),
        "conditions": {
            "distinct": len(set(conditions)),
            "distinct_share": round(len(set(conditions)) / count, 3),
            "families": {f: round(families[f] / count, 3) for f in FAMILIES},
            "chi_square": {
                f"{a}~{b}": dict(
                    zip(
                        ("statistic", "p"),
                        chi_square([(getattr(e, a), getattr(e, b)) for e in emotions]),
                        strict=True,
                    )
                )
                for a, b in combinations(DIMENSIONS, 2)
            }
            if emotions
            else {},
        },
    }


def challenge_branches(tasks: list[Task]) -> dict[str, int]:
    """Policy challenges by branch: the customer accepts the allowed alternative (the gold makes it)
    or declines it (the gold writes nothing for the challenge)."""
    branches = Counter(_stages(t).get("branch") or "decline" for t in tasks if is_challenge(t))
    return {"accept": branches["accept"], "decline": branches["decline"]}


def situation_table(tasks: list[Task]) -> dict[str, Any]:
    """The condition x situation table: tasks per emotion (by family) and situation (as recorded by the
    build, else from the task's intents), the contacts, and the tasks whose emotion does not fit their
    situation (`taue.simulator.anchors.fit`)."""
    from taue.simulator.anchors.fit import emotion_fits, fit_table, recorded_situation

    order = fit_table().order
    by_emotion: dict[str, Counter[str]] = {e: Counter() for emotions in FAMILIES.values() for e in emotions}
    contacts: Counter[str] = Counter()
    unfit = 0
    for task in tasks:
        known, contact = recorded_situation(task.domain, _stages(task))
        situation = known or "unknown"
        contacts[contact] += 1
        if task.emotion is None:
            continue
        by_emotion[task.emotion.emotion][situation] += 1
        unfit += situation not in order or not emotion_fits(task.emotion.emotion, situation)
    columns = [*order, *sorted({s for row in by_emotion.values() for s in row} - set(order))]
    return {
        "situations": columns,
        "by_emotion": {e: [row[s] for s in columns] for e, row in by_emotion.items()},
        "by_family": {
            f: [sum(by_emotion[e][s] for e in emotions) for s in columns] for f, emotions in FAMILIES.items()
        },
        "contacts": dict(sorted(contacts.items())),
        "unfit": unfit,
    }


def _stages(task: Task) -> dict[str, Any]:
    return task.provenance.stages


def entities(tasks: list[Task]) -> set[str]:
    return {entity for task in tasks for entity in _stages(task).get("entities", [])}


def domain_realism(domain: Domain) -> dict[str, Any]:
    """The realism measures of the domain's emotional evaluation set, mixes against the declared ones."""
    from taue.tracer.build import tracer_spec
    from taue.tracer.realism import realism

    spec = tracer_spec(domain)
    return realism(emotional(domain.tasks), domain.write_tools, spec.intent_counts, spec.walk_lengths)


def domain_stats(domain: Domain) -> dict[str, Any]:
    report = read_report(domain)
    return {
        "domain": domain.name,
        "realism": domain_realism(domain),
        "eval": set_stats(emotional(domain.tasks), domain.write_tools),
        "train": set_stats(domain.train_tasks, domain.write_tools),
        "candidates": report.get("candidates"),
        "rejections": report.get("rejections", {}),
    }


def read_report(domain: Domain) -> dict[str, Any]:
    path = domain.folder / REPORT_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def report_text(
    seed: int, candidates: int, rejections: Counter[str], counts: dict[str, int], reduced: int = 0
) -> str:
    body = {
        "seed": seed,
        "candidates": candidates,
        "kept": counts,
        "reduced": reduced,
        "rejections": dict(sorted(rejections.items(), key=lambda kv: (-kv[1], kv[0]))),
    }
    return json.dumps(body, indent=2) + "\n"


def set_problems(domain: Domain, eval_count: int = 58, train_count: int = 700) -> list[str]:
    """What a domain's committed sets lack (empty when they meet every requirement)."""
    from taue.tracer.realism import realism_problems

    problems = [f"realism: {problem}" for problem in realism_problems(domain_realism(domain))]
    tasks = emotional(domain.tasks)
    stats = set_stats(tasks, domain.write_tools)
    twins = [t for t in domain.tasks if t.emotion is None]
    if len(tasks) != eval_count or len(twins) != eval_count:
        problems.append(f"{len(tasks)} emotional tasks and {len(twins)} twins, not {eval_count} each")
    mean_gold = sum(len(t.evaluation.actions) for t in tasks) / (len(tasks) or 1)  # unrounded
    if mean_gold < MIN_MEAN_GOLD:
        problems.append(f"mean gold calls {mean_gold:.3f} < {MIN_MEAN_GOLD}")
    if stats["refusal_share"] < MIN_REFUSAL_SHARE:
        problems.append(f"policy-challenge share {stats['refusal_share']} < {MIN_REFUSAL_SHARE}")
    if stats["conditions"]["distinct"] != len(tasks):
        problems.append("an emotion condition repeats within the evaluation set")
    for family, share in stats["conditions"]["families"].items():
        if share < MIN_FAMILY_SHARE:
            problems.append(f"family {family} holds {share} of the tasks < {MIN_FAMILY_SHARE}")
    problems += _branch_problems(stats["challenge_branches"])
    train_refusals = set_stats(domain.train_tasks, domain.write_tools)["refusal_share"]
    if train_refusals < MIN_REFUSAL_SHARE:
        problems.append(f"training split policy-challenge share {train_refusals} < {MIN_REFUSAL_SHARE}")
    if len(domain.train_tasks) < train_count:
        problems.append(f"training split has {len(domain.train_tasks)} tasks < {train_count}")
    shared = entities(tasks) & entities(domain.train_tasks)
    if shared:
        problems.append(
            f"training split shares {len(shared)} entities with the evaluation set, e.g. {min(shared)}"
        )
    return problems


def _branch_problems(branches: dict[str, int]) -> list[str]:
    """An evaluation set needs challenges of both branches (docs/tracer.md, "Policy challenges")."""
    return (
        [] if branches["accept"] and branches["decline"] else [f"challenges of one branch only: {branches}"]
    )


def cross_domain_conditions(domains: list[Domain], with_situations: bool = False) -> dict[str, Any]:
    """Distinct conditions across the evaluation sets; with `with_situations`, the condition x
    situation table of both splits over all the domains."""
    conditions = [t.condition_id for d in domains for t in emotional(d.tasks)]
    count = len(conditions) or 1
    across: dict[str, Any] = {
        "tasks": len(conditions),
        "distinct": len(set(conditions)),
        "distinct_share": round(len(set(conditions)) / count, 3),
    }
    if with_situations:
        across["situations"] = {
            "eval": situation_table([t for d in domains for t in emotional(d.tasks)]),
            "train": situation_table([t for d in domains for t in d.train_tasks]),
        }
    return across


def write_report_file(folder: Path, text: str) -> Path:
    path = folder / REPORT_FILE
    path.write_text(text, encoding="utf-8")
    return path
