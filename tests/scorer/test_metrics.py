"""Run metrics against hand-computed figures."""

from __future__ import annotations

import pytest

from taue.contracts.run import EpisodeOutcome, GroupMetrics, RunMetrics
from taue.scorer import metrics
from taue.scorer.metrics import bootstrap_ci, pass_hat_k

EMOTION = ("warm", "high", "cautious")


def summarize(outcomes: list[EpisodeOutcome]) -> dict:
    """The summary as its JSON object (what `taue summary --json` prints of it)."""
    return metrics.summarize(outcomes).model_dump(mode="json")


def approx(value: float):
    return pytest.approx(value, abs=1e-6)  # figures are rounded to 6 decimals


def outcome(
    task: str,
    trial: int,
    reward: int,
    domain: str = "airline",
    family: str | None = "anger",
    termination: str = "user_stop",
    emotion: tuple[str, str, str] | None = EMOTION,
) -> EpisodeOutcome:
    """An emotional outcome, or a neutral twin's when `family` is None."""
    politeness, urgency, trust = emotion if family is not None and emotion else (None, None, None)
    return EpisodeOutcome(
        task_id=task,
        domain=domain,
        trial=trial,
        condition=f"{family}.x.{politeness}.{urgency}.{trust}" if family is not None else None,
        family=family,
        politeness=politeness,
        urgency=urgency,
        trust=trust,
        reward=reward,
        termination=termination,
    )


def trials(task: str, rewards: list[int], **kwargs) -> list[EpisodeOutcome]:
    return [outcome(task, trial, reward, **kwargs) for trial, reward in enumerate(rewards)]


def test_pass_hat_k_estimator() -> None:
    assert pass_hat_k(3, 3, 3) == 1.0
    assert pass_hat_k(2, 4, 2) == approx(1 / 6)  # C(2,2)/C(4,2)
    assert pass_hat_k(1, 3, 2) == 0.0
    assert pass_hat_k(2, 3, 1) == approx(2 / 3)


def test_summary_hand_computed_example() -> None:
    # Task A: 3/3 successes. Task B: 1/3 (one UNSATISFIED). Task C: 2/3, a retail neutral twin.
    outcomes = [
        outcome("A", 0, 1),
        outcome("A", 1, 1),
        outcome("A", 2, 1),
        outcome("B", 0, 1, family="fear"),
        outcome("B", 1, 0, family="fear", termination="max_turns"),
        outcome("B", 2, -1, family="fear", termination="user_unsatisfied"),
        outcome("C", 0, 1, "retail", None),
        outcome("C", 1, 0, "retail", None),
        outcome("C", 2, 1, "retail", None),
    ]
    m = summarize(outcomes)
    # The headline is over the emotional tasks A and B only.
    assert m["headline"] == "emotional"
    assert m["episodes"] == 6 and m["tasks"] == 2 and m["trials"] == 3
    assert m["avg_at_k"] == approx((1 + 1 / 3) / 2)
    # pass^2 = mean(C(3,2)/C(3,2), C(1,2)/C(3,2)) = (1 + 0) / 2
    assert m["pass_hat_k"] == {"1": approx(2 / 3), "2": 0.5, "3": 0.5}
    assert m["at_least_k_of_n"] == {"1": 1.0, "2": 0.5, "3": 0.5}
    assert m["avg_reward"] == approx((3 + 1 + 0 - 1) / 6)
    assert m["unsatisfied_rate"] == approx(1 / 6)
    assert m["terminations"] == {"max_turns": 1, "user_stop": 4, "user_unsatisfied": 1}
    # The neutral twin C has its own block; it is nobody's twin here (no pair).
    neutral = m["neutral"]
    assert neutral["episodes"] == 3 and neutral["tasks"] == 1
    assert neutral["avg_at_k"] == approx(2 / 3) and neutral["pass_hat_k"]["3"] == 0.0
    assert neutral["avg_reward"] == approx(2 / 3) and neutral["terminations"] == {"user_stop": 3}
    assert m["emotion_delta"] is None
    # Breakdowns are of the headline's episodes.
    assert set(m["by_domain"]) == {"airline"}
    assert set(m["by_family"]) == {"anger", "fear"}
    assert m["by_family"]["anger"]["pass_hat_k"]["3"] == 1.0
    assert m["by_family"]["fear"]["avg_at_k"] == approx(1 / 3)


