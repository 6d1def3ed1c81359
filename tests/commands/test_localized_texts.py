"""Every text a member can see comes from the locale files (issue 12, defect 11).

English reached Chinese readers through an import's plan summary, an import's refusal reason
and a StoreError shown as str(error); and a fault of the database was counted as the member's
mistake. These walk every UserError key, every refusal an upload can get and every builder of
a plan, in the three languages, and the error handler's two kinds of answer.
"""

from __future__ import annotations

import ast
import logging
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

import bot
from bot.catalog import formats
from bot.catalog.curation import refusal
from bot.catalog.document import DocumentError
from bot.commands.curate.cog import _read_upload
from bot.commands.errors import answer_for
from bot.domain.clock import SystemClock
from bot.domain.models import LANGUAGES, Rejection
from bot.domain.plan import Change, Plan
from bot.errors import StoreError, StoreFull, UserError
from bot.render.curate import plan_embed
from bot.render.i18n import Strings
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.awards import award, batch

STRINGS = Strings.load()
LOCALES = {
    "en": discord.Locale.american_english,
    "zh-TW": discord.Locale.taiwan_chinese,
    "zh-CN": discord.Locale.chinese,
}
SOURCE = Path(bot.__file__).parent
# English words that must not reach a Chinese reader from our own text (data may hold any).
ENGLISH = re.compile(
    r"\b(add|added|change|merge|remove|unchanged|rejected?|papers?|awards?|venues?|editions?"
    r"|not valid|download failed|cannot|nothing|database|failed)\b",
    re.IGNORECASE,
)
UPLOADS = {
    "broken.toml": b"[[awards]\nbroken",
    "sections.toml": b"[[people]]\nname = 'x'",
    "shape.toml": b"awards = 3",
    "latin1.toml": "title = 'Gödel'".encode("latin-1"),
    "empty.csv": b"",
    "header.csv": b"venue,when\nicml,2025\n",
    "quote.csv": b'venue,year,award,kind,title\n"icml,2025,x,best,t\n',
    "latin1.csv": "venue,year,award,kind,title\nicml,2025,x,best,Gödel\n".encode("latin-1"),
    "broken.yml": b"- [unclosed",
    "mapping.yml": b"title: not a list",
    "latin1.yml": "- title: Gödel".encode("latin-1"),
}


def _keys_raised() -> set[str]:
    """Every literal key given to UserError (or a subclass) anywhere in the bot."""
    keys: set[str] = set()
    for path in SOURCE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", "")).endswith("Error")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and re.fullmatch(r"[a-z]+(-[a-z0-9]+)+", node.args[0].value)
            ):
                keys.add(node.args[0].value)
    return keys


def test_every_user_error_key_is_a_message_in_every_language() -> None:
    keys = _keys_raised() | {f"curate-undo-{r}" for r in ("unknown", "later", "addition")}
    assert len(keys) > 50  # the walk found the bot's keys, not nothing
    for language in LANGUAGES:
        missing = sorted(k for k in keys if k not in STRINGS.messages[language])
        assert missing == [], language


@pytest.mark.parametrize("name", sorted(UPLOADS))
def test_every_refused_upload_is_told_in_the_readers_language(name: str, tmp_path: Path) -> None:
    fmt = formats.detect(Path(name))
    with pytest.raises(UserError) as refused:
        _read_upload(UPLOADS[name], name, fmt, [])
    for language in ("zh-TW", "zh-CN"):
        # The file's own names (its columns, its sections) are shown as they are written.
        blank = dict.fromkeys(refused.value.params, "")
        text = STRINGS.text(refused.value.key, language, **blank)
        text = re.sub(r"\[\[\w+\]\]|\*\*\w*\*\*", "", text)
        assert not ENGLISH.search(text), text


def test_every_document_error_an_importer_raises_names_its_message() -> None:
    """A refusal without a key of its own would reach Discord as the generic one: none does."""
    for path in (SOURCE / "catalog").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "DocumentError":
                named = {k.arg for k in node.keywords}
                assert "key" in named, f"{path.name}:{node.lineno}"


