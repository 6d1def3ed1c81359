"""Rows that answer like `sqlite3.Row`: `row[0]`, `row["name"]`, `keys()`, iteration."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar, SupportsIndex, overload

from psycopg._cursor_base import BaseCursor
from psycopg.rows import RowMaker


class Row(tuple[Any, ...]):
    """A tuple that also answers by column name (case-insensitively, as `sqlite3.Row` does).

    Each shape of result gets a subclass holding its names once (`_shape`), so a row costs
    what a tuple costs."""

    __slots__ = ()
    _names: ClassVar[tuple[str, ...]] = ()
    _index: ClassVar[dict[str, int]] = {}

    @overload
    def __getitem__(self, key: SupportsIndex | str, /) -> Any: ...
    @overload
    def __getitem__(self, key: slice, /) -> tuple[Any, ...]: ...
    def __getitem__(self, key: SupportsIndex | str | slice, /) -> Any:
        if isinstance(key, str):
            try:
                position = self._index[key]
            except KeyError:
                try:
                    position = self._index[key.lower()]
                except KeyError:
                    raise IndexError(f"no such column: {key}") from None
            return tuple.__getitem__(self, position)
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


@lru_cache(maxsize=1024)
def _shape(names: tuple[str, ...]) -> type[Row]:
    index: dict[str, int] = {}
    for position, name in enumerate(names):
        index.setdefault(name, position)  # the first of two same-named columns, as SQLite
        index.setdefault(name.lower(), position)
    return type("Row", (Row,), {"__slots__": (), "_names": names, "_index": index})


def row_factory(cursor: BaseCursor[Any, Any]) -> RowMaker[Row]:
    """psycopg's row factory for `Row`s."""
    description = cursor.description
    if description is None:
        return _no_rows
    return _shape(tuple(column.name for column in description))


def _no_rows(values: Sequence[Any]) -> Row:
    return Row(values)
