"""`taue simulator replay`: recorded real-agent conversations read by the scripted user.

A τ-bench trajectory (`{task_id, trial, reward, info: {task}, traj}`, `traj` an OpenAI message list)
holds what a real agent said and did. Its agent texts are fed, in order, to our scripted user playing
the same task, imported into a task set (`taue import tau-bench --tasks FILE`), with the service's
confirmations (`Notification`s) of the successful writes the agent made since its previous text, as
the runner passes them. The replay is open loop: the recorded agent says what it said whatever our
user answers, so the user is fed every text even after it ended the conversation (that is recorded).

Counted per conversation (docs/simulator.md, "Replaying real agents"):

- `unplaced`: turns the user could not place (its open-question fallback: "which details do you need?"
  or the details its first request held back);
- `accepted_declined`: turns the recording follows with a write before the next agent text (the
  recorded customer accepted) that our user did not approve;
- `wrong_approvals`: turns our user approved a proposal of, while no write before the next agent text
  matches a target of the approved goals (`contracts.tasks.matches`);
- `missed_reports`: the first agent text after the successful write that completed a goal's targets,
  where our user did not take the goal as reported done;
- the ending: STOP, UNSATISFIED (and at which turn) or open, with the patience then left.

This module reads files and drives the user; finding the task set (a `taue.envs` matter) is the
caller's: it passes the tasks, the domain's write tools and the tool descriptions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from taue.contracts.emotions import condition
from taue.contracts.episode import Notification, UserTurn
from taue.contracts.tasks import Emotion, Goal, Task, matches, neutral_twin, same_value
from taue.simulator.anchors.fit import text_under
from taue.simulator.scripted import Outcome, ScriptedUser
from taue.simulator.understanding import Reading

NEUTRAL = "neutral"
"""`--condition neutral`: the task's neutral twin, or the task without its emotion."""
SHOWN = 160
"""Characters of an agent text kept in a flagged turn."""
Category = Literal[
    "unplaced",
    "accepted_declined",
    "wrong_approval",
    "unverified_approval",
    "missed_report",
    "unmatched_write",
    "false_claim",
]
Ending = Literal["STOP", "UNSATISFIED", "open"]
ENDINGS: tuple[Ending, ...] = ("STOP", "UNSATISFIED", "open")


class ReplayError(ValueError):
    """A replay that cannot be made: the message (one line) says what and where."""


class Trajectory(BaseModel):
    """One recorded τ-bench conversation (the fields the replay reads; others are ignored)."""

    model_config = ConfigDict(extra="ignore")

    task_id: int = Field(ge=0)
    trial: int = 0
    reward: float
    info: dict[str, Any]
    traj: list[dict[str, Any]]

    @property
    def name(self) -> str:
        return f"{self.task_id}#{self.trial}"

    @property
    def instruction(self) -> str:
        task = self.info.get("task")
        return str(task.get("instruction", "")) if isinstance(task, dict) else ""


@dataclass
class Call:
    """One recorded tool call."""

    tool: str
    arguments: dict[str, Any]
    ok: bool
    """Its result is not an error (τ-bench's errors start with "Error")."""
    writes: bool
    output: str = ""
    """Its recorded result."""


@dataclass
class AgentText:
    """One agent text the customer saw, with the calls around it."""

    text: str
    calls: list[Call] = field(default_factory=list)
    """The calls made since the previous agent text (their confirmations come with this one)."""
    after: list[Call] = field(default_factory=list)
    """The calls made after it, before the next agent text (what the customer's answer led to)."""
    answer: str = ""
    """The recorded customer's answer to it."""

    @property
    def recorded_yes(self) -> bool:
        """The recorded customer said yes to it ("Yes, please proceed.", "Go ahead", "That's correct")."""
        return bool(AFFIRMATIVE.match(self.answer.strip()))

    @property
    def recorded_no(self) -> bool:
        """The recorded customer turned it down ("No, I don't want that.")."""
        return bool(NEGATIVE.match(self.answer.strip()))

    @property
    def writes_after(self) -> list[Call]:
        return [c for c in self.after if c.writes]


