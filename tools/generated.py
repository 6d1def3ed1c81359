"""A generated table's last step, shared by its generators (tools.han_scripts, tools.glossary):
write it, or with `--check` compare it with the committed file and say to rerun."""

from __future__ import annotations

import sys
from pathlib import Path


def write_or_check(table: Path, text: str, *, check: bool) -> int:
    """Write `text` to `table`; or, `check`, 1 (and a line on stderr) if it differs, else 0."""
    if check:
        if table.read_text("utf-8") != text:
            print(f"{table} is not what the generator gives: rerun it", file=sys.stderr)
            return 1
        return 0
    table.write_text(text, "utf-8")
    return 0