def test_emotion_delta_pairs_each_task_with_its_neutral_twin() -> None:
    outcomes = [
        *trials("t1", [1, 1, 0]),  # pass^1 2/3 against its twin's 1: -1/3
        *trials("t1-neutral", [1, 1, 1], family=None),
        *trials("t2", [1, 0, 0]),  # 1/3 against 0: +1/3
        *trials("t2-neutral", [0, 0, 0], family=None),
        *trials("t3", [1, 1, 1]),  # 1 against 1: 0
        *trials("t3-neutral", [1, 1, 1], family=None),
        *trials("t4", [0, 0, 0]),  # no twin in the run: not a pair
        *trials("t5-neutral", [1, 1, 1], family=None),  # no emotional task: not a pair
    ]
    delta = summarize(outcomes)["emotion_delta"]
    assert delta["pairs"] == 3 and delta["delta"] == approx(0.0)
    # Means of 3 pairs drawn from {-1/3, 0, 1/3}: all three -1/3 has probability 1/27 (3.7 %),
    # above the 2.5 % tail, so the 95 % percentile interval is the full range.
    assert delta["ci_low"] == approx(-1 / 3) and delta["ci_high"] == approx(1 / 3)
    assert summarize(outcomes) == summarize(list(reversed(outcomes)))  # seeded: same figures

    same = [*trials("a", [1, 0]), *trials("a-neutral", [1, 1], family=None)]
    same += [*trials("b", [0, 0]), *trials("b-neutral", [1, 0], family=None)]
    delta = summarize(same)["emotion_delta"]  # both pairs -1/2: the interval is a point
    assert delta == {"delta": -0.5, "ci_low": -0.5, "ci_high": -0.5, "pairs": 2}


def test_bootstrap_ci_is_seeded_and_brackets_the_mean() -> None:
    values = [0.0, 0.5, 1.0, -0.5, 0.25]
    low, high = bootstrap_ci(values, 2000, 0.95, seed=0)
    assert (low, high) == bootstrap_ci(values, 2000, 0.95, seed=0)
    assert min(values) <= low < sum(values) / len(values) < high <= max(values)


def test_breakdowns_by_politeness_urgency_and_trust() -> None:
    outcomes = [
        *trials("p", [1, 1], emotion=("warm", "high", "cautious")),
        *trials("q", [0, 1], emotion=("hostile", "high", "trusting")),
        *trials("r", [0, 0], emotion=("hostile", "low", "cautious")),
        *trials("p-neutral", [0, 0], family=None),
    ]
    m = summarize(outcomes)
    assert {name: g["avg_at_k"] for name, g in m["by_politeness"].items()} == {"hostile": 0.25, "warm": 1.0}
    assert {name: g["avg_at_k"] for name, g in m["by_urgency"].items()} == {"high": 0.75, "low": 0.0}
    assert {name: g["avg_at_k"] for name, g in m["by_trust"].items()} == {"cautious": 0.5, "trusting": 0.5}
    assert m["by_politeness"]["hostile"]["episodes"] == 4 and m["by_trust"]["cautious"]["tasks"] == 2
    assert m["emotion_delta"]["pairs"] == 1 and m["emotion_delta"]["delta"] == 1.0


def test_a_neutral_only_run_has_the_neutral_headline() -> None:
    m = summarize([*trials("n1-neutral", [1, 0], family=None), *trials("n2-neutral", [1, 1], family=None)])
    assert m["headline"] == "neutral"
    assert m["tasks"] == 2 and m["avg_at_k"] == 0.75 and m["neutral"]["avg_at_k"] == 0.75
    assert m["emotion_delta"] is None and m["by_family"] == {"neutral": m["by_domain"]["airline"]}
    assert m["by_politeness"] == m["by_urgency"] == m["by_trust"] == {}  # twins have no emotion axes


def test_empty_run_summarizes_to_zeros() -> None:
    m = summarize([])
    assert m["episodes"] == 0 and m["pass_hat_k"] == {} and m["avg_reward"] == 0.0
    assert m["neutral"] is None and m["emotion_delta"] is None and m["by_trust"] == {}


def test_the_summary_is_typed() -> None:
    m = metrics.summarize([*trials("t", [1, 0]), *trials("t-neutral", [1, 1], family=None)])
    assert isinstance(m, RunMetrics) and isinstance(m.neutral, GroupMetrics)
    assert m.headline == "emotional" and m.pass_hat_k == {"1": 0.5, "2": 0.0}
    assert m.emotion_delta is not None and m.emotion_delta.delta == -0.5
    assert m.breakdown("family") == m.by_family and m.by_family["anger"].episodes == 2
