"""Shared fixtures: real domain servers (uvicorn on 127.0.0.1 ephemeral ports) for the whole session."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx2
import pytest_asyncio

from taue.envs.runtime.server import DomainServer
from taue.runner.embedded import embedded_domains
from tests.llama_server import llama_server  # noqa: F401  (session fixture: llama.cpp + SmolLM2)

DOMAINS = ["airline", "retail"]


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def servers() -> AsyncIterator[dict[str, DomainServer]]:
    async with embedded_domains(DOMAINS) as running:
        yield running


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def http() -> AsyncIterator[httpx2.AsyncClient]:
    async with httpx2.AsyncClient(timeout=30) as client:
        yield client
