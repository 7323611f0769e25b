"""The reader measured on a labelled corpus nobody on the team wrote: the agent (system) turns of the
Schema-Guided Dialogue dataset (Rastogi et al., AAAI 2020; CC BY-SA 4.0), `taue simulator corpus-eval
--corpus sgd`.

The data is read at run time from a JSONL file outside the project (`TAUE_SGD_DATA`, else
`../shared/data/sgd/system_turns_dev.jsonl`): one agent turn a line, with the dialogue acts it performs.
No utterance is ever copied into the project; reports keep the dialogue id and turn of each miss, and
only `--json` output, printed at run time, carries the text.

Each dialogue gives the reader a fair context: a `FactBook` whose facts are the slots named in that
dialogue's acts (`number_of_seats`, `restaurant_name`, …), valued from the acts (a confirmed value
first, never a list of options) and all known to the customer. Each turn is read with `read_message`
and its SGD acts are mapped to the reader's (docs/simulator.md, "The Schema-Guided Dialogue corpus"):

| act | gold (SGD) | read (`Reading`) |
|---|---|---|
| `confirmation` | CONFIRM, OFFER_INTENT (not scored on other OFFER turns) | `asks_confirmation` |
| `completion_claim` | NOTIFY_SUCCESS | `claims_completion` |
| `failure` | NOTIFY_FAILURE | `refuses`, `leaks_error` or `found_nothing` |
| `request` | REQUEST without values | a fact asked or guessed; right when it is a requested slot |
| `choice` | REQUEST with ≥ 2 values, OFFER of ≥ 2 values of a slot | `offers_choice`, `choices`, `options` |
| `request_slot` | each slot of a REQUEST without values | the facts read (counted per slot) |
| `verification` | REQUEST with one value (a value checked back) | `verified` |
| `open_offer` | REQ_MORE | `offers_help` |
| `information` | INFORM, INFORM_COUNT, an OFFER that is no choice | `informs` |
| `goodbye` | GOODBYE | nothing read (no question, claim, refusal, information or offer) |
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic import BaseModel, Field, computed_field

from taue.simulator.corpus import Score, score_table
from taue.simulator.facts import FactBook
from taue.simulator.understanding import Reading, read_message

ACTS = (
    "confirmation",
    "completion_claim",
    "failure",
    "request",
    "choice",
    "request_slot",
    "verification",
    "open_offer",
    "information",
    "goodbye",
)
TARGETS = {act: 0.95 for act in ("confirmation", "completion_claim", "failure", "request", "choice")}
"""Precision and recall the reader should reach on these acts (all but completion claims met: see
docs/simulator.md)."""
NOT_FACTS = frozenset({"", "intent", "count"})
"""Slots that are no customer fact: the act's own (OFFER_INTENT's intent, INFORM_COUNT's count)."""


class SgdAct(BaseModel):
    act: str
    slot: str = ""
    values: list[str] = Field(default_factory=list)


class Turn(BaseModel):
    """One agent turn of the corpus, as the data file holds it."""

    dialogue_id: str
    turn: int
    services: list[str] = Field(default_factory=list)
    utterance: str
    acts: list[SgdAct]


class Gold(BaseModel):
    """What a turn's SGD acts say it does, in the reader's acts."""

    confirmation: bool | None = False
    """None on a turn that offers an option and asks nothing else to approve: not scored."""
    completion_claim: bool = False
    failure: bool = False
    requested: list[str] = Field(default_factory=list)
    """Slots of REQUEST acts without values."""
    choice: bool = False
    verification: bool = False
    open_offer: bool = False
    information: bool = False
    goodbye: bool = False
    asked_with_values: list[str] = Field(default_factory=list)
    """Slots of REQUEST acts with values (a choice or a check) and slots an OFFER gives options of:
    reading them as asked (or picking one of their options) is no error."""


class Got(BaseModel):
    """What the reader took from a turn, in the same acts."""

    confirmation: bool = False
    completion_claim: bool = False
    failure: bool = False
    facts: list[str] = Field(default_factory=list)
    """Facts read as asked for (asked, guessed or chosen), less those of a REQUEST with values."""
    choice: bool = False
    verification: bool = False
    open_offer: bool = False
    information: bool = False
    goodbye: bool = False


