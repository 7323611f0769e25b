"""`taue gate`: real runs (oracle vs pester under an impatient user) and the statistics on known data."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio
from typer.testing import CliRunner

from taue.cli import app
from taue.contracts.episode import RewardBreakdown
from taue.contracts.run import EpisodeRecord, RunConfig
from taue.runner.gate import GateError, Metric, bootstrap_interval, gate, rerun_variance
from taue.runner.results import CONFIG, ResultsFile
from taue.runner.runner import execute_run
from tests.conftest import ADMIN_TOKEN

pytestmark = pytest.mark.xdist_group("gate")  # module-scoped fixtures: built once, on one worker

TAUE = [sys.executable, "-m", "taue"]
IMPATIENT = "frustration.neutral.high.cautious"
TASKS = [f"airline-{i:03d}" for i in range(1, 13)]


@dataclass
class Outcome:
    returncode: int
    stdout: str
    stderr: str


def taue_gate(*args: str | Path) -> Outcome:
    """`taue gate ARGS` run in this process (the CLI's imports cost seconds per subprocess)."""
    result = CliRunner().invoke(app, ["gate", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return Outcome(result.exit_code, result.stdout, result.stderr)


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def runs(servers, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Oracle and pester on 12 airline tasks x 2 trials, all played under an impatient condition."""
    root = tmp_path_factory.mktemp("gate")
    urls = {name: server.control_url for name, server in servers.items()}
    out = {}
    for agent in ("oracle", "pester"):
        config = RunConfig(
            run=agent,
            domains=["airline"],
            agent=agent,
            trials=2,
            task_ids=TASKS,
            tasks="emotional",
            condition=IMPATIENT,
        )
        report = await execute_run(config, root / agent, urls, concurrency=16, admin_token=ADMIN_TOKEN)
        assert report.failed == 0
        out[agent] = root / agent
    return out


@pytest.mark.parametrize("metric", ["avg_at_k", "pass_hat_k", "avg_reward"])
def test_a_run_against_itself_passes(runs: dict[str, Path], metric: str) -> None:
    result = taue_gate(runs["pester"], "--baseline", runs["pester"], "--metric", metric, "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["paired_tasks"] == 12 and verdict["drop"] == 0.0
    assert (verdict["ci"]["low"], verdict["ci"]["high"]) == (0.0, 0.0)
    assert verdict["noise_band"] == 0.0 and verdict["failed"] is False
    assert verdict["k"] == (2 if metric == "pass_hat_k" else None)


@pytest.mark.parametrize(("metric", "drop"), [("avg_at_k", 1.0), ("pass_hat_k", 1.0), ("avg_reward", 2.0)])
def test_a_clearly_better_baseline_fails_the_gate(runs: dict[str, Path], metric: str, drop: float) -> None:
    result = taue_gate(runs["pester"], "--baseline", runs["oracle"], "--metric", metric)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"drop {drop:+.4f}" in result.stdout and "FAIL" in result.stdout
    assert "95% bootstrap CI of the drop" in result.stdout and "noise band" in result.stdout
    assert "regressed: airline-001" in result.stdout and "more regressed tasks" in result.stdout


def test_the_installed_command_exits_1_on_a_drop(runs: dict[str, Path]) -> None:
    command = [*TAUE, "gate", str(runs["pester"]), "--baseline", str(runs["oracle"])]
    worse = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert worse.returncode == 1 and "FAIL" in worse.stdout, worse.stdout + worse.stderr


def test_a_worse_baseline_passes(runs: dict[str, Path]) -> None:
    result = taue_gate(runs["oracle"], "--baseline", runs["pester"], "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["drop"] == -1.0 and verdict["regressed_tasks"] == 0
    assert "settings differ: agent: run 'oracle', baseline 'pester'" in verdict["warnings"]


def write_run(path: Path, rewards: dict[str, list[int]], **settings: object) -> Path:
    """A run directory with the given per-task trial rewards (records carry nothing else)."""
    path.mkdir(parents=True)
    config = RunConfig(**{"run": path.name, "domains": ["airline"], "agent": "x", "trials": 2, **settings})
    (path / CONFIG).write_text(config.model_dump_json())
    results = ResultsFile(path)
    for task_id, trials in rewards.items():
        for trial, reward in enumerate(trials):
            termination = {1: "user_stop", 0: "max_turns", -1: "user_unsatisfied"}[reward]
            results.append(
                EpisodeRecord(
                    run=path.name,
                    task_id=task_id,
                    domain="airline",
                    trial=trial,
                    seed=0,
                    condition=None,
                    family=None,
                    emotion=None,
                    agent="x",
                    user="scripted",
                    transcript=[],
                    tool_log=[],
                    termination=termination,
                    reward=reward,
                    breakdown=RewardBreakdown(reward=reward, termination=termination),
                )
            )
    return path


def test_rerun_variance_of_a_task() -> None:
    assert rerun_variance([1, 0], Metric.avg_at_k, None) == 0.25  # sample variance 0.5 over 2 trials
    assert rerun_variance([1, 1, 1], Metric.avg_at_k, None) == 0.0
    assert rerun_variance([1], Metric.avg_reward, None) == 0.0
    assert rerun_variance([1, -1], Metric.avg_reward, None) == 1.0  # sample variance 2 over 2 trials
    # pass^2 of [1, 0]: resampled successes 0/1/2 w.p. 1/4, 1/2, 1/4 -> score 0/0/1; times n/(n-1).
    assert rerun_variance([1, 0], Metric.pass_hat_k, 2) == pytest.approx(0.375)
    for trials in ([1, 1, 0], [1, 0, 0, 0], [1, -1, 0, 1]):  # pass^1 is Avg@k: the same noise
        assert rerun_variance(trials, Metric.pass_hat_k, 1) == pytest.approx(
            rerun_variance(trials, Metric.avg_at_k, None)
        )


def test_bootstrap_interval_is_seeded_and_brackets_the_mean() -> None:
    drops = [0.0] * 30 + [1.0] * 10
    first = bootstrap_interval(drops, 2000, 0.95, seed=7)
    assert first == bootstrap_interval(drops, 2000, 0.95, seed=7)
    assert first.low < 0.25 < first.high and first.low > 0.05 and first.high < 0.45
    wider = bootstrap_interval(drops, 2000, 0.99, seed=7)
    assert wider.low <= first.low and wider.high >= first.high


def test_the_same_drop_fails_when_trials_agree_and_passes_within_their_noise(tmp_path: Path) -> None:
    tasks = [f"t{i:02d}" for i in range(40)]
    steady = write_run(tmp_path / "steady", {t: [1, 1] for t in tasks})
    # Four tasks fail every trial: a drop of 0.1 that no rerun would undo.
    broken = write_run(tmp_path / "broken", {t: [0, 0] if i < 4 else [1, 1] for i, t in enumerate(tasks)})
    # Eight tasks succeed in one trial of two: the same mean drop of 0.1, but the trials disagree.
    flaky = write_run(tmp_path / "flaky", {t: [1, 0] if i < 8 else [1, 1] for i, t in enumerate(tasks)})
    hard = gate(broken, steady, max_drop=0.05)
    assert hard.drop == pytest.approx(0.1) and hard.noise_band == 0.0 and hard.failed
    noisy = gate(flaky, steady, max_drop=0.05)
    # noise band = 1.96 * sqrt(8 tasks * (0.25 + 0)) / 40
    assert noisy.drop == pytest.approx(0.1) and noisy.noise_band == pytest.approx(0.0693, abs=1e-4)
    assert noisy.threshold == pytest.approx(0.05 + noisy.noise_band) and not noisy.failed
    assert gate(flaky, steady, max_drop=0.02).failed  # 0.1 > 0.02 + 0.069
    assert noisy.ci.low <= noisy.drop <= noisy.ci.high


def test_pass_hat_k_defaults_to_the_fewest_trials_and_refuses_larger_k(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", {"a": [1, 1, 0], "b": [1, 1]}, trials=3)
    base = write_run(tmp_path / "base", {"a": [1, 1, 1], "b": [1, 1, 1]}, trials=3)
    result = gate(run, base, Metric.pass_hat_k)
    assert result.k == 2 and result.drop == pytest.approx((1 - 1 / 3) / 2)
    assert any("incomplete" in warning for warning in result.warnings)
    with pytest.raises(GateError, match="at least 3 trials"):
        gate(run, base, Metric.pass_hat_k, k=3)


def test_tasks_in_one_run_only_are_left_out_and_reported(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", {"a": [1, 1], "b": [0, 0]})
    base = write_run(tmp_path / "base", {"a": [1, 1], "c": [1, 1]})
    result = gate(run, base)
    assert result.paired_tasks == 1 and result.drop == 0.0
    assert (result.only_in_run, result.only_in_baseline) == (["b"], ["c"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{missing}", "--baseline", "{base}"], "is not a directory"),
        (["{empty_dir}", "--baseline", "{base}"], "has no results.jsonl"),
        (["{no_episodes}", "--baseline", "{base}"], "holds no episodes"),
        (["{other_tasks}", "--baseline", "{base}"], "no task in common"),
        (["{other_user}", "--baseline", "{base}"], "measured differently (condition"),
        (["{base}", "--baseline", "{base}", "--k", "1"], "--k applies to pass_hat_k only"),
        (["{base}", "--baseline", "{base}", "--metric", "pass_hat_k", "--k", "3"], "at least 3 trials"),
        (["{base}", "--baseline", "{base}", "--confidence", "1.5"], "--confidence must be between 0 and 1"),
        (["{base}", "--baseline", "{base}", "--metric", "median"], "--metric must be one of"),
        (["{base}"], "Missing option '--baseline'"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(tmp_path: Path, args: list[str], message: str) -> None:
    paths = {
        "base": write_run(tmp_path / "base", {"a": [1, 1]}),
        "missing": tmp_path / "missing",
        "empty_dir": tmp_path / "empty_dir",
        "no_episodes": tmp_path / "no_episodes",
        "other_tasks": write_run(tmp_path / "other_tasks", {"z": [1, 1]}),
        "other_user": write_run(tmp_path / "other_user", {"a": [1, 1]}, condition=IMPATIENT),
    }
    paths["empty_dir"].mkdir()
    paths["no_episodes"].mkdir()
    (paths["no_episodes"] / "results.jsonl").write_text("")
    result = taue_gate(*(arg.format(**paths) for arg in args))
    assert result.returncode == 2, result.stdout + result.stderr
    assert message in " ".join(result.stderr.split()), result.stderr
    assert "Traceback" not in result.stderr


def test_allow_mismatch_compares_differently_measured_runs_with_a_warning(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", {"a": [1, 1]}, condition=IMPATIENT)
    base = write_run(tmp_path / "base", {"a": [1, 1]})
    result = gate(run, base, allow_mismatch=True)
    assert not result.failed and any(w.startswith("settings differ: condition") for w in result.warnings)


def test_runs_on_other_task_sets_are_refused_naming_both_hashes(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", {"a": [1, 1]}, task_set_hash="a" * 64)
    base = write_run(tmp_path / "base", {"a": [1, 1]}, task_set_hash="b" * 64)
    old = write_run(tmp_path / "old", {"a": [1, 1]})  # made before the hash was kept
    with pytest.raises(GateError, match=r"task_set_hash: run 'a{64}', baseline 'b{64}'"):
        gate(run, base)
    result = gate(run, old)
    assert not result.failed and any(w.startswith("settings differ: task_set_hash") for w in result.warnings)
