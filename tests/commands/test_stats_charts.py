from __future__ import annotations

from bot.commands.stats import ChartCache


async def test_chart_cache_draws_once_per_data_and_forgets_the_oldest() -> None:
    drawn: list[tuple[object, ...]] = []

    def chart(*args: object) -> bytes:
        drawn.append(args)
        return repr(args).encode()

    cache = ChartCache(size=2)
    assert await cache.draw(chart, "a", (1, 2)) == b"('a', (1, 2))"
    assert await cache.draw(chart, "a", (1, 2)) == b"('a', (1, 2))"
    await cache.draw(chart, "b")
    await cache.draw(chart, "c")  # drops "a", the least recently used
    await cache.draw(chart, "a", (1, 2))
    assert drawn == [("a", (1, 2)), ("b",), ("c",), ("a", (1, 2))]
