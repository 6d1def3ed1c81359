"""Interaction callbacks and the interaction webhook: /interactions/... and /webhooks/...

A first callback later than the configured window gets 10062, a second one 40060; a type-5
deferral leaves a LOADING message that the first followup (or an edit of @original) completes.
"""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from laurel_console.localdiscord import errors
from laurel_console.localdiscord.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    Interaction,
)
from laurel_console.localdiscord.messages import CHAT_INPUT_COMMAND, DEFAULT, Flag, Origin
from laurel_console.localdiscord.rest import API_PREFIX, FILES, Backend, json_response, no_content
from laurel_console.localdiscord.rest_channels import ChannelRoutes, body_dict, has_message_content
from laurel_console.localdiscord.state import Channel, StoredMessage

ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
}
WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")


class InteractionRoutes:
    def __init__(self, backend: Backend, channels: ChannelRoutes) -> None:
        self.b = backend
        self.channels = channels

    def register(self, router: web.UrlDispatcher) -> None:
        p = API_PREFIX
        router.add_post(
            p + "/interactions/{interaction_id}/{interaction_token}/callback", self.callback
        )
        router.add_post(p + WEBHOOK, self.followup)
        for path in (WEBHOOK + "/messages/@original", WEBHOOK + "/messages/{message_id}"):
            router.add_get(p + path, self.get_message)
            router.add_patch(p + path, self.edit_message)
            router.add_delete(p + path, self.delete_message)

    # -- the callback ----------------------------------------------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        interaction = self.b.world.interactions.get(int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["interaction_token"]:
            raise errors.unknown_interaction()
        if interaction.acknowledged:
            raise errors.already_acknowledged()
        if time.monotonic() - interaction.created > self.b.world.config.interaction_window:
            raise errors.unknown_interaction()
        body = body_dict(request)
        kind = int(body.get("type") or 0)
        from_message = interaction.source_message_id is not None
        allowed = ALLOWED_CALLBACKS.get(interaction.type, set())
        if kind not in allowed or (
            kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and not from_message
        ):
            raise errors.invalid_form_body(
                [
                    (
                        ("type",),
                        "INTERACTION_CALLBACK_TYPE_INVALID",
                        f"Callback type {kind} is invalid for interaction type {interaction.type}",
                    )
                ]
            )
        data: dict[str, Any] = body.get("data") or {}
        if kind == CHANNEL_MESSAGE and not has_message_content(data, request[FILES]):
            raise errors.bad_request(50006, "Cannot send an empty message")
        # Acknowledge before any await, so a concurrent second callback sees it.
        interaction.callback = {"type": kind, "data": data}
        try:
            stored = await self._respond(interaction, kind, data, request)
        except errors.DiscordError:
            interaction.callback = None
            raise
        interaction.changed()
        if not _truthy(request.query.get("with_response")):
            return no_content()
        info: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
        result: dict[str, Any] = {"interaction": info}
        if stored is not None:
            info["response_message_id"] = stored.payload["id"]
            info["response_message_loading"] = bool(stored.payload["flags"] & Flag.LOADING)
            info["response_message_ephemeral"] = stored.ephemeral
            result["resource"] = {"type": kind, "message": stored.payload}
        elif kind in (DEFERRED_UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL):
            result["resource"] = {"type": kind}
        return json_response(result)

    async def _respond(
        self, interaction: Interaction, kind: int, data: dict[str, Any], request: web.Request
    ) -> StoredMessage | None:
        channel = self._channel(interaction)
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            body = dict(data)
            if kind == DEFERRED_CHANNEL_MESSAGE:
                body = {"flags": Flag.LOADING | int(data.get("flags") or 0) & Flag.EPHEMERAL}
            command = interaction.type == APPLICATION_COMMAND
            stored = self.b.store.create(
                channel,
                self._origin(interaction),
                body,
                request[FILES],
                type=CHAT_INPUT_COMMAND if command else DEFAULT,
            )
            interaction.original_id = int(stored.payload["id"])
            interaction.original_ready = kind == CHANNEL_MESSAGE
            await self.channels.announce("MESSAGE_CREATE", stored, channel)
            return stored
        if kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            interaction.original_id = interaction.source_message_id
            source = self._original(interaction)
            if kind == UPDATE_MESSAGE:
                self.b.store.edit(source, channel, self._origin(interaction), data, request[FILES])
                interaction.original_ready = True
                await self.channels.announce("MESSAGE_UPDATE", source, channel)
                return source
        return None

    # -- the webhook -------------------------------------------------------------------------
    async def followup(self, request: web.Request) -> web.Response:
        interaction = self._interaction(request)
        channel = self._channel(interaction)
        body = body_dict(request)
        files = request[FILES]
        if not has_message_content(body, files):
            raise errors.bad_request(50006, "Cannot send an empty message")
        origin = self._origin(interaction, followup=True)
        completes = interaction.response_type == DEFERRED_CHANNEL_MESSAGE and not (
            interaction.original_ready
        )
        if completes:  # the first followup after a deferral fills the "thinking" message
            stored = self._original(interaction)
            self.b.store.edit(stored, channel, origin, body, files, completes_loading=True)
            interaction.original_ready = True
            event = "MESSAGE_UPDATE"
        else:
            stored = self.b.store.create(channel, origin, body, files)
            interaction.followup_ids.append(int(stored.payload["id"]))
            event = "MESSAGE_CREATE"
        interaction.changed()
        await self.channels.announce(event, stored, channel)
        if not _truthy(request.query.get("wait")):
            return no_content()
        return json_response(stored.payload)

    async def get_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction(request)
        return json_response(self._target(interaction, request).payload)

    async def edit_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction(request)
        stored = self._target(interaction, request)
        channel = self._channel(interaction)
        original = int(stored.payload["id"]) == interaction.original_id
        completes = bool(stored.payload["flags"] & Flag.LOADING)
        self.b.store.edit(
            stored,
            channel,
            self._origin(interaction),
            body_dict(request),
            request[FILES],
            completes_loading=completes,
        )
        if original:
            interaction.original_ready = True
        interaction.changed()
        await self.channels.announce("MESSAGE_UPDATE", stored, channel)
        return json_response(stored.payload)

    async def delete_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction(request)
        stored = self._target(interaction, request)
        self.b.store.delete(int(stored.payload["channel_id"]), int(stored.payload["id"]))
        interaction.changed()
        return no_content()

    # -- helpers ---------------------------------------------------------------------------
    def _interaction(self, request: web.Request) -> Interaction:
        """The interaction behind a webhook URL: the application's id and the token."""
        if int(request.match_info["webhook_id"]) != self.b.world.application_id:
            raise errors.unknown_webhook()
        token = request.match_info["webhook_token"]
        found = next((i for i in self.b.world.interactions.values() if i.token == token), None)
        if found is None:
            raise errors.unknown_webhook()
        if time.monotonic() - found.created > self.b.world.config.interaction_token_lifetime:
            raise errors.invalid_webhook_token()
        if not found.acknowledged:  # no webhook exists before the first callback
            raise errors.unknown_webhook()
        return found

    def _target(self, interaction: Interaction, request: web.Request) -> StoredMessage:
        raw = request.match_info.get("message_id")
        if raw is None:  # @original
            return self._original(interaction)
        message_id = int(raw)
        if message_id not in (interaction.original_id, *interaction.followup_ids):
            raise errors.unknown_message()
        stored = self.b.store.get(interaction.channel_id, message_id)
        if stored is None:
            raise errors.unknown_message()
        return stored

    def _original(self, interaction: Interaction) -> StoredMessage:
        if interaction.original_id is None:
            raise errors.unknown_message()
        stored = self.b.store.get(interaction.channel_id, interaction.original_id)
        if stored is None:
            raise errors.unknown_message()
        return stored

    def _channel(self, interaction: Interaction) -> Channel:
        channel = self.b.world.channel(interaction.channel_id)
        if channel is None:
            raise errors.unknown_channel()
        return channel

    def _origin(self, interaction: Interaction, *, followup: bool = False) -> Origin:
        return Origin(
            self.b.world.bot,
            interaction=interaction.metadata(followup=followup),
            webhook_id=self.b.world.application_id,
            allow_ephemeral=True,
        )
