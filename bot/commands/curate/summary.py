"""/curate paper edit's summary (one language at a time) and research area, as pure edits.

Discord's forms hold five text inputs, and the paper's own form has five already, so a summary
is edited in a form of its own, one language per command (`summary:` option): the text and the
page it was written from. The area is a typed option (one of the ten, or cleared). Each edit
moves the record's provenance with it: the source that vouched for the old summary (or the
taxonomy's or our classification, for the area) no longer covers what the curator wrote.
"""

from __future__ import annotations

from typing import Any

from bot.commands.curate.inputs import checked, validated
from bot.domain.areas import ResearchArea
from bot.domain.models import Language, Paper, Source
from bot.errors import UserError

SUMMARY_FIELDS = ("summary", "source")


def summary_form_values(paper: Paper, language: Language) -> dict[str, str]:
    """The summary form's fields, filled with the summary in `language` and its source's link."""
    source = paper.summary_source(language)
    return {
        "summary": paper.summaries.get(language, ""),
        "source": (source.url or "") if source else "",
    }


def with_summary(paper: Paper, language: Language, form: dict[str, str | None]) -> Paper:
    """`paper` with its summary in `language` set from the form (cleared when left blank)."""
    text = checked("summary", form.get("summary"))
    url = checked("source", form.get("source"))
    data: dict[str, Any] = paper.model_dump(mode="json", exclude_none=True)
    field = f"summaries.{language}"
    others = [f"summaries.{lang}" for lang in paper.summaries if lang != language]
    sources = _uncovered(paper.sources, field, every=others)
    summaries = dict(paper.summaries)
    summaries.pop(language, None)
    if text is not None:
        if url is None:
            raise UserError("curate-summary-needs-source")
        summaries[language] = text
        source = validated(Source, {"url": url, "covers": [field]})
        sources.append(source.model_dump(mode="json", exclude_none=True))
    data["summaries"] = summaries
    data["sources"] = sources
    return validated(Paper, data)


def with_area(paper: Paper, area: ResearchArea | None) -> Paper:
    """`paper` filed under `area` (None: under none); the sources that gave the old one no
    longer cover it."""
    data: dict[str, Any] = paper.model_dump(mode="json", exclude_none=True)
    data.pop("area", None)
    if area is not None:
        data["area"] = area.value
    if area != paper.area:
        data["sources"] = _uncovered(paper.sources, "area", every=[])
    return validated(Paper, data)


def with_aliases(paper: Paper, aliases: list[str]) -> Paper:
    """`paper` known by these names besides its own (none: no aliases); the sources that
    vouched for the old ones no longer cover them."""
    data: dict[str, Any] = paper.model_dump(mode="json", exclude_none=True)
    data["aliases"] = aliases
    if tuple(aliases) != paper.aliases:
        data["sources"] = _uncovered(paper.sources, "aliases", every=[])
    return validated(Paper, data)


def _uncovered(sources: tuple[Source, ...], field: str, every: list[str]) -> list[Any]:
    """The sources as stored, none of them covering `field` any more.

    A source that covered all summaries (`summaries`) now covers the other languages
    (`every`); one left covering nothing is dropped (an empty `covers` means the whole record).
    """
    kept = []
    for source in sources:
        covers = list(source.covers)
        if field.startswith("summaries.") and "summaries" in covers:
            covers = [c for c in covers if c != "summaries"] + every
        if field not in covers and covers == list(source.covers):
            kept.append(source.model_dump(mode="json", exclude_none=True))
            continue
        covers = [c for c in covers if c != field]
        if covers:
            moved = source.model_copy(update={"covers": tuple(covers)})
            kept.append(moved.model_dump(mode="json", exclude_none=True))
    return kept
