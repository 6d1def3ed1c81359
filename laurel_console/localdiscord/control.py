"""The control API: JSON over HTTP under /_control/, for the console and other processes.

POST   /_control/interactions         {"kind": "slash"|"autocomplete"|"press"|"choose"|"submit",
                                       ...}  -> the interaction (autocomplete: its choices)
GET    /_control/interactions/{id}    its response, original message and followups
POST   /_control/faults               a Fault as JSON, or {"kind": "fail_resume", "count": n},
                                      or {"kind": "limit_rate", "rate": r, "burst": b}
GET    /_control/faults | DELETE /_control/faults
GET    /_control/messages?channel_id=ID_OR_NAME
GET    /_control/requests?route=KEY&since=N | GET /_control/violations
GET    /_control/world                guilds, commands and gateway sessions (with their shard)
POST   /_control/gateway/drop         {"code": optional close code; none drops abruptly,
                                       "shard": optional shard id; none drops every shard}
POST   /_control/gateway/reconnect    sends op 7
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from aiohttp import web

from laurel_console.localdiscord.faults import Fault
from laurel_console.localdiscord.rest import json_response

if TYPE_CHECKING:
    from laurel_console.localdiscord.interactions import Interaction
    from laurel_console.localdiscord.server import LocalDiscord

PREFIX = "/_control"


def _id(value: object) -> int | None:
    return None if value is None or value == "" else int(str(value))


class ControlRoutes:
    def __init__(self, server: LocalDiscord) -> None:
        self.server = server

    def register(self, router: web.UrlDispatcher) -> None:
        router.add_post(PREFIX + "/interactions", self.create_interaction)
        router.add_get(PREFIX + "/interactions/{interaction_id}", self.get_interaction)
        router.add_get(PREFIX + "/faults", self.list_faults)
        router.add_post(PREFIX + "/faults", self.add_fault)
        router.add_delete(PREFIX + "/faults", self.clear_faults)
        router.add_get(PREFIX + "/messages", self.messages)
        router.add_get(PREFIX + "/requests", self.requests)
        router.add_get(PREFIX + "/violations", self.violations)
        router.add_get(PREFIX + "/world", self.world)
        router.add_post(PREFIX + "/gateway/drop", self.drop)
        router.add_post(PREFIX + "/gateway/reconnect", self.reconnect)

    @staticmethod
    async def _json(request: web.Request) -> dict[str, Any]:
        if not request.can_read_body:
            return {}
        data = await request.json()
        if not isinstance(data, dict):
            raise web.HTTPBadRequest(
                text='{"error": "expected a JSON object"}', content_type="application/json"
            )
        return data

    async def create_interaction(self, request: web.Request) -> web.Response:
        body = await self._json(request)
        try:
            result = await self._drive(body)
        except (ValueError, LookupError, KeyError) as error:
            return json_response({"error": str(error)}, 400)
        except TimeoutError as error:
            return json_response({"error": str(error)}, 504)
        return json_response(result)

    async def _drive(self, body: dict[str, Any]) -> dict[str, Any]:
        server = self.server
        kind = body.get("kind", "slash")
        where = {
            "guild_id": _id(body.get("guild_id")),
            "channel_id": _id(body.get("channel_id")),
            "user_id": _id(body.get("user_id")),
        }
        locale = str(body.get("locale", "en-US"))
        interaction: Interaction
        if kind in ("slash", "autocomplete"):
            options = body.get("options") or {}
            if kind == "autocomplete":
                choices = await server.autocomplete(
                    body["name"],
                    options,
                    body["focused"],
                    subcommand=body.get("subcommand"),
                    locale=locale,
                    timeout=float(body.get("timeout", 5.0)),
                    **where,
                )
                return {"choices": choices}
            interaction = await server.slash(
                body["name"], options, locale=locale, subcommand=body.get("subcommand"), **where
            )
        elif kind in ("press", "choose"):
            message_id = int(body["message_id"])
            if kind == "press":
                interaction = await server.press(
                    message_id, body["custom_id"], locale=locale, user_id=where["user_id"]
                )
            else:
                interaction = await server.choose(
                    message_id,
                    body["custom_id"],
                    body["values"],
                    locale=locale,
                    user_id=where["user_id"],
                )
        elif kind == "submit":
            opened_by = server.world.interactions[int(body["interaction_id"])]
            interaction = await server.submit(opened_by, body.get("fields") or {}, locale=locale)
        else:
            raise ValueError(f"unknown kind {kind!r}")
        if body.get("wait"):
            with contextlib.suppress(TimeoutError):  # then the caller sees acknowledged: false
                await interaction.response(timeout=float(body.get("timeout", 5.0)))
        return interaction.to_json()

    async def get_interaction(self, request: web.Request) -> web.Response:
        found = self.server.world.interactions.get(int(request.match_info["interaction_id"]))
        if found is None:
            return json_response({"error": "no such interaction"}, 404)
        return json_response(found.to_json())

    async def list_faults(self, request: web.Request) -> web.Response:
        faults = self.server.faults
        return json_response(
            {
                "faults": [f.to_json() for f in faults.faults],
                "resume_failures": faults.resume_failures,
                "rate": faults.limiter.rate if faults.limiter else None,
            }
        )

    async def add_fault(self, request: web.Request) -> web.Response:
        body = await self._json(request)
        try:
            if body.get("kind") == "fail_resume":
                self.server.fail_next_resume(int(body.get("count", 1)))
                return json_response({"resume_failures": self.server.faults.resume_failures})
            if body.get("kind") == "limit_rate":
                rate = body.get("rate")
                burst = body.get("burst")
                self.server.limit_rate(
                    None if rate is None else float(rate), None if burst is None else int(burst)
                )
                return json_response({"rate": rate})
            fault = self.server.faults.add(Fault.from_json(body))
        except (TypeError, ValueError) as error:
            return json_response({"error": str(error)}, 400)
        return json_response(fault.to_json(), 201)

    async def clear_faults(self, request: web.Request) -> web.Response:
        self.server.clear_faults()
        self.server.limit_rate(None)
        return web.Response(status=204)

    async def messages(self, request: web.Request) -> web.Response:
        try:
            channel = self.server.channel(request.query.get("channel_id", "general"))
        except LookupError as error:
            return json_response({"error": str(error)}, 404)
        return json_response(
            {
                "channel_id": str(channel.id),
                "name": channel.name,
                "messages": self.server.messages(channel.id),
            }
        )

    async def requests(self, request: web.Request) -> web.Response:
        since = int(request.query.get("since", 0))
        route = request.query.get("route")
        found = [
            {"index": since + i, **r.to_json()}
            for i, r in enumerate(self.server.requests[since:])
            if route is None or r.route == route
        ]
        return json_response(
            {
                "requests": found,
                "next": len(self.server.requests),
                "unhandled": [r.route for r in self.server.unhandled],
            }
        )

    async def violations(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "violations": [
                    {
                        "method": v.method,
                        "route": v.route,
                        "source": v.source,
                        "path": list(v.path),
                        "message": v.message,
                        "text": str(v),
                    }
                    for v in self.server.violations
                ]
            }
        )

    async def world(self, request: web.Request) -> web.Response:
        world = self.server.world
        return json_response(
            {
                "application_id": str(world.application_id),
                "bot": {"id": str(world.bot.id), "username": world.bot.username},
                "users": [{"id": str(u.id), "username": u.username} for u in world.users.values()],
                "guilds": [
                    {
                        "id": str(g.id),
                        "name": g.name,
                        "channels": [
                            {"id": str(c.id), "name": c.name, "type": c.type}
                            for c in g.channels.values()
                        ],
                        "roles": [{"id": str(r.id), "name": r.name} for r in g.roles.values()],
                    }
                    for g in world.guilds.values()
                ],
                "commands": {
                    str(scope or "global"): [c["name"] for c in commands]
                    for scope, commands in world.commands.items()
                },
                "gateway_connected": self.server.gateway.connected,
                "gateway_sessions": [
                    {"shard": s.shard and list(s.shard), "connected": s.connection is not None}
                    for s in self.server.gateway.sessions.values()
                ],
            }
        )

    async def drop(self, request: web.Request) -> web.Response:
        body = await self._json(request)
        code, shard = body.get("code"), body.get("shard")
        dropped = await self.server.drop_gateway(
            code=None if code is None else int(code), shard=None if shard is None else int(shard)
        )
        return json_response({"dropped": dropped})

    async def reconnect(self, request: web.Request) -> web.Response:
        await self.server.gateway.request_reconnect()
        return json_response({"sent": True})
