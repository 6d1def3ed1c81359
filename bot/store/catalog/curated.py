"""What curators made their own, read from the audit: the `bundle` write policy leaves it be.

A new release's bundled catalogue meets a database in use. Whatever someone other than the
bundled data's actor set (a curator's edit in Discord, an import) stays as they left it; the
audit holds every such change with the record before and after, so it is asked, not guessed.

A release may also correct a record it brought before: a title's typo fixed, an award's kind
changed. Matched by title or kind, the corrected record would be a new one, and a paper or award
a curator removed would come back. So a record's identity across releases is the record the
bundled data itself added (the audit's `add` by its actor): a paper of the edition that this
release no longer carries, under its title or its ids, whose title is the incoming one's but
for a typo, is that paper; a removed award of the paper whose kind this release no longer gives
it is that award. (`Carried` is what the release carries.)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from bot.domain.models import Award
from bot.domain.text import title_key
from bot.store.catalog_sql import json_field
from bot.store.sql import Connection

_RENAMED = {
    d: f"""
    SELECT entity_id, {json_field("before", "title", d)} FROM audit
    WHERE entity = 'paper' AND actor != ? AND before IS NOT NULL
      AND {json_field("before", "title", d)} != {json_field("after", "title", d)}
    ORDER BY id
    """  # noqa: S608 (constant fragments)
    for d in ("sqlite", "postgresql")
}


# Fields whose entries are each someone's own: a curator who rewrote the English summary (or the
# code link) owns `summaries.en` (`links.code`), and a release still fills the other languages.
PER_ENTRY = frozenset({"summaries", "links"})


def curated_fields(conn: Connection, entity: str, entity_id: str, actor: str) -> frozenset[str]:
    """The fields of a record that anyone but `actor` ever set (all of them if they made it);
    for a `PER_ENTRY` field of a record they did not make, the entries they set or cleared."""
    fields: set[str] = set()
    for before, after in conn.execute(
        "SELECT before, after FROM audit WHERE entity = ? AND entity_id = ? AND actor != ?",
        (entity, entity_id, actor),
    ):
        made = json.loads(after) if after else {}
        was = json.loads(before) if before else None
        if was is None:
            fields |= set(made)
            continue
        for key in set(made) | set(was):
            new, old = made.get(key), was.get(key)
            if new == old:
                continue
            if key in PER_ENTRY and isinstance(new or {}, dict) and isinstance(old or {}, dict):
                new, old = new or {}, old or {}
                fields |= {f"{key}.{k}" for k in set(new) | set(old) if new.get(k) != old.get(k)}
            else:
                fields.add(key)
    return frozenset(fields)


def renamed_papers(conn: Connection, actor: str) -> dict[str, list[int]]:
    """Papers someone but `actor` renamed, by the key of each title they had before."""
    renamed: dict[str, list[int]] = {}
    for row in conn.execute(_RENAMED[conn.dialect], (actor,)):
        renamed.setdefault(title_key(row[1]), []).append(int(row[0]))
    return renamed


# How alike two title keys must be to be one title with a typo corrected (difflib's ratio: one
# letter in a 60-letter title is 0.99; "Graph kernels" and "Graph neural kernels" are 0.79).
TYPO_RATIO = 0.9
_ADDED_BY = """
    EXISTS (SELECT 1 FROM audit AS u WHERE u.entity = '{entity}' AND u.action = 'add'
            AND u.entity_id = CAST({alias}.id AS TEXT) AND u.actor = ?)
"""


@dataclass
class Carried:
    """What a release's bundled batch carries: the title keys of each edition, every arXiv id
    and DOI, and the (kind, track) of the awards of each paper (by its title key)."""

    titles: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    ids: set[str] = field(default_factory=set)
    awards: dict[tuple[str, int, str], set[tuple[str, str]]] = field(default_factory=dict)

    @classmethod
    def of(cls, awards: Iterable[Award]) -> Carried:
        carried = cls()
        for award in awards:
            key = title_key(award.paper.title)
            carried.titles.setdefault((award.venue, award.year), set()).add(key)
            carried.ids |= {i for i in (award.paper.arxiv, award.paper.doi) if i}
            kinds = carried.awards.setdefault((award.venue, award.year, key), set())
            kinds.add((award.kind.value, award.track or ""))
        return carried


def corrected_paper(
    conn: Connection, actor: str, edition_id: int, key: str, carried: Carried
) -> int | None:
    """The paper `actor` (the bundled data) added to the edition whose title this release
    corrected to the one of `key`: no longer carried, and `key` but for a typo."""
    edition = conn.execute("SELECT venue, year FROM editions WHERE id = ?", (edition_id,))
    venue, year = edition.fetchone()
    titles = carried.titles.get((venue, year), set())
    found = conn.execute(
        f"""
        SELECT p.id, p.title_key, p.arxiv, p.doi FROM papers AS p
        WHERE EXISTS (SELECT 1 FROM awards AS a WHERE a.paper_id = p.id AND a.edition_id = ?)
          AND {_ADDED_BY.format(entity="paper", alias="p")}
        ORDER BY p.id
        """,  # noqa: S608 (constant fragments)
        (edition_id, actor),
    ).fetchall()
    alike = [
        int(row[0])
        for row in found
        if row[1] not in titles
        and not {row[2], row[3]} & carried.ids
        and SequenceMatcher(None, row[1], key).ratio() >= TYPO_RATIO
    ]
    return alike[0] if len(alike) == 1 else None


def rekinded_award(
    conn: Connection, actor: str, edition_id: int, paper_id: int, kinds: set[tuple[str, str]]
) -> int | None:
    """A removed award of the paper at the edition, added by `actor` (the bundled data),
    whose kind and track this release no longer gives the paper (`kinds`): the one it
    changed."""
    for row in conn.execute(
        f"""
        SELECT a.id, a.kind, a.track FROM awards AS a
        WHERE a.edition_id = ? AND a.paper_id = ? AND a.removed_at IS NOT NULL
          AND {_ADDED_BY.format(entity="award", alias="a")}
        ORDER BY a.id
        """,  # noqa: S608 (constant fragments)
        (edition_id, paper_id, actor),
    ).fetchall():
        if (row[1], row[2] or "") not in kinds:
            return int(row[0])
    return None
