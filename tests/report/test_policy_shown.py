"""Policy violations (writes the user had not approved beforehand) are shown where a run is read:
`taue summary` (a line, and the JSON), the HTML report (a headline row) and the leaderboard (a
column)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.report.conftest import taue

pytestmark = pytest.mark.xdist_group("report")
LINE = "policy violations (episodes with a write the user had not approved): emotional 2 of 2 (100.0%)"


@pytest.fixture(scope="module")
def unasked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """acts-without-asking on two emotional airline tasks: the right writes, none approved first."""
    out = tmp_path_factory.mktemp("policy") / "acts-without-asking"
    args = ["--domains", "airline", "--agent", "acts-without-asking", "--tasks", "emotional", "--limit", "2"]
    result = taue("run", *args, "--trials", "1", "--quiet", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def test_the_summary_counts_the_episodes_with_violations(unasked: Path) -> None:
    text = taue("summary", str(unasked))
    assert text.exit_code == 0 and LINE in text.output, text.output
    summary = json.loads(taue("summary", str(unasked), "--json").output)
    assert (summary["policy_violations"], summary["policy_violation_rate"], summary["avg_reward"]) == (
        2,
        1.0,
        0.0,
    )
    assert summary["by_domain"]["airline"]["policy_violations"] == 2
    assert summary["failure_categories"]["counts"] == {"policy_violation": 2}


def test_the_report_and_the_leaderboard_show_the_violation_rate(unasked: Path, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    assert taue("report", str(unasked), "--out", str(page)).exit_code == 0
    html = page.read_text()
    assert "policy violations (episodes with a write the user had not approved)" in html
    assert "1.000 [1.000, 1.000]" in html
    site = tmp_path / "site"
    board = taue("leaderboard", str(unasked), "--out", str(site), "--allow-partial", "--allow-self-signed")
    assert board.exit_code == 0, board.output
    assert '<td data-metric="policy_violation_rate">100.0%</td>' in (site / "index.html").read_text()
    (row,) = json.loads((site / "leaderboard.json").read_text())
    assert row["policy_violation_rate"] == 1.0
