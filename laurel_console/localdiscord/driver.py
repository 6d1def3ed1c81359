"""Playing the user: real interaction payloads built from what the bot registered.

A slash command is looked up among the registered definitions (guild commands shadow global
ones), its options are checked and typed as Discord's client would, and user, channel and role
options come with their `resolved` data. Components are found in the stored message by
custom_id; a modal is answered from the definition the bot sent with its type-9 callback.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from laurel_console.localdiscord import payloads
from laurel_console.localdiscord.commands import CommandRegistry
from laurel_console.localdiscord.gateway import Gateway
from laurel_console.localdiscord.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Interaction,
)
from laurel_console.localdiscord.messages import MessageStore, find_component
from laurel_console.localdiscord.options import Resolver
from laurel_console.localdiscord.state import Channel, Guild, World

Options = Mapping[str, object]


class Driver:
    def __init__(
        self,
        world: World,
        store: MessageStore,
        commands: CommandRegistry,
        gateway: Gateway,
        settle: Callable[[int], Awaitable[None]],
    ) -> None:
        self.settle = settle
        self.world = world
        self.store = store
        self.commands = commands
        self.gateway = gateway

    # -- application commands ------------------------------------------------------------
    async def slash(
        self,
        name: str,
        options: Options | None = None,
        *,
        subcommand: str | Sequence[str] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        locale: str = "en-US",
    ) -> Interaction:
        """Invoke /name [subcommand] with `options`, as a member types it in a channel."""
        where = self._where(guild_id, channel_id, user_id)
        return await self._command(
            APPLICATION_COMMAND, name, options or {}, subcommand, where, locale
        )

    async def autocomplete(
        self,
        name: str,
        options: Options | None,
        focused: str,
        *,
        subcommand: str | Sequence[str] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        locale: str = "en-US",
        timeout: float = 5.0,  # noqa: ASYNC109 - the API is timeout=
    ) -> list[dict[str, Any]]:
        """Type into option `focused` and return the choices the bot answers with."""
        where = self._where(guild_id, channel_id, user_id)
        interaction = await self._command(
            AUTOCOMPLETE, name, options or {}, subcommand, where, locale, focused=focused
        )
        return await interaction.wait_for(
            lambda i: i.choices, timeout, f"{interaction} got no autocomplete choices"
        )

    async def _command(
        self,
        kind: int,
        name: str,
        given: Options,
        subcommand: str | Sequence[str] | None,
        where: tuple[Guild, Channel, int],
        locale: str,
        *,
        focused: str | None = None,
    ) -> Interaction:
        guild, channel, user = where
        command = self.commands.find(name, guild.id)
        resolver = self._resolver(guild, channel, user)
        path = subcommand.split() if isinstance(subcommand, str) else list(subcommand or [])
        options = resolver.command_options(command, path, given, focused)
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": command["type"],
            "options": options,
        }
        if resolver.resolved:
            data["resolved"] = resolver.resolved
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        full_name = " ".join([name, *path])
        return await self._issue(kind, data, guild, channel, user, locale, name=full_name)

    # -- components ------------------------------------------------------------------------
    async def press(
        self,
        message: dict[str, Any] | int,
        custom_id: str,
        *,
        user_id: int | None = None,
        locale: str = "en-US",
    ) -> Interaction:
        """Click the button `custom_id` on `message` (a stored message, or its id)."""
        return await self._component(message, custom_id, None, user_id, locale)

    async def choose(
        self,
        message: dict[str, Any] | int,
        custom_id: str,
        values: Sequence[str | int],
        *,
        user_id: int | None = None,
        locale: str = "en-US",
    ) -> Interaction:
        """Pick `values` in the select menu `custom_id` on `message`."""
        return await self._component(message, custom_id, list(values), user_id, locale)

    async def _component(
        self,
        message: dict[str, Any] | int,
        custom_id: str,
        values: list[str | int] | None,
        user_id: int | None,
        locale: str,
    ) -> Interaction:
        stored = self.store.find(message if isinstance(message, int) else int(message["id"]))
        if stored is None:
            raise LookupError(
                f"no stored message {message if isinstance(message, int) else message['id']}"
            )
        current = stored.payload
        component = find_component(current["components"], custom_id)
        if component is None:
            raise LookupError(f"message {current['id']} has no component {custom_id!r}")
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        channel = self.world.channel(int(current["channel_id"]))
        assert channel is not None
        guild, channel, user = self._where(channel.guild_id, channel.id, user_id)
        kind = int(component["type"])
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": kind,
            "id": component.get("id"),
        }
        if kind == 2 and values is not None:
            raise ValueError(f"{custom_id!r} is a button: use press()")
        if kind != 2:
            if values is None:
                raise ValueError(f"{custom_id!r} is a select menu: use choose()")
            resolver = self._resolver(guild, channel, user)
            data["values"] = resolver.select_values(component, values)
            if resolver.resolved:
                data["resolved"] = resolver.resolved
        return await self._issue(
            MESSAGE_COMPONENT, data, guild, channel, user, locale, message=current
        )

    # -- modals ----------------------------------------------------------------------------
    async def submit(
        self,
        opened_by: Interaction,
        fields: Mapping[str, str | Sequence[str]],
        *,
        locale: str = "en-US",
    ) -> Interaction:
        """Fill in and submit the modal the bot opened in answer to `opened_by`."""
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"{opened_by} was not answered with a modal")
        guild, channel, user = self._where(
            opened_by.guild_id, opened_by.channel_id, opened_by.user_id
        )
        components = self._resolver(guild, channel, user).modal_components(modal, fields)
        data = {"custom_id": modal["custom_id"], "components": components}
        message = None
        if opened_by.source_message_id is not None:
            stored = self.store.find(opened_by.source_message_id)
            message = None if stored is None else stored.payload
        return await self._issue(MODAL_SUBMIT, data, guild, channel, user, locale, message=message)

    # -- the envelope ----------------------------------------------------------------------
    def _resolver(self, guild: Guild, channel: Channel, user_id: int) -> Resolver:
        return Resolver(self.world, guild, channel, user_id, cdn_base=self.store.cdn_base)

    def _where(
        self, guild_id: int | None, channel_id: int | None, user_id: int | None
    ) -> tuple[Guild, Channel, int]:
        if channel_id is not None:
            channel = self.world.channel(channel_id)
            if channel is None:
                raise LookupError(f"no channel {channel_id}")
            guild = self.world.guild_of(channel)
        else:
            guild = self.world.guilds[guild_id] if guild_id else self.world.default_guild()
            texts = [c for c in guild.channels.values() if c.type == 0]
            channel = texts[0]
        if user_id is None:
            humans = [u for u in guild.members if u not in (self.world.bot.id, guild.owner_id)]
            user_id = humans[0] if humans else guild.owner_id
        if user_id not in guild.members:
            raise LookupError(f"user {user_id} is not a member of {guild.name!r}")
        return guild, channel, user_id

    async def _issue(
        self,
        kind: int,
        data: dict[str, Any],
        guild: Guild,
        channel: Channel,
        user_id: int,
        locale: str,
        *,
        message: dict[str, Any] | None = None,
        name: str | None = None,
    ) -> Interaction:
        interaction_id = self.world.ids.next()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96)
        member = payloads.member(self.world, guild.members[user_id])
        member["permissions"] = str(guild.permissions_in(channel, user_id))
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.world.application_id),
            "type": kind,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            "guild_locale": guild.preferred_locale,
            "channel_id": str(channel.id),
            "channel": payloads.interaction_channel(self.world, channel, user_id),
            "member": member,
            "token": token,
            "version": 1,
            "locale": locale,
            "app_permissions": str(guild.permissions_in(channel, self.world.bot.id)),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": self.world.config.attachment_size_limit,
        }
        if message is not None:
            payload["message"] = message
        interaction = Interaction(
            id=interaction_id,
            token=token,
            type=kind,
            payload=payload,
            store=self.store,
            guild_id=guild.id,
            channel_id=channel.id,
            user_id=user_id,
            name=name,
            source_message_id=int(message["id"]) if message is not None else None,
        )
        self.world.interactions[interaction_id] = interaction
        await self.settle(self.world.config.settle_iterations)
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        return interaction
