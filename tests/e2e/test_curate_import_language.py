"""/curate import says why each record was rejected in the curator's language (issue 22):
"year: Input should be a valid integer" was English for zh users."""

from __future__ import annotations

import pytest

from bot.app import LaurelBot
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import curate, curator_bot

__all__ = ["curator_bot"]

UPLOAD = (
    "venue,year,award,kind,title,arxiv_url,authors_incomplete\n"
    "icml,2025,Outstanding Paper,outstanding,A paper that is fine,,\n"
    "icml,twenty,Outstanding Paper,outstanding,A year in words,,\n"
    "icml,1800,Outstanding Paper,outstanding,A year too early,,\n"
    "icml,2025,Outstanding Paper,bogus,A kind that is none,,\n"
    "icml,2025,Outstanding Paper,outstanding,A link of another scheme,ftp://x.org/a,\n"
    "icml,2025,Outstanding Paper,outstanding,A byline unsure,,maybe\n"
    "icml,2025,Outstanding Paper,outstanding\n"
)


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        (
            "zh-TW",
            [
                "year：必須是整數",
                "year：必須大於或等於 1950",
                "kind：必須是下列之一：",
                "arxiv_url：只接受 http 與 https 連結",
                "authors_incomplete：必須是 true 或 false",
                "有 4 個值，但標題列有 7 欄",
            ],
        ),
        (
            "zh-CN",
            [
                "year：必须是整数",
                "year：必须大于或等于 1950",
                "arxiv_url：只接受 http 和 https 链接",
                "有 4 个值，但标题行有 7 列",
            ],
        ),
        ("en-US", ["year: must be a whole number", "year: must be 1950 or more"]),
    ],
)
async def test_rejection_reasons_are_in_the_curators_language(
    curator_bot: LaurelBot, server: LocalDiscord, locale: str, said: list[str]
) -> None:
    asked = await curate(server, "import", {"file": ("season.csv", UPLOAD.encode())}, locale=locale)
    (embed,) = (await asked.message())["embeds"]
    for text in said:
        assert text in embed["description"]
    assert "Input should" not in embed["description"]
