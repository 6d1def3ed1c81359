from __future__ import annotations

import datetime as dt
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml

from bot.catalog.document import DocumentError
from bot.catalog.importers import ai_bestpapers
from bot.domain.models import AwardKind, CatalogBatch, Venue

NEURIPS = Venue(key="neurips", name="NeurIPS", aliases=("NIPS",))


def _parse(
    tmp_path: Path, papers: str, venues: str | None = None, known: Sequence[Venue] = ()
) -> CatalogBatch:
    path = tmp_path / "papers.yml"
    path.write_text(textwrap.dedent(papers), encoding="utf-8")
    if venues is not None:
        (tmp_path / "venues.yml").write_text(textwrap.dedent(venues), encoding="utf-8")
    return ai_bestpapers.parse(path, known)


def test_author_separators_and_the_authors_key(tmp_path: Path) -> None:
    batch = _parse(
        tmp_path,
        """
        - venue: NeurIPS
          year: 2023
          awards:
          - award: Best Paper
            title: Commas
            author: Ada Lovelace, Alan Turing,  and Grace Hopper
          - award: Best Paper
            title: Dots
            author: Ada Lovelace · Alan
              Turing · Grace Hopper
          - award: Best Paper
            title: Plural key
            authors: Ada Lovelace and Alan Turing
          - award: Best Paper
            title: Footnotes and broken brackets
            author: Mian Wei1, Han Hu), Zheng Zhang (MSRA, Guoquan (Paul) Huang
        """,
        known=[NEURIPS],
    )
    assert batch.rejected == ()
    authors = {award.paper.title: award.paper.authors for award in batch.awards}
    assert authors["Commas"] == ("Ada Lovelace", "Alan Turing", "Grace Hopper")
    assert authors["Dots"] == ("Ada Lovelace", "Alan Turing", "Grace Hopper")
    assert authors["Plural key"] == ("Ada Lovelace", "Alan Turing")
    assert authors["Footnotes and broken brackets"] == (
        "Mian Wei",
        "Han Hu",
        "Zheng Zhang",
        "Guoquan (Paul) Huang",
    )


def test_links_become_ids_and_link_slots(tmp_path: Path) -> None:
    batch = _parse(
        tmp_path,
        """
        - venue: nips
          year: 2021
          awards:
          - {award: Outstanding Paper, title: A, link: https://arxiv.org/pdf/2106.00489v3.pdf}
          - {award: Outstanding Paper, title: B, link: "http://arxiv.org/abs/1511.06279"}
          - {award: Outstanding Paper, title: C, link: "https://openreview.net/forum?id=z71OSKqTFh7"}
          - {award: Outstanding Paper, title: D, link: https://doi.org/10.1145/ABC.123}
          - {award: Outstanding Paper, title: E, link: https://dl.acm.org/doi/abs/10.1145/3592110}
          - {award: Outstanding Paper, title: F, link: http://example.org/paper.PDF}
          - {award: Outstanding Paper, title: G, link: https://example.org/project}
          - {award: Outstanding Paper, title: H, link: "https://ojs.aaai.org/index.php/AAAI/article/download/25128/24900"}
          - {award: Outstanding Paper, title: I, link: "https://ojs.aaai.org/index.php/AAAI/article/view/25128"}
        """,
        known=[NEURIPS],
    )
    assert batch.rejected == ()
    assert {award.venue for award in batch.awards} == {"neurips"}
    papers = {award.paper.title: award.paper for award in batch.awards}
    assert (papers["A"].arxiv, papers["A"].arxiv_version) == ("2106.00489", 3)
    assert papers["A"].links.arxiv == "https://arxiv.org/abs/2106.00489v3"
    assert papers["A"].links.pdf == "https://arxiv.org/pdf/2106.00489v3.pdf"
    assert (papers["B"].arxiv, papers["B"].arxiv_version) == ("1511.06279", None)
    assert papers["B"].links.arxiv == "https://arxiv.org/abs/1511.06279"
    assert papers["C"].links.openreview == "https://openreview.net/forum?id=z71OSKqTFh7"
    assert papers["D"].doi == "10.1145/abc.123"
    assert papers["E"].doi == "10.1145/3592110"
    assert papers["E"].links.project == "https://dl.acm.org/doi/abs/10.1145/3592110"
    assert papers["F"].links.pdf == "http://example.org/paper.PDF"
    assert (papers["G"].links.project, papers["G"].doi) == ("https://example.org/project", None)
    # an OJS article's file is its PDF (AAAI's proceedings), its page is not
    assert (
        papers["H"].links.pdf == "https://ojs.aaai.org/index.php/AAAI/article/download/25128/24900"
    )
    assert papers["I"].links.project == "https://ojs.aaai.org/index.php/AAAI/article/view/25128"


