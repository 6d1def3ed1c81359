from __future__ import annotations

from bot.digests.pickers import new_awards, next_in_cycle
from bot.domain.subscriptions import CycleState


def walk(ids: list[int], state: CycleState, seed: int, steps: int) -> tuple[list[int], CycleState]:
    shown = []
    for _ in range(steps):
        pick, state = next_in_cycle(ids, state, seed)
        shown.append(pick)
    return shown, state


def test_no_repeat_until_the_catalogue_is_exhausted_then_a_new_order() -> None:
    ids = list(range(10, 30))
    first, state = walk(ids, CycleState(), seed=1, steps=20)
    assert sorted(first) == ids
    assert state.cycle == 0
    second, state = walk(ids, state, seed=1, steps=20)
    assert sorted(second) == ids
    assert state.cycle == 1
    assert second != first
    assert second[0] != first[-1]  # no paper twice in a row across the seam


def test_channels_get_different_orders() -> None:
    ids = list(range(50))
    assert walk(ids, CycleState(), 1, 10)[0] != walk(ids, CycleState(), 2, 10)[0]


def test_new_papers_join_the_current_cycle() -> None:
    shown, state = walk([1, 2, 3], CycleState(), seed=5, steps=2)
    more, state = walk([1, 2, 3, 4, 5], state, seed=5, steps=3)
    assert sorted(shown + more) == [1, 2, 3, 4, 5]
    assert state.cycle == 0


def test_a_removed_paper_does_not_block_the_cycle() -> None:
    shown, state = walk([1, 2, 3], CycleState(), seed=3, steps=2)
    (left,) = {1, 2, 3} - set(shown)
    nxt, state = next_in_cycle([i for i in (1, 2, 3) if i != left], state, seed=3)
    assert state.cycle == 1  # what remained was removed: a new cycle starts
    assert nxt in shown


def test_new_awards_batch_and_move_the_watermark() -> None:
    rows = [(5, 100), (7, 101), (9, 100), (12, 102)]
    found = new_awards(rows, watermark=6, newest=20)
    assert found.award_ids == (101, 100, 102)
    assert found.watermark == 20
    nothing = new_awards([], watermark=20, newest=25)
    assert nothing.award_ids == ()
    assert nothing.watermark == 25
