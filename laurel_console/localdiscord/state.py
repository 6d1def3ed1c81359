"""The in-memory world the stand-in serves: users, one application, guilds, channels, messages.

Entities are plain dataclasses; `payloads.py` turns them into Discord's JSON objects. Messages
are kept as the JSON objects Discord returns, so what a test reads is exactly what the bot got.
"""

from __future__ import annotations

import base64
import itertools
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from laurel_console.localdiscord.config import INTENT_GUILD_MEMBERS, INTENT_GUILD_PRESENCES, Config

if TYPE_CHECKING:
    from laurel_console.localdiscord.interactions import Interaction

DISCORD_EPOCH_MS = 1_420_070_400_000

# Channel types
GUILD_TEXT, DM, GUILD_CATEGORY, GUILD_ANNOUNCEMENT, GUILD_FORUM = 0, 1, 4, 5, 15
ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD = 10, 11, 12
THREAD_TYPES = frozenset({ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD})
MESSAGEABLE_TYPES = frozenset({GUILD_TEXT, DM, GUILD_ANNOUNCEMENT}) | THREAD_TYPES


class Perm:
    """Permission bits (https://discord.com/developers/docs/topics/permissions)."""

    CREATE_INSTANT_INVITE = 1 << 0
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    SEND_TTS_MESSAGES = 1 << 12
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    ALL = (1 << 51) - 1

    EVERYONE_DEFAULT = (
        CREATE_INSTANT_INVITE
        | ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | CHANGE_NICKNAME
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS
    )
    # What a text-sending bot asks for in its invite link.
    BOT_DEFAULT = (
        VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | SEND_MESSAGES_IN_THREADS
        | CREATE_PUBLIC_THREADS
        | ADD_REACTIONS
    )
    _NEEDS_SEND = MENTION_EVERYONE | SEND_TTS_MESSAGES | ATTACH_FILES | EMBED_LINKS
    # What anyone may do in a direct message.
    IN_DM = (
        VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | ADD_REACTIONS
        | USE_EXTERNAL_EMOJIS
    )


class Snowflakes:
    """Time-based ids like Discord's: ms since 2015 << 22 | worker << 17 | process << 12 | n."""

    def __init__(self, worker: int = 1, process: int = 0) -> None:
        self._base = (worker & 0x1F) << 17 | (process & 0x1F) << 12
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = ms << 22 | self._base | next(self._counter) & 0xFFF
        self._last = value = max(value, self._last + 1)  # strictly increasing within a process
        return value


def snowflake_time(snowflake: int) -> datetime:
    return datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, UTC)


def iso(moment: datetime | None = None) -> str:
    """Discord's timestamp format: ISO 8601 with microseconds and +00:00."""
    return (moment or datetime.now(UTC)).isoformat(timespec="microseconds")


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    accepts_dms: bool = True  # False: direct messages from the bot are refused (50007)


@dataclass
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    managed: bool = False
    mentionable: bool = False
    bot_id: int | None = None  # the bot a managed integration role belongs to


@dataclass
class Member:
    user_id: int
    roles: list[int] = field(default_factory=list)  # without @everyone, as Discord sends them
    nick: str | None = None
    joined_at: str = field(default_factory=iso)


@dataclass
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0


