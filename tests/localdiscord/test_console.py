"""`laurel console`: the renderer, the command-line grammar, completion, the conversation, and
the command itself, in-process.

The grammar is checked against registries the stand-in recorded from real bots: LaurelBot's own
commands, and a discord.py bot with the shapes Laurel's commands are growing into (groups,
choices, autocomplete). The conversation runs on the stand-in with lines fed through an input
function, so no terminal is involved.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import shutil
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, Literal

import discord
import pytest
import yarl
from discord import app_commands
from hypothesis import given
from hypothesis import strategies as st

from bot.app import LaurelBot
from bot.cli import main
from bot.domain.clock import SystemClock
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.console import AttachmentSaver, Console
from laurel_console.localdiscord.console_complete import Completion, complete
from laurel_console.localdiscord.console_parse import (
    CommandCatalog,
    CommandLineError,
    Invocation,
    parse_slash,
    tokenize,
)
from laurel_console.localdiscord.console_render import modal_fields, render_message, render_modal
from laurel_console.localdiscord.console_repl import PROMPT, Display, Repl
from laurel_console.localdiscord.console_text import text_width, wrap
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.backends import open_sqlite
from tests.support.bare_client import Laurel, connected

ANSI = re.compile(r"\x1b\[[0-9;]*m")
COVERAGE = re.compile(r"\d+ venues with statistics for \d+ editions \(\d{4}–\d{4}\)")


# -- the renderer ------------------------------------------------------------------------------
def panel_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line[:1] in "┌│├└"]


def inside(lines: Sequence[str]) -> list[str]:
    """The text of a panel's rows, without the frame."""
    return [line[2:-2].rstrip() for line in lines if line.startswith("│")]


def test_a_cjk_title_wraps_to_the_width_counting_two_columns_a_character() -> None:
    title = "二〇二五年國際機器學習會議傑出論文獎得主與其研究貢獻的完整介紹"
    message = {"content": "", "embeds": [{"title": title, "description": "短。"}]}

    text = render_message(message, width=30)

    lines = panel_lines(text)
    assert {text_width(line) for line in lines} == {30}
    rows = inside(lines)
    assert all(text_width(row) <= 26 for row in rows)
    title_rows = rows[: rows.index("")]
    assert len(title_rows) > 1
    assert "".join(title_rows) == title
    assert rows[-1] == "短。"


def test_an_embed_shows_its_title_url_description_fields_and_footer_in_order() -> None:
    embed = {
        "title": "Attention Is All You Need",
        "url": "https://arxiv.org/abs/1706.03762",
        "description": "**NeurIPS 2017** · test of time",
        "fields": [
            {"name": "Authors", "value": "Vaswani et al.", "inline": True},
            {"name": "Award", "value": "Test of Time", "inline": True},
        ],
        "footer": {"text": "source: neurips.cc"},
        "color": 0xC9A227,
    }

    rows = inside(panel_lines(render_message({"embeds": [embed]}, width=60)))

    assert rows == [
        "Attention Is All You Need",
        "↗ https://arxiv.org/abs/1706.03762",
        "",
        "**NeurIPS 2017** · test of time",  # markdown is kept as written
        "",
        "Authors",
        "Vaswani et al.",
        "",
        "Award",
        "Test of Time",
        "source: neurips.cc",
    ]
    assert "├" + "─" * 58 + "┤" in render_message({"embeds": [embed]}, width=60)


def test_buttons_are_listed_with_disabled_and_link_buttons_marked() -> None:
    row = {
        "type": 1,
        "components": [
            {"type": 2, "style": 2, "label": "Previous", "custom_id": "p:prev", "disabled": True},
            {"type": 2, "style": 1, "label": "Next", "custom_id": "p:next", "emoji": {"name": "▶"}},
            {"type": 2, "style": 5, "label": "arXiv", "url": "https://arxiv.org/abs/1706.03762"},
        ],
    }

    text = render_message({"components": [row]}, width=100)

    assert text.splitlines()[1:] == [
        "[ Previous ] (disabled)  [ ▶ Next ]  [ arXiv ↗ ] https://arxiv.org/abs/1706.03762"
    ]
    narrow = render_message({"components": [row]}, width=30).splitlines()[1:]
    assert narrow[:2] == ["[ Previous ] (disabled)", "[ ▶ Next ]"]


