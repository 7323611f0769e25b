"""Per-episode SQLite databases cloned from a domain's seed image.

A domain's seed rows are written once into an in-memory SQLite database and serialized (the *seed
image*). An episode's database is copy-on-write: until its first write, its calls read the seed itself
(one read-only connection per process, which refuses every write); the first call of a tool that may
write gives it its own in-memory connection loaded from the image with
`sqlite3.Connection.deserialize` (one allocation and a memcpy; it measured 2-10x faster than the
page-by-page backup API here), and a reset drops that copy. An episode that never writes costs no
copy and no memory for one (airline's image is 3 MB).

Tools see a `Store`: a typed view over one SQLModel session that lives for exactly one tool call (its
reads by key or by equality load rows without the ORM's query machinery: row_loader.py). The session
is committed when the tool returns and rolled back when it raises: a failed call writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, partial
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple, Self, TypeVar, cast

from mcp.server.mcpserver.exceptions import ToolError
from sqlalchemy import Boolean, Integer, Table, Text, TypeDecorator, create_engine, event, inspect
from sqlalchemy.engine import URL, Dialect, Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.orm.attributes import flag_modified
from sqlalchemy.pool import StaticPool
from sqlalchemy.util import LRUCache
from sqlmodel import Session, SQLModel, func, select

from taue.envs.runtime.read_only import SeedIsReadOnly, read_only_authorizer, refusals
from taue.envs.runtime.row_loader import RowLoader, row_loader

canonical_json = partial(json.dumps, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""The one JSON encoding used for stored JSON columns and for canonical state dumps."""


def state_hash(canonical_text: str) -> str:
    """The sha256 of a canonical state dump: what the scorer compares."""
    return hashlib.sha256(canonical_text.encode("utf-8")).hexdigest()


PAGE_SIZE = 65536
Row = TypeVar("Row", bound=SQLModel)


class JSONText(TypeDecorator[Any]):
    """A JSON value stored as canonical text (TEXT affinity, so SQLite never coerces it).

    Use it for nested values and for numbers whose int/float type matters:
    `Field(sa_type=JSONText)`. JSON keeps `5` and `5.0` apart; a REAL column would not.
    """

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Any) -> str | None:
        return None if value is None else canonical_json(value)

    def process_result_value(self, value: str | None, dialect: Any) -> Any:
        return None if value is None else json.loads(value)


class Entries(NamedTuple):
    """A `DomainTable.record_key_order` for a column that maps ids to objects: each object's keys."""

    keys: tuple[str, ...]


KeyOrder = tuple[str, ...] | Entries
"""The published order of a JSON column's known nested keys: a tuple orders the object's keys (each
object's, in a list); `Entries` orders each object of an id -> object map."""


def in_key_order(value: Any, order: KeyOrder) -> Any:
    """`value` with the known keys of its objects first, in published order; the others follow in
    the stored (sorted) order, since a JSON column comes back with sorted keys."""
    if isinstance(value, list):
        return [in_key_order(item, order) for item in value]
    if not isinstance(value, dict):
        return value
    if isinstance(order, Entries):
        return {key: in_key_order(item, order.keys) for key, item in value.items()}
    known = {key: value[key] for key in order if key in value}
    return {**known, **{key: item for key, item in value.items() if key not in known}}


