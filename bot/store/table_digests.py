"""The tables of a database and a digest of each (its row count and a sha256 over its rows):
what `laurel db copy` verifies a copy with, and `laurel db check --against` compares two
databases by, whichever engines hold them.

A row is rendered as the JSON array of its values (so 1, "1" and null differ) in the column
order of the SQLite schema; rows are hashed in primary-key order, sorted here rather than by
the engine (PostgreSQL's text order follows its collation, SQLite's is by code point), so that
the same rows give the same digest on both engines.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.errors import StoreError
from bot.store.sql import Connection


@dataclass(frozen=True, slots=True)
class Table:
    """A table to copy or compare: its columns in the SQLite schema's order, and the columns of
    its primary key (all of them for a table without one)."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]

    # The names are the schema's own (read from SQLite's catalogue), quoted.
    def select(self) -> str:
        return f"SELECT {', '.join(map(quoted, self.columns))} FROM {quoted(self.name)}"  # noqa: S608

    def insert(self) -> str:
        marks = ", ".join("?" for _ in self.columns)
        names = ", ".join(map(quoted, self.columns))
        return f"INSERT INTO {quoted(self.name)} ({names}) VALUES ({marks})"  # noqa: S608


@dataclass(frozen=True, slots=True)
class TableDigest:
    table: str
    rows: int
    sha256: str


def quoted(name: str) -> str:
    """`name` as an SQL identifier both engines read alike (ours are plain lowercase words,
    some of which — position, before, after, time — are keywords somewhere)."""
    return '"' + name.replace('"', '""') + '"'


def sqlite_tables(conn: Connection) -> list[Table]:
    """Every table of the Laurel schema in SQLite, parents before the tables that refer to them
    (the order a copy inserts in): not SQLite's own tables, nor the FTS5 search index and its
    shadow tables (derived from the catalogue, and absent on PostgreSQL)."""
    if conn.dialect != "sqlite":
        raise StoreError(f"the tables are read from a SQLite database, not {conn.dialect}")
    names = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table'"
            " AND name NOT LIKE 'sqlite!_%' ESCAPE '!' ORDER BY name"
        )
    ]
    tables: dict[str, Table] = {}
    parents: dict[str, set[str]] = {}
    for name in names:
        info = list(conn.execute("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", (name,)))
        columns = tuple(str(row[0]) for row in info)
        key = tuple(str(row[0]) for row in sorted((r for r in info if r[1]), key=lambda r: r[1]))
        tables[name] = Table(name, columns, key or columns)
        parents[name] = {
            str(row[0])
            for row in conn.execute('SELECT "table" FROM pragma_foreign_key_list(?)', (name,))
        } - {name}
    return [tables[name] for name in _parents_first(parents)]


def _parents_first(parents: Mapping[str, set[str]]) -> list[str]:
    ordered: list[str] = []
    placed: set[str] = set()
    while len(ordered) < len(parents):
        ready = sorted(n for n in parents if n not in placed and parents[n] <= placed)
        if not ready:  # a cycle: none of ours has one, but never loop forever
            ready = sorted(set(parents) - placed)
        ordered += ready
        placed.update(ready)
    return ordered


def rendered(row: Sequence[Any]) -> bytes:
    return json.dumps(list(row), ensure_ascii=False, separators=(",", ":")).encode()


def _sort_key(value: Any) -> tuple[int, Any]:
    # Numbers in numeric order, then text by code point; never comparing a number with text.
    if value is None:
        return (0, 0)
    return (1, value) if isinstance(value, int | float) else (2, str(value))


def digest_rows(table: Table, rows: Iterable[Sequence[Any]]) -> TableDigest:
    """The digest of `rows` of `table` (each in `table.columns` order), in primary-key order."""
    positions = [table.columns.index(column) for column in table.key]
    ordered = sorted(rows, key=lambda row: [_sort_key(row[i]) for i in positions])
    digest = hashlib.sha256()
    for row in ordered:
        digest.update(rendered(row))
        digest.update(b"\n")
    return TableDigest(table.name, len(ordered), digest.hexdigest())


def read_rows(conn: Connection, table: Table) -> list[tuple[Any, ...]]:
    """The rows of `table`, each a plain tuple of its values in `table.columns` order."""
    return [tuple(row) for row in conn.execute(table.select())]


def digests(conn: Connection, tables: Sequence[Table]) -> list[TableDigest]:
    """The digest of each of `tables` as `conn` holds them."""
    return [digest_rows(table, read_rows(conn, table)) for table in tables]
