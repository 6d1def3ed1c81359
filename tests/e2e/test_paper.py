"""/paper show, search, random and today on the stand-in, in English and Traditional Chinese."""

from __future__ import annotations

import datetime as dt

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.domain.daily import paper_of_the_day
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.sql import Connection
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.awards import award, batch
from tests.support.clock import ManualClock
from tests.support.interactions import EPHEMERAL
from tests.support.paper_views import (
    buttons,
    custom_ids,
    pick,
    show_picked,
)
from tests.support.payloads import fields, opened

MASKED = "Train for the Worst, Plan for the Best: Understanding Token Ordering in Masked Diffusions"


async def test_show_picked_from_autocomplete(laurel: LaurelBot, server: LocalDiscord) -> None:
    choices = await server.autocomplete("paper", {"paper": "masked"}, "paper", subcommand="show")
    assert choices[0]["name"].startswith("Train for the Worst")
    assert choices[0]["name"].endswith("(ICML 2025)")
    assert choices[0]["value"].isdigit()
    message = await show_picked(server, "masked")
    (embed,) = message["embeds"]
    assert embed["title"] == MASKED
    assert embed["url"] == "https://arxiv.org/abs/2502.06768"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert (
        fields["Authors"] == "Jaeyeon Kim, Kulin Shah, Vasilis Kontonis, Sham Kakade and Sitan Chen"
    )
    assert "Harvard University" in fields["Affiliations"]
    assert fields["Awards"] == "ICML 2025 · Outstanding Paper Award"
    assert "[arXiv](https://arxiv.org/abs/2502.06768)" in fields["Links"]
    assert "[PDF](https://arxiv.org/pdf/2502.06768)" in fields["Links"]
    assert "OpenReview" not in fields["Links"]
    # One link, the venue's own page, named by its site (issue 24).
    assert fields["Source"] == "[icml.cc](https://icml.cc/virtual/2025/awards_detail)"
    assert embed["description"].startswith("Masked diffusion models can generate tokens")
    assert message["flags"] & EPHEMERAL == 0
    assert [b["label"] for b in buttons(message)] == [
        "Abstract",
        "Sources",
        "Another paper",
        "Similar",
    ]


async def test_show_in_traditional_chinese(laurel: LaurelBot, server: LocalDiscord) -> None:
    message = await show_picked(server, "掩碼擴散", locale="zh-TW")  # found by its Chinese summary
    (embed,) = message["embeds"]
    assert embed["title"] == MASKED  # titles stay as published
    assert embed["description"].startswith("掩碼擴散模型可以用任意順序產生 token")
    names = [f["name"] for f in embed["fields"]]
    assert names[:3] == ["作者", "機構", "獎項"]
    assert [b["label"] for b in buttons(message)] == ["論文摘要", "資料來源", "換一篇", "相似論文"]