class DomainTable(SQLModel):
    """Base of a domain's tables: rows read and write JSON records (`to_record()`,
    `from_record(key, record)`), for the tools' answers, `taue db export` and imported task sets.

    A domain declares its own base with its own metadata, so two domains may both have a `users`
    table: `class AirlineTable(DomainTable, registry=registry())`, then
    `class User(AirlineTable, table=True)`. A model describes its published record with the class
    attributes below; by default the record is every column, in declared order.
    """

    __tablename__: ClassVar[str]
    __table__: ClassVar[Table]

    record_fields: ClassVar[tuple[str, ...]] = ()
    """The record's keys in order, when they are not every column in declared order."""
    record_has_key: ClassVar[bool] = True
    """False when the primary key is only the published dict key (or array index), not a field."""
    record_optional: ClassVar[frozenset[str]] = frozenset()
    """Columns left out of the record while they hold None."""
    record_key_order: ClassVar[Mapping[str, KeyOrder]] = MappingProxyType({})
    """JSON column -> the published order of its nested keys (`in_key_order`)."""

    def to_record(self) -> dict[str, Any]:
        """The row as its published JSON record."""
        record = {}
        for name in _record_names(type(self)):
            value = getattr(self, name)
            if not self.record_omits(name, value):
                record[name] = self.record_value(name, value)
        return record

    def record_omits(self, name: str, value: Any) -> bool:
        """Whether the record leaves out column `name` holding `value`."""
        return value is None and name in self.record_optional

    def record_value(self, name: str, value: Any) -> Any:
        """Column `name`'s value as the record shows it (its nested keys in published order)."""
        order = self.record_key_order.get(name)
        return value if order is None else in_key_order(value, order)

    @classmethod
    def from_record(cls, key: Any, record: dict[str, Any]) -> Self:
        """A row from a published record and its dict key (or array index); a record with a field the
        table lacks, or without one the table needs, does not fit (KeyError)."""
        key_name = primary_key(cls)
        unknown = sorted(set(record) - set(cls.model_fields))
        required = {name for name, info in cls.model_fields.items() if info.is_required()}
        missing = sorted(required - {*record, key_name})
        if unknown or missing:
            raise KeyError(f"unknown fields {unknown}" if unknown else f"missing fields {missing}")
        return cls(**{**record, key_name: key})


@cache
def _record_names(model: type[DomainTable]) -> tuple[str, ...]:
    names = model.record_fields or tuple(model.model_fields)
    return names if model.record_has_key else tuple(n for n in names if n != primary_key(model))


def table_of(model: type[SQLModel]) -> Table:
    """The table of a table model (sqlmodel's `SQLModel` does not declare `__table__`)."""
    table = inspect(model).local_table
    if not isinstance(table, Table):
        raise TypeError(f"{model.__name__} is not a table model")
    return table


def table_name(model: type[SQLModel]) -> str:
    return table_of(model).name


def json_columns(model: type[SQLModel]) -> tuple[str, ...]:
    """Names of the columns of `model` stored as JSON text."""
    return tuple(col.name for col in table_of(model).columns if isinstance(col.type, JSONText))


def _boolean_columns(model: type[SQLModel]) -> frozenset[str]:
    return frozenset(col.name for col in table_of(model).columns if isinstance(col.type, Boolean))


@cache
def primary_key(model: type[SQLModel]) -> str:
    """Name of the single primary-key column of `model`."""
    keys = [col.name for col in table_of(model).primary_key.columns]
    if len(keys) != 1:
        raise TypeError(f"{model.__name__} must have exactly one primary-key column, has {keys}")
    return keys[0]


@cache
def _sqlite_dialect() -> tuple[Dialect, URL, Callable[[Any], None] | None]:
    """The process's one initialized SQLite dialect, with its URL and per-connection set-up.

    A dialect describes the driver, not a database, so every episode engine shares it; the compiled
    statements are cached by dialect, and a fresh dialect per episode would compile every statement
    (and adapt every column type) again on each episode's first calls.
    """
    template = create_engine("sqlite://", creator=_new_connection, poolclass=StaticPool)
    with template.connect():  # the first connection initializes the dialect
        pass
    template.dispose()
    return template.dialect, template.url, template.dialect.on_connect()


_COMPILED_STATEMENTS: LRUCache[Any, Any] = LRUCache(4000)
"""Compiled SQL of every episode engine of the process (keys include the dialect and the statement)."""


