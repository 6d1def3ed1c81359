"""What curators made their own, read from the audit: the `bundle` write policy leaves it be.

A new release's bundled catalogue meets a database in use. Whatever someone other than the
bundled data's actor set (a curator's edit in Discord, an import) stays as they left it; the
audit holds every such change with the record before and after, so it is asked, not guessed.
"""

from __future__ import annotations

import json

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