def test_bad_links_are_dropped_and_the_award_kept(tmp_path: Path) -> None:
    batch = _parse(
        tmp_path,
        """
        - venue: NeurIPS
          year: 2023
          awards:
          - award: Best Paper
            title: Swapped
            author: https://arxiv.org/abs/2209.07753
            link: Jacky Liang, Andy Zeng
            source: ftp://example.org/awards
          - award: Best Paper
            title: Not a link
            author: Ada Lovelace
            link: javascript:alert(1)
            source: https://example.org/awards
        """,
        known=[NEURIPS],
    )
    assert batch.rejected == ()
    swapped, not_a_link = batch.awards
    assert swapped.paper.authors == ("Jacky Liang", "Andy Zeng")
    assert swapped.paper.arxiv == "2209.07753"
    assert [s.url for s in swapped.sources] == ["https://arxiv.org/abs/2209.07753"]
    assert not_a_link.paper.links.model_dump(exclude_none=True) == {}
    assert [s.url for s in not_a_link.sources] == ["https://example.org/awards"]


def test_unknown_venue_is_created_from_venues_yml_or_its_name(tmp_path: Path) -> None:
    batch = _parse(
        tmp_path,
        """
        - venue: CORL
          year: 2023
          place: Washington, DC, USA
          date: October 25 - January 24, 2023
          awards:
          - {award: Best Paper, title: A}
        - venue: IJCAI-JAIR
          year: 2019
          place: ''
          date: '2019'
          awards:
          - {award: Best Paper, title: B}
        - venue: ICRA
          year: 2021
          place: Online
          date: May 30 - June 5, 2021
          awards: []
        - venue: Humanoids
          year: 2020
          place: Munich, Germany
          date: July 19-21, 2021
          awards: []
        - venue: NeurIPS
          year: 2022
          place: New Orleans, USA
          date: sometime in December
          awards: []
        """,
        venues="""
        - name: CoRL
          long: Conference on Robot Learning
          source: [CORL, Conference on Robot Learning]
          link: www.robot-learning.org
        """,
    )
    assert batch.rejected == ()
    corl, jair, icra, humanoids, neurips = batch.venues
    assert corl == Venue(
        key="corl",
        name="CoRL",
        full_name="Conference on Robot Learning",
        url="https://www.robot-learning.org",
        aliases=("Conference on Robot Learning",),
    )
    assert jair == Venue(key="ijcai-jair", name="IJCAI-JAIR")
    assert (icra.key, humanoids.key, neurips.key) == ("icra", "humanoids", "neurips")
    editions = {edition.venue: edition for edition in batch.editions}
    assert editions["corl"].city == "Washington, DC"
    assert editions["corl"].country == "USA"
    # A range that runs into January ends in the next year.
    assert editions["corl"].start_date == dt.date(2023, 10, 25)
    assert editions["corl"].end_date == dt.date(2024, 1, 24)
    assert editions["ijcai-jair"].model_dump(include={"city", "country", "month"}) == {
        "city": None,
        "country": None,
        "month": None,
    }
    assert (editions["icra"].city, editions["icra"].note) == (None, "Held online.")
    assert editions["icra"].end_date == dt.date(2021, 6, 5)
    # Held in July 2021 for the 2020 edition: kept as a note rather than as wrong dates.
    assert editions["humanoids"].start_date is None
    assert editions["humanoids"].note == "Held July 19-21, 2021."
    assert editions["humanoids"].city == "Munich"
    assert (editions["neurips"].start_date, editions["neurips"].month) == (None, 12)


