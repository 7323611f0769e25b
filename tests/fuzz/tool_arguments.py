"""Hypothesis strategies for one tool's arguments, built from its JSON input schema.

A mix, so that the fuzzer both reaches deep into the tools and attacks their edges:
- **gold**: argument objects of the tasks' ground-truth calls (real ids of the seed database, so many
  calls succeed), as they are or with one field swapped for another value;
- **shaped**: every property drawn from its schema or from values of the seed database with the same
  field name (ids, emails, dates), optional properties sometimes left out;
- **broken**: a shaped object with a required field dropped, an unknown field added, a field of the
  wrong type, a huge or odd string, an extreme number, or no object at all.
Strings are any Unicode Hypothesis draws except lone surrogates, which a JSON text in UTF-8 cannot carry
(the MCP client refuses to encode them; tests/fuzz/test_tool_fuzz.py sends them raw on purpose).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from hypothesis import strategies as st

from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.domain import Domain

POOL_SIZE = 25
"""Values kept per field name: enough variety, cheap to build (a few rows of every table)."""
EDGE_INTEGERS = (0, -1, 1, -(2**31), 2**31, 2**53 + 1, 2**63 - 1, 2**63, -(2**63) - 1, 10**30)
EDGE_STRINGS = (
    "",
    " ",
    "\x00",
    "\n\t\r",
    "' OR '1'='1' --",
    "%s%n%x",
    "../../../../etc/passwd",
    "null",
    "NaN",
    "-1",
    "1e309",
    "2024-02-30",
    "\u202e\u0645\u0631\u062d\u0628\u0627",
    "\U0001f600\U0001f469\u200d\U0001f4bb",
    "\ufeffZ\u0351\u0365\u0364",
)
Json = Any

texts = st.one_of(st.text(max_size=40), st.sampled_from(EDGE_STRINGS))
huge_strings = st.integers(min_value=5_000, max_value=200_000).map(lambda n: ("Ж\u00e9x" * n)[:n])
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(EDGE_INTEGERS),
    st.floats(allow_nan=False, allow_infinity=False),
    texts,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=8,
)
not_objects = st.one_of(st.none(), st.integers(), texts, st.lists(json_values, max_size=3))


@dataclass(frozen=True)
class ToolSurface:
    """What the fuzzer knows of one tool: its schema, the tasks' calls of it, the seed's values."""

    name: str
    schema: dict[str, Any]
    gold: tuple[dict[str, Any], ...]
    pools: dict[str, tuple[Json, ...]]

    @property
    def properties(self) -> dict[str, Any]:
        return self.schema.get("properties", {})

    @property
    def required(self) -> list[str]:
        return list(self.schema.get("required", []))


def tool_surface(domain_name: str, tool_name: str) -> ToolSurface:
    domain = get_domain(domain_name)
    gold = tuple(args for name, args in gold_calls(domain_name) if name == tool_name)
    return ToolSurface(tool_name, domain.mcp_tools[tool_name].parameters, gold, domain_pools(domain_name))


@cache
def gold_calls(domain_name: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    """(tool, arguments) of every ground-truth and initial-state action of the domain's tasks."""
    calls: dict[str, tuple[str, dict[str, Any]]] = {}
    for task in get_domain(domain_name).tasks:
        for action in (*task.initial_state, *task.evaluation.actions):
            calls.setdefault(
                json.dumps([action.name, action.arguments], sort_keys=True),
                (action.name, dict(action.arguments)),
            )
    return tuple(calls.values())


@cache
def domain_pools(domain_name: str) -> dict[str, tuple[Json, ...]]:
    """Field name -> values seen in the first rows of every seed table and in the gold calls."""
    domain = get_domain(domain_name)
    pools: dict[str, dict[str, Json]] = {}
    for record in _first_rows(domain):
        _collect(record, pools)
    for _, arguments in gold_calls(domain_name):
        for key, value in arguments.items():
            pools.setdefault(key, {}).setdefault(json.dumps(value, sort_keys=True), value)
    return {key: tuple(values.values())[: POOL_SIZE * 2] for key, values in pools.items()}


def _first_rows(domain: Domain) -> Iterable[dict[str, Json]]:
    db = domain.new_database()
    try:
        connection: sqlite3.Connection = db.connection
        for table in domain.tables:
            cursor = connection.execute(f'SELECT * FROM "{table.__tablename__}" LIMIT {POOL_SIZE}')
            columns = [column[0] for column in cursor.description]
            for row in cursor.fetchall():
                yield {column: _maybe_json(value) for column, value in zip(columns, row, strict=True)}
    finally:
        db.close()


