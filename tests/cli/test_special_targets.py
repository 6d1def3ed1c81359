"""`laurel export PATH --force` and `laurel db backup PATH` where PATH is a device or a pipe
(issue 22, item 9): written into, never replaced by a plain file (the atomic rename would), and
a failed write is reported in one line with exit 1.

A named pipe stands in for /dev/full here: the test cannot damage the machine if the rename
comes back, and a pipe without a reader fails its writer just as /dev/full does."""

from __future__ import annotations

import os
import shutil
import stat
import threading
from pathlib import Path

import pytest

from bot.cli import main
from bot.store.backup_files import SQLITE_HEADER


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, template_db: Path) -> Path:
    for name in list(os.environ):
        if name.startswith("LAUREL_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    shutil.copyfile(template_db, tmp_path / "laurel.db")
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(tmp_path / "laurel.db"))
    return tmp_path


def read_all(pipe: Path, into: list[bytes]) -> threading.Thread:
    """A reader of `pipe` (to its end) in a thread: the other side of `cmd > pipe`."""

    def run() -> None:
        with pipe.open("rb") as given:
            into.append(given.read())

    reader = threading.Thread(target=run, daemon=True)
    reader.start()
    return reader


COMMANDS = {
    "export": lambda path: ["export", str(path), "--force"],
    "backup": lambda path: ["db", "backup", str(path)],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_pipe_is_written_into_and_stays_a_pipe(
    home: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pipe = home / "out.fifo"
    os.mkfifo(pipe)
    received: list[bytes] = []
    reader = read_all(pipe, received)
    assert main(COMMANDS[command](pipe)) == 0, capsys.readouterr().err
    reader.join(timeout=30)
    assert stat.S_ISFIFO(os.stat(pipe).st_mode), "the pipe was replaced by a plain file"
    (data,) = received
    if command == "backup":
        assert data.startswith(SQLITE_HEADER)
    else:
        assert b"[[awards]]" in data or b"[[venues]]" in data
    assert not [p.name for p in home.iterdir() if "partial" in p.name]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_failed_write_into_a_device_is_reported_in_one_line(
    home: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pipe = home / "nobody-reads.fifo"  # like /dev/full, it takes nothing
    os.mkfifo(pipe)
    assert main(COMMANDS[command](pipe)) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert str(pipe) in err
    assert "No such device or address" in err
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)


def test_without_force_a_device_is_not_written(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pipe = home / "out.fifo"
    os.mkfifo(pipe)
    assert main(["export", str(pipe)]) == 1
    assert "add --force" in capsys.readouterr().err
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)


@pytest.mark.skipif(not Path("/dev/full").is_char_device(), reason="no /dev/full here")
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_dev_full_says_the_disk_is_full_and_stays_a_device(
    home: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(COMMANDS[command](Path("/dev/full"))) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "/dev/full" in err
    assert Path("/dev/full").is_char_device()
