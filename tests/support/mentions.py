"""Who a message the bot sent could ping, read from the stand-in's recorded requests.

Laurel's rule (ARCHITECTURE.md): every message goes out with mentions disabled, unless a
subscription explicitly opted in to one role. Embeds never ping, but message content does, and
Discord parses every mention in content when a message carries no `allowed_mentions`; so every
message payload must carry one that allows no @everyone/@here, no user, no reply ping, and no
role but the opted-in role of a subscription in the channel the message goes to.

The check looks at payloads, not at routes: any POST or PATCH whose body (or the `data` of an
interaction callback answering with a message, or the `message` of a new forum post) carries
message content, embeds, components, attachments or a poll is a message. A new route or a new
kind of answer is covered without a change here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from bot.errors import StoreError
from bot.store.database import Database
from bot.store.sql import Connection, Row
from laurel_console.localdiscord.rest import RecordedRequest

CALLBACK_MESSAGE_TYPES = frozenset({4, 7})
MESSAGE_FIELDS = frozenset({"content", "embeds", "components", "attachments", "poll"})
CHANNEL_IN_PATH = re.compile(r"/channels/(\d+)/")


def message_payloads(request: RecordedRequest) -> list[dict[str, Any]]:
    """The message payloads a request carries: zero or one."""
    body = request.body
    if request.method not in ("POST", "PATCH") or not isinstance(body, dict):
        return []
    candidates = [body]
    if isinstance(body.get("data"), dict) and "type" in body:  # an interaction callback
        # Its data is a message for a message (4) or an update of one (7); a modal (9) or
        # autocomplete choices (8) have components or choices but are no message.
        candidates = [body["data"]] if body["type"] in CALLBACK_MESSAGE_TYPES else []
    if isinstance(body.get("message"), dict):  # a forum post: the thread and its first message
        candidates.append(body["message"])
    return [c for c in candidates if MESSAGE_FIELDS & c.keys()]


def mention_problems(payload: Mapping[str, Any], allowed_roles: Iterable[int] = ()) -> list[str]:
    """What in `payload` could ping someone it must not; [] when nothing can."""
    mentions = payload.get("allowed_mentions")
    if not isinstance(mentions, dict):
        return ["no allowed_mentions: Discord would ping every mention in the content"]
    problems = []
    parse = mentions.get("parse")
    if not isinstance(parse, list):
        problems.append(f"parse is {parse!r}, not a list")
    elif parse:
        problems.append(f"parse {sorted(parse)} lets the content ping")
    if mentions.get("users"):
        problems.append(f"users {mentions['users']} may be pinged")
    if mentions.get("replied_user"):
        problems.append("the replied-to user may be pinged")
    roles = {int(r) for r in mentions.get("roles") or []}
    extra = roles - set(allowed_roles)
    if extra:
        problems.append(f"roles {sorted(extra)} may be pinged, none of them opted in here")
    return problems


def unsafe_messages(
    requests: Iterable[RecordedRequest], opted_in: Mapping[int, set[int]]
) -> list[str]:
    """Every message the bot sent that could ping beyond what is allowed, one line each.

    `opted_in` maps a channel id to the roles its subscriptions opted in to; a message may ping
    such a role only when it is posted to (or as a new post in) that channel.
    """
    found: list[str] = []
    for request in requests:
        channel = CHANNEL_IN_PATH.search(request.path + "/")
        roles = opted_in.get(int(channel.group(1)), set()) if channel else set()
        for payload in message_payloads(request):
            found.extend(f"{request.route}: {p}" for p in mention_problems(payload, roles))
    return found


def count_messages(requests: Iterable[RecordedRequest]) -> int:
    return sum(len(message_payloads(r)) for r in requests)


async def opted_in_roles(db: Database, history: OptInHistory | None = None) -> dict[int, set[int]]:
    """The role each subscription opted in to, by the channel it posts to (paused ones too),
    with what `history` saw earlier rows, since edited or removed, opt in to."""
    found: dict[int, set[int]] = {}
    try:
        rows = await db.fetchall(
            "SELECT channel_id, role_id FROM subscriptions WHERE role_id IS NOT NULL"
        )
        rows += await history.rows() if history is not None else []
    except StoreError:  # a test closed it: then no role may be pinged
        rows = []
    for row in rows:
        found.setdefault(int(row["channel_id"]), set()).add(int(row["role_id"]))
    return found


# What a subscription row opted in to before an update or a removal, kept by the database itself
# (a trigger), so the check needs no hook in Laurel's code: on SQLite a TEMP table and triggers
# on the one writer connection, every write's; on PostgreSQL a table and a trigger of the
# test's own database.
_SQLITE = (
    "CREATE TEMP TABLE IF NOT EXISTS opted_in_before (channel_id INTEGER, role_id INTEGER)",
    """CREATE TEMP TRIGGER IF NOT EXISTS opted_in_kept_on_update
    BEFORE UPDATE ON main.subscriptions WHEN OLD.role_id IS NOT NULL
    BEGIN INSERT INTO opted_in_before VALUES (OLD.channel_id, OLD.role_id); END""",
    """CREATE TEMP TRIGGER IF NOT EXISTS opted_in_kept_on_delete
    BEFORE DELETE ON main.subscriptions WHEN OLD.role_id IS NOT NULL
    BEGIN INSERT INTO opted_in_before VALUES (OLD.channel_id, OLD.role_id); END""",
)
_POSTGRESQL = (
    "CREATE TABLE IF NOT EXISTS opted_in_before (channel_id BIGINT, role_id BIGINT)",
    """CREATE OR REPLACE FUNCTION opted_in_kept() RETURNS trigger LANGUAGE plpgsql AS $body$
    BEGIN
        IF OLD.role_id IS NOT NULL THEN
            INSERT INTO opted_in_before VALUES (OLD.channel_id, OLD.role_id);
        END IF;
        RETURN OLD;
    END $body$""",
    "DROP TRIGGER IF EXISTS opted_in_kept ON subscriptions",
    """CREATE TRIGGER opted_in_kept BEFORE UPDATE OR DELETE ON subscriptions
    FOR EACH ROW EXECUTE FUNCTION opted_in_kept()""",
)
_READ = "SELECT channel_id, role_id FROM opted_in_before"


class OptInHistory:
    """What subscriptions opted in to during a test, kept when one is edited or removed: a
    digest posted with its role, then removed, was allowed to ping that role when it posted.

    Installed by tests/conftest.py's `server` fixture, before the test's bot writes."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def install(self) -> None:
        statements = _SQLITE if self._db.dialect == "sqlite" else _POSTGRESQL

        def create(conn: Connection) -> None:
            for statement in statements:
                conn.execute(statement)

        await self._db.write(create)

    async def rows(self) -> list[Row]:
        """The rows kept; read on the writer, where SQLite's TEMP table lives."""
        return await self._db.snapshot(lambda conn: list(conn.execute(_READ).fetchall()))
