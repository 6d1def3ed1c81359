"""Sending a digest post to Discord, finding one whose outcome was lost, telling admins.

The service sees three kinds of failure, whatever the transport: `ChannelGone` (403/404: stop
posting there), `TransientError` (429, 5xx, a dropped connection: retry, the nonce makes it
safe) and `RejectedError` (anything else: retrying would not help).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import logging
from typing import Literal, Protocol

import aiohttp
import discord
from discord.http import handle_message_parameters
from discord.utils import time_snowflake

from bot.domain.clock import Clock
from bot.render.digest_posts import Post, hidden_marker

log = logging.getLogger(__name__)
GoneReason = Literal["forbidden", "not-found"]
# A message is looked for from a little before its row was reserved (clocks differ).
_LOOKUP_SLACK = dt.timedelta(minutes=2)


class DeliveryError(Exception):
    pass


class ChannelGone(DeliveryError):
    def __init__(self, reason: GoneReason, detail: str) -> None:
        super().__init__(detail)
        self.reason: GoneReason = reason


class TransientError(DeliveryError):
    pass


class RejectedError(DeliveryError):
    pass


class Deliverer(Protocol):
    def ready(self) -> bool: ...

    def is_forum(self, channel_id: int) -> bool: ...

    async def send(
        self, channel_id: int, post: Post, *, nonce: str, thread_name: str, role_id: int | None
    ) -> int:
        """Post and return the message id; raise a `DeliveryError`."""
        ...

    async def find(
        self, channel_id: int, *, marker: str, since: dt.datetime, thread_name: str, limit: int
    ) -> int | None:
        """The id of Laurel's post carrying `marker`, sent since `since`, if there is one."""
        ...

    async def notify_admins(self, guild_id: int, channel_id: int, text: str) -> bool: ...


class Pacer:
    """Spaces requests `1/rate` seconds apart: Discord's global limit is kept, not probed.

    Strictly: a request that finds its slot already past (the loop or the process was busy)
    goes at once and the schedule starts again from then, so no window of w seconds ever holds
    more than `rate * w + 1` requests — a stall is never made up by sending faster than the
    rate, which Discord would answer with 429s (and counts toward its invalid-request limit).
    `lost` adds up the seconds of schedule given up that way while requests were queued (a
    quiet spell with nothing to send is not counted).
    """

    def __init__(self, rate: float | None, clock: Clock) -> None:
        self._clock = clock
        self.rate = rate  # requests per second; None: unpaced
        self._interval = 0.0 if rate is None else 1.0 / rate
        self._next = 0.0
        self._lock = asyncio.Lock()
        self._callers = 0  # waiting or in the lock
        self._queue_behind = False  # others were waiting when the last request went
        self.lost = 0.0  # seconds of schedule given up to stalls with requests queued

    async def wait(self) -> None:
        if not self._interval:
            return
        self._callers += 1
        try:
            async with self._lock:
                await self._take_slot()
                self._queue_behind = self._callers > 1
        finally:
            self._callers -= 1

    async def _take_slot(self) -> None:
        now = self._clock.monotonic()
        if self._next > now:
            await self._clock.sleep(self._next - now)
        elif self._queue_behind and self._next:  # a stall with requests queued
            self.lost += now - self._next
        self._next = max(now, self._next) + self._interval


def allowed_mentions(role_id: int | None) -> discord.AllowedMentions:
    """Nobody, except the subscription's one role if it opted in to it."""
    roles: list[discord.abc.Snowflake] | bool = [discord.Object(role_id)] if role_id else False
    return discord.AllowedMentions(everyone=False, users=False, roles=roles, replied_user=False)


def _classify(exc: Exception) -> DeliveryError:
    if isinstance(exc, discord.Forbidden):
        return ChannelGone("forbidden", f"403 {exc.code}: {exc.text}")
    if isinstance(exc, discord.NotFound):
        return ChannelGone("not-found", f"404 {exc.code}: {exc.text}")
    if isinstance(exc, discord.HTTPException):
        if exc.status == 429 or exc.status >= 500:
            return TransientError(f"{exc.status} {exc.code}: {exc.text}")
        return RejectedError(f"{exc.status} {exc.code}: {exc.text}")
    return TransientError(f"{type(exc).__name__}: {exc}")


