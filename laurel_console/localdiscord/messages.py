"""Messages: building Discord message objects from request bodies, editing, history, nonces."""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from laurel_console.localdiscord import errors, payloads
from laurel_console.localdiscord.state import (
    DM,
    THREAD_TYPES,
    Channel,
    Perm,
    StoredMessage,
    User,
    World,
    iso,
)


class Flag:
    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_VOICE_MESSAGE = 1 << 13
    IS_COMPONENTS_V2 = 1 << 15
    SETTABLE = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2


# Message types
DEFAULT, REPLY, CHAT_INPUT_COMMAND = 0, 19, 20

_USER_MENTION = re.compile(r"<@!?(\d{15,21})>")
_ROLE_MENTION = re.compile(r"<@&(\d{15,21})>")


@dataclass
class UploadedFile:
    """One files[n] part of a multipart request."""

    field: str
    filename: str
    content_type: str
    data: bytes

    @property
    def index(self) -> str:
        return self.field.removeprefix("files[").removesuffix("]")


@dataclass
class Origin:
    """Who sends a message and through what: the bot itself, or an interaction's webhook."""

    author: User
    interaction: dict[str, Any] | None = None  # interaction_metadata, for interaction messages
    webhook_id: int | None = None
    allow_ephemeral: bool = False
    permissions: int = Perm.ALL


