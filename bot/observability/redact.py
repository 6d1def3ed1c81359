"""Secrets out of the log: the token we were given, and anything shaped like a Discord token.

The redaction is applied to the finished line — message, arguments, traceback and all — so no
path into a log record (an exception message from a library, a repr in a debug line) slips by.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable

REDACTED = "[redacted]"
# A Discord bot token: base64 user id, a timestamp, an HMAC, joined by dots. JWTs share the
# shape and are just as secret.
TOKEN_SHAPED = re.compile(r"[A-Za-z0-9_-]{18,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
# An Authorization header's value, whatever the scheme.
AUTHORIZATION = re.compile(r"(?i)(authorization['\"]?\s*[:=]\s*['\"]?)(?:Bot |Bearer )?[^\s'\",}]+")


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
        return AUTHORIZATION.sub(rf"\g<1>{REDACTED}", text)


class RedactingFormatter(logging.Formatter):
    """Formats with `inner`, then redacts the whole result."""

    def __init__(self, inner: logging.Formatter, redactor: Redactor) -> None:
        super().__init__()
        self.inner = inner
        self.redactor = redactor

    def format(self, record: logging.LogRecord) -> str:
        return self.redactor(self.inner.format(record))
