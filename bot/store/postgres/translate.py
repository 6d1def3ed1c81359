"""The mechanical differences between the store's SQLite statements and PostgreSQL's, rewritten
once per statement text (cached).

Only what means the same on both engines is rewritten here:
- placeholders: `?` becomes psycopg's `%s`, `:name` becomes `%(name)s`, and a literal `%`
  becomes `%%` (psycopg reads `%` everywhere in the text, quoted or not);
- `ifnull(` becomes `coalesce(`;
- `INSERT OR IGNORE INTO …` becomes `INSERT INTO … ON CONFLICT DO NOTHING`.
Quoted literals ('…'), quoted names ("…") and comments are left as they are (but for `%`).
Whatever means something else on PostgreSQL (rowid, the JSON functions, LIKE's case, scalar
max(a, b), strftime, lastrowid) is written per dialect in the repository, never here.
"""

from __future__ import annotations

import re
from functools import lru_cache

# One token of SQL text: a quoted literal or name, a comment, or a run of anything else.
_TOKENS = re.compile(
    r"""
    (?P<literal>'(?:[^']|'')*'?)
    | (?P<name>"(?:[^"]|"")*"?)
    | (?P<line>--[^\n]*)
    | (?P<block>/\*.*?(?:\*/|\Z))
    | (?P<code>(?:[^'"/-]|/(?!\*)|-(?!-))+)
    """,
    re.VERBOSE | re.DOTALL,
)
# `:name` but not the second colon of a PostgreSQL cast (`x::text`) nor a name's middle.
_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
_IFNULL = re.compile(r"\bifnull\s*\(", re.IGNORECASE)
_OR_IGNORE = re.compile(r"\bINSERT\s+OR\s+IGNORE\s+INTO\b", re.IGNORECASE)
_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)


class Untranslatable(ValueError):
    """A statement this module cannot rewrite faithfully (say, both kinds of placeholder)."""


@lru_cache(maxsize=4096)
def translate(sql: str) -> str:
    """`sql` (SQLite's text) as psycopg reads it on PostgreSQL."""
    parts: list[str] = []
    positional = named = ignore = False
    for match in _TOKENS.finditer(sql):
        kind, text = match.lastgroup, match.group()
        if kind != "code":
            parts.append(text.replace("%", "%%"))
            continue
        text = text.replace("%", "%%")
        if "?" in text:
            positional = True
            text = text.replace("?", "%s")
        text, count = _NAMED.subn(r"%(\1)s", text)
        named = named or count > 0
        text = _IFNULL.sub("coalesce(", text)
        text, count = _OR_IGNORE.subn("INSERT INTO", text)
        ignore = ignore or count > 0
        parts.append(text)
    if positional and named:
        raise Untranslatable(f"a statement mixes ? and :name placeholders: {sql!r}")
    out = "".join(parts)
    return _on_conflict_do_nothing(out) if ignore else out


def _on_conflict_do_nothing(sql: str) -> str:
    """`… ON CONFLICT DO NOTHING` where SQLite's `OR IGNORE` stood: before RETURNING, if any."""
    body = sql.rstrip().rstrip(";").rstrip()
    returning = _last_outside_quotes(body, _RETURNING)
    if returning is None:
        return f"{body} ON CONFLICT DO NOTHING"
    return f"{body[:returning].rstrip()} ON CONFLICT DO NOTHING {body[returning:]}"


def _last_outside_quotes(sql: str, pattern: re.Pattern[str]) -> int | None:
    found = None
    for match in _TOKENS.finditer(sql):
        if match.lastgroup == "code":
            for hit in pattern.finditer(match.group()):
                found = match.start() + hit.start()
    return found
