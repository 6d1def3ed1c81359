"""The people table's spellings are the bundled bylines' (bot/domain/people.toml): a spelling the
catalogue never carries merges nobody, so a typo there would go unseen."""

from __future__ import annotations

from bot.catalog.bundled import load_bundled
from bot.domain.people import load_people


def test_every_spelling_of_the_people_table_is_a_bundled_byline() -> None:
    bylines = {name for award in load_bundled().awards for name in award.paper.authors}
    missing = [
        spelling
        for person in load_people().entries
        for spelling in (person.name, *person.also)
        if spelling not in bylines
    ]
    assert load_people().entries  # the table ships with entries
    assert missing == []
