"""Semantic lints (docs/tracer.md, "Semantic lints"; issue 37 item 3): what a careful reviewer faults
in a task once its prose reads well, each a named check over one Task.

A lint returns a short detail when it fires and None when the task is clean. The text lints here
read the task alone; the lints that need the domain's seed records (timetables, orders, fees) live
in `tracer/semantic_seed.py` and read a `SeedFacts`. Word lists live in `tracer/semantic_words.py`.

The builder rejects a candidate any lint fires on (`tracer/build.py`), after a writer that gives them
nothing to fault (fees accepted, every stated id listed, tool values in words, `tracer/prose.py`):
task set v4 has no hit. `taue tracer verify` reports hits, and fails on them with `--semantic-lints`;
`taue tracer stats --json` counts them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from taue.contracts.tasks import Task
from taue.envs.runtime.domain import Domain
from taue.tracer import semantic_words as w
from taue.tracer.frames import NO_IDS, SOME_IDS
from taue.tracer.ids import is_id_fact, known_flights, mentions, record_ids, split_values
from taue.tracer.lints import sentences
from taue.tracer.semantic_seed import SEED_LINTS, SeedFacts


def _frame_pattern(frame: str) -> re.Pattern[str]:
    """A prose frame as a pattern whose group is the listed ids (none for NO_IDS frames)."""
    escaped = re.escape(frame).replace(re.escape("{ids}"), "(.+?)")
    return re.compile(rf"^{escaped}$")


DENIAL_FRAME = re.compile("|".join(f"(?:{_frame_pattern(f).pattern})" for f in (*SOME_IDS, *NO_IDS)))
"""Any of the prose's "no (other) ids" frames, as one pattern (its `ids` groups are numbered apart)."""


@dataclass(frozen=True)
class Denial:
    """The sentence saying the customer has no (other) ids, and the ids it lists as known."""

    sentence: str
    listed: str


def denial(task: Task) -> Denial | None:
    """The instruction's "no (other) ids" sentence: a prose frame, else any sentence that reads as one."""
    said = sentences(task.instruction)[::-1]  # the prose writes it last
    for sentence in said:
        if found := DENIAL_FRAME.match(sentence):
            return Denial(sentence, next((g for g in found.groups() if g), ""))
    for sentence in said:
        if w.ID_DENIAL.search(sentence):
            return Denial(sentence, sentence)
    return None


def scenario_ids(task: Task) -> set[str]:
    """Every id of the scenario (`tracer.ids.record_ids`)."""
    return record_ids(task.user_scenario, task.evaluation.actions)


def customer_text(task: Task) -> str:
    """What the customer is told and says: the instruction and the goals' requests."""
    return " ".join([task.instruction, *(g.request for g in task.user_scenario.goals)])


# ------------------------------------------------------------------------------------- the lints


def id_stated_then_denied(task: Task) -> str | None:
    """An id the text states (any sentence, any need) that the "no (other) ids" sentence denies: the
    customer who just quoted TICKET00154 cannot "have no reference numbers to hand"."""
    said = denial(task)
    if said is None:
        return None
    rest = customer_text(task).replace(said.sentence, " ")
    stated = sorted(i for i in scenario_ids(task) if mentions(rest, i) and not mentions(said.listed, i))
    return f"states {stated[0]} and then says {said.sentence!r}" if stated else None


def not_an_id(task: Task) -> str | None:
    """A date, a zip code or a flight number listed as an id ("You know 2025-09-18, but no other ids")."""
    said = denial(task)
    if said is None or not said.listed:
        return None
    scenario = task.user_scenario
    flights = known_flights(scenario, task.evaluation.actions)
    zips = {v for name, v in scenario.known_info.items() if "zip" in name}
    for kind, found in (
        ("a date", w.ISO_DATE.search(said.listed) or w.MONTH_DATE.search(said.listed)),
        ("a zip code", any(mentions(said.listed, z) for z in zips) or w.ZIP_CODE.search(said.listed)),
        ("a flight number", any(mentions(said.listed, f) for f in flights)),
    ):
        if found:
            return f"calls {kind} an id: {said.sentence!r}"
    return None


def splice(task: Task) -> str | None:
    """Two edits spliced into one phrase: "720p instead of 1080p instead of the Webcam", "from
    September 24 to September 22 to September 25"."""
    text = customer_text(task)
    found = w.INSTEAD_CHAIN.search(text) or w.FROM_TO_TO.search(text)
    return f"spliced: {found.group(0)!r}" if found else None


def tool_value_in_text(task: Task) -> str | None:
    """A tool value written as code in what the customer knows or says ("issue: no_service"): a
    customer says "no service". Ids (a user id is snake_case) are the customer's to quote."""
    scenario = task.user_scenario
    ids = scenario_ids(task) | set(scenario.known_info.values())
    facts = [v for name, v in scenario.known_info.items() if not is_id_fact(name)]
    for text in (customer_text(task), *facts):
        for token in w.SNAKE_CASE.findall(w.EMAIL_OR_URL.sub(" ", text)):
            if token not in ids or token in facts:
                return f"tool value in customer text: {token!r}"
    return None


def emotion_texts(task: Task) -> list[str]:
    """The task's emotion texts: the anchor instruction and the written feeling."""
    feeling = task.provenance.stages.get("feeling") if task.provenance else None
    texts = [task.emotion.instruction] if task.emotion else []
    return texts + ([feeling] if isinstance(feeling, str) and task.emotion else [])


def is_follow_up(task: Task) -> bool:
    """Whether the scenario is a follow-up of an earlier contact (declared by the build, v3)."""
    return task.provenance.stages.get("contact") == "follow-up"


