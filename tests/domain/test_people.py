"""The people table (bot/domain/people.py): spellings of one person's name, each to the one
shown."""

from __future__ import annotations

import pytest

from bot.domain.people import People, Person, load_people, parse_people


def test_a_spelling_is_shown_as_the_persons_name_whatever_its_case() -> None:
    people = People([Person("Diederik P. Kingma", ("Diederik Kingma", "Diederik P Kingma"), "u")])
    assert people.shown("Diederik Kingma") == "Diederik P. Kingma"
    assert people.shown("DIEDERIK P KINGMA") == "Diederik P. Kingma"
    assert people.shown("Diederik P. Kingma") == "Diederik P. Kingma"
    assert people.shown("Durk Kingma") == "Durk Kingma"  # not in the table: itself
    assert people.grouping()["diederik kingma"] == "Diederik P. Kingma"


def test_a_spelling_given_for_two_people_is_refused() -> None:
    with pytest.raises(ValueError, match=r"'Y\. Zhang' is given for two people"):
        People([Person("H. Zhang", ("Y. Zhang",), "u"), Person("Y. Zhang", (), "v")])


def test_the_table_reads_from_toml() -> None:
    people = parse_people(
        '[[people]]\nname = "Amir R. Zamir"\nalso = ["Amir Zamir"]\nsource = "https://x.org"\n'
    )
    assert people.shown("amir zamir") == "Amir R. Zamir"
    assert parse_people("").grouping() == {}


def test_the_shipped_table_has_a_source_for_every_person() -> None:
    shipped = load_people()
    for person in shipped.entries:
        assert person.source.startswith(("https://", "http://")), person.name
        assert person.also, person.name  # one spelling alone needs no entry