def test_a_select_menu_lists_its_options() -> None:
    select = {
        "type": 3,
        "custom_id": "year",
        "placeholder": "Pick a year",
        "options": [
            {"label": "2024", "value": "2024"},
            {"label": "2025", "value": "y2025", "description": "latest", "default": True},
        ],
    }

    text = render_message({"components": [{"type": 1, "components": [select]}]})

    assert text.splitlines()[1:] == [
        "▾ Pick a year (pick 1)",
        "    • 2024",
        "    • 2025 — latest  [y2025]  ✓",
    ]


def test_an_attachment_shows_where_it_was_saved_and_ephemeral_answers_are_marked() -> None:
    message = {
        "flags": 64,
        "author": {"username": "Laurel"},
        "attachments": [
            {"id": "7", "filename": "chart.png", "size": 2048, "content_type": "image/png"}
        ],
    }

    text = render_message(message, saved={"7": Path("/tmp/laurel/chart.png")})

    assert text.splitlines() == [
        "Laurel",
        "(only you can see this)",
        "📎 chart.png (2.0 KB, image/png) saved to /tmp/laurel/chart.png",
    ]


def test_colours_only_when_asked_and_never_change_the_layout() -> None:
    message = {
        "author": {"username": "Laurel"},
        "flags": 64,
        "embeds": [{"title": "Laurel", "footer": {"text": "f"}, "color": 0xC9A227}],
        "components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go"}]}],
    }

    plain = render_message(message, width=40)
    coloured = render_message(message, width=40, colour=True)

    assert "\x1b" not in plain
    assert "\x1b[38;2;201;162;39m" in coloured  # the embed's colour on its frame
    assert ANSI.sub("", coloured) == plain


@given(st.text(st.sampled_from("ab 論文。，「」xyz\n-é\u0301"), max_size=200), st.integers(4, 40))
def test_wrapped_lines_fit_and_lose_nothing_but_spaces(text: str, width: int) -> None:
    lines = wrap(text, width)

    assert all(text_width(line) <= width for line in lines)
    assert "".join("".join(lines).split()) == "".join(text.split())


def test_a_modal_lists_its_fields_old_and_new_style() -> None:
    modal = {
        "custom_id": "suggest",
        "title": "Suggest a paper",
        "components": [
            {
                "type": 1,
                "components": [
                    {
                        "type": 4,
                        "custom_id": "title",
                        "label": "Title",
                        "style": 1,
                        "max_length": 200,
                    },
                ],
            },
            {
                "type": 18,
                "label": "Venue",
                "component": {
                    "type": 3,
                    "custom_id": "venue",
                    "options": [{"label": "ICML", "value": "icml"}],
                },
            },
        ],
    }

    fields = modal_fields(modal)
    text = render_modal(modal, width=50)

    assert [(f.custom_id, f.label, f.required) for f in fields] == [
        ("title", "Title", True),
        ("venue", "Venue", True),
    ]
    assert inside(panel_lines(text)) == [
        "Suggest a paper",
        "",
        "Title",
        "required, 0–200 characters",
        "",
        "Venue",
        "required, one of ICML",
    ]


# -- registries recorded from real bots ------------------------------------------------------
@pytest.fixture
async def laurel(
    server: LocalDiscord, template_db: Path, tmp_path: Path
) -> AsyncIterator[LaurelBot]:
    copy = tmp_path / "laurel.db"
    shutil.copyfile(template_db, copy)
    async with await open_sqlite(copy) as db, laurel_on(server, db, clock=SystemClock()) as bot:
        yield bot


def laurel_catalog(server: LocalDiscord) -> CommandCatalog:
    return CommandCatalog.of(server.commands.list_for(None))


