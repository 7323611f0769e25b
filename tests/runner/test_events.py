"""Each record's ordered events: messages and tool calls in the order they happened, with turn and
clock; older records without events still load and rebuild them."""

from __future__ import annotations

from datetime import datetime

import pytest

from taue.contracts.episode import LoggedCall, Message
from taue.contracts.run import EpisodeRecord, RunConfig
from taue.contracts.timeline import timeline
from taue.runner.runner import execute_run

pytestmark = pytest.mark.xdist_group("events")


def _call(name: str, turn: int | None, ok: bool = True) -> LoggedCall:
    return LoggedCall(
        name=name, arguments={"id": name}, ok=ok, output="fine" if ok else "Error: no", turn=turn
    )


def test_timeline_puts_each_turns_calls_between_the_user_message_and_the_reply() -> None:
    transcript = [
        Message(role="user", content="u0"),
        Message(role="agent", content="a0"),
        Message(role="user", content="u1"),
        Message(role="agent", content="a1"),
        Message(role="user", content="u2"),
    ]
    calls = [_call("look", 0), _call("write", 1, ok=False), _call("again", 1)]
    clocks = [("2026-01-01T00:00:01.000Z", 2.5), ("2026-01-01T00:00:03.000Z", 1.0), (None, None)]
    times = [f"2026-01-01T00:00:0{i}.500Z" for i in range(5)]
    events = timeline(transcript, calls, times, clocks)
    assert [(e.kind, e.turn, e.content or e.name) for e in events] == [
        ("user", 0, "u0"),
        ("tool_call", 0, "look"),
        ("agent", 0, "a0"),
        ("user", 1, "u1"),
        ("tool_call", 1, "write"),
        ("tool_call", 1, "again"),
        ("agent", 1, "a1"),
        ("user", 2, "u2"),
    ]
    write = events[4]
    assert write.error is True and write.output == "Error: no" and write.arguments == {"id": "write"}
    assert write.timestamp == "2026-01-01T00:00:03.000Z" and write.duration_ms == 1.0
    assert events[0].timestamp == times[0] and events[-1].timestamp == times[4]


def test_calls_of_a_turn_without_reply_and_calls_without_turn_come_last() -> None:
    transcript = [Message(role="user", content="u0"), Message(role="agent", content="a0")]
    events = timeline(transcript, [_call("old", None), _call("late", 1), _call("first", 0)])
    assert [(e.kind, e.turn, e.name) for e in events] == [
        ("user", 0, None),
        ("tool_call", 0, "first"),
        ("agent", 0, None),
        ("tool_call", 1, "late"),
        ("tool_call", None, "old"),
    ]


@pytest.fixture(scope="module")
async def pester_records(tmp_path_factory: pytest.TempPathFactory) -> list[EpisodeRecord]:
    out = tmp_path_factory.mktemp("events")
    config = RunConfig(run="events", domains=["airline"], agent="pester", user="scripted", trials=1, limit=2)
    report = await execute_run(config, out, None, 8)
    assert report.failed == 0
    return report.records


async def test_records_hold_the_episode_in_order_with_turns_and_clock(pester_records) -> None:
    assert sum(len(r.tool_log) for r in pester_records) >= 2
    for record in pester_records:
        events = record.events
        assert len(events) == len(record.transcript) + len(record.tool_log)
        assert [e.content for e in events if e.kind != "tool_call"] == [m.content for m in record.transcript]
        calls = [e for e in events if e.kind == "tool_call"]
        assert [(e.name, e.arguments, e.error) for e in calls] == [
            (c.name, c.arguments, not c.ok) for c in record.tool_log
        ]
        assert all(e.duration_ms is not None and e.duration_ms >= 0 for e in calls)
        turns = [e.turn for e in events]
        assert turns == sorted(turns) and turns[0] == 0
        stamps = [datetime.fromisoformat(e.timestamp) for e in events]
        assert stamps == sorted(stamps), [e.timestamp for e in events]
        assert events == record.timeline()


async def test_a_record_from_before_events_loads_and_rebuilds_them_without_clock(pester_records) -> None:
    record = pester_records[0]
    old = record.model_dump(exclude={"events"})
    for call in old["tool_log"]:
        call.pop("turn")
    loaded = EpisodeRecord.model_validate(old)
    assert loaded.events == []
    rebuilt = loaded.timeline()
    assert [(e.kind, e.content, e.name) for e in rebuilt] == sorted(
        [(e.kind, e.content, e.name) for e in record.events], key=lambda k: k[0] == "tool_call"
    )
    assert all(e.timestamp is None for e in rebuilt)
    assert record.without_clock()["events"][0] == {
        k: v for k, v in record.events[0].model_dump().items() if k not in ("timestamp", "duration_ms")
    }