@dataclass
class Channel:
    id: int
    guild_id: int
    type: int
    name: str
    position: int = 0
    parent_id: int | None = None
    topic: str | None = None
    nsfw: bool = False
    rate_limit_per_user: int = 0
    overwrites: list[Overwrite] = field(default_factory=list)
    last_message_id: int | None = None
    # threads
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    created_at: str = field(default_factory=iso)
    message_count: int = 0
    applied_tags: list[int] = field(default_factory=list)
    # forums
    available_tags: list[dict[str, Any]] = field(default_factory=list)
    # direct messages (type DM, guild_id 0): the user the bot writes to
    recipient_id: int | None = None

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)  # threads included
    members: dict[int, Member] = field(default_factory=dict)
    preferred_locale: str = "en-US"
    # Where Discord posts server notices (joins, boosts); bots tell admins there too.
    system_channel_id: int | None = None

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def base_permissions(self, user_id: int) -> int:
        member = self.members.get(user_id)
        if member is None:
            return 0
        if user_id == self.owner_id:
            return Perm.ALL
        perms = self.everyone.permissions
        for role_id in member.roles:
            perms |= self.roles[role_id].permissions
        return Perm.ALL if perms & Perm.ADMINISTRATOR else perms

    def permissions_in(self, channel: Channel, user_id: int) -> int:
        """Discord's algorithm: base, then @everyone, role and member overwrites."""
        perms = self.base_permissions(user_id)
        if perms == Perm.ALL or perms == 0:
            return perms
        if channel.is_thread and channel.parent_id in self.channels:
            channel = self.channels[channel.parent_id]
        member = self.members[user_id]
        by_id = {o.id: o for o in channel.overwrites}
        if everyone := by_id.get(self.id):
            perms = perms & ~everyone.deny | everyone.allow
        allow = deny = 0
        for role_id in member.roles:
            if overwrite := by_id.get(role_id):
                allow, deny = allow | overwrite.allow, deny | overwrite.deny
        perms = perms & ~deny | allow
        if (own := by_id.get(user_id)) and own.type == 1:
            perms = perms & ~own.deny | own.allow
        if not perms & Perm.VIEW_CHANNEL:
            return 0
        if not perms & Perm.SEND_MESSAGES:
            perms &= ~Perm._NEEDS_SEND
        return perms


@dataclass
class StoredMessage:
    """A message as Discord returns it, plus what Discord keeps but does not return."""

    payload: dict[str, Any]
    author_id: int
    created: float  # monotonic, for the nonce window
    ephemeral: bool = False


