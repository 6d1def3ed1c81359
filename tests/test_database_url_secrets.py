"""A database password never leaves the process (issue 22, item 1).

Every path that prints or logs a database URL or an engine's error goes through bot.dburl:
`laurel db init | check | backup | restore | copy --to | check --against`, the exception a
failed connection raises (and its traceback in a log line), the WARNING a write logs while the
server is down, and `/health`. The property test generates passwords over every printable ASCII
character, each percent-encoded or written raw, puts them in the authority (or, encoded, in a
`password=` parameter) of a URL whose server is not listening, and reads all of that output.

The leak rule: no run of 3 consecutive characters of the password — as intended (decoded) or as
written in the URL — appears in the output, unless it also appears in the output for a
placeholder password of the same kind (valid, a raw space, a bad %, an @ or / left raw). Three,
because a longer rule would let a partial echo (libpq's `"S%ZZ"`, a prefix cut at `#`) through
unnoticed, and a shorter one flags every letter; a run the placeholder's output holds too is
text of ours (a host, a word of a message) that would be printed whatever the password, so
seeing it says nothing about the password.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import os
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import dburl
from bot.cli import main
from bot.domain.clock import SystemClock
from bot.errors import LaurelError
from bot.logs import configure_logging
from bot.observability.health import check_health
from bot.settings import LoggingSettings
from bot.store import backends
from bot.store.postgres.database import PostgresDatabase

PRINTABLE = [chr(c) for c in range(32, 127)]
WINDOW = 3


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PORT = closed_port()


@pytest.fixture(scope="module")
def sqlite_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a SQLite Laurel database, for the commands that start from one."""
    home = tmp_path_factory.mktemp("home")
    with _env(LAUREL_DATABASE__PATH=str(home / "laurel.db")), _cwd(home):
        assert main(["db", "init"]) == 0
    return home


@contextlib.contextmanager
def _env(**values: str) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@contextlib.contextmanager
def _cwd(path: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def url_with(written: str, *, in_query: bool = False) -> str:
    if in_query:
        return f"postgresql://qpass@127.0.0.1:{PORT}/lq?password={written}"
    return f"postgresql://qpass:{written}@127.0.0.1:{PORT}/lq"


def everything_said(url: str, home: Path) -> str:
    """stdout, stderr and log output of every path that shows this URL or its engine's errors,
    and the text of each exception raised on the way."""
    out, err, logged = io.StringIO(), io.StringIO(), io.StringIO()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        with contextlib.redirect_stderr(logged):
            configure_logging(LoggingSettings(level="INFO"), secrets=dburl.secrets(url))
        log = logging.getLogger("laurel.test")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _cwd(home):
            with _env(LAUREL_DATABASE__URL=url):
                for argv in (["db", "init"], ["db", "check"], ["db", "backup"]):
                    main(argv)
                main(["db", "restore", str(home / "laurel.db"), "--yes"])
            with _env(LAUREL_DATABASE__URL=f"sqlite:///{home / 'laurel.db'}"):
                main(["db", "copy", "--to", url])
                main(["db", "check", "--against", url])
        said = [out.getvalue(), err.getvalue()]
        for attempt in (_open, _lock, _health, _warn):
            try:
                said.append(attempt(url, log))
            except Exception as exc:  # the message of whatever a path raises
                said.append(f"{type(exc).__name__}: {exc}")
                log.warning("failed", exc_info=exc)  # its traceback, through the log's redaction
        root.handlers[0].flush()
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    return "\n".join([*said, logged.getvalue()])


def _target(url: str) -> dburl.DatabaseTarget:
    """The target a URL names, as the settings read it (a URL libpq cannot read is refused
    here, in words)."""
    return dburl.PostgresTarget(url)


def _open(url: str, log: logging.Logger) -> str:
    asyncio.run(backends.open_database(_target(url), clock=SystemClock(), create=False))
    return ""


def _lock(url: str, log: logging.Logger) -> str:
    with backends.instance_lock(_target(url), shared=False):
        return ""


class _DownStore:
    def __init__(self, url: str) -> None:
        self.url = url

    async def schema_version(self) -> int:
        db = await backends.open_database(_target(self.url), clock=SystemClock(), create=False)
        return await db.schema_version()


class _Client:
    ws = None
    latency = float("nan")
    guilds: ClassVar[list[object]] = []

    def is_closed(self) -> bool:
        return False

    def is_ready(self) -> bool:
        return True


def _health(url: str, log: logging.Logger) -> str:
    report = asyncio.run(check_health(_Client(), _DownStore(url)))  # type: ignore[arg-type]
    return json.dumps(report.to_json())


def _warn(url: str, log: logging.Logger) -> str:
    """The WARNING a write logs while the server is down (PostgresDatabase._pause)."""
    try:
        dburl.parse(url)
    except dburl.DatabaseUrlError:
        return ""  # such a URL never reaches a running store
    db = PostgresDatabase(url, clock=SystemClock())
    try:
        db._pause(0, ConnectionRefusedError("connection refused"))
    finally:
        db._executor.shutdown()
    return db.where


# The clock's own text: a log line's leading time and the stamp in a backup's file name. Each
# run prints its own, so the reference (printed earlier) cannot hold it; it is masked in both,
# or a password holding "40Z" would be flagged by the second the run happened in.
CLOCK = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}(?= )|(?<=laurel-)\d{8}T\d{6}Z(?=\.)", re.M
)