class FlaggedTurn(BaseModel):
    conversation: str = Field(description="task_id#trial of the recording.")
    turn: int = Field(description="1 = the conversation's first agent text.")
    category: Category
    agent: str = Field(description=f"The agent text's first {SHOWN} characters.")
    reply: str = Field(description="Our user's reply.")
    detail: str = ""


class Counts(BaseModel):
    turns: int = 0
    unplaced: int = 0
    accepted: int = Field(default=0, description="Turns the recording follows with a write.")
    accepted_declined: int = 0
    approvals: int = Field(default=0, description="Turns our user approved a proposal of.")
    wrong_approvals: int = 0
    unverified_approvals: int = Field(
        default=0,
        description="Approvals the recording neither confirms nor contradicts: no write follows and the "
        "recorded customer answered otherwise (informational; each is listed for inspection).",
    )
    reports_due: int = Field(default=0, description="Turns after a write that completed a goal.")
    missed_reports: int = 0
    false_claims: int = Field(
        default=0,
        description="Reports our user took as claims of a change the service never confirmed (a correct "
        "conversation should have none).",
    )
    unmatched_writes: int = Field(
        default=0, description="Successful writes matching no open goal target (informational)."
    )

    def add(self, other: Counts) -> None:
        for name in Counts.model_fields:
            setattr(self, name, getattr(self, name) + getattr(other, name))


class ConversationReport(Counts):
    conversation: str
    task: str = Field(description="The task set's task played.")
    reward: float
    ending: Ending = "open"
    ending_turn: int | None = None
    patience: float | None = Field(default=None, description="Patience left at the ending (or the end).")
    reason: str | None = Field(default=None, description="UNSATISFIED: the costly events behind it.")


class Totals(Counts):
    conversations: int = 0
    endings: dict[str, int] = Field(default_factory=lambda: {str(e): 0 for e in ENDINGS})


class ReplayReport(BaseModel):
    file: str
    task_set: str
    condition: str | None
    seed: int
    conversations: list[ConversationReport]
    totals: Totals
    flagged: list[FlaggedTurn]

    def meets_targets(self, unplaced_share: float = 0.02) -> bool:
        """The targets: unplaced at most 2 % of turns, no declined acceptance, wrong approval or
        missed report."""
        t = self.totals
        return (
            t.unplaced <= unplaced_share * t.turns
            and t.accepted_declined == 0
            and t.wrong_approvals == 0
            and t.missed_reports == 0
        )


# ----------------------------------------------------------------------------------------- reading


