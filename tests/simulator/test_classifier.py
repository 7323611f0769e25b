"""The feeling classifier: held-out accuracy thresholds, determinism, the routes, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from taue.contracts.emotions import BY_ID, EMOTIONS, FAMILY_OF
from taue.simulator.anchors import load_anchors
from taue.simulator.classifier import ClassifierUnavailable, classify, load_feelings, resolve_route
from taue.simulator.classifier.embedders import OnnxMiniLM, Tfidf, minilm_files
from taue.simulator.classifier.evaluate import evaluate
from taue.simulator.classifier.model import cached_features, train_on_anchors
from tests.paths import ROOT

pytestmark = pytest.mark.xdist_group("classifier")  # module-scoped fixtures: built once, on one worker

TAUE = [sys.executable, "-m", "taue"]
EXAMPLE = "I'm scared my refund will never come and I need it today"


def onnx_installed() -> bool:
    try:
        minilm_files()
    except ClassifierUnavailable:
        return False
    return True


needs_onnx = pytest.mark.skipif(
    not onnx_installed(), reason="the onnx route (emotion extra + tokenizer) is not installed"
)


def taue(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TAUE, *args], cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)


@pytest.fixture(scope="module")
def installed_route_scores():
    return evaluate(resolve_route("auto"))


def test_the_hand_written_set_is_large_and_covers_every_emotion() -> None:
    feelings = load_feelings()
    assert len(feelings) >= 60 and {f.emotion for f in feelings} == set(EMOTIONS)
    for f in feelings:
        assert f"{f.emotion}.{f.politeness}.{f.urgency}.{f.trust}" in BY_ID


def test_installed_route_emotion_head_is_at_least_five_times_chance_on_anchors_8_9(
    installed_route_scores,
) -> None:
    emotion = installed_route_scores.score("emotion")
    assert emotion.chance == pytest.approx(1 / 22)
    assert emotion.anchors_8_9 >= 5 / 22, installed_route_scores


def test_installed_route_is_clearly_above_chance_on_every_head_and_set(installed_route_scores) -> None:
    assert installed_route_scores.train_anchors == 4752 and installed_route_scores.test_anchors == 1188
    for score in installed_route_scores.heads:
        assert score.anchors_8_9 >= 1.5 * score.chance, score
        assert score.feelings >= 1.2 * score.chance, score
    assert installed_route_scores.score("emotion").feelings >= 5 / 22


def test_tfidf_fallback_is_clearly_above_chance() -> None:
    scores = evaluate("tfidf")
    assert scores.route == "tfidf"
    assert scores.score("emotion").anchors_8_9 >= 5 / 22 and scores.score("emotion").feelings >= 5 / 22
    for score in scores.heads:
        assert score.anchors_8_9 >= 1.5 * score.chance, score
        assert score.feelings >= 1.2 * score.chance, score


def test_training_is_deterministic() -> None:
    subset = [a for a in load_anchors() if a.condition.endswith(".neutral.moderate.cautious")]
    first = train_on_anchors("tfidf", subset, use_cache=False)
    second = train_on_anchors("tfidf", subset, use_cache=False)
    for head in first.heads:
        assert np.array_equal(first.heads[head].weights, second.heads[head].weights)
        assert np.array_equal(first.heads[head].bias, second.heads[head].bias)


def test_classification_is_consistent_with_its_probabilities() -> None:
    result = classify(EXAMPLE)
    assert result.route == resolve_route("auto")
    for head in ("emotion", "politeness", "urgency", "trust"):
        probs = result.probabilities[head]
        assert sum(probs.values()) == pytest.approx(1, abs=1e-3)
        assert getattr(result, head) == max(probs, key=probs.__getitem__)
    assert result.condition == f"{result.emotion}.{result.politeness}.{result.urgency}.{result.trust}"
    assert result.family == FAMILY_OF[result.emotion]
    assert classify(EXAMPLE) == result


@needs_onnx
def test_minilm_route_reads_the_issue_example_as_fear_and_high_urgency() -> None:
    result = classify(EXAMPLE, route="onnx")
    assert result.family == "fear" and result.urgency == "high", result


def test_tfidf_route_reads_plain_emotion_words() -> None:
    assert classify("I am so relieved, what a weight off my shoulders", route="tfidf").emotion == "relief"
    result = classify(
        "Do it right now, I have no time at all, and I don't believe a word you say", route="tfidf"
    )
    assert result.urgency == "high" and result.trust == "skeptical"


def test_cached_heads_are_reused_and_a_corrupt_cache_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUE_CACHE_DIR", str(tmp_path))
    subset = [a for a in load_anchors() if a.condition.endswith(".cold.low.trusting")]
    fresh = train_on_anchors("tfidf", subset)
    (cached,) = tmp_path.glob("heads-*.npz")
    reloaded = train_on_anchors("tfidf", subset)
    cached.write_bytes(b"not a zip file")
    rebuilt = train_on_anchors("tfidf", subset)
    for head in fresh.heads:
        assert np.array_equal(fresh.heads[head].weights, reloaded.heads[head].weights)
        assert np.array_equal(fresh.heads[head].weights, rebuilt.heads[head].weights)
    assert cached.read_bytes()[:2] == b"PK"


@needs_onnx
def test_minilm_vectors_are_normalised_and_semantic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAUE_CACHE_DIR", str(tmp_path))
    embedder = OnnxMiniLM()
    texts = ["I am furious with you", "I am really angry at you", "The weather is sunny and mild"]
    vectors = cached_features(embedder, texts)
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    cached = list(tmp_path.glob("features-minilm-int8-*.npz"))
    assert len(cached) == 1 and np.array_equal(np.load(cached[0])["features"], vectors)
    assert np.array_equal(cached_features(embedder, texts), vectors)


def test_tfidf_needs_fitting_before_encoding() -> None:
    with pytest.raises(RuntimeError, match="fit"):
        Tfidf().encode(["You are calm"])


def test_cli_classify_prints_json_and_text() -> None:
    done = taue("emotion", "classify", EXAMPLE, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert {
        "condition",
        "family",
        "emotion",
        "politeness",
        "urgency",
        "trust",
        "probabilities",
    } <= result.keys()
    assert result["condition"] in BY_ID and set(result["probabilities"]["emotion"]) == set(EMOTIONS)
    done = taue("emotion", "classify", EXAMPLE, "--route", "tfidf")
    assert done.returncode == 0 and "route tfidf" in done.stdout and "urgency" in done.stdout


def test_cli_evaluate_prints_the_accuracy_table() -> None:
    done = taue("emotion", "evaluate", "--route", "tfidf", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [h["head"] for h in report["heads"]] == ["emotion", "politeness", "urgency", "trust"]
    assert report["feelings"] == len(load_feelings())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["emotion", "classify", "   "], "empty"),
        (["emotion", "classify", EXAMPLE, "--route", "bert"], "unknown route"),
    ],
)
def test_cli_classify_bad_input_gets_clear_errors(args: list[str], message: str) -> None:
    done = taue(*args)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_missing_onnx_route_is_a_clear_error(tmp_path: Path) -> None:
    env = {**__import__("os").environ, "TAUE_MINILM_TOKENIZER": str(tmp_path / "missing.json")}
    done = taue("emotion", "classify", EXAMPLE, "--route", "onnx", env=env)
    assert done.returncode == 2 and "tokenizer.json" in done.stderr and "Traceback" not in done.stderr


def test_without_numpy_neither_route_runs_and_the_error_says_what_to_install() -> None:
    hide_numpy = (
        "import importlib.util, sys\n"
        "real = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda name, *a: None if name == 'numpy' else real(name, *a)\n"
        "from taue.cli import app\n"
        "app(['emotion', 'classify', 'I am calm'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", hide_numpy], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and ".[emotion]" in done.stderr and "Traceback" not in done.stderr
