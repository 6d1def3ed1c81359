"""Years as people read them in a sentence."""

from __future__ import annotations

from collections.abc import Sequence


def year_spans(years: Sequence[int]) -> str:
    """Runs of consecutive years joined: `2013, 2015–2023, 2025`; empty for no years."""
    runs: list[list[int]] = []
    for year in sorted(set(years)):
        if runs and year == runs[-1][-1] + 1:
            runs[-1].append(year)
        else:
            runs.append([year])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def year_range(years: Sequence[int]) -> str:
    """First to last: `2013–2025`, or one year alone."""
    first, last = min(years), max(years)
    return str(first) if first == last else f"{first}–{last}"