class ActScore(Score):
    """One act's counts, rates and target (`Score` with its rates and target written out)."""

    target: float | None = None

    @computed_field  # type: ignore[prop-decorator]  # pydantic serialises the property; mypy rejects the stack
    @property
    def precision(self) -> float:
        return super().precision

    @computed_field  # type: ignore[prop-decorator]  # pydantic serialises the property; mypy rejects the stack
    @property
    def recall(self) -> float:
        return super().recall

    @computed_field  # type: ignore[prop-decorator]  # pydantic serialises the property; mypy rejects the stack
    @property
    def met(self) -> bool | None:
        """Whether both rates reach the target (None for an act without one)."""
        if self.target is None:
            return None
        return self.precision >= self.target and self.recall >= self.target


class SgdMiss(BaseModel):
    dialogue_id: str
    turn: int
    act: str
    expected: str
    got: str
    text: str | None = None
    """The utterance, only in output made at run time (`--json`): never stored in the project."""


class SgdReport(BaseModel):
    turns: int
    dialogues: int
    seconds: float
    """How long reading the turns took (wall clock)."""
    scores: dict[str, ActScore]
    misses: list[SgdMiss] = Field(default_factory=list)

    def meets_targets(self) -> bool:
        return all(self.scores[act].met for act in TARGETS)


def load_turns(path: Path) -> list[Turn]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [Turn.model_validate_json(line) for line in lines if line.strip()]


CUSTOMER_ACTS = frozenset({"REQUEST", "CONFIRM"})
"""Acts whose slots are the customer's to give: asked for, or read back to approve."""


def fact_books(turns: Iterable[Turn]) -> dict[str, FactBook]:
    """Each dialogue's context: its slots as facts, each valued from its acts: the value of the last
    CONFIRM act naming it, else the first value an act gives it alone (options laid out to choose
    from, two or more values in one act, are not the customer's). The customer knows the slots the
    agent asks for or reads back (`CUSTOMER_ACTS`); the rest (a price, a phone number, a rating) are
    the agent's to find, as a task's discoverable facts."""
    confirmed: dict[str, dict[str, str]] = {}
    first: dict[str, dict[str, str]] = {}
    known: dict[str, set[str]] = {}
    for turn in turns:
        for act in turn.acts:
            if act.slot in NOT_FACTS:
                continue
            if act.act in CUSTOMER_ACTS:
                known.setdefault(turn.dialogue_id, set()).add(act.slot)
            first.setdefault(turn.dialogue_id, {})
            if len(act.values) != 1:
                first[turn.dialogue_id].setdefault(act.slot, "")
                continue
            if not first[turn.dialogue_id].get(act.slot):
                first[turn.dialogue_id][act.slot] = act.values[0]
            if act.act == "CONFIRM":
                confirmed.setdefault(turn.dialogue_id, {})[act.slot] = act.values[0]
    books = {}
    for dialogue, values in first.items():
        values = {**values, **confirmed.get(dialogue, {})}
        books[dialogue] = FactBook(
            names=list(values),
            values={k: v for k, v in values.items() if v},
            known=frozenset(known.get(dialogue, ())),
        )
    return books


def service_slots(turns: Iterable[Turn]) -> dict[tuple[str, str], list[str]]:
    """The slots each service of a dialogue speaks of: the need in progress on a turn of that service
    (`FactBook.focus`, as the scripted user's focus is the request it is working on)."""
    slots: dict[tuple[str, str], list[str]] = {}
    for turn in turns:
        for service in turn.services:
            named = slots.setdefault((turn.dialogue_id, service), [])
            named += [a.slot for a in turn.acts if a.slot not in NOT_FACTS and a.slot not in named]
    return slots


def gold(turn: Turn) -> Gold:
    kinds = {act.act for act in turn.acts}
    offered_options = any(act.act == "OFFER" and len(act.values) >= 2 for act in turn.acts)
    choice = offered_options or any(act.act == "REQUEST" and len(act.values) >= 2 for act in turn.acts)
    confirmation = bool(kinds & {"CONFIRM", "OFFER_INTENT"}) or (None if "OFFER" in kinds else False)
    return Gold(
        confirmation=confirmation,
        completion_claim="NOTIFY_SUCCESS" in kinds,
        failure="NOTIFY_FAILURE" in kinds,
        requested=sorted({a.slot for a in turn.acts if a.act == "REQUEST" and not a.values}),
        choice=choice,
        verification=any(act.act == "REQUEST" and len(act.values) == 1 for act in turn.acts),
        open_offer="REQ_MORE" in kinds,
        information=bool(kinds & {"INFORM", "INFORM_COUNT"}) or ("OFFER" in kinds and not offered_options),
        goodbye="GOODBYE" in kinds,
        asked_with_values=sorted(
            {
                a.slot
                for a in turn.acts
                if (a.act == "REQUEST" and a.values) or (a.act == "OFFER" and len(a.values) >= 2)
            }
        ),
    )