def leaks(password: str, written: str, said: str, reference: str) -> list[str]:
    said, reference = CLOCK.sub("<clock>", said), CLOCK.sub("<clock>", reference)
    found = set()
    for text in (password, written):
        for i in range(len(text) - WINDOW + 1):
            window = text[i : i + WINDOW]
            if window in said and window not in reference:
                found.add(window)
    return sorted(found)


def test_the_clock_printed_by_a_run_is_not_a_leak() -> None:
    said = "2026-12-02 07:32:40,856 WARNING x\nrun `pg_dump --file=laurel-20261202T073240Z.dump`"
    reference = (
        "2026-12-02 07:31:02,113 WARNING x\nrun `pg_dump --file=laurel-20261202T073102Z.dump`"
    )
    assert leaks("a40Zb", "a40Zb", said, reference) == []
    assert leaks("a40Zb", "a40Zb", said + " a40Zb", reference) == ["0Zb", "40Z", "a40"]
    shown = said.replace(",856 ", ",856 40,8 ")  # the same text outside the clock still counts
    assert leaks("40,8", "40,8", shown, reference) == ["0,8", "40,"]


def kind_of(written: str) -> str:
    """Which placeholder's output is the reference: the kind of refusal this URL meets."""
    try:
        dburl.parse(url_with(written))
    except dburl.DatabaseUrlError as exc:
        return exc.reason
    return "valid"


PLACEHOLDERS = ["QxjQxj", "Qxj Qxj", "Qxj%ZZ", "Qxj%00", "Qxj/Qxj", "Qxj@Qxj", "[Qxj", "Qxj%"]


