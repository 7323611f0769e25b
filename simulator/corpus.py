"""The dialogue-act corpus: agent messages labelled with what a customer takes from them, and how well
the scripted user reads them (`taue simulator corpus-eval`).

Each JSONL line of `tests/simulator/corpus/*.jsonl` is an `Entry`: the message (or, for messages
recorded from a real LLM agent, a reference to the published file, line and turn it is read from at
evaluation time: their text is never copied), the domain and task (or a scenario excerpt: fact names
and the domain's write tools), the labels and the split. `evaluate` reads every message of a split as
the scripted user does and counts, per act, true and false positives and false negatives:

| act | a message has it when |
|---|---|
| `fact_request` | it asks the user for a fact (counted per fact) |
| `confirmation` | it asks the user to approve a change: right only when matched to the labelled goal |
| `completion_claim` | it says a change has been made |
| `refusal_with_reason` | it refuses, giving a reason |
| `lookup_offer` | it offers to look something up |
| `open_offer` | it offers further help ("anything else?") |
| `information` | it tells the user something (a value, a state, a finding) |
| `small_talk` | it holds none of the above (greetings, thanks, "one moment") |
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from taue.contracts.tasks import Goal, Target, Task
from taue.simulator.facts import FactBook, fact_names
from taue.simulator.proposals import Candidate, proposed_goals
from taue.simulator.understanding import Reading, read_message

ACTS = (
    "fact_request",
    "confirmation",
    "completion_claim",
    "refusal_with_reason",
    "lookup_offer",
    "open_offer",
    "information",
    "small_talk",
)
TARGETS = {"fact_request": 0.97, "confirmation": 0.97, "completion_claim": 0.97}
"""Precision and recall the test split must reach for these acts."""


class Labels(BaseModel):
    facts: list[str] = Field(default_factory=list)
    confirms: str | None = None
    """The goal (task corpus) or write tool (recorded corpus) whose approval the message asks for;
    `a|b` when a message proposes two changes at once (either is right)."""
    claim: bool = False
    refusal: bool = False
    """A refusal that gives a reason."""
    lookup_offer: bool = False
    open_offer: bool = False
    information: bool = False
    small_talk: bool = False


class Ref(BaseModel):
    """Where a recorded message is read from: a file of the published few-shot data, the line of the
    conversation and the index of the turn in it (turns split as `recorded_turns` does)."""

    file: str
    line: int
    turn: int


class Scenario(BaseModel):
    """A scenario excerpt for messages outside the project's tasks: fact names and write tools."""

    known: list[str] = Field(default_factory=list)
    discoverable: list[str] = Field(default_factory=list)
    goals: list[str] = Field(default_factory=list)
    """Write tools, each one goal whose id is the tool's name: the writes the conversation is about (the
    ones its agent proposes), or every write of the domain when it proposes none."""


class Entry(BaseModel):
    id: str
    source: Literal["recorded", "written", "judge"]
    domain: str
    task: str | None = None
    style: str | None = None
    message: str | None = None
    ref: Ref | None = None
    scenario: Scenario | None = None
    labels: Labels
    split: Literal["train", "test"]


def load_corpus(folder: Path) -> list[Entry]:
    entries = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                entries.append(Entry.model_validate_json(line))
    return entries


def recorded_turns(display: str) -> list[str]:
    """A recorded conversation (`messages_display`) cut into its turns ("user: …", "assistant: …")."""
    turns: list[str] = []
    for line in display.split("\n"):
        if line.startswith(("user: ", "assistant: ", "tool: ")) or not turns:
            turns.append(line)
        else:
            turns[-1] += "\n" + line
    return turns


class Context(BaseModel):
    """What the reader needs to read one message: the facts and the open goals."""

    model_config = {"arbitrary_types_allowed": True}

    book: FactBook
    goals: list[Goal]
    known_values: list[str] = Field(default_factory=list)
    descriptions: dict[str, str] = Field(default_factory=dict)


def task_context(task: Task, descriptions: Mapping[str, str] | None = None) -> Context:
    scenario = task.user_scenario
    book = FactBook(
        names=fact_names(scenario),
        values={**scenario.discoverable, **scenario.known_info},
        known=frozenset(scenario.known_info),
        focus=scenario.goals[0].request,
    )
    goals = [g for g in scenario.goals if g.kind == "action" and g.targets]
    values = [*scenario.known_info.values(), *scenario.discoverable.values()]
    values += [str(v) for g in goals for t in g.targets for v in t.arguments.values()]
    return Context(book=book, goals=goals, known_values=values, descriptions=dict(descriptions or {}))


def scenario_context(scenario: Scenario, values: Iterable[str], descriptions: Mapping[str, str]) -> Context:
    goals = [
        # call-arg: `arguments` is left out here and set on the next lines
        Goal.model_construct(id=tool, kind="action", request="", targets=[Target.model_construct(tool=tool)])  # type: ignore[call-arg]
        for tool in scenario.goals
    ]
    for goal in goals:
        goal.targets[0].arguments = {}
    book = FactBook(names=[*scenario.known, *scenario.discoverable], known=frozenset(scenario.known))
    return Context(book=book, goals=goals, known_values=list(values), descriptions=dict(descriptions))