def _engine_over(connection: sqlite3.Connection) -> Engine:
    dialect, url, on_connect = _sqlite_dialect()
    if on_connect is not None:
        on_connect(connection)
    engine = _static_engine(connection, dialect, url)
    # The pysqlite driver begins transactions lazily; make every session start one explicitly so
    # a rollback also covers writes that happened before the first flush.
    event.listen(engine, "begin", lambda conn: conn.exec_driver_sql("BEGIN"))
    return engine


def _new_connection() -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    connection.execute(f"PRAGMA page_size={PAGE_SIZE}")
    return connection


def _reader_engine(connection: sqlite3.Connection) -> Engine:
    """Turn the seed's own connection (built, vacuumed, serialized) read-only, shared by every episode
    that has not written; returns its engine.

    Without the explicit BEGIN of the episode engines: each statement is its own read, so calls of
    different episodes may interleave on the one connection.
    """
    dialect, url, _ = _sqlite_dialect()  # its on-connect set-up ran when the seed was built
    connection.execute("PRAGMA query_only=ON")
    connection.set_authorizer(read_only_authorizer)
    return _static_engine(connection, dialect, url)


def _static_engine(connection: sqlite3.Connection, dialect: Dialect, url: URL) -> Engine:
    """An engine over exactly this connection, sharing the compiled statements of every engine."""
    # typeshed's sqlite3.Connection.cursor() is narrower than SQLAlchemy's DBAPI protocol
    dbapi_connection = cast(DBAPIConnection, connection)
    return Engine(
        StaticPool(lambda: dbapi_connection, dialect=dialect),
        dialect,
        url,
        query_cache_size=0,
        execution_options={"compiled_cache": _COMPILED_STATEMENTS},
    )


class TableText:
    """Renders rows of one table as canonical JSON objects, straight from the stored values."""

    def __init__(self, model: type[SQLModel]) -> None:
        self.name = table_name(model)
        self.key = primary_key(model)
        self.columns = sorted(col.name for col in table_of(model).columns)
        self._json = set(json_columns(model))
        self._bool = _boolean_columns(model)
        self._prefixes = [canonical_json(name) + ":" for name in self.columns]
        self.id_aliases: Callable[[Any], Iterable[str]] | None = getattr(model, "id_aliases", None)
        self.created_ids_in: Callable[[dict[str, Any]], Iterable[tuple[str, Any, Any]]] | None = getattr(
            model, "created_ids_in", None
        )
        """Optional model hooks for the comparable state (envs/runtime/comparable.py)."""
        self._select = f'SELECT "{self.key}", {", ".join(self.columns)} FROM "{self.name}"'

    def render(self, values: tuple[Any, ...]) -> str:
        fields = []
        for prefix, name, value in zip(self._prefixes, self.columns, values, strict=True):
            if name in self._json:
                fields.append(prefix + ("null" if value is None else value))
            elif name in self._bool and value is not None:
                fields.append(prefix + canonical_json(bool(value)))
            else:
                fields.append(prefix + canonical_json(value))
        return "{" + ",".join(fields) + "}"

    def rows(self, connection: sqlite3.Connection, keys: Iterable[Any] | None = None) -> dict[Any, str]:
        """primary key -> row text, in primary-key order (all rows, or only `keys`)."""
        if keys is None:
            query, params = f'{self._select} ORDER BY "{self.key}"', ()
        else:
            params = tuple(keys)
            query = f'{self._select} WHERE "{self.key}" IN ({",".join("?" * len(params))})'
        return {values[0]: self.render(values[1:]) for values in connection.execute(query, params)}


@dataclass
class TableRows:
    """One table of an episode: its renderer and, if the episode wrote it, its rows and created keys."""

    text: TableText
    rows: dict[Any, str] | None = None
    """Primary key -> row text (seed rows overlaid by the written ones); None when nothing was written."""
    written: set[Any] = field(default_factory=set)
    created: list[Any] = field(default_factory=list)
    """Written keys that are not in the seed."""


