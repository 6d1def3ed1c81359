"""Mutation testing of the code where a silent regression hurts users (issue 16), with mutmut.

    python -m tools.mutation                      every module below, within the time budget
    python -m tools.mutation --module ledger      one module (repeat --module for more)
    python -m tools.mutation --changed            the modules whose code or tests changed
    python -m tools.mutation --report             the table from the last runs, running nothing

Each module runs in a workspace of its own, `.mutation/<module>/` (links to bot/, tests/ and
data/, and a pyproject.toml whose [tool.mutmut] names only that module's files and the tests
that cover it), so a run collects coverage from those tests alone and mutmut's own bookkeeping
(which test covers which function, what was already killed) carries over from run to run: a
second run tests only the functions that changed. The process lowers its own priority (nice 10)
and runs at most two mutants at once: the machine is shared. Not part of .ci/run.

Survivors that no test can kill are listed, each with its reason, under "Equivalent mutants" in
docs/mutation.md; the table counts them apart, and the score is killed / (mutants - equivalent).
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import tomli_w

ROOT = Path(__file__).resolve().parents[1]
WORKSPACES = ROOT / ".mutation"
REPORT = ROOT / "docs" / "mutation.md"
SHARED = ROOT.parent / "shared"
LINKED = ("bot", "tests", "data")
COPIED = ("data", "config.example.toml", "README.md", "Dockerfile")  # what tests read besides
# bot/_data links to data/ (the bundled catalogue inside the package); mutmut copies only the
# Python files of bot/, so without this the mutated package has no catalogue to load.
PACKAGE_DATA = ("bot/_data",)
# Log lines say what happened; a mutant that changes only a log message is not worth a test.
NOT_MUTATED = [r"^\s*(log|logger)\.(debug|info|warning|error|exception|critical)\("]
# mutmut's exit codes, as its `mutmut results` reads them.
KILLED, SURVIVED = {1, 3, 37}, {0}
TIMEOUT = {36, 24, -24, 152, 255}
NO_TESTS = {5, 33}


@dataclass(frozen=True)
class Module:
    name: str
    sources: tuple[str, ...]
    tests: tuple[str, ...]
    # Globs of mutant names (bot.render.awards.x_escape__mutmut_*) when only some functions of
    # the sources matter; every function otherwise.
    functions: tuple[str, ...] = ()
    # When only some lines of those functions matter: a pattern a line the mutant changes must
    # match to be counted (the others run, but are someone else's business).
    touching: str = ""


DIGEST_TESTS = ("tests/digests", "tests/reliability/test_digest_store.py")
WRITE_TESTS = (
    "tests/store/test_catalog_writer.py",
    "tests/store/test_catalog_edits.py",
    "tests/store/test_audit.py",
    "tests/store/test_paper_fields.py",
    "tests/store/test_catalog_clock.py",
    "tests/catalog/test_curate_fuzz.py",
    "tests/catalog/test_import_end_to_end.py",
    "tests/catalog/test_bundled.py",
)
# In the order of what matters most: a run out of time has done these first.
MODULES = (
    Module(
        "mentions",
        ("bot/app.py",),
        ("tests/e2e/test_mentions.py",),
        ("bot.app.x__client_options__*",),
        touching=r"allowed_mentions|AllowedMentions",
    ),
    Module(
        "curate_access",
        ("bot/commands/curate/access.py",),
        (
            "tests/commands/test_curate_access.py",
            "tests/e2e/test_curate_refusals.py",
            "tests/e2e/test_curate.py",
            "tests/e2e/test_curate_papers.py",  # an award's year, bounded (check_year)
        ),
    ),
    Module("ledger", ("bot/store/ledger.py",), ("tests/store/test_ledger.py", *DIGEST_TESTS)),
    Module("redact", ("bot/observability/redact.py",), ("tests/ops/test_redaction.py",)),
    Module(
        "settings",
        ("bot/settings.py",),
        (
            "tests/test_settings.py",
            "tests/ops/test_redaction.py",
            "tests/catalog/test_nesting.py",
            "tests/test_database_url.py",  # the PostgreSQL URL's password kept out of logs
        ),
    ),
    Module(
        "escaping",
        ("bot/render/markdown.py", "bot/render/awards.py", "bot/render/paper.py"),
        ("tests/render",),
        (
            "bot.render.markdown.*",
            "bot.render.awards.x_escape__*",
            "bot.render.paper.x_link__*",
        ),
    ),
    Module(
        "search",
        ("bot/store/search/text.py",),
        (
            "tests/store/test_search.py",
            "tests/store/test_search_index.py",
            # Issue 27's ranking (vocabulary, acronyms, stems, one edit, CJK words) is pinned here.
            "tests/store/test_search_ranking.py",
            "tests/store/test_search_input.py",
            "tests/store/test_search_autocomplete.py",
            "tests/store/test_search_text.py",
        ),
    ),
    Module("periods", ("bot/digests/periods.py",), ("tests/digests",)),
    Module(
        "delivery",
        ("bot/digests/delivery.py",),
        (
            *DIGEST_TESTS,
            "tests/e2e/test_digest_delivery.py",
            "tests/e2e/test_digest_deliverer.py",
            "tests/e2e/test_mentions.py",
        ),
    ),
    Module("reconciler", ("bot/digests/reconciler.py",), DIGEST_TESTS),
    Module("audit", ("bot/store/catalog/audit.py",), WRITE_TESTS),
    Module("catalog_edits", ("bot/store/catalog/edits.py",), WRITE_TESTS),
    Module(
        "backups",
        ("bot/backups.py", "bot/store/backup_files.py"),
        (
            "tests/ops/test_backups.py",
            "tests/ops/test_restore.py",
            "tests/ops/test_backups_postgresql.py",  # no job on PostgreSQL (schedule_backups)
        ),
    ),
    Module(
        "catalog_writer",
        (
            "bot/store/catalog/writer.py",
            "bot/store/catalog/record_writer.py",
            "bot/domain/catalog_merge.py",
        ),
        (*WRITE_TESTS, "tests/domain/test_catalog_merge.py"),  # the merge rules, pure
    ),
)
BY_NAME = {m.name: m for m in MODULES}


# -- workspaces --------------------------------------------------------------------------------
def workspace(module: Module) -> Path:
    """`.mutation/<module>/`, (re)made: links to the code, and mutmut's settings for it."""
    place = WORKSPACES / module.name
    place.mkdir(parents=True, exist_ok=True)
    for name in {*LINKED, *COPIED}:
        link = place / name
        if not link.is_symlink():
            link.symlink_to(ROOT / name, target_is_directory=(ROOT / name).is_dir())
    # Tests find ../shared beside the checkout (tests/support/shared_dir.py): beside the copy, here.
    shared = place / "shared"
    if SHARED.is_dir() and not shared.is_symlink():
        shared.symlink_to(SHARED, target_is_directory=True)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project.setdefault("tool", {})["mutmut"] = {
        "source_paths": ["bot"],
        "only_mutate": list(module.sources),
        "also_copy": [*COPIED, *PACKAGE_DATA],
        "pytest_add_cli_args_test_selection": list(module.tests),
        "pytest_add_cli_args": ["-p", "no:cacheprovider"],
        "do_not_mutate_patterns": NOT_MUTATED,
    }
    settings = tomli_w.dumps(project)
    target = place / "pyproject.toml"
    if not target.exists() or target.read_text(encoding="utf-8") != settings:
        target.write_text(settings, encoding="utf-8")
    refresh_unmutated(place, module)
    return place