def predict(message: str, context: Context) -> tuple[Labels, Reading]:
    """The labels the scripted user's reading gives a message."""
    reading = read_message(message, context.book)
    confirms = None
    if reading.asks_confirmation:
        candidates = [Candidate(g, t) for g in context.goals for t in g.targets]
        found = proposed_goals(message, candidates, context.known_values, context.descriptions)
        confirms = "|".join(sorted(goal.id for goal in found)) or None
    labels = Labels(
        facts=sorted({*reading.requested, *reading.guessed, *(n for _, n in reading.choices)}),
        confirms=confirms,
        claim=reading.claims_completion,
        refusal=reading.refuses and reading.refusal_reasoned,
        lookup_offer=reading.lookup_offers > 0,
        open_offer=reading.offers_help,
        information=reading.informs,
    )
    labels.small_talk = not _any_act(labels, reading)
    return labels, reading


def _any_act(labels: Labels, reading: Reading) -> bool:
    return bool(
        labels.facts
        or reading.asks_anything
        or labels.claim
        or reading.refuses
        or labels.lookup_offer
        or labels.open_offer
        or labels.information
    )


class Score(BaseModel):
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


class Miss(BaseModel):
    id: str
    act: str
    expected: str
    got: str


class Report(BaseModel):
    split: str
    messages: int
    by_source: dict[str, int]
    scores: dict[str, Score]
    misses: list[Miss] = Field(default_factory=list)

    def meets_targets(self) -> bool:
        return all(
            self.scores[act].precision >= goal and self.scores[act].recall >= goal
            for act, goal in TARGETS.items()
        )


def _count(report: Report, entry_id: str, act: str, expected: bool, got: bool, shown=("", "")) -> None:
    score = report.scores[act]
    if expected and got:
        score.tp += 1
    elif got:
        score.fp += 1
        report.misses.append(Miss(id=entry_id, act=act, expected=shown[0] or "no", got=shown[1] or "yes"))
    elif expected:
        score.fn += 1
        report.misses.append(Miss(id=entry_id, act=act, expected=shown[0] or "yes", got=shown[1] or "no"))


def score_entry(report: Report, entry: Entry, got: Labels) -> None:
    want = entry.labels
    for fact in sorted({*want.facts, *got.facts}):
        _count(report, entry.id, "fact_request", fact in want.facts, fact in got.facts, (fact, fact))
    confirm = report.scores["confirmation"]
    # Right when every goal the reader found is one the label allows: a message proposing two changes at
    # once (`a|b`) may be matched to either or to both; one found among others it does not allow is wrong.
    if want.confirms and got.confirms and set(got.confirms.split("|")) <= set(want.confirms.split("|")):
        confirm.tp += 1
    else:
        if got.confirms:
            confirm.fp += 1
        if want.confirms:
            confirm.fn += 1
        if got.confirms or want.confirms:
            shown = (str(want.confirms), str(got.confirms))
            report.misses.append(Miss(id=entry.id, act="confirmation", expected=shown[0], got=shown[1]))
    for act, name in (
        ("completion_claim", "claim"),
        ("refusal_with_reason", "refusal"),
        ("lookup_offer", "lookup_offer"),
        ("open_offer", "open_offer"),
        ("information", "information"),
        ("small_talk", "small_talk"),
    ):
        _count(report, entry.id, act, getattr(want, name), getattr(got, name))


def evaluate(
    entries: list[Entry],
    split: str,
    text_of: Callable[[Entry], str | None],
    context_of: Callable[[Entry], Context | None],
) -> Report:
    """Per-act scores of the reader on one split (`all` for both); entries whose text or context
    cannot be had (a recorded message without the published data) are left out and not counted."""
    report = Report(split=split, messages=0, by_source={}, scores={act: Score() for act in ACTS})
    for entry in entries:
        if split != "all" and entry.split != split:
            continue
        text, context = text_of(entry), context_of(entry)
        if text is None or context is None:
            continue
        report.messages += 1
        report.by_source[entry.source] = report.by_source.get(entry.source, 0) + 1
        score_entry(report, entry, predict(text, context)[0])
    return report


def report_markdown(report: Report) -> str:
    lines = [
        f"{report.messages} messages ({', '.join(f'{s} {n}' for s, n in sorted(report.by_source.items()))}), "
        f"split {report.split}",
        "",
        *score_table(report.scores, TARGETS),
    ]
    return "\n".join(lines)


def score_table(scores: Mapping[str, Score], targets: Mapping[str, float]) -> list[str]:
    """The markdown table of per-act scores (also the SGD corpus's: `simulator/sgd_corpus.py`)."""
    lines = ["| act | precision | recall | tp | fp | fn | target |", "|---|---|---|---|---|---|---|"]
    for act, score in scores.items():
        target = f"≥ {targets[act]:.0%}" if act in targets else ""
        counts = f"{score.tp} | {score.fp} | {score.fn}"
        lines.append(f"| {act} | {score.precision:.1%} | {score.recall:.1%} | {counts} | {target} |")
    return lines


def write_jsonl(path: Path, entries: Iterable[Entry]) -> None:
    path.write_text(
        "".join(json.dumps(e.model_dump(exclude_none=True), ensure_ascii=False) + "\n" for e in entries),
        encoding="utf-8",
    )
