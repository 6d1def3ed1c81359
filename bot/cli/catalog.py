"""`laurel import | export | stats`: the catalogue in and out, and what it covers."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bot.catalog import formats
from bot.cli.common import clock_of, open_database
from bot.domain.models import CatalogBatch, Coverage
from bot.domain.plan import Plan
from bot.errors import LaurelError
from bot.settings import Settings
from bot.store.catalog.coverage import field_coverage
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.links import LinkCoverage, LinkRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository


def register(commands: Any) -> None:
    importing = commands.add_parser("import", help="add a file's awards to the catalogue")
    importing.add_argument("path", type=Path, help="a .toml file or folder, a .csv, or a .yml")
    importing.add_argument("--format", choices=formats.FORMATS, help="default: by file suffix")
    importing.add_argument("--dry-run", action="store_true", help="show what would change")
    importing.add_argument(
        "--strict", action="store_true", help="write nothing if any record is rejected"
    )
    importing.set_defaults(handler=import_file)
    export = commands.add_parser("export", help="write the whole catalogue to a file")
    export.add_argument("path", type=Path, help="a .toml file (or .csv: awards only)")
    export.add_argument("--force", action="store_true", help="write over an existing file")
    export.set_defaults(handler=export_file)
    stats = commands.add_parser("stats", help="what the catalogue covers, per venue and year")
    stats.set_defaults(handler=show_stats)


async def import_file(settings: Settings, args: argparse.Namespace) -> int:
    fmt: formats.Format = args.format or formats.detect(args.path)
    async with await open_database(settings, args, create=False) as db:
        known = await EditionRepository(db).venues()
        batch = formats.read(args.path, fmt, known)
        catalog = CatalogRepository(db, clock_of(args))
        options = {"actor": f"import {args.path.name}", "policy": formats.POLICY[fmt]}
        if args.dry_run or args.strict:
            plan = await _with_progress(batch, catalog, options, dry_run=True)
            if args.dry_run or plan.rejected:
                _report(plan, details=True)
                print("dry run: nothing was written" if args.dry_run else "strict: nothing written")
                return 1 if plan.rejected and args.strict else 0
        plan = await _with_progress(batch, catalog, options, dry_run=False)
    _report(plan, details=False)
    return 0


async def _with_progress(
    batch: CatalogBatch, catalog: CatalogRepository, options: dict[str, Any], *, dry_run: bool
) -> Plan:
    total = len(batch.venues) + len(batch.editions) + len(batch.awards)
    with tqdm(total=total, unit="record", disable=None, file=sys.stderr, leave=False) as bar:
        return await catalog.apply(batch, dry_run=dry_run, progress=bar.update, **options)


def _report(plan: Plan, *, details: bool) -> None:
    for line in (
        plan.details() if details else [f"reject  {r.where}: {r.reason}" for r in plan.rejected]
    ):
        print(line)
    print(plan.summary())


async def export_file(settings: Settings, args: argparse.Namespace) -> int:
    refuse_database_files(args.path, settings.database.sqlite_path)
    async with await open_database(settings, args, create=False) as db:
        batch = await CatalogRepository(db, clock_of(args)).export()
    formats.write(args.path, batch, overwrite=args.force)
    print(
        f"exported {len(batch.venues)} venues, {len(batch.editions)} editions and "
        f"{len(batch.awards)} awards to {args.path}"
    )
    return 0


# The files SQLite and Laurel keep beside the database; writing over any of them breaks it.
DATABASE_FILES = ("", "-wal", "-shm", "-journal", ".lock")


def refuse_database_files(target: Path, database: Path) -> None:
    """Refuse `target` when it names the database or a file beside it that belongs to it: by
    any path, through symlinks (even dangling ones, to a -journal not made yet), or by a hard
    link. --force does not change this."""
    real = Path(os.path.realpath(target))
    for suffix in DATABASE_FILES:
        own = Path(f"{database}{suffix}")
        same = real == Path(os.path.realpath(own))
        if same or (own.exists() and real.exists() and os.path.samefile(real, own)):
            raise LaurelError(
                f"{target} is the database's own file {own}: export to a file of its "
                "own, such as catalog.toml"
            )


async def show_stats(settings: Settings, args: argparse.Namespace) -> int:
    async with await open_database(settings, args, create=False) as db:
        coverage = await EditionRepository(db).coverage()
        papers = await PaperRepository(db).count()
        links = await LinkRepository(db).coverage()
        fields = await field_coverage(db)
    print(render_coverage(coverage, papers))
    print(render_links(links))
    print("\n".join(["coverage per field:", *fields.lines()]))
    return 0


def render_links(links: LinkCoverage, *, listed: int | None = None) -> str:
    """Papers with an arXiv id and with any link, then those with none (the first `listed`)."""
    lines = [
        f"links: {links.with_arxiv} of {links.papers} papers have an arXiv id, "
        f"{links.with_link} ({links.share:.1%}) have a link, {len(links.linkless)} have none"
    ]
    shown = links.linkless if listed is None else links.linkless[:listed]
    lines += [f"  no link: #{p.paper_id} {p.venue} {p.year} “{p.title}”" for p in shown]
    if len(shown) < len(links.linkless):
        lines.append(f"  … and {len(links.linkless) - len(shown)} more (laurel stats lists all)")
    return "\n".join(lines)


def render_coverage(coverage: list[Coverage], papers: int) -> str:
    """One line per edition, newest first within each venue, then the totals."""
    lines = [f"{'venue':<10} {'year':>4} {'awards':>6} {'papers':>6} {'submitted':>9} "
             f"{'accepted':>8} {'rate':>6}"]  # fmt: skip
    for c in sorted(coverage, key=lambda c: (c.venue_name.casefold(), -c.year)):
        rate = f"{c.accepted / c.submissions:.1%}" if c.submissions and c.accepted else ""
        lines.append(
            f"{c.venue_name:<10} {c.year:>4} {c.awards:>6} {c.papers:>6} "
            f"{_n(c.submissions):>9} {_n(c.accepted):>8} {rate:>6}"
        )
    venues = len({c.venue for c in coverage})
    awards = sum(c.awards for c in coverage)
    lines.append(f"{venues} venues, {len(coverage)} editions, {papers} papers, {awards} awards")
    return "\n".join(lines)


def _n(value: int | None) -> str:
    return "" if value is None else f"{value:,}"