def refresh_unmutated(place: Path, module: Module) -> None:
    """mutmut copies the package once; bring the files it does not mutate up to date, so a
    change elsewhere in bot/ is what the mutants run against."""
    copied = place / "mutants"
    if not copied.is_dir():
        return
    for source in (ROOT / "bot").rglob("*.py"):
        relative = source.relative_to(ROOT)
        if str(relative) in module.sources:
            continue
        target = copied / relative
        if not target.exists() or target.read_bytes() != source.read_bytes():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())


def mutmut() -> str:
    """mutmut's own script (`python -m mutmut` runs its module twice, which it warns about)."""
    beside = Path(sys.executable).parent / "mutmut"
    found = str(beside) if beside.is_file() else shutil.which("mutmut")
    if found is None:
        raise SystemExit("mutmut is not installed: pip install -e '.[mutation]'")
    return found


def run_module(module: Module, *, children: int, deadline: float, retest: bool = False) -> bool:
    """One mutmut run for `module`, stopped (as Ctrl-C stops it: results kept) at the
    deadline. True if it finished. mutmut runs again only what changed since its last run;
    with `retest`, the survivors too (after new tests), and those a run out of time left."""
    place = workspace(module)
    survivors = score(module, equivalents())[1] if retest else []
    if retest:  # a survivor is named to be run again; one not run yet must be named too
        survivors += [name for name, code in results(module).items() if code is None]
    if retest and not survivors:
        return True
    chosen = survivors or list(module.functions)
    if not survivors and module.touching and results(module) and _mutated_after_edit(module):
        # Named mutants are run again whatever their result: once the mutants exist, only
        # those that count (mentions: the line of _client_options that sets allowed_mentions).
        chosen = sorted(results(module))
    command = [mutmut(), "run", "--max-children", str(children), *chosen]
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return False
    print(f"== {module.name}: mutmut in {place.relative_to(ROOT)} ({remaining / 60:.0f} min left)")
    # A session of its own: mutmut and its workers are stopped together, and nothing else.
    # Ctrl-C is theirs again even when this runs in the background (where a shell ignores it).
    with subprocess.Popen(
        command, cwd=place, start_new_session=True, preexec_fn=_hear_ctrl_c
    ) as process:
        try:
            process.wait(timeout=remaining)
        except subprocess.TimeoutExpired:
            print(f"== {module.name}: out of time; the next run goes on from here")
            stop(process)
            return False
    return process.returncode == 0


