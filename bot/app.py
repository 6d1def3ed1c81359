"""LaurelBot, the composition root: settings, store and scheduler come in; commands are wired.

Nothing here runs at import time, and nothing reaches for globals: whoever starts Laurel (the
`laurel run` and `laurel console` commands, the tests) opens the database, builds the scheduler
(or none: a test that moves a fake clock by hand) and the clock, and hands them in — as
discord.py's advanced_startup example does. The one clock goes on to everything that reads
time: digests, backups, the arXiv client, `/paper today`. Without a scheduler nothing runs by
the wall clock: no digest tick, no backup, no search-index polling.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import hashlib
import json
import logging
import os
import socket
import uuid
from typing import Any

import aiohttp
import discord
import yarl
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger
from discord import app_commands
from discord.ext import commands

from bot.backups import schedule_backups
from bot.catalog.arxiv.client import ArxivClient
from bot.catalog.curation import CurationService
from bot.commands.command_sync import same_commands
from bot.commands.components import answer_unclaimed, note_unclaimed
from bot.commands.errors import LaurelTree
from bot.commands.registry import command_groups
from bot.digests.delivery import DiscordDelivery
from bot.digests.engine import DigestEngine
from bot.digests.subscriptions import SubscriptionService
from bot.digests.themes import ThemeRegistry
from bot.domain.clock import Clock
from bot.domain.institutions import load_institutions
from bot.domain.people import load_people
from bot.domain.shards import process_rate
from bot.http_client import SweepingHTTPClient
from bot.observability.metrics import Metrics
from bot.render.chart_fonts import ChartFonts
from bot.render.i18n import LaurelTranslator, Strings
from bot.settings import DISCORD_API, Settings
from bot.store.bot_state import BotStateRepository
from bot.store.catalog.audit import AuditRepository
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.leaderboards import LeaderboardRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.digest_content import DigestContentRepository
from bot.store.ledger import LedgerRepository
from bot.store.search.dictionary import load_dictionary
from bot.store.search.glossary import load_glossary
from bot.store.search.index import SearchIndex
from bot.store.search.semantic import load_embedder
from bot.store.search.store import store_of
from bot.store.sqlite import SqliteDatabase
from bot.store.subscriptions import SubscriptionRepository

log = logging.getLogger(__name__)
SEARCH_FOLLOW_JOB = "laurel-search-follow"
# Of several processes starting on one database, the one holding this lease pushes the
# command tree; it is released once pushed, and runs out by itself if its holder dies.
COMMAND_SYNC_LEASE = "command-sync"
COMMAND_SYNC_LEASE_TTL = dt.timedelta(minutes=5)


def use_endpoints(api_base_url: str, gateway_url: str | None) -> None:
    """Point discord.py at a Discord-compatible endpoint (Discord itself by default).

    discord.py keeps its endpoints as class attributes, so this is process-wide by the library's
    design; it is called once, by whoever builds the bot, before it logs in.
    """
    discord.http.Route.BASE = api_base_url.rstrip("/")
    if gateway_url is not None:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def laurel_intents() -> discord.Intents:
    """The default intents (none privileged) minus message events: Laurel answers slash
    commands and components only, and a digest fan-out would otherwise bring back a
    MESSAGE_CREATE for every post it makes (decompressed, parsed and cached for nothing)."""
    intents = discord.Intents.default()
    intents.guild_messages = intents.dm_messages = False
    return intents


class LaurelBot(commands.Bot):
    def __init__(
        self,
        *,
        settings: Settings,
        db: Database,
        scheduler: AsyncIOScheduler | None,
        clock: Clock,
        http_session: aiohttp.ClientSession,
        guild_ready_timeout: float = 2.0,
        metrics: Metrics | None = None,
        commands_only: bool = False,
    ) -> None:
        """`scheduler` None: nothing runs on the wall clock (digests tick when a test says, no
        backups); `commands_only`: build the command tree at login and start nothing
        (`laurel sync`). `http_session`: outgoing HTTP (arXiv), made and closed by whoever
        starts the bot, as discord.py's advanced_startup example hands in its web client."""
        # Both before super().__init__, which builds the LaurelTree that uses them.
        self.strings = Strings.load()
        self.chart_fonts = ChartFonts()
        self.metrics = metrics or Metrics(enabled=settings.metrics.enabled)
        # Laurel never joins voice: don't warn at every start that voice libraries are missing.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        sharded = isinstance(self, commands.AutoShardedBot)
        super().__init__(**_client_options(settings, guild_ready_timeout, sharded=sharded))
        self.settings = settings
        # Who this process is, to the leases it takes in the shared database.
        self.instance = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.commands_only = commands_only
        self.db = db
        self.scheduler = scheduler
        self.clock = clock
        self.institutions = load_institutions()
        self.search_index = _search_index(settings, db, self.metrics)
        # One repository per aggregate, all on this database.
        self.papers = PaperRepository(db, self.institutions, self.search_index, load_glossary())
        self.editions = EditionRepository(db)
        self.leaderboards = LeaderboardRepository(db, self.institutions, load_people())
        self.catalog = CatalogRepository(db, clock)  # audit stamps
        self.audit = AuditRepository(db)
        self.subscriptions = SubscriptionRepository(db)
        self.bot_state = BotStateRepository(db)
        self.metrics.watch_gateway(lambda: self.latency, lambda: len(self.guilds))
        self.arxiv = ArxivClient(http_session, settings.arxiv, clock=clock)
        self.enrich_task: asyncio.Task[None] | None = None  # [arxiv] enrich_on_start
        self.delivery = DiscordDelivery(
            self,
            # Discord's global rate is the bot's, not a process's: this one paces its shards'.
            process_rate(settings.digests.requests_per_second, settings.discord.shards),
            clock,
        )
        self.digest_engine = self._digest_engine()
        self.digests = self.digest_engine.service  # what the /digest commands call
        self.metrics.set_pending_source(self.digest_engine.pending_count)

    def _digest_engine(self) -> DigestEngine:
        """The digest engine, assembled from what this root made (bot/digests/engine.py)."""
        return DigestEngine.build(
            settings=self.settings.digests,
            ledger=LedgerRepository(self.db),
            content=DigestContentRepository(self.db),
            themes=ThemeRegistry.shipped(),  # every module of bot/digests/themes
            subscriptions=self.subscriptions,
            papers=self.papers,
            editions=self.editions,
            strings=self.strings,
            deliverer=self.delivery,
            scheduler=self.scheduler,
            clock=self.clock,
            events=self.metrics,
            fonts=self.chart_fonts,
            shards=self.settings.discord.shards,  # this process posts its own guilds' digests
        )

    @functools.cached_property
    def curation_service(self) -> CurationService:
        """What /curate paper add checks and writes through."""
        return CurationService(self.papers, self.catalog)

    @property
    def subscription_service(self) -> SubscriptionService:
        """Every change to a subscription: the /digest cog's one way to write one."""
        return self.digest_engine.subscriptions

    def _get_state(self, **options: Any) -> discord.state.ConnectionState[Any]:
        # discord.Client.__init__ makes its HTTPClient and then the connection state from it
        # (the command tree takes it from there too): swap in the amortised sweep first, for
        # this client only (bot/http_client.py says why).
        self.http = SweepingHTTPClient.replacing(self.http)
        return super()._get_state(**options)

    async def setup_hook(self) -> None:
        # setup_hook runs once per process, unlike on_ready (which fires again after a resume
        # that fails): background work and command wiring start here and only here.
        await self.tree.set_translator(LaurelTranslator(self.strings))
        # The Chinese-English dictionary takes a second or two to read: off the event loop,
        # while the index starts.
        dictionary = asyncio.create_task(asyncio.to_thread(load_dictionary))
        if self.search_index is not None:
            await self.search_index.start()
            self.db.on_catalog_write(self.search_index.catch_up)
        self.papers.read_chinese_with(await dictionary)
        for group in command_groups(self, self):
            await self.add_cog(group)
        if self.commands_only:
            return
        await self._sync_commands_once()
        self.digest_engine.start()  # one job, replaced by id: a second setup never doubles it
        if self.scheduler is not None:
            schedule_backups(self.scheduler, self.db, self.settings, self.metrics, self.clock)
            self._follow_other_writers(self.scheduler)
            if not self.scheduler.running:  # a test may hand in one it started paused
                self.scheduler.start()
        if self.settings.arxiv.enrich_on_start:
            from bot.catalog.arxiv.enrich_job import enrich_in_background  # only then: not at start
            from bot.catalog.parts import CatalogParts
            from bot.store.catalog.enrichment import EnrichmentRepository

            self.enrich_task = asyncio.create_task(
                enrich_in_background(
                    CatalogParts(
                        self.catalog,
                        self.editions,
                        self.papers,
                        EnrichmentRepository(self.db),
                        self.bot_state,
                    ),
                    self.arxiv,
                    batch=self.settings.arxiv.ids_per_request,
                ),
                name="laurel-enrich",
            )

    def _follow_other_writers(self, scheduler: AsyncIOScheduler) -> None:
        """The search index catches up with other processes' writes (`laurel import`) every
        [search] follow_seconds: a scheduler job, so nothing polls where no scheduler runs."""
        if self.search_index is None:
            return
        scheduler.add_job(
            self.search_index.follow,
            IntervalTrigger(seconds=self.settings.search.follow_seconds, timezone=dt.UTC),
            id=SEARCH_FOLLOW_JOB,
            name="search index: other writers",
            replace_existing=True,
            max_instances=1,
            coalesce=True,
        )

    async def on_app_command_completion(
        self,
        interaction: discord.Interaction,
        command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu,
    ) -> None:
        self.metrics.command_finished(interaction, "ok")  # failures: LaurelTree.on_error

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction" and args:
            # Now, before any view's callback has run: see bot.commands.components.
            note_unclaimed(args[0], self._connection._view_store)
        super().dispatch(event_name, *args, **kwargs)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await answer_unclaimed(interaction, self.strings)

    async def on_ready(self) -> None:
        # May fire more than once (after a failed resume); waking the tick early is idempotent.
        self.digest_engine.wake()

    async def login(self, token: str) -> None:
        await super().login(token)
        custom_api = self.settings.discord.api_base_url.rstrip("/") != DISCORD_API
        if custom_api and self.settings.discord.gateway_url is None:
            # Another implementation tells us its own gateway, as Discord's REST API does.
            _, gateway, _ = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)

    async def _sync_commands_once(self) -> bool:
        """`sync_commands`, by one process only of several starting on this database (shard
        clusters): the one that takes the lease; the others leave the tree to it."""
        lease, me = COMMAND_SYNC_LEASE, self.instance
        ttl = COMMAND_SYNC_LEASE_TTL
        if not await self.bot_state.take_lease(lease, me, now=self.clock.now(), ttl=ttl):
            log.info("another Laurel on this database is syncing the command tree; not syncing")
            # Its ids are Discord's, whoever pushed: learn them for command mentions.
            self.strings.mentions.learn(await self._held_commands(self._dev_guild()))
            return False
        try:
            return await self.sync_commands()
        finally:
            await self.bot_state.release_lease(lease, me)

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Push the command tree to Discord unless Discord holds it already (or `force`).

        When the tree is what this database last pushed, Discord is asked what it holds (one
        GET): commands removed or replaced elsewhere are pushed again. A changed tree is pushed
        without asking. Whether a push happened is returned.
        """
        guild = self._dev_guild()
        payload = [
            await command.get_translated_payload(self.tree, self.tree.translator)  # type: ignore[arg-type]
            for command in self.tree.get_commands(guild=guild)
        ]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"command-tree:{self.application_id}:{guild.id if guild else 'global'}"
        if not force and await self.bot_state.get(key) == digest:
            held = await self._held_commands(guild)
            if same_commands(held, payload):
                log.info("Discord holds this command tree already; not syncing")
                self.strings.mentions.learn(held)
                return False
            log.warning("Discord holds other commands than this bot last pushed; syncing")
        synced = await self.tree.sync(guild=guild)
        # Answers name commands by mention, from the ids Discord gave them (bot/render/mentions.py).
        self.strings.mentions.learn(
            {"name": c.name, "type": c.type.value, "id": c.id} for c in synced
        )
        await self.bot_state.put(key, digest)
        log.info("command tree synced (%s commands)", len(payload))
        return True

    async def _held_commands(self, guild: discord.Object | None) -> list[dict[str, Any]]:
        """The commands Discord holds for this application (in `guild`, or global)."""
        assert self.application_id is not None  # known once logged in
        route = (
            discord.http.Route(
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                application_id=self.application_id,
                guild_id=guild.id,
            )
            if guild is not None
            else discord.http.Route(
                "GET", "/applications/{application_id}/commands", application_id=self.application_id
            )
        )
        # Full localization dictionaries, as the tree has them (not one locale's text).
        held: list[dict[str, Any]] = await self.http.request(
            route, params={"with_localizations": "true"}
        )
        return held

    def _dev_guild(self) -> discord.Object | None:
        guild_id = self.settings.discord.dev_guild_id
        if guild_id is None:
            return None
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        return guild

    async def close(self) -> None:
        if self.scheduler is not None and self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        if self.enrich_task is not None:
            # Each batch is one transaction: cancelled between or inside a request, nothing
            # is half-written, and the next start does the rest.
            self.enrich_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.enrich_task
        await self.digest_engine.close()
        if self.search_index is not None:
            await self.search_index.close()
        await super().close()


# LaurelBot._get_state wraps whichever base's state it gets (AutoShardedClient's here); mypy
# only sees the two annotations differ.
class ShardedLaurelBot(LaurelBot, commands.AutoShardedBot):  # type: ignore[misc]
    """LaurelBot on several gateway shards in one process (discord.py's AutoShardedBot): the
    shards `[discord] shard_ids` of `shard_count` (or `laurel run --shards`)."""


def laurel_bot_class(settings: Settings) -> type[LaurelBot]:
    """The bot to build for `settings`: sharded when shards are set, plain otherwise."""
    return ShardedLaurelBot if settings.discord.shards is not None else LaurelBot


def _client_options(
    settings: Settings, guild_ready_timeout: float, *, sharded: bool
) -> dict[str, Any]:
    """How the discord.py client behind Laurel is set up: slash commands only, no message
    cache, no mentions unless a message opts in, and the shards `settings` name."""
    options: dict[str, Any] = {
        "command_prefix": commands.when_mentioned,  # slash commands only; no message content
        "intents": laurel_intents(),
        "max_messages": None,  # no message cache: Laurel reads no messages from the gateway
        "allowed_mentions": discord.AllowedMentions.none(),
        "help_command": None,
        "tree_cls": LaurelTree,
        "guild_ready_timeout": guild_ready_timeout,
    }
    shards = settings.discord.shards
    if shards is None:
        return options
    if not sharded:
        raise TypeError("shards are set: build the bot with laurel_bot_class(settings)")
    return options | {"shard_ids": list(shards.ids), "shard_count": shards.count}


def _search_index(settings: Settings, db: Database, metrics: Metrics) -> SearchIndex | None:
    """The derived index that follows the store (bot/store/search/index.py), or None when
    [search] engine is FTS5 alone. Started in setup_hook; FTS5 answers until it is ready (on
    SQLite; PostgreSQL has only it)."""
    if settings.search.engine != "tantivy":
        return None
    file = db.path if isinstance(db, SqliteDatabase) else None
    where = settings.search.index_for(file, settings.discord.shards)
    embedder = load_embedder if settings.search.meaning else None
    return SearchIndex(store_of(db), where, on_fault=metrics.search_index_fault, embedder=embedder)
