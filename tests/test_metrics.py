"""Run metrics against hand-computed figures."""

from __future__ import annotations

import pytest

from scorer.metrics import EpisodeOutcome, pass_hat_k, summarize


def outcome(
    task: str,
    trial: int,
    reward: int,
    domain: str = "airline",
    family: str | None = "anger",
    termination: str = "user_stop",
) -> EpisodeOutcome:
    return EpisodeOutcome(
        task_id=task, domain=domain, trial=trial, family=family, reward=reward, termination=termination
    )


def test_pass_hat_k_estimator() -> None:
    assert pass_hat_k(3, 3, 3) == 1.0
    assert pass_hat_k(2, 4, 2) == pytest.approx(1 / 6)  # C(2,2)/C(4,2)
    assert pass_hat_k(1, 3, 2) == 0.0
    assert pass_hat_k(2, 3, 1) == pytest.approx(2 / 3)


def test_summary_hand_computed_example() -> None:
    # Task A: 3/3 successes. Task B: 1/3 (one UNSATISFIED). Task C: 2/3, a retail neutral twin.
    outcomes = [
        outcome("A", 0, 1),
        outcome("A", 1, 1),
        outcome("A", 2, 1),
        outcome("B", 0, 1),
        outcome("B", 1, 0, termination="max_turns"),
        outcome("B", 2, -1, termination="user_unsatisfied"),
        outcome("C", 0, 1, "retail", None),
        outcome("C", 1, 0, "retail", None),
        outcome("C", 2, 1, "retail", None),
    ]
    m = summarize(outcomes)
    assert m["episodes"] == 9 and m["tasks"] == 3 and m["trials"] == 3
    assert m["avg_at_k"] == pytest.approx((1 + 1 / 3 + 2 / 3) / 3)
    # pass^2 = mean(C(3,2)/C(3,2), C(1,2)/C(3,2), C(2,2)/C(3,2)) = (1 + 0 + 1/3) / 3
    assert m["pass_hat_k"]["2"] == pytest.approx((1 + 0 + 1 / 3) / 3)
    assert m["pass_hat_k"]["3"] == pytest.approx(1 / 3)
    assert m["at_least_k_of_n"] == {"1": 1.0, "2": pytest.approx(2 / 3), "3": pytest.approx(1 / 3)}
    assert m["avg_reward"] == pytest.approx((3 + 1 + 0 - 1 + 1 + 0 + 1) / 9)
    assert m["unsatisfied_rate"] == pytest.approx(1 / 9)
    assert m["terminations"] == {"max_turns": 1, "user_stop": 7, "user_unsatisfied": 1}
    assert set(m["by_domain"]) == {"airline", "retail"}
    assert m["by_domain"]["retail"]["avg_at_k"] == pytest.approx(2 / 3)
    assert set(m["by_family"]) == {"anger", "neutral"}
    assert m["by_family"]["anger"]["pass_hat_k"]["3"] == pytest.approx(0.5)


def test_empty_run_summarizes_to_zeros() -> None:
    m = summarize([])
    assert m["episodes"] == 0 and m["pass_hat_k"] == {} and m["avg_reward"] == 0.0
