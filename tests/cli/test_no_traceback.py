"""The rule: no `laurel` subcommand ends in a traceback for a cause outside the program.

Every subcommand (found by walking the argument parser, so a new one is covered or this fails)
is run against every cause that can reach it: broken settings (a file that is not UTF-8, a
folder, nested too deep, a token in it; broken JSON, an empty database path in the
environment), a database that is not one or sits under a file, the disk full when the lock is
taken and when a file or the database is written, a wrong token and no network. Each must exit
non-zero with one line on stderr that says what is wrong, and no "Traceback".

The disk is made full for real: the lock file is a symlink to /dev/full (the kernel answers
ENOSPC), and writes run in a child process whose RLIMIT_FSIZE is below what they need (the
kernel cuts the write short, as a full disk does; SQLite calls that SQLITE_FULL).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.cli import build_parser, main
from tests.support.processes import bot_env, stand_in

LOG_LINE = r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"


def leaves(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[str, ...]]:
    """Every runnable subcommand, as the words that name it."""
    groups = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not groups:
        yield path
        return
    for name, child in groups[0].choices.items():
        yield from leaves(child, (*path, name))


def parser_of(words: tuple[str, ...]) -> argparse.ArgumentParser:
    parser = build_parser()
    for word in words:
        (group,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        parser = group.choices[word]
    return parser


@dataclass
class Folder:
    root: Path
    database: Path
    backup: Path
    catalog: Path
    big_catalog: Path


# What each subcommand is given so that, with nothing wrong, it would do its work (and end).
def arguments(words: tuple[str, ...], folder: Folder) -> list[str]:
    given: dict[tuple[str, ...], list[str]] = {
        ("import",): [str(folder.catalog)],
        ("export",): [str(folder.root / "out.toml")],
        ("db", "backup"): [str(folder.root / "copy.db")],
        ("db", "restore"): [str(folder.backup), "--yes"],
        # A server that is not there: what is wrong with the source is said before it is asked.
        ("db", "copy"): ["--to", f"postgresql://laurel@127.0.0.1:{_closed_port()}/laurel"],
        ("console",): ["-c", "/about"],
        ("enrich",): ["--dry-run"],
    }
    words_given = given.get(words, [])
    required = [
        a.dest
        for a in parser_of(words)._actions
        if not a.option_strings and a.nargs is None and a.required
    ]
    assert not required or words in given, f"`laurel {' '.join(words)}` needs {required}: add it"
    return [*words, *words_given]


ALL = tuple(leaves(build_parser()))
# The subcommands that never touch the database (servers and the health probe).
NO_DATABASE = {("localdiscord",), ("localarxiv",), ("health",)}
USES_DATABASE = tuple(w for w in ALL if w not in NO_DATABASE)
TAKES_THE_LOCK = (("run",), ("console",), ("db", "restore"))
REPLACEABLE = tuple(w for w in USES_DATABASE if w != ("db", "restore"))


def test_the_walk_finds_every_subcommand() -> None:
    names = {" ".join(w) for w in ALL}
    assert {"run", "console", "import", "export", "db backup", "db restore", "health"} <= names
    assert len(names) >= 14


@dataclass
class Cause:
    """Something wrong outside the program, set up in `folder` and the environment."""

    name: str
    prepare: Callable[[Folder, pytest.MonkeyPatch], None]
    reaches: tuple[tuple[str, ...], ...] = ALL
    says: str = ""  # what the one line must say (a regular expression)
    extra: dict[str, str] = field(default_factory=dict)


def _config(text: bytes) -> Callable[[Folder, pytest.MonkeyPatch], None]:
    def prepare(folder: Folder, patch: pytest.MonkeyPatch) -> None:
        (folder.root / "laurel.toml").write_bytes(text)
        patch.setenv("LAUREL_CONFIG", str(folder.root / "laurel.toml"))

    return prepare


def _env(name: str, value: str) -> Callable[[Folder, pytest.MonkeyPatch], None]:
    return lambda folder, patch: patch.setenv(name, value)


def _not_a_database(folder: Folder, patch: pytest.MonkeyPatch) -> None:
    folder.database.write_bytes(b"PK\x03\x04 this is a zip, not a database" * 100)


def _under_a_file(folder: Folder, patch: pytest.MonkeyPatch) -> None:
    (folder.root / "a-file").write_text("x")
    patch.setenv("LAUREL_DATABASE__PATH", str(folder.root / "a-file" / "laurel.db"))


def _lock_on_a_full_disk(folder: Folder, patch: pytest.MonkeyPatch) -> None:
    Path(f"{folder.database}.lock").symlink_to("/dev/full")


def _config_folder(folder: Folder, patch: pytest.MonkeyPatch) -> None:
    (folder.root / "conf.d").mkdir()
    patch.setenv("LAUREL_CONFIG", str(folder.root / "conf.d"))


CAUSES = [
    Cause("config not UTF-8", _config(b'[logging]\nlevel = "\xff\xfeINFO"\n'), says="UTF-8"),
    Cause("config is a folder", _config_folder, says="cannot be read"),
    Cause("config nested too deep", _config(b"x = " + b"[" * 5000 + b"]" * 5000), says="nested"),
    Cause("token in config", _config(b'DISCORD_TOKEN = "abc"\n'), says="DISCORD_TOKEN"),
    Cause("broken JSON list", _env("LAUREL_CURATION__USER_IDS", "[1,"), says="JSON"),
    Cause("deep JSON list", _env("LAUREL_CURATION__ROLE_IDS", "[" * 5000), says="JSON"),
    Cause("empty database path", _env("LAUREL_DATABASE__PATH", ""), says="database.path"),
    Cause("database path is a folder", _env("LAUREL_DATABASE__PATH", "."), says="folder"),
    # (restore is the cure for a database that is not one: it is expected to succeed there)
    Cause("not a database", _not_a_database, REPLACEABLE, says="database"),
    Cause("database under a file", _under_a_file, USES_DATABASE, says="not a folder|no database"),
    Cause("disk full at the lock", _lock_on_a_full_disk, TAKES_THE_LOCK, says="the disk is full"),
]


@pytest.fixture
def folder(template_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Folder:
    for name in list(os.environ):
        if name.startswith("LAUREL_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(tmp_path / "laurel.db"))
    monkeypatch.setenv("LAUREL_HEALTH__PORT", str(_closed_port()))
    monkeypatch.setenv("LAUREL_ARXIV__BASE_URL", f"http://127.0.0.1:{_closed_port()}/api")
    monkeypatch.setenv("LAUREL_ARXIV__RETRIES", "0")
    # Nothing here may reach a real service, whatever a subcommand added later does.
    monkeypatch.setenv("LAUREL_DISCORD__API_BASE_URL", f"http://127.0.0.1:{_closed_port()}/api")
    monkeypatch.setenv("LAUREL_DISCORD__CONNECT_ATTEMPTS", "1")
    shutil.copyfile(template_db, tmp_path / "laurel.db")
    shutil.copyfile(template_db, tmp_path / "backup.db")
    catalog = tmp_path / "catalog.toml"
    catalog.write_text(_awards(1), encoding="utf-8")
    big = tmp_path / "big.toml"
    big.write_text(_awards(400), encoding="utf-8")
    return Folder(tmp_path, tmp_path / "laurel.db", tmp_path / "backup.db", catalog, big)


def _awards(count: int) -> str:
    return "".join(
        f'[[awards]]\nvenue = "icml"\nyear = 2025\nname = "Best Paper Award"\nkind = "best"\n'
        f'paper = {{ title = "A Paper Numbered {i} With A Long Enough Title To Take Room", '
        f'abstract = "{"An abstract that takes room on the disk. " * 20}" }}\n\n'
        for i in range(count)
    )


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _assert_one_clear_line(code: int, err: str, says: str, what: str) -> None:
    """Non-zero, no traceback, one line from the command line (the bot's own log, which `run`
    writes to stderr as it starts, may come before it)."""
    lines = [line for line in err.splitlines() if line.strip() and not re.match(LOG_LINE, line)]
    assert code != 0, what
    assert "Traceback" not in err, (what, err)
    assert len(lines) == 1, (what, err)
    assert lines[0].startswith("laurel: "), (what, err)
    assert re.search(says, lines[0]), (what, says, err)


@pytest.mark.parametrize("cause", CAUSES, ids=lambda c: c.name)
def test_no_subcommand_ends_in_a_traceback(
    folder: Folder,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    cause: Cause,
) -> None:
    cause.prepare(folder, monkeypatch)
    monkeypatch.setenv("DISCORD_TOKEN", "MTIz.wrong-but-well-formed.token-for-no-bot-at-all")
    for words in cause.reaches:
        capsys.readouterr()
        try:
            code = main(arguments(words, folder))
        except SystemExit as exit:  # argparse refusing an argument: also one line, but say so
            pytest.fail(f"{words}: argparse exited {exit.code}")
        _assert_one_clear_line(code, capsys.readouterr().err, cause.says, f"{words}: {cause.name}")


# -- the disk full while writing, for real, in a child process -----------------------------


def _laurel_with_a_file_size_limit(
    argv: list[str], limit: int, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    def limit_writes() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "bot", *argv],
        env=env,
        preexec_fn=limit_writes,  # (the child has no threads yet)
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("words", "says"),
    [
        # RLIMIT_FSIZE makes the kernel answer EFBIG, which SQLite reports as an I/O error
        # (a real ENOSPC is SQLITE_FULL, said as "the disk is full": see the lock row above).
        (("db", "backup"), "is the disk full"),
        (("export",), "cannot be written"),
        (("import",), "is the disk full"),
        (("db", "init"), "is the disk full"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else None,
)
def test_a_full_disk_while_writing_is_one_line(
    folder: Folder, words: tuple[str, ...], says: str
) -> None:
    argv = arguments(words, folder)
    if words == ("import",):
        argv[1] = str(folder.big_catalog)
    if words == ("db", "init"):
        folder.database.unlink()
    env = dict(os.environ)
    limit = 40_000 if words != ("db", "backup") else 300_000
    before = sorted(p.name for p in folder.root.iterdir())

    done = _laurel_with_a_file_size_limit(argv, limit, env)

    _assert_one_clear_line(done.returncode, done.stderr, says, f"{words}")
    after = sorted(p.name for p in folder.root.iterdir())
    assert not [name for name in after if "partial" in name], after
    if words in (("db", "backup"), ("export",)):
        assert set(after) - set(before) <= {"laurel.db-wal", "laurel.db-shm"}, after


# -- Discord: a wrong token, and no network ------------------------------------------------


def test_a_wrong_token_is_one_line(folder: Folder) -> None:
    with stand_in() as stand:
        env = bot_env(stand, folder.database, DISCORD_TOKEN="MTIz.wrong.token-for-no-bot-here")
        done = subprocess.run(
            [sys.executable, "-m", "bot", "run"], env=env, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
    _assert_one_clear_line(done.returncode, done.stderr, "refused the token", "wrong token")


def test_no_network_is_retried_with_backoff_then_one_line(folder: Folder) -> None:
    closed = _closed_port()
    env = dict(os.environ)
    env.update(
        DISCORD_TOKEN="MTIz.any.token-at-all-for-this-test",
        LAUREL_DISCORD__API_BASE_URL=f"http://127.0.0.1:{closed}/api/v10",
        LAUREL_DISCORD__CONNECT_ATTEMPTS="3",
        LAUREL_DISCORD__CONNECT_BACKOFF_SECONDS="0.1",
    )
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"], env=env, capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    retries = [line for line in lines if "trying again" in line]
    assert len(retries) == 2, done.stderr  # logged as it waits: attempts 1 and 2 of 3
    assert "in 0.1 s (attempt 1 of 3)" in retries[0]
    assert "in 0.2 s (attempt 2 of 3)" in retries[1]
    (last,) = [line for line in lines if line.startswith("laurel:")]
    assert last == lines[-1]
    assert f"cannot reach Discord at http://127.0.0.1:{closed}/api/v10" in last
    assert "3 attempt(s)" in last
