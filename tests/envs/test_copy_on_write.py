"""Copy-on-write episode databases: reads share the seed, the first write copies it, a write the seed
refuses is run again on the copy with the same outcome, and the shared seed never changes; the seed
image built table by table is the ORM's."""

from __future__ import annotations

import sqlite3

import pytest
from sqlmodel import Session

from taue.envs.runtime import database, execution
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.execution import execute_logged
from taue.envs.runtime.task_checks import replay


@pytest.fixture(scope="module")
def airline() -> Domain:
    return get_domain("airline")


def a_task_with_writes(domain: Domain):
    return next(
        task
        for task in domain.task_index.values()
        if any(action.name in domain.write_tools for action in task.evaluation.actions)
    )


async def test_reads_share_the_seed(airline: Domain) -> None:
    db = airline.new_database()
    log: list[execution.ToolCall] = []
    await execute_logged(airline, db, log, "list_all_airports", {}, None)
    await execute_logged(airline, db, log, "get_user_details", {"user_id": "nobody"}, None)
    assert [call.ok for call in log] == [True, False]
    assert not db.copied
    assert db.connection is airline.seed_image.reader
    assert db.state_hash() == airline.new_database().state_hash()


async def test_the_first_write_copies_and_reset_drops_the_copy(airline: Domain) -> None:
    task = a_task_with_writes(airline)
    db, log = await replay(airline, task.evaluation.actions)
    assert all(call.ok for call in log)
    assert db.copied and db.connection is not airline.seed_image.reader
    changed = db.state_hash()
    assert changed != airline.new_database().state_hash()
    db.reset()
    assert not db.copied
    assert db.state_hash() == airline.new_database().state_hash()


async def test_an_unmarked_write_runs_again_on_a_copy(airline: Domain, monkeypatch) -> None:
    task = a_task_with_writes(airline)
    marked, marked_log = await replay(airline, task.evaluation.actions)
    runs: list[bool] = []
    run = execution._run

    async def counted(tool, db, arguments, context, may_write):
        runs.append(may_write)
        return await run(tool, db, arguments, context, may_write)

    monkeypatch.setattr(execution, "_run", counted)
    monkeypatch.setitem(airline.__dict__, "write_tools", frozenset())  # every tool claims to only read
    unmarked, unmarked_log = await replay(airline, task.evaluation.actions)
    assert runs.count(True) == 1  # the first write, again: later calls run on the copy
    assert [(c.ok, c.output) for c in unmarked_log] == [(c.ok, c.output) for c in marked_log]
    assert unmarked.state_hash() == marked.state_hash()
    assert airline.seed_image.reader.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0


def test_the_shared_seed_refuses_writes(airline: Domain) -> None:
    reader = airline.seed_image.reader
    table = reader.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchone()[0]
    with pytest.raises(sqlite3.DatabaseError):
        reader.execute(f'DELETE FROM "{table}"')
    with pytest.raises(sqlite3.DatabaseError):
        reader.execute("CREATE TABLE intruder (x)")
    assert reader.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] > 0


@pytest.mark.parametrize("name", ["telehealth", "retail"])
def test_the_seed_image_is_the_orm_s_byte_for_byte(name: str) -> None:
    """The seed rows go in with one executemany per table; the ORM's unit of work made the same bytes."""
    domain = get_domain(name)
    connection = database._new_connection()
    engine = database._engine_over(connection)
    for model in sorted(domain.tables, key=database.table_name):
        database.table_of(model).create(engine)
    with Session(engine) as session:
        session.add_all(list(domain.generate(domain.seed)))
        session.commit()
    connection.execute("VACUUM")
    assert connection.serialize() == domain.seed_image.image_bytes
