"""`taue db export`: a seed database, the database after a task's ground truth (replayed over MCP on an
embedded server) and a live episode's database, in the published JSON layout.

The exported files are read back into a database: its canonical state must equal the ground truth's
end state (the state the scorer's expected hash is of), so nothing is lost or changed in either direction.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from taue.cli import app
from taue.contracts.tasks import Task
from taue.envs.runtime.catalog import expected_outcome
from taue.envs.runtime.database import SeedImage
from taue.envs.runtime.discovery import domain_names, get_domain
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.task_checks import replay
from taue.envs.task_sets.exporter import published_tables, seed_state, write_tables
from taue.envs.task_sets.loader import read_table, table_models
from taue.runner.db_export import live_state, state_after
from taue.runner.mcp_session import episode_session


def taue(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def first_task_with_writes(domain: Domain) -> Task:
    return next(t for t in domain.tasks if any(a.name in domain.write_tools for a in t.evaluation.actions))


def state_of_files(domain: Domain, folder: Path) -> str:
    """Read exported table files back into a database of `domain`'s tables: its canonical state."""
    models = table_models(domain)
    rows = [row for name, model in models.items() for row in read_table(folder / f"{name}.json", model)[0]]
    return SeedImage(domain.tables, rows).clone().canonical_state()


async def expected_state(domain: Domain, task: Task) -> str:
    """The canonical state after the task's ground truth, as the domain server replays it for its hash."""
    actions = [a for a in task.initial_state + task.evaluation.actions if a.name not in domain.terminal_tools]
    db, _ = await replay(domain, actions)
    assert db.state_hash() == (await expected_outcome(domain, task)).state_hash
    return db.canonical_state()


@pytest.mark.slow
@pytest.mark.parametrize("name", domain_names())
async def test_export_after_a_task_reads_back_as_the_expected_end_state(name: str, tmp_path: Path) -> None:
    domain = get_domain(name)
    task = first_task_with_writes(domain)
    state, problems = await state_after(domain, task)
    assert problems == []
    write_tables(tmp_path, published_tables(domain, state))
    assert state_of_files(domain, tmp_path) == await expected_state(domain, task)
    seed = tmp_path / "seed"
    write_tables(seed, published_tables(domain, seed_state(domain)))
    assert state_of_files(domain, seed) == domain.new_database().canonical_state()
    assert state_of_files(domain, seed) != state_of_files(domain, tmp_path)


def test_cli_exports_the_seed_and_the_state_after_a_task(tmp_path: Path) -> None:
    domain = get_domain("retail")
    cancels = [(t, a) for t in domain.tasks for a in t.evaluation.actions if a.name == "cancel_pending_order"]
    task, cancel = cancels[0]
    seed = taue("db", "export", "--task-set", "retail", "--format", "tau-bench", str(tmp_path / "seed"))
    assert seed.exit_code == 0, seed.output
    after = taue("db", "export", "--task-set", "retail", "--after", task.id, str(tmp_path / "after"))
    assert after.exit_code == 0, after.output
    assert sorted(p.name for p in (tmp_path / "after").iterdir()) == [
        "orders.json",
        "products.json",
        "users.json",
    ]
    order_id = cancel.arguments["order_id"]
    before = json.loads((tmp_path / "seed" / "orders.json").read_text())[order_id]
    changed = json.loads((tmp_path / "after" / "orders.json").read_text())[order_id]
    assert before["status"] == "pending" and "cancel_reason" not in before
    assert changed["status"] == "cancelled" and changed["cancel_reason"] == cancel.arguments["reason"]
    assert (
        json.loads((tmp_path / "seed" / "products.json").read_text())
        == published_tables(domain, seed_state(domain))["products"]
    )


@pytest.mark.slow
async def test_a_live_episode_is_exported_from_its_control_port(servers, http, tmp_path: Path) -> None:
    server = servers["airline"]
    domain = get_domain("airline")
    task = first_task_with_writes(domain)
    created = (await http.post(server.control_url + "/episodes", json={})).json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    async with episode_session(created["mcp_url"], headers) as client:
        for action in task.evaluation.actions:
            assert not (await client.call_tool(action.name, dict(action.arguments))).is_error
    exported, state = await live_state(server.control_url, created["episode_id"], None)
    assert exported is domain
    write_tables(tmp_path / "lib", published_tables(domain, state))
    assert state_of_files(domain, tmp_path / "lib") == await expected_state(domain, task)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "taue", "db", "export", "--episode", created["episode_id"],
        "--control-url", server.control_url, "--format", "tau-bench", str(tmp_path / "cli"),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), timeout=120)
    assert b"wrote flights.json" in out
    assert process.returncode == 0, err.decode()
    for name in ("flights", "reservations", "users"):
        cli = json.loads((tmp_path / "cli" / f"{name}.json").read_text())
        assert cli == json.loads((tmp_path / "lib" / f"{name}.json").read_text())
    await http.delete(f"{server.control_url}/episodes/{created['episode_id']}")


async def test_live_export_of_an_unknown_episode_is_a_clear_error(servers) -> None:
    with pytest.raises(ValueError, match="HTTP 404"):
        await live_state(servers["retail"].control_url, "no-such-episode", None)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["OUT"], "give exactly one of --task-set NAME or --episode ID"),
        (["--task-set", "retail", "--episode", "x", "OUT"], "give exactly one of"),
        (["--task-set", "retail", "--format", "csv", "OUT"], "--format must be one of tau-bench"),
        (["--task-set", "no-such-set", "OUT"], "no task set 'no-such-set'"),
        (["--task-set", "retail", "--after", "retail-999", "OUT"], "no task 'retail-999' in 'retail'"),
        (["--episode", "x", "OUT"], "--episode needs --control-url URL"),
        (["--episode", "x", "--control-url", "http://127.0.0.1:9", "OUT"], "127.0.0.1:9"),
    ],
)
def test_cli_export_rejects_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    args = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    result = taue("db", "export", *args)
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert isinstance(result.exception, SystemExit) and not (tmp_path / "out").exists()
