"""Leaderboards of awarded papers: who is credited with them, and how much."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class InstitutionCredit:
    """An institution's share of awarded papers: each paper's 1 split among its institutions."""

    name: str
    credit: float
    papers: int


@dataclass(frozen=True, slots=True)
class AuthorAwards:
    name: str
    papers: int
    awards: int


@dataclass(frozen=True, slots=True)
class Leaderboard(Generic[T]):
    """The top `entries`, out of `ranked` in all, over `papers` awarded papers in scope.

    For institutions `papers` counts each paper once per edition that awarded it, and only
    papers with affiliations: the credits of all `ranked` institutions add up to it. `in_scope`
    counts the same way every awarded paper in scope, with affiliations or not: a board that
    rests on part of them says so ("from 49 of 869 papers").
    """

    entries: tuple[T, ...]
    ranked: int
    papers: int
    in_scope: int | None = None
