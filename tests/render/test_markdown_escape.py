"""Text from data never carries a live link into a message (issue 12, defect 6).

discord.py's escape_markdown escapes one masked link per line and leaves `<https://…>` alone:
a curator's abstract with two links made a public digest with a live phishing link. Every
renderer escapes through one helper; these tests parse what it gives the way Discord does.
"""

from __future__ import annotations

import re
from pathlib import Path

import discord
from hypothesis import given
from hypothesis import strategies as st

from bot.domain.models import AwardKind, AwardRef, Links, Paper, StoredPaper
from bot.render import awards, markdown
from bot.render.i18n import Strings
from bot.render.paper import abstract_embed, list_embed, paper_embed

EVIL = "https://evil.example/login"
# Discord drops a backslash before ASCII punctuation and shows the character as it is.
_ESCAPED = re.compile(r"\\[!-/:-@\[-`{-~]")
_MASKED = re.compile(r"\[((?:\[[^\[\]]*\]|[^\[\]])*)\]\(\s*<?([^\s)>]*)")
_ANGLE = re.compile(r"<([a-z][a-z0-9+.-]*:[^\s>]+)>", re.IGNORECASE)
PIECES = [
    "[", "]", "(", ")", "<", ">", "\\", "*", "_", "`", "|", "~", "#", "-", " ", "\n", "click",
    EVIL, f"[here]({EVIL})", f"<{EVIL}>", f"[a [b] c]({EVIL})", f"[x](<{EVIL}>)",
    "［", "］", "（", "）", "﹝", "﹞", "⁅", "⁆", "〔", "〕", "‹", "›", "\u200b", "\\\\",
]  # fmt: skip


def live_links(text: str) -> list[str]:
    """The URLs of masked and angle-bracket links Discord would make of `text`."""
    plain = _ESCAPED.sub("\0\0", text)
    return [m[2] for m in _MASKED.finditer(plain)] + [m[1] for m in _ANGLE.finditer(plain)]


def test_the_parser_here_sees_the_links_discord_sees() -> None:
    assert live_links(f"[a]({EVIL}) and [b]({EVIL})") == [EVIL, EVIL]
    assert live_links(f"\\[a]({EVIL}) and <{EVIL}>") == [EVIL]
    assert live_links(f"\\\\[a]({EVIL})") == [EVIL]  # an escaped backslash escapes nothing


def test_every_masked_link_is_escaped_not_only_the_first() -> None:
    text = " ".join(f"[link {n}]({EVIL}?{n})" for n in range(20)) + f" <{EVIL}>"
    for escape in (markdown.esc, awards.escape):
        assert live_links(escape(text)) == []


@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_no_text_escaped_for_a_message_holds_a_live_link(text: str) -> None:
    for escape in (markdown.esc, awards.escape):
        assert live_links(escape(text)) == []


def _hostile(text: str) -> StoredPaper:
    award = AwardRef(
        venue="icml", venue_name=text[:40], year=2025, name=text[:40], kind=AwardKind.BEST
    )
    fields: dict[str, object] = {
        "title": text[:300],
        "authors": [text[:100]],
        "abstract": text,
        "affiliations": [text[:100]],
    }
    fields["links"] = Links(arxiv="https://arxiv.org/abs/2502.06768")
    return StoredPaper(id=7, paper=Paper.model_validate(fields), awards=(award,))


def _texts(embed: discord.Embed) -> list[str]:
    texts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    return texts + [t for f in embed.fields for t in (f.name or "", f.value or "")]


@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=30).map(lambda p: "x " + "".join(p)))
def test_no_rendered_paper_links_anywhere_but_to_its_own_pages(text: str) -> None:
    strings, stored = Strings.load(), _hostile(text)
    for language in ("en", "zh-TW", "zh-CN"):
        embeds = [
            paper_embed(stored, strings, language),
            abstract_embed(stored, strings, language),
            list_embed("t", [stored], strings, language),
        ]
        for embed in embeds:
            for shown in _texts(embed):
                assert [u for u in live_links(shown) if "arxiv.org" not in u] == [], shown


def test_one_helper_escapes_markdown_for_every_renderer() -> None:
    """Nothing calls discord.utils.escape_markdown but the one helper that fixes it."""
    root = Path(markdown.__file__).parents[1]
    callers = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "escape_markdown(" in p.read_text(encoding="utf-8")
    )
    assert callers == ["render/markdown.py"]


def test_a_short_text_is_escaped_once_and_kept_a_long_one_every_time() -> None:
    """Names and titles recur across answers: the second escape of one is the kept result,
    the same text; an abstract-sized text is not kept (memory), and escapes the same way."""
    title = f"[Attention]({EVIL}) is *all* you need <{EVIL}>"
    first = markdown.esc(title)
    hits = markdown._kept.cache_info().hits
    assert markdown.esc(title) == first
    assert markdown._kept.cache_info().hits == hits + 1
    long = " ".join([title] * (markdown.KEPT_UP_TO // len(title) + 1))
    before = markdown._kept.cache_info()
    assert len(long) > markdown.KEPT_UP_TO
    assert markdown.esc(long) == markdown._escape(long)
    assert markdown.esc(long) == markdown._escape(long)
    # Neither looked up nor stored (the size alone says nothing once the cache is full).
    assert markdown._kept.cache_info()[:2] == before[:2]
    assert first.startswith("\\[Attention\\](")


def test_the_longest_text_kept_is_kept_up_to_characters_and_no_longer() -> None:
    at_most = "é" * (markdown.KEPT_UP_TO - 1) + "*"
    misses = markdown._kept.cache_info().misses
    markdown.esc(at_most)
    assert markdown._kept.cache_info().misses == misses + 1
    markdown.esc(at_most + "*")
    assert markdown._kept.cache_info().misses == misses + 1