def _maybe_json(value: Json) -> Json:
    if isinstance(value, str) and value[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _collect(value: Json, pools: dict[str, dict[str, Json]], key: str | None = None) -> None:
    if isinstance(value, dict):
        for inner_key, inner in value.items():
            _collect(inner, pools, inner_key)
    elif isinstance(value, list):
        for inner in value:
            _collect(inner, pools, key)
    elif key is not None and value is not None:
        pool = pools.setdefault(key, {})
        if len(pool) < POOL_SIZE:
            pool.setdefault(json.dumps(value), value)


# ---------------------------------------------------------------------------------------------
# strategies


def tool_arguments(surface: ToolSurface) -> st.SearchStrategy[Json]:
    """Arguments for one call of the tool: gold, shaped or broken (see the module docstring)."""
    shaped = shaped_arguments(surface)
    options = [shaped, shaped.flatmap(lambda arguments: broken(surface, arguments))]
    if surface.gold:
        options.insert(0, st.sampled_from(surface.gold).flatmap(lambda gold: mutated_gold(surface, gold)))
    return st.one_of(options)


def shaped_arguments(surface: ToolSurface) -> st.SearchStrategy[dict[str, Json]]:
    required = {name: field_value(surface, name, surface.properties[name]) for name in surface.required}
    optional = {
        name: field_value(surface, name, schema)
        for name, schema in surface.properties.items()
        if name not in required
    }
    return st.fixed_dictionaries(required, optional=optional)


def mutated_gold(surface: ToolSurface, gold: dict[str, Json]) -> st.SearchStrategy[dict[str, Json]]:
    """The gold arguments as they are, or with one field drawn afresh (a nearby, often failing, call)."""
    if not gold:
        return st.just(gold)
    swapped = st.sampled_from(sorted(gold)).flatmap(
        lambda key: field_value(surface, key, surface.properties.get(key, {})).map(
            lambda value: {**gold, key: value}
        )
    )
    return st.one_of(st.just(gold), swapped)


def broken(surface: ToolSurface, arguments: dict[str, Json]) -> st.SearchStrategy[Json]:
    """The arguments made invalid in one way (the tool must refuse them without changing anything)."""
    ways: list[st.SearchStrategy[Json]] = [
        st.dictionaries(texts, json_values, min_size=1, max_size=3).map(lambda extra: {**extra, **arguments}),
        not_objects,
    ]
    if arguments:
        keys = st.sampled_from(sorted(arguments))
        bad_value = st.one_of(json_values, huge_strings, st.sampled_from(EDGE_INTEGERS))
        ways.append(keys.map(lambda key: {k: v for k, v in arguments.items() if k != key}))
        ways.append(st.tuples(keys, bad_value).map(lambda kv: {**arguments, kv[0]: kv[1]}))
    return st.one_of(ways)


def field_value(surface: ToolSurface, name: str, schema: dict[str, Any]) -> st.SearchStrategy[Json]:
    """A value for property `name`: from the seed's values of that field, or drawn from its schema."""
    drawn = from_schema(schema, surface.schema.get("$defs", {}))
    pooled = surface.pools.get(name) or surface.pools.get(name.removesuffix("s"))
    if not pooled:
        return drawn
    if schema.get("type") == "array" and name not in surface.pools:
        return st.one_of(st.lists(st.sampled_from(pooled), min_size=1, max_size=3), drawn)
    return st.one_of(st.sampled_from(pooled), drawn)


def from_schema(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[Json]:
    """Values of a (pydantic-made) JSON schema; unknown constructs give any JSON value."""
    if "$ref" in schema:
        return st.deferred(lambda: from_schema(defs[schema["$ref"].rsplit("/", 1)[-1]], defs))
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "const" in schema:
        return st.just(schema["const"])
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    if alternatives:
        return st.one_of([from_schema(option, defs) for option in alternatives])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**schema, "type": one}, defs) for one in kind])
    builder = _BUILDERS.get(kind) if isinstance(kind, str) else None
    return builder(schema, defs) if builder else json_values


def _strings(schema: dict[str, Any], _: dict[str, Any]) -> st.SearchStrategy[Json]:
    description = schema.get("description", "")
    if "YYYY-MM-DD" in description:
        days = st.dates(dt.date(2023, 1, 1), dt.date(2026, 12, 31)).map(dt.date.isoformat)
        return st.one_of(days, texts)
    if "HH:MM" in description:
        return st.one_of(st.times().map(lambda t: t.strftime("%H:%M")), texts)
    return texts


def _integers(schema: dict[str, Any], _: dict[str, Any]) -> st.SearchStrategy[Json]:
    bounded = st.integers(schema.get("minimum", -5), schema.get("maximum", 200))
    return st.one_of(bounded, st.sampled_from(EDGE_INTEGERS))


def _numbers(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[Json]:
    floats = st.floats(-1e6, 1e9, allow_nan=False, allow_infinity=False).map(lambda x: round(x, 2))
    return st.one_of(floats, _integers(schema, defs))


def _arrays(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[Json]:
    return st.lists(from_schema(schema.get("items", {}), defs), max_size=4)


def _objects(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[Json]:
    properties: dict[str, Any] = schema.get("properties", {})
    if not properties:
        return st.dictionaries(texts, json_values, max_size=3)
    required = set(schema.get("required", []))
    return st.fixed_dictionaries(
        {name: from_schema(sub, defs) for name, sub in properties.items() if name in required},
        optional={name: from_schema(sub, defs) for name, sub in properties.items() if name not in required},
    )


_BUILDERS = {
    "string": _strings,
    "integer": _integers,
    "number": _numbers,
    "boolean": lambda _schema, _defs: st.booleans(),
    "null": lambda _schema, _defs: st.none(),
    "array": _arrays,
    "object": _objects,
}
