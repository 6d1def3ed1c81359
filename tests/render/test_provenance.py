"""What curators are shown of an area's and a summary's provenance (members are shown none)."""

from __future__ import annotations

import pytest

from bot.domain.areas import OUR_CLASSIFICATION
from bot.domain.models import Paper, Source, StoredPaper
from bot.render.curate import provenance_field
from bot.render.i18n import Strings
from bot.render.paper import paper_embed

TAXONOMY = Source(url="https://github.com/shunk031/awesome-ai-best-papers", covers=("area",))
READ = "https://arxiv.org/abs/1502.05477"


@pytest.fixture(scope="module")
def strings() -> Strings:
    return Strings.load()


def test_the_taxonomys_area_and_ours_are_told_apart(strings: Strings) -> None:
    theirs = Paper(
        title="TRPO", area="Reinforcement Learning & Decision Making", sources=(TAXONOMY,)
    )
    ours = Paper(
        title="TRPO",
        area="Reinforcement Learning & Decision Making",
        sources=(Source(url=READ, document=OUR_CLASSIFICATION, covers=("area",)),),
    )
    for paper, expected in ((theirs, "the taxonomy's"), (ours, "Laurel's classification")):
        field = provenance_field(paper, strings, "en")
        assert field is not None
        assert expected in field.value


def test_each_summary_names_its_page_or_says_it_has_none(strings: Strings) -> None:
    paper = Paper(
        title="TRPO",
        summaries={"en": "Trust regions.", "zh-TW": "信賴域。"},
        sources=(Source(url=READ, covers=("summaries.en",)),),
    )
    field = provenance_field(paper, strings, "zh-TW")
    assert field is not None
    assert field.value.splitlines() == [
        f"簡介（en）：依據 <{READ}> 撰寫",  # 摘要 is the abstract (issue 25, item 3)
        "簡介（zh-TW）：沒有記錄來源網頁",
    ]
    assert provenance_field(Paper(title="TRPO"), strings, "en") is None


def test_members_are_not_told_whose_classification_it_is(strings: Strings) -> None:
    paper = Paper(
        title="TRPO",
        area="Reinforcement Learning & Decision Making",
        sources=(Source(url=READ, document=OUR_CLASSIFICATION, covers=("area",)),),
    )
    embed = paper_embed(StoredPaper(id=1, paper=paper), strings, "en")
    text = str(embed.to_dict())
    assert "Where the area and summaries come from" not in text
    assert "classification" not in text
