"""The shared seed's guard: a SQLite authorizer that lets reads through and denies, and notes, the rest.

Episodes that have not written read the seed itself (envs/runtime/database.py); a call that tries to
write there is refused by SQLite before anything changes, and its transaction learns of the refusal
(even when the tool caught the error) and has the call run again on the episode's own copy.
"""

from __future__ import annotations

import sqlite3
from contextvars import ContextVar
from typing import Any


class SeedIsReadOnly(Exception):
    """A call on the shared seed tried to write: it is rolled back and run again on a private copy."""


_READ_ACTIONS = frozenset(
    getattr(sqlite3, name)
    for name in ("SQLITE_SELECT", "SQLITE_READ", "SQLITE_FUNCTION", "SQLITE_RECURSIVE", "SQLITE_TRANSACTION")
)
refusals: ContextVar[list[int] | None] = ContextVar("taue_seed_refusals", default=None)
"""The write attempts of the current call on the shared seed (None outside such a call)."""


def read_only_authorizer(action: int, *_: Any) -> int:
    """The seed reader's SQLite authorizer: reads pass, anything else is denied and noted for the call."""
    if action in _READ_ACTIONS:
        return sqlite3.SQLITE_OK
    refused = refusals.get()
    if refused is not None:
        refused.append(action)
    return sqlite3.SQLITE_DENY
