"""A fuzz of what curators type into /curate paper add and edit, through the very functions the
commands use, on a real SQLite store: whatever is typed, either one clear refusal and nothing
written, or rows that are valid, clean, and exactly what the preview showed."""

from __future__ import annotations

import asyncio
import datetime as dt
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.catalog.curation import CurationService
from bot.commands.curate.inputs import AwardOptions, paper_from_form
from bot.domain.clock import SystemClock
from bot.domain.models import LANGUAGES, AwardKind, CatalogBatch, Paper, Venue
from bot.domain.text import clean_text
from bot.domain.writes import WriteContext
from bot.errors import UserError
from bot.render.i18n import Strings
from bot.store import rows
from bot.store.catalog.edits import EditWriter
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.sql import Connection
from tests.support.awards import award
from tests.support.backends import open_sqlite

EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)

# Characters a person (or a paste) brings: letters of several scripts, digits, punctuation,
# white space, and the troublemakers: controls, bidi overrides, zero-width and format marks.
NASTY = "\x00\x07\x1b\x7f\u0085\u200b\u200e\u202a\u202e\u2066\u2069\ufeff\u00ad\t\r"
clean = st.text(
    alphabet=st.one_of(
        st.characters(categories=("L", "N", "P", "S", "Zs"), codec="utf-8"),
        st.sampled_from(list("  ;:/.@-é漢字")),
    ),
    max_size=60,
)
nasty = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),  # utf-8 has no lone surrogates
        st.sampled_from(list(NASTY + "\n")),
    ),
    max_size=60,
)
text = clean
urls = st.one_of(
    st.sampled_from(
        [
            "https://example.org/code",
            "http://example.org/a?b=c#d",
            "javascript:alert(1)",
            "data:text/html,hi",
            "https://user:pw@example.org/",
            "https://@example.org/",
            "ftp://example.org/",
            "https://",
            "//example.org/x",
        ]
    ),
    st.builds(lambda path: f"https://example.org/{path}", st.text(max_size=20)),
)
good_urls = st.sampled_from(["https://example.org/code", "http://example.org/a?b=c#d"])
link_lines = st.lists(
    st.builds(
        lambda kind, url: f"{kind} {url}",
        st.sampled_from(["code", "pdf", "project", "openreview", "arxiv", "home", "CODE"]),
        st.one_of(good_urls, good_urls, urls),
    ),
    max_size=3,
).map("\n".join)
dois = st.one_of(
    st.none(),
    st.sampled_from(["10.1145/3292500.3330701", "10.5555/ABC.def", "doi:10.1/x", "10.1234"]),
    st.builds(lambda suffix: f"10.5555/{suffix}", text),
)
clean_forms = st.fixed_dictionaries(
    {
        "title": st.one_of(text, text, text, st.text(min_size=490, max_size=520)),
        "authors": st.lists(text, max_size=4).map("\n".join),
        "links": link_lines,
        "abstract": st.one_of(text, st.just("")),
    },
    optional={"doi": dois.map(lambda d: d or ""), "affiliations": text},
)


def _inject(form: dict[str, str], bad: tuple[str, int, str] | None) -> dict[str, str]:
    """The form with one troublesome character slipped into one field, or as it is."""
    if bad is None or bad[0] not in form:
        return form
    field, position, char = bad
    value = form[field]
    return {**form, field: value[:position] + char + value[position:]}


