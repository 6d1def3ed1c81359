"""Which of a sharded bot's gateway shards one process runs, and which guilds they carry.

Discord puts a guild on shard `(guild_id >> 22) % shard_count`; a process running `ids` of
`count` shards hears only those guilds, so it schedules only their digests and settles only
their ledger rows. Pure values: the settings and `laurel run --shards` both parse through here.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")
# A shard count past this is a typo: each shard of a process is a gateway connection and a
# parameter of its SQL (bot/store/subscriptions.py).
MAX_COUNT = 65_536


class ShardError(ValueError):
    """Shard ids or a shard count that cannot be run; the message says why, in one line."""


def shard_of(guild_id: int, count: int) -> int:
    """The shard Discord sends `guild_id`'s events on, of `count`."""
    return (guild_id >> 22) % count


@dataclass(frozen=True, slots=True)
class Shards:
    """Shards `ids` of `count` (ids sorted, each in 0..count-1, at least one)."""

    ids: tuple[int, ...]
    count: int

    @classmethod
    def of(cls, ids: Iterable[int] | str | None, count: int | None) -> Shards | None:
        """The shards asked for: `ids` as a list or a range string ("0-3", "0,2,5-7"), all of
        `count` when only a count is given; None when neither is (one unsharded bot)."""
        if ids is None and count is None:
            return None
        if count is None:
            raise ShardError("shard ids need a shard count (--shard-count, [discord] shard_count)")
        if count < 1:
            raise ShardError(f"the shard count must be at least 1, not {count}")
        if count > MAX_COUNT:
            raise ShardError(f"a shard count of {count} is past what Laurel runs ({MAX_COUNT})")
        ranges = [(0, count - 1)] if ids is None else parse_ids(ids)
        if not ranges:
            raise ShardError("no shard ids given")
        return cls(_one_each(ranges, count), count)

    def owns(self, guild_id: int) -> bool:
        """Whether `guild_id`'s events (and digests) are this process's."""
        return shard_of(guild_id, self.count) in self.ids

    def share_of(self, rate: float) -> float:
        """This process's part of a deployment-wide `rate` (Discord's one global limit per bot,
        whichever process sends): its shards' fraction of all of them."""
        return rate * len(self.ids) / self.count

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"


def process_rate(rate: float | None, shards: Shards | None) -> float | None:
    """The fan-out pacing of one process: `rate` ([digests] requests_per_second) is the whole
    deployment's, so the processes of a sharded bot together keep it; None stays unpaced."""
    if rate is None or shards is None:
        return rate
    return shards.share_of(rate)


def parse_ids(ids: Iterable[int] | str) -> list[tuple[int, int]]:
    """Shard id ranges (low, high), as given, from a list of ids or from "0-3" / "0,2,5-7";
    empty or backwards ranges are refused. Never expanded here: "0-99999999999999999999" is
    two numbers, not a list (issue 22)."""
    found: list[tuple[int, int]] = []
    if isinstance(ids, str):
        for part in ids.split(","):
            match = _RANGE.match(part)
            if match is None:
                shown = part.strip()[:24] or "an empty part"
                raise ShardError(f"{shown!r} is not a shard id or range such as 0-3")
            low = _number(match[1])
            high = low if match[2] is None else _number(match[2])
            if high < low:
                raise ShardError(f"the shard range {low}-{high} is empty (write {high}-{low})")
            found.append((low, high))
    else:
        for item in ids:
            if isinstance(item, bool) or not isinstance(item, int) or item < 0:
                raise ShardError(f"{item!r} is not a shard id (a whole number from 0)")
            found.append((item, item))
    return found


def _number(digits: str) -> int:
    # int() of thousands of digits refuses (and needs no answer): past 9 digits, no shard id.
    if len(digits) > 9:
        raise ShardError(f"shard id {digits[:12]}… is past any shard count (at most {MAX_COUNT})")
    return int(digits)


def _one_each(ranges: list[tuple[int, int]], count: int) -> tuple[int, ...]:
    """The ids of `ranges`, each in 0..count-1 and named once: checked on the ranges (sorted:
    O(n log n)), expanded only then (at most `count` ids)."""
    beyond = [max(low, count) for low, high in ranges if high >= count]
    if beyond:
        raise ShardError(
            f"shard id {min(beyond)} is outside 0-{count - 1} (the shard count is {count})"
        )
    ordered = sorted(ranges)
    for (_, high), (low, _) in itertools.pairwise(ordered):
        if low <= high:
            raise ShardError(f"shard {low} is named twice (ranges overlap)")
    return tuple(i for low, high in ordered for i in range(low, high + 1))