class Sample:
    """Choices the sample bot's autocomplete offers, and what it was asked."""

    titles = ("Masked Diffusion Models", "Masked Autoencoders", "Mamba")

    def __init__(self) -> None:
        self.asked: list[tuple[str, int | None]] = []


def add_sample_commands(bot: Laurel, sample: Sample) -> None:
    """Shapes Laurel's commands are growing into: groups, choices, autocomplete, a view, a
    modal, a file and a deferred answer."""
    tree = bot.tree
    paper = app_commands.Group(name="paper", description="Find papers")
    awards = app_commands.Group(name="awards", description="Awards by venue")

    @paper.command(name="search", description="Search titles")
    @app_commands.describe(query="Words in the title", year="Only this year")
    async def search(interaction: discord.Interaction, query: str, year: int | None = None) -> None:
        await interaction.response.send_message(f"searching {query!r} in {year}")

    @search.autocomplete("query")
    async def suggest(interaction: discord.Interaction, current: str) -> list[Any]:
        year = interaction.namespace.year
        sample.asked.append((current, year))
        return [
            app_commands.Choice(name=t, value=t)
            for t in sample.titles
            if t.casefold().startswith(current.casefold())
        ]

    @awards.command(name="history", description="Awards of one venue over the years")
    async def history(interaction: discord.Interaction, venue: Literal["icml", "neurips"]) -> None:
        await interaction.response.send_message(f"history of {venue}", ephemeral=True)

    @tree.command(name="flag", description="A boolean")
    async def flag(interaction: discord.Interaction, on: bool) -> None:
        await interaction.response.send_message(f"flag {on}")

    class Pager(discord.ui.View):
        def __init__(self, page: int) -> None:
            super().__init__(timeout=60)
            self.page = page
            self.previous.disabled = page == 1

        @discord.ui.button(label="Previous", custom_id="pager:prev")
        async def previous(self, interaction: discord.Interaction, _: Any) -> None:
            await interaction.response.edit_message(content="page 1", view=Pager(1))

        @discord.ui.button(label="Next", custom_id="pager:next", style=discord.ButtonStyle.primary)
        async def next(self, interaction: discord.Interaction, _: Any) -> None:
            await interaction.response.edit_message(content="page 2", view=Pager(2))

        @discord.ui.select(
            custom_id="pager:year",
            placeholder="Pick a year",
            options=[discord.SelectOption(label=str(y), value=f"y{y}") for y in (2024, 2025)],
        )
        async def year(self, interaction: discord.Interaction, select: Any) -> None:
            await interaction.response.send_message(f"year {select.values[0]}", ephemeral=True)

    @tree.command(name="pages", description="A paged answer")
    async def pages(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("page 1", view=Pager(1))

    class Suggest(discord.ui.Modal, title="Suggest a paper"):
        paper_title: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="Title", custom_id="title", max_length=100
        )
        why: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="Why", custom_id="why", required=False, style=discord.TextStyle.paragraph
        )

        async def on_submit(self, interaction: discord.Interaction) -> None:
            text = f"thanks for {self.paper_title.value!r} ({self.why.value or 'no reason'})"
            await interaction.response.send_message(text, ephemeral=True)

    @tree.command(name="suggest", description="Suggest a paper")
    async def suggest_paper(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Suggest())

    @tree.command(name="chart", description="A slow chart")
    async def chart(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        picture = discord.File(io.BytesIO(b"\x89PNG fake"), filename="chart.png")
        await interaction.followup.send("here", file=picture)
        await interaction.followup.send("and a note")

    tree.add_command(paper)
    tree.add_command(awards)


@pytest.fixture
async def sample(server: LocalDiscord, bot: Laurel) -> AsyncIterator[Sample]:
    sample = Sample()
    add_sample_commands(bot, sample)
    async with connected(bot, server):
        await bot.tree.sync()
        yield sample


def sample_catalog(server: LocalDiscord) -> CommandCatalog:
    return CommandCatalog.of(server.commands.list_for(None))


# -- the grammar -------------------------------------------------------------------------------
async def test_laurels_own_commands_parse_and_refuse_what_they_do_not_take(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    catalog = laurel_catalog(server)

    assert {"about", "help"} <= set(catalog.names)  # and every command group added since
    assert parse_slash("/about", catalog) == Invocation("about")
    assert parse_slash("/關於", catalog) == Invocation("about")  # as a zh-TW client shows it
    with pytest.raises(CommandLineError, match=r"^/about has no option venue:; it takes no"):
        parse_slash("/about venue:icml", catalog)
    with pytest.raises(CommandLineError, match=r"^unknown command /nosuch; .*: /about, .*/help"):
        parse_slash("/nosuch venue:NeurIPS year:2025", catalog)
    with pytest.raises(CommandLineError, match="unexpected 'now'"):
        parse_slash("/help now", catalog)


async def test_values_subcommands_and_choices(sample: Sample, server: LocalDiscord) -> None:
    catalog = sample_catalog(server)

    def options(line: str) -> dict[str, object]:
        return parse_slash(line, catalog).options

    invocation = parse_slash('/paper search query:"masked diffusion" year:2025', catalog)
    assert invocation == Invocation(
        "paper", ("search",), {"query": "masked diffusion", "year": 2025}
    )
    assert invocation.display == "/paper search"
    assert options("/paper search query: 'masked diffusion'") == {"query": "masked diffusion"}
    assert options(r'/paper search query:"say \"hi\""') == {"query": 'say "hi"'}
    assert options("/paper search query:don't") == {"query": "don't"}
    assert options("/paper search query:https://arxiv.org/abs/2406.04329:v2") == {
        "query": "https://arxiv.org/abs/2406.04329:v2"
    }
    assert options('/paper search query:""') == {"query": ""}
    assert parse_slash("/awards history venue:ICML", catalog) == Invocation(
        "awards", ("history",), {"venue": "icml"}
    )
    assert options("/flag on:yes") == {"on": True}


async def test_a_value_runs_to_the_next_option_of_the_command_as_in_discords_box(
    sample: Sample, server: LocalDiscord
) -> None:
    """People type spaces in Discord's own box (issue 12): quotes are not needed."""
    catalog = sample_catalog(server)

    def options(line: str) -> dict[str, object]:
        return parse_slash(line, catalog).options

    assert options("/paper search query:masked diffusion") == {"query": "masked diffusion"}
    assert options("/paper search query:masked  diffusion   year:2025") == {
        "query": "masked  diffusion",
        "year": 2025,
    }
    assert options("/paper search year:2025 query:diffusion models: a survey") == {
        "query": "diffusion models: a survey",  # `models:` names no option of /paper search
        "year": 2025,
    }
    assert options("/paper search query: masked diffusion") == {"query": "masked diffusion"}
    assert options('/paper search query:"masked diffusion" year:2025') == {
        "query": "masked diffusion",
        "year": 2025,
    }
    assert options("/paper search query:it's a model") == {"query": "it's a model"}
    with pytest.raises(CommandLineError, match=r"^unexpected 'models'"):
        options('/paper search query:"masked diffusion" models')  # a quoted value is whole


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('/paper search query:"masked', r'^unbalanced ": a value that opens with " must close'),
        ("/paper search colour:red", r"has no option colour:; its options are query:, "),
        ("/paper", r"^/paper needs a subcommand: search$"),
        ("/paper find query:x", r"^/paper has no subcommand 'find'; it has: search$"),
        ("/paper search masked diffusion", r"^unexpected 'masked': options are written name:"),
        ("/paper search year:2025", r"^/paper search needs query: \(text\)$"),
        ("/paper search query:x year:last", r"^year: takes a whole number, not 'last'$"),
        ("/paper search query:a query:b", r"^query: is given twice$"),
        ("/paper search query:", r"^query: needs a value \(text\)$"),
        ("/awards history venue:iclr", r"^venue: takes one of icml, neurips, not 'iclr'$"),
        ("/flag on:maybe", r"^on: takes true or false"),
        ("/", r"right after the /"),
    ],
)
async def test_mistakes_are_one_line_and_say_what_to_do(
    sample: Sample, server: LocalDiscord, line: str, message: str
) -> None:
    with pytest.raises(CommandLineError, match=message) as caught:
        parse_slash(line, sample_catalog(server))
    assert "\n" not in str(caught.value)