def _mutated_after_edit(module: Module) -> bool:
    """Whether mutmut's mutated copies are newer than the module's sources: the mutant names it
    keeps still name the same mutations (an edit renumbers them)."""
    place = WORKSPACES / module.name / "mutants"
    return all(
        (place / s).is_file() and (place / s).stat().st_mtime >= (ROOT / s).stat().st_mtime
        for s in module.sources
    )


def _hear_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stop(process: subprocess.Popen[bytes]) -> None:
    """Ctrl-C for mutmut's session (it stops its workers and keeps its results); should it not
    stop within the grace period, its session is killed. Each result is saved as it comes, so
    what finished is kept; the mutants in flight are run again next time."""
    for sig, grace in ((signal.SIGINT, 30.0), (signal.SIGKILL, 10.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


# -- results -----------------------------------------------------------------------------------
@dataclass
class Score:
    mutants: int = 0
    killed: int = 0
    survived: int = 0
    equivalent: int = 0
    sql_case: int = 0
    timeout: int = 0
    no_tests: int = 0
    unchecked: int = 0

    @property
    def percent(self) -> float | None:
        counted = self.mutants - self.equivalent - self.sql_case - self.unchecked
        return None if counted <= 0 else 100 * (self.killed + self.timeout) / counted


def results(module: Module) -> dict[str, int | None]:
    """Mutant name -> mutmut's exit code (None: not run yet), for the module's mutants."""
    found: dict[str, int | None] = {}
    for source in module.sources:
        meta = WORKSPACES / module.name / "mutants" / f"{source}.meta"
        if meta.is_file():
            found.update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    if module.functions:
        found = {
            k: v for k, v in found.items() if any(fnmatch.fnmatch(k, g) for g in module.functions)
        }
    if module.touching:
        chosen = touching(module, found)
        found = {k: v for k, v in found.items() if k in chosen}
    return found


def touching(module: Module, names: Iterable[str]) -> set[str]:
    """The mutants among `names` that change a line matching `module.touching`."""
    pattern = re.compile(module.touching)
    bodies: dict[str, list[str]] = {}
    for source in module.sources:
        mutated = WORKSPACES / module.name / "mutants" / source
        if not mutated.is_file():
            continue
        text = mutated.read_text(encoding="utf-8")
        lines = text.splitlines()  # once: ast.get_source_segment splits the file every call
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                segment = lines[node.lineno : node.end_lineno or node.lineno]
                bodies[node.name] = [line.strip() for line in segment]
    chosen = set()
    for name in names:
        short = name.rsplit(".", 1)[-1]
        original = bodies.get(short.rsplit("__mutmut_", 1)[0] + "__mutmut_orig")
        mutant = bodies.get(short)
        if original is None or mutant is None:
            continue
        if any(pattern.search(line) for line in set(original) - set(mutant)):
            chosen.add(name)
    return chosen


SQL_START = re.compile(
    r"\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|PRAGMA|SAVEPOINT|ROLLBACK|RELEASE)\b|\s*\w+ = \?",
    re.I,
)


def _sql_same(old: str, new: str) -> bool:
    """The same SQL statement: SQLite reads keywords and names in any case, but not the text
    between single quotes."""
    if old == new or not SQL_START.match(old):
        return False
    before, after = old.split("'"), new.split("'")
    return len(before) == len(after) and all(
        a == b if i % 2 else a.lower() == b.lower()
        for i, (a, b) in enumerate(zip(before, after, strict=True))
    )


ROW_NAMES = {"row", "r"}  # what bot/store calls a sqlite3.Row, whose keys ignore case


def _strings_apart(function: ast.AST) -> tuple[str, list[tuple[str, bool]]]:
    """The function's shape with its strings blanked, and its strings in order, each with
    whether it is a key into a sqlite3.Row (`row["id"]`)."""
    row_keys = {
        id(node.slice)
        for node in ast.walk(function)
        if isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id in ROW_NAMES
    }
    found = [
        (node.value, id(node) in row_keys)
        for node in ast.walk(function)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]
    blank = ast.parse(ast.unparse(function))
    for node in ast.walk(blank):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.name = ""
    return ast.dump(blank), found


def _same_to_sqlite(old: tuple[str, bool], new: tuple[str, bool]) -> bool:
    (before, row_key), (after, _) = old, new
    if row_key:
        return before != after and before.lower() == after.lower()
    return _sql_same(before, after)


def sql_case_mutants(module: Module, names: Iterable[str]) -> set[str]:
    """Mutants that only change the case of SQL, or of a column name read from a row, in
    bot/store: the same to SQLite, and to PostgreSQL (unquoted names fold to lower case; its
    rows answer column names in any case; no measured module double-quotes a name)."""
    chosen: set[str] = set()
    for source in module.sources:
        if not source.startswith("bot/store/"):
            continue
        mutated = WORKSPACES / module.name / "mutants" / source
        if not mutated.is_file():
            continue
        functions = {
            node.name: node
            for node in ast.walk(ast.parse(mutated.read_text(encoding="utf-8")))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        for name in names:
            short = name.rsplit(".", 1)[-1]
            original = functions.get(short.rsplit("__mutmut_", 1)[0] + "__mutmut_orig")
            mutant = functions.get(short)
            if original is None or mutant is None:
                continue
            (shape, old), (mutant_shape, new) = _strings_apart(original), _strings_apart(mutant)
            changed = [(a, b) for a, b in zip(old, new, strict=False) if a != b]
            same_shape = shape == mutant_shape and len(old) == len(new)
            if same_shape and changed and all(_same_to_sqlite(a, b) for a, b in changed):
                chosen.add(name)
    return chosen


def equivalents(report: Path = REPORT) -> set[str]:
    """Mutant names listed under "Equivalent mutants" in docs/mutation.md."""
    if not report.is_file():
        return set()
    text = report.read_text(encoding="utf-8")
    section = text.partition("## Equivalent mutants")[2].partition("\n## ")[0]
    return set(re.findall(r"`(bot\.[^`\s]+__mutmut_\d+)`", section))


def score(module: Module, equivalent: set[str]) -> tuple[Score, list[str]]:
    tally, survivors = Score(), []
    found = results(module)
    sql_case = sql_case_mutants(module, [n for n, c in found.items() if c in SURVIVED])
    for name, code in sorted(found.items()):
        tally.mutants += 1
        if code is None:
            tally.unchecked += 1
        elif code in KILLED:
            tally.killed += 1
        elif code in TIMEOUT:
            tally.timeout += 1
        elif name in equivalent:
            tally.equivalent += 1
        elif name in sql_case:
            tally.sql_case += 1
        elif code in NO_TESTS:
            tally.no_tests += 1
            survivors.append(name)
        else:
            tally.survived += 1
            survivors.append(name)
    return tally, survivors


def table(modules: Iterable[Module]) -> str:
    equivalent = equivalents()
    columns = ["mutants", "killed", "timeout", "survived", "no tests", "equivalent", "SQL case"]
    columns.append("not run")
    lines = [
        "| module | " + " | ".join(columns) + " | score |",
        "|---|" + "---:|" * (len(columns) + 1),
    ]
    for module in modules:
        s, _ = score(module, equivalent)
        shown = "—" if s.percent is None else f"{s.percent:.1f}%"
        lines.append(
            f"| {module.name} | {s.mutants} | {s.killed} | {s.timeout} | {s.survived} | "
            f"{s.no_tests} | {s.equivalent} | {s.sql_case} | {s.unchecked} | {shown} |"
        )
    return "\n".join(lines)


# -- which modules -----------------------------------------------------------------------------
def changed_files(base: str) -> set[str]:
    """Files changed since the merge base with `base`, committed or not."""

    def git(*args: str) -> list[str]:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
        return [line for line in done.stdout.splitlines() if line]

    merge_base = git("merge-base", base, "HEAD")[0]
    return set(
        git("diff", "--name-only", merge_base) + git("ls-files", "--others", "--exclude-standard")
    )


def touched(module: Module, files: set[str]) -> bool:
    paths = (*module.sources, *module.tests, "tests/conftest.py")
    return any(f == p or f.startswith(p.rstrip("/") + "/") for f in files for p in paths)


def chosen(names: Sequence[str], changed: bool, base: str) -> list[Module]:
    unknown = sorted(set(names) - BY_NAME.keys())
    if unknown:
        raise SystemExit(f"unknown module {unknown[0]!r}; the modules are {sorted(BY_NAME)}")
    modules = [BY_NAME[n] for n in names] if names else list(MODULES)
    if changed:
        files = changed_files(base)
        modules = [m for m in modules if touched(m, files)]
    return modules


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.mutation", description=__doc__)
    parser.add_argument("--module", action="append", default=[], choices=sorted(BY_NAME))
    parser.add_argument("--changed", action="store_true", help="only modules changed since --base")
    parser.add_argument("--base", default="main", help="the branch --changed compares with")
    parser.add_argument("--budget", type=float, default=30, help="minutes for the whole run")
    parser.add_argument("--max-children", type=int, default=2, help="mutants run at once")
    parser.add_argument("--report", action="store_true", help="print the table, run nothing")
    parser.add_argument(
        "--retest-survivors",
        action="store_true",
        help="run the surviving mutants again (and those not run yet)",
    )
    parser.add_argument("--survivors", action="store_true", help="list surviving mutants too")
    args = parser.parse_args(argv)

    modules = chosen(args.module, args.changed, args.base)
    if not modules:
        print("no module changed")
        return 0
    started = time.monotonic()
    if not args.report:
        os.nice(10)  # the machine is shared
        deadline = started + args.budget * 60
        for module in modules:
            run_module(
                module, children=args.max_children, deadline=deadline, retest=args.retest_survivors
            )
    print(table(modules))
    if args.survivors:
        equivalent = equivalents()
        for module in modules:
            for name in score(module, equivalent)[1]:
                print(f"survived: {name}")
    if not args.report:
        print(f"run time: {(time.monotonic() - started) / 60:.1f} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