# What people type, or the same with what a bad paste or a prankster brings.
forms = st.builds(
    _inject,
    clean_forms,
    st.one_of(
        st.none(),
        st.tuples(
            st.sampled_from(["title", "authors", "affiliations", "abstract", "doi", "links"]),
            st.integers(0, 60),
            st.sampled_from(list(NASTY)),
        ),
    ),
)
options = st.builds(
    AwardOptions,
    venue=st.sampled_from(["icml", "neurips"]),
    year=st.one_of(*[st.integers(1950, 2100)] * 3, st.integers(1900, 2200)),
    kind=st.sampled_from(list(AwardKind)),
    track=st.one_of(st.none(), text, text, nasty),
    name=st.one_of(st.none(), text, text, nasty),
    source=st.one_of(st.none(), urls),
)
STRINGS = Strings.load()
FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with two venues and one paper to edit, made once and copied per example."""
    path = tmp_path_factory.mktemp("fuzz") / "laurel.db"

    async def build() -> None:
        async with await open_sqlite(path) as db:
            venues = (Venue(key="icml", name="ICML"), Venue(key="neurips", name="NeurIPS"))
            catalog = CatalogRepository(db, SystemClock())
            await catalog.apply(CatalogBatch(venues=venues), actor="t", policy="update")
            seed = award("A Seed Paper", arxiv="2502.06768", authors=["A. One"], doi="10.5555/seed")
            await catalog.apply(CatalogBatch(awards=(seed,)), actor="t", policy="update")

    asyncio.run(build())
    return path


def _snapshot(conn: Connection) -> list[tuple[object, ...]]:
    tables = ("papers", "paper_authors", "paper_affiliations", "awards", "editions", "audit")
    return [tuple(r) for t in tables for r in conn.execute(f"SELECT * FROM {t}")]


def _visible(text_value: str) -> bool:
    return not any(unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co"} for ch in text_value)


def _check_stored(conn: Connection) -> None:
    """Every stored paper is valid, clean, and unchanged by validating it again."""
    for row in conn.execute("SELECT id FROM papers"):
        paper = _stored(conn, row[0])
        assert Paper.model_validate(paper.model_dump()) == paper
        assert clean_text(paper.title, max_length=500) == paper.title
        for name in (*paper.authors, *paper.affiliations):
            assert _visible(name)
            assert clean_text(name, max_length=300) == name
        for url in paper.links.model_dump(exclude_none=True).values():
            parts = urlsplit(url)
            assert parts.scheme in {"http", "https"}
            assert parts.hostname
            assert "@" not in parts.netloc
        assert paper.doi is None or paper.doi == paper.doi.lower()


def _stored(conn: Connection, paper_id: int) -> Paper:
    writer = EditWriter(conn, WriteContext("read", "update", "read", EPOCH))  # reads only
    stored = writer.current("paper", str(paper_id))
    assert stored is not None
    stored.pop("removed_at")
    return rows.paper_model(stored)


def _refused(refusal: UserError) -> None:
    event(f"refused: {refusal.key}")
    # A refusal is a message the curator can read: it must render in every language.
    for language in LANGUAGES:
        assert STRINGS.text(refusal.key, language, **refusal.params)


async def _add(path: Path, form: Mapping[str, str], given: AwardOptions) -> None:
    async with await open_sqlite(path) as db:
        papers, catalog = PaperRepository(db), CatalogRepository(db, SystemClock())
        before = await db.snapshot(_snapshot)
        try:
            paper = paper_from_form(form)
            batch = await CurationService(papers, catalog).prepare_addition(given.award(paper))
        except UserError as refusal:
            _refused(refusal)
            assert await db.snapshot(_snapshot) == before
            return
        event("written")
        plan = await catalog.apply(batch, actor="discord:1", policy="update")
        assert plan.rejected == []
        assert plan.count("add", "paper") == 1
        await db.snapshot(_check_stored)
        found = await db.fetchone("SELECT max(id) FROM papers")
        assert found is not None
        written = await db.snapshot(lambda conn: _stored(conn, found[0]))
        assert written == paper  # what the preview showed is what is stored


async def _edit(path: Path, form: Mapping[str, str]) -> None:
    async with await open_sqlite(path) as db:
        papers, catalog = PaperRepository(db), CatalogRepository(db, SystemClock())
        seed = await papers.by_arxiv("2502.06768")
        assert seed is not None
        before = await db.snapshot(_snapshot)
        try:
            edited = paper_from_form(form, base=seed.paper)
        except UserError as refusal:
            _refused(refusal)
            assert await db.snapshot(_snapshot) == before
            return
        event("written")
        plan = await catalog.replace_paper(seed.id, edited, actor="discord:1")
        assert plan.rejected == []
        await db.snapshot(_check_stored)
        written = await db.snapshot(lambda conn: _stored(conn, seed.id))
        assert written == edited  # what the curator saw is what is stored
        assert (written.arxiv, written.doi) == (seed.paper.arxiv, seed.paper.doi)


@FUZZ
@given(form=forms, given_options=options)
def test_adding_never_writes_an_invalid_row(
    template: Path, tmp_path: Path, form: dict[str, str], given_options: AwardOptions
) -> None:
    path = tmp_path / "laurel.db"
    path.write_bytes(template.read_bytes())
    asyncio.run(_add(path, form, given_options))


@FUZZ
@given(form=forms.map(lambda f: {k: v for k, v in f.items() if k != "doi"}))
def test_editing_never_writes_an_invalid_row(
    template: Path, tmp_path: Path, form: dict[str, str]
) -> None:
    path = tmp_path / "laurel.db"
    path.write_bytes(template.read_bytes())
    asyncio.run(_edit(path, form))
