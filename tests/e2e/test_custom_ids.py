"""Every number read from a custom_id is bounded (issue 12, defect 12): a forged id past
SQLite's largest integer matches no dynamic item, so it never reaches the store."""

from __future__ import annotations

import asyncio
import re
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app import LaurelBot
from bot.commands import awards, paper_buttons
from bot.commands.curate.access import Curation
from bot.commands.curate.cog import Curate
from bot.commands.curate.views import HistoryPages, history_buttons
from bot.commands.custom_ids import MAX_ID, at_most
from bot.domain.models import AwardKind

# One custom_id the bot makes for each kind of dynamic item.
SAMPLES: dict[type[Any], str] = {
    paper_buttons.AbstractButton: paper_buttons.AbstractButton(12).item.custom_id or "",
    paper_buttons.SourcesButton: paper_buttons.SourcesButton(12).item.custom_id or "",
    paper_buttons.AnotherButton: paper_buttons.AnotherButton(12).item.custom_id or "",
    paper_buttons.SimilarButton: paper_buttons.SimilarButton(12).item.custom_id or "",
    paper_buttons.OpenButton: paper_buttons.OpenButton(12).item.custom_id or "",
    paper_buttons.PageButton: paper_buttons.PageButton(
        paper_buttons.SearchState("diffusion 2", "icml", 2024, AwardKind.BEST, 3)
    ).item.custom_id
    or "",
    awards.PageButton: awards.Listing("ed", 934785612, "icml", 2024, page=2).custom_id("n"),
}
FORGED = ("9999999999999999999", str(MAX_ID + 1), str(2**64), "1" + "0" * 40)


def forgeries(sample: str) -> list[str]:
    """`sample` with each of its numbers replaced by a number past every bound."""
    runs = list(re.finditer(r"\d+", sample))
    return [sample[: r.start()] + big + sample[r.end() :] for r in runs for big in FORGED]


def registered(bot: LaurelBot) -> list[type[Any]]:
    store = bot._connection._view_store  # discord.py keeps no public list of dynamic items
    return list(store._dynamic_items.values())


def history_pages(bot: LaurelBot) -> type[Any]:
    """The /curate history's page buttons (bound to the cog's curation when it is made)."""
    return cast(Curate, bot.get_cog("Curate")).history_pages


def samples(bot: LaurelBot) -> dict[type[Any], str]:
    pages = HistoryPages(934785612, 12, 2040, page=3).custom_id("n")
    return {**SAMPLES, history_pages(bot): pages}


async def test_the_samples_cover_every_dynamic_item_the_bot_registers(laurel: LaurelBot) -> None:
    assert sorted(c.__qualname__ + c.__module__ for c in registered(laurel)) == sorted(
        c.__qualname__ + c.__module__ for c in samples(laurel)
    )


async def test_no_dynamic_item_reads_a_number_past_sqlites_largest_integer(
    laurel: LaurelBot,
) -> None:
    every = samples(laurel)
    for cls, sample in every.items():
        assert cls.__discord_ui_compiled_template__.fullmatch(sample), sample
        for forged in forgeries(sample):
            for item in every:
                match = item.__discord_ui_compiled_template__.fullmatch(forged)
                if match is None:
                    continue
                made = await item.from_custom_id(None, None, match)
                numbers = [v for v in vars_of(made) if isinstance(v, int)]
                assert all(n <= MAX_ID for n in numbers), (forged, numbers)


def vars_of(item: Any) -> list[Any]:
    found = [getattr(item, name, None) for name in ("paper_id", "page")]
    for inner in ("listing", "target"):
        value = getattr(item, inner, None)
        if value is not None:
            found += [getattr(value, f) for f in value.__dataclass_fields__]
    return found


def test_the_largest_id_still_matches() -> None:
    opened = paper_buttons.OpenButton.__discord_ui_compiled_template__
    assert opened.fullmatch(f"paper:open:{MAX_ID}")
    assert not opened.fullmatch("paper:open:9999999999999999999")


@given(
    st.integers(min_value=0, max_value=10**25),
    st.sampled_from([0, 7, 10, 99, 100, 4096, 90210, MAX_ID, 2**64 - 1]),
)
def test_at_most_matches_exactly_the_numbers_up_to_its_bound(value: int, bound: int) -> None:
    pattern = re.compile(at_most(bound))
    assert bool(pattern.fullmatch(str(value))) == (value <= bound)
    assert not pattern.fullmatch("0" + str(value))  # no leading zeros: one spelling per id


# Every dynamic item, the history's page buttons bound to no curation (reading an id uses none).
EVERY_ITEM = [*SAMPLES, history_buttons(cast(Curation, None))]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_id_an_item_matches_it_can_read(data: st.DataObject) -> None:
    """discord.py drops a press silently when from_custom_id raises: whatever a template
    matches, a forged or an old id, must read back into an item (whose answer may then be no)."""
    for item in EVERY_ITEM:
        template = item.__discord_ui_compiled_template__
        custom_id = data.draw(st.from_regex(template, fullmatch=True), label=item.__name__)
        match = template.fullmatch(custom_id)
        assert match is not None
        made = asyncio.run(item.from_custom_id(None, None, match))
        assert isinstance(made, item)
