"""The venue spotlight is one compact post (issue 25, item 6): ACL 2017 arrived as 3 embeds of
22 titles with "Track: Long Paper" twenty times. Now: the top awards first, a count of the
rest, and the full list named by its command's mention; no ledger code in a preview."""

from __future__ import annotations

import pytest

from bot.app import LaurelBot
from bot.domain.subscriptions import DigestFilter
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.commands import mention
from tests.support.digest_commands import digest, stored_sub

MORE = {
    "en": "… and {rest} more awards at ACL 2017: {cmd} lists them all.",
    "zh-TW": "……ACL 2017 另有 {rest} 個獎項：用 {cmd} 查看完整名單。",
    "zh-CN": "……ACL 2017 另有 {rest} 个奖项：用 {cmd} 查看完整名单。",
}


@pytest.mark.parametrize("language", ["en", "zh-TW", "zh-CN"])
async def test_a_spotlight_of_a_big_edition_is_one_compact_post(
    laurel: LaurelBot, server: LocalDiscord, language: str
) -> None:
    awards = await laurel.papers.awarded_at("acl", 2017)
    total = sum(1 for p in awards for a in p.awards if a.venue == "acl" and a.year == 2017)
    assert total > 10  # a big edition
    guild = server.world.default_guild().id
    only_acl_2017 = DigestFilter(venue="acl", year_from=2017, year_to=2017)
    sub = await laurel.subscriptions.add(
        stored_sub(
            laurel, guild, server.channel("general").id, theme="venue-spotlight",
            cadence="weekly", days=[0], language=language, filters=only_acl_2017,
        )
    )  # fmt: skip
    await digest(server, "post-now", subscription=sub.id)
    (post,) = server.messages("general", ephemeral=False)
    (embed,) = post["embeds"]
    description = embed["description"]
    assert description.count("\n**") + description.startswith("**") <= 5 + 3  # ≤ 5 entries
    assert MORE[language].format(rest=total - 5, cmd=mention(server, "awards edition")) in (
        description.replace("\\", "")
    )
    assert description.count("Long Paper") + description.count("長論文") <= 5

    preview = await digest(server, "preview", subscription=sub.id)
    footers = [e.get("footer", {}).get("text", "") for e in preview["embeds"]]
    assert not any("preview" in f for f in footers)  # was "… · preview"
