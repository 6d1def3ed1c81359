"""LocalDiscord: the stand-in wired together, served on 127.0.0.1, and driven from tests.

async with LocalDiscord() as discord:               # or: await discord.start()
    discord.http.Route.BASE = discord.rest_url       # what the bot side does
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(discord.gateway_url)
    ...
    interaction = await discord.slash("paper", {"query": "attention"})
    message = await interaction.message()
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from aiohttp import web

from laurel_console.localdiscord.commands import CommandRegistry
from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.control import ControlRoutes
from laurel_console.localdiscord.driver import Driver, Options
from laurel_console.localdiscord.faults import Fault, FaultPlan
from laurel_console.localdiscord.gateway import Gateway
from laurel_console.localdiscord.interactions import Interaction
from laurel_console.localdiscord.limits import SpecValidatorProtocol, Violation
from laurel_console.localdiscord.messages import MessageStore
from laurel_console.localdiscord.rest import Backend, RecordedRequest, RestLayer
from laurel_console.localdiscord.rest_application import ApplicationRoutes
from laurel_console.localdiscord.rest_channels import ChannelRoutes
from laurel_console.localdiscord.rest_interactions import InteractionRoutes
from laurel_console.localdiscord.shards import add_spread_guilds
from laurel_console.localdiscord.state import Channel, World, default_world

_UPLOAD_LIMIT = 10 * 1024 * 1024


class LocalDiscord:
    def __init__(
        self,
        world: World | None = None,
        *,
        config: Config | None = None,
        validator: SpecValidatorProtocol | None = None,
    ) -> None:
        self.world = world or default_world(config)
        if config is not None:
            self.world.config = config
        self.faults = FaultPlan()
        self.store = MessageStore(self.world)
        self.commands = CommandRegistry(self.world)
        self.gateway = Gateway(self.world, self.faults, lambda: self.gateway_url)
        backend = Backend(
            self.world,
            self.store,
            self.commands,
            self.gateway,
            self.faults,
            lambda: self.rest_url,
            lambda: self.gateway_url,
        )
        self.rest = RestLayer(backend, validator)
        self.driver = Driver(self.world, self.store, self.commands, self.gateway, self.rest.settle)
        # Discord takes a bot's uploads up to 10 MiB a file (aiohttp's default is 1 MiB, less
        # than /curate export of the whole catalogue); the form around them needs a little more.
        self.app = web.Application(
            middlewares=[self.rest.middleware], client_max_size=_UPLOAD_LIMIT + 64 * 1024
        )
        self.app.router.add_get("/gateway", self.gateway.handle)
        channels = ChannelRoutes(backend)
        for routes in (ApplicationRoutes(backend), InteractionRoutes(backend, channels), channels):
            routes.register(self.app.router)
        ControlRoutes(self).register(self.app.router)
        self.app.on_shutdown.append(self._on_shutdown)
        self._runner: web.AppRunner | None = None
        self._host = "127.0.0.1"
        self._port: int | None = None

    # -- lifecycle -----------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> LocalDiscord:
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        address = self._runner.addresses[0]
        self._host, self._port = host, int(address[1])
        self.store.cdn_base = self.base_url
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _on_shutdown(self, app: web.Application) -> None:
        await self.gateway.close()

    async def __aenter__(self) -> LocalDiscord:
        return await self.start()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # -- addresses and identity ----------------------------------------------------------
    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("LocalDiscord is not started")
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def rest_url(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self._host}:{self.port}/gateway"

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def config(self) -> Config:
        return self.world.config

    # -- what happened ---------------------------------------------------------------------
    @property
    def requests(self) -> list[RecordedRequest]:
        return self.rest.requests

    @property
    def violations(self) -> list[Violation]:
        return self.rest.violations

    @property
    def unhandled(self) -> list[RecordedRequest]:
        return self.rest.unhandled

    @property
    def errors(self) -> list[str]:
        """Tracebacks of requests the stand-in itself failed on (answered with a 500)."""
        return self.rest.errors

    def requests_to(self, route: str) -> list[RecordedRequest]:
        """Recorded requests for a route key such as "POST /channels/{channel_id}/messages"."""
        return [r for r in self.requests if r.route == route]

    async def wait_for_request(
        self,
        route: str,
        *,
        after: int = 0,
        timeout: float = 5.0,  # noqa: ASYNC109 - the API is timeout=
    ) -> RecordedRequest:
        """The first answered request to `route` from index `after` of `requests` on."""

        def find() -> RecordedRequest | None:
            return next((r for r in self.requests[after:] if r.route == route and r.status), None)

        return await self.rest.pulse.until(find, timeout, f"no request {route}")

    def messages(self, channel_id: int | str, *, ephemeral: bool = True) -> list[dict[str, Any]]:
        """A channel's stored messages, oldest first (by id or by name, e.g. "general")."""
        channel = self.channel(channel_id)
        stored = self.world.messages.get(channel.id, [])
        return [s.payload for s in stored if ephemeral or not s.ephemeral]

    def channel(self, channel: int | str) -> Channel:
        if isinstance(channel, int) or channel.isdigit():
            found = self.world.channel(int(channel))
            if found is None:
                raise LookupError(f"no channel {channel}")
            return found
        return self.world.find_channel(channel)

    def attachment_bytes(self, attachment: dict[str, Any] | int) -> bytes:
        key = attachment if isinstance(attachment, int) else int(attachment["id"])
        return self.world.attachments[key]

    # -- driving ---------------------------------------------------------------------------
    async def slash(
        self,
        name: str,
        options: Options | None = None,
        *,
        subcommand: str | Sequence[str] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        locale: str = "en-US",
    ) -> Interaction:
        return await self.driver.slash(
            name,
            options,
            subcommand=subcommand,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            locale=locale,
        )

    async def autocomplete(
        self,
        name: str,
        options: Options | None,
        focused: str,
        *,
        subcommand: str | Sequence[str] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        locale: str = "en-US",
        timeout: float = 5.0,  # noqa: ASYNC109 - the API is timeout=
    ) -> list[dict[str, Any]]:
        return await self.driver.autocomplete(
            name,
            options,
            focused,
            subcommand=subcommand,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            locale=locale,
            timeout=timeout,
        )

    async def press(
        self,
        message: dict[str, Any] | int,
        custom_id: str,
        *,
        user_id: int | None = None,
        locale: str = "en-US",
    ) -> Interaction:
        return await self.driver.press(message, custom_id, user_id=user_id, locale=locale)

    async def choose(
        self,
        message: dict[str, Any] | int,
        custom_id: str,
        values: Sequence[str | int],
        *,
        user_id: int | None = None,
        locale: str = "en-US",
    ) -> Interaction:
        return await self.driver.choose(message, custom_id, values, user_id=user_id, locale=locale)

    async def submit(
        self,
        opened_by: Interaction,
        fields: Mapping[str, str | Sequence[str]],
        *,
        locale: str = "en-US",
    ) -> Interaction:
        return await self.driver.submit(opened_by, fields, locale=locale)

    # -- faults ----------------------------------------------------------------------------
    def inject(self, kind: str, **options: Any) -> Fault:
        """Inject a REST fault; see faults.Fault for the options."""
        return self.faults.inject(kind, **options)

    def clear_faults(self) -> None:
        self.faults.clear()

    def fail_next_resume(self, count: int = 1) -> None:
        self.faults.fail_next_resume(count)

    def limit_rate(self, rate: float | None, burst: int | None = None) -> None:
        self.faults.limit_rate(rate, burst)

    async def drop_gateway(self, *, code: int | None = None, shard: int | None = None) -> int:
        """Drop the gateway connections (only shard `shard`'s, if given); see Gateway.drop."""
        return await self.gateway.drop(code=code, shard=shard)


async def serve(
    host: str,
    port: int,
    *,
    spec_path: Path | None,
    config: Config | None = None,
    guilds: int = 0,
    validator: SpecValidatorProtocol | None = None,
) -> None:
    """Run a stand-in until cancelled, printing what a bot needs to connect to it; `guilds`
    more guilds are spread over the shards (shards.add_spread_guilds); requests are checked by
    `validator`, else by the spec at `spec_path` (if any)."""
    if validator is None and spec_path is not None:
        from laurel_console.localdiscord.spec import SpecValidator

        validator = SpecValidator.from_file(spec_path)
    server = LocalDiscord(config=config, validator=validator)
    if guilds:
        world = server.world
        ada, grace = world.find_user("ada"), world.find_user("grace")
        add_spread_guilds(world, guilds, owner=ada, members=[grace])
    await server.start(host, port)
    try:
        print(f"REST     {server.rest_url}")
        print(f"gateway  {server.gateway_url}")
        print(f"control  {server.base_url}/_control/")
        print(f"token    {server.token}")
        print(f"guilds   {len(server.world.guilds)}, shards {server.config.recommended_shards}")
        print(f"spec     {spec_path or 'not checked'}", flush=True)
        await asyncio.Event().wait()
    finally:
        await server.stop()
