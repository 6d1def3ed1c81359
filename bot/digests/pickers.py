"""Pure pickers: what the next post of a subscription shows (a theme picks with one of them;
see `bot.digests.themes`).

Paper of the day, test of time, venue spotlight and by-the-numbers each walk their filtered
catalogue (papers, test-of-time papers, editions with awards, editions with statistics) in
shuffled cycles: within a cycle nothing repeats; once everything has come, a new cycle starts
in a new order. The cycle a channel is in is stored (`CycleState`), so the promise survives
restarts and a catalogue that grows mid-cycle (new items join the current cycle).
New awards batch every award added since the channel's watermark into one post.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.domain.subscriptions import CycleState


def cycle_order(ids: Sequence[int], seed: int, cycle: int) -> list[int]:
    order = sorted(set(ids))
    # A string seed is hashed the same way in every process: the order survives a restart.
    random.Random(f"laurel-digest:{seed}:{cycle}").shuffle(order)
    return order


def next_in_cycle(ids: Sequence[int], state: CycleState, seed: int) -> tuple[int, CycleState]:
    """The next id to show and the state after showing it; `ids` must not be empty.

    A fresh cycle never opens with the id that closed the previous one, so nothing comes
    twice in a row across the seam either (unless there is only one id).
    """
    if not ids:
        raise ValueError("nothing to choose from")
    shown = set(state.shown)
    remaining = [i for i in cycle_order(ids, seed, state.cycle) if i not in shown]
    if remaining:
        pick = remaining[0]
        return pick, CycleState(state.cycle, (*state.shown, pick))
    cycle = state.cycle + 1
    order = cycle_order(ids, seed, cycle)
    last = state.shown[-1] if state.shown else None
    if len(order) > 1 and order[0] == last:
        order[0], order[1] = order[1], order[0]
    return order[0], CycleState(cycle, (order[0],))


@dataclass(frozen=True, slots=True)
class NewAwards:
    """The awards added since a watermark (audit row ids), and the new watermark."""

    award_ids: tuple[int, ...]
    watermark: int


def new_awards(rows: Sequence[tuple[int, int]], watermark: int, newest: int) -> NewAwards:
    """`rows` are (audit id, award id) of awards added within the filter; those above
    `watermark` are new. `newest` is the newest audit row of any kind.

    The watermark moves to `newest` even when the filter leaves nothing to post, so awards
    outside the filter are not reconsidered every week.
    """
    fresh = sorted((audit, award) for audit, award in rows if audit > watermark)
    unique = dict.fromkeys(award for _, award in fresh)
    top = max([watermark, newest, *(audit for audit, _ in fresh)])
    return NewAwards(tuple(unique), top)
