"""SpecValidator against Discord's OpenAPI spec, with the requests discord.py really makes.

discord.py's own HTTP methods build the requests here: a recorder stands in for its HTTP
client and keeps the route and JSON body that would have gone out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, cast

import discord
import pytest
from discord import app_commands
from discord.http import HTTPClient, Route, handle_message_parameters
from discord.webhook.async_ import (
    AsyncWebhookAdapter,
    interaction_message_response_params,
    interaction_response_params,
)

from laurel_console.localdiscord.spec import SpecValidator

MESSAGES = "/channels/{channel_id}/messages"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"


@cache
def _load(path: Path, *, int_snowflakes: bool = True) -> SpecValidator:
    return SpecValidator.from_file(path, int_snowflakes=int_snowflakes)


@pytest.fixture
def spec_path(shared_dir: Path) -> Path:
    path = shared_dir / "discord-api-spec" / "openapi.json"
    if not path.is_file():
        pytest.skip(f"Discord's OpenAPI spec (discord/discord-api-spec) is not at {path}")
    return path


@pytest.fixture
def spec(spec_path: Path) -> SpecValidator:
    return _load(spec_path)


@pytest.fixture
def strict_spec(spec_path: Path) -> SpecValidator:
    return _load(spec_path, int_snowflakes=False)


class _Recorder:
    """Stands in for discord.py's HTTP clients: keeps the request instead of sending it."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, object]] = []

    def request(self, route: Route, **kwargs: Any) -> None:
        body = kwargs.get("json", kwargs.get("payload"))
        for part in kwargs.get("form") or kwargs.get("multipart") or ():
            if part["name"] == "payload_json":  # a multipart request: its JSON part
                body = json.loads(part["value"])
        self.sent.append((route.method, route.url.removeprefix(Route.BASE), body))


def _send(
    spec: SpecValidator, method: Callable[..., object], *args: Any, **kwargs: Any
) -> list[str]:
    """Make discord.py build a request with `method`, then check it against the spec."""
    recorder = _Recorder()
    method(cast(Any, recorder), *args, **kwargs)
    [(verb, path, body)] = recorder.sent
    route = spec.route_for(verb, path)
    assert route is not None, f"{verb} {path} is in no route of the spec"
    return spec.validate(verb, route, body)


def _view() -> discord.ui.View:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Next", custom_id="next", emoji="➡️"))
    view.add_item(discord.ui.Button(label="Paper", url="https://arxiv.org/abs/1706.03762"))
    view.add_item(
        discord.ui.Select(
            custom_id="field",
            placeholder="Pick a field",
            options=[discord.SelectOption(label="NLP", value="nlp", description="Language")],
        )
    )
    view.add_item(
        discord.ui.ChannelSelect(custom_id="where", channel_types=[discord.ChannelType.text])
    )
    return view


def _embed() -> discord.Embed:
    embed = discord.Embed(
        title="Attention Is All You Need",
        url="https://arxiv.org/abs/1706.03762",
        description="NeurIPS 2017",
        colour=discord.Colour.gold(),
        timestamp=discord.utils.utcnow(),
    )
    embed.set_author(name="Vaswani et al.", icon_url="https://example.org/a.png")
    embed.add_field(name="Award", value="Test of Time", inline=False)
    embed.set_footer(text="Laurel")
    embed.set_thumbnail(url="https://example.org/t.png")
    return embed


def _tree() -> app_commands.CommandTree[discord.Client]:
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )

    @tree.command(description="Find award-winning papers")
    @app_commands.describe(query="Words in the title")
    @app_commands.choices(venue=[app_commands.Choice(name="NeurIPS", value="neurips")])
    async def search(
        interaction: discord.Interaction,
        query: str,
        venue: app_commands.Choice[str],
        year: app_commands.Range[int, 1950, 2100] | None = None,
        channel: discord.TextChannel | None = None,
        ephemeral: bool = False,
    ) -> None: ...

    @search.autocomplete("query")
    async def complete(interaction: discord.Interaction, current: str) -> list[Any]:
        return []

    admin = app_commands.Group(
        name="admin",
        description="Admin",
        default_permissions=discord.Permissions(manage_guild=True),
    )
    feeds = app_commands.Group(name="feeds", description="Feeds", parent=admin)

    @feeds.command(description="Post the feed here")
    async def here(interaction: discord.Interaction, role: discord.Role | None = None) -> None: ...

    tree.add_command(admin)

    @tree.context_menu(name="Bookmark")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def bookmark(interaction: discord.Interaction, message: discord.Message) -> None: ...

    return tree


