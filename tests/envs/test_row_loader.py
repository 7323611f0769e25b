"""Reads by primary key and by column equalities without the ORM's query machinery
(envs/runtime/row_loader.py): every table of every domain loads the same persistent objects as
`Session.get` and the ORM's select, other conditions and rows already in the session go to the ORM,
and what the session does with the objects afterwards (identity, changes flushed as updates, deletes,
rollbacks) is the same."""

from __future__ import annotations

import pytest
from mcp.server.mcpserver.exceptions import ToolError
from sqlalchemy import inspect
from sqlmodel import Session, func, select

from taue.envs.runtime import database
from taue.envs.runtime.database import EpisodeDatabase, primary_key, table_of
from taue.envs.runtime.discovery import domain_names, get_domain
from taue.envs.runtime.row_loader import row_loader

ROWS_PER_TABLE = 5


def loaded_state(session: Session, row: object) -> dict[str, object]:
    state = inspect(row)
    keys = [prop.key for prop in state.mapper.column_attrs]
    return {
        "values": {key: getattr(row, key) for key in keys},
        "types": {key: type(getattr(row, key)) for key in keys},
        "persistent": state.persistent,
        "modified": state.modified,
        "committed": dict(state.committed_state),
        "key": state.key,
        "in_session": row in session,
        "pydantic": (row.__pydantic_fields_set__, row.__pydantic_extra__, row.__pydantic_private__),
    }


@pytest.mark.parametrize("name", domain_names())
def test_every_table_loads_what_the_orm_loads(name: str) -> None:
    domain = get_domain(name)
    seed = domain.seed_image
    for model in seed.tables:
        assert row_loader(model, database._sqlite_dialect()[0]).plain, model.__name__
        key = primary_key(model)
        table = table_of(model).name
        keys = [k for (k,) in seed.reader.execute(f'SELECT "{key}" FROM "{table}" LIMIT {ROWS_PER_TABLE}')]
        db = domain.new_database()
        for value in [*keys, "no-such-key", 10**9]:
            with db.transaction(may_write=False) as fast, db.transaction(may_write=False) as orm:
                assert fast.connection is seed.reader
                loaded, expected = fast.get(model, value), orm.session.get(model, value)
                if expected is None:
                    assert loaded is None
                    continue
                assert loaded is not None and loaded is not expected
                assert loaded_state(fast.session, loaded) == loaded_state(orm.session, expected)
                assert fast.get(model, value) is loaded  # the identity map answers the second read


def orm_scan(session: Session, model, *where) -> list:
    return list(session.exec(select(model).where(*where).order_by(getattr(model, primary_key(model)))))


@pytest.mark.parametrize("name", domain_names())
def test_every_table_scans_what_the_orm_selects(name: str) -> None:
    domain = get_domain(name)
    seed = domain.seed_image
    db = domain.new_database()
    for model in seed.tables:
        loader = row_loader(model, database._sqlite_dialect()[0])
        with db.transaction(may_write=False) as store:
            first = orm_scan(store.session, model)[0]
        conditions = [()] + [
            (getattr(model, prop.key) == getattr(first, prop.key),)
            for prop in inspect(model).column_attrs
            if type(getattr(first, prop.key)) in (str, int)
            and prop.columns[0].type._cached_bind_processor(database._sqlite_dialect()[0]) is None
        ]
        conditions.append(tuple(condition[0] for condition in conditions[1:3]))
        for where in conditions:
            with db.transaction(may_write=False) as fast, db.transaction(may_write=False) as orm:
                assert loader._scan(fast.session, fast.connection, where) is not None  # read without the ORM
                fast.session.expunge_all()
                loaded, expected = fast.scan(model, *where), orm_scan(orm.session, model, *where)
                assert [loaded_state(fast.session, row) for row in loaded] == [
                    loaded_state(orm.session, row) for row in expected
                ], (model.__name__, where)


def test_other_conditions_and_rows_already_loaded_go_to_the_orm() -> None:
    db, model, key = an_airline_row("Flight")
    loader = row_loader(model, database._sqlite_dialect()[0])
    with db.transaction(may_write=False) as store:
        for where in [
            (model.origin != "JFK",),
            (func.lower(model.origin) == "jfk",),
            (model.origin.is_(None),),
            (model.flight_number.in_(["HAT001"]),),
        ]:
            assert loader._scan(store.session, store.connection, where) is None
            assert store.scan(model, *where) == orm_scan(store.session, model, *where)
        first = store.get(model, key)
        where = (model.flight_number == first.flight_number,)
        assert loader._scan(store.session, store.connection, where) is None  # `first` is in the session
        assert store.scan(model, *where)[0] is first


def a_row(db: EpisodeDatabase, model_name: str):
    model = next(m for m in db.seed.tables if m.__name__ == model_name)
    (key,) = db.seed.reader.execute(
        f'SELECT "{primary_key(model)}" FROM "{table_of(model).name}" ORDER BY 1 LIMIT 1'
    ).fetchone()
    return model, key


def an_airline_row(model_name: str):
    """A fresh airline episode database, a model and the first key of its table."""
    db = get_domain("airline").new_database()
    return (db, *a_row(db, model_name))


def test_a_change_to_a_loaded_row_is_flushed_as_an_update() -> None:
    db, model, key = an_airline_row("User")
    with db.transaction() as store:
        user = store.require(model, key, "missing")
        user.email = "changed@example.com"
        store.save(user)
    assert db.written == {"users": {key}}
    with db.transaction() as store:
        assert store.require(model, key, "missing").email == "changed@example.com"
    assert db.state_hash() != get_domain("airline").new_database().state_hash()


def test_a_rolled_back_change_leaves_the_row_as_it_was() -> None:
    db, model, key = an_airline_row("User")
    before = db.state_hash()
    with pytest.raises(RuntimeError), db.transaction() as store:
        store.require(model, key, "missing").email = "lost@example.com"
        store.session.flush()
        raise RuntimeError("the tool failed")
    with db.transaction() as store:
        assert store.require(model, key, "missing").email != "lost@example.com"
    assert db.state_hash() == before


def test_a_deleted_row_is_gone_and_pending_changes_are_flushed_first() -> None:
    db, model, key = an_airline_row("Reservation")
    with db.transaction() as store:
        row = store.require(model, key, "missing")
        store.session.delete(row)
        assert store.get(model, key) is store.session.get(model, key) is row  # the ORM's answer
        store.session.flush()
        assert store.get(model, key) is None
    with db.transaction() as store:
        assert store.get(model, key) is None
        user_model, user_key = a_row(db, "User")
        user = store.require(user_model, user_key, "missing")
        user.email = "pending@example.com"  # not flushed yet
        (other,) = db.connection.execute(
            'SELECT "user_id" FROM "users" ORDER BY 1 LIMIT 1 OFFSET 1'
        ).fetchone()
        store.get(user_model, other)  # a read with a change pending goes through the ORM's autoflush
        assert db.connection.execute(
            'SELECT "email" FROM "users" WHERE "user_id" = ?', (user_key,)
        ).fetchone() == ("pending@example.com",)


def test_the_loader_takes_only_plain_keys() -> None:
    db, model, key = an_airline_row("User")
    with db.transaction(may_write=False) as store:
        assert store.get(model, 1.5) is None
        with pytest.raises(ToolError):
            store.require(model, [key], "missing")
