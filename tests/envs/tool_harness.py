"""Calling one domain's tools directly on an episode database, as the MCP server does (the shared
harness of the per-domain tool tests)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from taue.envs.runtime.database import EpisodeDatabase
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.execution import ToolCall, execute_logged


class ToolHarness:
    """`call`, `ok` and `fails` for the tools of one domain; every test passes its own database."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain

    def database_fixture(self):
        """A pytest fixture: a fresh episode database of the domain for each test."""

        @pytest.fixture
        def db() -> Iterator[EpisodeDatabase]:
            database = self.domain.new_database()
            yield database
            database.close()

        return db

    async def call(self, db: EpisodeDatabase, name: str, **arguments: Any) -> ToolCall:
        log: list[ToolCall] = []
        await execute_logged(self.domain, db, log, name, arguments, None)
        return log[-1]

    async def ok(self, db: EpisodeDatabase, name: str, **arguments: Any) -> str:
        """The call succeeds; returns what the agent would read."""
        result = await self.call(db, name, **arguments)
        assert result.ok, result.output
        return result.output

    async def fails(self, db: EpisodeDatabase, name: str, message: str, **arguments: Any) -> None:
        """The call fails with exactly `message` after the SDK's `Error executing tool NAME: ` prefix,
        writes nothing and leaves the whole database as it was."""
        before = db.canonical_state()
        result = await self.call(db, name, **arguments)
        assert not result.ok and not result.writes
        assert result.output == f"Error executing tool {name}: {message}", result.output
        assert db.canonical_state() == before
