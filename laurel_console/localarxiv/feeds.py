"""Atom feeds as arXiv writes them: a results feed around entries, and arXiv's error feed."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from xml.sax.saxutils import escape

from bot.domain.identifiers import ArxivId

_HEAD = """<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" \
xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">
  <id>https://arxiv.org/api/{feed_id}</id>
  <title>arXiv Query: {query}</title>
  <updated>{now}</updated>
  <link href="https://arxiv.org/api/query?{query}" type="application/atom+xml"/>
  <opensearch:itemsPerPage>{per_page}</opensearch:itemsPerPage>
  <opensearch:totalResults>{total}</opensearch:totalResults>
  <opensearch:startIndex>{start}</opensearch:startIndex>
"""


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _query(search_query: str, id_list: str, start: int | str, max_results: int | str) -> str:
    text = f"search_query={search_query}&id_list={id_list}&start={start}&max_results={max_results}"
    return escape(text, {'"': "&quot;"})  # a title query's quotes, inside an attribute


def results_feed(
    entries: Sequence[str],
    *,
    search_query: str,
    id_list: str,
    start: int,
    max_results: int,
    total: int,
) -> bytes:
    query = _query(search_query, id_list, start, max_results)
    head = _HEAD.format(
        feed_id=hashlib.sha1(query.encode()).hexdigest()[:27],
        query=query,
        now=_now(),
        per_page=max_results,
        total=total,
        start=start,
    )
    body = "".join(f"  {entry}\n" for entry in entries)
    return (head + body + "</feed>\n").encode("utf-8")


def error_feed(
    message: str, *, search_query: str, id_list: str, start: str, max_results: str
) -> bytes:
    """arXiv's answer to a query it cannot run: one entry titled "Error" whose summary says why."""
    anchor = escape(message.replace(" ", "_"))
    entry = (
        "<entry>\n"
        f"    <id>https://arxiv.org/api/errors#{anchor}</id>\n"
        "    <title>Error</title>\n"
        f"    <summary>{escape(message)}</summary>\n"
        f"    <updated>{_now()}</updated>\n"
        f'    <link href="https://arxiv.org/api/errors#{anchor}" rel="alternate" '
        'type="text/html"/>\n'
        "    <author>\n      <name>arXiv api core</name>\n    </author>\n"
        "  </entry>"
    )
    query = _query(search_query, id_list, start, max_results)
    head = _HEAD.format(feed_id="errors", query=query, now=_now(), per_page=1, total=1, start=0)
    return (head + f"  {entry}\n</feed>\n").encode("utf-8")


def synthetic_entry(arxiv_id: ArxivId) -> str:
    """A made-up entry for an id no recording has, plainly marked as made up.

    Only served when the stand-in is started with `synthesize=True`, to try `laurel enrich` on a
    whole imported catalogue without the network; tests of parsing use the recorded entries.
    """
    version = arxiv_id.version or 1
    versioned = f"{arxiv_id.id}v{version}"
    return (
        "<entry>\n"
        f"    <id>http://arxiv.org/abs/{versioned}</id>\n"
        f"    <title>Synthetic record for arXiv:{arxiv_id.id}</title>\n"
        "    <updated>2024-01-01T00:00:00Z</updated>\n"
        f'    <link href="https://arxiv.org/abs/{versioned}" rel="alternate" type="text/html"/>\n'
        f'    <link href="https://arxiv.org/pdf/{versioned}" rel="related" '
        'type="application/pdf" title="pdf"/>\n'
        f"    <summary>This abstract was made up by laurel localarxiv for arXiv:{arxiv_id.id}, "
        "which none of its recorded replies holds. It is not the paper's abstract.</summary>\n"
        '    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>\n'
        "    <published>2024-01-01T00:00:00Z</published>\n"
        '    <arxiv:primary_category term="cs.LG"/>\n'
        "    <author>\n      <name>Synthetic Author</name>\n    </author>\n"
        "  </entry>"
    )
