"""A dry-run re-import leads with what is new (issue 25, item 13): re-importing the bundled
ai-bestpapers reported "change: 556 awards" with the real additions buried in "… and 677
more". Now additions first, then each kind of change once (how many, which fields: the why),
and what is unchanged as a count."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.app import LaurelBot
from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import curate, curator_bot

__all__ = ["curator_bot"]
ADD = {"en-US": "add ", "zh-TW": "新增", "zh-CN": "新增"}
CHANGE = {"en-US": "change ", "zh-TW": "修改", "zh-CN": "修改"}


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_a_dry_run_reimport_leads_with_what_is_new(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database, shared_dir: Path, locale: str
) -> None:
    data = (shared_dir / "datasets" / "ai-bestpapers" / "papers.yml").read_bytes()
    asked = await curate(server, "import", {"file": ("papers.yml", data)}, locale=locale)
    (embed,) = (await asked.message())["embeds"]
    summary, _, block = embed["description"].partition("```\n")
    lines = block.rstrip("`\n").splitlines()
    kinds = [ADD[locale] if line.startswith(ADD[locale]) else line[:4] for line in lines]
    adds = [i for i, k in enumerate(kinds) if k == ADD[locale]]
    others = [i for i, k in enumerate(kinds) if k != ADD[locale]]
    assert adds, "the file has awards the catalogue lacks"
    assert not others or max(adds) < min(others)  # what is new comes first…
    added = summary.split(" · ")[0]  # "add: 18 awards, 1 edition, 1 paper, 1 venue"
    assert len(adds) == sum(int(n) for n in re.findall(r"\d+", added))  # …every bit of it
    changes = [line for line in lines if line.startswith(CHANGE[locale])]
    assert len(changes) == len(set(changes))
    assert len(lines) <= 26  # no longer hundreds of lines cut at 25
    assert all("[" in line for line in changes)  # each says which fields change: the why
