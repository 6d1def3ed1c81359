"""A member's answer about any bundled paper or edition shows no refused site, no dataset name,
no commit and no disagreement: those are curators' (issue 24)."""

from __future__ import annotations

import re

import pytest

from bot.catalog.bundled import load_bundled
from bot.domain.models import Alternative, AwardRef, Language, Paper, Source, StoredPaper, Venue
from bot.domain.provenance import domains
from bot.domain.reader_sources import published_title
from bot.render.alternatives import disagreements
from bot.render.i18n import Strings
from bot.render.paper import paper_embed, sources_embed
from bot.render.stats import edition_embed

BATCH = load_bundled()


@pytest.fixture(scope="module")
def strings() -> Strings:
    return Strings.load()


BOOKKEEPING = re.compile(r"commit [0-9a-f]{7}|ai-bestpapers|awesome-ai-best-papers|Conference-Acc")


def _texts(embed: object) -> str:
    fields = getattr(embed, "fields", [])
    return "\n".join([str(getattr(embed, "description", "") or "")] + [f.value for f in fields])


@pytest.mark.parametrize("language", ["en", "zh-TW"])
def test_no_paper_answer_shows_a_refused_site_or_bookkeeping(
    strings: Strings, language: Language
) -> None:
    bad = []
    for number, award in enumerate(BATCH.awards):
        ref = AwardRef(
            venue=award.venue,
            venue_name=award.venue.upper(),
            year=award.year,
            name=award.name,
            kind=award.kind,
            sources=award.sources,
            alternatives=award.alternatives,
        )
        stored = StoredPaper(id=number, paper=award.paper, awards=(ref,))
        embed = paper_embed(stored, strings, language)
        shown = _texts(embed)
        names = [f.name for f in embed.fields]
        if any(site in shown for site in domains().refused) or BOOKKEEPING.search(shown):
            bad.append(award.paper.title)
        if "Sources disagree" in names or "來源說法不一" in names:
            bad.append(award.paper.title)
    assert bad == []


def test_no_edition_answer_shows_other_figures_or_bookkeeping(strings: Strings) -> None:
    venues = {v.key: v for v in BATCH.venues}
    bad = []
    for edition in BATCH.editions:
        venue = venues.get(edition.venue, Venue(key=edition.venue, name=edition.venue))
        embed = edition_embed(venue, edition, None, strings, "en")
        shown = _texts(embed)
        if BOOKKEEPING.search(shown) or "Also reported" in [f.name for f in embed.fields]:
            bad.append((edition.venue, edition.year))
    assert bad == []


def test_the_link_shown_is_the_venues_page_where_the_award_cites_one(strings: Strings) -> None:
    award = next(a for a in BATCH.awards if a.venue == "iros" and a.year == 2019)
    ref = AwardRef(
        venue="iros",
        venue_name="IROS",
        year=2019,
        name=award.name,
        kind=award.kind,
        sources=award.sources,
    )
    embed = paper_embed(StoredPaper(id=1, paper=award.paper, awards=(ref,)), strings, "en")
    assert str({f.name: f.value for f in embed.fields}["Source"]).startswith("[iros2019.org]")


def test_the_sources_button_lists_every_source_but_a_refused_one(strings: Strings) -> None:
    paper = Paper(
        title="T",
        sources=(
            Source(url="https://geekdaxue.co/read/t"),
            Source(url="https://github.com/clemense/ai-bestpapers", document="ai-bestpapers"),
        ),
        alternatives=(
            Alternative(
                field="year",
                value=2016,
                source=Source(document='"Awards of 2016" (blog post)'),
                reason="curators' words",
            ),
            Alternative(
                field="title", value="T.", source=Source(document="D"), reason="curators' words"
            ),
        ),
    )
    embed = sources_embed(StoredPaper(id=1, paper=paper), strings, "en")
    assert "geekdaxue" not in (embed.description or "")
    assert "ai-bestpapers" in (embed.description or "")
    # A reader is told a source's published title, or "another source" where the catalogue has
    # only its own note of it ("D"): never the note.
    assert (
        embed.fields[0].value == "• Year: “2016” (Awards of 2016)\n• Title: “T.” (another source)"
    )


