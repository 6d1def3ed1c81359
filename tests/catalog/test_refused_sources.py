"""No bundled record cites a refused host (issue 24): content farms, scraped mirrors and
aggregators are not sources (CONTENT.md), so no fact of the catalogue may rest on one, and no
note may name one as the page a fact was read on. The hand-written editions (data/20xx), the
generated catalogue, the converter's corrections and links, the per-paper facts files and the
institutions' table (the pages behind their Chinese names) are read as TOML, and every address
in every value is checked against `source_domains.toml`.
ar5iv.labs.arxiv.org is arXiv's own HTML rendering of the paper: refused only so that a member
is shown arxiv.org/abs instead, it may stand as the page a fact was read on."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.domain.provenance import host, refused

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted(
    [
        *ROOT.glob("data/*.toml"),
        *ROOT.glob("data/*/*.toml"),
        *ROOT.glob("tools/bundle/*.toml"),
        *ROOT.glob("tools/bundle/papers/*.toml"),
        ROOT / "bot" / "domain" / "institutions.toml",
    ]
)
_ADDRESS = re.compile(r"https?://[^\s\"'<>()\[\],;]+")
_ARXIV_OWN = "ar5iv.labs.arxiv.org"


def _values(node: object, at: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _values(value, f"{at}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _values(value, f"{at}[{i}]")
    elif isinstance(node, str):
        yield at, node


def cited_refused_hosts(text: str) -> list[str]:
    """Each value of the TOML document that names a refused host, as "key: address"."""
    found = []
    for at, value in _values(tomllib.loads(text), ""):
        for address in _ADDRESS.findall(value):
            if refused(address) and host(address) != _ARXIV_OWN:
                found.append(f"{at.removeprefix('.')}: {address}")
    return found


def test_the_check_finds_a_mirror_in_a_source_an_alternative_and_a_note() -> None:
    text = """
[[awards]]
  [[awards.paper.sources]]
  url = "https://www.sciencestack.ai/paper/2310.02980"
  [[awards.paper.sources]]
  url = "https://ar5iv.labs.arxiv.org/html/2310.02980"
  [[awards.paper.alternatives]]
  source = { url = "https://tomesphere.com/paper/2405.02458" }
[[papers]]
note = "arXiv 2402.12865 per https://emergentmind.com/articles/2402.12865 (same title)"
read = "https://arxiv.org/abs/2402.12865"
"""
    assert cited_refused_hosts(text) == [
        "awards[0].paper.sources[0].url: https://www.sciencestack.ai/paper/2310.02980",
        "awards[0].paper.alternatives[0].source.url: https://tomesphere.com/paper/2405.02458",
        "papers[0].note: https://emergentmind.com/articles/2402.12865",
    ]


def test_the_bundled_files_are_all_read() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in BUNDLED}
    assert {"data/2024/iclr.toml", "tools/bundle/paper_links.toml"} <= names
    assert {"tools/bundle/corrections.toml", "tools/bundle/papers/neurips.toml"} <= names
    # the sources of the institutions' own Chinese names (issue 24)
    assert "bot/domain/institutions.toml" in names


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_bundled_record_cites_a_refused_host(path: Path) -> None:
    assert cited_refused_hosts(path.read_text(encoding="utf-8")) == []
