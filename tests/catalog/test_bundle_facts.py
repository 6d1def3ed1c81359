"""The per-paper facts files (tools/bundle/papers/*.toml) merged into the converted catalogue.

Fixture datasets and facts only: the real tools/bundle/papers is the writers' and changes."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from bot.catalog.bundled import load_bundled
from bot.domain.areas import OUR_CLASSIFICATION
from bot.domain.models import Award
from tools import bundle
from tools.bundle.facts import FactsError

TITLE = "Bridging the Gap between Training and Inference"
OTHER = "A Paper Without Area"
READ = "https://aclanthology.org/P19-1426/"


def _write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    root = tmp_path / "datasets"
    _write(
        root,
        "ai-bestpapers/papers.yml",
        f"""
        - venue: ACL
          year: 2019
          awards:
          - award: Best Paper
            title: {TITLE}
            author: Wen Zhang, Yang Feng, et al.
            link: https://arxiv.org/abs/1906.02448
            source: https://acl2019.org/EN/winners.html
          - award: Outstanding Paper
            title: {OTHER}
            author: Ada Lovelace
            link: https://arxiv.org/abs/1906.00001
            source: https://acl2019.org/EN/winners.html
        """,
    )
    _write(root, "ai-bestpapers/venues.yml", "- name: ACL\n  long: ACL\n  link: aclweb.org\n")
    _write(
        root,
        "awesome-ai-best-papers/papers.csv",
        "venue,year,award,tier,title,paper_url,source_url,checked_at,notes\n",
    )
    _write(
        root,
        "awesome-ai-best-papers/paper_taxonomy.csv",
        f"""
        venue,year,title,area,task,model_family
        ACL,2019,{TITLE},NLP & Language,Language Modeling & Generation,RNN
        """,
    )
    _write(
        root,
        "awesome-ai-best-papers/venues.csv",
        """
        venue,full_name,area,official_url,award_url,cadence,notes
        ACL,Annual Meeting of the ACL,NLP,https://aclweb.org/,https://aclweb.org/,annual,
        """,
    )
    return root


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    _write(folder, "venues.toml", '[[venues]]\nkey = "icml"\nname = "ICML"\n')
    return folder


FACTS = f"""
[[papers]]
year = 2019
title = "{TITLE}"
read = "{READ}"
summaries.en = "Teacher forcing trains on gold words; this samples 2 kinds of context."
summaries."zh-TW" = "以 2 種脈絡取樣。"
summaries."zh-CN" = "以 2 种语境取样。"
authors = ["Wen Zhang", "Yang Feng", "Fandong Meng", "Di You", "Qun Liu"]
authors_source = "https://aclanthology.org/P19-1426/"
affiliations = ["Institute of Computing Technology, Chinese Academy of Sciences"]
affiliations_source = "https://aclanthology.org/P19-1426.pdf"
code = "https://github.com/example/bridging"
code_source = "https://aclanthology.org/P19-1426.pdf"

