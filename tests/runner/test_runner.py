"""End-to-end runs on the embedded default: oracle, pester, resume, determinism, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from taue.contracts.emotions import condition
from taue.contracts.run import EpisodeRecord, RunConfig
from taue.envs.runtime.discovery import get_domain
from taue.runner.results import ResultsFile
from taue.runner.runner import execute_run
from taue.simulator.satisfaction import tolerated_needless_questions
from tests.conftest import ADMIN_TOKEN

pytestmark = [
    pytest.mark.slow,  # end-to-end runs of hundreds of episodes
    pytest.mark.xdist_group("runner"),  # its module-scoped fixtures are built once, on one worker
]

TAUE = [sys.executable, "-m", "taue"]
NEEDLESS = ("needless_question_discoverable", "needless_question_answered")


def sample_tasks() -> list[str]:
    """The runner's mechanics need no full set: the first 10 emotional tasks of airline and retail
    and their neutral twins."""
    chosen = []
    for name in ("airline", "retail"):
        emotional = [t for t in get_domain(name).tasks if t.emotion is not None][:10]
        chosen += [i for t in emotional for i in (t.id, t.twin)]
    return chosen


TASK_IDS = sample_tasks()
TASK_ARGS = [arg for task_id in TASK_IDS for arg in ("--task-id", task_id)]


def taue(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TAUE, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def comparable(path: Path) -> list[dict]:
    """Records without their wall-clock fields (timings, event clocks)."""
    return [EpisodeRecord.model_validate_json(line).without_clock() for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def oracle_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "oracle"
    result = taue(
        "run",
        "--domains",
        "airline,retail",
        "--agent",
        "oracle",
        "--user",
        "scripted",
        "--trials",
        "3",
        "--concurrency",
        "32",
        "--seed",
        "0",
        "--out",
        str(out),
        "--quiet",
        *TASK_ARGS,
        cwd=out.parent,
    )
    assert result.returncode == 0, result.stderr
    return out


def test_oracle_scores_one_on_every_episode(oracle_run: Path) -> None:
    records = ResultsFile(oracle_run).load()
    tasks = len(TASK_IDS)
    assert len(records) == 3 * tasks
    assert all(r.reward == 1 and r.termination == "user_stop" for r in records), [
        (r.task_id, r.termination, r.breakdown.db_match) for r in records if r.reward != 1
    ]
    summary = json.loads(taue("summary", str(oracle_run), "--json", cwd=oracle_run).stdout)
    emotional = sum(1 for task_id in TASK_IDS if not task_id.endswith("-neutral"))
    assert summary["headline"] == "emotional" and summary["episodes"] == 3 * emotional
    assert summary["avg_at_k"] == 1.0 and summary["pass_hat_k"] == {"1": 1.0, "2": 1.0, "3": 1.0}
    assert summary["unsatisfied_rate"] == 0.0 and summary["avg_reward"] == 1.0
    assert summary["neutral"]["episodes"] == 3 * (tasks - emotional) and summary["neutral"]["avg_at_k"] == 1.0
    assert summary["emotion_delta"] == {"delta": 0.0, "ci_low": 0.0, "ci_high": 0.0, "pairs": emotional}
    assert set(summary["by_domain"]) == {"airline", "retail"}
    assert "neutral" not in summary["by_family"] and len(summary["by_family"]) >= 3
    assert set(summary["by_politeness"]) | set(summary["by_urgency"]) | set(summary["by_trust"])


def oracle_rerun(out: Path) -> subprocess.CompletedProcess[str]:
    """The oracle run's command again, on its own results."""
    arguments = ["--domains", "airline,retail", "--agent", "oracle", "--trials", "3", "--seed", "0"]
    return taue("run", *arguments, "--out", str(out), "--quiet", *TASK_ARGS, cwd=out)


def test_rerun_adds_nothing_and_restores_deleted_records(oracle_run: Path) -> None:
    results = oracle_run / "results.jsonl"
    before = results.read_text().splitlines()
    again = oracle_rerun(oracle_run)
    assert again.returncode == 0, again.stderr
    assert "0 episodes run" in again.stderr
    assert results.read_text().splitlines() == before
    removed = before[5:12]
    results.write_text("\n".join(before[:5] + before[12:]) + "\n" + before[20][:40])  # plus a torn line
    restored = oracle_rerun(oracle_run)
    assert restored.returncode == 0, restored.stderr
    assert f"{len(removed)} episodes run" in restored.stderr
    after = [json.loads(line) for line in results.read_text().splitlines()]
    assert [(r["task_id"], r["trial"]) for r in after] == [
        (r["task_id"], r["trial"]) for r in map(json.loads, before)
    ]


