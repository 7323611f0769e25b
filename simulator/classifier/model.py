"""The multi-head feeling classifier: sentence features -> emotion, politeness, urgency, trust heads.

MiniLM features of the 5,940 anchors take about a minute of CPU and the heads a few seconds, so both
are cached under the user cache dir (`TAUE_CACHE_DIR`, else `$XDG_CACHE_HOME/taue`, else
`~/.cache/taue`), keyed by model, tokenizer (or TF-IDF vocabulary) and the anchor texts: a few MB.
The MiniLM heads of the committed anchors also ship with the package (shipped.py).
"""

from __future__ import annotations

import hashlib
import os
import zipfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from taue.contracts.emotions import BY_ID, EMOTIONS, POLITENESS, TRUST, URGENCY
from taue.simulator.anchors import Anchor, load_anchors
from taue.simulator.classifier.embedders import Embedder, OnnxMiniLM, Tfidf
from taue.simulator.classifier.heads import Head, train_head
from taue.simulator.classifier.shipped import shipped_heads

HEAD_LABELS: dict[str, tuple[str, ...]] = {
    "emotion": EMOTIONS,
    "politeness": POLITENESS,
    "urgency": URGENCY,
    "trust": TRUST,
}
Probabilities = dict[str, dict[str, float]]
HEADS_VERSION = 2  # bump when training changes, so cached heads of the old training are not reused


def cache_dir() -> Path:
    if explicit := os.environ.get("TAUE_CACHE_DIR"):
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "taue"


def make_embedder(route: str) -> Embedder:
    if route == "onnx":
        return OnnxMiniLM()
    if route == "tfidf":
        return Tfidf()
    raise ValueError(f"unknown route {route!r}; expected onnx or tfidf")


def anchor_labels(anchors: Sequence[Anchor]) -> dict[str, list[str]]:
    conditions = [BY_ID[a.condition] for a in anchors]
    return {head: [getattr(c, head) for c in conditions] for head in HEAD_LABELS}


def _digest(texts: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]


def _save(path: Path, **arrays: np.ndarray | np.floating[Any]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
        np.savez(tmp, **arrays)  # type: ignore[arg-type]  # mypy matches **arrays to allow_pickle: bool
        tmp.replace(path)
    except OSError:
        pass  # a read-only home only costs the next run the same computation


def _read(path: Path) -> dict[str, np.ndarray] | None:
    """A cache file's arrays, or None when it is absent or unreadable (it is then rebuilt)."""
    try:
        with np.load(path) as stored:
            return {name: stored[name] for name in stored.files}
    except (OSError, ValueError, zipfile.BadZipFile):
        return None


def cached_features(embedder: Embedder, texts: list[str]) -> np.ndarray:
    """`embedder.encode(texts)`; a pretrained encoder's vectors are kept per text in the cache."""
    if embedder.route != "onnx":
        return embedder.encode(texts)
    path = cache_dir() / f"features-{embedder.key}.npz"
    keys = [hashlib.sha256(t.encode()).hexdigest()[:32] for t in texts]
    stored = _read(path)
    store: dict[str, np.ndarray] = {}
    if stored and {"keys", "features"} <= stored.keys() and len(stored["keys"]) == len(stored["features"]):
        store = dict(zip(stored["keys"].tolist(), stored["features"], strict=True))
    missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in store}
    if missing:
        store.update(zip(missing, embedder.encode(list(missing.values())), strict=True))
        _save(path, keys=np.array(list(store), dtype="U32"), features=np.stack(list(store.values())))
    return np.stack([store[key] for key in keys])


class FeelingClassifier:
    """Independent heads over shared sentence features."""

    def __init__(self, embedder: Embedder, heads: dict[str, Head]) -> None:
        self.embedder = embedder
        self.heads = heads

    @property
    def route(self) -> str:
        return self.embedder.route

    @classmethod
    def train(
        cls, embedder: Embedder, features: np.ndarray, labels: dict[str, list[str]]
    ) -> FeelingClassifier:
        heads = {head: train_head(features, labels[head], HEAD_LABELS[head]) for head in HEAD_LABELS}
        return cls(embedder, heads)

    def predict_features(self, features: np.ndarray) -> dict[str, list[str]]:
        return {head: model.predict(features) for head, model in self.heads.items()}

    def probabilities(self, texts: list[str]) -> list[Probabilities]:
        features = self.embedder.encode(texts)
        per_head = {head: model.probabilities(features) for head, model in self.heads.items()}
        return [
            {
                head: {
                    label: round(float(p), 4)
                    for label, p in zip(model.labels, per_head[head][row], strict=True)
                }
                for head, model in self.heads.items()
            }
            for row in range(len(texts))
        ]


def _load_heads(path: Path) -> dict[str, Head] | None:
    stored = _read(path)
    fields = {f"{head}.{field}" for head in HEAD_LABELS for field in ("scale", "weights", "bias")}
    if stored is None or not fields <= stored.keys():
        return None
    return {
        head: Head(
            labels=labels,
            scale=float(stored[f"{head}.scale"]),
            weights=stored[f"{head}.weights"],
            bias=stored[f"{head}.bias"],
        )
        for head, labels in HEAD_LABELS.items()
    }


def train_on_anchors(
    route: str, anchors: Sequence[Anchor] | None = None, use_cache: bool = True
) -> FeelingClassifier:
    """The `route` classifier trained on `anchors` (default: all committed ones); heads are cached."""
    anchors = list(anchors if anchors is not None else load_anchors())
    texts = [a.text for a in anchors]
    embedder = make_embedder(route)
    embedder.fit(texts)
    path = cache_dir() / f"heads-v{HEADS_VERSION}-{embedder.key}-{_digest(texts)}.npz"
    if use_cache and (heads := _load_heads(path)) is not None:
        return FeelingClassifier(embedder, heads)
    if use_cache and (heads := shipped_heads(embedder.key, _digest(texts), HEADS_VERSION)) is not None:
        return FeelingClassifier(embedder, heads)  # the package's own (shipped.py): no anchor to embed
    model = FeelingClassifier.train(embedder, cached_features(embedder, texts), anchor_labels(anchors))
    if use_cache:
        arrays = {
            f"{head}.{field}": getattr(h, field)
            for head, h in model.heads.items()
            for field in ("weights", "bias")
        }
        _save(path, **arrays, **{f"{head}.scale": np.float32(h.scale) for head, h in model.heads.items()})
    return model


@cache
def trained_classifier(route: str) -> FeelingClassifier:
    """The classifier of `route` trained on every committed anchor (built once per process)."""
    return train_on_anchors(route)
