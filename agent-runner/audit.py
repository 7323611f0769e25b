"""Simulator audit: find user messages that state facts absent from the scenario (hallucinations).

A simulated user may only say what its scenario gives it. For every user message of a run, the audit
pulls out the *fact-like* strings — emails, identifiers (tokens mixing letters or `#`/`_` with
digits), numbers of two or more digits, and person or place names (two or more capitalised words in
a row, or one after "my name is", "I'm", "this is") — and flags those found in neither the task's
scenario (persona, reason, known, unknown and discoverable facts, goals, preferences, instruction,
emotion instruction) nor an earlier agent message of the same episode (echoing the agent is fine).

Known blind spots, by design of a cheap deterministic check: single-digit numbers, identifiers made
of letters only, and made-up facts in plain words ("my flight was yesterday") are not caught.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from taue.contracts.run import EpisodeRecord
from taue.contracts.tasks import Task
from taue.runner.results import RESULTS, ResultsFile
from taue.runner.storage import RunLocation

FactKind = Literal["email", "id", "number", "name"]
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_TOKEN = re.compile(r"#?\w+(?:-\w+)*")
_UNIT = re.compile(r"\d+(?:st|nd|rd|th|am|pm|s|h|kg|lb|lbs|km|mi)", re.IGNORECASE)
MIN_ID_LENGTH = 4
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_NAME_RUN = re.compile(r"\b[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)+\b")
_NAMED = re.compile(r"\b(?:[Mm]y name is|I'm|I am|[Tt]his is|[Cc]all me)\s+([A-Z][a-z]+)\b")
_NOT_NAMES_TEXT = (
    "Hi Hello Hey Dear Thanks Thank Yes No Please Ok Okay Sure Great Well So And But Also Then I My The "
    "This That Your You Good Fine Sorry Again Listen Of Oh Perfect Wonderful Frankly Honestly "
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday"
)
NOT_NAMES = frozenset(_NOT_NAMES_TEXT.split())
"""Capitalised words that start sentences or name days: never taken as part of a name."""
MIN_NUMBER = 10
"""Numbers below this are not audited (too common in plain speech: 'one more bag', '2 items')."""


class Flag(BaseModel):
    task_id: str
    trial: int
    turn: int
    """Index of the message in the episode's transcript."""
    kind: FactKind
    value: str
    message: str


class Rate(BaseModel):
    user_messages: int = 0
    flagged_messages: int = 0

    @property
    def rate(self) -> float:
        return self.flagged_messages / self.user_messages if self.user_messages else 0.0


class AuditReport(BaseModel):
    run_dir: str
    episodes: int
    user_messages: int
    flagged_messages: int
    rate: float
    by_emotion: dict[str, dict[str, float]] = Field(
        description="emotion (or 'neutral') -> user_messages, flagged_messages, rate"
    )
    flags: list[Flag]
    skipped: list[str] = Field(default_factory=list, description="Episodes whose task is not installed.")


def _number(text: str) -> str | None:
    value = text.replace(",", "")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    try:
        return value if float(value) >= MIN_NUMBER else None
    except ValueError:
        return None


def _is_id(token: str) -> bool:
    """Digits mixed with letters, `#` or `_` (M5L4DR, #W1795741, credit_card_1); not '24th' or '3pm'."""
    has_digit = any(c.isdigit() for c in token)
    has_other = any(c.isalpha() or c in "#_" for c in token)
    return has_digit and has_other and len(token) >= MIN_ID_LENGTH and not _UNIT.fullmatch(token)


def facts_in(text: str) -> list[tuple[FactKind, str]]:
    """The fact-like strings of a text, each once, emails and identifiers before the numbers in them."""
    facts: list[tuple[FactKind, str]] = []
    rest = text
    for match in _EMAIL.findall(rest):
        facts.append(("email", match))
    rest = _EMAIL.sub(" ", rest)
    for token in _TOKEN.findall(rest):
        if _is_id(token):
            facts.append(("id", token))
    rest = _TOKEN.sub(lambda m: " " if _is_id(m.group()) else m.group(), rest)
    for match in _NUMBER.findall(rest):
        number = _number(match)
        if number is not None:
            facts.append(("number", number))
    for run in _NAME_RUN.findall(rest):
        words = run.split()
        while words and words[0] in NOT_NAMES:
            words.pop(0)
        if len(words) >= 2:
            facts.append(("name", " ".join(words)))
    facts.extend(("name", name) for name in _NAMED.findall(rest) if name not in NOT_NAMES)
    return list(dict.fromkeys(facts))