class SeedImage:
    """A domain's seed database, built once per process and copied into every episode.

    It also keeps the canonical text of every seed row, so an episode's state dump re-renders only
    the rows its tools wrote.
    """

    def __init__(self, tables: Iterable[type[SQLModel]], rows: Iterable[SQLModel]) -> None:
        self.tables: tuple[type[SQLModel], ...] = tuple(sorted(tables, key=table_name))
        self._connection = _new_connection()
        engine = _engine_over(self._connection)
        for model in self.tables:
            table_of(model).create(engine)
        _insert_seed(engine, list(rows))
        self._connection.execute("VACUUM")
        self._image = self._connection.serialize()
        self.texts = {table_name(model): TableText(model) for model in self.tables}
        self.row_texts = {name: text.rows(self._connection) for name, text in self.texts.items()}
        self.table_texts = {
            name: "[" + ",".join(rows.values()) + "]" for name, rows in self.row_texts.items()
        }
        self._hashes_before = _hashes_before_each_table(self)
        self.reader = self._connection
        """The seed itself, read-only: what an episode's calls read until its first write."""
        self.reader_engine = _reader_engine(self._connection)

    def hash_of(self, parts: list[tuple[str, str]]) -> str:
        """`state_hash(_join(self, parts))`, resumed from the cached hash of the seed's text up to the
        first table with a body of its own (the seed's table text holds for the others)."""
        first = next((index for index, (_, body) in enumerate(parts) if body), len(parts))
        digest = self._hashes_before[first].copy()
        if first < len(parts):
            rest = ",".join(_segment(self, name, body) for name, body in parts[first:])
            digest.update((rest + "}").encode("utf-8"))
        return digest.hexdigest()

    @property
    def image_bytes(self) -> bytes:
        """The serialized seed database (what each episode copies)."""
        return self._image

    def copy_into(self, connection: sqlite3.Connection) -> None:
        """Replace the database behind `connection` with a private, writable copy of the seed."""
        connection.deserialize(self._image)

    def clone(self, clock: str = "") -> EpisodeDatabase:
        return EpisodeDatabase(self, clock)


def _insert_seed(engine: Engine, rows: list[SQLModel]) -> None:
    """Insert the seed rows table by table, in their order, with one executemany per table: the
    same database as the ORM's unit of work (byte for byte after VACUUM, checked on every domain),
    at less than half its cost. Models with relationships go through the ORM, which cascades them."""
    by_model: dict[type[SQLModel], list[SQLModel]] = {}
    for row in rows:
        by_model.setdefault(type(row), []).append(row)
    if any(inspect(model).relationships for model in by_model):
        with Session(engine) as session:
            session.add_all(rows)
            session.commit()
        return
    with engine.begin() as connection:
        for model, items in by_model.items():
            table = table_of(model)
            names = [
                (a.key, a.columns[0].key) for a in inspect(model).column_attrs if a.columns[0].table is table
            ]
            connection.execute(
                table.insert(), [{column: getattr(row, key) for key, column in names} for row in items]
            )


class _EpisodeSession(Session):
    """A tool call's session; `info["database"]` is the `EpisodeDatabase` it notes its writes in."""


@event.listens_for(_EpisodeSession, "after_flush")
def _note_writes(session: Session, _context: Any) -> None:
    # One listener on the class: listening on each new session costs more than many a tool call.
    session.info["database"].note_writes(session)


