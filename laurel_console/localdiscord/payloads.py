"""World entities as Discord's JSON objects (users, members, roles, channels, guilds, app)."""

from __future__ import annotations

from typing import Any

from laurel_console.localdiscord.config import INTENT_GUILD_PRESENCES
from laurel_console.localdiscord.state import (
    GUILD_FORUM,
    PRIVATE_THREAD,
    Channel,
    Guild,
    Member,
    Role,
    User,
    World,
)


def user(u: User) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(u.id),
        "username": u.username,
        "discriminator": "0",
        "global_name": u.global_name,
        "avatar": None,
        "avatar_decoration_data": None,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
    }
    if u.bot:
        data["bot"] = True
        data["global_name"] = None
    return data


def current_user(world: World) -> dict[str, Any]:
    """GET /users/@me and READY's user: a bot account's private fields included."""
    return {
        **user(world.bot),
        "verified": True,
        "mfa_enabled": False,
        "email": None,
        "locale": "en-US",
        "premium_type": 0,
    }


def role(r: Role) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(r.id),
        "name": r.name,
        "description": None,
        "permissions": str(r.permissions),
        "position": r.position,
        "color": r.color,
        "colors": {"primary_color": r.color, "secondary_color": None, "tertiary_color": None},
        "hoist": r.hoist,
        "managed": r.managed,
        "mentionable": r.mentionable,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }
    if r.bot_id is not None:
        data["tags"] = {"bot_id": str(r.bot_id)}
    return data


def member(world: World, m: Member, *, with_user: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {
        "roles": [str(r) for r in m.roles],
        "nick": m.nick,
        "avatar": None,
        "banner": None,
        "joined_at": m.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user(world.users[m.user_id])
    return data


def channel(c: Channel) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(c.id),
        "type": c.type,
        "guild_id": str(c.guild_id),
        "name": c.name,
        "parent_id": str(c.parent_id) if c.parent_id else None,
        "nsfw": c.nsfw,
        "rate_limit_per_user": c.rate_limit_per_user,
        "last_message_id": str(c.last_message_id) if c.last_message_id else None,
        "flags": 0,
    }
    if c.is_thread:
        data |= thread_fields(c)
        return data
    data |= {
        "position": c.position,
        "permission_overwrites": [
            {"id": str(o.id), "type": o.type, "allow": str(o.allow), "deny": str(o.deny)}
            for o in c.overwrites
        ],
        "topic": c.topic,
    }
    if c.type == GUILD_FORUM:
        data |= {
            "available_tags": c.available_tags,
            "default_reaction_emoji": None,
            "default_sort_order": None,
            "default_forum_layout": 0,
            "default_thread_rate_limit_per_user": 0,
            "template": "",
        }
    return data


def dm_channel(c: Channel, recipient: User) -> dict[str, Any]:
    """A DM channel as Discord returns it (PrivateChannelResponse): no guild, one recipient."""
    return {
        "id": str(c.id),
        "type": c.type,
        "last_message_id": str(c.last_message_id) if c.last_message_id else None,
        "flags": 0,
        "recipients": [user(recipient)],
    }


def thread_fields(c: Channel) -> dict[str, Any]:
    metadata: dict[str, Any] = {
        "archived": c.archived,
        "auto_archive_duration": c.auto_archive_duration,
        "archive_timestamp": c.created_at,
        "locked": c.locked,
        "create_timestamp": c.created_at,
    }
    if c.type == PRIVATE_THREAD:
        metadata["invitable"] = True
    return {
        "owner_id": str(c.owner_id),
        "message_count": c.message_count,
        "member_count": 1,
        "total_message_sent": c.message_count,
        "applied_tags": [str(t) for t in c.applied_tags],
        "thread_metadata": metadata,
    }


def guild_create(world: World, g: Guild, *, intents: int) -> dict[str, Any]:
    """The full GUILD_CREATE object, with members as Discord gives them for these intents."""
    # Without GUILD_PRESENCES Discord sends only the bot's own member (and voice members).
    members = [
        member(world, m)
        for m in g.members.values()
        if intents & INTENT_GUILD_PRESENCES or m.user_id == world.bot.id
    ]
    bot_member = g.members[world.bot.id]
    channels = [channel(c) for c in g.channels.values() if not c.is_thread]
    threads = [channel(c) for c in g.channels.values() if c.is_thread and not c.archived]
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(g.owner_id),
        "region": "deprecated",
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": g.preferred_locale,
        "features": [],
        "system_channel_id": str(g.system_channel_id) if g.system_channel_id else None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "max_members": 500_000,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "application_id": None,
        "roles": [role(r) for r in g.roles.values()],
        "emojis": [],
        "stickers": [],
        "unavailable": False,
        "large": False,
        "lazy": True,
        "joined_at": bot_member.joined_at,
        "member_count": len(g.members),
        "members": members,
        "channels": channels,
        "threads": threads,
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "incidents_data": None,
    }


def application(world: World) -> dict[str, Any]:
    owner = world.users[world.default_guild().owner_id] if world.guilds else world.bot
    return {
        "id": str(world.application_id),
        "name": world.application_name,
        "icon": None,
        "description": "Award-winning papers (local stand-in)",
        "summary": "",
        "type": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": world.application_flags(),
        "owner": user(owner),
        "team": None,
        "bot": user(world.bot),
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "tags": [],
        "approximate_guild_count": len(world.guilds),
        "integration_types_config": {"0": {}},
    }


def interaction_channel(world: World, c: Channel, user_id: int) -> dict[str, Any]:
    """A channel as interactions carry it: with the invoking user's permissions."""
    guild = world.guild_of(c)
    return {**channel(c), "permissions": str(guild.permissions_in(c, user_id))}


__all__ = [
    "application",
    "channel",
    "current_user",
    "guild_create",
    "interaction_channel",
    "member",
    "role",
    "user",
]
