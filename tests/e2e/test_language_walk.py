"""The language walk (issue 25, goals): every command and the buttons under its answers, in
en-US, zh-TW and zh-CN, on the stand-in. A zh answer has no English sentence outside names,
titles, venue acronyms and URLs; no answer in any language names a command other than by its
mention (`</name sub:id>`, with the ids the command sync returned).

Left out of the sentence check, and said so: the provenance fields of a paper card (its
"Sources" field, the "Sources disagree" block, and "what other sources give", whose values stand
as the sources give them). The Sources button's list is checked: it names each source in the
reader's language by what it is, with its title as published.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.domain.reader_sources import published_title, site_name
from bot.store.database import Database
from laurel_console.localdiscord.interactions import Interaction
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import curator_bot
from tests.support.walk import LATIN_RUN, latin_sentences, readable, typed_commands

__all__ = ["curator_bot"]
LOCALES = ["en-US", "zh-TW", "zh-CN"]
PROVENANCE = {
    "Sources", "來源", "来源", "Sources disagree", "來源說法不一", "来源说法不一",
    # The Sources button's "what other sources give": values and source titles as published.
    "Other sources give", "其他來源的說法", "其他来源的说法",
}  # fmt: skip
# (command, subcommand, options); the admin's and curator's commands run as ada.
WALK: list[tuple[str, str | None, dict[str, Any]]] = [
    ("about", None, {}),
    ("help", None, {}),
    ("paper", "show", {"paper": "token ordering"}),
    ("paper", "show", {"paper": "DreamFusion"}),
    ("paper", "show", {"paper": "Debating with More Persuasive"}),  # has an abstract: its button
    ("paper", "show", {"paper": "zzqx nothing"}),
    ("paper", "search", {"query": "diffusion"}),
    ("paper", "random", {}),
    ("paper", "today", {}),
    ("awards", "edition", {"venue": "icml", "year": 2025}),
    ("awards", "edition", {"venue": "acl", "year": 2017}),
    ("awards", "edition", {"venue": "icml", "year": 1999}),
    ("awards", "history", {"venue": "icml"}),
    ("awards", "test-of-time", {}),
    ("stats", "edition", {"venue": "icml", "year": 2024}),
    ("stats", "compare", {"year": 2024}),
    ("stats", "institutions", {"venue": "icml"}),
    ("stats", "authors", {"venue": "cvpr", "from": 2024}),
    ("digest", "subscribe", {"channel": "general", "theme": "venue-spotlight"}),
    ("digest", "list", {}),
    ("digest", "preview", {"subscription": 1}),
    ("digest", "post-now", {"subscription": 1}),
    ("digest", "pause", {"subscription": 1}),
    ("digest", "resume", {"subscription": 1}),
    ("digest", "edit", {"subscription": 1, "time": "10:00", "timezone": "Asia/Taipei"}),
    ("digest", "remove", {"subscription": 1}),
    ("digest", "list", {}),
    # Previews of writes (their confirm is not pressed): the paper card a curator reads.
    ("curate", "award add", {"paper": "DreamFusion", "venue": "ICML", "year": 2025,
                             "award": "best"}),
    ("curate", "paper remove", {"paper": "DreamFusion"}),
    ("curate", "stats set", {"venue": "ICML", "year": 2024, "field": "orals", "value": 150,
                             "source": "https://icml.cc/"}),
    ("curate", "history", {}),
    ("curate", "undo", {"change": 10**9}),
    ("curate", "award add", {"paper": "token ordering", "venue": "ICML", "year": 2062,
                             "award": "best"}),
]  # fmt: skip


async def _names(db: Database) -> set[str]:
    """What stays as published in every language: titles, names, venues, awards, tracks,
    source documents (titles too)."""
    names: set[str] = set()
    queries = [
        "SELECT title FROM papers",
        "SELECT name FROM paper_authors",
        "SELECT name FROM paper_affiliations",
        "SELECT name FROM venues UNION SELECT full_name FROM venues",
        "SELECT name FROM awards UNION SELECT track FROM awards",
        "SELECT abstract FROM papers",  # the Abstract button shows it as published
    ]
    for sql in queries:
        names |= {str(r[0]) for r in await db.fetchall(sql) if r[0]}
    # Names of methods, models and datasets kept in their original form in a Chinese summary
    # (CONTENT.md): the Latin runs it shares with the paper's English summary.
    for (summaries,) in await db.fetchall("SELECT summaries FROM papers"):
        written = json.loads(summaries or "{}")
        english = written.get("en") or ""
        for language in ("zh-TW", "zh-CN"):
            runs = LATIN_RUN.findall(written.get(language) or "")
            names |= {run for run in runs if run in english}
    # The names people use for a paper (AlexNet, Score Distillation Sampling): names, as typed.
    for (aliases,) in await db.fetchall("SELECT aliases FROM papers"):
        names |= set(json.loads(aliases or "[]"))
    for sql in ("SELECT sources FROM papers", "SELECT sources FROM awards"):
        for row in await db.fetchall(sql):
            sources = json.loads(row[0] or "[]")
            names |= {published_title(s.get("document") or "") or "" for s in sources}
            # A source without a title is named by its site: a host, a repository's owner/name.
            names |= {site_name(s["url"]) for s in sources if s.get("url")}
    return names


def _without_provenance(message: dict[str, Any]) -> dict[str, Any]:
    """The message less the fields whose values stand as the sources give them."""
    kept = dict(message)
    kept["embeds"] = [
        {
            **e,
            "fields": [f for f in e.get("fields") or [] if f["name"] not in PROVENANCE],
        }
        for e in message.get("embeds") or []
    ]
    return kept


async def _answers(server: LocalDiscord, locale: str) -> list[dict[str, Any]]:
    ada = server.world.find_user("ada").id
    server.world.default_guild().preferred_locale = locale  # the digest posts in it too
    seen: list[dict[str, Any]] = []
    for command, sub, options in WALK:
        asked: Interaction = await server.slash(
            command, options, subcommand=sub, user_id=ada, locale=locale
        )
        message = await asked.message()
        seen += [message, *asked.followups]
        for row in message.get("components") or []:
            for button in row.get("components") or []:
                if button.get("type") != 2 or button.get("disabled") or "custom_id" not in button:
                    continue
                if button["custom_id"].startswith("curate:"):
                    continue  # a write's confirm: the curation tests press it
                pressed = await server.press(
                    message, button["custom_id"], user_id=ada, locale=locale
                )
                seen.append(await pressed.message())
    seen += server.messages("general", ephemeral=False)
    return seen


@pytest.mark.parametrize("locale", LOCALES)
async def test_every_answer_reads_in_the_readers_language(
    curator_bot: object, server: LocalDiscord, db: Database, locale: str
) -> None:
    answers = await _answers(server, locale)
    assert len(answers) > len(WALK)
    texts = [t for m in answers for t in readable(m)]
    assert typed_commands(texts) == []
    if locale == "en-US":
        return
    names = await _names(db)
    checked = [t for m in answers for t in readable(_without_provenance(m))]
    leaks = sorted(set(latin_sentences(checked, names)))
    assert leaks == [], "\n".join(leaks)
