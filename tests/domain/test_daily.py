from __future__ import annotations

import datetime as dt
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.domain.daily import EPOCH, cycle_order, day_number, paper_of_the_day

IDS = list(range(100, 133))  # as many as the bundled catalogue: 33


def _days(start: dt.date, count: int) -> list[dt.date]:
    return [start + dt.timedelta(days=n) for n in range(count)]


def test_the_same_day_gives_the_same_paper() -> None:
    day = dt.date(2026, 11, 29)
    assert paper_of_the_day(IDS, 42, day) == paper_of_the_day(list(reversed(IDS)), 42, day)


@given(
    scope=st.integers(min_value=0, max_value=2**63),
    n=st.integers(min_value=1, max_value=60),
    cycle=st.integers(min_value=0, max_value=2_000),
)
def test_a_cycle_shows_every_paper_once(scope: int, n: int, cycle: int) -> None:
    ids = list(range(7, 7 + n))
    start = EPOCH + dt.timedelta(days=cycle * n)
    shown = [paper_of_the_day(ids, scope, day) for day in _days(start, n)]
    assert sorted(shown) == ids


@pytest.mark.parametrize("scope", [1, 2, 1_234_567_890_123])
def test_no_paper_two_days_running_even_across_cycles(scope: int) -> None:
    shown = [paper_of_the_day(IDS, scope, d) for d in _days(dt.date(2026, 1, 1), 10 * len(IDS))]
    assert all(a != b for a, b in itertools.pairwise(shown))


def test_cycles_and_servers_differ() -> None:
    assert cycle_order(IDS, 1, 5) != cycle_order(IDS, 1, 6)
    assert cycle_order(IDS, 1, 5) != cycle_order(IDS, 2, 5)


def test_days_are_counted_in_utc_dates() -> None:
    assert day_number(dt.date(1970, 1, 2)) == 1


def test_an_empty_catalogue_is_refused() -> None:
    with pytest.raises(ValueError, match="no papers"):
        paper_of_the_day([], 1, dt.date(2026, 1, 1))
