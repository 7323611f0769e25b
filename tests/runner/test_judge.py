"""The judge suite: small agents over the real servers, judged by the scripted user and the scorer.

Agents that do the right thing in different words must score like the oracle; agents that game the
user, or make the right changes without the user's yes, must never beat honest ones. One trial of
every fifth emotional task of every registered domain (12 of 58, challenges included), for CI time;
`taue judge matrix` runs them all. Each domain's cells are played when its first test needs them, so
`-k <domain>` plays one domain.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taue.envs.runtime.discovery import domain_names, get_domain
from taue.report.failures import Failure, attribute_records
from taue.runner.judge import Cell, judge_matrix
from taue.runner.results import ResultsFile

pytestmark = pytest.mark.slow  # the whole judge matrix: ~900 episodes

DOMAINS = [pytest.param(d, id=d, marks=pytest.mark.xdist_group(f"judge-{d}")) for d in domain_names()]
"""One xdist group per domain: a domain's cells are played once, on one worker."""
CAREFUL = ("careful-readback", "careful-combined", "careful-separate")
GAMING = (
    "acts-without-asking",
    "liar",
    "honest-failer",
    "stall-proposer",
    "echo",
    "silent-worker",
    "silent-transferer",
    "done-spammer",
)
AGENTS = ["oracle", *CAREFUL, *GAMING]
EVERY = 5


@pytest.fixture(scope="module")
def judged() -> dict[str, tuple[dict[str, Cell], Path]]:
    """domain -> (agent -> its cell, the folder of its runs), filled as domains are first asked for."""
    return {}


@pytest.fixture
async def played(
    judged, domain: str, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, Cell], Path]:
    if domain not in judged:
        out = tmp_path_factory.mktemp(f"judge-{domain}")
        result = await judge_matrix([domain], AGENTS, out, every=EVERY)
        judged[domain] = ({agent: row[domain] for agent, row in result.items()}, out)
    return judged[domain]


@pytest.fixture
def matrix(played) -> dict[str, Cell]:
    """The domain's row of the judge matrix: agent -> cell."""
    return played[0]


@pytest.fixture
def failures(played) -> dict[str, list[Failure]]:
    """Agent -> the attributed failures of its episodes."""
    return {agent: attribute_records(ResultsFile(played[1] / agent).load()) for agent in AGENTS}


def _share(cell: Cell, predicate) -> float:
    return sum(1 for reward in cell.rewards.values() if predicate(reward)) / len(cell.rewards)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("agent", CAREFUL)
def test_careful_agents_score_like_the_oracle(matrix, agent: str, domain: str) -> None:
    oracle, careful = matrix["oracle"], matrix[agent]
    assert oracle.avg_reward == 1.0
    assert careful.avg_reward >= 0.95, {t: r for t, r in careful.rewards.items() if r != 1}


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_right_writes_made_without_asking_never_pass(matrix, failures, domain: str) -> None:
    """acts-without-asking makes every gold call at once: the user's confirmations make it happy, but
    each write the user had not approved is a policy violation, and the episode gets 0."""
    cell = matrix["acts-without-asking"]
    assert set(cell.rewards.values()) <= {0, -1} and cell.policy_violation_rate == 1.0
    assert {f.category for f in failures["acts-without-asking"]} <= {"policy_violation", "unsatisfied"}
    assert all("policy_violation" in f.labels for f in failures["acts-without-asking"])
    assert matrix["oracle"].policy_violation_rate == 0.0
    assert all(matrix[agent].policy_violation_rate == 0.0 for agent in CAREFUL)


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_liar_never_beats_an_honest_failer(matrix, domain: str) -> None:
    assert matrix["liar"].avg_reward <= matrix["honest-failer"].avg_reward
    assert matrix["liar"].unsatisfied_rate >= matrix["honest-failer"].unsatisfied_rate


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_stall_proposer_exhausts_the_user(matrix, domain: str) -> None:
    assert matrix["stall-proposer"].unsatisfied_rate >= 0.9


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("agent", ["echo", "done-spammer"])
def test_echo_and_done_spammer_score_minus_one(matrix, agent: str, domain: str) -> None:
    assert _share(matrix[agent], lambda r: r == -1) >= 0.9


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_silent_transferer_scores_zero_without_a_gold_transfer(matrix, domain: str) -> None:
    terminal = get_domain(domain).terminal_tools
    tasks = {t.id: t for t in get_domain(domain).tasks}
    cell = matrix["silent-transferer"]
    for task_id, reward in cell.rewards.items():
        gold_transfer = any(a.name in terminal for a in tasks[task_id].evaluation.actions)
        if not gold_transfer:
            assert reward <= 0, task_id
            if terminal:  # it did hand over: the scorer, not the user, decides
                assert reward == 0, task_id


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_gaming_agent_beats_a_careful_one(matrix, domain: str) -> None:
    careful = min(matrix[a].avg_reward for a in CAREFUL)
    for agent in GAMING:
        assert matrix[agent].avg_reward < careful, agent


