"""The wording matrix on a sample: every fair judge agent in every wording scores like the oracle, and the
gaming agents stay where they are. `taue judge matrix --wordings all` plays all 580 emotional tasks
(docs/simulator.md shows it); the suite plays every 29th emotional task of each domain (two per domain)
for time."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.envs.runtime.discovery import domain_names
from taue.runner.agents.wordings import WORDINGS
from taue.runner.judge import GAMING, judge_matrix, worded_agents, wording_rows

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wording-matrix"), pytest.mark.timeout(900)]
# The module fixture plays ~800 episodes; agents now ask before each change, so it needs more than the
# suite's 300 s default on 2 busy cores.

EVERY = 29


@pytest.fixture(scope="module")
async def rows(tmp_path_factory: pytest.TempPathFactory):
    agents = ["oracle", *worded_agents(list(WORDINGS)), *GAMING]
    out = tmp_path_factory.mktemp("wording-matrix")
    domains = list(domain_names())
    matrix = await judge_matrix(domains, agents, out, every=EVERY, workers=1)
    return {row.agent: row for row in wording_rows(matrix, domains)}


def test_the_sample_covers_every_fair_agent_in_every_wording_and_every_domain(rows) -> None:
    assert len(WORDINGS) >= 8
    assert {f"{a}@{w}" for a in ("one-shot", "careful-readback") for w in WORDINGS} <= set(rows)
    assert all(row.episodes == 2 * len(domain_names()) for row in rows.values())


def test_every_wording_of_a_fair_agent_scores_like_the_oracle(rows) -> None:
    oracle = rows["oracle"].avg_reward
    assert oracle == 1.0
    for agent in worded_agents(list(WORDINGS)):
        row = rows[agent]
        assert row.avg_reward >= 0.95 and abs(row.vs_oracle) <= 0.03, row


def test_gaming_agents_never_pass_outside_refusal_only_tasks(rows) -> None:
    for agent in GAMING:
        assert rows[agent].pass_rate <= 0.05, rows[agent]
        assert rows[agent].avg_reward < min(rows[a].avg_reward for a in worded_agents(list(WORDINGS)))


def test_the_matrix_command_plays_wordings_and_writes_their_block(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("a\n<!-- wording-matrix:start -->\nold\n<!-- wording-matrix:end -->\nb\n")
    agents = "oracle,one-shot@terse,careful-separate@everyday,done-spammer"
    command = ["judge", "matrix", "--domains", "bank", "--wordings", "terse,everyday", "--every", "29"]
    result = CliRunner().invoke(app, [*command, "--agents", agents, "--write", str(doc)])
    assert result.exit_code == 0, result.output
    text = doc.read_text()
    assert "| one-shot@terse | 2 | +1.000 | +0.000 | 100% | 0% | 0% | +1.00 |" in text and "old" not in text
    bad = CliRunner().invoke(app, ["judge", "matrix", "--wordings", "shouting"])
    assert bad.exit_code == 2 and "unknown wording" in bad.output