def scenario_text(task: Task) -> str:
    """Everything the scenario lets the user know, as one text."""
    s = task.user_scenario
    parts = [s.persona, s.reason_for_call, task.instruction, *s.unknown_info, *s.preferences]
    for facts in (s.known_info, s.discoverable):
        for name, value in facts.items():
            parts.extend((name, value))
    for goal in s.goals:
        parts.extend([goal.request, *goal.evidence])
    if task.emotion is not None:
        parts.append(task.emotion.instruction)
    return "\n".join(parts)


class _Allowed:
    """Facts a user message may state: those of the scenario and of earlier agent messages."""

    def __init__(self, text: str) -> None:
        self.text = ""
        self.numbers: set[str] = set()
        self.add(text)

    def add(self, text: str) -> None:
        self.text += "\n" + text.lower().replace(",", "")
        self.numbers.update(n for n in map(_number, _NUMBER.findall(text)) if n is not None)

    def __contains__(self, fact: tuple[FactKind, str]) -> bool:
        kind, value = fact
        if kind == "number":
            return value in self.numbers or value in self.text
        return value.lower().replace(",", "") in self.text


def audit_record(record: EpisodeRecord, task: Task) -> tuple[int, list[Flag]]:
    """(user messages, flags) of one episode."""
    allowed = _Allowed(scenario_text(task))
    flags: list[Flag] = []
    user_messages = 0
    for turn, message in enumerate(record.transcript):
        if message.role == "agent":
            allowed.add(message.content)
            continue
        user_messages += 1
        for kind, value in facts_in(message.content):
            if (kind, value) not in allowed:
                flags.append(
                    Flag(
                        task_id=record.task_id,
                        trial=record.trial,
                        turn=turn,
                        kind=kind,
                        value=value,
                        message=message.content,
                    )
                )
    return user_messages, flags


def _task(record: EpisodeRecord) -> Task | None:
    from taue.envs.runtime.discovery import get_domain  # the installed domain's tasks, when there is one

    try:
        return get_domain(record.domain).task_index.get(record.task_id)
    except (KeyError, ValueError, LookupError):
        return None


def audit_run(run_dir: Path | RunLocation) -> AuditReport:
    """Audit every episode of a run directory; raises `FileNotFoundError` when it holds no results."""
    results = ResultsFile(run_dir)
    if not results.exists():
        raise FileNotFoundError(f"{run_dir} holds no {RESULTS}")
    records = results.load()
    overall = Rate()
    by_emotion: dict[str, Rate] = {}
    flags: list[Flag] = []
    skipped: list[str] = []
    for record in records:
        task = _task(record)
        if task is None:
            skipped.append(f"{record.domain}/{record.task_id}#{record.trial}")
            continue
        count, found = audit_record(record, task)
        flagged = len({f.turn for f in found})
        emotion = (record.emotion or {}).get("emotion") or "neutral"
        for rate in (overall, by_emotion.setdefault(emotion, Rate())):
            rate.user_messages += count
            rate.flagged_messages += flagged
        flags.extend(found)
    return AuditReport(
        run_dir=str(run_dir),
        episodes=len(records) - len(skipped),
        user_messages=overall.user_messages,
        flagged_messages=overall.flagged_messages,
        rate=round(overall.rate, 6),
        by_emotion={
            emotion: {
                "user_messages": r.user_messages,
                "flagged_messages": r.flagged_messages,
                "rate": round(r.rate, 6),
            }
            for emotion, r in sorted(by_emotion.items())
        },
        flags=flags,
        skipped=skipped,
    )