def test_tokens_keep_where_they_start_and_an_open_quote_when_partial() -> None:
    tokens = tokenize('/paper  search query:"masked dif', partial=True)

    assert [(t.text, t.start, t.open_quote) for t in tokens] == [
        ("/paper", 0, None),
        ("search", 8, None),
        ("query:masked dif", 15, '"'),
    ]


# -- completion --------------------------------------------------------------------------------
def candidates(found: Completion) -> list[str]:
    return found.candidates


async def test_completion_offers_names_from_the_registry_and_values_from_the_bot(
    sample: Sample, server: LocalDiscord
) -> None:
    catalog = sample_catalog(server)
    console = Console(server)
    asked: list[tuple[Invocation, str, str]] = []

    def ask(invocation: Invocation, focused: str, typed: str) -> list[dict[str, Any]]:
        asked.append((invocation, focused, typed))
        return [{"name": "Masked Diffusion Models", "value": "Masked Diffusion Models"}]

    def at(line: str) -> list[str]:
        return candidates(complete(line, catalog, {"locale": ["zh-TW", "zh-CN"]}, ask))

    assert at("/p") == ["/pages ", "/paper "]
    assert at("lo") == ["locale "]
    assert at("locale zh-t") == ["zh-TW "]
    assert at("/paper ") == ["search "]
    assert at("/paper search ") == ["query:", "year:"]
    assert at("/paper search year:2025 q") == ["query:"]
    assert at("/awards history venue:n") == ["venue:neurips "]
    assert at("/flag on:") == ["on:true ", "on:false "]
    assert at("/paper search year:2025 query:mask") == ['query:"Masked Diffusion Models" ']
    assert asked == [(Invocation("paper", ("search",), {"year": 2025}), "query", "mask")]
    found = complete('/paper search query:"masked dif', catalog, {}, ask)
    assert (found.start, found.candidates) == (14, ['query:"Masked Diffusion Models" '])
    assert at("/nothing ") == []
    # The real bot answers autocomplete through the stand-in:
    choices = await console.autocomplete(
        Invocation("paper", ("search",), {"year": 2024}), "query", "ma"
    )
    assert [c["value"] for c in choices] == list(sample.titles)
    assert sample.asked == [("ma", 2024)]


