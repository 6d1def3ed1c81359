"""The /awards page buttons keep their whole state in a custom_id of at most 100 characters."""

from __future__ import annotations

import pytest

from bot.commands.awards import PAGE_ID, Listing
from bot.commands.paginator import Step
from bot.domain.models import AwardKind


@pytest.mark.parametrize(
    "listing",
    [
        Listing("ed", 123456789012345678, "icml", 2025, AwardKind.HONORABLE_MENTION),
        Listing("ed", 1, "neurips", 2025),
        Listing("hi", 42, "ijcai"),
        Listing("tt", 42),
        Listing("tt", 42, "icml"),
        Listing("ed", 2**63 - 1, "v" * 32, 2100, AwardKind.DATASETS_BENCHMARKS),
    ],
)
def test_a_listing_survives_its_custom_id(listing: Listing) -> None:
    steps: tuple[tuple[int, Step], ...] = ((0, "p"), (9999, "n"))
    for page, step in steps:
        custom_id = listing.at(page).custom_id(step)
        assert len(custom_id) <= 100
        match = PAGE_ID.fullmatch(custom_id)
        assert match is not None
        assert Listing.parse(match) == listing.at(page)
        assert match["step"] == step


def test_a_page_past_what_a_custom_id_can_name_is_kept_within_it() -> None:
    assert Listing("hi", 42, "ijcai").at(10**6).page == 9999
    assert Listing("hi", 42, "ijcai").at(-3).page == 0


@pytest.mark.parametrize(
    "custom_id",
    [
        "awards:ed:1:0:p:icml:2025:nonsense",
        "awards:xx:1:0:p:icml:2025:",
        "paper:next:1",
        # An edition or a history without its venue: pressed, it failed an assertion ("something
        # went wrong on our side") instead of being an unknown component.
        "awards:ed:1:0:n::2025:",
        "awards:hi:1:3:p::0:",
    ],
)
def test_ids_it_did_not_make_are_not_its_own(custom_id: str) -> None:
    assert PAGE_ID.fullmatch(custom_id) is None
