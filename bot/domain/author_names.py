"""A lint over author names: what a byline carried over from a dataset gets wrong.

- a stray full stop: "Pedro Felzenszwalb. David McAllester" (a full stop after a word that is
  not an initial, "B." or "Jr.");
- names run together: a separator inside one name (",", ";", " and ", " & ") or, across the
  catalogue, a name that is two others of the same byline's ("Di You Qun Liu" beside "Di You");
- a lost particle: "Hado Hasselt" where the catalogue also holds "Hado van Hasselt";
- a case change: one person spelt with different capitals ("Van den Oord", "van den Oord"), or a
  name in all capitals or all small letters.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

PARTICLES = frozenset(
    {
        "van",
        "von",
        "de",
        "der",
        "den",
        "del",
        "della",
        "di",
        "da",
        "du",
        "le",
        "la",
        "ten",
        "ter",
        "dos",
        "das",
        "do",
        "bin",
        "al",
        "el",
    }
)
_STRAY_STOP = re.compile(r"\b[^\W\d_]{2,}\.(?=\s|$)")
_ABBREVIATIONS = frozenset({"jr.", "sr.", "st.", "mr.", "dr.", "ph.d."})
_SEPARATORS = re.compile(r",|;|\s(?:and|&)\s")


def problems(name: str) -> list[str]:
    """What is wrong with one name on its own."""
    found = []
    stops = [m.group(0) for m in _STRAY_STOP.finditer(name)]
    if [s for s in stops if s.casefold() not in _ABBREVIATIONS]:
        found.append("a full stop after a word: two names run together?")
    if _SEPARATORS.search(name):
        found.append("a separator inside the name: two names run together?")
    letters = [c for c in name if c.isalpha() and c.isascii()]
    if len(letters) > 3 and ("".join(letters).isupper() or "".join(letters).islower()):
        found.append("all capitals or all small letters")
    return found


def _without_particles(name: str) -> str:
    return " ".join(w for w in name.split() if w.casefold() not in PARTICLES)


def across(bylines: Iterable[Sequence[str]]) -> dict[str, list[str]]:
    """Problems that show only beside the catalogue's other names, by name."""
    names = {n for byline in bylines for n in byline}
    found: dict[str, list[str]] = defaultdict(list)
    by_case: dict[str, set[str]] = defaultdict(set)
    by_bare: dict[str, set[str]] = defaultdict(set)
    for name in names:
        by_case[name.casefold()].add(name)
        by_bare[_without_particles(name).casefold()].add(name)
    for spellings in by_case.values():
        if len(spellings) > 1:
            for name in spellings:
                found[name].append(f"spelt with other capitals too: {sorted(spellings - {name})}")
    for spellings in by_bare.values():
        plain = {n for n in spellings if n == _without_particles(n)}
        fuller = spellings - plain
        if plain and fuller:
            for name in plain:
                found[name].append(f"a particle lost? the catalogue also has {sorted(fuller)}")
    for name in names:
        words = name.split()
        for cut in range(2, len(words) - 1):
            first, second = " ".join(words[:cut]), " ".join(words[cut:])
            if first in names and second in names:
                found[name].append(f"two names run together: {first!r} and {second!r}")
    return dict(found)


def lint(bylines: Iterable[Sequence[str]]) -> dict[str, list[str]]:
    """Every name of the bylines with what is wrong with it; an empty dict when all are right."""
    bylines = [tuple(b) for b in bylines]
    found = across(bylines)
    for name in {n for b in bylines for n in b}:
        own = problems(name)
        if own:
            found[name] = own + found.get(name, [])
    return found
