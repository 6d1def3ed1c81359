"""Leaderboards over the awarded papers: institutions by fractional credit, authors by papers."""

from __future__ import annotations

import json
from typing import Literal

from bot.domain.institutions import InstitutionAliases
from bot.domain.leaderboards import AuthorAwards, InstitutionCredit, Leaderboard
from bot.domain.people import People, load_people
from bot.store.catalog_sql import ascii_lower
from bot.store.database import Database

# The awards counted by a leaderboard: optionally one venue, and editions from `first` to `last`.
_AWARDS_IN_SCOPE = """
    SELECT a.id, a.paper_id, a.edition_id
    FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
    WHERE (CAST(:venue AS TEXT) IS NULL OR e.venue = :venue)
      AND (CAST(:first AS INTEGER) IS NULL OR e.year >= :first)
      AND (CAST(:last AS INTEGER) IS NULL OR e.year <= :last)
"""
# A table of names (`:grouping`, a JSON object: folded name → the name it counts under: an
# institution's English name, a person's spelling shown) as rows; a share of credit as a float;
# credit rounded to compare ties.
_ALIASES = {
    "sqlite": "SELECT key AS alias, value AS name FROM json_each(:grouping)",
    "postgresql": (
        "SELECT key AS alias, value AS name FROM json_each_text(CAST(:grouping AS JSON))"
    ),
}
_ROUNDED_CREDIT = {
    "sqlite": "round(credit, 6)",
    "postgresql": "round(CAST(credit AS NUMERIC), 6)",
}


