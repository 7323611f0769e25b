"""The summary table `taue run` and `taue summary` print names its k: `Avg@3`, `pass^1`, `pass^3` and
"k = 3 trials per task"; a partial run whose groups differ in k shows each group's k."""

from __future__ import annotations

import pytest

from taue.cli.tables import print_summary
from taue.contracts.run import EpisodeOutcome
from taue.scorer.metrics import summarize


def outcome(task: str, trial: int, reward: int, domain: str = "airline") -> EpisodeOutcome:
    return EpisodeOutcome(
        task_id=task,
        domain=domain,
        trial=trial,
        condition="anger.x.cold.high.skeptical",
        family="anger",
        politeness="cold",
        urgency="high",
        trust="skeptical",
        reward=reward,
        termination="user_stop",
    )


def header_and_rows(output: str) -> tuple[list[str], dict[str, list[str]]]:
    lines = [line for line in output.splitlines() if "│" in line or "┃" in line]
    cells = [[cell.strip() for cell in line.strip("│┃ ").replace("┃", "│").split("│")] for line in lines]
    return cells[0], {row[0]: row[1:] for row in cells[1:]}


def test_the_columns_name_k(capsys: pytest.CaptureFixture[str]) -> None:
    rewards = {"a1": [1, 1, 1], "a2": [1, -1, 1]}
    print_summary(summarize(outcome(t, i, r) for t, rs in rewards.items() for i, r in enumerate(rs)))
    output = capsys.readouterr().out
    header, rows = header_and_rows(output)
    assert "k = 3 trials per task" in output
    assert header == ["group", "episodes", "avg reward", "Avg@3", "pass^1", "pass^3", "UNSATISFIED"]
    # pass^1: 5 of 6 episodes' tasks succeed on average; pass^3: only a1 succeeds all three times
    assert rows["emotional"][3:5] == ["0.833", "0.500"]


def test_groups_with_different_k_get_a_k_column(capsys: pytest.CaptureFixture[str]) -> None:
    outcomes = [outcome("a1", i, 1) for i in range(3)] + [outcome("r1", i, 1, "retail") for i in range(2)]
    print_summary(summarize(outcomes))
    output = capsys.readouterr().out
    header, rows = header_and_rows(output)
    assert header[3:7] == ["Avg@k", "pass^1", "pass^k", "k"] and "each group's fewest trials" in output
    assert (rows["domain: airline"][5], rows["domain: retail"][5], rows["emotional"][5]) == ("3", "2", "2")


def test_one_trial_shows_pass_1_once(capsys: pytest.CaptureFixture[str]) -> None:
    print_summary(summarize([outcome("a1", 0, 1)]))
    header, _ = header_and_rows(capsys.readouterr().out)
    assert header.count("pass^1") == 1 and "Avg@1" in header
