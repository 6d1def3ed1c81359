"""A Discord message as terminal text: a pure function of the message JSON the stand-in stores.

Embeds become panels drawn with box characters, fitted to a width counted in terminal columns
(see console_text), so Chinese text wraps where it should. Markdown is kept as written, but
a command mention (`</digest post-now:123>`) reads as the command it names. Colours
(bold, dim, the embed's colour on its frame) only when asked for, which the console does only
when it writes to a terminal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from laurel_console.localdiscord.console_text import pad, text_width, wrap

EPHEMERAL, LOADING = 1 << 6, 1 << 7
_COMMAND_MENTION = re.compile(r"</([^:<>]+):\d+>")
BUTTON, STRING_SELECT, TEXT_INPUT = 2, 3, 4
SELECT_KINDS = {3: "", 5: "user", 6: "role", 7: "user or role", 8: "channel"}
LINK, PREMIUM = 5, 6
BUTTON_COLOURS = {1: (88, 101, 242), 3: (36, 128, 70), 4: (218, 55, 60)}


# -- styles ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Style:
    colour: bool = False

    def _sgr(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour and text else text

    def bold(self, text: str) -> str:
        return self._sgr(text, "1")

    def dim(self, text: str) -> str:
        return self._sgr(text, "2")

    def rgb(self, text: str, colour: tuple[int, int, int] | None) -> str:
        return text if colour is None else self._sgr(text, "38;2;{};{};{}".format(*colour))

    def apply(self, text: str, name: str) -> str:
        return self.bold(text) if name == "bold" else self.dim(text) if name == "dim" else text


@dataclass(frozen=True)
class Row:
    """One line inside a panel: text and a style name, or a divider when text is None."""

    text: str | None
    style: str = ""


def panel(rows: Sequence[Row], width: int, style: Style, colour: int | None = None) -> list[str]:
    inner = max(1, width - 4)
    rgb = None if colour is None else (colour >> 16 & 255, colour >> 8 & 255, colour & 255)

    def edge(text: str) -> str:
        return style.rgb(text, rgb)

    lines = [edge("┌" + "─" * (inner + 2) + "┐")]
    for row in rows:
        if row.text is None:
            lines.append(edge("├" + "─" * (inner + 2) + "┤"))
        else:
            lines.append(edge("│ ") + style.apply(pad(row.text, inner), row.style) + edge(" │"))
    lines.append(edge("└" + "─" * (inner + 2) + "┘"))
    return lines


def _rows(text: str, width: int, style: str = "") -> list[Row]:
    return [Row(line, style) for line in wrap(text, width)]


# -- embeds ------------------------------------------------------------------------------------
def embed_rows(embed: Mapping[str, Any], inner: int) -> list[Row]:
    sections: list[list[Row]] = []
    head: list[Row] = []
    if author := (embed.get("author") or {}).get("name"):
        head += _rows(author, inner)
    if title := embed.get("title"):
        head += _rows(title, inner, "bold")
    if url := embed.get("url"):
        head += _rows("↗ " + url, inner, "dim")
    if head:
        sections.append(head)
    if description := embed.get("description"):
        sections.append(_rows(description, inner))
    for item in embed.get("fields") or []:
        sections.append(_rows(item["name"], inner, "bold") + _rows(item["value"], inner))
    for key in ("image", "thumbnail", "video"):
        if media := (embed.get(key) or {}).get("url"):
            sections.append(_rows(f"🖼 {key}: {media}", inner, "dim"))
    rows = [row for i, section in enumerate(sections) for row in ([Row("")] if i else []) + section]
    footer = [(embed.get("footer") or {}).get("text"), embed.get("timestamp")]
    if any(footer):
        rows += [Row(None), *_rows(" · ".join(f for f in footer if f), inner, "dim")]
    return rows or [Row("(an empty embed)", "dim")]


# -- components --------------------------------------------------------------------------------
def _button_label(button: Mapping[str, Any]) -> str:
    emoji = (button.get("emoji") or {}).get("name")
    label = " ".join(p for p in (emoji, button.get("label")) if p)
    if button.get("style") == PREMIUM:
        label = label or f"premium {button.get('sku_id', '')}".strip()
    return label + (" ↗" if button.get("style") == LINK else "")


def button_chip(button: Mapping[str, Any], style: Style) -> tuple[str, str]:
    """(plain text, styled text) of a button: `[ Label ]`, marked when disabled or a link."""
    chip = f"[ {_button_label(button)} ]"
    styled = style.rgb(chip, BUTTON_COLOURS.get(int(button.get("style") or 2)))
    notes = " (disabled)" if button.get("disabled") else ""
    if button.get("style") == LINK and button.get("url"):
        notes += " " + str(button["url"])
    return chip + notes, styled + style.dim(notes)


def _button_rows(buttons: Sequence[Mapping[str, Any]], width: int, style: Style) -> list[str]:
    """Chips side by side, as many as fit; a chip wider than the line stands alone."""
    lines: list[str] = []
    plain, styled = "", ""
    for button in buttons:
        chip, shown = button_chip(button, style)
        if plain and text_width(plain + "  " + chip) > width:
            lines.append(styled)
            plain, styled = "", ""
        plain, styled = (plain + "  " + chip, styled + "  " + shown) if plain else (chip, shown)
    return [*lines, styled] if plain else lines


def select_lines(select: Mapping[str, Any], width: int, style: Style) -> list[str]:
    kind = SELECT_KINDS.get(int(select["type"]), "")
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    picks = f"pick {low}" if low == high else f"pick {low}–{high}"
    what = f"{picks} {kind}".strip() + (", disabled" if select.get("disabled") else "")
    placeholder = select.get("placeholder") or "Make a selection"
    lines = [f"▾ {style.bold(placeholder)} {style.dim(f'({what})')}"]
    for option in select.get("options") or []:
        text = f"{(option.get('emoji') or {}).get('name', '')} {option['label']}".strip()
        if description := option.get("description"):
            text += f" — {description}"
        if option["value"] != option["label"]:
            text += f"  [{option['value']}]"
        if option.get("default"):
            text += "  ✓"
        lines += [
            "    • " + line if i == 0 else "      " + line
            for i, line in enumerate(wrap(text, width - 6))
        ]
    return lines


def component_lines(components: Sequence[Mapping[str, Any]], width: int, style: Style) -> list[str]:
    lines: list[str] = []
    for component in components:
        kind = int(component["type"])
        children = component.get("components") or []
        if kind == 1:
            buttons = [c for c in children if c["type"] == BUTTON]
            lines += _button_rows(buttons, width, style)
            lines += component_lines([c for c in children if c["type"] != BUTTON], width, style)
        elif kind == BUTTON:
            lines += _button_rows([component], width, style)
        elif kind in SELECT_KINDS:
            lines += select_lines(component, width, style)
        elif kind == 9:  # section: text beside an accessory
            lines += component_lines(children, width, style)
            if accessory := component.get("accessory"):
                lines += component_lines([accessory], width, style)
        elif kind == 10:
            lines += wrap(str(component.get("content", "")), width)
        elif kind in (11, 13):  # thumbnail, file
            media = component.get("media") or component.get("file") or {}
            lines.append(style.dim(f"{'🖼' if kind == 11 else '📎'} {media.get('url', '')}"))
        elif kind == 12:
            for item in component.get("items") or []:
                lines.append(style.dim(f"🖼 {(item.get('media') or {}).get('url', '')}"))
        elif kind == 14:
            lines.append(style.dim("─" * width) if component.get("divider", True) else "")
        elif kind == 17:
            inner = component_lines(children, width - 4, Style())
            colour = component.get("accent_color")
            lines += panel([Row(line) for line in inner], width, style, colour)
        else:
            lines.append(style.dim(f"(a component of type {kind})"))
    return lines


# -- attachments and messages ------------------------------------------------------------------
def size_text(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / 1024 / 1024:.1f} MB"


def attachment_line(attachment: Mapping[str, Any], saved: Path | None) -> str:
    facts = [size_text(int(attachment.get("size", 0)))]
    if content_type := attachment.get("content_type"):
        facts.append(str(content_type))
    where = f"saved to {saved}" if saved is not None else str(attachment.get("url", ""))
    line = f"📎 {attachment['filename']} ({', '.join(facts)}) {where}"
    if description := attachment.get("description"):
        line += f" — {description}"
    return line


def header(message: Mapping[str, Any], style: Style) -> str:
    author = (message.get("author") or {}).get("username", "?")
    meta = message.get("interaction_metadata") or {}
    notes = []
    if meta.get("name"):
        user = meta.get("user") or {}
        notes.append(f"{user.get('global_name') or user.get('username', '?')} used /{meta['name']}")
    if message.get("edited_timestamp"):
        notes.append("edited")
    return style.bold(author) + (style.dim(" · " + " · ".join(notes)) if notes else "")


def render_message(
    message: Mapping[str, Any],
    *,
    width: int = 80,
    saved: Mapping[str, Path] | None = None,
    colour: bool = False,
) -> str:
    """The message as lines of at most `width` columns; `saved` maps attachment ids to the
    files they were written to."""
    style = Style(colour)
    flags = int(message.get("flags") or 0)
    lines = [header(message, style)]
    if flags & EPHEMERAL:
        lines.append(style.dim("(only you can see this)"))
    if flags & LOADING:
        lines.append(style.dim("Laurel is thinking…"))
    if content := message.get("content"):
        lines += wrap(_commands(content), width)
    for embed in message.get("embeds") or []:
        shown = {**embed, "description": _commands(embed.get("description") or "") or None}
        shown["fields"] = [
            {**f, "value": _commands(f.get("value") or "")} for f in embed.get("fields") or []
        ]
        lines += panel(embed_rows(shown, width - 4), width, style, embed.get("color"))
    lines += component_lines(message.get("components") or [], width, style)
    for attachment in message.get("attachments") or []:
        path = (saved or {}).get(str(attachment["id"]))
        lines += wrap(attachment_line(attachment, path), width)
    return "\n".join(lines)


def _commands(text: str) -> str:
    """`</digest post-now:123>` as a client shows it: `/digest post-now` (the console speaks
    the commands' own names)."""
    return _COMMAND_MENTION.sub(r"/\1", text)


# -- modals ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ModalField:
    custom_id: str
    label: str
    kind: int  # 4 a text input; otherwise a select menu
    required: bool
    paragraph: bool = False
    min_length: int | None = None
    max_length: int | None = None
    placeholder: str | None = None
    value: str | None = None  # prefilled text
    options: tuple[tuple[str, str], ...] = ()  # (label, value) of a string select
    max_values: int = 1

    @property
    def hint(self) -> str:
        facts = ["required" if self.required else "optional"]
        if self.paragraph:
            facts.append("paragraph; \\n for a new line")
        if self.max_length is not None:
            facts.append(f"{self.min_length or 0}–{self.max_length} characters")
        if self.options:
            many = f", up to {self.max_values}, comma-separated" if self.max_values > 1 else ""
            facts.append("one of " + ", ".join(label for label, _ in self.options) + many)
        return ", ".join(facts)


def _field(item: Mapping[str, Any], label: str | None = None) -> ModalField | None:
    if "custom_id" not in item:
        return None
    kind = int(item["type"])
    return ModalField(
        custom_id=str(item["custom_id"]),
        label=label or str(item.get("label") or item.get("placeholder") or item["custom_id"]),
        kind=kind,
        required=bool(item.get("required", kind == TEXT_INPUT or item.get("min_values", 1) > 0)),
        paragraph=item.get("style") == 2,
        min_length=item.get("min_length"),
        max_length=item.get("max_length"),
        placeholder=item.get("placeholder"),
        value=item.get("value"),
        options=tuple((o["label"], o["value"]) for o in item.get("options") or []),
        max_values=int(item.get("max_values", 1)),
    )


def modal_fields(modal: Mapping[str, Any]) -> list[ModalField]:
    """The fields of a modal, old style (action rows of text inputs) or new (labels)."""
    fields = []
    for top in modal.get("components") or []:
        if top["type"] == 1:
            fields += [f for c in top.get("components") or [] if (f := _field(c))]
        elif top["type"] == 18 and (f := _field(top["component"], top.get("label"))):
            fields.append(f)
    return fields


def render_modal(modal: Mapping[str, Any], *, width: int = 80, colour: bool = False) -> str:
    style = Style(colour)
    rows = _rows(str(modal.get("title", "")), width - 4, "bold")
    for top in modal.get("components") or []:
        if top["type"] == 10:
            rows += [Row(""), *_rows(str(top.get("content", "")), width - 4)]
    for item in modal_fields(modal):
        rows += [Row(""), *_rows(item.label, width - 4), *_rows(item.hint, width - 4, "dim")]
    return "\n".join(panel(rows, width, style))
