"""/curate export: an export that cannot be written is told in the curator's language."""

from __future__ import annotations

import pytest

from bot.commands.curate.cog import _written
from bot.domain.models import LANGUAGES, CatalogBatch
from bot.errors import UserError
from bot.render.i18n import Strings


def test_an_export_that_cannot_be_written_is_told_in_the_curators_language() -> None:
    with pytest.raises(UserError) as caught:
        _written(CatalogBatch(), "csv/in-a-folder-that-is-not-there")  # the disk refuses it

    strings = Strings.load()
    texts = {language: strings.text(caught.value.key, language) for language in LANGUAGES}
    assert len(set(texts.values())) == len(LANGUAGES)
    assert all(texts.values())
