"""The mechanical rewriting of the store's SQLite statements for PostgreSQL."""

from __future__ import annotations

import pytest

from bot.store.postgres.translate import Untranslatable, translate


@pytest.mark.parametrize(
    ("sqlite", "postgresql"),
    [
        ("SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = %s AND c = %s"),
        (
            "SELECT a FROM t WHERE b = :b AND c = :c_2",
            "SELECT a FROM t WHERE b = %(b)s AND c = %(c_2)s",
        ),
        # inside quoted literals, names and comments, placeholders are text
        (
            "SELECT '?', ':x', \"?:y\" FROM t WHERE a = ?",
            "SELECT '?', ':x', \"?:y\" FROM t WHERE a = %s",
        ),
        ("SELECT 'it''s ? :x' || ?", "SELECT 'it''s ? :x' || %s"),
        (
            "SELECT a -- why? :because\nFROM t WHERE b = ?",
            "SELECT a -- why? :because\nFROM t WHERE b = %s",
        ),
        ("SELECT /* ? :n */ a FROM t WHERE b = :b", "SELECT /* ? :n */ a FROM t WHERE b = %(b)s"),
        # a literal % is doubled everywhere: psycopg reads % in quoted text too
        (
            "SELECT a FROM t WHERE b LIKE '%x%' AND c = ?",
            "SELECT a FROM t WHERE b LIKE '%%x%%' AND c = %s",
        ),
        ("SELECT (g >> 22) % :count", "SELECT (g >> 22) %% %(count)s"),
        # PostgreSQL's casts are not named parameters
        ("SELECT x::text, :y FROM t", "SELECT x::text, %(y)s FROM t"),
        (
            "SELECT ifnull(max(id), 0), IFNULL (a, b) FROM audit",
            "SELECT coalesce(max(id), 0), coalesce(a, b) FROM audit",
        ),
        ("SELECT 'ifnull(' FROM t", "SELECT 'ifnull(' FROM t"),
        ("SELECT notifnull(a) FROM t", "SELECT notifnull(a) FROM t"),
        (
            "INSERT OR IGNORE INTO t (a) VALUES (?)",
            "INSERT INTO t (a) VALUES (%s) ON CONFLICT DO NOTHING",
        ),
        (
            "insert or ignore into t (a) values (?);\n",
            "INSERT INTO t (a) values (%s) ON CONFLICT DO NOTHING",
        ),
        (
            "INSERT OR IGNORE INTO t (a) VALUES (:a) RETURNING id",
            "INSERT INTO t (a) VALUES (%(a)s) ON CONFLICT DO NOTHING RETURNING id",
        ),
        (
            "INSERT OR IGNORE INTO t (a) VALUES ('returning') RETURNING id",
            "INSERT INTO t (a) VALUES ('returning') ON CONFLICT DO NOTHING RETURNING id",
        ),
        ("SELECT 1", "SELECT 1"),
    ],
)
def test_translates_only_the_mechanical_differences(sqlite: str, postgresql: str) -> None:
    assert translate(sqlite) == postgresql


def test_both_kinds_of_placeholder_in_one_statement_is_refused() -> None:
    with pytest.raises(Untranslatable, match="mixes"):
        translate("SELECT a FROM t WHERE b = ? AND c = :c")


def test_each_text_is_translated_once() -> None:
    text = "SELECT a FROM t WHERE b = ? -- cached"
    translate(text)
    hits = translate.cache_info().hits
    translate(text)
    assert translate.cache_info().hits == hits + 1
