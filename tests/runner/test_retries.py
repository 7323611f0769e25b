"""No silent reruns: a lost connection costs an idempotent request a second try, not the episode; an
episode the runner does rerun is a `retry` line of errors.jsonl, counted by `taue summary`.

The faults are real: a TCP proxy in front of a real domain server closes connections without an answer
(what a server closing a keep-alive connection just as it is reused looks like to the client)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.contracts.run import RunConfig
from taue.envs.runtime.server import DomainServer
from taue.report.run_data import open_infra_errors
from taue.runner.control import ControlClient, InfraError, control_session
from taue.runner.embedded import Services, embedded_domains
from taue.runner.runner import execute_run
from tests.conftest import ADMIN_TOKEN


class CuttingProxy:
    """Forwards TCP connections to `target`; `cut(n)` makes the next n requests, on whatever connection
    they come (a pooled one or a new one), lose their connection without an answer."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.to_cut = 0
        self.cut_requests = 0
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for connection in self._connections:
            connection.cancel()
        await self._server.wait_closed()

    def cut(self, count: int) -> None:
        self.to_cut = count

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._connections.add(asyncio.current_task())  # type: ignore[arg-type]
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        try:
            await asyncio.gather(self._requests(reader, upstream_writer), _pipe(upstream_reader, writer))
        except (asyncio.CancelledError, ConnectionError):
            pass
        finally:
            self._connections.discard(asyncio.current_task())  # type: ignore[arg-type]
            writer.close()
            upstream_writer.close()

    async def _requests(self, reader: asyncio.StreamReader, upstream: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            if self.to_cut:  # the request never reaches the server, and the connection is gone
                self.to_cut -= 1
                self.cut_requests += 1
                raise ConnectionResetError
            upstream.write(data)
            await upstream.drain()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


@pytest.fixture(scope="module")
async def airline() -> AsyncIterator[DomainServer]:
    async with embedded_domains(["airline"], ADMIN_TOKEN) as servers:
        yield servers["airline"]


@pytest.fixture
async def proxy(airline: DomainServer) -> AsyncIterator[CuttingProxy]:
    proxy = CuttingProxy(airline.control_port)
    await proxy.start()
    yield proxy
    await proxy.stop()


async def test_a_lost_connection_costs_a_get_or_delete_another_try_and_a_post_nothing(
    proxy: CuttingProxy, airline: DomainServer
) -> None:
    async with control_session() as http:
        control = ControlClient(proxy.url, http, ADMIN_TOKEN)
        proxy.cut(2)
        assert (await control.card()).name == "airline"  # the third try
        assert proxy.cut_requests == 2

        created = await control.create_episode(None, 0)
        proxy.cut(1)
        await control.delete_episode(created.episode_id)  # the second try
        assert proxy.cut_requests == 3
        with pytest.raises(ValueError, match="404"):
            await ControlClient(airline.control_url, http, ADMIN_TOKEN).state_hash(created.episode_id)

        proxy.cut(100)
        with pytest.raises(InfraError, match=r"GET .*/domain: (ServerDisconnected|ClientOS)Error"):
            await control.card()  # three tries (aiohttp resends once more on a reused connection)
        assert 3 + 3 <= proxy.cut_requests <= 3 + 6
        proxy.cut(0)

        before, cut_before = len(airline.registry), proxy.cut_requests
        proxy.cut(1)
        with pytest.raises(InfraError, match=r"POST .*/episodes"):
            await control.create_episode(None, 0)  # not idempotent: never sent twice
        assert proxy.cut_requests == cut_before + 1 and proxy.to_cut == 0
        assert len(airline.registry) == before


async def test_an_episode_rerun_is_a_retry_line_and_counted_by_summary(
    proxy: CuttingProxy, tmp_path: Path
) -> None:
    config = RunConfig(run="retry", domains=["airline"], agent="oracle", trials=1, limit=3)

    def progress(done: int, total: int) -> None:
        if done == 1:
            proxy.cut(1)  # the next episode's POST /episodes loses its connection

    report = await execute_run(
        config, tmp_path, Services(env={"airline": proxy.url}), 1, progress, admin_token=ADMIN_TOKEN
    )
    assert (report.completed, report.failed, report.retries) == (3, 0, 1)
    (entry,) = [json.loads(line) for line in (tmp_path / "errors.jsonl").read_text().splitlines()]
    assert entry["kind"] == "retry" and entry["attempt"] == 1
    assert entry["task_id"] == sorted(r.task_id for r in report.records)[1] and entry["trial"] == 0
    assert entry["error"].startswith("InfraError: POST ") and "/episodes: " in entry["error"]
    assert open_infra_errors(tmp_path, report.records) == []  # rerun and recorded: not a failure

    # The session's servers sign nothing, so neither does the run's in-process scorer: `consistent`.
    as_json = CliRunner().invoke(app, ["summary", str(tmp_path), "--json"])
    assert as_json.exit_code == 0, as_json.output
    summary = json.loads(as_json.stdout)
    assert summary["verification"]["label"] == "consistent"
    assert summary["retries"] == 1 and summary["failure_categories"]["counts"].get("infra_error", 0) == 0
    human = CliRunner().invoke(app, ["summary", str(tmp_path)], env={"COLUMNS": "200"})
    assert "retries: 1 episodes rerun after infrastructure errors (errors.jsonl)" in human.output
