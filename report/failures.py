"""Why an episode failed, without an LLM judge: from the gold actions, the tool log, the reward
breakdown, the final user state and the domain's policy check.

Every failed episode (reward 0 or −1) gets its labels (all that apply) and one category: the first
label in `CATEGORIES`' order, which puts what ended the episode (errors, limits, an exhausted user)
before what was wrong in the database. docs/reports.md defines each label.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from pydantic import BaseModel, Field

from taue.contracts.run import EpisodeRecord
from taue.contracts.tasks import Action, Task

CATEGORIES = (
    "infra_error",
    "agent_error",
    "timeout",
    "turn_limit",
    "tool_call_limit",
    "unsatisfied",
    "unwanted_transfer",
    "policy_violation",
    "wrong_arguments",
    "missing_action",
    "extra_write",
    "wrong_order",
    "premature_stop",
    "missing_output",
    "other",
)
"""Failure categories, most decisive first."""
SECONDARY = ("tool_error_shown", "intent_misread", "emotion_ignored")
"""Labels that describe a failure but never stand as its category (the last two come from the
optional LLM judge, `taue.report.llm_judge`)."""
ENDINGS = {
    "infra_error": "infra_error",
    "agent_error": "agent_error",
    "timeout": "timeout",
    "max_turns": "turn_limit",
    "max_tool_calls": "tool_call_limit",
    "user_unsatisfied": "unsatisfied",
}

PolicyCheck = Callable[[Action], list[str]]
"""A write -> the ids of the policy rules it breaks."""


class Failure(BaseModel):
    domain: str
    task_id: str
    trial: int
    agent: str
    category: str
    labels: list[str]
    details: dict[str, Any] = Field(default_factory=dict)


def attribute(record: EpisodeRecord, task: Task | None, policy: PolicyCheck | None = None) -> Failure | None:
    """The failure of one episode, or None when it succeeded (reward 1)."""
    if record.reward == 1:
        return None
    labels: list[str] = []
    details: dict[str, Any] = {}
    ending = ENDINGS.get(record.termination)
    if ending is not None:
        labels.append(ending)
    if record.termination == "user_unsatisfied":
        details["unsatisfied_reason"] = unsatisfied_reason(record.user_state)
    labels += _write_labels(record, details)
    labels += _policy_labels(record, policy, details)
    labels += _late_labels(record, task, details)
    category = next((c for c in CATEGORIES if c in labels), "other")
    if category == "other":
        labels.append("other")
    ordered = [label for label in (*CATEGORIES, *SECONDARY) if label in labels]
    return Failure(
        domain=record.domain,
        task_id=record.task_id,
        trial=record.trial,
        agent=record.agent,
        category=category,
        labels=ordered,
        details=details,
    )


def _policy_labels(record: EpisodeRecord, policy: PolicyCheck | None, details: dict[str, Any]) -> list[str]:
    """`policy_violation` when a write the episode made breaks a rule of the domain's policy, or the
    user observed a violation (a write it had not approved: `taue.contracts.policy`)."""
    observed = record.breakdown.policy_violations
    if observed:
        details["policy_violations"] = list(observed)
    writes = [Action(name=name, arguments=arguments) for name, arguments in _writes(record)]
    broken = sorted({rule for write in writes for rule in policy(write)}) if policy is not None else []
    if broken:
        details["policy_rules"] = broken
    return ["policy_violation"] if observed or broken else []


def _late_labels(record: EpisodeRecord, task: Task | None, details: dict[str, Any]) -> list[str]:
    """An unwanted transfer, a premature stop, a missing output, a tool error shown to the user."""
    labels: list[str] = []
    if record.termination == "agent_transfer":
        labels.append("unwanted_transfer")
    if record.termination == "user_stop" and task is not None and _goals_left(record, task):
        labels.append("premature_stop")
        details["goals_left"] = _goals_left(record, task)
    if record.breakdown.db_match and not all(record.breakdown.outputs_found.values()):
        labels.append("missing_output")
        details["missing_outputs"] = [o for o, found in record.breakdown.outputs_found.items() if not found]
    if "error_shown" in record.user_state.get("events", []):
        labels.append("tool_error_shown")
    return labels


def unsatisfied_reason(user_state: dict[str, Any]) -> str | None:
    """What the user recorded as the reason to leave: the costly events that exhausted its patience
    ("stall x3, repeated_message x1"); when it walked out before its patience ran out (a claim the
    service did not confirm), the costly events it had met, counted the same way."""
    from taue.simulator.satisfaction import costly_events

    return user_state.get("reason") or costly_events(user_state.get("events") or []) or None


def _writes(record: EpisodeRecord) -> list[tuple[str, dict[str, Any]]]:
    return [(call.name, call.arguments) for call in record.tool_log if call.ok and call.writes]


def _write_labels(record: EpisodeRecord, details: dict[str, Any]) -> list[str]:
    """Missing, extra, wrong-argument and out-of-order writes, against the gold writes."""
    diagnostics = record.breakdown.diagnostics
    missing = [(w["name"], w["arguments"]) for w in diagnostics.get("missing_writes", [])]
    extra = [(w["name"], w["arguments"]) for w in diagnostics.get("extra_writes", [])]
    labels = []
    wrong = []
    for name, gold in missing:
        same_tool = [arguments for tool, arguments in extra if tool == name]
        if same_tool:
            closest = max(same_tool, key=lambda arguments: _agreeing(gold, arguments))
            wrong.append({"tool": name, "arguments": sorted(_differing(gold, closest))})
    if wrong:
        labels.append("wrong_arguments")
        details["wrong_arguments"] = wrong
    wrong_tools = {w["tool"] for w in wrong}
    if [name for name, _ in missing if name not in wrong_tools]:
        labels.append("missing_action")
        details["missing_actions"] = sorted({name for name, _ in missing if name not in wrong_tools})
    if [name for name, _ in extra if name not in wrong_tools]:
        labels.append("extra_write")
        details["extra_writes"] = sorted({name for name, _ in extra if name not in wrong_tools})
    if not missing and not extra and record.breakdown.db_match is False and _writes(record):
        labels.append("wrong_order")
    return labels


def _agreeing(gold: dict[str, Any], made: dict[str, Any]) -> int:
    return sum(1 for key, value in gold.items() if made.get(key) == value)


def _differing(gold: dict[str, Any], made: dict[str, Any]) -> set[str]:
    return {key for key in set(gold) | set(made) if gold.get(key) != made.get(key)}


def _goals_left(record: EpisodeRecord, task: Task) -> list[str]:
    confirmed = set(record.user_state.get("goals_confirmed", []))
    return [goal.id for goal in task.user_scenario.goals if goal.id not in confirmed]


@cache
def domain_policy(domain: str) -> PolicyCheck | None:
    """The domain's policy check on its seed view, or None where it has none: the hard rules of the
    Tracer parts it registers (`Domain.tracer_spec.check_policy`), read through the domain, not the
    Tracer."""
    from taue.envs.runtime.discovery import get_domain

    try:
        found = get_domain(domain)
        spec = found.tracer_spec
    except (KeyError, ImportError, AttributeError, TypeError):  # unknown, or a broken registration
        return None
    if spec is None:
        return None
    view = spec.load(found.seed)

    def check(action: Action) -> list[str]:
        try:
            return [rule.id for rule in spec.check_policy(view, action)]
        except Exception:  # a write the checker does not model (malformed arguments): no verdict
            return []

    return check


@cache
def installed_tasks(domain: str, split: str = "eval") -> dict[str, Task]:
    """The tasks of an installed domain (or task set) in `split`, by id; empty when it is not
    installed here."""
    from taue.contracts.tasks import TaskFileError
    from taue.envs.runtime.discovery import get_domain

    try:
        found = get_domain(domain)
        return {task.id: task for task in (found.train_tasks if split == "train" else found.tasks)}
    except (KeyError, TaskFileError):
        return {}


def find_task(domain: str, task_id: str, split: str = "eval") -> Task | None:
    """The installed task of a record, or None (a domain or task set not installed here)."""
    return installed_tasks(domain, split).get(task_id)


def attribute_records(records: Iterable[EpisodeRecord], split: str = "eval") -> list[Failure]:
    """The failures of a run's records, with each installed domain's tasks and policy check."""
    failures = []
    for record in records:
        task = find_task(record.domain, record.task_id, split)
        failure = attribute(record, task, domain_policy(record.domain))
        if failure is not None:
            failures.append(failure)
    return failures


def failure_categories(failures: list[Failure], infra_errors: int = 0) -> dict[str, Any]:
    """Counts and shares of the categories (one per failed episode) and of every label; episodes
    that failed for infrastructure reasons (errors.jsonl) count as `infra_error`."""
    failed = len(failures) + infra_errors
    categories = Counter(failure.category for failure in failures)
    if infra_errors:
        categories["infra_error"] += infra_errors
    labels = Counter(label for failure in failures for label in failure.labels)
    reasons = Counter(
        event.split(" x")[0]
        for failure in failures
        for event in (failure.details.get("unsatisfied_reason") or "").split(", ")
        if event and event != "none"
    )
    return {
        "failed": failed,
        "counts": {c: categories[c] for c in CATEGORIES if categories[c]},
        "shares": {c: round(categories[c] / failed, 4) for c in CATEGORIES if categories[c]},
        "labels": {label: labels[label] for label in (*CATEGORIES, *SECONDARY) if labels[label]},
        "unsatisfied_reasons": dict(sorted(reasons.items())),
    }
