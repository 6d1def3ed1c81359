"""An interaction the stand-in issued, and what the bot did with it; awaitable by tests."""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Callable
from typing import Any, TypeVar

from laurel_console.localdiscord.messages import Flag, MessageStore

# Interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Callback types
(
    PONG,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    UPDATE_MESSAGE,
    AUTOCOMPLETE_RESULT,
    MODAL,
) = 1, 4, 5, 6, 7, 8, 9

T = TypeVar("T")


class Pulse:
    """Wakes every waiter whenever something changes; waiters re-check their condition."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def fire(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def until(self, check: Callable[[], T | None], timeout: float, what: str) -> T:  # noqa: ASYNC109 - the API is timeout=
        try:
            async with asyncio.timeout(timeout):
                while (value := check()) is None:
                    await self._event.wait()
        except TimeoutError:
            raise TimeoutError(f"{what} within {timeout}s") from None
        return value


class Interaction:
    """Created by LocalDiscord.slash/press/choose/submit/autocomplete, updated by the REST
    handlers as the bot answers. Messages are returned as the JSON objects Discord stores."""

    def __init__(
        self,
        *,
        id: int,
        token: str,
        type: int,
        payload: dict[str, Any],
        store: MessageStore,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str | None = None,
        source_message_id: int | None = None,
    ) -> None:
        self.id = id
        self.token = token
        self.type = type
        self.payload = payload
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.user_id = user_id
        self.name = name
        self.source_message_id = source_message_id
        self.created = time.monotonic()
        self.callback: dict[str, Any] | None = None  # the first accepted callback body
        self.original_id: int | None = None
        self.original_ready = False  # the original response has its final content
        self.followup_ids: list[int] = []
        self._store = store
        self._pulse = Pulse()

    # -- state -----------------------------------------------------------------------------
    @property
    def acknowledged(self) -> bool:
        return self.callback is not None

    @property
    def response_type(self) -> int | None:
        return None if self.callback is None else int(self.callback["type"])

    @property
    def deferred(self) -> bool:
        return self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9), for LocalDiscord.submit."""
        if self.callback is None or self.response_type != MODAL:
            return None
        return dict(self.callback["data"])

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        if self.callback is None or self.response_type != AUTOCOMPLETE_RESULT:
            return None
        return list(self.callback.get("data", {}).get("choices", []))

    @property
    def followups(self) -> list[dict[str, Any]]:
        return [m for m in map(self._message, self.followup_ids) if m is not None]

    def metadata(self, *, followup: bool = False) -> dict[str, Any]:
        """interaction_metadata for a message this interaction creates."""
        user = self.payload["member"]["user"] if "member" in self.payload else self.payload["user"]
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "user": user,
            "authorizing_integration_owners": self.payload["authorizing_integration_owners"],
        }
        if self.type == APPLICATION_COMMAND:
            data["name"] = self.name or ""
            data["command_type"] = self.payload["data"].get("type", 1)
        if self.source_message_id is not None:
            data["interacted_message_id"] = str(self.source_message_id)
        if followup and self.original_id is not None:
            data["original_response_message_id"] = str(self.original_id)
        return data

    def changed(self) -> None:
        self._pulse.fire()

    # -- waiting ---------------------------------------------------------------------------
    async def response(self, timeout: float = 5.0) -> dict[str, Any]:  # noqa: ASYNC109 - the API is timeout=
        """The bot's callback body ({"type", "data"}), once it has answered."""
        return await self._pulse.until(
            lambda: copy.deepcopy(self.callback), timeout, f"{self} got no callback"
        )

    async def message(self, timeout: float = 5.0) -> dict[str, Any]:  # noqa: ASYNC109 - the API is timeout=
        """The original response message once it has its content: at once for a type-4 or
        type-7 answer; after the edit (or the first followup) for a deferred one."""

        def ready() -> dict[str, Any] | None:
            if not self.original_ready or self.original_id is None:
                return None
            message = self._message(self.original_id)
            if message is None or message["flags"] & Flag.LOADING:
                return None
            return message

        return await self._pulse.until(ready, timeout, f"{self} has no original response")

    async def followup(self, index: int = 0, timeout: float = 5.0) -> dict[str, Any]:  # noqa: ASYNC109 - the API is timeout=
        """The index-th followup message (not counting one that completed a deferral)."""

        def ready() -> dict[str, Any] | None:
            found = self.followups
            return found[index] if len(found) > index else None

        return await self._pulse.until(ready, timeout, f"{self} has no followup #{index}")

    async def wait_for(
        self,
        check: Callable[[Interaction], T | None],
        timeout: float = 5.0,  # noqa: ASYNC109 - the API is timeout=
        what: str = "",
    ) -> T:
        return await self._pulse.until(lambda: check(self), timeout, what or f"{self} wait_for")

    def _message(self, message_id: int) -> dict[str, Any] | None:
        stored = self._store.get(self.channel_id, message_id) or self._store.find(message_id)
        return None if stored is None else copy.deepcopy(stored.payload)

    def to_json(self) -> dict[str, Any]:
        original = None if self.original_id is None else self._message(self.original_id)
        return {
            "id": str(self.id),
            "token": self.token,
            "type": self.type,
            "name": self.name,
            "acknowledged": self.acknowledged,
            "deferred": self.deferred,
            "age": round(time.monotonic() - self.created, 3),
            "response": self.callback,
            "original": original,
            "followups": self.followups,
        }

    def __repr__(self) -> str:
        what = f"/{self.name}" if self.name else f"type {self.type}"
        return f"<Interaction {self.id} {what}>"