def read_trajectories(path: Path) -> list[Trajectory]:
    """The recorded conversations of a τ-bench trajectory file."""
    if not path.is_file():
        raise ReplayError(f"{path}: no such file")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise ReplayError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(raw, list) or not raw:
        raise ReplayError(f"{path}: expected a non-empty JSON array of τ-bench trajectories")
    found = []
    for index, item in enumerate(raw):
        try:
            found.append(Trajectory.model_validate(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "(item)"
            raise ReplayError(f"{path}: trajectory {index}: {where}: {err['msg']}") from None
    return found


AFFIRMATIVE = re.compile(
    r"(?:\W*(?:yes|yeah|yep|sure|ok|okay|alright|correct|that's (?:right|correct)"
    r"|please (?:go ahead|proceed|do)|go ahead|proceed|confirm|i confirm|sounds good|perfect|great)\b)",
    re.IGNORECASE,
)
"""How a recorded customer's answer says yes."""
NEGATIVE = re.compile(
    r"\W*(?:no\b|nope\b|not now\b|don't\b|do not\b|i don't want|i do not want)", re.IGNORECASE
)
"""How a recorded customer's answer says no."""


def agent_texts(messages: list[dict[str, Any]], write_tools: Iterable[str]) -> list[AgentText]:
    """The agent texts the customer saw, with their calls. An assistant message carrying tool calls
    is an action: τ-bench runs the calls and never shows the customer its text."""
    writes = frozenset(write_tools)
    texts: list[AgentText] = []
    pending: list[Call] = []
    for position, message in enumerate(messages):
        if message.get("role") == "user" and texts and not texts[-1].answer:
            texts[-1].answer = str(message.get("content") or "")
        if message.get("role") != "assistant":
            continue
        calls = message.get("tool_calls") or []
        if calls:
            results = _results(messages, position + 1, len(calls))
            pending += [_call(call, result, writes) for call, result in zip(calls, results, strict=True)]
        elif isinstance(message.get("content"), str) and message["content"].strip():
            if texts:
                texts[-1].after = pending
            texts.append(AgentText(message["content"], pending))
            pending = []
    if texts:
        texts[-1].after = pending
    return texts


def _results(messages: list[dict[str, Any]], start: int, count: int) -> list[Any]:
    """The results of the `count` calls of the assistant message before `start`: the tool messages
    that follow it, in order (recorded call ids are not unique across a conversation)."""
    found: list[Any] = []
    for message in messages[start:]:
        if message.get("role") != "tool" or len(found) == count:
            break
        found.append(message.get("content"))
    return found + [None] * (count - len(found))


def _call(call: Any, result: Any, writes: frozenset[str]) -> Call:
    function = (call.get("function") if isinstance(call, dict) else None) or {}
    if not isinstance(function, dict):
        function = {}
    name = str(function.get("name", ""))
    arguments = function.get("arguments") or {}
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError:
            arguments = {}
    ok = isinstance(result, str) and not result.lstrip().startswith("Error")
    output = result if isinstance(result, str) else ""
    return Call(name, arguments if isinstance(arguments, dict) else {}, ok, name in writes, output)


# ----------------------------------------------------------------------------------------- tasks


def _words(text: str) -> str:
    return " ".join(text.split())


def find_task(trajectory: Trajectory, tasks: list[Task], task_set: str) -> Task:
    """The task set's task imported from this trajectory's task: its index is the task_id and its
    instruction the recorded one (less an emotion paragraph the importer split off)."""
    recorded = _words(trajectory.instruction)
    for task in tasks:
        if task.neutral_twin_of is None and task.provenance.index == trajectory.task_id:
            imported = _words(task.instruction)
            if imported and recorded.startswith(imported):
                return task
    raise ReplayError(
        f"trajectory {trajectory.name}: task set {task_set!r} has no task of index {trajectory.task_id} "
        "with its instruction (import it with `taue import tau-bench --tasks FILE`)"
    )


def check_condition(condition_id: str | None) -> None:
    """A condition id of the taxonomy, `neutral` or None; else a `ReplayError`."""
    if condition_id is None or condition_id == NEUTRAL:
        return
    try:
        condition(condition_id)
    except KeyError as exc:
        raise ReplayError(f"{exc.args[0]}, or {NEUTRAL!r}") from None


def played(task: Task, by_id: Mapping[str, Task], condition_id: str | None) -> Task:
    """The task as the user plays it under the condition (None: as imported)."""
    if condition_id is None:
        return task
    if condition_id == NEUTRAL:
        if task.emotion is None:
            return task
        twin = by_id.get(task.twin or "")
        return twin if twin is not None and twin.neutral_twin_of == task.id else neutral_twin(task)
    chosen = condition(condition_id)
    if task.emotion is not None:  # the condition's text that fits the task's situation, as `taue run`
        stages = task.provenance.stages if task.provenance else {}
        text = text_under(chosen, task.domain, stages)
        update = {**chosen.model_dump(), "instruction": text}
        return task.model_copy(update={"emotion": task.emotion.model_copy(update=update)})
    emotion = Emotion(
        **chosen.model_dump(),
        instruction=f"You feel {chosen.emotion}. Your tone is {chosen.politeness}, your urgency "
        f"{chosen.urgency}, and you are {chosen.trust} toward the agent.",
    )
    return task.model_copy(update={"emotion": emotion})


# ----------------------------------------------------------------------------------------- the user


class _ObservedUser(ScriptedUser):
    """The scripted user, answering on after it has ended the conversation: the replay goes on, so
    the answer kept is then the one it would have given (the counts measure reading, not the ending).
    What it made of each message is the user's own record (`last_reading`, `last_outcome`,
    `unplaced`)."""

    answer: str = ""

    def reply(
        self, agent_message: str, notifications: Iterable[Notification] = (), successful_calls: int = 0
    ) -> UserTurn:
        turn = super().reply(agent_message, notifications, successful_calls)
        self.answer = turn.message
        if turn.done and self.last_reading is not None and self.last_outcome is not None:
            self.answer = self.voice.reply(self._compose(self.last_reading, self.last_outcome, False))
        return turn


@dataclass
class _Turn:
    index: int
    text: AgentText
    reply: UserTurn
    answer: str
    """The reply, or after the user ended the one it would have given."""
    reading: Reading
    outcome: Outcome
    unplaced: bool
    due: list[str]
    """Goals whose last target this turn's confirmations completed."""
    missed: list[str]
    """Of those, the goals the user did not take as reported done."""
    unmatched: int


def _flag(report: ConversationReport, turn: _Turn, category: Category, detail: str = "") -> FlaggedTurn:
    return FlaggedTurn(
        conversation=report.conversation,
        turn=turn.index,
        category=category,
        agent=_words(turn.text.text)[:SHOWN],
        reply=turn.answer if not turn.reply.done else f"{turn.answer} [the user had ended]",
        detail=detail,
    )


def _play(user: _ObservedUser, index: int, text: AgentText) -> _Turn:
    notified_before = set(user.goals.notified)
    notifications = [
        Notification(tool=c.tool, arguments=c.arguments, output=c.output)
        for c in text.calls
        if c.ok and c.writes
    ]
    reply = user.reply(text.text, notifications, sum(1 for c in text.calls if c.ok))
    reading, outcome = user.last_reading, user.last_outcome
    assert reading is not None and outcome is not None  # every reply reads and judges the message
    due = user.goals.notified - notified_before
    return _Turn(
        index=index,
        text=text,
        reply=reply,
        answer=user.answer,
        reading=reading,
        outcome=outcome,
        unplaced=user.unplaced,
        due=sorted(due),
        missed=sorted(due - user.goals.done),
        unmatched=max(0, len(notifications) - len(outcome.notified)),
    )


def replay_conversation(
    trajectory: Trajectory, task: Task, write_tools: Iterable[str], tools: Mapping[str, str], seed: int
) -> tuple[ConversationReport, list[FlaggedTurn]]:
    """Feed one recording's agent texts to the scripted user playing `task`."""
    user = _ObservedUser(task, seed, tools=tools)
    user.opening()
    report = ConversationReport(conversation=trajectory.name, task=task.id, reward=trajectory.reward)
    flags: list[FlaggedTurn] = []
    for index, text in enumerate(agent_texts(trajectory.traj, write_tools), start=1):
        turn = _play(user, index, text)
        report.turns += 1
        if turn.unplaced:
            report.unplaced += 1
            flags.append(_flag(report, turn, "unplaced", f"{turn.reading.open_questions} open question(s)"))
        flags += _count_proposal(report, turn) + _count_writes(report, turn)
        if turn.outcome.false_claim:
            report.false_claims += 1
            flags.append(_flag(report, turn, "false_claim", "read as a claim no confirmation backs"))
        if turn.reply.done and report.ending == "open":
            report.ending = "STOP" if turn.reply.termination == "user_stop" else "UNSATISFIED"
            report.ending_turn, report.patience = index, turn.reply.patience
            report.reason = turn.reply.reason
        if report.ending == "open":
            report.patience = turn.reply.patience
    return report, flags


def _approved(turn: _Turn) -> list[Goal]:
    """The goals the user said yes to: a proposal's, and those of the options it picked from a list
    (`Outcome.picks`, where the scripted user has them)."""
    said_yes = list(turn.outcome.proposed) if turn.reading.asks_confirmation else []
    for picked in turn.outcome.picks:
        if picked.goal is not None and picked.goal not in said_yes:
            said_yes.append(picked.goal)
    return said_yes


def _count_proposal(report: ConversationReport, turn: _Turn) -> list[FlaggedTurn]:
    """A turn the recorded customer accepted (a write follows) or our user approved."""
    approved = _approved(turn)
    writes = turn.text.writes_after
    flags = []
    if writes:
        report.accepted += 1
        if not approved and _said_no(turn):
            report.accepted_declined += 1
            flags.append(_flag(report, turn, "accepted_declined", _declined(turn, writes)))
    if approved:
        report.approvals += 1
        verdict = _approval_verdict(approved, turn)
        if verdict == "wrong":
            report.wrong_approvals += 1
            flags.append(_flag(report, turn, "wrong_approval", _wrong(approved, writes)))
        elif verdict == "unverified":
            report.unverified_approvals += 1
            flags.append(_flag(report, turn, "unverified_approval", _wrong(approved, writes)))
    return flags


def _said_no(turn: _Turn) -> bool:
    """Our user turned the agent down: it declined a proposal, or no listed option was what it
    wanted. Answering a question the agent asked (how to pay) turns nothing down."""
    declined = turn.reading.asks_confirmation and not turn.outcome.proposed
    return declined or bool(turn.reading.offers_choice and not turn.outcome.picks)


def _approval_verdict(approved: list[Goal], turn: _Turn) -> Literal["right", "wrong", "unverified"]:
    """Whether the recording bears a yes out. Right: its next successful write is the approved change,
    or the recorded customer said yes too. Wrong: its next successful write is another change, or the
    recorded customer said no. A yes to a change the policy forbids that the agent then does not make
    is the customer's wish, not a misreading. Otherwise the recording cannot tell (the customers
    diverge: the replay is open loop)."""
    writes = [w for w in turn.text.writes_after if w.ok]
    if writes:
        hit = any(matches(t, w.tool, w.arguments) for g in approved for t in g.targets for w in writes)
        return "right" if hit else "wrong"
    if turn.text.recorded_yes or all(g.refusal_expected for g in approved):
        return "right"
    return "wrong" if turn.text.recorded_no else "unverified"


def _count_writes(report: ConversationReport, turn: _Turn) -> list[FlaggedTurn]:
    """A turn that comes with confirmations: a report is due when they completed a goal."""
    flags = []
    if turn.due:
        report.reports_due += 1
        if turn.missed:
            report.missed_reports += 1
            flags.append(_flag(report, turn, "missed_report", f"goal(s) {', '.join(turn.missed)} not told"))
    if turn.unmatched:
        report.unmatched_writes += turn.unmatched
        called = ", ".join(c.tool for c in turn.text.calls if c.ok and c.writes)
        flags.append(_flag(report, turn, "unmatched_write", f"no open goal target matches {called}"))
    return flags


def _declined(turn: _Turn, writes: list[Call]) -> str:
    what = ", ".join(w.tool for w in writes)
    if turn.reading.asks_confirmation:
        read = "read as a proposal matching no open goal"
    elif turn.outcome.picks:
        read = "an option picked that is no goal's"
    elif turn.reading.facts_asked:
        read = f"read as a request for {', '.join(turn.reading.facts_asked)}"
    else:
        read = "not read as a proposal"
    return f"{read}; the recording then {what}"


def _wrong(approved: list[Goal], writes: list[Call]) -> str:
    goals = ", ".join(
        f"{g.id} ({', '.join(t.tool for t in g.targets)}{'; refusal expected' if g.refusal_expected else ''})"
        for g in approved
    )
    if not writes:
        return f"approved {goals}; no write before the next agent text"
    return f"approved {goals}; next writes: {'; '.join(_differs(w, approved) for w in writes)}"


def _differs(write: Call, approved: list[Goal]) -> str:
    """A write, and the key arguments in which it differs from the approved goals' targets."""
    said = f"{write.tool}{'' if write.ok else ' (failed)'}"
    names = sorted(
        {
            name
            for goal in approved
            for target in goal.targets
            if target.tool == write.tool
            for name, value in target.arguments.items()
            if not (name in write.arguments and same_value(write.arguments[name], value))
        }
    )
    return f"{said} differs in {', '.join(names)}" if names else said


def replay(
    path: Path,
    tasks: list[Task],
    task_set: str,
    write_tools: Iterable[str],
    tools: Mapping[str, str],
    condition_id: str | None = None,
    seed: int = 0,
    every: bool = False,
) -> ReplayReport:
    """Replay the file's reward-1 conversations (`every`: all of them) against the task set."""
    check_condition(condition_id)
    trajectories = [t for t in read_trajectories(path) if every or t.reward == 1]
    by_id = {task.id: task for task in tasks}
    chosen = [(t, played(find_task(t, tasks, task_set), by_id, condition_id)) for t in trajectories]
    writes = frozenset(write_tools)
    totals = Totals()
    conversations, flagged = [], []
    for trajectory, task in chosen:
        report, flags = replay_conversation(trajectory, task, writes, tools, seed)
        conversations.append(report)
        flagged += flags
        totals.add(report)
        totals.conversations += 1
        totals.endings[report.ending] += 1
    return ReplayReport(
        file=str(path),
        task_set=task_set,
        condition=condition_id,
        seed=seed,
        conversations=conversations,
        totals=totals,
        flagged=flagged,
    )


def share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def report_text(report: ReplayReport, show: int = 10) -> str:
    """One row per conversation, a totals line and the first `show` flagged turns."""
    head = (
        f"{'conversation':<13} {'task':<22} {'turns':>5} {'unplaced':>8} {'acc.declined':>12} "
        f"{'wrong.appr':>10} {'missed.rep':>10}  ending"
    )
    lines = [
        f"replay of {report.file} against task set {report.task_set} "
        f"(condition {report.condition or 'as imported'}, seed {report.seed})",
        head,
    ]
    for c in report.conversations:
        ending = c.ending if c.ending_turn is None else f"{c.ending} at turn {c.ending_turn}"
        patience = "" if c.patience is None else f", patience {c.patience:g}"
        lines.append(
            f"{c.conversation:<13} {c.task:<22} {c.turns:>5} {c.unplaced:>8} {c.accepted_declined:>12} "
            f"{c.wrong_approvals:>10} {c.missed_reports:>10}  {ending}{patience}"
        )
    t = report.totals
    endings = ", ".join(f"{name} {count}" for name, count in t.endings.items())
    lines.append(
        f"total: {t.conversations} conversations, {t.turns} agent turns; unplaced {t.unplaced} "
        f"({share(t.unplaced, t.turns)} of turns); accepted but declined {t.accepted_declined} of "
        f"{t.accepted} ({share(t.accepted_declined, t.accepted)}); wrong approvals {t.wrong_approvals} of "
        f"{t.approvals} ({share(t.wrong_approvals, t.approvals)}); missed reports {t.missed_reports} of "
        f"{t.reports_due} ({share(t.missed_reports, t.reports_due)}); unmatched writes "
        f"{t.unmatched_writes}; false claims {t.false_claims}; endings: {endings}"
    )
    for flag in report.flagged[:show]:
        lines.append(
            f"- {flag.conversation} turn {flag.turn} {flag.category} ({flag.detail}): {flag.agent!r} -> "
            f"{flag.reply!r}"
        )
    if len(report.flagged) > show:
        lines.append(f"... {len(report.flagged) - show} more flagged turns (--show N or --json)")
    return "\n".join(lines)
