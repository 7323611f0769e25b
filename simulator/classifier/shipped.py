"""The MiniLM route's trained heads, shipped with the package so that the first classify does not
spend a minute embedding the 5,940 anchors.

`heads-onnx.json` holds the four heads trained on every committed anchor, with the key of the features
(model and tokenizer digests) and the digest of the anchor texts they were trained on. They are used
only while both still match; otherwise the classifier trains (and caches) its own heads as before.
Training is deterministic (full-batch Adam from zero weights), so regenerating gives the same file:

    python -m taue.simulator.classifier.shipped      # after changing the anchors or the training
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from taue.simulator.classifier.heads import Head

SHIPPED_PATH = Path(__file__).resolve().parent / "heads-onnx.json"
FORMAT = 1


def _floats(values: Any) -> Any:
    """float32 values (array or numpy scalar) as the shortest decimals that read back as the same float32."""
    if values.ndim == 0:
        return float(np.format_float_scientific(values, unique=True))
    return [_floats(row) for row in values]


def payload(heads: dict[str, Head], features_key: str, anchors_digest: str, version: int) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "heads_version": version,
        "features": features_key,
        "anchors": anchors_digest,
        "heads": {
            name: {
                "labels": list(head.labels),
                "scale": _floats(np.float32(head.scale)),
                "weights": _floats(np.asarray(head.weights, dtype=np.float32)),
                "bias": _floats(np.asarray(head.bias, dtype=np.float32)),
            }
            for name, head in heads.items()
        },
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n"


def heads_of(data: dict[str, Any]) -> dict[str, Head]:
    return {
        name: Head(
            labels=tuple(head["labels"]),
            scale=float(np.float32(head["scale"])),
            weights=np.asarray(head["weights"], dtype=np.float32),
            bias=np.asarray(head["bias"], dtype=np.float32),
        )
        for name, head in data["heads"].items()
    }


def shipped_heads(features_key: str, anchors_digest: str, version: int) -> dict[str, Head] | None:
    """The shipped heads when they were trained on these features and anchors, else None."""
    try:
        data = json.loads(SHIPPED_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (data.get("format"), data.get("heads_version"), data.get("features"), data.get("anchors")) != (
        FORMAT,
        version,
        features_key,
        anchors_digest,
    ):
        return None
    return heads_of(data)


def main() -> None:
    """Train the MiniLM heads on every committed anchor (without any cache) and write them."""
    from taue.simulator.anchors import load_anchors
    from taue.simulator.classifier.model import HEADS_VERSION, _digest, train_on_anchors

    anchors = load_anchors()
    model = train_on_anchors("onnx", anchors, use_cache=False)
    digest = _digest([a.text for a in anchors])
    SHIPPED_PATH.write_text(dumps(payload(model.heads, model.embedder.key, digest, HEADS_VERSION)))
    print(f"wrote {SHIPPED_PATH} ({SHIPPED_PATH.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
