"""What a paper is about, as a vector: a member's words that no paper has all of (issue 27).

When no paper has every word typed (nor within a typo), the answer is the papers with any of
them, and word counts say little of which is meant ("translating between languages with little
parallel text" means unsupervised machine translation). There the papers with any word (the
first RERANK of them, as the words rank them) are ranked again by meaning too: the cosine
between the query's embedding (of its folded words; of a Chinese query, its words read in
English: readings.in_english) and each paper's, fused with the word ranking (reciprocal rank
fusion, meaning weighted MEANING against words' 1). Nowhere else: an exact title, every word
found, a Chinese query none of whose Chinese the glossary reads (the model reads English),
and the papers shown as close to a query of few matches stay as words rank them.

The model is WordLlama's packaged one (MIT: `wordllama` from PyPI, 256 dimensions, its
weights and tokenizer in the wheel; on the CPU, under a millisecond a query), loaded once a
process and never downloaded. A paper's vector is made when the index holds the paper, from
its title (twice: it names the paper), English summary, abstract (its start), area and
task, and kept in the index as FLOAT16 bytes. Measured against the words alone in one run by
benchmarks/ranking.py; benchmarks/semantic.py ranks by meaning alone, for comparison.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import logging
import shutil
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np

log = logging.getLogger(__name__)
D = TypeVar("D", bound="About")

# Saved with the index: another model, or another recipe for a paper's vector (paper_text,
# ABSTRACT_CHARS, FLOAT16), rebuilds it. Change "text 1" whenever the recipe changes.
MODEL = "wordllama l2_supercat 256 float16, text 1"
RERANK = 200  # the any-word matches ranked again by meaning
MEANING = 2.0  # the meaning ranking's weight in the fusion, the words' being 1
RRF_K = 60  # reciprocal rank fusion: a paper at rank r of a ranking scores weight / (RRF_K + r)
ABSTRACT_CHARS = 1_500
BATCH = 64  # papers embedded at once while the index is built
REMEMBERED = 4_096  # papers' vectors kept in memory by their text (about 2 MB)
FLOAT16 = np.dtype("<f2")
HUB_NEIGHBOURS = 10  # a paper's hub: the mean cosine of the papers this many nearest it
HUB_REFERENCE = 4_096  # the index's papers a hub is reckoned among (all, in a catalogue this size)


class Embedder:
    """The model, loaded: vectors of papers (bytes, for the index) and of queries. The last
    REMEMBERED papers' vectors are kept by their text's digest: a rebuild (after a fault, or
    of another index over the same catalogue) does not embed them again."""

    def __init__(self, model: Any) -> None:
        self._model = model
        self._lock = threading.Lock()
        self._remembered: OrderedDict[bytes, bytes] = OrderedDict()

    def papers(self, texts: Sequence[str]) -> list[bytes]:
        """Each text's unit vector, as FLOAT16 bytes."""
        keys = [hashlib.blake2b(text.encode(), digest_size=16).digest() for text in texts]
        with self._lock:
            found = {key: self._remembered.get(key) for key in keys}
        missing = {key: text for key, text in zip(keys, texts, strict=True) if found[key] is None}
        if missing:  # each text once, however many papers share it
            vectors = self._model.embed(list(missing.values()), norm=True, batch_size=BATCH)
            for key, row in zip(missing, np.atleast_2d(vectors), strict=True):
                found[key] = row.astype(FLOAT16).tobytes()
        with self._lock:
            for key in keys:
                self._remembered[key] = found[key] or b""
                self._remembered.move_to_end(key)
            while len(self._remembered) > REMEMBERED:
                self._remembered.popitem(last=False)
        return [found[key] or b"" for key in keys]

    def query(self, text: str) -> np.ndarray:
        """`text`'s unit vector (single precision)."""
        return np.asarray(self._model.embed([text], norm=True)[0], dtype=np.float32)


@functools.cache
def load_embedder() -> Embedder | None:
    """The packaged model, or None (logged) where it cannot load: the words alone rank then.
    Loaded once a process, failed or not, and shared by the process's indexes: its vectors
    depend on the text alone, and what it remembers is those, by the text's digest.
    Its loader looks for the packaged tokenizer under a folder the wheel does not use, so it
    is copied to a temporary folder for the load (read whole then) and never downloaded."""
    try:
        from wordllama import WordLlama

        package = resources.files("wordllama")
        with tempfile.TemporaryDirectory(prefix="laurel-wordllama-") as name:
            cache = Path(name)
            (cache / "tokenizers").mkdir()
            config = package / "tokenizers" / "l2_supercat_tokenizer_config.json"
            with resources.as_file(config) as found:
                shutil.copy(found, cache / "tokenizers" / found.name)
            model = WordLlama.load(cache_dir=cache, disable_download=True)
        # Its token vectors held at half precision: 16 MB rather than 32 resident, the same
        # papers found (a mean of them is taken in single precision).
        model.embedding = model.embedding.astype(np.float16)
        return Embedder(model)
    except Exception as exc:  # any failure leaves the words to rank alone
        log.warning("search: the meaning model did not load (%s); words alone rank", exc)
        return None


class About(Protocol):
    @property
    def about(self) -> str:
        """What a paper's vector is made of (paper_text)."""
        ...


