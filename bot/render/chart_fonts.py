"""Which installed font can draw the Chinese text of a chart.

matplotlib's default font (DejaVu Sans) has no CJK glyphs: Chinese labels drawn with it come
out as empty boxes. So a chart is labelled in the reader's language only where a CJK font is
installed (the Dockerfile installs fonts-noto-cjk), and in English elsewhere.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

# Families that cover both Traditional and Simplified Chinese, best first.
_PREFERRED = (
    "Noto Sans CJK TC",
    "Noto Sans CJK SC",
    "Noto Sans CJK JP",
    "Noto Sans TC",
    "Noto Sans SC",
    "Source Han Sans TC",
    "Source Han Sans SC",
    "Source Han Sans",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Droid Sans Fallback",
)


def find_cjk_family() -> str | None:
    """The first installed font family of `_PREFERRED`, as matplotlib sees the fonts."""
    from matplotlib import font_manager

    installed = {entry.name for entry in font_manager.fontManager.ttflist}
    return next((family for family in _PREFERRED if family in installed), None)


class ChartFonts:
    """The CJK family for charts, looked up once, off the event loop, when first asked.

    Looking up imports matplotlib's font manager (and may build its cache): not at start-up.
    """

    def __init__(self, finder: Callable[[], str | None] = find_cjk_family) -> None:
        self._finder = finder
        self._looked = False
        self._family: str | None = None

    async def cjk_family(self) -> str | None:
        if not self._looked:
            self._family = await asyncio.to_thread(self._finder)
            self._looked = True
        return self._family