class MessageStore:
    """Reads and writes World.messages; `cdn_base` is where attachment URLs point."""

    def __init__(self, world: World, cdn_base: str = "http://127.0.0.1") -> None:
        self.world = world
        self.cdn_base = cdn_base

    # -- reading -------------------------------------------------------------------------
    def get(self, channel_id: int, message_id: int) -> StoredMessage | None:
        for stored in self.world.messages.get(channel_id, ()):
            if int(stored.payload["id"]) == message_id:
                return stored
        return None

    def find(self, message_id: int) -> StoredMessage | None:
        for channel_id in self.world.messages:
            if found := self.get(channel_id, message_id):
                return found
        return None

    def find_nonce(self, channel_id: int, author_id: int, nonce: object) -> StoredMessage | None:
        horizon = time.monotonic() - self.world.config.nonce_window
        for stored in reversed(self.world.messages.get(channel_id, [])):
            if stored.created < horizon:
                break
            if stored.author_id == author_id and str(stored.payload.get("nonce")) == str(nonce):
                return stored
        return None

    def history(
        self,
        channel_id: int,
        *,
        limit: int = 50,
        before: int | None = None,
        after: int | None = None,
        around: int | None = None,
    ) -> list[dict[str, Any]]:
        """Newest first, as Discord returns them, whichever of before/after/around is used."""
        visible = [s.payload for s in self.world.messages.get(channel_id, []) if not s.ephemeral]
        ids = [int(p["id"]) for p in visible]
        if around is not None:
            older = [p for p, i in zip(visible, ids, strict=True) if i <= around]
            newer = [p for p, i in zip(visible, ids, strict=True) if i > around]
            half = limit // 2
            chosen = older[-(limit - half) :] + newer[:half] if limit > 1 else older[-1:]
        elif after is not None:
            chosen = [p for p, i in zip(visible, ids, strict=True) if i > after][:limit]
        else:
            chosen = [p for p, i in zip(visible, ids, strict=True) if before is None or i < before]
            chosen = chosen[-limit:]
        return [copy.deepcopy(p) for p in reversed(chosen)]

    # -- writing -------------------------------------------------------------------------
    def create(
        self,
        channel: Channel,
        origin: Origin,
        body: dict[str, Any],
        files: Sequence[UploadedFile],
        *,
        type: int = DEFAULT,
        message_id: int | None = None,
    ) -> StoredMessage:
        message_id = message_id or self.world.ids.next()
        flags = int(body.get("flags") or 0)
        settable = Flag.SETTABLE | (Flag.EPHEMERAL | Flag.LOADING if origin.allow_ephemeral else 0)
        flags &= settable
        payload: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel.id),
            "author": payloads.user(origin.author),
            "content": "",
            "timestamp": iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "type": type,
            "flags": flags,
        }
        if "nonce" in body and body["nonce"] is not None:
            payload["nonce"] = body["nonce"]
        if origin.webhook_id is not None:
            payload["webhook_id"] = str(origin.webhook_id)
            payload["application_id"] = str(self.world.application_id)
        if origin.interaction is not None:
            payload["interaction_metadata"] = origin.interaction
            meta = origin.interaction
            payload["interaction"] = {
                "id": meta["id"],
                "type": meta["type"],
                "name": meta.get("name", ""),
                "user": meta["user"],
            }
        if channel.type in THREAD_TYPES:
            payload["position"] = channel.message_count
        if reference := body.get("message_reference"):
            self._reply(payload, channel, reference)
        self._apply(payload, channel, origin, body, files, existing=[])
        stored = StoredMessage(
            payload, origin.author.id, time.monotonic(), ephemeral=bool(flags & Flag.EPHEMERAL)
        )
        self.world.messages.setdefault(channel.id, []).append(stored)
        if not stored.ephemeral:
            channel.last_message_id = message_id
            if channel.is_thread:
                channel.message_count += 1
        return stored

    def edit(
        self,
        stored: StoredMessage,
        channel: Channel,
        origin: Origin,
        body: dict[str, Any],
        files: Sequence[UploadedFile],
        *,
        completes_loading: bool = False,
    ) -> None:
        payload = stored.payload
        existing = payload["attachments"]
        if "flags" in body and body["flags"] is not None:
            kept = payload["flags"] & ~(Flag.SUPPRESS_EMBEDS | Flag.IS_COMPONENTS_V2)
            payload["flags"] = kept | int(body["flags"]) & (
                Flag.SUPPRESS_EMBEDS | Flag.IS_COMPONENTS_V2
            )
        if completes_loading:
            payload["flags"] &= ~Flag.LOADING
        else:
            payload["edited_timestamp"] = iso()
        self._apply(payload, channel, origin, body, files, existing=existing)

    def delete(self, channel_id: int, message_id: int) -> StoredMessage | None:
        messages = self.world.messages.get(channel_id, [])
        for index, stored in enumerate(messages):
            if int(stored.payload["id"]) == message_id:
                return messages.pop(index)
        return None

    # -- details ---------------------------------------------------------------------------
    def _apply(
        self,
        payload: dict[str, Any],
        channel: Channel,
        origin: Origin,
        body: dict[str, Any],
        files: Sequence[UploadedFile],
        *,
        existing: list[dict[str, Any]],
    ) -> None:
        """Set the fields a create or an edit may carry; absent keys keep their value."""
        if "content" in body:
            payload["content"] = body["content"] or ""
        if "embeds" in body:
            # Without Embed Links, Discord drops a bot's embeds silently rather than failing.
            allowed = origin.permissions & Perm.EMBED_LINKS
            embeds = body["embeds"] or []
            payload["embeds"] = [{"type": "rich", **e} for e in embeds] if allowed else []
        if "components" in body:
            payload["components"] = number_components(copy.deepcopy(body["components"] or []))
        if files and not origin.permissions & Perm.ATTACH_FILES:
            raise errors.missing_permissions()
        if "attachments" in body or files:
            payload["attachments"] = self._attachments(channel, body, files, existing, payload)
        self._mentions(payload, channel, body)

    def _attachments(
        self,
        channel: Channel,
        body: dict[str, Any],
        files: Sequence[UploadedFile],
        existing: list[dict[str, Any]],
        payload: dict[str, Any],
    ) -> list[dict[str, Any]]:
        uploads = {f.index: f for f in files}
        listed = body.get("attachments")
        result: list[dict[str, Any]] = []
        if listed is None:  # no list: keep what is there and add every upload
            result = list(existing)
            listed = [{"id": index} for index in uploads]
        by_id = {a["id"]: a for a in existing}
        for entry in listed:
            key = str(entry.get("id"))
            if key in uploads:
                result.append(self._attachment(channel, uploads.pop(key), entry, payload))
            elif key in by_id:
                result.append(by_id[key])
            else:
                raise errors.invalid_form_body(
                    [(("attachments",), "ATTACHMENT_NOT_FOUND", f"Unknown attachment {key}")]
                )
        return result

    def _attachment(
        self, channel: Channel, upload: UploadedFile, entry: dict[str, Any], message: dict[str, Any]
    ) -> dict[str, Any]:
        attachment_id = self.world.ids.next()
        filename = entry.get("filename") or upload.filename
        self.world.attachments[attachment_id] = upload.data
        data: dict[str, Any] = {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(upload.data),
            "url": f"{self.cdn_base}/attachments/{channel.id}/{attachment_id}/{filename}",
            "proxy_url": f"{self.cdn_base}/attachments/{channel.id}/{attachment_id}/{filename}",
            "content_type": upload.content_type,
        }
        if description := entry.get("description"):
            data["description"] = description
        if message["flags"] & Flag.EPHEMERAL:
            data["ephemeral"] = True
        return data

    def _reply(self, payload: dict[str, Any], channel: Channel, reference: dict[str, Any]) -> None:
        target_id = int(reference.get("message_id") or 0)
        target = self.get(int(reference.get("channel_id") or channel.id), target_id)
        if target is None:
            if reference.get("fail_if_not_exists", True):
                raise errors.invalid_form_body(
                    [
                        (
                            ("message_reference",),
                            "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                            "Unknown message",
                        )
                    ]
                )
            return
        payload["type"] = REPLY
        payload["message_reference"] = {
            "type": 0,
            "message_id": str(target_id),
            "channel_id": str(channel.id),
            "guild_id": str(channel.guild_id),
        }
        payload["referenced_message"] = copy.deepcopy(target.payload)

    def _mentions(self, payload: dict[str, Any], channel: Channel, body: dict[str, Any]) -> None:
        """Who gets pinged: what the content mentions, narrowed by allowed_mentions."""
        roles_here = () if channel.type == DM else self.world.guild_of(channel).roles
        content = payload["content"]
        allowed = body.get("allowed_mentions")
        parse = set(allowed.get("parse", [])) if allowed else {"users", "roles", "everyone"}
        users = {int(u) for u in (allowed or {}).get("users", [])}
        roles = {int(r) for r in (allowed or {}).get("roles", [])}
        mentioned = [int(u) for u in _USER_MENTION.findall(content)]
        mentioned_roles = [int(r) for r in _ROLE_MENTION.findall(content)]
        payload["mentions"] = [
            payloads.user(self.world.users[u])
            for u in dict.fromkeys(mentioned)
            if u in self.world.users and ("users" in parse or u in users)
        ]
        payload["mention_roles"] = [
            str(r)
            for r in dict.fromkeys(mentioned_roles)
            if r in roles_here and ("roles" in parse or r in roles)
        ]
        everyone = "@everyone" in content or "@here" in content
        payload["mention_everyone"] = everyone and "everyone" in parse


def number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Discord gives every component of a stored message a numeric id, in tree order."""
    used = {c["id"] for c in _walk(components) if isinstance(c.get("id"), int)}
    counter = 0
    for component in _walk(components):
        if "id" not in component or component["id"] is None:
            counter += 1
            while counter in used:
                counter += 1
            component["id"] = counter
    return components


def _walk(components: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for component in components:
        yield component
        yield from _walk(component.get("components", []))
        if isinstance(component.get("accessory"), dict):
            yield component["accessory"]
        if isinstance(component.get("component"), dict):
            yield component["component"]


def find_component(components: Iterable[dict[str, Any]], custom_id: str) -> dict[str, Any] | None:
    for component in _walk(components):
        if component.get("custom_id") == custom_id:
            return component
    return None
