"""The paper of the day: the same for a whole server on a given day, and no repeat before the
whole catalogue has come round.

Days are numbered from 1970-01-01 (UTC) and grouped in cycles of N days, N being the number of
papers. Each cycle is a seeded shuffle of the sorted ids, seeded by (server, cycle): within a
cycle every paper comes exactly once, and servers see different orders. When the catalogue
grows, N changes and the order is reshuffled; the promise holds again from then on.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence

EPOCH = dt.date(1970, 1, 1)


def day_number(day: dt.date) -> int:
    return (day - EPOCH).days


def cycle_order(ids: Sequence[int], scope: int, cycle: int) -> list[int]:
    """The ids in the order cycle `cycle` shows them to `scope` (a server, or a user in DMs).

    A cycle never opens with the paper that closed the one before, so no paper comes two days
    running across the seam either.
    """
    order = _shuffled(ids, scope, cycle)
    if len(order) > 2 and cycle > 0 and order[0] == _shuffled(ids, scope, cycle - 1)[-1]:
        order[0], order[1] = order[1], order[0]
    return order


def paper_of_the_day(ids: Sequence[int], scope: int, day: dt.date) -> int:
    """The id shown to `scope` on `day`; `ids` must not be empty."""
    if not ids:
        raise ValueError("no papers to choose from")
    number = day_number(day)
    cycle, position = divmod(number, len(ids))
    return cycle_order(ids, scope, cycle)[position]


def _shuffled(ids: Sequence[int], scope: int, cycle: int) -> list[int]:
    order = sorted(set(ids))
    # A string seed is hashed (SHA-512) by random.seed: the same order in every process.
    random.Random(f"laurel-daily:{scope}:{cycle}").shuffle(order)
    return order