async def test_typed_text_without_picking_shows_the_best_match(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    interaction = await server.slash("paper", {"paper": "token ordering"}, subcommand="show")
    assert (await interaction.message())["embeds"][0]["title"] == MASKED
    by_arxiv = await server.slash("paper", {"paper": "2502.06768v1"}, subcommand="show")
    assert (await by_arxiv.message())["embeds"][0]["title"] == MASKED
    nothing = await server.slash("paper", {"paper": "zzqx nonexistent"}, subcommand="show")
    answer = await nothing.message()
    assert answer["flags"] & EPHEMERAL
    assert answer["content"].startswith("No paper matches **zzqx nonexistent**")


async def test_an_unknown_paper_id_is_a_clear_private_answer(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    interaction = await server.slash(
        "paper", {"paper": "999999"}, subcommand="show", locale="zh-TW"
    )
    message = await interaction.message()
    assert message["flags"] & EPHEMERAL
    assert message["content"] == "論文 #999999 已不在目錄中。"


async def test_abstract_button_shows_the_abstract_or_says_there_is_none(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    message = await show_picked(server, "masked")
    pressed = await server.press(message, custom_ids(message)[0])
    answer = await pressed.message()
    assert answer["flags"] & EPHEMERAL
    assert answer["embeds"][0]["title"] == MASKED
    assert answer["embeds"][0]["description"] == (
        "The catalogue has no abstract for this paper yet; the links above lead to it."
    )

    await CatalogRepository(db, SystemClock()).apply(
        batch(award("Quokka Alignment Revisited", abstract="We *revisit* quokkas. They smile.")),
        actor="test",
        policy="update",
    )
    shown = await show_picked(server, "quokka")
    assert (
        shown["embeds"][0]["description"]
        == "*From the abstract:* We \\*revisit\\* quokkas. They smile."
    )
    answer = await (await server.press(shown, custom_ids(shown)[0])).message()
    assert answer["embeds"][0]["description"] == "We \\*revisit\\* quokkas. They smile."


async def test_another_and_similar_buttons(laurel: LaurelBot, server: LocalDiscord) -> None:
    message = await show_picked(server, "masked")
    _, _, another, similar = custom_ids(message)
    other = await (await server.press(message, another)).message()
    assert other["flags"] & EPHEMERAL
    assert other["embeds"][0]["title"] != MASKED
    assert len(buttons(other)) == 4

    # Similar by topic (issue 27): "Segment Anything" has a close match, SAM 2.
    message = await show_picked(server, "segment anything")
    similar = custom_ids(message)[3]  # Abstract, Sources, Another paper, Similar
    shown_id = int(similar.rsplit(":", 1)[1])
    listed = await (await server.press(message, similar)).message()
    assert listed["flags"] & EPHEMERAL
    assert listed["embeds"][0]["title"].startswith("Papers like")
    similar_ids = opened(listed)
    assert 1 <= len(similar_ids) <= 5
    assert shown_id not in similar_ids  # a paper is not listed as like itself
    first = custom_ids(listed)[0]
    assert first == f"paper:open:{similar_ids[0]}"
    detail = await (await server.press(listed, first)).message()
    assert detail["embeds"][0]["title"] == "SAM 2: Segment Anything in Images and Videos"
    assert custom_ids(detail)[0] == f"paper:abstract:{similar_ids[0]}"  # that paper, opened


async def test_buttons_work_after_a_restart(server: LocalDiscord, db: Database) -> None:
    async with laurel_on(server, db, clock=SystemClock()):
        message = await show_picked(server, "masked", locale="zh-TW")
        results = await (
            await server.slash("paper", {"query": "learning"}, subcommand="search")
        ).message()
    async with laurel_on(server, db, clock=SystemClock()):
        abstract, sources, another, similar = custom_ids(message)
        answer = await (await server.press(message, abstract, locale="zh-TW")).message()
        assert answer["embeds"][0]["footer"]["text"] == "論文摘要"
        told = await (await server.press(message, sources, locale="zh-TW")).message()
        assert told["embeds"][0]["title"] == "資料來源"
        assert (await (await server.press(message, another)).message())["embeds"]
        said = await (await server.press(message, similar, locale="zh-TW")).message()
        assert said["embeds"] or said["content"].startswith("沒有相近的論文")  # an answer
        next_page = [c for c in custom_ids(results) if c.startswith("paper:page:1:")]
        assert next_page
        paged = await (await server.press(results, next_page[0])).message()
        assert paged["id"] == results["id"]
        assert paged["embeds"][0]["footer"]["text"].startswith("Page 2 of ")
        assert " · results 6–10 of " in paged["embeds"][0]["footer"]["text"]
        assert opened(paged)[0] not in opened(results)


async def test_a_button_on_a_deleted_paper_says_so(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    message = await show_picked(server, "masked")
    paper_id = int(custom_ids(message)[0].rsplit(":", 1)[1])

    def delete(conn: Connection) -> None:
        conn.execute("DELETE FROM awards WHERE paper_id = ?", (paper_id,))
        conn.execute("DELETE FROM papers WHERE id = ?", (paper_id,))

    await db.write(delete)
    answer = await (await server.press(message, custom_ids(message)[0])).message()
    assert answer["flags"] & EPHEMERAL
    assert answer["content"] == f"Paper #{paper_id} is no longer in the catalogue."


async def test_search_pages_forward_and_back(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    await CatalogRepository(db, SystemClock()).apply(
        batch(*(award(f"Wombat Learning Part {n}") for n in range(12))),
        actor="test",
        policy="update",
    )
    first = await (await server.slash("paper", {"query": "wombat"}, subcommand="search")).message()
    assert first["flags"] & EPHEMERAL == 0
    (embed,) = first["embeds"]
    assert embed["title"] == "Papers matching “wombat”"
    assert embed["footer"]["text"] == "Page 1 of 3 · results 1–5 of 12"
    assert embed["description"].startswith("**1.** **Wombat Learning Part")
    labels = [b["label"] for b in buttons(first)]
    assert labels == ["1", "2", "3", "4", "5", "Previous", "Next"]
    previous, following = buttons(first)[5:]
    assert previous["disabled"]
    assert not following.get("disabled")

    second = await (await server.press(first, following["custom_id"])).message()
    assert second["embeds"][0]["footer"]["text"] == "Page 2 of 3 · results 6–10 of 12"
    assert [b["label"] for b in buttons(second)][:5] == ["6", "7", "8", "9", "10"]
    third = await (await server.press(second, buttons(second)[-1]["custom_id"])).message()
    assert third["embeds"][0]["footer"]["text"] == "Page 3 of 3 · results 11–12 of 12"
    assert buttons(third)[-1]["disabled"]
    back = await (await server.press(third, buttons(third)[-2]["custom_id"])).message()
    assert back["embeds"][0]["footer"]["text"] == "Page 2 of 3 · results 6–10 of 12"
    assert second["embeds"][0]["description"].startswith("**6.** ")


async def test_a_search_with_few_matches_goes_on_with_papers_close_to_it(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    await CatalogRepository(db, SystemClock()).apply(
        batch(award("Quokka Navigation in Deserts"), award("Quokka Ecology")),
        actor="test",
        policy="update",
    )
    message = await (
        await server.slash("paper", {"query": "quokka navigation"}, subcommand="search")
    ).message()
    (embed,) = message["embeds"]
    matched, close = embed["description"].split(
        "\n\n__Close to your search (not every word matches)__\n\n"
    )
    assert matched.startswith("**1.** **Quokka Navigation in Deserts**")
    assert close.startswith("**2.** ")  # numbered on, as its Open button is
    assert "Quokka Ecology" in close
    shown = close.count("\n\n") + 1
    assert embed["footer"]["text"] == f"Page 1 of 1 · results 1–1 of 1 · {shown} more close to it"
    assert [b["label"] for b in buttons(message)] == [str(n) for n in range(1, shown + 2)]
    zh = await (
        await server.slash(
            "paper", {"query": "quokka navigation"}, subcommand="search", locale="zh-TW"
        )
    ).message()
    assert "__相近的結果（未符合全部關鍵字）__" in zh["embeds"][0]["description"]
    assert zh["embeds"][0]["footer"]["text"].endswith(f"另有 {shown} 筆相近")


async def test_a_chinese_search_reads_words_no_summary_has_through_the_dictionary(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    """充氣 (inflatable) and 棲息地 (habitat) are in no summary of ours and in no learned
    gloss: the dictionary the bot loads as it starts reads them as English."""
    await CatalogRepository(db, SystemClock()).apply(
        batch(award("Inflatable Habitats for Quokkas")), actor="test", policy="update"
    )
    message = await (
        await server.slash("paper", {"query": "充氣棲息地"}, subcommand="search", locale="zh-TW")
    ).message()
    (embed,) = message["embeds"]
    assert embed["description"].startswith("**1.** **Inflatable Habitats for Quokkas**")


async def test_search_in_chinese_with_filters(laurel: LaurelBot, server: LocalDiscord) -> None:
    interaction = await server.slash(
        "paper",
        {"query": "擴散", "venue": "icml", "year": 2025},
        subcommand="search",
        locale="zh-TW",
    )
    message = await interaction.message()
    (embed,) = message["embeds"]
    assert embed["title"] == "符合「擴散」的論文"
    assert int(await pick(server, "masked")) in opened(message)
    assert embed["footer"]["text"].startswith("第 1/")


async def test_an_empty_search_is_a_clear_private_answer(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    interaction = await server.slash(
        "paper", {"query": "zyzzyva", "venue": "aaai"}, subcommand="search"
    )
    message = await interaction.message()
    assert message["flags"] & EPHEMERAL
    assert message["content"].startswith("No awarded paper matches **zyzzyva** with those filters")


async def test_a_long_query_fits_the_custom_id_and_still_pages(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    await CatalogRepository(db, SystemClock()).apply(
        batch(*(award(f"Numbat {n} " + "zebra " * 15) for n in range(7))),
        actor="test",
        policy="update",
    )
    query = "numbat " + "zebra " * 30
    message = await (await server.slash("paper", {"query": query}, subcommand="search")).message()
    assert all(len(c) <= 100 for c in custom_ids(message))
    page = await (await server.press(message, custom_ids(message)[-1])).message()
    assert page["embeds"][0]["footer"]["text"] == "Page 2 of 2 · results 6–7 of 7"


async def test_random_with_filters(laurel: LaurelBot, server: LocalDiscord) -> None:
    interaction = await server.slash(
        "paper", {"venue": "ICML", "year": 2025, "kind": "outstanding"}, subcommand="random"
    )
    (embed,) = (await interaction.message())["embeds"]
    awards = {f["name"]: f["value"] for f in embed["fields"]}["Awards"]
    assert "ICML 2025 · Outstanding Paper Award" in awards
    none = await server.slash("paper", {"venue": "icml", "year": 2013}, subcommand="random")
    answer = await none.message()
    assert answer["flags"] & EPHEMERAL
    assert answer["content"] == "No awarded paper matches those filters."


class TimePassesAsItIsRead(ManualClock):
    """The ManualClock, moved on a quarter second each time the bot reads the wall clock:
    an answer that looked at it twice would see its second look land in the next day."""

    def now(self) -> dt.datetime:
        seen = super().now()
        self.advance(0.25)
        return seen


async def test_today_is_the_same_paper_all_day(server: LocalDiscord, db: Database) -> None:
    clock = ManualClock(dt.datetime(2026, 3, 2, 0, 0, 1, tzinfo=dt.UTC))
    async with laurel_on(server, db, clock=clock):
        first = await (await server.slash("paper", subcommand="today")).message()
        clock.set(dt.datetime(2026, 3, 2, 23, 59, 59, tzinfo=dt.UTC))
        again = await (await server.slash("paper", subcommand="today", locale="zh-TW")).message()
        clock.advance(1)  # midnight, UTC
        tomorrow = await (await server.slash("paper", subcommand="today")).message()
    assert first["embeds"][0]["title"] == again["embeds"][0]["title"]
    assert first["embeds"][0]["footer"]["text"].startswith("Paper of the day · 2026-03-02 · ")
    assert again["embeds"][0]["footer"]["text"].startswith("每日論文 · 2026-03-02 · ")
    assert tomorrow["embeds"][0]["footer"]["text"].startswith("Paper of the day · 2026-03-03 · ")
    assert tomorrow["embeds"][0]["title"] != first["embeds"][0]["title"]  # no repeat next day


async def test_today_begun_a_tenth_before_midnight_is_that_days_answer(
    server: LocalDiscord, db: Database
) -> None:
    clock = TimePassesAsItIsRead(dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC))
    async with laurel_on(server, db, clock=clock) as bot:
        # Set once the bot is up: its start reads the clock too (the command-sync lease).
        before_midnight = dt.datetime(2026, 3, 2, 23, 59, 59, 900_000, tzinfo=dt.UTC)
        clock.advance((before_midnight - ManualClock.now(clock)).total_seconds())
        message = await (await server.slash("paper", subcommand="today")).message()
        day = dt.date(2026, 3, 2)
        picked = await bot.papers.get(paper_of_the_day(await bot.papers.main_award_ids(), 0, day))
    assert clock.now().date() == dt.date(2026, 3, 3)  # the clock is past midnight by now
    (embed,) = message["embeds"]
    assert picked is not None
    # The day was read once, as the command came in: the heading and the pick agree on it.
    assert embed["footer"]["text"].startswith("Paper of the day · 2026-03-02 · ")
    assert embed["title"] == picked.paper.title


async def test_random_in_traditional_chinese(laurel: LaurelBot, server: LocalDiscord) -> None:
    interaction = await server.slash(
        "paper",
        {"venue": "icml", "year": 2025, "kind": "outstanding"},
        subcommand="random",
        locale="zh-TW",
    )
    message = await interaction.message()
    (embed,) = message["embeds"]
    assert [f["name"] for f in embed["fields"]][:3] == ["作者", "機構", "獎項"]
    labels = [c["label"] for row in message["components"] for c in row["components"]]
    assert "換一篇" in labels


async def test_another_paper_keeps_the_filters(laurel: LaurelBot, server: LocalDiscord) -> None:
    """Issue 27: after `/paper random venue:NeurIPS year:2024`, Another paper showed a NAACL
    paper; after `area:` an unrelated one. Every press keeps the filters, and so does the
    detail it opens."""
    asked = {"venue": "neurips", "year": 2024}
    message = await (await server.slash("paper", asked, subcommand="random")).message()
    for _ in range(4):
        another = custom_ids(message)[2]  # Abstract, Sources, Another paper, Similar
        assert another.endswith(":neurips:2024:")
        message = await (await server.press(message, another)).message()
        assert "NeurIPS 2024" in fields(message["embeds"][0])["Awards"]
    area = {"area": "reinforcement learning"}  # any of its names
    message = await (await server.slash("paper", area, subcommand="random")).message()
    for _ in range(4):
        message = await (await server.press(message, custom_ids(message)[2])).message()
        shown = fields(message["embeds"][0])["Research area"]
        assert shown == "Reinforcement Learning & Decision Making"


async def test_search_autocompletes_titles_as_one_types(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    choices = await server.autocomplete(
        "paper", {"query": "gated atte"}, "query", subcommand="search"
    )
    assert choices
    assert choices[0]["value"].startswith("Gated Attention for Large Language Models")
    results = await (
        await server.slash("paper", {"query": choices[0]["value"]}, subcommand="search")
    ).message()
    # The first result opens the paper whose title was picked.
    assert opened(results)[0] == int(await pick(server, "gated atte"))


async def test_only_the_searcher_turns_the_pages_of_a_search(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    results = await (
        await server.slash("paper", {"query": "learning"}, subcommand="search")
    ).message()
    (next_page,) = [c for c in custom_ids(results) if c.startswith("paper:page:1:")]
    (guild,) = server.world.guilds.values()
    for locale, start in (("en-US", "Only the person who searched"), ("zh-TW", "只有搜尋的人")):
        other = await server.press(results, next_page, user_id=guild.owner_id, locale=locale)
        refused = await other.message()
        assert refused["flags"] & EPHEMERAL
        assert refused["content"].startswith(start)
    unchanged = server.messages(int(results["channel_id"]))
    assert [m["embeds"] for m in unchanged if m["id"] == results["id"]] == [results["embeds"]]
    paged = await (await server.press(results, next_page)).message()  # the searcher
    assert paged["embeds"][0]["footer"]["text"].startswith("Page 2 of ")