def with_vectors(docs: Iterable[D], embedder: Embedder | None) -> Iterator[tuple[D, bytes | None]]:
    """Each of `docs` with its vector, BATCH embedded at once; None each without a model."""
    pending = iter(docs)
    while batch := list(itertools.islice(pending, BATCH)):
        vectors: list[bytes | None] = [None] * len(batch)
        if embedder is not None:
            vectors = list(embedder.papers([doc.about for doc in batch]))
        yield from zip(batch, vectors, strict=True)


def model_of(embedder: Embedder | None) -> str | None:
    """The model an index's vectors are of (None: none made): saved with the index, so that
    another rebuilds it."""
    return None if embedder is None else MODEL


def paper_text(title: str, summary: str, abstract: str, area: str, task: str) -> str:
    """What a paper's vector is made of (a change here changes MODEL's "text" number)."""
    return " ".join([title, title, summary, abstract[:ABSTRACT_CHARS], area, task])


def vector_of(kept: bytes | None) -> np.ndarray | None:
    """A vector as the index keeps it (FLOAT16 bytes), for reckoning; None without one."""
    if not kept or len(kept) % FLOAT16.itemsize:
        return None
    return np.frombuffer(kept, dtype=FLOAT16).astype(np.float32)


def cosines(vectors: Sequence[bytes | None], query: np.ndarray) -> list[float | None]:
    """Each kept vector's cosine to `query` (all of unit length), at once; None for a paper
    without one, or with one of another width (another model's)."""
    width = query.size * FLOAT16.itemsize
    known = [i for i, vector in enumerate(vectors) if vector and len(vector) == width]
    joined = b"".join(vectors[i] or b"" for i in known)
    matrix = np.frombuffer(joined, dtype=FLOAT16).reshape(len(known), query.size)
    found: list[float | None] = [None] * len(vectors)
    for i, cosine in zip(known, (matrix.astype(np.float32) @ query).tolist(), strict=True):
        found[i] = cosine
    return found


def by_meaning(ids: list[int], vectors: list[bytes | None], query: np.ndarray) -> list[int]:
    """`ids` (the word ranking's order) fused with their order by cosine to `query`; a paper
    with no vector keeps only its words' share. Ties keep the words' order."""
    cosine = cosines(vectors, query)
    known = [i for i, c in enumerate(cosine) if c is not None]
    by_cosine = sorted(known, key=lambda i: (-(cosine[i] or 0.0), i))
    score = [1 / (RRF_K + rank) for rank in range(len(ids))]
    for rank, i in enumerate(by_cosine):
        score[i] += MEANING / (RRF_K + rank)
    order = sorted(range(len(ids)), key=lambda i: (-score[i], i))
    return [ids[i] for i in order]


Kept = Sequence[tuple[int, bytes | None]]  # papers' ids and their vectors as the index keeps them


class Hubs:
    """How near each paper lies to the papers nearest it: the mean cosine of its HUB_NEIGHBOURS
    nearest among the index's first HUB_REFERENCE papers, itself left out. A paper in a crowded
    field (one of many on language models) is as near its many neighbours as a paper in a
    sparse field is to the one truly like it, so a cosine says less there: Similar takes part of
    the two papers' mean hub, above a typical one, off their cosine (similar.near_by_meaning;
    CSLS, as in Conneau et al. 2018). The papers
    reckoned among are read once for each generation of the index (`reference`), and each
    paper's hub remembered for that generation; safe to share between searcher threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._generation: int | None = None
        self._ids = np.empty(0, dtype=np.int64)
        self._columns = np.empty((0, 0), dtype=np.float32)
        self._known: dict[int, float] = {}

    def of(
        self, generation: int, papers: Kept, reference: Callable[[], Kept]
    ) -> list[float | None]:
        """Each paper's hub; None for one without a vector of the reference's width, or when
        fewer than two papers of the reference have vectors."""
        with self._lock:
            if generation != self._generation:
                self._read(reference())
                self._generation = generation
            width = self._columns.shape[0]
            missing: dict[int, np.ndarray] = {}
            for paper_id, kept in papers:
                vector = vector_of(kept)
                if paper_id not in self._known and vector is not None and vector.size == width:
                    missing[paper_id] = vector
            if missing and len(self._ids) > 1:
                self._reckon(missing)
            return [self._known.get(paper_id) for paper_id, _ in papers]

    def _read(self, reference: Kept) -> None:
        read = dict(reference)  # each paper once, so that leaving it out leaves out one
        vectors = [(paper_id, v) for paper_id, k in read.items() if (v := vector_of(k)) is not None]
        width = vectors[0][1].size if vectors else 0  # one model's: another's rebuilds the index
        kept = [(paper_id, v) for paper_id, v in vectors if v.size == width]
        self._ids = np.array([paper_id for paper_id, _ in kept], dtype=np.int64)
        rows = np.array([v for _, v in kept], dtype=np.float32).reshape(len(kept), width)
        self._columns = np.ascontiguousarray(rows.T)  # a paper a column: twice as quick here
        self._known = {}

    def _reckon(self, papers: dict[int, np.ndarray]) -> None:
        ids = list(papers)
        near = np.array([papers[i] for i in ids]) @ self._columns
        near[np.array(ids)[:, None] == self._ids[None, :]] = -np.inf  # not itself
        k = min(HUB_NEIGHBOURS, len(self._ids) - 1)
        nearest = np.partition(near, near.shape[1] - k, axis=1)[:, -k:]
        for paper_id, hub in zip(ids, nearest.mean(axis=1).tolist(), strict=True):
            self._known[paper_id] = hub
