"""The ranking before issue 27, frozen, for benchmarks/ranking.py to measure beside the new one
in the same run: the derived index's documents (title, authors, affiliations, summaries,
abstract, with edge n-grams) and its query (every word must match in some field, BM25 with
field boosts, the last word as a prefix), as bot/store/search/query.py and documents.py built
them at commit d911d9c. Nothing of the bot imports this.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import tantivy

from bot.store.search.text import MIN_PREFIX, PREFIX_MAX, fold, prefixes, tokens
from bot.store.sql import Connection

WEIGHTS = {"title": 10.0, "authors": 4.0, "affiliations": 2.0, "summaries": 1.0, "abstract": 1.0}
PREFIX_WEIGHTS = {
    "title_prefix": 10.0,
    "authors_prefix": 4.0,
    "affiliations_prefix": 2.0,
    "text_prefix": 1.0,
}
_SQL = """
    SELECT p.id, p.title, p.abstract, p.summaries,
        (SELECT json_group_array(name) FROM (SELECT name FROM paper_authors
            WHERE paper_id = p.id ORDER BY position)) AS authors,
        (SELECT json_group_array(name) FROM (SELECT name FROM paper_affiliations
            WHERE paper_id = p.id ORDER BY position)) AS affiliations
    FROM live_papers AS p ORDER BY p.id
"""


def schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("id", stored=True, indexed=True, fast=True)
    for name in WEIGHTS:
        builder.add_text_field(name, tokenizer_name="whitespace", index_option="position")
    for name in PREFIX_WEIGHTS:
        builder.add_text_field(name, tokenizer_name="whitespace", index_option="freq")
    return builder.build()


def _documents(conn: Connection) -> Iterator[tantivy.Document]:
    memo: dict[str, str] = {}
    for row in conn.execute(_SQL):
        summaries = json.loads(row["summaries"] or "{}") or {}
        words = {
            "title": tokens(row["title"]),
            "authors": tokens(" ; ".join(json.loads(row["authors"]))),
            "affiliations": tokens(" ; ".join(json.loads(row["affiliations"]))),
            "summaries": tokens("\n".join(summaries.values())),
            "abstract": tokens(row["abstract"] or ""),
        }
        fields = {name: " ".join(found) for name, found in words.items()}
        fields |= {
            "title_prefix": prefixes(words["title"], memo),
            "authors_prefix": prefixes(words["authors"], memo),
            "affiliations_prefix": prefixes(words["affiliations"], memo),
            "text_prefix": prefixes(words["summaries"] + words["abstract"], memo),
        }
        document = tantivy.Document()
        document.add_integer("id", int(row["id"]))
        for name, text in fields.items():
            if text:
                document.add_text(name, text)
        yield document


class BeforeIndex:
    """The old ranking over the papers of `conn`, in memory."""

    def __init__(self, conn: Connection) -> None:
        self.schema = schema()
        self.index = tantivy.Index(self.schema)
        writer = self.index.writer(64_000_000, 1)
        for document in _documents(conn):
            writer.add_document(document)
        writer.commit()
        self.index.reload()

    def search(self, text: str, limit: int = 5) -> list[int]:
        query = self._query(text)
        if query is None:
            return []
        searcher = self.index.searcher()
        hits = searcher.search(query, limit=limit).hits
        ids = searcher.fast_field_values("id", [address for _, address in hits])
        ranked = sorted(zip((-score for score, _ in hits), ids, strict=True))
        return [int(paper_id or 0) for _, paper_id in ranked]

    def _query(self, text: str) -> tantivy.Query | None:
        import re

        cjk = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")
        terms: list[tuple[str, ...]] = []
        for word in re.findall(r"[^\W_]+", fold(text[:2_000])):
            position = 0
            for run in cjk.finditer(word):
                if run.start() > position:
                    terms.append((word[position : run.start()][:64],))
                terms.append(tuple(run.group()[:64]))
                position = run.end()
            if position < len(word):
                terms.append((word[position:][:64],))
        terms = terms[:12]
        if not terms:
            return None
        prefix = None
        if len(terms[-1]) == 1 and len(terms[-1][0]) >= MIN_PREFIX and not cjk.match(terms[-1][0]):
            prefix = terms.pop()[0]
        groups = [self._anywhere(words, WEIGHTS) for words in terms]
        if prefix is not None:
            whole = self._match("title", (prefix,), WEIGHTS["title"])
            groups.append([whole, *self._anywhere((prefix[:PREFIX_MAX],), PREFIX_WEIGHTS)])
        should, must = tantivy.Occur.Should, tantivy.Occur.Must
        return tantivy.Query.boolean_query(
            [(must, tantivy.Query.boolean_query([(should, c) for c in g])) for g in groups]
        )

    def _anywhere(self, words: tuple[str, ...], weights: dict[str, float]) -> list[tantivy.Query]:
        return [self._match(field, words, weight) for field, weight in weights.items()]

    def _match(self, field: str, words: tuple[str, ...], weight: float) -> tantivy.Query:
        if len(words) == 1:
            found = tantivy.Query.term_query(self.schema, field, words[0])
        else:
            found = tantivy.Query.phrase_query(self.schema, field, list(words))
        return tantivy.Query.boost_query(found, weight)
