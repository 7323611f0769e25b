"""One row by primary key, read straight from SQLite into a tool call's session.

`Store.get` and `Store.require` are most of a tool call's reads (about 30 per oracle episode, with
the ground-truth replays), and SQLAlchemy's `Session.get` spends about 0.2 ms of CPU on each: a new
statement, its cache key, the ORM's execution context and result machinery, around a query that
SQLite answers in microseconds. For a plain table model (columns only: no relationships, inheritance,
versioning, deferred columns or load events) this module reads the row with one prepared `SELECT` on
the episode's own connection and registers the instance in the session's identity map exactly as the
ORM's loader does (`sqlalchemy.orm.loading._instance` for a row not yet in the session): the same
persistent object, its committed state clean, changes to it flushed as an `UPDATE`.

Anything else goes to `Session.get` itself: a model this cannot load, a key that is not a plain `str`
or `int`, a session with pending changes (its autoflush comes first), a key or row already in the
session's identity map, or a session or class with ORM events to run.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import Table, inspect
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import ColumnProperty, Mapper, Session
from sqlalchemy.orm.base import instance_dict, instance_state
from sqlalchemy.orm.loading import _new_runid
from sqlmodel import SQLModel

Row = TypeVar("Row", bound=SQLModel)


class RowLoader:
    """Loads rows of one plain table model by primary key, bypassing the ORM's query machinery."""

    def __init__(self, mapper: Mapper[Any], table: Table, dialect: Dialect) -> None:
        self.mapper = mapper
        self.cls = mapper.class_
        props = [prop for prop in mapper.column_attrs if isinstance(prop, ColumnProperty)]
        self.keys = tuple(prop.key for prop in props)
        columns = [prop.columns[0] for prop in props]
        (key_column,) = mapper.primary_key
        self.key_index = next(index for index, column in enumerate(columns) if column is key_column)
        names = ", ".join(f'"{column.name}"' for column in columns)
        self.sql = f'SELECT {names} FROM "{table.name}" WHERE "{key_column.name}" = ?'
        self.processors: tuple[tuple[int, Callable[[Any], Any]], ...] = tuple(
            (index, processor)
            for index, column in enumerate(columns)
            if (processor := column.type._cached_result_processor(dialect, None)) is not None
        )
        self.load_path = mapper._path_registry

    def get(self, session: Session, connection: sqlite3.Connection, key: Any) -> Any:
        """The row with primary key `key` as `session.get(model, key)` gives it (None when absent)."""
        if type(key) not in (str, int) or not self._plain(session):
            return session.get(self.cls, key)
        identity_map = session.identity_map
        if (self.cls, (key,), None) in identity_map:
            return session.get(self.cls, key)
        values = connection.execute(self.sql, (key,)).fetchone()
        if values is None:
            return None
        if self.processors:
            values = list(values)
            for index, processor in self.processors:
                values[index] = processor(values[index])
        identity_key = (self.cls, (values[self.key_index],), None)
        if identity_key in identity_map:  # stored under another form of the key (5 for "5")
            return session.get(self.cls, key)
        instance = self.mapper.class_manager.new_instance()
        state, dict_ = instance_state(instance), instance_dict(instance)
        state.key = identity_key
        state.identity_token = None
        state.session_id = session.hash_key
        identity_map._add_unpresent(state, identity_key)
        state.load_options = ()
        state.load_path = self.load_path
        state.runid = _new_runid()
        dict_.update(zip(self.keys, values, strict=True))
        return instance

    def _plain(self, session: Session) -> bool:
        """Whether `session.get` would only run the query and load the row: nothing to flush first, no
        ORM events to run."""
        return (
            session._is_clean()
            and not session.dispatch.do_orm_execute
            and not session.dispatch.loaded_as_persistent
            and not self.mapper.class_manager.dispatch.load
        )


@cache
def row_loader(model: type[SQLModel], dialect: Dialect) -> RowLoader | None:
    """The loader of `model`, or None when the model is more than plain columns."""
    mapper = inspect(model)
    table = mapper.local_table
    plain = (
        isinstance(table, Table)
        and not mapper.relationships
        and mapper.inherits is None
        and mapper.polymorphic_on is None
        and mapper.version_id_col is None
        and not mapper.always_refresh
        and len(mapper.primary_key) == 1
        and mapper.primary_key[0].type._cached_bind_processor(dialect) is None
        and all(
            isinstance(prop, ColumnProperty)
            and len(prop.columns) == 1
            and prop.columns[0].table is table
            and not prop.deferred
            for prop in mapper.attrs
        )
    )
    return RowLoader(mapper, table, dialect) if plain and isinstance(table, Table) else None