class LeaderboardRepository:
    """Who the awarded papers credit: institutions (each name counted under the English name
    the institution table gives it) and authors."""

    def __init__(
        self, db: Database, institutions: InstitutionAliases, people: People | None = None
    ) -> None:
        self._db = db
        # SQL lower() of every institution name → its English name, as a JSON object.
        self._grouping = json.dumps(institutions.grouping(), ensure_ascii=False)
        # SQL lower() of every spelling of one person's name → the one shown.
        people = load_people() if people is None else people
        self._people = json.dumps(people.grouping(), ensure_ascii=False)

    async def institution_credit(
        self,
        *,
        venue: str | None = None,
        first: int | None = None,
        last: int | None = None,
        limit: int = 15,
    ) -> Leaderboard[InstitutionCredit]:
        """Institutions by fractional credit, most first.

        Each awarded paper gives 1 per edition that awarded it (two awards of one paper at one
        edition count once), split equally among its distinct institutions. Names are grouped
        without regard to (ASCII) case; stored names already have their white space folded.
        The spelling shown is the first in binary order, which prefers capitals ("MIT" to "Mit").
        """
        params = {
            "venue": venue,
            "first": first,
            "last": last,
            "limit": max(1, limit),
            "grouping": self._grouping,
        }
        # A name in the institution table counts under its English name (清華大學, Tsinghua).
        dialect = self._db.dialect
        sql = f"""
            WITH awarded AS (
                SELECT paper_id, count(DISTINCT edition_id) AS editions
                FROM ({_AWARDS_IN_SCOPE})
                GROUP BY paper_id
            ),
            aliases AS ({_ALIASES[dialect]}),
            named AS (
                SELECT pa.paper_id, coalesce(al.name, pa.name) AS name
                FROM paper_affiliations AS pa
                LEFT JOIN aliases AS al ON al.alias = {ascii_lower("pa.name", dialect)}
            ),
            institutions AS (
                SELECT w.paper_id, w.editions, {ascii_lower("n.name", dialect)} AS key,
                       min(n.name) AS name
                FROM awarded AS w JOIN named AS n ON n.paper_id = w.paper_id
                GROUP BY w.paper_id, w.editions, key
            ),
            credits AS (
                SELECT key, min(name) AS name, sum(share) AS credit, count(*) AS papers
                FROM (
                    SELECT key, name,
                           CAST(editions AS DOUBLE PRECISION)
                               / count(*) OVER (PARTITION BY paper_id) AS share
                    FROM institutions
                ) AS shares
                GROUP BY key
            )
            SELECT name, credit, papers,
                   (SELECT count(*) FROM credits) AS ranked,
                   (SELECT sum(editions) FROM awarded
                    WHERE paper_id IN (SELECT paper_id FROM paper_affiliations)) AS total,
                   (SELECT sum(editions) FROM awarded) AS in_scope
            FROM credits
            ORDER BY {_ROUNDED_CREDIT[dialect]} DESC, papers DESC, key
            LIMIT :limit
        """  # noqa: S608
        found = await self._db.fetchall(sql, params)
        # Shares summed in another order differ in the last bits (1.6666666666666665 against
        # …667 on PostgreSQL): the same credit on either engine.
        entries = tuple(
            InstitutionCredit(r["name"], round(float(r["credit"]), 9), r["papers"]) for r in found
        )
        return Leaderboard(
            entries,
            ranked=found[0]["ranked"] if found else 0,
            papers=int(found[0]["total"]) if found else 0,  # PostgreSQL's sum() is a numeric
            in_scope=int(found[0]["in_scope"]) if found else 0,
        )

    async def author_awards(
        self,
        *,
        venue: str | None = None,
        first: int | None = None,
        last: int | None = None,
        limit: int = 15,
    ) -> Leaderboard[AuthorAwards]:
        """Authors by distinct awarded papers, then by awards, most first.

        Names are grouped without regard to (ASCII) case, and the spellings of one person the
        people table names (bot/domain/people.toml) under the one it shows; otherwise the
        spelling shown is the first in binary order. `papers` of the result counts distinct
        awarded papers with authors.
        """
        params = {
            "venue": venue,
            "first": first,
            "last": last,
            "limit": max(1, limit),
            "grouping": self._people,
        }
        dialect = self._db.dialect
        sql = f"""
            WITH awarded AS ({_AWARDS_IN_SCOPE}),
            aliases AS ({_ALIASES[dialect]}),
            named AS (
                SELECT pa.paper_id, coalesce(al.name, pa.name) AS name
                FROM paper_authors AS pa
                LEFT JOIN aliases AS al ON al.alias = {ascii_lower("pa.name", dialect)}
            ),
            credited AS (
                SELECT {ascii_lower("n.name", dialect)} AS key, min(n.name) AS name,
                       count(DISTINCT w.paper_id) AS papers, count(DISTINCT w.id) AS awards
                FROM awarded AS w JOIN named AS n ON n.paper_id = w.paper_id
                GROUP BY key
            )
            SELECT name, papers, awards,
                   (SELECT count(*) FROM credited) AS ranked,
                   (SELECT count(DISTINCT paper_id) FROM awarded
                    WHERE paper_id IN (SELECT paper_id FROM paper_authors)) AS total
            FROM credited
            ORDER BY papers DESC, awards DESC, key
            LIMIT :limit
        """  # noqa: S608
        found = await self._db.fetchall(sql, params)
        entries = tuple(AuthorAwards(r["name"], r["papers"], r["awards"]) for r in found)
        return Leaderboard(
            entries,
            ranked=found[0]["ranked"] if found else 0,
            papers=found[0]["total"] if found else 0,
        )

    async def credited_years(
        self, names: Literal["authors", "affiliations"], *, venue: str | None = None
    ) -> list[int]:
        """The years (of one venue, or any) with an awarded paper whose authors (or
        institutions) the catalogue knows: where a leaderboard has someone to rank."""
        table = {"authors": "paper_authors", "affiliations": "paper_affiliations"}[names]
        found = await self._db.fetchall(
            f"""
            SELECT DISTINCT e.year
            FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
            WHERE (CAST(:venue AS TEXT) IS NULL OR e.venue = :venue)
              AND a.paper_id IN (SELECT paper_id FROM {table})
            ORDER BY e.year
            """,  # noqa: S608 (the table is one of two constants)
            {"venue": venue},
        )
        return [int(r["year"]) for r in found]
