"""/paper show and /curate say what the catalogue does not know: a cut-short author list, a
paper with no link (a labelled search instead), a summary that is really the abstract."""

from __future__ import annotations

from typing import Any

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.awards import award, batch
from tests.support.curating import ada, button, curate, curator_bot
from tests.support.interactions import EPHEMERAL
from tests.support.paper_views import show_picked

__all__ = ["curator_bot"]  # the fixture, shared


def _id(message: dict[str, Any]) -> int:
    """The shown paper's id, from its Abstract button (`paper:abstract:<id>`)."""
    first = message["components"][0]["components"][0]["custom_id"]
    return int(str(first).rsplit(":", 1)[1])


def fields_of(message: dict[str, Any]) -> dict[str, str]:
    return {f["name"]: f["value"] for f in message["embeds"][0]["fields"]}


async def test_a_paper_with_no_link_shows_a_labelled_arxiv_search(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    linkless = award("Batch Renormalization: Quokkas (and Wombats)")
    await CatalogRepository(db, SystemClock()).apply(batch(linkless), actor="test", policy="update")
    shown = await show_picked(server, "batch renormalization quokkas")
    (embed,) = shown["embeds"]
    assert "url" not in embed or embed["url"] is None  # the title never links to a search
    search = (
        "https://arxiv.org/search/?query=Batch+Renormalization%3A+Quokkas+%28and+Wombats%29"
        "&searchtype=title"
    )
    assert fields_of(shown)["Links"] == (
        f"No link to the paper yet · [Search arXiv for this title]({search})"
    )
    chinese = fields_of(await show_picked(server, "batch renormalization quokkas", "zh-TW"))["連結"]
    assert chinese == f"目錄中還沒有論文連結 · [在 arXiv 搜尋這個標題]({search})"


async def test_a_cut_short_author_list_reads_et_al_and_the_abstract_is_labelled(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    cut = award(
        "Quokka Scaling Laws",
        authors=["Ada Quokka", "Bo Wombat"],
        authors_incomplete=True,
        abstract="Quokkas scale. Wombats do not.",
    )
    await CatalogRepository(db, SystemClock()).apply(batch(cut), actor="test", policy="update")
    shown = await show_picked(server, "quokka scaling")
    assert fields_of(shown)["Authors"] == "Ada Quokka, Bo Wombat et al."
    assert (
        shown["embeds"][0]["description"] == "*From the abstract:* Quokkas scale. Wombats do not."
    )
    chinese = await show_picked(server, "quokka scaling", "zh-CN")
    assert fields_of(chinese)["作者"] == "Ada Quokka、Bo Wombat 等"  # one separator (issue 25)
    assert chinese["embeds"][0]["description"] == "*节选自论文摘要：*Quokkas scale. Wombats do not."


async def test_curate_add_and_edit_flag_a_paper_left_without_a_link(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    opened = await curate(
        server, "paper add", {"venue": "ICML", "year": 2025, "award": "best", "track": "Main"}
    )
    await opened.response()
    form = {"title": "Linkless Wonders", "authors": "Ada Lovelace", "abstract": "We wonder."}
    preview = await (await server.submit(opened, form)).message()
    assert preview["flags"] & EPHEMERAL
    flagged = fields_of(preview)["Links"]
    assert flagged.startswith("⚠️ No link to the paper: readers will only get a title search")
    assert "https://arxiv.org/search/?query=Linkless+Wonders&searchtype=title" in flagged
    done = await server.press(preview, button(preview, "curate:confirm"), user_id=ada(server))
    assert (await done.message())["embeds"][0]["title"] == "Added"
    row = await db.fetchone("SELECT id FROM papers WHERE title = 'Linkless Wonders'")
    assert row is not None

    opened = await curate(server, "paper edit", {"paper": str(row["id"])})
    await opened.response()
    edited = await server.submit(opened, {**form, "abstract": "We wonder more."})
    assert "⚠️ No link" in fields_of(await edited.message())["Links"]

    opened = await curate(server, "paper edit", {"paper": str(row["id"])})
    await opened.response()
    linked = await server.submit(opened, {**form, "links": "project https://example.org/w"})
    assert "Links" not in fields_of(await linked.message())


async def test_where_sources_disagree_is_behind_the_sources_button_not_in_the_answer(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    catalog = CatalogRepository(db, SystemClock())
    given = award("Quokka Alignment", arxiv="2502.99999")
    first = given.model_copy(update={"paper": given.paper.model_copy(update={"year": 2024})})
    await catalog.apply(batch(first), actor="test", policy="update")
    later = first.model_copy(
        update={"name": "Best Paper", "paper": first.paper.model_copy(update={"year": 2025})}
    )
    await catalog.apply(batch(later), actor="import", policy="fill")
    shown = await show_picked(server, "quokka alignment")
    # The member's answer carries none of the catalogue's bookkeeping (issue 24) ...
    assert "Sources disagree" not in fields_of(shown)
    # ... the Sources button tells a reader what other sources give, without its reasons.
    sources = await (await server.press(shown, f"paper:sources:{_id(shown)}")).message()
    assert sources["flags"] & EPHEMERAL
    # The catalogue's own note of who imported it ("import by import") is for curators.
    assert fields_of(sources)["Other sources give"].splitlines() == [
        "• Year: “2025” (another source)",
        "• ICML 2025 award, name: “Best Paper” (another source)",
    ]
    chinese = await show_picked(server, "quokka alignment", "zh-TW")
    assert "來源說法不一" not in fields_of(chinese)


async def _sources_list(server: LocalDiscord, locale: str) -> list[str]:
    shown = await show_picked(server, "next-scale prediction", locale)
    pressed = await server.press(shown, f"paper:sources:{_id(shown)}", locale=locale)
    return str((await pressed.message())["embeds"][0]["description"]).splitlines()


async def test_the_sources_button_says_when_a_title_is_in_another_script(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    """A source's title is a name, shown as published, and the reader is told its script when
    it is not theirs (issue 25): VAR's award is cited by a simplified and a traditional title."""
    simplified = "新智元, NeurIPS 2024最佳论文开奖"  # the catalogue's "(repost)" note left out
    traditional = "2024 AI 頂會在收什麼題目：Agent 元年與 Scaling 辯論"
    english = await _sources_list(server, "en-US")
    assert f"• Article: {traditional} (in Chinese)" in english
    repost = "http://guosisoft.com/news/detail/621551663042629"
    assert f"• Web page: [{simplified}]({repost}) (in Chinese)" in english
    assert not any("(in Chinese)" in line for line in english if "papercopilot" in line)
    taiwan = await _sources_list(server, "zh-TW")
    assert f"• 文章：{traditional}" in taiwan  # the reader's own script: untagged
    assert f"• 網頁：[{simplified}]({repost})（簡體中文）" in taiwan
    mainland = await _sources_list(server, "zh-CN")
    assert f"• 文章：{traditional}（繁体中文）" in mainland
    assert f"• 网页：[{simplified}]({repost})" in mainland  # simplified: untagged
