"""A research area's name in the reader's language."""

from __future__ import annotations

from bot.domain.areas import ResearchArea
from bot.domain.models import LANGUAGES, Language
from bot.render.i18n import Strings


def area_key(area: ResearchArea) -> str:
    return "area-" + area.name.lower().replace("_", "-")


def area_name(strings: Strings, area: ResearchArea, language: Language) -> str:
    return strings.text(area_key(area), language)


def find_area(strings: Strings, text: str) -> ResearchArea | None:
    """The area `text` names, in any of the three languages or as the taxonomy spells it."""
    wanted = text.strip().casefold()
    for area in ResearchArea:
        names = {area.value, area.name, *(area_name(strings, area, lang) for lang in LANGUAGES)}
        if wanted in {name.casefold() for name in names}:
            return area
    return None
