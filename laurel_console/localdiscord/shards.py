"""Gateway sharding as Discord does it: which shard a guild is on, which IDENTIFY is refused.

A guild lives on shard `(guild_id >> 22) % shard_count`; direct messages (events with no
guild) only on shard 0. IDENTIFY's `shard` is `[shard_id, shard_count]`; one that is not two
integers with `0 <= shard_id < shard_count` closes with 4010 (Invalid shard), and so does a
count that differs from the other live sessions' when `Config.enforce_shard_count` is set; a
session without `shard` when the bot has more guilds than `Config.sharding_required_above`
closes with 4011 (Sharding required).

`add_spread_guilds` builds many guilds at once with ids that fall round-robin on the shards:
ids minted in one loop share a millisecond, and so a shard, like `Snowflakes.next()`'s would.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.state import (
    DISCORD_EPOCH_MS,
    Guild,
    Perm,
    User,
    World,
)

Shard = tuple[int, int]  # (shard_id, shard_count)

INVALID_SHARD = (4010, "Invalid shard.")
SHARDING_REQUIRED = (4011, "Sharding required.")
# Guild ids minted here carry this worker number, so they never collide with `World.ids`.
_SPREAD_WORKER = 2


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord dispatches this guild's events on."""
    return (guild_id >> 22) % shard_count


def holds(shard: Shard | None, guild_id: int | None) -> bool:
    """Whether a session identified with `shard` gets an event of this guild (None: a DM)."""
    if shard is None:
        return True
    shard_id, count = shard
    if guild_id is None:
        return shard_id == 0
    return shard_of(guild_id, count) == shard_id


def parse(value: object) -> Shard | None:
    """IDENTIFY's `shard` field as (id, count); raises ValueError when it is not one."""
    if value is None:
        return None
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in value)
    ):
        raise ValueError(value)
    shard_id, count = value
    if count < 1 or not 0 <= shard_id < count:
        raise ValueError(value)
    return shard_id, count


def refusal(
    value: object, config: Config, guild_count: int, live_counts: Iterable[int]
) -> tuple[int, str] | None:
    """The close code and reason for an IDENTIFY with this `shard` value, or None to accept it."""
    try:
        shard = parse(value)
    except ValueError:
        return INVALID_SHARD
    if shard is None:
        threshold = config.sharding_required_above
        return SHARDING_REQUIRED if threshold is not None and guild_count > threshold else None
    if config.enforce_shard_count and any(count != shard[1] for count in live_counts):
        return INVALID_SHARD
    return None


def guild_id_of(data: object) -> int | None:
    """The guild an event belongs to, from its `guild_id` (None: not a guild's event)."""
    if isinstance(data, dict) and data.get("guild_id") is not None:
        return int(data["guild_id"])
    return None


def add_spread_guilds(
    world: World, count: int, *, owner: User | None = None, members: Iterable[User] = ()
) -> list[Guild]:
    """`count` guilds, "Guild 0".., each with #general, the bot (with its managed role), the
    owner and `members`; consecutive guilds fall on consecutive shards for any shard count."""
    owner = owner or world.add_user("owner", global_name="Owner")
    people = list(members)
    start_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS - count  # in the past, all distinct
    guilds = []
    for n in range(count):
        guild_id = (start_ms + n) << 22 | _SPREAD_WORKER << 17
        while guild_id in world.guilds:  # a second call in the same millisecond
            guild_id += 1
        guild = world.add_guild(f"Guild {n}", owner, guild_id=guild_id)
        role = world.add_role(
            guild, world.bot.username, Perm.BOT_DEFAULT, managed=True, bot_id=world.bot.id
        )
        world.add_member(guild, world.bot, role)
        for person in people:
            world.add_member(guild, person)
        guild.system_channel_id = world.add_channel(guild, "general").id
        guilds.append(guild)
    return guilds