# -- the conversation --------------------------------------------------------------------------
class Keyboard:
    """An input function: hands out `lines`, records the prompts, then reports end of input."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def session(server: LocalDiscord, tmp_path: Path) -> tuple[Console, Display, io.StringIO]:
    out = io.StringIO()
    saver = AttachmentSaver(server.attachment_bytes, tmp_path / "files")
    display = Display(out, out, width=100, saver=saver)
    return Console(server, notify=display.note), display, out


async def test_an_interactive_session_switches_locale_between_answers(
    laurel: LaurelBot, server: LocalDiscord, tmp_path: Path
) -> None:
    console, display, out = session(server, tmp_path)
    keyboard = Keyboard("/about", "locale zh-TW", "/about", "quit", "/never-read")

    code = await Repl(console, display, keyboard).run()

    assert code == 0
    assert keyboard.prompts == [PROMPT] * 4
    text = out.getvalue()
    english, chinese = text.split("locale: zh-TW\n")
    assert COVERAGE.search(english)
    assert "收錄範圍" in chinese
    assert "Coverage" not in chinese
    assert "Traceback" not in text


async def test_mistakes_cost_one_line_each_and_the_session_goes_on(
    laurel: LaurelBot, server: LocalDiscord, tmp_path: Path
) -> None:
    console, display, out = session(server, tmp_path)
    keyboard = Keyboard(
        "/nonexistent",
        "/about venue:icml",
        '/about "x',
        "dance",
        "press Next",
        "locale tlh",
        "/help",
    )

    assert await Repl(console, display, keyboard).run() == 0  # ended by end of input

    lines = out.getvalue().splitlines()
    assert lines[0].startswith("error: unknown command /nonexistent; the bot registered: /about, ")
    assert lines[1:6] == [
        "error: /about has no option venue:; it takes no options",
        'error: unbalanced ": a value that opens with " must close with "',
        "error: unknown 'dance': type a slash command such as /about, or help for the list",
        "error: no button on the messages shown so far",
        lines[5],
    ]
    assert lines[5].startswith("error: unknown locale 'tlh'; Laurel speaks en-US, zh-TW, zh-CN")
    assert lines[6:8] == ["Laurel · Grace used /help", "(only you can see this)"]


async def test_buttons_menus_modals_and_files_through_the_console(
    sample: Sample, server: LocalDiscord, tmp_path: Path
) -> None:
    console, display, out = session(server, tmp_path)
    keyboard = Keyboard(
        "/pages",
        "press next",
        "press Previous",
        "choose Pick a year 2025",
        "/suggest",
        "",  # Title is required: asked again
        "Attention Is All You Need",
        "it started it all",
        "/chart",
        "json on",
        "/awards history venue:neurips",
    )

    assert await Repl(console, display, keyboard).run() == 0

    text = out.getvalue()
    blocks = text.split("\n")
    assert "[ Previous ] (disabled)  [ Next ]" in blocks
    assert "page 2" in blocks
    assert "[ Previous ]  [ Next ]" in blocks
    assert "year y2025" in blocks
    assert "error: Title is required" in blocks
    assert "thanks for 'Attention Is All You Need' (it started it all)" in blocks
    assert "Laurel is thinking…" in blocks
    saved = tmp_path / "files" / "chart.png"
    assert saved.read_bytes() == b"\x89PNG fake"
    assert f"📎 chart.png (9 B, application/octet-stream) saved to\n{saved}\n" in text
    assert "and a note" in blocks
    payload = json.loads(text[text.rindex("json: on\n") + len("json: on\n") :])
    assert payload["content"] == "history of neurips"
    assert payload["flags"] & 64
    assert [p for p in keyboard.prompts if p != PROMPT] == ["  Title: ", "  Title: ", "  Why: "]


async def test_help_shows_how_to_type_each_command_and_user_switches_the_member(
    sample: Sample, server: LocalDiscord, tmp_path: Path
) -> None:
    console, display, out = session(server, tmp_path)
    keyboard = Keyboard("help", "help /paper", "user ada", "user nobody")

    assert await Repl(console, display, keyboard).run() == 0

    lines = out.getvalue().splitlines()
    assert "  /paper search query:<text> [year:<whole number>]" in lines
    assert "  /awards history venue:<one of icml, neurips>" in lines
    suggested = "text; required; the bot suggests values: press Tab"
    assert f"    query:  Words in the title ({suggested})" in lines
    assert "you are ada (members: ada, grace)" in lines
    assert lines[-2].startswith("error: no member 'nobody'; the guild has ada, grace")


async def test_a_bot_that_does_not_answer_in_time_is_reported_in_one_line(
    server: LocalDiscord, bot: Laurel, tmp_path: Path
) -> None:
    never = asyncio.Event()

    @bot.tree.command(name="silent", description="Never answers")
    async def silent(interaction: discord.Interaction) -> None:
        await never.wait()

    server.world.config.interaction_window = 0.05
    async with connected(bot, server):
        await bot.tree.sync()
        console, display, _ = session(server, tmp_path)
        late = r"^/silent: the bot did not answer within 0.05 s"
        with pytest.raises(CommandLineError, match=late):
            await Repl(console, display).execute("/silent")
        never.set()


# -- the command -------------------------------------------------------------------------------
@pytest.fixture
def workdir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty folder as the working directory, the database in it, no outside settings;
    discord.py's process-wide endpoints are put back after."""
    import os

    for name in list(os.environ):
        if name.startswith("LAUREL_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(tmp_path / "laurel.db"))
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(gateway))
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_one_command_makes_the_database_answers_and_exits(
    capsys: pytest.CaptureFixture[str], workdir: Path
) -> None:
    code, out, err = run(capsys, "console", "-c", "/about")

    assert code == 0, err
    assert "│ Laurel " in out
    assert COVERAGE.search(out)
    assert (workdir / "laurel.db").is_file()


