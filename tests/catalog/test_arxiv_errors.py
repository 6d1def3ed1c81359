"""Every arXiv error reads as a sentence in each of Laurel's languages."""

from __future__ import annotations

import pytest

from bot.catalog.arxiv.errors import (
    ArxivBadResponseError,
    ArxivError,
    ArxivNotFoundError,
    ArxivQueryError,
    ArxivUnavailableError,
)
from bot.domain.models import LANGUAGES, Language
from bot.errors import LaurelError, UserError
from bot.render.i18n import Strings

ERRORS = [
    ArxivQueryError("incorrect id format for 1234.5678x"),
    ArxivNotFoundError("2502.06768v9"),
    ArxivUnavailableError("HTTP 503", 4),
    ArxivBadResponseError("the reply is not XML"),
]


@pytest.fixture(scope="module")
def strings() -> Strings:
    return Strings.load()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
def test_each_error_renders_with_its_details(
    strings: Strings, error: ArxivError, language: Language
) -> None:
    assert isinstance(error, UserError)
    assert isinstance(error, LaurelError)
    assert error.key in strings.messages[language]  # not the English fallback
    text = strings.text(error.key, language, **error.params)
    for value in error.params.values():
        assert str(value) in text
    assert "{" not in text
