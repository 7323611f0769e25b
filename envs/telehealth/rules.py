"""Telehealth's policy values that the write tools and the policy checker share (policy.md): which
visits are active (they can move or be cancelled, and they hold their slot), and the clock.

The tools keep the published telehealth checks and messages (tool_support.py); the checker judges
the same conditions on the seed records (policy_check.py).
"""

from __future__ import annotations

from datetime import date

CLOCK = "2025-11-24T09:00:00"
"""The simulated "now": visits before it are completed, later ones scheduled."""
TODAY = date.fromisoformat(CLOCK[:10])
ACTIVE = ("scheduled", "pending_approval")
"""The statuses of a visit that can be moved or cancelled and that holds its slot."""
