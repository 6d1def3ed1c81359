"""Table digests: every table of the schema, parents first, and a digest that tells rows apart
by value and type but not by the order they were stored in."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.store.copy import mismatches, read_snapshot
from bot.store.sql import SqliteConnection
from bot.store.table_digests import Table, digest_rows, digests, sqlite_tables

SCHEMA_TABLES = {
    "venues", "editions", "papers", "paper_authors", "paper_affiliations", "awards", "audit",
    "bot_state", "removed_papers", "subscriptions", "digest_ledger", "digest_cycles",
    "shard_layout", "shard_claims",
}  # fmt: skip


def _connect(path: Path) -> SqliteConnection:
    return sqlite3.connect(path, isolation_level=None, factory=SqliteConnection)


def test_every_table_of_the_schema_parents_first(template_db: Path) -> None:
    tables = sqlite_tables(_connect(template_db))
    names = [t.name for t in tables]
    # Not SQLite's own tables, nor the FTS5 index and its shadows (derived; not on PostgreSQL).
    assert set(names) == SCHEMA_TABLES
    for child, parent in [
        ("editions", "venues"),
        ("awards", "editions"),
        ("awards", "papers"),
        ("paper_authors", "papers"),
        ("removed_papers", "papers"),
        ("digest_ledger", "subscriptions"),
        ("digest_cycles", "subscriptions"),
    ]:
        assert names.index(parent) < names.index(child), (parent, child)
    by = {t.name: t for t in tables}
    assert by["papers"].key == ("id",)
    assert by["paper_authors"].key == ("paper_id", "position")
    assert by["papers"].columns[-1] == "aliases"  # the schema's order, 0010 last


def test_a_digest_ignores_the_stored_order_but_not_a_value_or_its_type() -> None:
    table = Table("t", ("id", "name", "n"), ("id",))
    rows = [(2, "b", None), (10, "a", 1)]
    same = digest_rows(table, rows)
    assert digest_rows(table, list(reversed(rows))) == same
    assert same.rows == 2
    assert digest_rows(table, [(2, "b", None), (10, "a", "1")]) != same  # 1 vs "1"
    assert digest_rows(table, [(2, "b", 0), (10, "a", 1)]) != same  # NULL vs 0
    assert digest_rows(table, [(2, "b ", None), (10, "a", 1)]) != same
    assert digest_rows(table, [(2, "b", None)]).rows == 1


def test_a_snapshot_digests_as_the_database_does(template_db: Path) -> None:
    conn = _connect(template_db)
    snapshot = read_snapshot(conn)
    assert not conn.in_transaction
    assert len(snapshot.rows["papers"]) > 800  # the bundled catalogue
    assert mismatches(snapshot.digests(), digests(conn, snapshot.tables)) == []


def test_mismatches_name_the_table_and_what_differs(template_db: Path, tmp_path: Path) -> None:
    changed = tmp_path / "changed.db"
    _connect(template_db).backup(target := _connect(changed))
    target.execute("UPDATE papers SET title = title || '.' WHERE id = (SELECT min(id) FROM papers)")
    target.execute(
        "DELETE FROM paper_affiliations WHERE (paper_id, position) = "
        "(SELECT paper_id, position FROM paper_affiliations LIMIT 1)"
    )
    tables = sqlite_tables(target)
    found = mismatches(digests(_connect(template_db), tables), digests(target, tables))
    papers = len(read_snapshot(target).rows["papers"])
    affiliations = len(read_snapshot(target).rows["paper_affiliations"])
    assert found == [
        f"papers: {papers} rows on both sides, but their contents differ",
        f"paper_affiliations: {affiliations + 1} rows, but {affiliations}",
    ]
