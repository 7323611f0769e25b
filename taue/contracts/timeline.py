"""An episode as one ordered list of events: user messages, agent messages and tool calls, each
with its agent turn and, for records made since events were recorded, its wall-clock time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from taue.contracts.episode import Event, LoggedCall, Message


def timeline(
    transcript: Sequence[Message],
    tool_log: Sequence[LoggedCall],
    message_times: Sequence[str | None] = (),
    call_clocks: Sequence[tuple[str | None, float | None]] = (),
) -> list[Event]:
    """The events of an episode in order: in each turn i, user message i, then the tool calls of
    agent turn i, then agent reply i. `message_times` runs parallel to `transcript`, `call_clocks`
    (timestamp, duration in ms) to `tool_log`; missing entries leave the clock fields None.
    Calls without a turn (records made before turns were recorded) come last, with turn None."""
    messages = _message_events(transcript, message_times)
    calls = [_call_event(call, *_at(call_clocks, index, (None, None))) for index, call in enumerate(tool_log)]
    by_turn: dict[int, list[Event]] = {}
    for call in calls:
        if call.turn is not None:
            by_turn.setdefault(call.turn, []).append(call)
    events: list[Event] = []
    placed: set[int] = set()
    for message in messages:
        if message.kind == "agent":
            turn = cast(int, message.turn)  # message events always carry their turn (_message_events)
            events.extend(by_turn.get(turn, []))
            placed.add(turn)
        events.append(message)
    events.extend(call for turn in sorted(set(by_turn) - placed) for call in by_turn[turn])
    events.extend(call for call in calls if call.turn is None)
    return events


def _message_events(transcript: Sequence[Message], times: Sequence[str | None]) -> list[Event]:
    counts = {"user": 0, "agent": 0}
    events = []
    for index, message in enumerate(transcript):
        events.append(
            Event(
                kind=message.role,
                turn=counts[message.role],
                timestamp=_at(times, index, None),
                content=message.content,
            )
        )
        counts[message.role] += 1
    return events


def _call_event(call: LoggedCall, timestamp: str | None, duration_ms: float | None) -> Event:
    return Event(
        kind="tool_call",
        turn=call.turn,
        timestamp=timestamp,
        name=call.name,
        arguments=call.arguments,
        output=call.output,
        error=not call.ok,
        writes=call.writes,
        duration_ms=duration_ms,
    )


def _at(items: Sequence[Any], index: int, default: Any) -> Any:
    return items[index] if index < len(items) else default
