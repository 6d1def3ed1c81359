"""Secrets out of the log: the token we were given, anything shaped like a Discord token, and
interaction and webhook tokens wherever Discord's paths and payloads carry them.

The redaction is applied to the finished line — message, arguments, traceback and all — so no
path into a log record (an exception message from a library, a repr in a debug line) slips by.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable

from bot.domain.tokens import TOKEN_SHAPED

REDACTED = "[redacted]"
# An Authorization header's value, whatever the scheme.
AUTHORIZATION = re.compile(r"(?i)(authorization['\"]?\s*[:=]\s*['\"]?)(?:Bot |Bearer )?[^\s'\",}]+")
# Interaction and webhook tokens answer as the bot for 15 minutes (a webhook's, for ever):
# in REST paths (`/interactions/<id>/<token>/callback`, `/webhooks/<app id>/<token>/…`), in
# gateway payloads (`'token': '…'`, `"token": "…"`, also inside a JSON log line's escapes), and
# bare ("interaction:" in base64 is how Discord starts each interaction token).
TOKEN_IN_PATH = re.compile(r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.-]+")
TOKEN_FIELD = re.compile(r"""(\\?["']\w*token\\?["']\s*:\s*\\?["'])[^"'\\]+""")
INTERACTION_TOKEN = re.compile(r"aW50ZXJhY3Rpb246[A-Za-z0-9_.-]*")


class Redactor:
    def __init__(self, secrets: Iterable[str] = ()) -> None:
        given = {s for s in secrets if s}
        # As written, and as a JSON log line escapes it; longest first, so that a secret that
        # contains another is removed whole.
        forms = given | {json.dumps(s)[1:-1] for s in given}
        self.secrets = sorted(forms, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        text = TOKEN_SHAPED.sub(REDACTED, text)
        text = TOKEN_IN_PATH.sub(rf"\g<1>{REDACTED}", text)
        text = TOKEN_FIELD.sub(rf"\g<1>{REDACTED}", text)
        text = INTERACTION_TOKEN.sub(REDACTED, text)
        return AUTHORIZATION.sub(rf"\g<1>{REDACTED}", text)


class RedactingFormatter(logging.Formatter):
    """Formats with `inner`, then redacts the whole result."""

    def __init__(self, inner: logging.Formatter, redactor: Redactor) -> None:
        super().__init__()
        self.inner = inner
        self.redactor = redactor

    def format(self, record: logging.LogRecord) -> str:
        return self.redactor(self.inner.format(record))