def _plan() -> Plan:
    changes = [
        Change("add", "award", "ICML 2025 Best Paper"),
        Change("add", "paper", "“Attention”"),
        Change("merge", "paper", "“Diffusion”", ("abstract",)),
        Change("change", "edition", "icml 2025", ("orals",)),
        Change("remove", "venue", "xyz"),
        Change("unchanged", "venue", "icml"),
    ]
    return Plan(changes=changes, rejected=[Rejection(where="f.toml awards[3]", reason="r")])


@pytest.mark.parametrize("language", ["zh-TW", "zh-CN"])
def test_a_plan_is_told_in_the_readers_language(language: Any) -> None:
    embed = plan_embed(_plan(), STRINGS, language, title="t")
    shown = (embed.description or "").replace("ICML 2025 Best Paper", "")
    shown = re.sub(r"f\.toml awards\[3\]: r", "", shown)
    assert not ENGLISH.search(shown), shown
    english = plan_embed(_plan(), STRINGS, "en", title="t").description or ""
    assert "add: 1 award, 1 paper" in english


def _wrapped(error: Exception) -> app_commands.CommandInvokeError:
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="x", description="x", callback=_noop
    )
    return app_commands.CommandInvokeError(command, error)


async def _noop(interaction: discord.Interaction) -> None:
    """A callback for building commands in tests."""


@pytest.mark.parametrize(
    ("error", "outcome"),
    [
        (UserError("curate-unchanged"), "user_error"),
        (UserError("error-cooldown", seconds=3), "user_error"),
        (StoreError("/data/laurel.db: the database is closed"), "fault"),
        (StoreFull("the disk is full"), "fault"),
        (DocumentError("x.toml: not valid TOML", key="not-toml", line=1), "fault"),
        (ZeroDivisionError("a bug"), "error"),
    ],
)
def test_the_handler_tells_a_mistake_from_a_fault_in_its_answer_and_its_label(
    error: Exception, outcome: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    for language, locale in LOCALES.items():
        text, counted = answer_for(_wrapped(error), STRINGS, locale)
        assert counted == outcome
        assert text is not None
        assert str(error) not in text or isinstance(error, UserError)
        if language != "en":
            assert not re.search(r"[A-Za-z]{4,}", re.sub(r"`[^`]*`|Laurel", "", text)), text


def test_an_interaction_that_expired_is_a_fault_told_to_no_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    response: Any = SimpleNamespace(status=404, reason="Not Found")  # what discord.py reads
    gone = discord.NotFound(response, {"code": 10062, "message": "Unknown interaction"})
    another = discord.NotFound(response, {"code": 10008, "message": "Unknown Message"})
    caplog.set_level(logging.WARNING)
    assert answer_for(_wrapped(gone), STRINGS, discord.Locale.taiwan_chinese) == (None, "fault")
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    text, outcome = answer_for(_wrapped(another), STRINGS, discord.Locale.taiwan_chinese)
    assert (text is not None, outcome) == (True, "error")  # any other 404 is still a bug


# The names that are the same in every language.
SAME_EVERYWHERE = {
    "about-title",
    "curate-none",
    "digests-heading",
    "paper-field-doi",
    "curate-field-doi",
} | {f"paper-link-{name}" for name in ("arxiv", "pdf", "openreview")}


@pytest.mark.parametrize("language", ["zh-TW", "zh-CN"])
def test_every_message_is_translated_not_copied(language: Any) -> None:
    english = STRINGS.messages["en"]
    copied = {k for k, text in english.items() if STRINGS.messages[language][k] == text}
    assert copied == SAME_EVERYWHERE


async def test_a_write_the_store_refuses_is_told_in_the_readers_language(db: Database) -> None:
    """Every reason the store gives for refusing a curator's write names a message."""
    catalog = CatalogRepository(db, SystemClock())
    plans = [
        await catalog.remove("paper", 10**9, actor="t"),
        await catalog.remove("award", 10**9, actor="t"),
        await catalog.apply(batch(award("T", venue="nowhere")), actor="t", policy="update"),
    ]
    for plan in plans:
        (rejection,) = plan.rejected
        error = refusal(rejection)
        assert error.key != "curate-rejected-other", rejection
        for language in ("zh-TW", "zh-CN"):
            text = STRINGS.text(error.key, language, **error.params)
            assert not ENGLISH.search(text), text
