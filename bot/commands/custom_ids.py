"""The one place where numbers in a component's custom_id are matched and read.

A custom_id comes back from Discord as the client sent it, so anyone can forge one. A number
past SQLite's largest integer (2^63 - 1) would reach the store as an OverflowError; the pattern
below only matches numbers up to that bound, so a forged id matches no item at all and gets the
answer every unknown component gets (bot.commands.components).
"""

from __future__ import annotations

# SQLite's largest integer: every row id and every Discord snowflake fits below it.
MAX_ID = 2**63 - 1


def at_most(bound: int) -> str:
    """A regex (no groups) matching the decimal numbers 0..`bound`, without leading zeros."""
    digits = str(bound)
    shorter = f"[1-9][0-9]{{0,{len(digits) - 2}}}" if len(digits) > 1 else ""
    same_length = []
    for i, digit in enumerate(digits):
        low = "1" if i == 0 else "0"
        if int(digit) > int(low):
            rest = len(digits) - i - 1
            same_length.append(f"{digits[:i]}[{low}-{int(digit) - 1}][0-9]{{{rest}}}")
    same_length.append(digits)
    return "(?:" + "|".join(["0", *filter(None, [shorter]), *same_length]) + ")"


# A custom_id's id: a row id or a snowflake, never past MAX_ID.
ID = at_most(MAX_ID)


def parse_id(text: str) -> int:
    """The number `ID` matched (the pattern has bounded it already; checked again here)."""
    value = int(text)
    if not 0 <= value <= MAX_ID:
        raise ValueError(f"{text!r} is not an id")
    return value
