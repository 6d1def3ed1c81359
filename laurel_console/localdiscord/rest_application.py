"""The bot's identity, the gateway's address and application commands."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from laurel_console.localdiscord import errors, payloads
from laurel_console.localdiscord.rest import API_PREFIX, BODY, Backend, json_response, no_content
from laurel_console.localdiscord.rest_channels import body_dict

COMMANDS = "/applications/{application_id}/commands"
GUILD_COMMANDS = "/applications/{application_id}/guilds/{guild_id}/commands"


class ApplicationRoutes:
    def __init__(self, backend: Backend) -> None:
        self.b = backend

    def register(self, router: web.UrlDispatcher) -> None:
        p = API_PREFIX
        router.add_get(p + "/users/@me", self.me)
        router.add_get(p + "/oauth2/applications/@me", self.application)
        router.add_get(p + "/applications/@me", self.application)
        router.add_get(p + "/gateway", self.gateway)
        router.add_get(p + "/gateway/bot", self.gateway_bot)
        for path in (COMMANDS, GUILD_COMMANDS):
            router.add_get(p + path, self.list_commands)
            router.add_put(p + path, self.overwrite_commands)
            router.add_post(p + path, self.upsert_command)
            router.add_get(p + path + "/{command_id}", self.get_command)
            router.add_delete(p + path + "/{command_id}", self.delete_command)

    async def me(self, request: web.Request) -> web.Response:
        return json_response(payloads.current_user(self.b.world))

    async def application(self, request: web.Request) -> web.Response:
        return json_response(payloads.application(self.b.world))

    async def gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.b.gateway_url()})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        config = self.b.world.config
        total = config.session_start_total
        return json_response(
            {
                "url": self.b.gateway_url(),
                "shards": config.recommended_shards,
                "session_start_limit": {
                    "total": total,
                    "remaining": max(0, total - self.b.gateway.identifies),
                    "reset_after": 86_400_000,
                    "max_concurrency": config.max_concurrency,
                },
            }
        )

    # -- commands --------------------------------------------------------------------------
    def scope(self, request: web.Request) -> int | None:
        if int(request.match_info["application_id"]) != self.b.world.application_id:
            raise errors.missing_access()
        raw = request.match_info.get("guild_id")
        if raw is None:
            return None
        if int(raw) not in self.b.world.guilds:
            raise errors.missing_access()
        return int(raw)

    async def list_commands(self, request: web.Request) -> web.Response:
        return json_response(self.b.commands.list_for(self.scope(request)))

    async def overwrite_commands(self, request: web.Request) -> web.Response:
        scope = self.scope(request)
        body: Any = request[BODY]
        if not isinstance(body, list) or not all(isinstance(c, dict) for c in body):
            raise errors.invalid_form_body(
                [((), "LIST_TYPE_CONVERT", "Only iterables may be used.")]
            )
        self._check_duplicates(body)
        return json_response(self.b.commands.overwrite(scope, body))

    async def upsert_command(self, request: web.Request) -> web.Response:
        scope = self.scope(request)
        return json_response(self.b.commands.upsert(scope, body_dict(request)), 201)

    async def get_command(self, request: web.Request) -> web.Response:
        command_id = request.match_info["command_id"]
        for command in self.b.commands.list_for(self.scope(request)):
            if command["id"] == command_id:
                return json_response(command)
        raise errors.not_found(10063, "application command")

    async def delete_command(self, request: web.Request) -> web.Response:
        if not self.b.commands.delete(self.scope(request), int(request.match_info["command_id"])):
            raise errors.not_found(10063, "application command")
        return no_content()

    @staticmethod
    def _check_duplicates(body: list[dict[str, Any]]) -> None:
        seen: set[tuple[str, int]] = set()
        for index, command in enumerate(body):
            key = (str(command.get("name")), int(command.get("type", 1)))
            if key in seen:
                raise errors.invalid_form_body(
                    [
                        (
                            (index, "name"),
                            "APPLICATION_COMMANDS_DUPLICATE_NAME",
                            "Application command names must be unique",
                        )
                    ]
                )
            seen.add(key)
