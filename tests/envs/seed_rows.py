"""Each domain's seed rows, generated once per test process.

Several test modules read them at import time (to choose their parameters), and collection imports
every module on every xdist worker: generating them once per domain saves seconds on each worker.
"""

from __future__ import annotations

from sqlmodel import SQLModel

from taue.envs.runtime.domain import Domain

_ROWS: dict[str, list[SQLModel]] = {}


def seed_rows(domain: Domain) -> list[SQLModel]:
    """`domain.generate(domain.seed)`, shared by every caller: read the rows, never change them."""
    if domain.name not in _ROWS:
        _ROWS[domain.name] = domain.generate(domain.seed)
    return _ROWS[domain.name]
