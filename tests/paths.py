"""Where the tests find the project and the published reference data, from any test folder."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The repository root."""
PUBLISHED_DATA = Path(os.environ.get("TAUE_PUBLISHED_DATA", ROOT.parent / "shared/data/tau-emotion-bench"))
"""The published τ-Emotion-Bench data (beside the checkout, or `TAUE_PUBLISHED_DATA`)."""
