"""One byline rule for every answer and post, per language (issue 25, item 4).

- Every name is shown when there are at most `shown` + 1: a single remaining name is named,
  never hidden behind "and 1 more".
- Names are joined by the language's list separator ("," in English, "、" in Chinese), the last
  one by "and" (「和」).
- A longer list: the first `shown` names and "and N more" (「及另外 N 位作者」): N is known.
- A list a source cut short ends in "et al." (「等」): the count is not known, and it never reads
  as the whole list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.domain.models import Language
from bot.render.i18n import Strings


def byline(
    authors: Sequence[str],
    strings: Strings,
    language: Language,
    *,
    shown: int,
    incomplete: bool = False,
    escape: Callable[[str], str],
) -> str:
    """The authors as one line in `language` (empty when there are none)."""
    names = [escape(a) for a in authors]
    if not names:
        return ""
    separator = strings.text("byline-separator", language)
    if incomplete:
        return strings.text("byline-et-al", language, names=separator.join(names[:shown]))
    if len(names) == 1:
        return names[0]
    if len(names) <= shown + 1:
        first = separator.join(names[:-1])
        return strings.text("byline-and", language, first=first, last=names[-1])
    rest = f"{len(names) - shown:,}"
    return strings.text("byline-more", language, names=separator.join(names[:shown]), count=rest)
