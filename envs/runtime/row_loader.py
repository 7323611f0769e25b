"""Rows by primary key or by equalities, read straight from SQLite into a tool call's session.

`Store.get`, `Store.require` and `Store.scan` are most of a tool call's work (about 30 reads by key
and 6 scans per oracle episode, with the ground-truth replays), and SQLAlchemy spends about 0.2 ms
of CPU on a `Session.get` and more on a select: a new statement, its cache key, the ORM's execution
context and result machinery, around a query that SQLite answers in microseconds. For a plain table
model (columns of one table only: no relationships, inheritance, versioning or deferred columns)
this module runs one prepared `SELECT` on the episode's own connection and registers each row's
instance in the session's identity map exactly as the ORM's loader does
(`sqlalchemy.orm.loading._instance` for a row not yet in the session): the same persistent object,
its committed state clean, changes to it flushed as an `UPDATE`.

Anything else is the ORM's own `Session.get` or select: a model that is more than plain columns, a
key or a compared value that is not a plain `str` or `int` (or that the column's type converts), a
condition other than `column == value`, a session with pending changes (the ORM's autoflush comes
first), a key or row already in the session's identity map, or ORM events to run.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from functools import cache
from typing import Any

from sqlalchemy import Table, inspect
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import ColumnProperty, Mapper
from sqlalchemy.orm.base import instance_dict, instance_state
from sqlalchemy.orm.loading import _new_runid
from sqlalchemy.sql import operators
from sqlalchemy.sql.elements import BinaryExpression, BindParameter, ColumnClause
from sqlmodel import Session, SQLModel, select

Values = tuple[Any, ...] | list[Any]


class RowLoader:
    """Reads the rows of one table model: without the ORM's query machinery when the model is plain
    columns (`plain`) and the read allows it, through the ORM otherwise."""

    def __init__(self, mapper: Mapper[Any], dialect: Dialect) -> None:
        self.mapper = mapper
        self.cls = mapper.class_
        (key_column,) = mapper.primary_key
        self.key_attribute = getattr(self.cls, mapper.get_property_by_column(key_column).key)
        table = mapper.local_table
        self.plain = isinstance(table, Table) and _plain_model(mapper, table, dialect)
        if not isinstance(table, Table) or not self.plain:
            return
        props = [prop for prop in mapper.column_attrs if isinstance(prop, ColumnProperty)]
        self.keys = tuple(prop.key for prop in props)
        columns = [prop.columns[0] for prop in props]
        self.key_index = next(index for index, column in enumerate(columns) if column is key_column)
        names = ", ".join(f'"{column.name}"' for column in columns)
        self.select = f'SELECT {names} FROM "{table.name}"'
        self.by_key = f'{self.select} WHERE "{key_column.name}" = ?'
        self.order = f' ORDER BY "{key_column.name}"'
        self.table = table
        self.dialect = dialect
        self.processors: tuple[tuple[int, Callable[[Any], Any]], ...] = tuple(
            (index, processor)
            for index, column in enumerate(columns)
            if (processor := column.type._cached_result_processor(dialect, None)) is not None
        )
        self.load_path = mapper._path_registry

    def get(self, session: Session, connection: sqlite3.Connection, key: Any) -> Any:
        """The row with primary key `key` as `session.get(model, key)` gives it (None when absent)."""
        if not self.plain or type(key) not in (str, int) or not self._plain(session):
            return session.get(self.cls, key)
        identity_map = session.identity_map
        if (self.cls, (key,), None) in identity_map:
            return session.get(self.cls, key)
        found = connection.execute(self.by_key, (key,)).fetchone()
        if found is None:
            return None
        values = self._values(found)
        identity_key = (self.cls, (values[self.key_index],), None)
        if identity_key in identity_map:  # stored under another form of the key (5 for "5")
            return session.get(self.cls, key)
        return self._register(session, identity_key, values)

    def scan(self, session: Session, connection: sqlite3.Connection, where: tuple[Any, ...]) -> list[Any]:
        """The rows of `select(model).where(*where).order_by(key)`, as the ORM gives them."""
        rows = self._scan(session, connection, where) if self.plain and self._plain(session) else None
        if rows is None:
            return list(session.exec(select(self.cls).where(*where).order_by(self.key_attribute)))
        return rows

    def _scan(
        self, session: Session, connection: sqlite3.Connection, where: tuple[Any, ...]
    ) -> list[Any] | None:
        tests, params = [], []
        for clause in where:
            test = self._equality(clause)
            if test is None:
                return None
            tests.append(f'"{test[0]}" = ?')
            params.append(test[1])
        sql = self.select + (" WHERE " + " AND ".join(tests) if tests else "") + self.order
        rows = [self._values(found) for found in connection.execute(sql, params)]
        keys = [(self.cls, (values[self.key_index],), None) for values in rows]
        identity_map = session.identity_map
        if any(key in identity_map for key in keys):
            return None
        return [self._register(session, key, values) for key, values in zip(keys, rows, strict=True)]

    def _equality(self, clause: Any) -> tuple[str, Any] | None:
        """(column name, value) for `column == value` on this table, with a plain `str` or `int` value
        the column's type binds as it is; None for anything else."""
        if (
            not isinstance(clause, BinaryExpression)
            or clause.operator is not operators.eq
            or clause.modifiers
        ):
            return None
        column, value = clause.left, clause.right
        if not isinstance(column, ColumnClause) or column.table is not self.table:
            return None
        if not isinstance(value, BindParameter) or value.callable is not None or value.expanding:
            return None
        if type(value.value) not in (str, int) or value.type._cached_bind_processor(self.dialect) is not None:
            return None
        return column.name, value.value

    def _values(self, found: tuple[Any, ...]) -> Values:
        if not self.processors:
            return found
        values = list(found)
        for index, processor in self.processors:
            values[index] = processor(values[index])
        return values

    def _register(self, session: Session, identity_key: Any, values: Values) -> Any:
        """A persistent instance of the row in `session`, as the ORM's loader makes it."""
        instance = self.mapper.class_manager.new_instance()
        state, dict_ = instance_state(instance), instance_dict(instance)
        state.key = identity_key
        state.identity_token = None
        state.session_id = session.hash_key
        session.identity_map._add_unpresent(state, identity_key)
        state.load_options = ()
        state.load_path = self.load_path
        state.runid = _new_runid()
        dict_.update(zip(self.keys, values, strict=True))
        return instance

    def _plain(self, session: Session) -> bool:
        """Whether the ORM would only run the query and load the rows: nothing to flush first, no ORM
        events to run."""
        return (
            session._is_clean()
            and not session.dispatch.do_orm_execute
            and not session.dispatch.loaded_as_persistent
            and not self.mapper.class_manager.dispatch.load
        )


@cache
def row_loader(model: type[SQLModel], dialect: Dialect) -> RowLoader:
    """The loader of `model` (one per model and process)."""
    return RowLoader(inspect(model), dialect)


def _plain_model(mapper: Mapper[Any], table: Table, dialect: Dialect) -> bool:
    """Whether rows of `mapper` are plain columns of `table`, keyed by one column bound as it is."""
    return (
        not mapper.relationships
        and mapper.inherits is None
        and mapper.polymorphic_on is None
        and mapper.version_id_col is None
        and not mapper.always_refresh
        and mapper.primary_key[0].type._cached_bind_processor(dialect) is None
        and all(
            isinstance(prop, ColumnProperty)
            and len(prop.columns) == 1
            and prop.columns[0].table is table
            and not prop.deferred
            for prop in mapper.attrs
        )
    )