@pytest.mark.parametrize(
    ("method", "template", "params", "expected"),
    [
        ("GET", "/users/@me", {}, "/users/@me"),
        ("GET", "/users/{user_id}", {"user_id": 80351110224678912}, "/users/{user_id}"),
        ("GET", "/gateway/bot", {}, "/gateway/bot"),
        ("GET", "/oauth2/applications/@me", {}, "/oauth2/applications/@me"),
        ("PUT", "/applications/{application_id}/commands", {"application_id": 1}, None),
        (
            "PUT",
            "/applications/{application_id}/guilds/{guild_id}/commands",
            {"application_id": 1, "guild_id": 2},
            None,
        ),
        (
            "POST",
            "/interactions/{webhook_id}/{webhook_token}/callback",
            {"webhook_id": 1, "webhook_token": "aW50ZXJhY3Rpb24"},
            CALLBACK,
        ),
        (
            "POST",
            "/webhooks/{webhook_id}/{webhook_token}",
            {"webhook_id": 1, "webhook_token": "t"},
            None,
        ),
        ("PATCH", ORIGINAL, {"webhook_id": 1, "webhook_token": "t"}, None),
        (
            "PATCH",
            "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            {"webhook_id": 1, "webhook_token": "t", "message_id": 3},
            None,
        ),
        ("POST", MESSAGES, {"channel_id": 1}, None),
        ("GET", MESSAGES, {"channel_id": 1}, None),
        ("PATCH", MESSAGES + "/{message_id}", {"channel_id": 1, "message_id": 2}, None),
        ("POST", "/channels/{channel_id}/threads", {"channel_id": 1}, None),
        (
            "PUT",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
            {"channel_id": 1, "message_id": 2, "emoji": "👍"},
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me",
        ),
    ],
)
def test_route_for_maps_discord_py_routes(
    spec: SpecValidator, method: str, template: str, params: dict[str, Any], expected: str | None
) -> None:
    path = Route(method, template, **params).url.removeprefix(Route.BASE)
    assert spec.route_for(method, path) == (expected or template)


def test_route_for_prefers_literals_and_rejects_unknown_paths(spec: SpecValidator) -> None:
    assert spec.route_for("GET", "/channels/1/messages?limit=50") == MESSAGES
    assert spec.route_for("GET", "/nowhere") is None
    assert spec.route_for("GET", "/channels//messages") is None
    # The literal route wins though only the templated one has GET: validate() says so.
    route = spec.route_for("GET", "/guilds/1/members/@me")
    assert route == "/guilds/{guild_id}/members/@me"
    [problem] = spec.validate("GET", route, None)
    assert "no such method" in problem
    assert "PATCH" in problem


async def test_discord_py_messages_validate(spec: SpecValidator) -> None:
    mentions = discord.AllowedMentions.none()
    params = handle_message_parameters(
        content="hi", embed=_embed(), view=_view(), allowed_mentions=mentions
    )
    assert _send(spec, HTTPClient.send_message, 1, params=params) == []
    params = handle_message_parameters(content="edited", embeds=[], view=None, attachments=[])
    assert _send(spec, HTTPClient.edit_message, 1, 2, params=params) == []
    with handle_message_parameters(content="file", file=discord.File(__file__)) as params:
        assert _send(spec, HTTPClient.send_message, 1, params=params) == []


async def test_discord_py_interaction_responses_validate(spec: SpecValidator) -> None:
    webhooks, session = AsyncWebhookAdapter, cast(Any, None)
    flags = discord.MessageFlags(ephemeral=True)
    for params in (
        interaction_message_response_params(type=4, content="hi", flags=flags, view=_view()),
        interaction_message_response_params(type=4, embed=_embed()),
        interaction_response_params(type=5, data={"flags": 64}),
        interaction_response_params(type=8, data={"choices": [{"name": "NLP", "value": "nlp"}]}),
    ):
        respond = webhooks.create_interaction_response
        assert _send(spec, respond, 1, "token", session=session, params=params) == []
    answer = {"type": 4, "data": {"content": "hi", "flags": 64, "allowed_mentions": {"parse": []}}}
    assert spec.validate("POST", CALLBACK, answer) == []
    params = handle_message_parameters(content="done", embed=_embed(), view=_view())
    edit = webhooks.edit_original_interaction_response
    assert _send(spec, edit, 1, "token", session=session, payload=params.payload) == []
    params = handle_message_parameters(content="later", flags=flags, view=_view())
    execute = webhooks.execute_webhook
    assert (
        _send(spec, execute, 1, "token", session=session, payload=params.payload, wait=True) == []
    )