class EpisodeDatabase:
    """One episode's database: the shared seed until its first write, then a private copy."""

    def __init__(self, seed: SeedImage, clock: str = "") -> None:
        self.seed = seed
        self.clock = clock
        self._private: tuple[sqlite3.Connection, Engine] | None = None
        self.written: dict[str, set[Any]] = {}
        """Primary keys of rows written since the last reset, per table (a superset is harmless)."""

    @property
    def copied(self) -> bool:
        """Whether the episode has its own copy of the seed (it wrote, or a call that may write ran)."""
        return self._private is not None

    @property
    def connection(self) -> sqlite3.Connection:
        """The connection holding the episode's state (the shared seed's until the first write)."""
        return self._private[0] if self._private is not None else self.seed.reader

    @property
    def engine(self) -> Engine:
        """The engine over `connection` (the shared seed's, read-only, until the first write)."""
        return self._private[1] if self._private is not None else self.seed.reader_engine

    def _own_engine(self) -> Engine:
        if self._private is None:
            connection = _new_connection()
            self.seed.copy_into(connection)
            self._private = (connection, _engine_over(connection))
        return self._private[1]

    def reset(self) -> None:
        """Return to the seed state (the caller re-applies any task initial state)."""
        self.close()
        self.written.clear()

    @contextmanager
    def transaction(self, may_write: bool = True) -> Iterator[Store]:
        """A `Store` whose writes are committed together, or not at all if the block raises.

        With `may_write=False` and no copy yet, the block reads the shared seed; a write there raises
        `SeedIsReadOnly` (after a rollback) for the caller to run the block again with `may_write=True`.
        """
        if may_write or self._private is not None:
            engine = self._own_engine()
            with self._session(engine, self.connection) as store:
                yield store
            return
        refused: list[int] = []
        token = refusals.set(refused)
        try:
            with self._session(self.seed.reader_engine, self.seed.reader) as store:
                yield store
        except Exception as exc:
            if refused:  # whatever the block made of its refused write
                raise SeedIsReadOnly from exc
            raise
        finally:
            refusals.reset(token)
        if refused:  # the block caught the refusal itself
            raise SeedIsReadOnly

    @contextmanager
    def _session(self, engine: Engine, connection: sqlite3.Connection) -> Iterator[Store]:
        with _EpisodeSession(engine, expire_on_commit=False, info={"database": self}) as session:
            try:
                yield Store(session, self.clock, connection)
                session.commit()
            except BaseException:
                session.rollback()
                raise

    def note_writes(self, session: Session) -> None:
        for row in (*session.new, *session.dirty, *session.deleted):
            table = table_name(type(row))
            self.written.setdefault(table, set()).add(getattr(row, self.seed.texts[table].key))

    def canonical_state(self) -> str:
        """Every table in primary-key order, rows with sorted keys, as one canonical JSON text.

        Unwritten tables and rows come from the seed's cached text; written rows are re-rendered
        from their stored values (JSON columns are already canonical text, spliced in as is).
        """
        return _join(self.seed, [(t.text.name, _body(t)) for t in self._tables()])

    def comparable_state(self) -> str:
        """The canonical state with the ids the episode created renamed by content (comparable.py).

        The same text as `canonical_state()` when the episode created nothing; the scorer's hashes
        are of this text, so the order of independent creations does not change them.
        """
        return self._comparable(self._tables())

    def state_hash(self) -> str:
        """sha256 of the comparable state: what the scorer compares."""
        from taue.envs.runtime.comparable import comparable_tables, created_things

        tables = self._tables()
        created = created_things(tables)
        parts = comparable_tables(tables, created) if created else [(t.text.name, _body(t)) for t in tables]
        return self.seed.hash_of(parts)

    def state_and_hash(self) -> tuple[str, str]:
        """The canonical state and the sha256 of the comparable state, from one read of the rows."""
        tables = self._tables()
        text = _join(self.seed, [(t.text.name, _body(t)) for t in tables])
        return text, state_hash(self._comparable(tables, text))

    def _comparable(self, tables: list[TableRows], canonical: str | None = None) -> str:
        from taue.envs.runtime.comparable import comparable_tables, created_things

        created = created_things(tables)
        if created:
            return _join(self.seed, comparable_tables(tables, created))
        return canonical or _join(self.seed, [(t.text.name, _body(t)) for t in tables])

    def _tables(self) -> list[TableRows]:
        tables = []
        for name, text in self.seed.texts.items():
            keys = self.written.get(name)
            if not keys:
                tables.append(TableRows(text))
                continue
            rows = dict(self.seed.row_texts[name])
            current = text.rows(self.connection, keys)
            created = []
            for key in keys:
                if key in current:
                    if key not in rows:
                        created.append(key)
                    rows[key] = current[key]
                else:
                    rows.pop(key, None)
            tables.append(TableRows(text, rows, keys, created))
        return tables

    def close(self) -> None:
        """Drop the private copy, if any (the episode reads the seed again)."""
        if self._private is not None:
            connection, engine = self._private
            self._private = None
            engine.dispose()
            connection.close()


