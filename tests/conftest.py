"""Shared fixtures: real domain servers (uvicorn on 127.0.0.1 ephemeral ports) for the whole session."""

from __future__ import annotations

import gc
import os
import tempfile
from collections.abc import AsyncIterator, Iterator

import httpx2
import pytest
import pytest_asyncio

from taue.envs.runtime.server import DomainServer
from taue.runner.embedded import embedded_domains
from tests.llama_server import llama_server  # noqa: F401  (session fixture: llama.cpp + SmolLM2)

DOMAINS = ["airline", "retail"]
# Runs keep their signing keys under $TAUE_HOME/keys: the suite's go to a folder of its own, not ~/.taue.
os.environ.setdefault("TAUE_HOME", tempfile.mkdtemp(prefix="taue-test-home-"))
ADMIN_TOKEN = "taue-test-admin-token"
"""The admin token of the services the tests start as processes (`taue serve …` reads it from the
environment they inherit, as the runners they start do); in-process servers make their own."""
os.environ["TAUE_ADMIN_TOKEN"] = ADMIN_TOKEN


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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests that use the llama.cpp server are `llm` (and `slow`) whatever folder they live in, so
    `-m "not llm"` leaves out every one that needs the real model. Under `--dist loadgroup` every
    `xdist_group` test gets its `@group` node-id suffix here (`_keep_groups`)."""
    for item in items:
        if "llama_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.llm)
            item.add_marker(pytest.mark.slow)
    if getattr(config.option, "loadgroup", False):
        _keep_groups(items)


def _keep_groups(items: list[pytest.Item]) -> None:
    """pytest-xdist 3.8 groups `xdist_group` tests by writing `item._nodeid`, which pytest 9 no longer
    reads: without this a group (and its module fixture, built once per worker) is spread over all
    workers."""
    from _pytest.nodeid import NodeId

    for item in items:
        mark = item.get_closest_marker("xdist_group")
        if mark and "@" not in item.nodeid and hasattr(item, "_id"):
            item._id = NodeId.parse(f"{item.nodeid}@{mark.args[0]}")


class ControlTokens(httpx2.Auth):
    """Sends the admin token of the control port a request goes to (every control port needs one),
    unless the test sets its own `Authorization` header; requests to other ports go as they are."""

    def __init__(self) -> None:
        self.by_port: dict[int, str] = {}

    def register(self, *servers: DomainServer) -> None:
        for server in servers:
            if server.admin_token:
                self.by_port[server.control_port] = server.admin_token

    def auth_flow(self, request: httpx2.Request) -> Iterator[httpx2.Request]:
        token = self.by_port.get(request.url.port or 0)
        if token and "authorization" not in request.headers:
            request.headers["Authorization"] = f"Bearer {token}"
        yield request


CONTROL_TOKENS = ControlTokens()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def servers() -> AsyncIterator[dict[str, DomainServer]]:
    async with embedded_domains(DOMAINS, ADMIN_TOKEN) as running:
        CONTROL_TOKENS.register(*running.values())
        yield running


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def http() -> AsyncIterator[httpx2.AsyncClient]:
    """A client for the tests' servers: control ports of servers registered with `CONTROL_TOKENS` get
    their admin token."""
    async with httpx2.AsyncClient(timeout=30, auth=CONTROL_TOKENS) as client:
        yield client
