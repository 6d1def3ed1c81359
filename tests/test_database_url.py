"""[database] url (issue 15): SQLite by path as before, or a sqlite:/// or postgresql:// URL;
a URL's password never reaches the log; fts5 is refused on PostgreSQL in one line."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.logs import configure_logging
from bot.settings import DatabaseSettings, LoggingSettings, Settings, SettingsError, load_settings

URL = "postgresql://laurel:p%40ss%20word@db.internal:5432/laurel"


def test_without_a_url_the_path_is_the_sqlite_database() -> None:
    settings = DatabaseSettings(path=Path("x/laurel.db"))
    assert (settings.postgresql, settings.sqlite_path) == (None, Path("x/laurel.db"))


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///data/laurel.db", Path("data/laurel.db")),
        ("sqlite:////srv/l.db", Path("/srv/l.db")),
    ],
)
def test_a_sqlite_url_names_the_file(url: str, path: Path) -> None:
    settings = DatabaseSettings(url=url)
    assert (settings.postgresql, settings.sqlite_path) == (None, path)


@pytest.mark.parametrize("url", [URL, "postgres://localhost/laurel"])
def test_a_postgresql_url_is_the_database(url: str) -> None:
    assert DatabaseSettings(url=url).postgresql == url


def test_the_url_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LAUREL_DATABASE__URL", URL)
    assert load_settings().database.postgresql == URL


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://laurel:secret@db/laurel", "neither sqlite:///path nor postgresql://"),
        ("sqlite:///", "must name the file"),
    ],
)
def test_another_url_is_refused_in_one_line_without_its_password(
    tmp_path: Path, url: str, says: str
) -> None:
    config = tmp_path / "laurel.toml"
    config.write_text(f'[database]\nurl = "{url}"\n', encoding="utf-8")
    with pytest.raises(SettingsError) as refused:
        load_settings(config)
    assert says in str(refused.value)
    assert "database.url" in str(refused.value)
    assert "secret" not in str(refused.value)


def test_fts5_is_refused_on_postgresql(tmp_path: Path) -> None:
    config = tmp_path / "laurel.toml"
    config.write_text(f'[database]\nurl = "{URL}"\n[search]\nengine = "fts5"\n', encoding="utf-8")
    with pytest.raises(SettingsError, match='on PostgreSQL use "tantivy"'):
        load_settings(config)


def test_the_password_of_the_url_is_a_secret_of_the_logs(
    capsys: pytest.CaptureFixture[str], restore_logging: None
) -> None:
    settings = Settings(database=DatabaseSettings(url=URL))
    assert set(settings.database.secrets()) == {"p%40ss%20word", "p@ss word"}
    configure_logging(LoggingSettings(level="INFO"), secrets=settings.database.secrets())
    logging.getLogger("laurel.test").warning("connecting to %s as %s", URL, "p@ss word")
    err = capsys.readouterr().err
    assert "p%40ss" not in err
    assert "p@ss word" not in err
    assert "db.internal" in err


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
