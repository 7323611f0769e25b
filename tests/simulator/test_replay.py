"""`taue simulator replay`: GPT-4o's recorded τ-bench airline conversations read by the scripted user,
and the `taue import tau-bench --tasks FILE` import of their tasks it needs.

The recordings are read at test time from `../shared/data/tau-bench-trajectories` (or
`TAUE_TRAJECTORIES`); skipped without them. Never copy their text into the project.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from taue.cli import app
from taue.envs.runtime.discovery import get_domain
from taue.simulator.replay import agent_texts
from tests.paths import PUBLISHED_DATA, ROOT

TRAJECTORIES = (
    Path(os.environ.get("TAUE_TRAJECTORIES", ROOT.parent / "shared/data/tau-bench-trajectories"))
    / "gpt-4o-airline-even-tasks.json"
)
AIRLINE = PUBLISHED_DATA / "airline"
"""The published airline layout: its database and wiki.md (the test tasks come from the recordings)."""
TASK_SET = "gpt4o-airline-test"
CONDITIONS = ("neutral", "frustration.cold.high.skeptical", "anxiety.warm.high.cautious")
"""Neutral, an anger-family condition at its hardest and a fear-family one."""
COUNTS = ("turns", "unplaced", "accepted", "accepted_declined", "approvals", "wrong_approvals")
COUNTS += ("reports_due", "missed_reports", "unmatched_writes")
CATEGORY_OF = {
    "unplaced": "unplaced",
    "accepted_declined": "accepted_declined",
    "wrong_approvals": "wrong_approval",
    "unverified_approvals": "unverified_approval",
    "missed_reports": "missed_report",
    "false_claims": "false_claim",
}

pytestmark = [
    pytest.mark.xdist_group("replay"),  # the module-scoped import is made once, on one worker
    pytest.mark.timeout(60),
]
needs_data = pytest.mark.skipif(
    not TRAJECTORIES.is_file() or not AIRLINE.is_dir(),
    reason=f"the recorded trajectories ({TRAJECTORIES}) or the published airline data ({AIRLINE}) "
    "are absent (external data)",
)


def taue(*args: str) -> Result:
    """The `taue` command line, in process (TAUE_TASK_SETS_DIR comes from the `home` fixture)."""
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "300"})


def one_line_error(result: Result, message: str) -> None:
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # a clean exit, no traceback
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.stderr


@pytest.fixture(scope="module")
def recordings() -> list[dict[str, Any]]:
    return json.loads(TRAJECTORIES.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("replay-sets")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TAUE_TASK_SETS_DIR", str(folder))
        yield folder


@pytest.fixture(scope="module")
def imported(home: Path) -> dict[str, Any]:
    """The test split's tasks, imported from the recordings: task_set.json."""
    args = ["import", "tau-bench", str(AIRLINE), "--domain", "airline", "--split", "test"]
    result = taue(*args, "--task-set", TASK_SET, "--tasks", str(TRAJECTORIES), "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def replayed(*args: str) -> dict[str, Any]:
    result = taue("simulator", "replay", str(TRAJECTORIES), "--task-set", TASK_SET, "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def reports(imported: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {condition: replayed("--condition", condition) for condition in CONDITIONS}


# ----------------------------------------------------------------------------------------- the import


@needs_data
def test_import_with_tasks_keeps_each_task_id_as_index_and_id(
    imported: dict[str, Any], recordings: list[dict[str, Any]]
) -> None:
    task_ids = sorted({r["task_id"] for r in recordings})
    assert len(task_ids) == 25 and imported["tasks"] == 25
    assert imported["emotional"] == 0 and imported["neutral_twins"] == 0
    assert imported["split"] == "test" and imported["task_files"] == [str(TRAJECTORIES.resolve())]
    assert imported["replay_failures"] == []
    tasks = get_domain(TASK_SET).tasks
    assert [t.id for t in tasks] == [f"{TASK_SET}-{i:04d}" for i in task_ids]
    instructions = {r["task_id"]: r["info"]["task"]["instruction"] for r in recordings}
    for task in tasks:
        assert task.provenance.index is not None
        assert task.id.endswith(f"-{task.provenance.index:04d}")
        assert task.instruction == instructions[task.provenance.index]
        assert task.provenance.source == str(TRAJECTORIES.resolve())


@needs_data
def test_import_with_tasks_reads_a_list_of_published_tasks(
    home: Path, recordings: list[dict[str, Any]], tmp_path: Path
) -> None:
    published = tmp_path / "tasks.json"
    published.write_text(json.dumps([recordings[0]["info"]["task"]]), encoding="utf-8")
    args = ["import", "tau-bench", str(AIRLINE), "--domain", "airline", "--split", "test"]
    result = taue(*args, "--task-set", "replay-published", "--tasks", str(published), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["tasks"] == 1
    (task,) = get_domain("replay-published").tasks
    assert task.id == "replay-published-0000" and task.provenance.index == 0


BAD_TASK_FILES = [
    (None, "no such file"),
    ("not json", "not valid JSON"),
    ({"task_id": 0}, "expected a JSON array"),
    ([], "found an empty array"),
    ([{"task_id": -1, "info": {"task": {}}, "traj": []}], "task_id must be a non-negative integer"),
    ([{"task_id": 3, "info": {}, "traj": []}], "no info.task object"),
    (
        [{"task_id": 3, "info": {"task": {"user_id": "x"}}, "traj": []}],
        "trajectory 0 (task_id 3): info.task:",
    ),
    (
        [
            {"task_id": 3, "info": {"task": {"user_id": "a"}}},
            {"task_id": 3, "info": {"task": {"user_id": "b"}}},
        ],
        "task_id 3 holds a different info.task than trajectory 0",
    ),
    ([{"user_id": "x"}], "task 0: instruction: Field required"),
]


@needs_data
@pytest.mark.parametrize(("content", "message"), BAD_TASK_FILES)
def test_import_rejects_a_bad_tasks_file_in_one_line(
    home: Path, tmp_path: Path, content: Any, message: str
) -> None:
    path = tmp_path / "tasks.json"
    if content is not None:
        path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    args = ["import", "tau-bench", str(AIRLINE), "--domain", "airline", "--split", "test"]
    one_line_error(taue(*args, "--task-set", "replay-bad", "--tasks", str(path)), message)
    assert not (home / "replay-bad").exists()


# ----------------------------------------------------------------------------------------- the replay


@needs_data
def test_replay_rejects_bad_input_in_one_line(
    imported: dict[str, Any], recordings: list[dict[str, Any]], tmp_path: Path
) -> None:
    one_line_error(
        taue("simulator", "replay", str(tmp_path / "none.json"), "--task-set", TASK_SET), "no such file"
    )
    one_line_error(taue("simulator", "replay", str(TRAJECTORIES), "--task-set", "no-such-set"), "no task set")
    unknown = taue("simulator", "replay", str(TRAJECTORIES), "--task-set", TASK_SET, "--condition", "calm")
    one_line_error(unknown, "unknown emotion condition 'calm'")
    stranger = dict(next(r for r in recordings if r["reward"] == 1), task_id=1)  # an odd task: not in the set
    path = tmp_path / "stranger.json"
    path.write_text(json.dumps([stranger]), encoding="utf-8")
    one_line_error(
        taue("simulator", "replay", str(path), "--task-set", TASK_SET),
        "has no task of index 1 with its instruction",
    )


@needs_data
@pytest.mark.parametrize("condition", CONDITIONS)
def test_replay_report_adds_up(
    reports: dict[str, dict[str, Any]], recordings: list[dict[str, Any]], condition: str
) -> None:
    report = reports[condition]
    conversations, totals = report["conversations"], report["totals"]
    winners = [r for r in recordings if r["reward"] == 1]
    assert len(winners) == 49 and totals["conversations"] == len(conversations) == 49
    assert [c["conversation"] for c in conversations] == [f"{r['task_id']}#{r['trial']}" for r in winners]
    for name in COUNTS:
        assert totals[name] == sum(c[name] for c in conversations), name
    shown = sum(
        1
        for r in winners
        for m in r["traj"]
        if m["role"] == "assistant" and m.get("content") and not m.get("tool_calls")
    )
    assert totals["turns"] == shown
    endings = Counter(c["ending"] for c in conversations)
    assert totals["endings"] == {e: endings[e] for e in ("STOP", "UNSATISFIED", "open")}
    flagged = Counter(f["category"] for f in report["flagged"])
    for name, category in CATEGORY_OF.items():
        assert flagged[category] == totals[name], name
    for c in conversations:
        assert (c["ending"] == "open") == (c["ending_turn"] is None)
        assert c["ending_turn"] is None or 1 <= c["ending_turn"] <= c["turns"]
    assert all(len(f["agent"]) <= 160 and f["reply"] for f in report["flagged"])
    assert report["condition"] == condition and report["task_set"] == TASK_SET


@needs_data
def test_replay_is_deterministic_and_all_replays_every_conversation(
    reports: dict[str, dict[str, Any]], recordings: list[dict[str, Any]]
) -> None:
    assert replayed("--condition", CONDITIONS[1]) == reports[CONDITIONS[1]]
    first = taue("simulator", "replay", str(TRAJECTORIES), "--task-set", TASK_SET, "--seed", "7", "--json")
    again = taue("simulator", "replay", str(TRAJECTORIES), "--task-set", TASK_SET, "--seed", "7", "--json")
    assert first.exit_code == 0 and first.stdout == again.stdout
    assert replayed("--all")["totals"]["conversations"] == len(recordings) == 100


@needs_data
def test_replay_text_output_has_a_row_per_conversation_and_totals(imported: dict[str, Any]) -> None:
    result = taue("simulator", "replay", str(TRAJECTORIES), "--task-set", TASK_SET, "--show", "3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    (total,) = [line for line in lines if line.startswith("total: ")]
    assert total.startswith("total: 49 conversations") and "% of turns" in total and "endings: STOP" in total
    assert sum(1 for line in lines if "gpt4o-airline-test-00" in line) == 49
    assert sum(1 for line in lines if line.startswith("- ")) <= 3


@needs_data
def test_real_agents_are_read_at_the_targets(reports: dict[str, dict[str, Any]]) -> None:
    """The targets, neutral and under both emotional conditions: at most 2 % of the agent turns
    unplaced, no proposal the recorded customer accepted declined, no wrong approval, no missed report,
    and no honest report taken for a false claim."""
    missed = {
        condition: {name: totals[name] for name in ("turns", *CATEGORY_OF)}
        for condition, totals in ((c, reports[c]["totals"]) for c in CONDITIONS)
        if not (
            totals["unplaced"] <= 0.02 * totals["turns"]
            and totals["accepted_declined"] == totals["wrong_approvals"] == totals["missed_reports"] == 0
            and totals["false_claims"] == 0
        )
    }
    assert not missed, missed


def test_agent_texts_are_what_the_customer_saw_with_the_calls_around_them() -> None:
    """A message with tool calls is an action (its text unseen); results pair with their calls by
    order (recorded call ids repeat); an "Error" result is a failed call."""

    def call(name: str, **arguments: Any) -> dict[str, Any]:
        return {"id": "same", "function": {"name": name, "arguments": json.dumps(arguments)}}

    messages = [
        {"role": "system", "content": "policy"},
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "Which reservation?"},
        {"role": "user", "content": "ABC123"},
        {"role": "assistant", "content": "Checking.", "tool_calls": [call("get_reservation_details")]},
        {"role": "tool", "tool_call_id": "same", "content": "{}"},
        {"role": "assistant", "content": "Cancel ABC123?"},
        {"role": "user", "content": "yes"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [call("cancel_reservation", reservation_id="X")],
        },
        {"role": "tool", "tool_call_id": "same", "content": "Error: reservation not found"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [call("cancel_reservation", reservation_id="ABC123")],
        },
        {"role": "tool", "tool_call_id": "same", "content": "{}"},
        {"role": "assistant", "content": "Done: ABC123 is cancelled."},
    ]
    texts = agent_texts(messages, {"cancel_reservation"})
    assert [t.text for t in texts] == ["Which reservation?", "Cancel ABC123?", "Done: ABC123 is cancelled."]
    assert [(c.tool, c.ok, c.writes) for c in texts[1].calls] == [("get_reservation_details", True, False)]
    assert [(c.arguments, c.ok) for c in texts[1].writes_after] == [
        ({"reservation_id": "X"}, False),
        ({"reservation_id": "ABC123"}, True),
    ]
    assert texts[2].calls == texts[1].after and texts[2].after == [] and texts[0].after == texts[1].calls


def test_a_replay_under_a_condition_speaks_that_conditions_fitting_text_as_a_run_does() -> None:
    from taue.runner.catalog import local_catalog
    from taue.runner.runner import with_condition
    from taue.simulator.replay import played

    task = local_catalog("airline").task_index["airline-001"]
    condition = "anxiety.warm.high.cautious"
    replayed = played(task, {}, condition)
    assert replayed.emotion is not None and task.emotion is not None
    assert replayed.emotion == with_condition(task, condition).emotion
    assert replayed.emotion.emotion == "anxiety" and replayed.emotion.instruction != task.emotion.instruction
