"""How the scripted user reads one agent message on one task: `taue simulator understand`.

A fresh user of the task (seed 0, after its opening) reads the message as its first agent turn; the
explanation lists the acts it found, the facts asked and how it would answer them, the goals a
proposal matched (with the value and action hits of each open goal), the claim's strength, the
charges and the reply. Nothing is sent anywhere: it is the tool to debug a surprising UNSATISFIED.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, Field

from taue.contracts.tasks import Task
from taue.contracts.text import tokens
from taue.simulator.markup import sentences
from taue.simulator.proposals import action_words, key_values, message_meanings, request_actions
from taue.simulator.scripted import ScriptedUser


class GoalMatch(BaseModel):
    goal: str
    tool: str
    action_hits: list[str]
    value_hits: list[str]


class Explanation(BaseModel):
    task: str
    sentences: list[str]
    questions: list[str]
    acts: list[str]
    facts_asked: list[str]
    facts_guessed: list[str]
    verified: list[str]
    claim: str
    refusal: str
    proposed_goals: list[str]
    goals: list[GoalMatch] = Field(default_factory=list)
    charges: list[str]
    patience: tuple[float, float]
    """(before, after)."""
    reply: str


def explain(message: str, task: Task, tools: Mapping[str, str] | None = None) -> Explanation:
    user = ScriptedUser(task, seed=0, tools=tools)
    user.opening()
    before = user.satisfaction.patience
    from taue.simulator.understanding import read_message

    reading = read_message(message, user.book)
    proposed = user.goals.proposed(message) if reading.asks_confirmation else []
    turn = user.reply(message)
    acts = [
        name
        for name, present in (
            ("fact request", bool(reading.requested)),
            ("vague question (guessed)", bool(reading.guessed)),
            ("choice", bool(reading.choices)),
            ("offer of options to pick", reading.offers_choice),
            ("question about what the user wants", bool(reading.wish_questions)),
            ("verification", reading.verifies),
            ("confirmation request", reading.asks_confirmation),
            ("lookup offer", bool(reading.lookup_offers)),
            ("identity question", bool(reading.identity_questions)),
            ("open offer", reading.offers_help),
            ("open question", bool(reading.open_questions)),
            ("completion claim", reading.claims_completion),
            ("refusal", reading.refuses),
            ("search found nothing", reading.found_nothing),
            ("information", reading.informs),
            ("acknowledgement", reading.acknowledges),
            ("tool-error leak", reading.leaks_error),
        )
        if present
    ]
    return Explanation(
        task=task.id,
        sentences=sentences(message),
        questions=reading.questions,
        acts=acts,
        facts_asked=reading.requested,
        facts_guessed=reading.guessed,
        verified=reading.verified,
        claim=reading.claim.name.lower(),
        refusal=("with a reason" if reading.refusal_reasoned else "without a reason")
        if reading.refuses
        else "none",
        proposed_goals=[g.id for g in proposed],
        goals=_matches(message, task, tools or {}),
        charges=turn.events,
        patience=(before, turn.patience if turn.patience is not None else before),
        reply=turn.message,
    )


def _matches(message: str, task: Task, tools: Mapping[str, str]) -> list[GoalMatch]:
    words = tokens(message)
    meanings = message_meanings(message)
    found = []
    for goal in task.user_scenario.goals:
        for target in goal.targets:
            actions = action_words(target.tool, tools.get(target.tool, "")) | request_actions(goal.request)
            values = [str(v) for v in key_values(target)]
            found.append(
                GoalMatch(
                    goal=goal.id,
                    tool=target.tool,
                    action_hits=sorted(meanings & actions),
                    value_hits=[v for v in values if tokens(v) and _within(words, tokens(v))],
                )
            )
    return found


def _within(words: list[str], wanted: list[str]) -> bool:
    width = len(wanted)
    return any(words[i : i + width] == wanted for i in range(len(words) - width + 1))


def explanation_text(found: Explanation) -> str:
    lines = [
        f"task {found.task}",
        f"acts: {', '.join(found.acts) or 'none'}",
        f"questions: {len(found.questions)}",
        f"facts asked: {', '.join(found.facts_asked) or '-'}",
        f"facts guessed: {', '.join(found.facts_guessed) or '-'}",
        f"completion claim: {found.claim}; refusal: {found.refusal}",
        f"proposal matched: {', '.join(found.proposed_goals) or '-'}",
    ]
    for match in found.goals:
        lines.append(
            f"  goal {match.goal} ({match.tool}): action hits {match.action_hits or '-'}, "
            f"value hits {match.value_hits or '-'}"
        )
    before, after = found.patience
    lines.append(f"charges: {', '.join(found.charges) or 'none'} (patience {before:g} -> {after:g})")
    lines.append(f"reply: {found.reply}")
    return "\n".join(lines)
