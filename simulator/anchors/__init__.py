"""Anchor instructions: 10 second-person descriptions of how the user feels and behaves, per condition.

The committed data file `anchors.json` holds all 5,940 (594 conditions x 10); `taue emotion anchors
generate` rewrites it from the phrase bank (`phrases.py`, composed by `generate.py`), optionally
paraphrased through an OpenAI-compatible endpoint (`paraphrase.py`).

    anchors_for("frustration.cold.high.skeptical")   # the 10 texts, index order
    anchor("frustration.cold.high.skeptical", 3)     # one of them
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from taue.contracts.emotions import condition
from taue.simulator.anchors.compose import ANCHORS_PER_CONDITION, Anchor, generate_anchors, write_anchors

ANCHORS_PATH = Path(__file__).resolve().parent / "anchors.json"

__all__ = [
    "ANCHORS_PATH",
    "ANCHORS_PER_CONDITION",
    "Anchor",
    "anchor",
    "anchors_for",
    "generate_anchors",
    "load_anchors",
    "write_anchors",
]


def load_anchors(path: Path | None = None) -> tuple[Anchor, ...]:
    """The anchors of a data file (default: the committed one), in file order."""
    return _load(path or ANCHORS_PATH)


@cache
def _load(path: Path) -> tuple[Anchor, ...]:
    return tuple(Anchor.model_validate(row) for row in json.loads(path.read_text(encoding="utf-8")))


@cache
def _by_condition() -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for a in sorted(load_anchors(), key=lambda a: (a.condition, a.index)):
        table.setdefault(a.condition, []).append(a.text)
    return table


def anchors_for(condition_id: str) -> list[str]:
    """The anchor texts of a condition in index order; `KeyError` for an unknown id."""
    condition(condition_id)
    return list(_by_condition()[condition_id])


def anchor(condition_id: str, index: int) -> str:
    """Anchor `index` (0-9) of a condition; `KeyError` / `IndexError` for a bad id or index."""
    texts = anchors_for(condition_id)
    if not 0 <= index < len(texts):
        raise IndexError(f"anchor index must be 0..{len(texts) - 1}, got {index}")
    return texts[index]
