"""Every kind of problem an import's records meet is said in each language (issue 22)."""

from __future__ import annotations

from bot.catalog.document import read_document
from bot.domain.models import LANGUAGES
from bot.render.i18n import Strings
from bot.render.problems import rejection_reason

BAD = """
[[awards]]
venue = "icml"
year = 2025
name = "Best Paper"
kind = "best"
paper = { title = "Missing nothing", colour = "red" }

[[awards]]
venue = "icml"
year = "MMXXV"
kind = "best"
paper = { title = 7, authors = "one string", authors_incomplete = "perhaps" }

[[awards]]
venue = "Not A Key!"
year = 3000
name = "Best Paper"
kind = "best"
paper = { title = "Ids", arxiv = "nonsense", doi = "10.x" }
sources = [{ note = "neither url nor document" }]

[[awards]]
venue = "icml"
year = 2025
name = "Best Paper"
kind = "best"
paper = { title = "Links", links = { code = "ftp://x", pdf = "https://a b" } }

[[editions]]
venue = "icml"
year = 2025
start_date = "the first of July"
submissions = -1
accepted = [1]
"""


def test_each_problem_is_said_in_each_language_without_english_left() -> None:
    strings = Strings.load()
    batch = read_document(BAD, "bad.toml")
    kinds = {p.kind for r in batch.rejected for p in r.problems}
    assert {"missing", "extra_forbidden", "int_parsing", "string_type", "bool_parsing"} <= kinds
    assert {"value-venue-key", "value-arxiv-id", "value-link-scheme"} <= kinds
    unnamed = sorted(k for k in kinds if f"problem-{k}" not in strings.messages["en"])
    assert unnamed == []
    for language in LANGUAGES:
        for rejection in batch.rejected:
            said = rejection_reason(rejection, strings, language)
            assert "Input should" not in said
            assert said != rejection.reason or language == "en"
