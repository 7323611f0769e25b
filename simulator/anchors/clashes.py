"""Words of time and trust that one emotion text cannot say together: hurry against patience
("intense time pressure" / "at their own pace"), trust against suspicion. The emotion fit
(`fit.py`) keeps a patient phrase off high urgency and a trusting one off skepticism; the Tracer's
`self-contradiction` lint (tracer/semantic_lints.py) finds both in one text.
"""

from __future__ import annotations

import re


def words(*phrases: str) -> re.Pattern[str]:
    """One case-insensitive pattern matching any of the phrases as whole words."""
    return re.compile(r"\b(?:" + "|".join(phrases) + r")\b", re.IGNORECASE)


URGENT = words(
    r"intense time pressure",
    r"every minute counts",
    r"urgently",
    r"immediately",
    r"in a hurry",
    r"racing against the clock",
    r"cannot afford any delay",
    r"tight deadline",
    r"no time for",
    r"right now",
    r"as fast as possible",
)
PATIENT = words(
    r"no rush",
    r"in no hurry",
    r"not in a hurry",
    r"at (?:their|its|your) own pace",
    r"whenever it suits",
    r"take (?:all )?the time",
    r"take your time",
    r"happy to wait",
    r"plenty of time",
    r"no deadline",
)
"""Urgency against patience: one text cannot say both ("intense time pressure" / "at their own pace")."""
TRUSTING = words(
    r"trust the agent",
    r"take what they say at face value",
    r"at face value",
    r"without second-guessing",
    r"believe the agent knows",
    r"confident the agent",
    r"rely on the agent",
)
SUSPICIOUS = words(
    r"distrust",
    r"expect to be misled",
    r"look for holes",
    r"ask for proof",
    r"question whether",
    r"suspicious",
    r"doubt the agent",
    r"do not believe",
    r"don't believe",
)
"""Trust against suspicion, both as firm as the anchor texts say them."""