@pytest.fixture(scope="module")
def references(sqlite_home: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    for placeholder in PLACEHOLDERS:
        for in_query in (False, True):
            text = everything_said(url_with(placeholder, in_query=in_query), sqlite_home)
            kind = kind_of(placeholder)
            found[kind] = found.get(kind, "") + text
    return found


@st.composite
def passwords(draw: st.DrawFn) -> tuple[str, str]:
    """(the password, as written in the URL): each character percent-encoded or raw."""
    password = draw(st.text(alphabet=PRINTABLE, min_size=4, max_size=24))
    raw = draw(st.lists(st.booleans(), min_size=len(password), max_size=len(password)))
    written = "".join(
        c if keep else quote(c, safe="") for c, keep in zip(password, raw, strict=False)
    )
    return password, written


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(passwords(), st.booleans())
def test_no_password_reaches_any_output(
    sqlite_home: Path, references: dict[str, str], generated: tuple[str, str], in_query: bool
) -> None:
    password, written = generated
    if in_query:  # a parameter's value is cut at & and = : written encoded there
        written = quote(password, safe="")
    url = url_with(written, in_query=in_query)
    said = everything_said(url, sqlite_home)
    reference = references.get(kind_of(written), "")
    assert leaks(password, written, said, reference) == []


@pytest.mark.parametrize(
    ("url", "password"),
    [
        # The reproductions: `?` moved the password into urlsplit's query; `#` cut it
        # into a fragment; libpq's own messages quote a bad token or the whole URL.
        ("postgresql://qpass:Secret?Value123@127.0.0.1:{port}/lq", "Secret?Value123"),
        ("postgresql://qpass:Secret#Value123@127.0.0.1:{port}/lq", "Secret#Value123"),
        ("postgresql://qpass:Secret%ZZValue@127.0.0.1:{port}/lq", "Secret%ZZValue"),
        ("postgresql://qpass:Secret Value@127.0.0.1:{port}/lq", "Secret Value"),
        ("postgresql://qpass:SecretValue@[::1/lq", "SecretValue"),
        ("postgresql://qpass:Secret/Value@127.0.0.1:{port}/lq", "Secret/Value"),
    ],
)
def test_the_reported_urls_are_one_line_without_the_password(
    sqlite_home: Path, url: str, password: str
) -> None:
    url = url.format(port=PORT)
    said = everything_said(url, sqlite_home)
    assert "Secret" not in said
    assert "Value" not in said
    assert "Traceback" not in said.split("failed\nTraceback")[0]  # no traceback but our own


def test_a_malformed_url_is_refused_in_one_line_exit_1(
    sqlite_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with _env(LAUREL_DATABASE__URL="postgresql://u:pwSecret@[::1/db"), _cwd(sqlite_home):
        assert main(["db", "check"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "pwSecret" not in err
    assert "IPv6 host address without its closing ]" in err
    with _cwd(sqlite_home):
        for argv in (["db", "copy", "--to"], ["db", "check", "--against"]):
            assert main([*argv, "postgresql://u:pwSecret@[::1/db"]) == 1
            err = capsys.readouterr().err
            assert err.count("\n") == 1
            assert "pwSecret" not in err


@pytest.mark.parametrize(
    ("url", "parsed"),
    [
        ("postgresql://u:p?w#x@h:5/d", {"user": "u", "password": "p?w#x", "host": "h"}),
        ("postgresql://u@h1:5,h2:6/d?password=x%20y", {"password": "x y", "port": "5,6"}),
        ("postgresql://[::1]:5/d?sslmode=require", {"host": "::1", "sslmode": "require"}),
        ("postgresql:///d?host=/run/pg", {"host": "/run/pg", "dbname": "d"}),
    ],
)
def test_the_fallback_reads_as_libpq_reads(url: str, parsed: dict[str, str]) -> None:
    libpq = dburl.parse(url)
    assert dburl._libpq_split(url) == libpq
    assert parsed.items() <= libpq.items()


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://laurel:p%40ss@db:5432/laurel", "postgresql://laurel@db:5432/laurel"),
        ("postgresql://db/laurel", "postgresql://db/laurel"),
        ("postgres://u:Se?cret@[::1]:5/d", "postgres://u@[::1]:5/d"),
        (
            "postgresql:///laurel?host=/run/pg&password=s3cret&sslmode=require",
            "postgresql:///laurel?host=/run/pg&sslmode=require",
        ),
        (
            "postgresql://u:s3cret@[::1/db",
            "postgresql://… (not a valid URL: an IPv6 host address without its closing ])",
        ),
        # libpq's other secret, the SSL client key's password, is left out as the password is.
        (
            "postgresql://u@db/laurel?sslpassword=K3ySecret&sslmode=require",
            "postgresql://u@db/laurel?sslmode=require",
        ),
    ],
)
def test_a_url_is_shown_without_its_password(url: str, shown: str) -> None:
    assert dburl.shown(url) == shown


def test_a_refusal_never_holds_the_url() -> None:
    with pytest.raises(LaurelError) as refused:
        dburl.parse("postgresql://u:Sec%ZZret@h/d")
    assert "Sec" not in str(refused.value)


def test_the_ssl_keys_password_is_a_secret_of_the_logs() -> None:
    url = "postgresql://u@127.0.0.1:1/d?sslpassword=K3y%3FSecret"
    assert {"K3y%3FSecret", "K3y?Secret"} <= set(dburl.secrets(url))
    assert "K3y" not in dburl.scrub(f"failed at {url}: sslpassword K3y?Secret", url)


def test_a_password_that_is_not_utf8_is_refused_in_our_words(
    sqlite_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """psycopg's reading raised UnicodeDecodeError, whose message ("can't decode byte 0xff in
    position 6") said a byte of the password and where it stands, as the one-line refusal."""
    url = "postgresql://u:Secret%FFValue@127.0.0.1:1/d"
    with pytest.raises(dburl.DatabaseUrlError) as refused:
        dburl.parse(url)
    assert refused.value.reason == "a percent-encoded part that is not UTF-8 text"
    with _env(LAUREL_DATABASE__URL=url), _cwd(sqlite_home):
        assert main(["db", "check"]) == 1
    with _cwd(sqlite_home):
        assert main(["db", "copy", "--to", url]) == 1
    err = capsys.readouterr().err
    assert "not UTF-8 text" in err
    assert "0xff" not in err.lower()
    assert "position" not in err


def test_the_fallback_without_psycopg_refuses_as_libpq() -> None:
    for url in (
        "postgresql://u:S%ZZ@h/d",
        "postgresql://u:S r@h/d",
        "postgresql://u:p@[::1/d",
        "postgresql://u:S%FF@h/d",
    ):
        with pytest.raises(dburl.DatabaseUrlError) as libpq:
            dburl.parse(url)
        with pytest.raises(dburl.DatabaseUrlError) as ours:
            dburl._libpq_split(url)
        assert ours.value.reason == libpq.value.reason
