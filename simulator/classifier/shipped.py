"""The MiniLM route's trained heads, shipped with the package so that the first classify does not
spend a minute embedding the 5,940 anchors.

`heads-onnx.json` holds the four heads trained on every committed anchor, with the key of the features
(model and tokenizer digests) and the digest of the anchor texts they were trained on;
`heads-onnx-held-out.json` the heads trained on anchors 0-7 only, which `taue emotion evaluate` scores
on anchors 8-9 (so that evaluating embeds 1,188 anchors, not 5,940). They are used only while both
digests still match; otherwise the classifier trains (and caches) its own heads as before. Training is
deterministic (full-batch Adam from zero weights), so regenerating gives the same files:

    python -m taue.simulator.classifier.shipped      # after changing the anchors or the training
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from taue.simulator.classifier.heads import Head

SHIPPED_PATH = Path(__file__).resolve().parent / "heads-onnx.json"
HELD_OUT_PATH = SHIPPED_PATH.with_name("heads-onnx-held-out.json")
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
    """The shipped heads (of either file) trained on these features and anchors, else None."""
    wanted = (FORMAT, version, features_key, anchors_digest)
    for path in (SHIPPED_PATH, HELD_OUT_PATH):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        found = (data.get("format"), data.get("heads_version"), data.get("features"), data.get("anchors"))
        if found == wanted:
            return heads_of(data)
    return None


def write(path: Path, anchors: list[Any]) -> None:
    """Train the MiniLM heads on `anchors` (without any cache) and write them to `path`."""
    from taue.simulator.classifier.model import HEADS_VERSION, _digest, train_on_anchors

    model = train_on_anchors("onnx", anchors, use_cache=False)
    digest = _digest([a.text for a in anchors])
    path.write_text(dumps(payload(model.heads, model.embedder.key, digest, HEADS_VERSION)))
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")


def main() -> None:
    """Write the heads of every committed anchor and those of anchors 0-7 (the held-out evaluation's)."""
    from taue.simulator.anchors import load_anchors
    from taue.simulator.classifier.evaluate import TRAIN_INDICES

    anchors = list(load_anchors())
    write(SHIPPED_PATH, anchors)
    write(HELD_OUT_PATH, [a for a in anchors if a.index in TRAIN_INDICES])


if __name__ == "__main__":
    main()