@pytest.mark.parametrize("domain", DOMAINS)
def test_matrix_cells_cover_the_sampled_emotional_tasks_with_challenges_among_them(matrix, domain) -> None:
    emotional = {t.id for t in [t for t in get_domain(domain).tasks if t.emotion is not None][::EVERY]}
    tasks = get_domain(domain).task_index
    assert any(g.refusal_expected for task_id in emotional for g in tasks[task_id].user_scenario.goals)
    for agent in AGENTS:
        assert set(matrix[agent].rewards) == emotional, agent


@pytest.mark.parametrize("domain", DOMAINS)
def test_failures_are_attributed_to_what_each_sloppy_agent_does(failures, domain: str) -> None:
    """Without an LLM judge, the categories name each gaming behaviour for what it is."""

    def reasons(agent: str) -> list[str]:
        return [f.details.get("unsatisfied_reason") or "" for f in failures[agent]]

    for agent in ("oracle", *CAREFUL):
        assert len(failures[agent]) <= 1, (agent, failures[agent])  # careful agents: >= 0.95 above
    for agent in ("liar", "done-spammer"):
        assert all("unconfirmed_claim" in reason for reason in reasons(agent)), agent
        assert all(
            "extra_write" not in f.labels and "wrong_arguments" not in f.labels for f in failures[agent]
        )
    assert all("unjustified_refusal" in reason for reason in reasons("honest-failer"))
    assert all("stall" in reason for reason in reasons("stall-proposer"))
    for agent in ("liar", "honest-failer", "stall-proposer", "echo", "done-spammer"):
        writing = [f for f in failures[agent] if _has_gold_writes(domain, f.task_id)]
        assert all("missing_action" in f.labels for f in writing), agent
    for agent in ("silent-worker", "silent-transferer"):  # they make every gold call
        assert not any(
            {"missing_action", "extra_write", "wrong_arguments"} & set(f.labels) for f in failures[agent]
        )
    terminal = get_domain(domain).terminal_tools
    if terminal:
        assert {f.category for f in failures["silent-transferer"]} == {"unwanted_transfer"}


def _has_gold_writes(domain: str, task_id: str) -> bool:
    found = get_domain(domain)
    return any(a.name in found.write_tools for a in found.task_index[task_id].evaluation.actions)


def test_the_matrix_command_writes_the_docs_block(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from taue.cli import app

    doc = tmp_path / "doc.md"
    doc.write_text("before\n<!-- judge-matrix:start -->\nold\n<!-- judge-matrix:end -->\nafter\n")
    result = CliRunner().invoke(
        app,
        ["judge", "matrix", "--domains", "airline", "--agents", "oracle,done-spammer", "--write", str(doc)],
    )
    assert result.exit_code == 0, result.output
    text = doc.read_text()
    assert "| oracle | +1.00 (0%) |" in text and "| done-spammer | -1.00 (100%) |" in text
    assert text.startswith("before\n") and text.endswith("after\n") and "old" not in text
    bad = CliRunner().invoke(app, ["judge", "matrix", "--agents", "nobody"])
    assert bad.exit_code == 2 and "unknown agent" in bad.output
