"""The /awards page buttons keep their whole state in a custom_id of at most 100 characters."""

from __future__ import annotations

import pytest

from bot.commands.awards import PAGE_ID, Listing
from bot.domain.models import AwardKind


@pytest.mark.parametrize(
    "listing",
    [
        Listing("ed", 123456789012345678, "icml", 2025, AwardKind.HONORABLE_MENTION),
        Listing("ed", 1, "neurips", 2025),
        Listing("hi", 42, "ijcai"),
        Listing("tt", 42),
        Listing("ed", 2**63 - 1, "v" * 32, 2100, AwardKind.DATASETS_BENCHMARKS),
    ],
)
def test_a_listing_survives_its_custom_id(listing: Listing) -> None:
    for custom_id in (listing.custom_id(0, "p"), listing.custom_id(9999, "n")):
        assert len(custom_id) <= 100
        match = PAGE_ID.fullmatch(custom_id)
        assert match is not None
        assert Listing.parse(match) == listing


@pytest.mark.parametrize(
    "custom_id",
    ["awards:ed:1:0:p:icml:2025:nonsense", "awards:xx:1:0:p:icml:2025:", "paper:next:1"],
)
def test_ids_it_did_not_make_are_not_its_own(custom_id: str) -> None:
    assert PAGE_ID.fullmatch(custom_id) is None
