"""Channels, messages and threads: /channels/... and /guilds/{guild_id}/channels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aiohttp import web

from laurel_console.localdiscord import errors, payloads
from laurel_console.localdiscord.config import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
)
from laurel_console.localdiscord.messages import Origin, UploadedFile
from laurel_console.localdiscord.rest import (
    API_PREFIX,
    BODY,
    FILES,
    Backend,
    json_response,
    no_content,
)
from laurel_console.localdiscord.state import (
    DM,
    GUILD_ANNOUNCEMENT,
    GUILD_FORUM,
    GUILD_TEXT,
    MESSAGEABLE_TYPES,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    Channel,
    Perm,
    StoredMessage,
)


def body_dict(request: web.Request) -> dict[str, Any]:
    body = request[BODY]
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise errors.invalid_form_body(
            [((), "DICT_TYPE_CONVERT", "Only dictionaries may be used.")]
        )
    return body


def has_message_content(body: dict[str, Any], files: Sequence[UploadedFile]) -> bool:
    keys = ("content", "embeds", "components", "sticker_ids", "poll")
    return bool(files) or any(body.get(key) for key in keys)


class ChannelRoutes:
    def __init__(self, backend: Backend) -> None:
        self.b = backend

    def register(self, router: web.UrlDispatcher) -> None:
        p = API_PREFIX
        router.add_get(p + "/channels/{channel_id}", self.get_channel)
        router.add_get(p + "/guilds/{guild_id}", self.get_guild)
        router.add_get(p + "/guilds/{guild_id}/channels", self.guild_channels)
        router.add_get(p + "/guilds/{guild_id}/roles", self.guild_roles)
        router.add_get(p + "/guilds/{guild_id}/members/{user_id}", self.guild_member)
        router.add_post(p + "/channels/{channel_id}/typing", self.typing)
        router.add_post(p + "/channels/{channel_id}/messages", self.create_message)
        router.add_get(p + "/channels/{channel_id}/messages", self.history)
        router.add_get(p + "/channels/{channel_id}/messages/{message_id}", self.get_message)
        router.add_patch(p + "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        router.add_delete(p + "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        router.add_post(p + "/channels/{channel_id}/threads", self.create_thread)
        router.add_post(
            p + "/channels/{channel_id}/messages/{message_id}/threads", self.thread_from_message
        )
        router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.attachment)
        router.add_post(p + "/users/@me/channels", self.open_dm)

    # -- lookups and permission checks -----------------------------------------------------
    def channel(self, request: web.Request) -> Channel:
        channel = self.b.world.channel(int(request.match_info["channel_id"]))
        if channel is None:
            raise errors.unknown_channel()
        return channel

    def require(self, channel: Channel, *needed: int) -> int:
        """The bot's permissions in `channel`; 50001 if it cannot see it, 50013 if it lacks one
        of `needed`."""
        if channel.type == DM:
            perms = Perm.IN_DM
        else:
            perms = self.b.world.guild_of(channel).permissions_in(channel, self.b.world.bot.id)
        if not perms & Perm.VIEW_CHANNEL:
            raise errors.missing_access()
        for need in needed:
            if not perms & need:
                raise errors.missing_permissions()
        return perms

    def message(self, channel: Channel, request: web.Request) -> StoredMessage:
        stored = self.b.store.get(channel.id, int(request.match_info["message_id"]))
        if stored is None or stored.ephemeral:
            raise errors.unknown_message()
        return stored

    def guild(self, request: web.Request) -> Any:
        guild = self.b.world.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise errors.missing_access()
        return guild

    async def announce(self, event: str, stored: StoredMessage, channel: Channel) -> None:
        """MESSAGE_CREATE/UPDATE as the gateway carries them: with guild_id and member."""
        if stored.ephemeral:
            return
        if channel.type == DM:
            await self.b.gateway.dispatch(event, stored.payload, intent=INTENT_DIRECT_MESSAGES)
            return
        guild = self.b.world.guild_of(channel)
        data = {**stored.payload, "guild_id": str(guild.id)}
        if member := guild.members.get(stored.author_id):
            data["member"] = payloads.member(self.b.world, member, with_user=False)
        await self.b.gateway.dispatch(event, data, intent=INTENT_GUILD_MESSAGES)

    # -- channels and guilds -------------------------------------------------------------
    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        self.require(channel)
        return json_response(payloads.channel(channel))

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self.guild(request)
        data = payloads.guild_create(self.b.world, guild, intents=0)
        keep = ("members", "channels", "threads", "presences", "voice_states", "joined_at")
        return json_response({k: v for k, v in data.items() if k not in keep})

    async def guild_channels(self, request: web.Request) -> web.Response:
        guild = self.guild(request)
        channels = [payloads.channel(c) for c in guild.channels.values() if not c.is_thread]
        return json_response(channels)

    async def guild_roles(self, request: web.Request) -> web.Response:
        return json_response([payloads.role(r) for r in self.guild(request).roles.values()])

    async def guild_member(self, request: web.Request) -> web.Response:
        member = self.guild(request).members.get(int(request.match_info["user_id"]))
        if member is None:
            raise errors.not_found(10007, "Member")
        return json_response(payloads.member(self.b.world, member))

    async def typing(self, request: web.Request) -> web.Response:
        self.require(self.channel(request), Perm.SEND_MESSAGES)
        return no_content()

    # -- messages --------------------------------------------------------------------------
    async def create_message(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        if channel.type not in MESSAGEABLE_TYPES:
            raise errors.bad_request(50008, "Cannot send messages in a non-text channel")
        send = Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
        perms = self.require(channel, send)
        body, files = body_dict(request), request[FILES]
        if not has_message_content(body, files):
            raise errors.bad_request(50006, "Cannot send an empty message")
        if channel.type == DM and not self.b.world.users[channel.recipient_id or 0].accepts_dms:
            raise errors.DiscordError(403, 50007, "Cannot send messages to this user")
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            earlier = self.b.store.find_nonce(channel.id, self.b.world.bot.id, body["nonce"])
            if earlier is not None:
                return json_response(earlier.payload)
        if channel.locked:
            raise errors.bad_request(50083, "Thread is archived")
        channel.archived = False  # sending to an archived (unlocked) thread unarchives it
        origin = Origin(self.b.world.bot, permissions=perms)
        stored = self.b.store.create(channel, origin, body, files)
        await self.announce("MESSAGE_CREATE", stored, channel)
        return json_response(stored.payload)

    async def history(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        perms = self.require(channel)
        if not perms & Perm.READ_MESSAGE_HISTORY:
            return json_response([])
        query = request.query
        try:
            limit = int(query.get("limit", 50))
            marks = {k: int(query[k]) for k in ("before", "after", "around") if k in query}
        except ValueError:
            raise errors.invalid_form_body(
                [(("limit",), "NUMBER_TYPE_COERCE", "Value is not int.")]
            ) from None
        if not 1 <= limit <= 100:
            raise errors.invalid_form_body(
                [(("limit",), "NUMBER_TYPE_MAX", "Must be between 1 and 100.")]
            )
        return json_response(self.b.store.history(channel.id, limit=limit, **marks))

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        self.require(channel, Perm.READ_MESSAGE_HISTORY)
        return json_response(self.message(channel, request).payload)

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        perms = self.require(channel)
        stored = self.message(channel, request)
        body = body_dict(request)
        if stored.author_id != self.b.world.bot.id and set(body) - {"flags"}:
            raise errors.other_author()
        self.b.store.edit(
            stored, channel, Origin(self.b.world.bot, permissions=perms), body, request[FILES]
        )
        await self.announce("MESSAGE_UPDATE", stored, channel)
        return json_response(stored.payload)

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        perms = self.require(channel)
        stored = self.message(channel, request)
        if stored.author_id != self.b.world.bot.id and not perms & Perm.MANAGE_MESSAGES:
            raise errors.missing_permissions()
        self.b.store.delete(channel.id, int(stored.payload["id"]))
        data = {
            "id": stored.payload["id"],
            "channel_id": str(channel.id),
            "guild_id": str(channel.guild_id),
        }
        await self.b.gateway.dispatch("MESSAGE_DELETE", data, intent=INTENT_GUILD_MESSAGES)
        return no_content()

    async def open_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels {recipient_id}: the bot's DM channel with that user."""
        recipient = self.b.world.users.get(int(body_dict(request).get("recipient_id") or 0))
        if recipient is None or recipient.id == self.b.world.bot.id:
            raise errors.not_found(10013, "User")
        dm = self.b.world.open_dm(recipient)
        return json_response(payloads.dm_channel(dm, recipient))

    # -- threads ---------------------------------------------------------------------------
    async def create_thread(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        body = body_dict(request)
        if channel.type == GUILD_FORUM:
            return await self._forum_post(channel, body, request)
        if channel.type not in (GUILD_TEXT, GUILD_ANNOUNCEMENT):
            raise errors.bad_request(50024, "Cannot execute action on this channel type")
        kind = int(body.get("type") or PRIVATE_THREAD)
        needed = (
            Perm.CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else Perm.CREATE_PUBLIC_THREADS
        )
        self.require(channel, needed)
        thread = self._thread(channel, body, kind=kind)
        await self.b.gateway.dispatch(
            "THREAD_CREATE",
            {**payloads.channel(thread), "newly_created": True},
            intent=INTENT_GUILDS,
        )
        return json_response(payloads.channel(thread), 201)

    async def thread_from_message(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        self.require(channel, Perm.CREATE_PUBLIC_THREADS)
        stored = self.message(channel, request)
        thread = self._thread(channel, body_dict(request), thread_id=int(stored.payload["id"]))
        await self.b.gateway.dispatch(
            "THREAD_CREATE",
            {**payloads.channel(thread), "newly_created": True},
            intent=INTENT_GUILDS,
        )
        return json_response(payloads.channel(thread), 201)

    async def _forum_post(
        self, forum: Channel, body: dict[str, Any], request: web.Request
    ) -> web.Response:
        perms = self.require(forum, Perm.SEND_MESSAGES)
        message = body.get("message")
        if not isinstance(message, dict) or not has_message_content(message, request[FILES]):
            raise errors.invalid_form_body(
                [(("message",), "BASE_TYPE_REQUIRED", "This field is required")]
            )
        thread = self._thread(forum, body, kind=PUBLIC_THREAD)
        thread.applied_tags = [int(t) for t in body.get("applied_tags") or []]
        origin = Origin(self.b.world.bot, permissions=perms)
        # A forum post's starter message has the thread's id.
        stored = self.b.store.create(thread, origin, message, request[FILES], message_id=thread.id)
        data = payloads.channel(thread)
        await self.b.gateway.dispatch(
            "THREAD_CREATE", {**data, "newly_created": True}, intent=INTENT_GUILDS
        )
        await self.announce("MESSAGE_CREATE", stored, thread)
        return json_response({**payloads.channel(thread), "message": stored.payload}, 201)

    def _thread(
        self,
        parent: Channel,
        body: dict[str, Any],
        *,
        kind: int = PUBLIC_THREAD,
        thread_id: int | None = None,
    ) -> Channel:
        name = body.get("name")
        if not isinstance(name, str) or not name:
            raise errors.invalid_form_body(
                [(("name",), "BASE_TYPE_REQUIRED", "This field is required")]
            )
        thread = self.b.world.add_thread(parent, name, thread_id=thread_id)
        if kind == PRIVATE_THREAD:
            thread.type = PRIVATE_THREAD
        thread.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
        thread.rate_limit_per_user = int(body.get("rate_limit_per_user") or 0)
        return thread

    async def attachment(self, request: web.Request) -> web.Response:
        data = self.b.world.attachments.get(int(request.match_info["attachment_id"]))
        if data is None:
            raise web.HTTPNotFound()
        return web.Response(body=data, content_type="application/octet-stream")