[[papers]]
year = 2019
title = "{OTHER}"
read = "https://arxiv.org/abs/1906.00001"
area = "Reinforcement Learning & Decision Making"
task = "Reinforcement Learning & Planning"
aliases = ["OtherNet"]
aliases_source = "https://arxiv.org/abs/1906.00001"
published = 2017
published_source = "https://example.org/proceedings/2017/other"
"""


def _convert(shared: Path, data: Path, facts: str, tmp_path: Path) -> list[Award]:
    papers = tmp_path / "papers"
    _write(papers, "acl.toml", facts)
    result = bundle.convert(shared, data, None, papers)
    for path, text in result.files.items():
        _write(data, str(path), text)
    return list(load_bundled(data).awards)


def _award(awards: list[Award], title: str) -> Award:
    (found,) = [a for a in awards if a.paper.title == title]
    return found


def test_summaries_come_with_their_source_per_language(
    shared: Path, data: Path, tmp_path: Path
) -> None:
    paper = _award(_convert(shared, data, FACTS, tmp_path), TITLE).paper
    assert set(paper.summaries) == {"en", "zh-TW", "zh-CN"}
    for language in ("en", "zh-TW", "zh-CN"):
        source = paper.summary_source(language)
        assert source is not None
        assert source.url == READ
    assert paper.area == "NLP & Language"
    assert paper.task == "Language Modeling & Generation"
    assert not paper.classified_by_us("area")  # the taxonomy's


def test_a_page_read_in_a_datasets_record_of_it_says_so(
    shared: Path, data: Path, tmp_path: Path
) -> None:
    """147 ICRA/IROS summaries were written from IEEE Xplore abstracts as papercopilot/paperlists
    keeps them (Xplore's pages are not stored): the summary's source says so, for curators."""
    via = "https://github.com/papercopilot/paperlists/blob/33f9884/acl/acl2019.json"
    facts = FACTS.replace(f'read = "{READ}"\n', f'read = "{READ}"\nread_via = "{via}"\n', 1)
    paper = _award(_convert(shared, data, facts, tmp_path), TITLE).paper
    source = paper.summary_source("en")
    assert source is not None
    assert source.url == READ
    assert via in (source.note or "")
    plain = _award(_convert(shared, data, FACTS, tmp_path), TITLE).paper.summary_source("en")
    assert plain is not None
    assert plain.note is None


def test_every_summary_read_on_ieee_xplore_names_the_record_it_was_read_in() -> None:
    """IEEE Xplore's pages are not among the stored copies: a summary citing one was read in a
    dataset's record of it, and its source must say which."""
    unsaid = [
        f"{a.venue} {a.year} {a.paper.title}"
        for a in load_bundled().awards
        for language in a.paper.summaries
        if (source := a.paper.summary_source(language)) is not None
        and "ieeexplore.ieee.org" in (source.url or "")
        and "paperlists" not in (source.note or "")
    ]
    assert unsaid == []


def test_an_area_and_task_we_read_are_marked_ours(shared: Path, data: Path, tmp_path: Path) -> None:
    paper = _award(_convert(shared, data, FACTS, tmp_path), OTHER).paper
    assert paper.area == "Reinforcement Learning & Decision Making"
    assert paper.task == "Reinforcement Learning & Planning"
    assert paper.classified_by_us("area")
    assert paper.classified_by_us("task")
    (ours,) = [s for s in paper.sources if s.document == OUR_CLASSIFICATION]
    assert ours.url == "https://arxiv.org/abs/1906.00001"
    assert paper.summaries == {}


def test_a_byline_replaces_the_cut_short_one_which_stays_an_alternative(
    shared: Path, data: Path, tmp_path: Path
) -> None:
    paper = _award(_convert(shared, data, FACTS, tmp_path), TITLE).paper
    assert paper.authors == ("Wen Zhang", "Yang Feng", "Fandong Meng", "Di You", "Qun Liu")
    assert not paper.authors_incomplete
    assert ("authors", ["Wen Zhang", "Yang Feng"]) in [
        (a.field, a.value) for a in paper.alternatives
    ]
    assert paper.affiliations == ("Institute of Computing Technology, Chinese Academy of Sciences",)
    covered = {c: s.url for s in paper.sources for c in s.covers}
    assert covered["authors"] == "https://aclanthology.org/P19-1426/"
    assert covered["affiliations"] == "https://aclanthology.org/P19-1426.pdf"
    assert covered["links.code"] == "https://aclanthology.org/P19-1426.pdf"


def test_the_code_link_is_of_kind_code_and_never_the_main_link(
    shared: Path, data: Path, tmp_path: Path
) -> None:
    paper = _award(_convert(shared, data, FACTS, tmp_path), TITLE).paper
    assert paper.links.code == "https://github.com/example/bridging"
    assert paper.links.arxiv == "https://arxiv.org/abs/1906.02448"
    assert paper.links.project is None


def test_an_alias_ships_with_the_page_that_uses_it(
    shared: Path, data: Path, tmp_path: Path
) -> None:
    """Issue 27: a bundled alias (AlexNet) only with its source, which covers `aliases`."""
    paper = _award(_convert(shared, data, FACTS, tmp_path), OTHER).paper
    assert paper.aliases == ("OtherNet",)
    covered = {c: s.url for s in paper.sources for c in s.covers}
    assert covered["aliases"] == "https://arxiv.org/abs/1906.00001"
    assert _award(_convert(shared, data, FACTS, tmp_path), TITLE).paper.aliases == ()


def test_a_publication_year_ships_with_its_source(shared: Path, data: Path, tmp_path: Path) -> None:
    """A paper's year as a page gives it, with a source covering it; the one the datasets imply
    (the award's) stays an alternative."""
    awards = _convert(shared, data, FACTS, tmp_path)
    paper = _award(awards, OTHER).paper
    assert paper.year == 2017
    covered = {c: s.url for s in paper.sources for c in s.covers}
    assert covered["year"] == "https://example.org/proceedings/2017/other"
    (kept,) = [a for a in paper.alternatives if a.field == "year"]
    assert kept.value == 2019
    assert _award(awards, TITLE).paper.year == 2019  # no `published`: the datasets' year


def test_without_a_facts_folder_nothing_changes(shared: Path, data: Path) -> None:
    result = bundle.convert(shared, data, None, data / "no-such-folder")
    assert "summaries" not in result.files[Path("awards/acl.toml")]


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        (FACTS.replace("read = ", "summary = ", 1), "acl.toml, papers[1] (2019 “Bridging"),
        (FACTS.replace("read = ", "summary = ", 1), "summary: Extra inputs are not permitted"),
        (FACTS.replace(f'read = "{READ}"\n', "", 1), "`read` (the page the summaries"),
        (FACTS.replace('"Reinforcement Learning & Decision Making"', '"Robotics"'), "area: Input"),
        (FACTS.replace('"Reinforcement Learning & Planning"', '"Planning"'), "task: Input"),
        (FACTS.replace('code_source = "https://aclanthology.org/P19-1426.pdf"\n', ""), "code"),
        (FACTS.replace('aliases_source = "https://arxiv.org/abs/1906.00001"\n', ""), "aliases"),
        (FACTS.replace("published_source = ", "# ", 1), "`published` is given without"),
        (FACTS.replace("published = 2017", "published = 2020", 1), "after the award's year 2019"),
        (FACTS.replace("year = 2019", "year = 2018", 1), "no paper of 2018 with this title"),
        (
            FACTS.replace(
                'read = "https://arxiv.org/abs/1906.00001"',
                'read = "https://arxiv.org/abs/1906.00001"\nread_via = "https://example.org/r"',
            ),
            "`read_via` is given without `summaries`",
        ),
        (FACTS.replace(TITLE, TITLE.lower(), 1), f"the catalogue spells the title “{TITLE}”"),
        (FACTS.replace("summaries.en =", "summaries.fr ="), "summaries.fr"),
        (FACTS + FACTS.split("[[papers]]")[1].join(["[[papers]]", ""]), "one table a paper"),
        (
            FACTS.replace(f'title = "{TITLE}"', f'title = "{TITLE}"\narea = "NLP & Language"'),
            "the taxonomy gives this paper the area “NLP & Language”",
        ),
        ("[meta]\nx = 1\n", "unknown key(s) meta"),
        (FACTS.replace('"Di You"', '"Di You*"'), "`authors` keeps footnote marks: Di You*"),
        (FACTS.replace('Sciences"]', 'Sciences♡"]'), "`affiliations` keeps footnote marks"),
    ],
)
def test_a_bad_entry_is_refused_naming_file_and_entry(
    shared: Path, data: Path, tmp_path: Path, facts: str, expected: str
) -> None:
    with pytest.raises(FactsError) as caught:
        _convert(shared, data, facts, tmp_path)
    assert expected in str(caught.value)
    assert "acl.toml" in str(caught.value)


def test_a_file_for_a_venue_the_catalogue_lacks_is_refused(
    shared: Path, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    papers = tmp_path / "papers"
    _write(papers, "acml.toml", FACTS)
    args = ["--shared", str(shared), "--data", str(data), "--papers", str(papers), "--links", ""]
    assert bundle.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ")
    assert "no venue 'acml'" in err
    assert not (data / "awards").exists()  # nothing half-written


def test_a_fact_the_hand_written_catalogue_gives_is_refused(
    shared: Path, data: Path, tmp_path: Path
) -> None:
    _write(
        data,
        "2019/acl.toml",
        f"""
        [[venues]]
        key = "acl"
        name = "ACL"

        [[awards]]
        venue = "acl"
        year = 2019
        name = "Best Paper"
        kind = "best"
        [awards.paper]
        title = "{TITLE}"
        arxiv = "1906.02448"
        summaries = {{ en = "Ours, by hand." }}
        """,
    )
    with pytest.raises(FactsError, match=r"hand-written catalogue already gives summaries\.en"):
        _convert(shared, data, FACTS, tmp_path)