def test_json_prints_the_message_the_bot_sent(
    capsys: pytest.CaptureFixture[str], initialized: Path
) -> None:
    code, out, err = run(capsys, "console", "--json", "-c", "/about")

    assert code == 0, err
    message = json.loads(out)
    (embed,) = message["embeds"]
    assert embed["title"] == "Laurel"


def test_the_locale_option_answers_in_traditional_chinese(
    capsys: pytest.CaptureFixture[str], initialized: Path
) -> None:
    code, out, err = run(capsys, "console", "--locale", "zh-tw", "-c", "/about")

    assert code == 0, err
    assert "收錄範圍" in out


def test_an_unknown_command_exits_1_listing_the_commands(
    capsys: pytest.CaptureFixture[str], initialized: Path
) -> None:
    code, _, err = run(capsys, "console", "-c", "/nonexistent")

    assert code == 1
    assert err.startswith("laurel: unknown command /nonexistent; the bot registered: /about, ")
    assert "/help" in err


def test_lines_from_a_pipe_are_a_session_checked_against_the_spec(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    initialized: Path,
    shared_dir: Path,
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("/help\nlocale zh-CN\n/about\n"))
    spec = shared_dir / "discord-api-spec" / "openapi.json"

    code, out, err = run(capsys, "console", "--spec", str(spec))

    assert code == 0, err
    assert err == ""  # no request broke Discord's spec
    assert f"{PROMPT}/help\n" in out
    assert f"{PROMPT}locale zh-CN\nlocale: zh-CN\n" in out
    assert "收录范围" in out


