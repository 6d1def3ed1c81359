"""The converter: the datasets become data/awards/, reproducibly, with every conflict kept."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from bot.catalog.bundled import load_bundled
from bot.domain.models import AwardKind, CatalogBatch
from tools import bundle

DATA_DIR = bundle.REPO / "data"
SHARED = bundle.REPO.parent / "shared" / "datasets"
LINKS = bundle.REPO / "tools" / "bundle" / "paper_links.toml"
PAPERS = bundle.REPO / "tools" / "bundle" / "papers"  # the writers' per-paper facts
needs_shared = pytest.mark.skipif(
    not (SHARED / "ai-bestpapers" / "papers.yml").is_file(),
    reason=f"the datasets are not here ({SHARED}); the committed data/awards/ is not checked",
)


@pytest.fixture(scope="module")
def converted() -> bundle.Result:
    return bundle.convert(SHARED, DATA_DIR, LINKS, PAPERS)


@needs_shared
def test_the_committed_files_are_what_the_converter_writes(converted: bundle.Result) -> None:
    stale = [
        str(path)
        for path, text in converted.files.items()
        if (DATA_DIR / path).read_text(encoding="utf-8") != text
    ]
    extra = {p.relative_to(DATA_DIR) for p in (DATA_DIR / "awards").glob("*.toml")}
    assert stale == [], "run `python -m tools.bundle` and commit data/"
    assert extra == {p for p in converted.files if p.parts[0] == "awards"}


@needs_shared
def test_a_second_run_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    shutil.rmtree(data / "awards")
    args = ["--shared", str(SHARED), "--data", str(data), "--links", str(LINKS)]
    assert bundle.main(args) == 0
    first = {p: p.read_bytes() for p in sorted(data.rglob("*.toml"))}
    capsys.readouterr()
    assert bundle.main(args) == 0
    assert "wrote 0 file(s)" in capsys.readouterr().out
    assert {p: p.read_bytes() for p in sorted(data.rglob("*.toml"))} == first


@needs_shared
def test_the_merge_report_names_each_conflict(converted: bundle.Result) -> None:
    report = "\n".join(converted.report.lines + converted.report.conflicts)
    # 447 rows of awesome-ai-best-papers, less the 10 ICLR 2020 awards never given (issue 24).
    assert "read 574 awards of ai-bestpapers and 437 of awesome-ai-best-papers" in report
    assert report.count("rejected papers.csv line") == 10
    assert "Marr Prize" in report
    assert all(": " in line for line in converted.report.conflicts)


def test_the_bundled_catalogue_spans_the_venues_and_years() -> None:
    batch = load_bundled()
    assert len(batch.awards) >= 800
    venues = {a.venue for a in batch.awards}
    assert {"acl", "cvpr", "emnlp", "iccv", "naacl", "iros", "icra", "corl", "rss"} <= venues
    assert min(a.year for a in batch.awards) <= 2013
    for venue in batch.venues:
        assert venue.full_name, venue.key
        assert venue.url, venue.key


def test_every_generated_award_cites_its_page_and_every_paper_its_dataset() -> None:
    batch = _generated()
    assert [a.paper.title for a in batch.awards if not any(s.url for s in a.sources)] == []
    assert [a.paper.title for a in batch.awards if not a.paper.sources] == []


def test_datasets_that_disagree_keep_both_values() -> None:
    (mask,) = [a for a in _generated().awards if a.paper.title == "Mask R-CNN"]
    # awesome-ai-best-papers (the venue's page) calls it the Marr Prize, ai-bestpapers "Best
    # Paper": the venue's name is kept, the other an alternative; both read as ICCV's best paper.
    assert (mask.venue, mask.year, mask.name, mask.kind) == ("iccv", 2017, "Marr Prize", "best")
    assert {(a.field, a.value) for a in mask.alternatives} == {("name", "Best Paper")}
    assert all(a.reason for a in mask.alternatives)
    assert mask.paper.arxiv == "1703.06870"
    assert mask.paper.area == "Computer Vision"


def test_the_hand_written_award_wins_and_the_dataset_value_is_an_alternative() -> None:
    (revelations,) = [
        a for a in _generated().awards if a.paper.title.startswith("Revelations: A Decidable")
    ]
    assert revelations.kind is AwardKind.BEST  # as data/2025/aaai.toml has it
    assert ("kind", "outstanding") in {(a.field, a.value) for a in revelations.alternatives}


def _generated() -> CatalogBatch:
    return load_bundled(DATA_DIR / "awards")


def _write(root: Path, name: str, text: str) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")


@pytest.fixture
def small(tmp_path: Path) -> tuple[Path, Path]:
    """Tiny datasets: one paper both give (a year apart), one cut short, two without a link."""
    shared = tmp_path / "datasets"
    _write(
        shared,
        "ai-bestpapers/papers.yml",
        """
        - venue: ACL
          year: 2019
          awards:
          - award: Best Paper
            title: Bridging the Gap between Training and Inference
            author: Wen Zhang, Yang Feng, et al.
            link: https://arxiv.org/abs/1906.02448
            source: https://acl2019.org/EN/winners.html
          - award: Outstanding Paper
            title: A Dataset Paper Given Without Link
            author: Ada Lovelace
            link: null
            source: https://acl2019.org/EN/winners.html
          place: Florence, Italy
          date: July 28 - August 2, 2019
        """,
    )
    _write(shared, "ai-bestpapers/venues.yml", "- name: ACL\n  long: ACL\n  link: aclweb.org\n")
    _write(
        shared,
        "awesome-ai-best-papers/papers.csv",
        """
        venue,year,award,tier,title,paper_url,source_url,checked_at,notes
        ACL,2020,Best Paper,primary,Bridging the Gap between Training and Inference,,https://acl.org/a,2026-10-07,
        ACL,2024,Best Paper,primary,A Paper Without Link,,https://acl.org/b,2026-10-07,
        """,
    )
    _write(
        shared,
        "awesome-ai-best-papers/paper_taxonomy.csv",
        """
        venue,year,title,area,task,model_family
        ACL,2020,Bridging the Gap between Training and Inference,NLP & Language,x,y
        """,
    )
    _write(
        shared,
        "awesome-ai-best-papers/venues.csv",
        """
        venue,full_name,area,official_url,award_url,cadence,notes
        ACL,Annual Meeting of the ACL,NLP,https://aclweb.org/,https://aclweb.org/,annual,
        """,
    )
    data = tmp_path / "data"
    _write(data, "venues.toml", '[[venues]]\nkey = "icml"\nname = "ICML"\n')
    links = tmp_path / "paper_links.toml"
    _write(
        tmp_path,
        "paper_links.toml",
        """
        [[papers]]
        venue = "ACL"
        year = 2024
        title = "A Paper Without Link"
        url = "https://aclanthology.org/2024.acl-long.999/"
        source = "https://aclanthology.org/events/acl-2024/"
        checked = "title"

        [[papers]]
        venue = "ACL"
        year = 2019
        title = "A Dataset Paper Given Without Link"
        arxiv = "1906.00001"
        doi = "10.18653/v1/P19-9999"
        source = "https://example.org/acl-2019-paper"
        checked = "title+authors"
        """,
    )
    # No per-paper facts: the real ones (tools/bundle/papers) name venues this fixture lacks.
    (tmp_path / "papers").mkdir()
    args = ["--shared", str(shared), "--data", str(data), "--links", str(links)]
    assert bundle.main([*args, "--papers", str(tmp_path / "papers")]) == 0
    return data, links


def test_a_cut_short_author_list_is_marked(small: tuple[Path, Path]) -> None:
    batch = load_bundled(small[0])
    (bridging,) = [a for a in batch.awards if a.paper.title.startswith("Bridging")]
    assert bridging.paper.authors == ("Wen Zhang", "Yang Feng")
    assert bridging.paper.authors_incomplete


def test_a_year_the_datasets_disagree_on_is_kept(small: tuple[Path, Path]) -> None:
    batch = load_bundled(small[0])
    (bridging,) = [a for a in batch.awards if a.paper.title.startswith("Bridging")]
    assert bridging.year == 2020
    assert ("year", 2019) in {(a.field, a.value) for a in bridging.alternatives}
    assert bridging.paper.area == "NLP & Language"
    assert {v.key for v in batch.venues} == {"icml", "acl"}


def test_a_paper_without_link_takes_the_one_in_the_links_table(small: tuple[Path, Path]) -> None:
    batch = load_bundled(small[0])
    (linked,) = [a for a in batch.awards if a.paper.title == "A Paper Without Link"]
    assert linked.paper.links.project == "https://aclanthology.org/2024.acl-long.999/"
    assert any(s.url == "https://aclanthology.org/events/acl-2024/" for s in linked.paper.sources)


def test_a_paper_only_ai_bestpapers_gives_without_link_takes_the_links_table(
    small: tuple[Path, Path],
) -> None:
    batch = load_bundled(small[0])
    (linked,) = [a for a in batch.awards if a.paper.title == "A Dataset Paper Given Without Link"]
    assert linked.paper.arxiv == "1906.00001"
    assert linked.paper.links.arxiv == "https://arxiv.org/abs/1906.00001"
    assert linked.paper.doi == "10.18653/v1/p19-9999"  # DOIs are kept in lower case
    (source,) = [s for s in linked.paper.sources if s.url == "https://example.org/acl-2019-paper"]
    assert set(source.covers) == {"arxiv", "doi"}
