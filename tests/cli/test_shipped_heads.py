"""The MiniLM heads ship with the package (simulator/classifier/heads-onnx.json, and those of anchors 0-7
that `taue emotion evaluate` scores in heads-onnx-held-out.json): they are current, they are what
training gives, and the first `taue emotion classify` embeds no anchor."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from taue.simulator.anchors import load_anchors
from taue.simulator.classifier import resolve_route
from taue.simulator.classifier.errors import ClassifierUnavailable
from taue.simulator.classifier.model import HEADS_VERSION, _digest, anchor_labels, train_on_anchors
from taue.simulator.classifier.shipped import (
    HELD_OUT_PATH,
    SHIPPED_PATH,
    dumps,
    heads_of,
    payload,
    shipped_heads,
)


def _onnx_installed() -> bool:
    try:
        return resolve_route("onnx") == "onnx"
    except ClassifierUnavailable:
        return False


pytestmark = pytest.mark.skipif(not _onnx_installed(), reason="the onnx route is not installed")
REGENERATE = "python -m taue.simulator.classifier.shipped"


def _held_out(anchors: list) -> list:
    from taue.simulator.classifier.evaluate import TRAIN_INDICES

    return [a for a in anchors if a.index in TRAIN_INDICES]


@pytest.mark.parametrize(
    ("path", "trained_on"),
    [(SHIPPED_PATH, list), (HELD_OUT_PATH, _held_out)],
    ids=["every anchor", "anchors 0-7 (taue emotion evaluate)"],
)
def test_the_shipped_heads_are_small_and_match_the_committed_anchors(path: Path, trained_on) -> None:
    from taue.simulator.classifier.embedders import OnnxMiniLM
    from taue.simulator.classifier.model import FeelingClassifier

    assert path.stat().st_size < 5_000_000
    data = json.loads(path.read_text())
    anchors = trained_on(list(load_anchors()))
    digest = _digest([a.text for a in anchors])
    assert (data["anchors"], data["heads_version"]) == (digest, HEADS_VERSION), f"stale: {REGENERATE}"
    embedder = OnnxMiniLM()
    heads = shipped_heads(embedder.key, digest, HEADS_VERSION)
    assert heads is not None, f"trained on other features: {REGENERATE}"
    assert {name: head.weights.shape for name, head in heads.items()} == {
        "emotion": (384, 22),
        "politeness": (384, 3),
        "urgency": (384, 3),
        "trust": (384, 3),
    }
    # heads trained on these anchors fit them: most of a sample of them comes back with its own labels
    sample = anchors[::150]
    model = FeelingClassifier(embedder, heads)
    predicted = model.predict_features(model.embedder.encode([a.text for a in sample]))
    labels = anchor_labels(sample)
    assert np.mean(np.array(predicted["emotion"]) == np.array(labels["emotion"])) >= 0.8


def test_regenerating_on_a_subset_is_deterministic_and_the_file_format_exact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUE_CACHE_DIR", str(tmp_path))
    subset = [a for a in load_anchors() if a.condition.endswith(".warm.high.trusting")][:60]
    digest = _digest([a.text for a in subset])
    texts = []
    for _ in range(2):  # what `main()` does, on 60 anchors, twice (the second from the features cache)
        model = train_on_anchors("onnx", subset, use_cache=False)
        texts.append(dumps(payload(model.heads, model.embedder.key, digest, HEADS_VERSION)))
    assert texts[0] == texts[1]
    for name, head in heads_of(json.loads(texts[0])).items():
        assert np.array_equal(head.weights, model.heads[name].weights)
        assert np.array_equal(head.bias, model.heads[name].bias) and head.scale == model.heads[name].scale
    assert shipped_heads(model.embedder.key, digest, HEADS_VERSION) is None  # not the committed anchors


def test_the_first_classify_embeds_no_anchor(tmp_path: Path) -> None:
    code = (
        "import time, json; from taue.simulator.classifier import classify; "
        "r = classify('I am scared my refund will never come and I need it today', route='onnx'); "
        "print(json.dumps([r.family, r.urgency, time.process_time()]))"
    )
    cache = tmp_path / "taue-cache"
    env = {"TAUE_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    family, urgency, cpu_seconds = json.loads(done.stdout)
    assert (family, urgency) == ("fear", "high")
    assert not cache.exists()  # no anchor features, no heads trained and cached
    assert cpu_seconds < 15  # training from scratch takes minutes of CPU


def test_evaluate_trains_nothing_it_scores_the_shipped_held_out_heads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What keeps `taue emotion evaluate` (and tests/simulator/test_classifier.py) cheap on a fresh
    install: the heads of anchors 0-7 come from the package, so only anchors 8-9 are embedded."""
    monkeypatch.setenv("TAUE_CACHE_DIR", str(tmp_path))
    model = train_on_anchors("onnx", _held_out(list(load_anchors())))
    shipped = heads_of(json.loads(HELD_OUT_PATH.read_text()))
    assert all(np.array_equal(model.heads[name].weights, head.weights) for name, head in shipped.items())
    assert not list(tmp_path.iterdir())  # no anchor embedded, no heads trained or cached