def _body(table: TableRows) -> str:
    """A written table's text in primary-key order ("" for an unwritten one: the seed's text holds)."""
    if table.rows is None:
        return ""
    rows = table.rows
    ordered = (rows[key] for key in sorted(rows)) if table.created else rows.values()
    return "[" + ",".join(ordered) + "]"


def _join(seed: SeedImage, parts: list[tuple[str, str]]) -> str:
    return "{" + ",".join(_segment(seed, name, body) for name, body in parts) + "}"


def _segment(seed: SeedImage, name: str, body: str) -> str:
    """One table in a state text: its name and its body ("" for the seed's text)."""
    return canonical_json(name) + ":" + (body or seed.table_texts[name])


def _hashes_before_each_table(seed: SeedImage) -> list[Any]:
    """sha256 states of the seed's state text up to each table (its separating comma included) and,
    last, of the whole text: an episode's hash resumes from the one before its first written table."""
    digest = hashlib.sha256(b"{")
    states = []
    for index, name in enumerate(seed.table_texts):
        if index:
            digest.update(b",")
        states.append(digest.copy())
        digest.update(_segment(seed, name, "").encode("utf-8"))
    digest.update(b"}")
    return [*states, digest]


def _reader(model: type[SQLModel]) -> RowLoader:
    return row_loader(model, _sqlite_dialect()[0])


class Store:
    """What a tool sees of its episode's database during one call (its reads: row_loader.py)."""

    def __init__(self, session: Session, clock: str, connection: sqlite3.Connection) -> None:
        self.session = session
        self.clock = clock
        """The domain's simulated "now" (ISO 8601); tools never read the machine's clock."""
        self.connection = connection  # the SQLite connection under `session`

    def get(self, model: type[Row], key: Any) -> Row | None:
        return _reader(model).get(self.session, self.connection, key)

    def require(self, model: type[Row], key: Any, error: str) -> Row:
        """The row with primary key `key`, or a `ToolError` with the given message."""
        row = self.get(model, key) if isinstance(key, str | int) else None
        if row is None:
            raise ToolError(error)
        return row

    def scan(self, model: type[Row], *where: Any) -> list[Row]:
        """Rows of `model` in primary-key order; `where` filters in SQL (e.g. `Flight.origin == "JFK"`)."""
        return _reader(model).scan(self.session, self.connection, where)

    def next_id(self, model: type[SQLModel], prefix: str, first: int = 1, width: int = 0) -> str:
        """The id for a new row of `model`: `prefix` + one above the highest number among its keys
        that start with `prefix` (or `first` when there are none), zero-padded to `width` digits.
        One SQL aggregate, not a scan: writes call it on tables of thousands of rows."""
        column = getattr(model, primary_key(model))
        number = func.cast(func.substr(column, len(prefix) + 1), Integer)
        highest = self.session.exec(select(func.max(number)).where(column.startswith(prefix))).one()
        return f"{prefix}{(first if highest is None else highest + 1):0{width}d}"

    def save(self, row: SQLModel) -> None:
        """Persist `row`, including in-place edits of its JSON columns."""
        for name in json_columns(type(row)):
            flag_modified(row, name)
        self.session.add(row)
        self.session.flush()

    def count(self, model: type[SQLModel]) -> int:
        return self.session.exec(select(func.count()).select_from(model)).one()
