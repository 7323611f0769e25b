"""The comparable state: the canonical state with the ids the episode created renamed by content.

Tools number what they create from a counter (airline `HATHAT`, `HATHAU`; telecom `TICKET241`;
telehealth `APPT101` with its `AUTH000101`; airline certificates `certificate_3221322`, …), so two
independent creations made in the opposite order swap ids and the canonical state changes although
the same things were created. The comparable state removes that: every created id becomes a
placeholder `@created:<kind>:<n>`, numbered in the order of the created things' content (their
text with every created id blanked), and the placeholder replaces the id as a whole token everywhere
in the rows the episode wrote: references in other tables, JSON values, dict keys and substrings
such as a meeting link. In any JSON list the placeholders are sorted among the positions they hold,
so a list of created ids (a user's reservations) does not record the creation order either.

Created ids are the primary keys of rows that are not in the seed database, plus ids a model
declares itself:

- `Model.id_aliases(key) -> list[str]`: other strings derived from a created row's key
  (telehealth: `APPT101` -> `AUTH000101`);
- `Model.created_ids_in(record) -> list[(kind, id, content)]`: ids created inside a row rather
  than as rows (airline certificates inside a user's payment methods). They are scoped to that row
  (two users may each hold a `certificate_3221322`): numbered and renamed within it only.

Integer keys are only renamed in their own key column (nothing refers to them by text).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from taue.envs.runtime.database import TableRows, canonical_json

PREFIX = "@created:"
BLANK = "*"


@dataclass
class _Created:
    kind: str
    ident: Any
    content: Any
    key_column: str | None = None
    """The created row's key column; None for an id created inside a row."""
    aliases: list[str] = field(default_factory=list)
    holder: tuple[str, Any] | None = None
    """(table, key) of the row an id created inside a row belongs to (its scope)."""
    placeholder: str = ""


def created_things(tables: list[TableRows]) -> list[_Created]:
    """Every created id of the episode: created rows, then ids models report inside written rows."""
    found: list[_Created] = []
    for table in tables:
        if table.rows is None:
            continue
        text = table.text
        for key in table.created:
            aliases = list(text.id_aliases(key)) if text.id_aliases and isinstance(key, str) else []
            found.append(_Created(text.name, key, json.loads(table.rows[key]), text.key, aliases))
        if text.created_ids_in:
            for key in sorted(table.written & table.rows.keys(), key=str):
                for kind, ident, content in text.created_ids_in(json.loads(table.rows[key])):
                    found.append(_Created(kind, ident, content, holder=(text.name, key)))
    return found


def comparable_tables(tables: list[TableRows], created: list[_Created]) -> list[tuple[str, str]]:
    """(table name, table text) of the comparable state; `created` is not empty.

    Created rows are numbered per table; ids created inside a row per kind within that row (they
    are scoped to it: two users may each hold a `certificate_3221322`) and renamed in it only.
    """
    blank = _Renamer({alias: BLANK for c in created for alias in _names(c)})
    groups: dict[tuple[str, tuple[str, Any] | None], list[tuple[str, str, _Created]]] = defaultdict(list)
    for c in created:
        content = blank.apply(c.content)
        if c.key_column is not None:
            content[c.key_column] = BLANK
        groups[(c.kind, c.holder)].append((canonical_json(content), str(c.ident), c))
    mappings: dict[tuple[str, Any] | None, dict[str, str]] = defaultdict(dict)
    for (kind, holder), items in groups.items():
        mapping = mappings[holder]
        for index, (_, _, c) in enumerate(sorted(items, key=lambda item: item[:2]), start=1):
            c.placeholder = f"{PREFIX}{kind}:{index:04d}"
            if isinstance(c.ident, str):
                mapping[c.ident] = c.placeholder
            mapping.update({alias: f"{c.placeholder}~{n}" for n, alias in enumerate(c.aliases, start=1)})
    everywhere = mappings.pop(None, {})
    scoped = {h: _Renamer({**everywhere, **local}) for h, local in mappings.items() if h is not None}
    placeholders = {(c.kind, c.ident): c.placeholder for c in created if c.holder is None}
    renamer = _Renamer(everywhere)
    return [(t.text.name, _table_text(t, renamer, scoped, placeholders)) for t in tables]


def _names(c: _Created) -> list[str]:
    return ([c.ident] if isinstance(c.ident, str) else []) + c.aliases


def _table_text(
    table: TableRows,
    rename: _Renamer,
    scoped: dict[tuple[str, Any], _Renamer],
    placeholders: dict[tuple[str, Any], str],
) -> str:
    if table.rows is None:
        return ""  # the caller uses the seed's cached text
    name, rows = table.text.name, table.rows  # rows: this episode's own copy, edited in place
    new = []
    for key in table.created:
        row = rename.apply(json.loads(rows.pop(key)))
        row[table.text.key] = placeholders[(name, key)]
        new.append((row[table.text.key], canonical_json(row)))
    for key in table.written & rows.keys():
        renamer = scoped.get((name, key), rename)
        if renamer.occurs_in(rows[key]):
            rows[key] = canonical_json(renamer.apply(json.loads(rows[key])))
    return "[" + ",".join([*rows.values(), *(text for _, text in sorted(new))]) + "]"


class _Renamer:
    """Replaces whole-token occurrences of some strings, in every string and dict key of a JSON value."""

    def __init__(self, mapping: dict[str, str]) -> None:
        self.mapping = mapping
        names = sorted(mapping, key=len, reverse=True)
        self.pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, names)) + r")(?!\w)")

    def occurs_in(self, text: str) -> bool:
        return bool(self.mapping) and self.pattern.search(text) is not None

    def apply(self, value: Any) -> Any:
        if not self.mapping:
            return value
        return _walk(value, lambda s: self.pattern.sub(lambda m: self.mapping[m.group(0)], s))


def _walk(value: Any, rename: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return rename(value)
    if isinstance(value, dict):
        return {rename(k): _walk(v, rename) for k, v in value.items()}
    if isinstance(value, list):
        return _sort_placeholders([_walk(v, rename) for v in value])
    return value


def _sort_placeholders(items: list[Any]) -> list[Any]:
    """Sort the placeholder strings of a list among the positions they hold; the rest stay put."""
    positions = [i for i, v in enumerate(items) if isinstance(v, str) and v.startswith(PREFIX)]
    for position, value in zip(positions, sorted(items[i] for i in positions), strict=True):
        items[position] = value
    return items