def got(reading: Reading, turn_gold: Gold) -> Got:
    read = {*reading.requested, *reading.facts_asked, *reading.guessed, *(n for _, n in reading.choices)}
    facts = sorted(read - set(turn_gold.asked_with_values))
    nothing = not (
        reading.questions
        or reading.claims_completion
        or reading.refuses
        or reading.informs
        or reading.offers_help
    )
    return Got(
        confirmation=reading.asks_confirmation,
        completion_claim=reading.claims_completion,
        failure=reading.refuses or reading.leaks_error or reading.found_nothing,
        facts=facts,
        choice=reading.offers_choice or bool(reading.choices or reading.options),
        verification=bool(reading.verified),
        open_offer=reading.offers_help,
        information=reading.informs,
        goodbye=nothing,
    )


def _count(report: SgdReport, turn: Turn, act: str, expected: bool, got: bool, text: bool) -> None:
    score = report.scores[act]
    if expected and got:
        score.tp += 1
        return
    if not (expected or got):
        return
    if got:
        score.fp += 1
    else:
        score.fn += 1
    _miss(report, turn, act, ("yes" if expected else "no", "yes" if got else "no"), text)


def _miss(report: SgdReport, turn: Turn, act: str, shown: tuple[str, str], text: bool) -> None:
    where = {"dialogue_id": turn.dialogue_id, "turn": turn.turn}
    utterance = turn.utterance if text else None
    report.misses.append(SgdMiss(**where, act=act, expected=shown[0], got=shown[1], text=utterance))


def _count_request(report: SgdReport, turn: Turn, want: Gold, have: Got, text: bool) -> None:
    """`request`: right when a fact read is a requested slot; read facts none of which is requested
    count as a false positive and, when slots were requested, a false negative too. `request_slot`:
    the same per slot."""
    expected, read = set(want.requested), set(have.facts)
    shown = (",".join(sorted(expected)) or "no", ",".join(sorted(read)) or "no")
    score = report.scores["request"]
    if expected & read:
        score.tp += 1
    elif expected or read:
        score.fp += bool(read)
        score.fn += bool(expected)
        _miss(report, turn, "request", shown, text)
    slots = report.scores["request_slot"]
    slots.tp += len(expected & read)
    slots.fp += len(read - expected)
    slots.fn += len(expected - read)


def empty_report(turns: int = 0, dialogues: int = 0) -> SgdReport:
    scores = {act: ActScore(target=TARGETS.get(act)) for act in ACTS}
    return SgdReport(turns=turns, dialogues=dialogues, seconds=0.0, scores=scores)


def evaluate(turns: Sequence[Turn], books: dict[str, FactBook], text: bool = False) -> SgdReport:
    """Per-act scores of the reader on `turns`, each read in its dialogue's context (`books`, made
    by `fact_books` from every turn of the file); `text` keeps each miss's utterance (run time only)."""
    report = empty_report(len(turns), len({t.dialogue_id for t in turns}))
    started = time.perf_counter()
    needs = service_slots(turns)
    for turn in turns:
        book = books.get(turn.dialogue_id) or FactBook(names=[])
        book.focus = " ".join(
            slot for service in turn.services for slot in needs.get((turn.dialogue_id, service), ())
        )
        score_turn(report, turn, book, text)
    report.seconds = round(time.perf_counter() - started, 2)
    return report


def score_turn(report: SgdReport, turn: Turn, book: FactBook, text: bool = False) -> Reading:
    """Read one turn in its dialogue's context and count it."""
    want = gold(turn)
    reading = read_message(turn.utterance, book)
    count(report, turn, want, got(reading, want), text)
    return reading


def count(report: SgdReport, turn: Turn, want: Gold, have: Got, text: bool = False) -> None:
    """Add one turn's gold and read acts to the report's counts (and misses)."""
    if want.confirmation is not None:
        _count(report, turn, "confirmation", want.confirmation, have.confirmation, text)
    for act in ("completion_claim", "failure", "choice"):
        _count(report, turn, act, getattr(want, act), getattr(have, act), text)
    _count_request(report, turn, want, have, text)
    for act in ("verification", "open_offer", "information", "goodbye"):
        _count(report, turn, act, getattr(want, act), getattr(have, act), text)


def report_markdown(report: SgdReport) -> str:
    lines = [
        f"Schema-Guided Dialogue (dev split): {report.turns} agent turns of {report.dialogues} dialogues, "
        f"read in {report.seconds:.1f} s",
        "",
        *score_table(report.scores, TARGETS),
    ]
    return "\n".join(lines)
