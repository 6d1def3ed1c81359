"""Digest themes: each one module of this package, found here.

A theme module defines `THEME`, a `ThemeSpec`: its name (stored on each subscription), the
English label of its /digest choice, its usual cadence, how it picks (a `candidates` query for
the themes that cycle through the catalogue, or a `batch` chooser such as new awards') and its
renderer. Its strings are `digest-theme-<name>` and `digests-theme-<name>` in every locale's
messages and its label under every locale's commands. SQL stays in `bot.store`: a theme calls a
repository method.

`ThemeRegistry.shipped()` imports every module of this package; `with_theme` is the seam a test
(or a deployment) adds one through.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.domain.ledger import Chooser
from bot.domain.models import AwardKind, Language
from bot.domain.subscriptions import Cadence, DigestFilter, Subscription
from bot.render.chart_fonts import ChartFonts
from bot.render.digest_posts import Frame, Post
from bot.render.i18n import Strings
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.digest_content import DigestContentRepository

_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


class ContentGone(Exception):
    """What a row recorded is no longer in the catalogue (a curator removed it)."""


class ThemeIncomplete(ValueError):
    """A theme that lacks one of its parts: refused when it is registered."""


@dataclass(frozen=True, slots=True)
class ThemeContext:
    """What a theme's query and renderer may read: repositories, strings, fonts, and the
    cached paper body (a fan-out renders each paper once per language)."""

    content: DigestContentRepository
    papers: PaperRepository
    editions: EditionRepository
    strings: Strings
    fonts: ChartFonts
    paper_body: Callable[[int, Language], Awaitable[discord.Embed]]


Candidates = Callable[[ThemeContext, DigestFilter], Awaitable[list[int]]]
Batch = Callable[[ThemeContext, Subscription], Awaitable[Chooser]]
Render = Callable[[ThemeContext, Subscription, dict[str, Any], Frame], Awaitable[Post]]


@dataclass(frozen=True, slots=True)
class ThemeSpec:
    name: str
    label: str  # the /digest choice's English name; translated under each locale's [commands]
    cadence: Cadence  # the usual one, when a subscriber gives neither cadence nor days
    render: Render
    order: int = 100  # where its choice stands in /digest subscribe
    key: str = "paper"  # what a cycling theme's choice records: "paper" or "edition"
    candidates: Candidates | None = None  # cycling: the ids to walk through, filtered
    batch: Batch | None = None  # batching: a chooser of its own (new awards)
    award_kind: AwardKind | None = None  # only awards of this kind count for its filters
    empty_key: str = "digests-filter-empty"  # what a preview says when nothing is chosen

    @property
    def cycling(self) -> bool:
        return self.candidates is not None

    @property
    def string_keys(self) -> tuple[str, str]:
        """Its name in /digest answers and in the posts' headings."""
        return f"digest-theme-{self.name}", f"digests-theme-{self.name}"

    def missing(self) -> list[str]:
        """The parts it lacks (empty when it is whole)."""
        lacks = []
        if not _NAME.fullmatch(self.name):
            lacks.append(f"a name of lowercase words joined by '-' (not {self.name!r})")
        if not self.label.strip():
            lacks.append("a label")
        if not isinstance(self.cadence, Cadence):
            lacks.append("a cadence")
        if not callable(self.render):
            lacks.append("a renderer")
        if (self.candidates is None) == (self.batch is None):
            lacks.append("exactly one picker: candidates (cycling) or batch")
        if self.cycling and self.key not in ("paper", "edition"):
            lacks.append("a content key, 'paper' or 'edition'")
        return lacks


@dataclass(frozen=True, slots=True)
class ThemeRegistry:
    _specs: dict[str, ThemeSpec] = field(default_factory=dict)

    @classmethod
    def shipped(cls) -> ThemeRegistry:
        """Every theme module of this package."""
        registry = cls()
        for module in pkgutil.iter_modules(__path__):
            found = importlib.import_module(f"{__name__}.{module.name}")
            spec = getattr(found, "THEME", None)
            if not isinstance(spec, ThemeSpec):
                raise ThemeIncomplete(f"{found.__name__} defines no THEME = ThemeSpec(...)")
            registry = registry.with_theme(spec)
        return registry

    def with_theme(self, spec: ThemeSpec) -> ThemeRegistry:
        """A registry that knows `spec` too; a theme lacking a part is refused."""
        lacks = spec.missing()
        if lacks:
            raise ThemeIncomplete(f"theme {spec.name!r} lacks " + "; ".join(lacks))
        if spec.name in self._specs:
            raise ThemeIncomplete(f"theme {spec.name!r} is registered twice")
        return ThemeRegistry({**self._specs, spec.name: spec})

    def __getitem__(self, name: str) -> ThemeSpec:
        return self._specs[name]

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[ThemeSpec]:
        return iter(sorted(self._specs.values(), key=lambda s: (s.order, s.name)))
