"""How an agent spends a conversation: tool calls against questions to the user.

A question is an agent message with a question mark (a turn that asks the user something). A
needless question asks for a fact the tools could give; only the scripted user judges that (its
`needless_question_discoverable` events), so for other user backends the figure is None.
Training data is best when the agent looks things up rather than asks: the share of trajectories
with more tool calls than questions is the headline figure (docs/training.md).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from taue.contracts.episode import Message

NEEDLESS = "needless_question_discoverable"
"""The scripted user's event for a question about a fact the tools could give."""


class EpisodeInteraction(BaseModel):
    domain: str
    family: str | None
    tool_calls: int
    questions: int
    needless_questions: int | None

    @property
    def more_calls_than_questions(self) -> bool:
        return self.tool_calls > self.questions


def questions_asked(transcript: Iterable[Message]) -> int:
    return sum(1 for message in transcript if message.role == "agent" and "?" in message.content)


def episode_interaction(record: Any) -> EpisodeInteraction:
    """The interaction figures of one episode record (`taue.runner.results.EpisodeRecord`)."""
    events = record.user_state.get("events", []) if record.user == "scripted" else None
    return EpisodeInteraction(
        domain=record.domain,
        family=record.family,
        tool_calls=len(record.tool_log),
        questions=questions_asked(record.transcript),
        needless_questions=None if events is None else sum(1 for event in events if event == NEEDLESS),
    )


def aggregate(episodes: list[EpisodeInteraction]) -> dict[str, Any]:
    """Totals and shares of a group of episodes (all figures None for an empty group)."""
    count = len(episodes)
    calls = sum(e.tool_calls for e in episodes)
    questions = sum(e.questions for e in episodes)
    judged = [e.needless_questions for e in episodes if e.needless_questions is not None]
    return {
        "episodes": count,
        "tool_calls_per_episode": _ratio(calls, count),
        "questions_per_episode": _ratio(questions, count),
        "tool_calls_per_question": _ratio(calls, questions),
        "more_calls_than_questions": _ratio(sum(e.more_calls_than_questions for e in episodes), count),
        "needless_questions": sum(judged) if judged else None,
        "needless_questions_per_episode": _ratio(sum(judged), len(judged)) if judged else None,
    }


def interaction_stats(records: Iterable[Any]) -> dict[str, Any]:
    """`aggregate` over all records, and by domain and by emotion family (neutral twins: `neutral`)."""
    episodes = [episode_interaction(record) for record in records]
    by_domain: dict[str, list[EpisodeInteraction]] = defaultdict(list)
    by_family: dict[str, list[EpisodeInteraction]] = defaultdict(list)
    for episode in episodes:
        by_domain[episode.domain].append(episode)
        by_family[episode.family or "neutral"].append(episode)
    return {
        **aggregate(episodes),
        "by_domain": {name: aggregate(group) for name, group in sorted(by_domain.items())},
        "by_family": {name: aggregate(group) for name, group in sorted(by_family.items())},
    }


def _ratio(numerator: float, denominator: float) -> float | None:
    return round(numerator / denominator, 4) if denominator else None
