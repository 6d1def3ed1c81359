"""Discord's JSON error responses, raised by handlers and rendered by the REST middleware."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class DiscordError(Exception):
    """An error answer: HTTP status plus Discord's body {"message", "code"[, "errors"]}."""

    def __init__(
        self, status: int, code: int, message: str, *, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def not_found(code: int, what: str) -> DiscordError:
    return DiscordError(404, code, f"Unknown {what}")


def unknown_channel() -> DiscordError:
    return not_found(10003, "Channel")


def unknown_message() -> DiscordError:
    return not_found(10008, "Message")


def unknown_interaction() -> DiscordError:
    return not_found(10062, "interaction")


def unknown_webhook() -> DiscordError:
    return not_found(10015, "Webhook")


def missing_access() -> DiscordError:
    return DiscordError(403, 50001, "Missing Access")


def missing_permissions() -> DiscordError:
    return DiscordError(403, 50013, "Missing Permissions")


def unauthorized() -> DiscordError:
    return DiscordError(401, 0, "401: Unauthorized")


def invalid_webhook_token() -> DiscordError:
    return DiscordError(401, 50027, "Invalid Webhook Token")


def already_acknowledged() -> DiscordError:
    return DiscordError(400, 40060, "Interaction has already been acknowledged.")


def other_author() -> DiscordError:
    return DiscordError(403, 50005, "Cannot edit a message authored by another user")


def bad_request(code: int, message: str) -> DiscordError:
    return DiscordError(400, code, message)


FieldError = tuple[Sequence[str | int], str, str]  # (path into the body, error code, message)


def invalid_form_body(problems: Sequence[FieldError]) -> DiscordError:
    """400 50035 with Discord's nested "errors" tree: {"embeds": {"0": {"title": {"_errors"}}}}."""
    tree: dict[str, Any] = {}
    for path, code, message in problems:
        node = tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return DiscordError(400, 50035, "Invalid Form Body", errors=tree)
