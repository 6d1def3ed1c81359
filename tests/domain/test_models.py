"""Models read back from the store: the Python checks made on the way in are not run again."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.domain.models import Paper


def test_values_read_back_from_the_store_skip_the_cleaning_but_not_the_types() -> None:
    stored = {"title": "Spaced  title", "links": {"code": "https://example.org/x"}}
    assert Paper.model_validate(stored, context={"stored": True}).title == "Spaced  title"
    assert Paper.model_validate(stored).title == "Spaced title"  # cleaned on the way in
    with pytest.raises(ValidationError):
        Paper.model_validate({"title": 5, "year": "soon"}, context={"stored": True})
    with pytest.raises(ValidationError):  # a link is still checked on the way in
        Paper.model_validate({"title": "x", "links": {"code": "javascript:alert(1)"}})