class DiscordDelivery:
    """The `Deliverer` on discord.py: text, announcement and thread channels get a message
    (with a nonce Discord de-duplicates); forum channels get a new post (a thread)."""

    def __init__(self, client: discord.Client, rate: float | None, clock: Clock) -> None:
        self._client = client
        self.pacer = Pacer(rate, clock)
        # channel id -> guild id. discord.py's `get_channel` asks every guild in turn: a
        # fan-out to 10,000 channels in 400 guilds would make that O(N^2) over the fan-out.
        self._guild_of: dict[int, int] = {}

    def _channel(self, channel_id: int) -> object:
        """The cached channel or thread (None if unknown): one dict lookup for a channel seen
        before, otherwise discord.py's search of every guild, remembered."""
        if not self._guild_of:
            self._guild_of = {
                channel.id: guild.id
                for guild in self._client.guilds
                for channel in (*guild.channels, *guild.threads)
            }
        guild_id = self._guild_of.get(channel_id)
        guild = None if guild_id is None else self._client.get_guild(guild_id)
        cached = None if guild is None else guild.get_channel_or_thread(channel_id)
        if cached is not None:
            return cached
        found = self._client.get_channel(channel_id)
        home = getattr(found, "guild", None)
        if home is not None:
            self._guild_of[channel_id] = home.id
        return found

    def ready(self) -> bool:
        return self._client.is_ready()

    def is_forum(self, channel_id: int) -> bool:
        return isinstance(self._channel(channel_id), discord.ForumChannel)

    async def send(
        self, channel_id: int, post: Post, *, nonce: str, thread_name: str, role_id: int | None
    ) -> int:
        channel = self._channel(channel_id)
        # Files are read once per attempt: a fresh File for every try.
        files = [discord.File(io.BytesIO(data), filename=name) for name, data in post.files]
        mentions = allowed_mentions(role_id)
        await self.pacer.wait()
        try:
            if isinstance(channel, discord.ForumChannel):
                created = await channel.create_thread(
                    name=thread_name,
                    content=post.content,
                    embeds=post.embeds,
                    files=files,
                    allowed_mentions=mentions,
                )
                return created.message.id
            # What `Messageable.send` does, less the `Message` it builds from the answer (a
            # fan-out needs only the id): the same payload, through the same HTTP client.
            with handle_message_parameters(
                content=post.content,
                embeds=post.embeds,
                files=files,
                nonce=nonce,  # sent with enforce_nonce: a retry is not a repeat
                allowed_mentions=mentions,
                previous_allowed_mentions=self._client.allowed_mentions,
            ) as params:
                data = await self._client.http.send_message(channel_id, params=params)
            return int(data["id"])
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
            raise _classify(exc) from exc

    def _messageable(self, channel: object, channel_id: int) -> discord.abc.Messageable:
        # An uncached channel (a thread not seen yet) still takes a message by id.
        if isinstance(channel, discord.abc.Messageable):
            return channel
        return self._client.get_partial_messageable(channel_id)

    async def find(
        self, channel_id: int, *, marker: str, since: dt.datetime, thread_name: str, limit: int
    ) -> int | None:
        after = discord.Object(time_snowflake(since - _LOOKUP_SLACK))
        me = self._client.user
        channel = self._channel(channel_id)
        try:
            if isinstance(channel, discord.ForumChannel):
                return await self._find_forum_post(channel, marker, after.id, thread_name)
            target = self._messageable(channel, channel_id)
            async for message in target.history(limit=limit, after=after):
                if me is not None and message.author.id == me.id and _carries(message, marker):
                    return message.id
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
            raise _classify(exc) from exc
        return None

    async def _find_forum_post(
        self, forum: discord.ForumChannel, marker: str, after: int, thread_name: str
    ) -> int | None:
        # Forum posts take no nonce; the bot's cache holds the forum's threads (THREAD_CREATE).
        me = self._client.user
        # The theme part of the name: a post a version before this one named by its ISO week
        # ("… · 2026-W02", now its date) is still found; the marker decides which post it is.
        theme = thread_name.rsplit(" · ", 1)[0]
        for thread in forum.threads:
            if thread.id <= after or thread.name.rsplit(" · ", 1)[0] != theme:
                continue
            if me is None or thread.owner_id != me.id:
                continue
            starter = await thread.fetch_message(thread.id)
            if _carries(starter, marker):
                return starter.id
        return None

    async def notify_admins(self, guild_id: int, channel_id: int, text: str) -> bool:
        """Tell the server's admins, once: in the system channel, where Discord itself posts
        server notices and admins look, if Laurel may post there; else the owner, directly."""
        guild = self._client.get_guild(guild_id)
        if guild is None:
            return False
        mentions = discord.AllowedMentions.none()
        system = guild.system_channel
        try:
            if (
                system is not None
                and system.id != channel_id
                and system.permissions_for(guild.me).send_messages
            ):
                await system.send(text, allowed_mentions=mentions)
                return True
            owner = guild.owner or await guild.fetch_member(guild.owner_id or 0)
            await owner.send(text, allowed_mentions=mentions)
            return True
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            log.warning("could not tell the admins of guild %s: %s", guild_id, exc)
            return False


def _carries(message: discord.Message, marker: str) -> bool:
    """Whether the post ends its footer with `marker`, as written invisibly (or, a post sent
    before it was hidden, as plain text)."""
    ends = (hidden_marker(marker), marker)
    return any(
        embed.footer.text is not None and embed.footer.text.endswith(ends)
        for embed in message.embeds
    )