def test_same_seed_same_results_apart_from_timings_with_two_workers(oracle_run: Path, tmp_path: Path) -> None:
    second = tmp_path / "oracle"
    result = taue(
        "run",
        "--domains",
        "airline,retail",
        "--agent",
        "oracle",
        "--trials",
        "3",
        "--seed",
        "0",
        "--concurrency",
        "7",
        "--workers",
        "2",
        "--out",
        str(second),
        "--quiet",
        *TASK_ARGS,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    first_records = comparable(oracle_run / "results.jsonl")
    second_records = comparable(second / "results.jsonl")
    for record in first_records + second_records:
        record["run"] = "-"
    assert first_records == second_records


def test_run_dir_with_other_settings_is_refused(oracle_run: Path) -> None:
    result = taue(
        "run",
        "--domains",
        "airline,retail",
        "--agent",
        "pester",
        "--trials",
        "3",
        "--seed",
        "0",
        "--out",
        str(oracle_run),
        "--quiet",
        *TASK_ARGS,
        cwd=oracle_run,
    )
    assert result.returncode == 2 and "different settings" in result.stderr and "agent" in result.stderr


@pytest.mark.parametrize(
    "bad",
    [
        ["--domains", "airline,mars"],
        ["--agent", "psychic"],
        ["--condition", "glee.x.y.z"],
        ["--trials", "0"],
        ["--env", "airline=ftp://x"],
    ],
)
def test_bad_run_arguments_get_clear_errors(bad: list[str], tmp_path: Path) -> None:
    result = taue("run", "--out", str(tmp_path / "r"), "--quiet", *bad, cwd=tmp_path)
    assert result.returncode == 2
    assert "error" in result.stderr.lower() or "invalid" in result.stderr.lower()
    assert not (tmp_path / "r" / "results.jsonl").exists()


PATIENT = "relief.warm.low.trusting"
IMPATIENT = [
    "frustration.neutral.high.cautious",
    "anxiety.warm.high.cautious",
    "dislike.cold.moderate.skeptical",
    "sorrow.cold.high.skeptical",
]


async def pester_run(servers, tmp_path: Path, condition_id: str) -> list:
    config = RunConfig(
        run="pester",
        domains=["airline", "retail"],
        agent="pester",
        trials=1,
        task_ids=[t.id for d in ("airline", "retail") for t in get_domain(d).tasks if t.emotion][::2],
        condition=condition_id,
    )
    urls = {name: server.control_url for name, server in servers.items()}
    report = await execute_run(config, tmp_path / condition_id, urls, concurrency=16, admin_token=ADMIN_TOKEN)
    assert report.failed == 0
    return report.records


@pytest.mark.parametrize("condition_id", [PATIENT, *IMPATIENT])
async def test_pester_split_follows_the_tolerance_table(servers, tmp_path: Path, condition_id: str) -> None:
    """Expected split: UNSATISFIED exactly when pester's needless questions exceed the condition's tolerance.

    Every other emotional airline and retail task; they give pester 2 to 9 needless questions:
    never UNSATISFIED under the patient condition (tolerance 17), always under tolerance 0 or 1, on
    the tasks that ask more than 3 or 4 under the conditions in between.
    """
    records = await pester_run(servers, tmp_path, condition_id)
    c = condition(condition_id)
    tolerated = tolerated_needless_questions(c.politeness, c.urgency, c.trust, c.emotion)
    counts = []
    for record in records:
        needless = sum(1 for event in record.user_state["events"] if event in NEEDLESS)
        counts.append(needless)
        unsatisfied = record.termination == "user_unsatisfied"
        assert unsatisfied == (needless > tolerated), (record.task_id, needless, tolerated)
        assert record.reward == (-1 if unsatisfied else 1)
    rewards = {r.reward for r in records}
    if condition_id == PATIENT:  # the whole count: a user who leaves stops the questions early
        assert rewards == {1} and min(counts) >= 2 and max(counts) <= 9
    elif tolerated <= 1:
        assert rewards == {-1}
    else:
        assert rewards == {1, -1}, (tolerated, sorted(counts))


def test_shards_keep_every_trial_of_a_task_together() -> None:
    from taue.runner.runner import shard_by_task

    keys = [("airline", f"t{t}", trial) for t in range(5) for trial in range(3)]
    shards = shard_by_task(keys, 2)
    assert sorted(k for shard in shards for k in shard) == sorted(keys)
    owners = {(d, t): i for i, shard in enumerate(shards) for d, t, _ in shard}
    assert len(owners) == 5 and {len(s) for s in shards} == {9, 6}