def history_without_contact(task: Task) -> str | None:
    """History words ("keeps going wrong", "every attempt so far", "finally") in a first contact: the
    emotion invents an earlier contact the scenario lacks."""
    if is_follow_up(task):
        return None
    for text in emotion_texts(task):
        if found := w.HISTORY.search(text):
            return f"history in a first contact: {found.group(0)!r}"
    return None


def self_contradiction(task: Task) -> str | None:
    """One emotion text saying two opposite things: urgency and patience, trust and suspicion."""
    for text in emotion_texts(task):
        for one, other in ((w.URGENT, w.PATIENT), (w.TRUSTING, w.SUSPICIOUS)):
            a, b = one.search(text), other.search(text)
            if a and b:
                return f"contradicts itself: {a.group(0)!r} and {b.group(0)!r}"
    return None


def persona_vs_reason(task: Task) -> str | None:
    """A reason the persona cannot have: a retired customer wanting "less time off work"."""
    if not w.RETIRED.search(task.user_scenario.persona):
        return None
    rest = " ".join(sentences(task.instruction)[1:] + [g.request for g in task.user_scenario.goals])
    found = w.WORK_REASON.search(rest)
    return f"retired persona, reason about work: {found.group(0)!r}" if found else None


def reasons_inconsistent(task: Task) -> str | None:
    """Reasons that disagree with each other or with the task's addresses: "you moved to Boise"
    beside a parcel rerouted to Lincoln because the order's address is an old one."""
    text = customer_text(task)
    moved = {m.group(1) for m in w.MOVED_TO.finditer(text) if not w.CALENDAR.fullmatch(m.group(1))}
    cities = {c.strip() for v in task.user_scenario.known_info.values() for c in w.ADDRESS_CITY.findall(v)}
    if len(moved) > 1:
        return f"moved to two places: {sorted(moved)}"
    if moved and cities - moved:
        return f"moved to {min(moved)}, but an address in {min(cities - moved)}"
    return None


def hidden_name_named(task: Task) -> str | None:
    """A task that hides a name ("the restaurant you visited on <date>") and names it elsewhere."""
    scenario = task.user_scenario
    if not any(w.HIDDEN_NAME.search(v) for v in scenario.known_info.values()):
        return None
    text = customer_text(task)
    for name, value in scenario.discoverable.items():
        if not name.endswith("location_id"):
            continue
        for slug in split_values(value):
            shown = slug.replace("_", " ").title()
            if re.search(rf"\b{re.escape(shown)}\b", text):
                return f"hides the place and names it: {shown!r}"
    return None


Lint = Callable[[Task], "str | None"]
TEXT_LINTS: dict[str, Lint] = {
    "id-stated-then-denied": id_stated_then_denied,
    "not-an-id": not_an_id,
    "persona-vs-reason": persona_vs_reason,
    "reasons-inconsistent": reasons_inconsistent,
    "hidden-name-named": hidden_name_named,
    "splice": splice,
    "tool-value-in-text": tool_value_in_text,
    "history-without-contact": history_without_contact,
    "self-contradiction": self_contradiction,
}
"""The lints that read the task alone, by stable name."""
LINT_NAMES = (*TEXT_LINTS, *SEED_LINTS)


def semantic_lints(task: Task, seed: SeedFacts | None = None) -> dict[str, str]:
    """Lint name -> detail for every semantic lint the task fires (seed lints only with `seed`)."""
    hits = {name: detail for name, lint in TEXT_LINTS.items() if (detail := lint(task))}
    if seed is not None:
        hits |= {name: detail for name, lint in SEED_LINTS.items() if (detail := lint(task, seed))}
    return hits


# ------------------------------------------------------------------------------- a domain's hits

SPLITS = ("eval", "train")
DomainHits = dict[str, dict[str, dict[str, str]]]
"""Split -> task id -> {lint name: detail}."""


def domain_semantic_hits(domain: Domain) -> DomainHits:
    """Split -> task id -> {lint: detail} for every task a semantic lint fires on. The evaluation
    split counts the emotional tasks only: a neutral twin repeats its task's text."""
    seed = seed_facts(domain)
    tasks = {"eval": [t for t in domain.tasks if t.emotion is not None], "train": domain.train_tasks}
    return {
        split: {task.id: hits for task in tasks[split] if (hits := semantic_lints(task, seed))}
        for split in SPLITS
    }


def seed_facts(domain: Domain) -> SeedFacts:
    """The domain's seed view for the seed lints, loaded on first use with the build's seed."""
    from taue.tracer.build import tracer_spec
    from taue.tracer.stats import read_report

    seed = int(read_report(domain).get("seed", 0))
    base = domain.base or domain.name
    return SeedFacts(base, lambda: tracer_spec(domain).load(seed))


def lint_counts(hits: dict[str, dict[str, str]]) -> dict[str, int]:
    """Lint name -> tasks hit, every lint named (0 where none)."""
    return {name: sum(name in found for found in hits.values()) for name in LINT_NAMES}


def semantic_lint_summary(hits_by_domain: dict[str, DomainHits]) -> dict[str, Any]:
    """Per lint, the tasks hit per domain and split, with totals (`taue tracer stats --json`)."""
    by_domain = {
        name: {split: lint_counts(hits[split]) for split in SPLITS} for name, hits in hits_by_domain.items()
    }
    totals = {
        split: {lint: sum(d[split][lint] for d in by_domain.values()) for lint in LINT_NAMES}
        for split in SPLITS
    }
    tasks_hit = {split: sum(len(h[split]) for h in hits_by_domain.values()) for split in SPLITS}
    return {"lints": list(LINT_NAMES), "domains": by_domain, "totals": totals, "tasks_hit": tasks_hit}