def test_a_record_without_title_is_rejected_with_a_reason(tmp_path: Path) -> None:
    batch = _parse(
        tmp_path,
        """
        - venue: NeurIPS
          year: 2023
          awards:
          - {award: Best Paper, title: Kept}
          - {award: Best Paper, author: Ada Lovelace, link: https://arxiv.org/abs/2305.08846}
          - {award: '', title: No award name}
          - {award: Best Paper, title: Too many authors, author: "AUTHORS"}
        - venue: NeurIPS
          year: 1066
          awards:
          - {award: Best Paper, title: Too early}
        """.replace("AUTHORS", ", ".join(["A B"] * 3001)),
        known=[NEURIPS],
    )
    assert [award.paper.title for award in batch.awards] == ["Kept"]
    reasons = {rejection.where: rejection.reason for rejection in batch.rejected}
    assert set(reasons) == {
        "papers.yml NeurIPS 2023 awards[1]",
        "papers.yml NeurIPS 2023 awards[2]",
        "papers.yml NeurIPS 2023 awards[3]",
        "papers.yml NeurIPS 1066 awards[0]",
    }
    assert "has no paper title" in reasons["papers.yml NeurIPS 2023 awards[1]"]
    assert "no name" in reasons["papers.yml NeurIPS 2023 awards[2]"]
    assert reasons["papers.yml NeurIPS 2023 awards[3]"].startswith("authors:")
    assert "year" in reasons["papers.yml NeurIPS 1066 awards[0]"]


def test_the_same_paper_awarded_twice_gives_two_awards(tmp_path: Path) -> None:
    batch = _parse(
        tmp_path,
        """
        - venue: ICRA
          year: 2020
          awards:
          - award: Best Paper
            title: Preference-Based Learning for Exoskeleton Gait Optimization
            link: https://arxiv.org/abs/1909.12316
          - award: Best Human-Robot Interaction Paper
            title: Preference-Based Learning for Exoskeleton Gait Optimization
            link: https://arxiv.org/abs/1909.12316
        """,
    )
    first, second = batch.awards
    assert first.paper.title == second.paper.title
    assert first.paper.arxiv == second.paper.arxiv == "1909.12316"
    # A category's best paper is a category award, not the venue's best paper (issue 24).
    assert (first.kind, second.kind) == (AwardKind.BEST, AwardKind.OTHER)
    assert (first.track, second.track) == (None, "Human-Robot Interaction")


def test_test_of_time_papers_take_the_year_the_name_gives(tmp_path: Path) -> None:
    batch = _parse(
        tmp_path,
        """
        - venue: CVPR
          year: 2015
          awards:
          - {award: Retrospective Most Impactful Paper from CVPR 2005, title: HOG}
          - {award: Test of Time, title: Older}
          - {award: Best Paper, title: New}
        """,
    )
    assert [award.paper.year for award in batch.awards] == [2005, None, 2015]


def test_a_file_that_is_not_a_list_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="list"):
        _parse(tmp_path, "venue: NeurIPS\n")
    with pytest.raises(DocumentError, match="YAML"):
        _parse(tmp_path, "- [unclosed\n")


def test_the_real_file(shared_dir: Path) -> None:
    path = shared_dir / "datasets" / "ai-bestpapers" / "papers.yml"
    editions = yaml.safe_load(path.read_text(encoding="utf-8"))
    award_count = sum(len(edition["awards"]) for edition in editions)
    assert award_count == 574

    batch = ai_bestpapers.parse(path, known=[NEURIPS])

    assert len(batch.awards) + len(batch.rejected) == award_count
    assert all("awards[" in rejection.where for rejection in batch.rejected)
    assert len(batch.editions) == len(editions)
    known = {NEURIPS.key} | {venue.key for venue in batch.venues}
    assert {award.venue for award in batch.awards} <= known
    assert {edition.venue for edition in batch.editions} <= known
    assert len(batch.venues) == len({edition["venue"] for edition in editions}) - 1
    assert "neurips" not in {venue.key for venue in batch.venues}

    by_title = {(a.venue, a.year, a.paper.title): a for a in batch.awards}
    privacy = by_title["neurips", 2023, "Privacy Auditing with One (1) Training Run"]
    assert (privacy.kind, privacy.track) == (AwardKind.OUTSTANDING, "Main Track")
    assert privacy.paper.arxiv == "2305.08846"
    assert privacy.paper.authors == ("Thomas Steinke", "Milad Nasr", "Matthew Jagielski")
    dpo = by_title[
        "neurips",
        2023,
        "Direct Preference Optimization: Your Language Model is Secretly a Reward Model",
    ]
    assert (dpo.kind, dpo.track) == (AwardKind.RUNNER_UP, "Main Track")
    assert dpo.paper.authors[-1] == "Chelsea Finn"
    hog = by_title["cvpr", 2015, "Histograms of oriented gradients for human detection"]
    assert (hog.kind, hog.paper.year) == (AwardKind.TEST_OF_TIME, 2005)
    # Its author and link fields are swapped in the file.
    code = by_title["icra", 2023, "Code As Policies: Language Model Programs for Embodied Control"]
    assert code.paper.arxiv == "2209.07753"
    assert code.paper.authors[0] == "Jacky Liang"
