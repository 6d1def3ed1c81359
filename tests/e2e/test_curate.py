"""/curate paper on the stand-in: who may curate, adding (from arXiv and by form), editing,
removing, and an add → edit → undo → history round trip that restores the exact row."""

from __future__ import annotations

import asyncio

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localarxiv.server import LocalArxiv
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import (
    FORM,
    MASKED_ARXIV,
    ada,
    add_by_form,
    arxiv,
    audit_count,
    button,
    curate,
    curator_bot,
    grace,
    paper_row,
    settings_for,
)
from tests.support.interactions import EPHEMERAL
from tests.support.payloads import fields

__all__ = ["arxiv", "curator_bot"]  # fixtures, from tests/support


async def test_a_member_who_is_not_a_curator_is_refused_and_nothing_is_written(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    before = await audit_count(db)
    for subcommand, options in (
        ("paper add", {"venue": "ICML", "year": 2025, "award": "best", "arxiv": "1605.08386"}),
        ("paper remove", {"paper": MASKED_ARXIV}),
        ("export", {}),
        ("undo", {"change": 1}),
    ):
        refused = await curate(server, subcommand, options, user_id=grace(server))
        message = await refused.message()
        assert message["flags"] & EPHEMERAL
        assert message["content"].startswith("Only Laurel's curators may change the catalogue")
    assert await audit_count(db) == before


async def test_settings_name_curators_by_role_and_limit_curation_to_a_home_server(
    server: LocalDiscord, db: Database
) -> None:
    member_role = server.world.find_role("Member")
    async with laurel_on(server, db, settings_for(role_ids=[member_role.id]), clock=SystemClock()):
        allowed = await curate(server, "history", user_id=grace(server))
        assert (await allowed.message())["embeds"][0]["title"] == "Catalogue history"
    async with laurel_on(server, db, settings_for(home_guild_id=1234), clock=SystemClock()):
        elsewhere = await curate(server, "history")
        message = await elsewhere.message()
        assert message["content"] == "The catalogue is curated in Laurel's home server only."


async def test_add_from_arxiv_previews_then_writes_once_however_often_confirm_is_pressed(
    server: LocalDiscord, db: Database, arxiv: LocalArxiv
) -> None:
    async with laurel_on(server, db, settings_for(arxiv.url), clock=SystemClock()):
        asked = await curate(
            server,
            "paper add",
            {"venue": "NeurIPS", "year": 2016, "award": "best", "arxiv": "arXiv:1605.08386v1"},
        )
        preview = await asked.message()
        (embed,) = preview["embeds"]
        assert embed["title"] == "Heat-bath random walks with Markov bases"
        assert fields(embed)["Awards"] == "NeurIPS 2016 · Best Paper Award (Best paper)"
        assert await db.fetchone("SELECT 1 FROM papers WHERE arxiv = '1605.08386'") is None

        stranger = await server.press(
            preview, button(preview, "curate:confirm"), user_id=grace(server)
        )
        assert (await stranger.message())["content"].startswith("Only the curator who asked")

        confirm = button(preview, "curate:confirm")
        first, second = await asyncio.gather(
            server.press(preview, confirm, user_id=ada(server)),
            server.press(preview, confirm, user_id=ada(server)),
        )
        answers = [await first.message(), await second.message()]
        assert sorted(a["content"] for a in answers)[1].startswith("This has already been answered")
        stored = await db.fetchall(
            "SELECT id, abstract, arxiv_version FROM papers WHERE arxiv = '1605.08386'"
        )
        assert len(stored) == 1
        assert stored[0]["arxiv_version"] == 1
        assert stored[0]["abstract"].startswith("Graphs on lattice points")
        ours = await db.fetchall(
            "SELECT action, entity FROM audit WHERE actor = ? ORDER BY id",
            (f"discord:{ada(server)}",),
        )
        assert [(r["action"], r["entity"]) for r in ours] == [("add", "paper"), ("add", "award")]


async def test_add_edit_undo_history_round_trip_restores_the_exact_row(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    paper_id = await add_by_form(server, db, FORM)
    added = await paper_row(db, paper_id)
    assert [r[1] for r in added["paper_authors"]] == ["Ada Lovelace", "Grace Hopper"]
    assert added["doi"] == "10.5555/curated.2025"

    opened = await curate(server, "paper edit", {"paper": str(paper_id)})
    await opened.response()
    assert opened.modal is not None
    prefilled = {
        c["components"][0]["custom_id"]: c["components"][0].get("value")
        for c in opened.modal["components"]
    }
    assert prefilled["title"] == FORM["title"]
    assert prefilled["authors"] == "Ada Lovelace\nGrace Hopper"
    assert prefilled["links"] == "code https://example.org/code"
    edited = await server.submit(
        opened,
        {
            "title": "Curated Attention Is Not Enough",
            "authors": "Grace Hopper",
            "affiliations": "Laurel Lab",
            "links": "",
            "abstract": "",
        },
    )
    (diff,) = (await edited.message())["embeds"]
    change_id = int(diff["title"].removeprefix("Saved as change #"))
    changed = {f["name"]: f["value"] for f in diff["fields"]}
    assert changed["title"] == "Curated Attention Is Enough → Curated Attention Is Not Enough"
    assert changed["authors"] == "Ada Lovelace; Grace Hopper → Grace Hopper"
    assert changed["abstract"] == "We curate. → —"
    row = await paper_row(db, paper_id)
    assert (row["title"], row["abstract"], row["links"]) == (
        "Curated Attention Is Not Enough",
        None,
        "{}",
    )

    history = await (await curate(server, "history", {"paper": str(paper_id)})).message()
    lines = history["embeds"][0]["description"]
    assert f"`#{change_id}`" in lines.splitlines()[0]
    assert f"<@{ada(server)}> · changed paper #{paper_id}" in lines

    undone = await (await curate(server, "undo", {"change": change_id})).message()
    assert undone["embeds"][0]["title"].startswith("Undone (change #")
    assert await paper_row(db, paper_id) == added

    history = await (await curate(server, "history", {"paper": str(paper_id)})).message()
    first = history["embeds"][0]["description"].splitlines()[0]
    assert f"changed paper #{paper_id}" in first
    assert history["embeds"][0]["footer"]["text"].startswith("Page 1 of 1")
    again = await (await curate(server, "undo", {"change": change_id})).message()
    assert again["content"].startswith(f"Change #{change_id} is already undone (by change #")


async def test_remove_hides_the_paper_and_undo_brings_it_back(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    shown = await (
        await server.slash("paper", {"paper": MASKED_ARXIV}, subcommand="show")
    ).message()
    assert shown["embeds"][0]["title"].startswith("Train for the Worst")
    preview = await (await curate(server, "paper remove", {"paper": MASKED_ARXIV})).message()
    assert preview["embeds"][0]["footer"]["text"].startswith("Remove paper #")
    cancelled = await server.press(preview, button(preview, "curate:cancel"), user_id=ada(server))
    assert (await cancelled.message())["content"] == "Cancelled; nothing was written."
    assert (
        await db.fetchone(
            "SELECT 1 FROM papers WHERE arxiv = ? AND removed_at IS NOT NULL", (MASKED_ARXIV,)
        )
        is None
    )

    preview = await (await curate(server, "paper remove", {"paper": MASKED_ARXIV})).message()
    done = await server.press(preview, button(preview, "curate:confirm"), user_id=ada(server))
    assert (await done.message())["embeds"][0]["title"] == "Removed"
    gone = await (await server.slash("paper", {"paper": MASKED_ARXIV}, subcommand="show")).message()
    assert "embeds" not in gone or not gone["embeds"]

    history = await (await curate(server, "history")).message()
    change_id = int(history["embeds"][0]["description"].split("`#")[1].split("`")[0])
    await (await curate(server, "undo", {"change": change_id})).message()
    back = await (await server.slash("paper", {"paper": MASKED_ARXIV}, subcommand="show")).message()
    assert back["embeds"][0]["title"].startswith("Train for the Worst")


async def test_two_previews_of_one_paper_add_it_once_and_the_second_says_why_not(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    previews = []
    for award in ("best", "runner up"):  # a second kind would have merged into the first paper
        opened = await curate(server, "paper add", {"venue": "ICML", "year": 2025, "award": award})
        await opened.response()
        previews.append(await (await server.submit(opened, FORM)).message())
    first = await server.press(
        previews[0], button(previews[0], "curate:confirm"), user_id=ada(server)
    )
    assert (await first.message())["embeds"][0]["title"] == "Added"
    before = await audit_count(db)
    late = await server.press(
        previews[1], button(previews[1], "curate:confirm"), user_id=ada(server)
    )
    answer = await late.message()
    assert answer["content"].startswith("Nothing was written: the catalogue already has this paper")
    assert answer["components"] == []
    assert await audit_count(db) == before
    kinds = await db.fetchall(
        "SELECT a.kind FROM awards AS a JOIN papers AS p ON p.id = a.paper_id WHERE p.title = ?",
        (FORM["title"],),
    )
    assert [r["kind"] for r in kinds] == ["best"]