async def test_discord_py_commands_and_threads_validate(spec: SpecValidator) -> None:
    tree = _tree()
    commands = [command.to_dict(tree) for command in tree.get_commands()]
    assert len(commands) == 3
    assert _send(spec, HTTPClient.bulk_upsert_global_commands, 1, commands) == []
    assert _send(spec, HTTPClient.bulk_upsert_guild_commands, 1, 2, commands) == []
    thread = {"name": "Papers", "auto_archive_duration": 1440, "type": 11, "invitable": False}
    assert _send(spec, HTTPClient.start_thread_without_message, 1, **thread) == []


@pytest.mark.parametrize(
    ("route", "body", "expected"),
    [
        (MESSAGES, {"embeds": [discord.Embed(title="x" * 300).to_dict()]}, "embeds[0].title: 'xxx"),
        (MESSAGES, {"content": 5}, "content: 5 is not of type 'string', 'null'"),
        (
            MESSAGES,
            {
                "components": [
                    {"type": 1, "components": [{"type": 2, "style": 1, "label": "x" * 81}]}
                ]
            },
            "components[0].components[0].label: 'xxx",
        ),
        (MESSAGES, {"components": [{"type": 77}]}, "components[0].type: 77 is not one of [1, "),
        (CALLBACK, {"type": 99}, "type: 99 is not one of [1, 4, 5, 6, 7, 8, 9, 12, 13]"),
        (CALLBACK, {"data": {"content": "hi"}}, "'type' is a required property"),
        (CALLBACK, {"type": 4, "data": {"flags": "64"}}, "data.flags: '64' is not of type"),
        (
            "/channels/{channel_id}/threads",
            {"name": "t", "type": 99},
            "type: 99 is not one of [10, 11, 12]",
        ),
    ],
)
def test_invalid_bodies_name_the_field(
    spec: SpecValidator, route: str, body: object, expected: str
) -> None:
    [problem] = spec.validate("POST", route, body)
    assert problem.startswith(f"POST {route}: {expected}")
    assert len(problem) < 200  # long values are cut short


def test_body_presence_and_unknown_operations(spec: SpecValidator) -> None:
    assert spec.validate("GET", "/users/@me", None) == []
    assert spec.validate("GET", "/users/@me", {}) == [
        "GET /users/@me: takes no request body, got {}"
    ]
    assert spec.validate("POST", MESSAGES, None) == [f"POST {MESSAGES}: a request body is required"]
    assert spec.validate("GET", "/nowhere", None) == [
        "GET /nowhere: no such route in Discord's API spec"
    ]
    assert spec.validate("DELETE", "/users/@me", None) == [
        "DELETE /users/@me: the spec has no such method on this route (it has GET, PATCH)"
    ]


def test_integer_snowflakes_that_discord_py_sends(
    spec: SpecValidator, strict_spec: SpecValidator
) -> None:
    # discord.py sends ids as JSON integers here; the spec allows only strings of digits.
    mentions = discord.AllowedMentions(users=[discord.Object(id=80351110224678912)])
    reference = {"message_id": 1157346410853494834, "channel_id": 381870553235193857}
    body = {"content": "hi", "allowed_mentions": mentions.to_dict(), "message_reference": reference}
    assert spec.validate("POST", MESSAGES, body) == []
    assert strict_spec.validate("POST", MESSAGES, body) == [
        f"POST {MESSAGES}: allowed_mentions.users[0]: 80351110224678912 is not of type 'string'",
        f"POST {MESSAGES}: message_reference.message_id: 1157346410853494834 is not of type "
        "'string'",
    ]
    for wrong in ("@me", "-1", -1, 2**64):
        assert spec.validate("POST", MESSAGES, {"sticker_ids": [wrong]}) != [], wrong
