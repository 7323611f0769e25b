"""Shared fixtures: real domain servers (uvicorn on 127.0.0.1 ephemeral ports) for the whole session."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Iterator

import httpx2
import pytest
import pytest_asyncio

from taue.envs.runtime.server import DomainServer
from taue.runner.embedded import embedded_domains
from tests.llama_server import llama_server  # noqa: F401  (session fixture: llama.cpp + SmolLM2)

DOMAINS = ["airline", "retail"]


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[object]:
    """Collect with the cyclic garbage collector off, then freeze what collection built, and collect
    less often while the tests run.

    Collection imports every test module (~900k objects that live as long as the session): each full
    collection would walk them all (~0.7 s each), during collection and after it. The tests allocate
    many short-lived objects (requests, messages, rows): with the default thresholds the collector
    took ~9 % of an episode-heavy test's time, with these ~2 %.
    """
    gc.disable()
    try:
        return (yield)
    finally:
        gc.enable()
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 20)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def servers() -> AsyncIterator[dict[str, DomainServer]]:
    async with embedded_domains(DOMAINS) as running:
        yield running


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def http() -> AsyncIterator[httpx2.AsyncClient]:
    async with httpx2.AsyncClient(timeout=30) as client:
        yield client
