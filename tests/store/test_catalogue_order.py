"""Lists of the catalogue read in one order on both engines: SQLite compares text byte by byte
(BINARY); on PostgreSQL the text the catalogue is sorted and grouped by is COLLATE "C", so a
database made with another collation (en_US: "Acme" before "ACME", "Émile" before "Zoe") reads
the same lists."""

from __future__ import annotations

import psycopg

from bot.domain.institutions import load_institutions
from bot.store.catalog.leaderboards import LeaderboardRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.awards import award, batch

# (table, column) that the catalogue's reads order, group or take the least of.
ORDERED = {
    ("venues", "key"), ("venues", "name"), ("editions", "venue"), ("papers", "title"),
    ("papers", "title_key"), ("paper_authors", "name"), ("paper_affiliations", "name"),
    ("awards", "name"), ("awards", "kind"), ("awards", "track"),
}  # fmt: skip


def test_the_text_the_catalogue_is_ordered_by_is_byte_ordered_on_postgresql(
    postgres_url: str,
) -> None:
    with psycopg.connect(postgres_url) as conn:
        found = conn.execute(
            """
            SELECT table_name, column_name, collation_name FROM information_schema.columns
            WHERE table_schema = 'public' AND data_type = 'text'
            """
        ).fetchall()
    collations = {(table, column): collation for table, column, collation in found}
    assert {column: collations.get(column) for column in ORDERED} == dict.fromkeys(ORDERED, "C")


async def test_names_are_grouped_spelled_and_ordered_byte_by_byte(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(
            award("One", authors=["Zoe Ng", "Émile Roux"], affiliations=["Acme Lab"]),
            award("Two", authors=["émile roux", "zoe ng"], affiliations=["ACME Lab"]),
        ),
        actor="t",
        policy="update",
    )
    boards = LeaderboardRepository(db, load_institutions())
    board = await boards.author_awards()
    # Grouped by ASCII case alone ("Émile" and "émile" are two names, as SQLite's lower()
    # sees them), spelled as the least in byte order, listed by that key in byte order.
    assert [(a.name, a.papers) for a in board.entries] == [
        ("Zoe Ng", 2),
        ("Émile Roux", 1),
        ("émile roux", 1),
    ]
    (institution,) = (await boards.institution_credit()).entries
    assert institution.name == "ACME Lab"  # capitals come first in byte order
