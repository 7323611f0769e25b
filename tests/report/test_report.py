"""`taue report` and `taue leaderboard` without a browser: the files, their data, bad input, the
task-set check, database diffs and confidence intervals (test_report_browser.py opens the pages)."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from taue.envs.runtime.discovery import get_domain
from taue.report.db_diff import DiffCache, db_diff
from taue.report.failures import find_task
from taue.report.html.episodes import viewer_episodes
from taue.report.run_data import load_run
from taue.runner.results import ResultsFile
from tests.report.conftest import taue

pytestmark = pytest.mark.xdist_group("report")


class _ExternalRefs(HTMLParser):
    """src and href attributes that point off the page's folder."""

    def __init__(self) -> None:
        super().__init__()
        self.external: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value and re.match(r"^(https?:)?//", value):
                self.external.append(f"<{tag} {name}={value}>")


def test_every_run_records_its_task_set_hash(report_runs) -> None:
    hashes = {json.loads((d / "run.json").read_text())["task_set_hash"] for d in report_runs.values()}
    assert len(hashes) == 1 and re.fullmatch(r"[0-9a-f]{64}", hashes.pop())


def test_the_report_is_one_file_that_needs_no_network(report_runs, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = taue("report", *map(str, report_runs.values()), "--out", str(out))
    assert result.exit_code == 0, result.output
    html = out.read_text()
    parser = _ExternalRefs()
    parser.feed(html)
    assert parser.external == []
    assert "Plotly" in html and "<script src=" not in html  # plotly.js is inlined
    assert 'id="heatmap-emotion-0"' in html and 'id="heatmap-emotion-1"' in html  # the runs side by side
    assert "wrote" in result.output and "32 episodes" in result.output


LOCAL_RUNS = ("--allow-partial", "--allow-self-signed")
"""The fixtures' runs: a few tasks each (--limit), signed with their own keys."""


def test_the_leaderboard_ranks_the_runs_with_a_page_each(report_runs, tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = taue(
        "leaderboard",
        str(report_runs["liar"]),
        str(report_runs["careful-readback"]),
        "--out",
        str(site),
        *LOCAL_RUNS,
    )
    assert result.exit_code == 0, result.output
    board = json.loads((site / "leaderboard.json").read_text())
    assert [e["run"] for e in board] == ["careful-readback", "liar"] and [e["rank"] for e in board] == [1, 2]
    careful, liar = board
    assert careful["avg_at_k"] == 1.0 and careful["pass_hat_k"] == {"1": 1.0, "2": 1.0}
    assert liar["avg_at_k"] == 0.0 and liar["unsatisfied_rate"] == 1.0
    assert careful["agent_kind"] == "built-in" and careful["user"] == "scripted" and careful["trials"] == 2
    assert careful["task_set_hash"] == liar["task_set_hash"] is not None
    assert careful["cost_per_task"] is None  # no price table
    for entry in board:
        page = (site / entry["page"]).read_text()
        assert '<script src="../plotly.min.js">' in page and entry["run"] in page
    assert (site / "plotly.min.js").stat().st_size > 1_000_000
    index = (site / "index.html").read_text()
    assert index.index("careful-readback") < index.index(">liar<")


def test_the_leaderboard_refuses_runs_of_different_task_sets(report_runs, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(report_runs["liar"], other)
    config = json.loads((other / "run.json").read_text())
    config["task_set_hash"] = "f" * 64
    (other / "run.json").write_text(json.dumps(config))
    result = taue(
        "leaderboard", str(report_runs["careful-readback"]), str(other), "--out", str(tmp_path / "s")
    )
    assert result.exit_code == 2
    assert "different task sets" in result.output and "ffffffffffff" in result.output
    assert (
        config["task_set_hash"] != json.loads((report_runs["liar"] / "run.json").read_text())["task_set_hash"]
    )
    assert not (tmp_path / "s").exists()


def test_bad_input_is_one_line_and_exit_2(report_runs, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    cases = [
        (["report", str(tmp_path / "missing")], "is not a directory"),
        (["report", str(empty)], "holds no results.jsonl"),
        (["report", str(report_runs["liar"]), "--out", str(tmp_path)], "is a directory"),
        (["leaderboard", str(empty)], "holds no results.jsonl"),
    ]
    for args, message in cases:
        result = taue(*args)
        assert result.exit_code == 2 and message in result.output, (args, result.output)
    assert list(empty.iterdir()) == []


def test_headline_intervals_of_known_runs(report_runs) -> None:
    careful, liar = load_run(report_runs["careful-readback"]), load_run(report_runs["liar"])
    assert careful.intervals["avg_at_k"] == {"mean": 1.0, "ci_low": 1.0, "ci_high": 1.0}
    assert set(careful.intervals["pass_hat_k"]) == {"1", "2"}
    assert liar.intervals["pass_hat_k"]["2"]["ci_high"] == 0.0
    assert liar.intervals["unsatisfied_rate"]["mean"] == 1.0
    assert liar.categories["failed"] == len(liar.records) and careful.categories["failed"] == 0


def test_database_diffs_show_what_the_liar_left_undone_and_nothing_for_careful_work(report_runs) -> None:
    async def diffs(agent: str) -> dict[str, list]:
        cache, found = DiffCache(), {}
        for record in ResultsFile(report_runs[agent]).load():
            task, domain = find_task(record.domain, record.task_id), get_domain(record.domain)
            writes = domain.write_tools - domain.terminal_tools
            if any(action.name in writes for action in task.evaluation.actions):
                found[record.task_id] = await db_diff(record, task, cache)
        return found

    careful, liar = asyncio.run(diffs("careful-readback")), asyncio.run(diffs("liar"))
    assert careful and all(rows == [] for rows in careful.values())
    assert liar and all(
        rows for task_id, rows in liar.items() if task_id in careful and careful[task_id] == []
    )
    rows = [row for found in liar.values() for row in found]
    assert all(row.fields and row.expected != row.actual for row in rows)


def test_records_without_events_are_shown_in_order_without_clock(report_runs, tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(report_runs["careful-readback"], old)
    lines = (old / "results.jsonl").read_text().splitlines()
    stripped = [json.dumps({k: v for k, v in json.loads(line).items() if k != "events"}) for line in lines]
    (old / "results.jsonl").write_text("\n".join(stripped) + "\n")
    (episode, *_) = asyncio.run(viewer_episodes([load_run(old)]))
    (current, *_) = asyncio.run(viewer_episodes([load_run(report_runs["careful-readback"])]))
    assert [e["kind"] for e in episode["events"]] == [e["kind"] for e in current["events"]]
    assert all(e["at"] is None for e in episode["events"]) and all(e["at"] for e in current["events"])
