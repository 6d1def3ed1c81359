"""What a member is shown of provenance (issue 24): one link, the best source, never a refused
site; links labelled by what they are."""

from __future__ import annotations

import pytest

from bot.catalog.bundled import load_bundled
from bot.domain import provenance
from bot.domain.models import Source
from bot.domain.provenance import best_source, link_kind, refused

REFUSED = ["geekdaxue.co", "joltml.com", "prosaga.cn", "arxiv-vanity.com"]


@pytest.mark.parametrize("site", REFUSED)
def test_the_content_farms_are_refused(site: str) -> None:
    assert refused(f"https://www.{site}/some/page")
    assert refused(f"https://{site}/x")


def test_the_venues_own_page_comes_first_then_proceedings_then_the_preprint() -> None:
    sources = [
        Source(url="https://geekdaxue.co/read/x"),
        Source(url="https://github.com/clemense/ai-bestpapers", document="dataset (commit 1)"),
        Source(url="https://arxiv.org/abs/2401.00001"),
        Source(url="https://aclanthology.org/P19-1426/"),
        Source(url="https://acl2019.org/EN/winners.html"),
        Source(document="An article without a link"),
    ]
    assert best_source(sources) == sources[4]
    assert best_source(sources[:4]) == sources[3]
    assert best_source(sources[:3]) == sources[2]
    assert best_source(sources[:1]) is None


def test_links_are_labelled_by_what_they_are() -> None:
    assert link_kind("project", "https://aclanthology.org/P19-1426/") == "proceedings"
    assert link_kind("pdf", "https://proceedings.mlr.press/v97/burt19a/burt19a.pdf") == (
        "proceedings"
    )
    assert link_kind("project", "https://www.youtube.com/watch?v=x") == "video"
    assert link_kind("project", "https://www.slideshare.net/a/b") == "slides"
    assert link_kind("project", "https://github.com/a/b") == "code"
    assert link_kind("project", "https://nerf-project.github.io/") == "project"
    assert link_kind("project", "https://example.org/project") == "project"
    assert link_kind("openreview", "https://openreview.net/forum?id=x") == "openreview"


def test_no_refused_site_is_the_source_a_member_is_shown() -> None:
    batch = load_bundled()
    groups = [e.sources for e in batch.editions]
    groups += [(*a.sources, *a.paper.sources) for a in batch.awards]
    shown = [best_source(sources) for sources in groups]
    assert [s.url for s in shown if s is not None and s.url and refused(s.url)] == []
    for domain in provenance.domains().refused:
        assert not any(s and s.url and domain in s.url and not refused(s.url) for s in shown)