class World:
    """Everything the stand-in knows; mutate it freely in tests before or while serving."""

    def __init__(self, config: Config | None = None) -> None:
        self.config = config or Config()
        self.ids = Snowflakes()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.bot = self.add_user("Laurel", bot=True)
        self.application_id = self.bot.id  # as for every modern application
        self.application_name = "Laurel"
        encoded = base64.urlsafe_b64encode(str(self.bot.id).encode()).decode().rstrip("=")
        self.token = f"{encoded}.{secrets.token_urlsafe(4)}.{secrets.token_urlsafe(27)}"
        self.messages: dict[int, list[StoredMessage]] = {}
        self.attachments: dict[int, bytes] = {}
        # None is the global scope; otherwise a guild id.
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.interactions: dict[int, Interaction] = {}
        self.dms: dict[int, Channel] = {}  # recipient's user id -> the bot's DM channel

    # -- building ------------------------------------------------------------------------
    def add_user(self, username: str, *, bot: bool = False, global_name: str | None = None) -> User:
        user = User(self.ids.next(), username, global_name, bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, owner: User, *, guild_id: int | None = None) -> Guild:
        guild = Guild(guild_id or self.ids.next(), name, owner.id)
        guild.roles[guild.id] = Role(guild.id, "@everyone", Perm.EVERYONE_DEFAULT)
        self.guilds[guild.id] = guild
        self.add_member(guild, owner)
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int = 0, **kw: Any) -> Role:
        role = Role(self.ids.next(), name, permissions, position=len(guild.roles), **kw)
        guild.roles[role.id] = role
        return role

    def add_member(self, guild: Guild, user: User, *roles: Role) -> Member:
        member = Member(user.id, [r.id for r in roles])
        guild.members[user.id] = member
        return member

    def add_channel(self, guild: Guild, name: str, type: int = GUILD_TEXT, **kw: Any) -> Channel:
        position = sum(1 for c in guild.channels.values() if not c.is_thread)
        kw.setdefault("position", 0 if type in THREAD_TYPES else position)
        channel = Channel(self.ids.next(), guild.id, type, name, **kw)
        guild.channels[channel.id] = channel
        self.messages[channel.id] = []
        return channel

    def add_thread(
        self,
        parent: Channel,
        name: str,
        *,
        owner_id: int | None = None,
        thread_id: int | None = None,
    ) -> Channel:
        guild = self.guilds[parent.guild_id]
        type = ANNOUNCEMENT_THREAD if parent.type == GUILD_ANNOUNCEMENT else PUBLIC_THREAD
        thread = Channel(
            thread_id or self.ids.next(),
            guild.id,
            type,
            name,
            parent_id=parent.id,
            owner_id=owner_id or self.bot.id,
        )
        guild.channels[thread.id] = thread
        self.messages[thread.id] = []
        return thread

    def open_dm(self, user: User) -> Channel:
        """The bot's direct-message channel with `user`: one per user, made on first use."""
        if user.id not in self.dms:
            dm = Channel(self.ids.next(), 0, DM, "", recipient_id=user.id)
            self.dms[user.id] = dm
            self.messages[dm.id] = []
        return self.dms[user.id]

    # -- looking up ----------------------------------------------------------------------
    def channel(self, channel_id: int) -> Channel | None:
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild.channels[channel_id]
        for dm in self.dms.values():
            if dm.id == channel_id:
                return dm
        return None

    def guild_of(self, channel: Channel) -> Guild:
        return self.guilds[channel.guild_id]

    def default_guild(self) -> Guild:
        return next(iter(self.guilds.values()))

    def find_channel(self, name: str, guild: Guild | None = None) -> Channel:
        guild = guild or self.default_guild()
        found = [c for c in guild.channels.values() if c.name == name.lstrip("#")]
        if not found:
            raise LookupError(f"no channel named {name!r} in {guild.name!r}")
        return found[0]

    def find_user(self, username: str) -> User:
        for user in self.users.values():
            if user.username == username:
                return user
        raise LookupError(f"no user named {username!r}")

    def find_role(self, name: str, guild: Guild | None = None) -> Role:
        guild = guild or self.default_guild()
        for role in guild.roles.values():
            if role.name == name:
                return role
        raise LookupError(f"no role named {name!r} in {guild.name!r}")

    def application_flags(self) -> int:
        """The *_LIMITED flags an unverified app gets for each privileged intent it was granted."""
        granted = self.config.granted_intents
        flags = 1 << 23  # APPLICATION_COMMAND_BADGE
        if granted & INTENT_GUILD_PRESENCES:
            flags |= 1 << 13
        if granted & INTENT_GUILD_MEMBERS:
            flags |= 1 << 15
        if granted & (1 << 15):  # MESSAGE_CONTENT
            flags |= 1 << 19
        return flags


def default_world(config: Config | None = None) -> World:
    """The "Laurel Lab" guild: #general (with a thread; the system channel), #announcements,
    #papers-forum;
    roles @everyone, Admin (Manage Guild), Member and the bot's own managed role; members: the
    bot, an admin ("ada", who owns the guild) and a plain member ("grace")."""
    world = World(config)
    ada = world.add_user("ada", global_name="Ada")
    grace = world.add_user("grace", global_name="Grace")
    guild = world.add_guild("Laurel Lab", owner=ada)
    admin = world.add_role(guild, "Admin", Perm.MANAGE_GUILD, hoist=True)
    member = world.add_role(guild, "Member")
    bot_role = world.add_role(
        guild, world.bot.username, Perm.BOT_DEFAULT, managed=True, bot_id=world.bot.id
    )
    guild.members[ada.id].roles.append(admin.id)
    world.add_member(guild, grace, member)
    world.add_member(guild, world.bot, bot_role)
    general = world.add_channel(guild, "general", topic="Talk about papers")
    guild.system_channel_id = general.id
    world.add_channel(guild, "announcements", GUILD_ANNOUNCEMENT)
    world.add_channel(
        guild,
        "papers-forum",
        GUILD_FORUM,
        available_tags=[
            {
                "id": str(world.ids.next()),
                "name": "NeurIPS",
                "moderated": False,
                "emoji_id": None,
                "emoji_name": None,
            }
        ],
    )
    world.add_thread(general, "reading-group", owner_id=ada.id)
    return world