# The sources of AAAI 2024's GxVAEs as the catalogue records them: the catalogue's own English
# notes of what was read, a dataset's file and commit, two notes of one unlinked page.
_RECORDED = (
    Source(
        url="https://aaai.org/about-aaai/aaai-awards/aaai-conference-paper-awards-and-recognition/",
        document="shunk031/awesome-ai-best-papers data/papers.csv (commit 41de508, CC0)",
    ),
    Source(document="awesome-ai-best-papers papers.csv (CC0), AAAI 2024 rows"),
    Source(document='"2024 AI 頂會在收什麼題目：Agent 元年與 Scaling 辯論" (2026-08-24)'),
    Source(
        document="Reproducibility-review collection on GitHub, entry AAAI/2024/Proceedings/30357",
        covers=("title",),
    ),
    Source(
        document="Reproducibility-review collection on GitHub, entry AAAI/2024/Proceedings/30357",
        covers=("links",),
    ),
    Source(
        url="https://github.com/naruto7283/GxVAEs/blob/22f9f01/README.md",
        document="The authors' code repository, README (commit 22f9f01)",
        covers=("summaries",),
    ),
    Source(url="https://ar5iv.labs.arxiv.org/html/1906.06226v2", document="arXiv 1906.06226"),
    Source(
        url="https://github.com/shunk031/awesome-ai-best-papers",
        document="shunk031/awesome-ai-best-papers data/paper_taxonomy.csv (commit fe11660, CC0)",
    ),
)


def test_the_sources_button_reads_in_the_readers_language(strings: Strings) -> None:
    """Issue 25: the Sources answer showed zh readers the catalogue's English notes ("The
    authors' code repository, README (commit 22f9f01)"), a dataset's file and commit linked to
    the venue's page, and one unlinked note twice. A reader is shown what each source is, in
    their language, by its published title or its site; the datasets by name, once."""
    paper = Paper(title="GxVAEs", sources=_RECORDED)
    embed = sources_embed(StoredPaper(id=1, paper=paper), strings, "zh-CN")
    assert (embed.description or "").split("\n") == [
        "• 会议官网：[aaai.org](https://aaai.org/about-aaai/aaai-awards/"
        "aaai-conference-paper-awards-and-recognition/)",
        "• 预印本：[arxiv.org](https://arxiv.org/abs/1906.06226)",
        "• 仓库：[github.com/naruto7283/GxVAEs](https://github.com/naruto7283/GxVAEs)",
        "• 文章：2024 AI 頂會在收什麼題目：Agent 元年與 Scaling 辯論（繁体中文）",
        "• 另参考公开数据集 awesome-ai-best-papers",
    ]
    english = sources_embed(StoredPaper(id=1, paper=paper), strings, "en").description or ""
    assert english.split("\n")[0].startswith("• Venue page: [aaai.org]")
    assert "commit" not in english
    assert "Reproducibility" not in english


@pytest.mark.parametrize(
    ("document", "title"),
    [
        ('機器之心, "ICML2025杰出論文出爐：8篇獲獎" (2025-07-16)', "ICML2025杰出論文出爐：8篇獲獎"),
        ("2025 AI 頂會導讀：機器學習篇 (2026-08-24)", "2025 AI 頂會導讀：機器學習篇 (2026-08-24)"),
        ("新智元, NeurIPS 2024最佳论文开奖 (repost)", "新智元, NeurIPS 2024最佳论文开奖"),
        ("The authors' code repository, README (commit fae8866)", None),
        ("ICLR Blog, “ICLR 2024 Test of Time Award”", "ICLR 2024 Test of Time Award"),
    ],
)
def test_a_published_title_is_told_from_the_catalogues_note(
    document: str, title: str | None
) -> None:
    assert published_title(document) == title


def test_the_sources_button_tells_a_reader_of_facts_not_of_record_fields(
    strings: Strings,
) -> None:
    """A link variant (links.project) is a curator's matter: raw field names leaked into the
    zh-TW and zh-CN Sources answers (the language walk found "links.project：…")."""
    variant = Alternative(
        field="links.project",
        value="https://example.org/p",
        source=Source(document="D"),
        reason="the proceedings page, kept as the project link",
    )
    paper = Paper(title="T", alternatives=(variant,))
    embed = sources_embed(StoredPaper(id=1, paper=paper), strings, "zh-TW")
    assert embed.fields == []
    curators = disagreements(paper, (), strings, "en")
    assert curators is not None
    assert "links" in curators