def test_a_second_console_on_the_same_database_is_refused(
    capsys: pytest.CaptureFixture[str], initialized: Path
) -> None:
    from bot.store.lock import InstanceLock

    with InstanceLock(initialized / "laurel.db"):
        code, _, err = run(capsys, "console", "-c", "/about")

    assert code == 1
    assert "another Laurel is already running" in err


@pytest.fixture
def initialized(workdir: Path, template_db: Path) -> Path:
    """The working folder with a database already made, for tests about other things."""
    shutil.copyfile(template_db, workdir / "laurel.db")
    return workdir


def test_curating_from_arxiv_works_offline_on_a_local_arxiv(
    capsys: pytest.CaptureFixture[str], initialized: Path
) -> None:
    code, out, err = run(
        capsys,
        "console",
        "-c",
        "user ada",  # the server's owner, who owns the bot here too: a curator
        "-c",
        "/curate paper add arxiv:2101.00001 venue:ICML year:2025 award:outstanding",
    )

    assert code == 0, err
    assert "arXiv:2101.00001v1" in out  # fetched from the console's own arXiv stand-in
    assert "[ Confirm ]" in out


def test_a_command_mention_reads_as_the_command_it_names() -> None:
    """Answers name commands by mention (issue 25, item 2); the console shows the command."""
    message = {
        "content": "Use </digest post-now:123>.",
        "embeds": [{"description": "</curate undo:5> reverts", "fields": [
            {"name": "Help", "value": "</awards edition:7> — an edition"}]}],
    }  # fmt: skip
    shown = render_message(message, width=60)
    assert "Use /digest post-now." in shown
    assert "/curate undo reverts" in shown
    assert "/awards edition — an edition" in shown
    assert "</" not in shown
