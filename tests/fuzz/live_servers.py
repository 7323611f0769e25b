"""Real domain servers on 127.0.0.1 for the fuzz tests, served from an event loop in a background thread.

The fuzz tests are plain synchronous Hypothesis tests: the servers (and the MCP clients, which need
an event loop too) live on one loop in a daemon thread, and the tests hand coroutines to it with a
timeout. A call that does not come back within its timeout is a hang, which the tests report.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
from collections import Counter
from collections.abc import Coroutine
from typing import Any, TypeVar

import httpx2
from hypothesis import HealthCheck, settings
from hypothesis import seed as hypothesis_seed
from pydantic import BaseModel

from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.server import DomainServer

T = TypeVar("T")

TALLY: Counter[str] = Counter()
"""Examples run in this process, by kind (tests/fuzz/conftest.py prints them after the run)."""
CALL_TIMEOUT_S = 30.0
"""Longest a single request may take before it counts as a hang (generous: CI machines are loaded)."""


def fuzz_examples(default: int) -> int:
    """Examples per fuzzed target: `TAUE_FUZZ_EXAMPLES` (the long soak sets it high), else `default`."""
    value = os.environ.get("TAUE_FUZZ_EXAMPLES", "").strip()
    return int(value) if value else default


def soak_timeout_s(examples: int) -> float:
    """The pytest timeout of one fuzz test: the suite's 300 s, more for a soak's many examples (a hung
    request still fails after `CALL_TIMEOUT_S`)."""
    return max(300.0, 0.5 * examples)


def fuzz_settings(max_examples: int) -> Any:
    """Hypothesis settings of the fuzz tests, as a decorator: deterministic by default (CI), nothing
    written to a `.hypothesis` database; `TAUE_FUZZ_SEED=N` draws other examples for a soak."""
    chosen_seed = os.environ.get("TAUE_FUZZ_SEED", "").strip()
    configured = settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=not chosen_seed,
        database=None,
        print_blob=False,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )
    if not chosen_seed:
        return configured
    return lambda test: hypothesis_seed(int(chosen_seed))(configured(test))


class Hang(AssertionError):
    """A request that did not finish within its timeout."""


class BackgroundLoop:
    """An asyncio loop running in a daemon thread; `run` executes a coroutine there and waits."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="fuzz-servers", daemon=True)
        self._thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float = CALL_TIMEOUT_S) -> T:
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise Hang(f"no answer within {timeout:.0f} s") from None

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)
        if not self._thread.is_alive():
            self.loop.close()


class Episode(BaseModel):
    """What `POST /episodes` answers (only the fields the fuzz tests use)."""

    episode_id: str
    mcp_url: str
    token: str


class Control:
    """Synchronous calls to one domain server's control port."""

    def __init__(self, base_url: str, admin_token: str | None = None) -> None:
        headers = {"Authorization": f"Bearer {admin_token}"} if admin_token else {}
        self.base_url, self.admin_token = base_url, admin_token
        self.http = httpx2.Client(base_url=base_url, headers=headers, timeout=CALL_TIMEOUT_S)

    def new_episode(self) -> Episode:
        response = self.http.post("/episodes", json={})
        assert response.status_code == 201, response.text
        return Episode.model_validate(response.json())

    def state_hash(self, episode_id: str) -> str:
        response = self.http.get(f"/episodes/{episode_id}/state", params={"include_state": "false"})
        assert response.status_code == 200, f"state of {episode_id}: {response.status_code} {response.text}"
        return response.json()["sha256"]

    def reset(self, episode_id: str) -> None:
        response = self.http.post(f"/episodes/{episode_id}/reset")
        assert response.status_code == 200, f"reset of {episode_id}: {response.status_code} {response.text}"

    def tool_log(self, episode_id: str, since: int = 0) -> dict[str, Any]:
        """The tool log from call `since` on: `calls`, and `total`, the number logged so far."""
        response = self.http.get(f"/episodes/{episode_id}/tool-log", params={"since": since})
        assert response.status_code == 200, f"tool log: {response.status_code} {response.text}"
        return response.json()

    def close(self) -> None:
        self.http.close()


class LiveDomains:
    """One `DomainServer` per domain, started on first use and shared; all stopped by `close`."""

    def __init__(self, loop: BackgroundLoop) -> None:
        self.loop = loop
        self._servers: dict[str, DomainServer] = {}

    def server(self, name: str, admin_token: str | None = None) -> DomainServer:
        """The domain's shared server: with `admin_token`, a server of that token; without, one with a
        token of its own (`server.admin_token`)."""
        key = f"{name}#{admin_token}" if admin_token else name
        if key not in self._servers:
            self._servers[key] = self.loop.run(_started(name, admin_token), timeout=120)
        return self._servers[key]

    def close(self) -> None:
        for server in self._servers.values():
            self.loop.run(server.stop(), timeout=60)
        self._servers.clear()


async def _started(name: str, admin_token: str | None) -> DomainServer:
    server = DomainServer(get_domain(name), admin_token=admin_token)
    await server.start()
    return server
