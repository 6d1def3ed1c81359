"""What a secret looks like, for the two places that must recognise one: the log's redaction
(bot.observability.redact) and the settings, which refuse a configuration file holding a token
(bot.settings)."""

from __future__ import annotations

import re

# A Discord bot token: base64 user id, a timestamp, an HMAC, joined by dots. JWTs share the
# shape and are just as secret.
TOKEN_SHAPED = re.compile(r"[A-Za-z0-9_-]{18,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
