"""A research area's name in the reader's language."""

from __future__ import annotations

from bot.domain.areas import AREA_NAMES, ResearchArea, area_named
from bot.domain.models import LANGUAGES, Language
from bot.render.i18n import Strings


def area_key(area: ResearchArea) -> str:
    return "area-" + area.name.lower().replace("_", "-")


def area_name(strings: Strings, area: ResearchArea, language: Language) -> str:
    return strings.text(area_key(area), language)


def area_names(strings: Strings, area: ResearchArea) -> tuple[str, ...]:
    """Every name of `area`: its localized names, then its other names (short forms)."""
    localized = (area_name(strings, area, lang) for lang in LANGUAGES)
    return (area.value, *localized, *AREA_NAMES[area])


def find_area(strings: Strings, text: str) -> ResearchArea | None:
    """The area `text` names, in any of the three languages, as the taxonomy spells it, or by
    a short form (RL, NLP, CV), case- and accent-insensitive."""
    localized = {area: area_names(strings, area) for area in ResearchArea}
    return area_named(text, localized)
