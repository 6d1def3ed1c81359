"""load_settings: the file, the environment over it, and the token kept out of both."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, SecretStr

from bot.domain.nesting import MAX_DEPTH
from bot.domain.shards import Shards
from bot.settings import (
    DISCORD_API,
    DatabaseSettings,
    SearchSettings,
    Settings,
    SettingsError,
    load_settings,
)

EXAMPLE = Path(__file__).parents[1] / "config.example.toml"
SECRET = "MTIz.not-a-real-token.but-secret-enough"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No LAUREL_* or DISCORD_TOKEN from the outside, and no laurel.toml in the working dir."""
    for name in list(os.environ):
        if name.startswith("LAUREL_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def documented_keys(text: str) -> dict[str, set[str]]:
    """Every key the example shows, per section ("" = top level), commented-out ones too.

    A commented line counts as a key when, uncommented, it parses as TOML: `# level = "INFO"`
    does, prose such as `# unset = global.` does not.
    """
    keys: dict[str, set[str]] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]").strip()
            keys.setdefault(section, set())
            continue
        candidate = line.lstrip("#").strip()
        if "=" not in candidate:
            continue
        try:
            parsed = tomllib.loads(candidate)
        except tomllib.TOMLDecodeError:
            continue
        keys.setdefault(section, set()).update(parsed)
    return keys


def uncommented(text: str) -> str:
    """The example with every commented-out key switched on."""
    lines = []
    for raw in text.splitlines():
        candidate = raw.lstrip("#").strip()
        try:
            is_key = raw.startswith("#") and "=" in candidate and bool(tomllib.loads(candidate))
        except tomllib.TOMLDecodeError:
            is_key = False
        lines.append(candidate if is_key else raw)
    return "\n".join(lines) + "\n"


def section_model(section: str) -> type[BaseModel]:
    annotation: Any = Settings.model_fields[section].annotation
    assert isinstance(annotation, type)
    assert issubclass(annotation, BaseModel)
    return annotation


# -- defaults and the example ---------------------------------------------------------------


def test_defaults_when_there_is_no_file() -> None:
    settings = load_settings()

    assert settings.database.path == Path("laurel.db")
    assert settings.database.backup_dir == Path("backups")
    assert settings.discord.api_base_url == DISCORD_API
    assert settings.discord.gateway_url is None
    assert settings.discord.dev_guild_id is None
    assert settings.logging.level == "INFO"
    assert settings.logging.format == "text"
    assert settings.token is None


def test_the_example_loads_and_shows_the_defaults() -> None:
    assert load_settings(EXAMPLE).model_dump() == load_settings().model_dump()


def test_every_key_in_the_example_is_a_setting() -> None:
    keys = documented_keys(EXAMPLE.read_text(encoding="utf-8"))
    # The parser must see the commented-out keys too, or this test proves nothing.
    assert {"gateway_url", "dev_guild_id"} <= keys["discord"]

    assert keys.pop("", set()) == set(), "the example sets keys outside any section"
    for section, names in keys.items():
        assert section in Settings.model_fields, f"[{section}] is not a settings section"
        unknown = names - set(section_model(section).model_fields)
        assert not unknown, f"[{section}] documents keys the model lacks: {sorted(unknown)}"


def test_every_setting_is_documented_in_the_example() -> None:
    keys = documented_keys(EXAMPLE.read_text(encoding="utf-8"))
    sections = set(Settings.model_fields) - {"token"}  # the token is never in a file

    assert set(keys) - {""} == sections
    for section in sections:
        assert set(section_model(section).model_fields) == keys[section], section


def test_the_commented_out_examples_are_valid_values(tmp_path: Path) -> None:
    config = write(tmp_path / "all.toml", uncommented(EXAMPLE.read_text(encoding="utf-8")))

    settings = load_settings(config)

    assert settings.discord.gateway_url == "wss://gateway.discord.gg"
    assert settings.discord.dev_guild_id == 123456789012345678


# -- the file and the environment -----------------------------------------------------------


def test_the_default_file_in_the_working_directory_is_read(tmp_path: Path) -> None:
    write(tmp_path / "laurel.toml", '[logging]\nlevel = "DEBUG"\n')

    assert load_settings().logging.level == "DEBUG"


def test_laurel_config_names_the_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = write(tmp_path / "elsewhere.toml", '[logging]\nformat = "json"\n')
    monkeypatch.setenv("LAUREL_CONFIG", str(config))

    assert load_settings().logging.format == "json"


def test_the_environment_wins_over_the_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = write(
        tmp_path / "laurel.toml", '[database]\npath = "from-file.db"\nbackup_dir = "file-backups"\n'
    )
    monkeypatch.setenv("LAUREL_DATABASE__PATH", "/data/from-env.db")

    settings = load_settings(config)

    assert settings.database.path == Path("/data/from-env.db")
    # Only the key set in the environment is overridden; the rest of the section stays.
    assert settings.database.backup_dir == Path("file-backups")


def test_a_wrong_configuration_lists_every_problem_by_location(tmp_path: Path) -> None:
    config = write(
        tmp_path / "wrong.toml",
        '[database]\npath = 5\ncolour = "red"\n\n[logging]\nlevel = "LOUD"\n',
    )

    with pytest.raises(SettingsError) as caught:
        load_settings(config)

    message = str(caught.value)
    assert "wrong.toml" in message
    for location in ("database.path", "database.colour", "logging.level"):
        assert f"  {location}: " in message, location
    assert len([line for line in message.splitlines() if line.startswith("  ")]) == 3


def test_a_bad_environment_variable_is_named_by_location(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LAUREL_LOGGING__LEVEL", "LOUD")

    with pytest.raises(SettingsError, match=r"logging\.level"):
        load_settings()


def test_a_section_that_is_not_a_table_is_a_settings_error(tmp_path: Path) -> None:
    config = write(tmp_path / "flat.toml", "discord = 5\n")

    with pytest.raises(SettingsError, match=r"variables\): discord: "):
        load_settings(config)


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    config = write(tmp_path / "broken.toml", "[database\npath = \n")

    with pytest.raises(SettingsError, match=r"broken\.toml: not valid TOML"):
        load_settings(config)


def test_a_file_that_cannot_be_read_is_named_with_the_reason(tmp_path: Path) -> None:
    unreadable = tmp_path / "laurel.toml"
    unreadable.mkdir()  # exists, but opening it fails

    with pytest.raises(SettingsError, match=r"laurel\.toml: cannot be read: Is a directory"):
        load_settings(unreadable)


def test_an_explicit_file_that_is_missing_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match=r"no configuration file at .*absent\.toml"):
        load_settings(tmp_path / "absent.toml")


def test_a_missing_file_named_by_laurel_config_is_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LAUREL_CONFIG", str(tmp_path / "absent.toml"))

    with pytest.raises(SettingsError, match=r"absent\.toml"):
        load_settings()


# -- the token ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [f'token = "{SECRET}"\n', f'[discord]\ntoken = "{SECRET}"\n'],
    ids=["top-level", "discord-section"],
)
def test_a_token_in_the_file_is_refused(tmp_path: Path, text: str) -> None:
    config = write(tmp_path / "laurel.toml", text)

    with pytest.raises(SettingsError) as caught:
        load_settings(config)

    message = str(caught.value)
    assert message.endswith("set the DISCORD_TOKEN environment variable instead")
    assert "laurel.toml" in message
    assert SECRET not in message


# Every spelling of a key that names a token, at every level a TOML file has (top level, a
# section, a nested table, an inline table, an array of tables), and a token-shaped value
# under an innocent name.
TOKEN_KEYS = ["token", "DISCORD_TOKEN", "discord_token", "Discord-Token", "bot_token", "botToken",
              "TOKEN", "tokens", "access_token", "discord.token", "TO_KEN"]  # fmt: skip
TOKEN_PLACES = {
    "top": "{key} = {value}\n",
    "discord": "[discord]\n{key} = {value}\n",
    "other-section": "[logging]\n{key} = {value}\n",
    "nested": "[discord.auth]\n{key} = {value}\n",
    "unknown-section": "[secrets]\n{key} = {value}\n",
    "inline": "discord = {{ {key} = {value} }}\n",
    "array-of-tables": "[[bots]]\n{key} = {value}\n",
}


@pytest.mark.parametrize("place", TOKEN_PLACES)
@pytest.mark.parametrize("key", TOKEN_KEYS)
def test_a_token_in_the_file_is_refused_in_any_spelling_at_any_level(
    tmp_path: Path, key: str, place: str
) -> None:
    config = write(
        tmp_path / "laurel.toml", TOKEN_PLACES[place].format(key=key, value=f'"{SECRET}"')
    )

    with pytest.raises(SettingsError) as caught:
        load_settings(config)

    message = str(caught.value)
    assert "the Discord token may not be written in a file" in message
    assert "DISCORD_TOKEN" in message
    assert SECRET not in message


@pytest.mark.parametrize("place", TOKEN_PLACES)
def test_a_token_shaped_value_under_any_name_is_refused(tmp_path: Path, place: str) -> None:
    token_shaped = "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.abcdefghijklmnopqrstuvwxyz0123"
    text = TOKEN_PLACES[place].format(key="level", value=f'"{token_shaped}"')
    config = write(tmp_path / "laurel.toml", text)

    with pytest.raises(SettingsError) as caught:
        load_settings(config)

    assert "the Discord token may not be written in a file" in str(caught.value)
    assert token_shaped not in str(caught.value)


def test_a_key_that_merely_resembles_a_token_is_a_setting(tmp_path: Path) -> None:
    config = write(tmp_path / "laurel.toml", '[logging]\nlevel = "DEBUG"\n')

    assert load_settings(config).logging.level == "DEBUG"


def test_a_token_in_a_laurel_variable_is_refused_without_echoing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LAUREL_DISCORD__TOKEN", SECRET)

    with pytest.raises(SettingsError) as caught:
        load_settings()

    assert "discord.token" in str(caught.value)
    assert SECRET not in str(caught.value)


def test_discord_token_is_read_and_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)

    settings = load_settings()

    assert isinstance(settings.token, SecretStr)
    assert settings.token.get_secret_value() == SECRET
    for shown in (
        repr(settings),
        str(settings),
        str(settings.model_dump()),
        str(settings.model_dump(mode="json")),
        settings.model_dump_json(),
    ):
        assert SECRET not in shown
    assert "token" not in settings.model_dump()


def test_an_empty_discord_token_means_no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")

    assert load_settings().token is None


def test_only_discord_token_sets_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAUREL_TOKEN", SECRET)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert load_settings().token is None


@pytest.mark.parametrize(
    ("section", "key"),
    [
        ("database", "busy_timeout_ms"),
        ("discord", "defer_after_seconds"),
        ("health", "port"),
        ("backups", "keep"),
        ("digests", "requests_per_second"),
    ],
)
def test_true_or_false_is_no_number(tmp_path: Path, section: str, key: str) -> None:
    """pydantic reads true as 1: `busy_timeout_ms = true` was a 1 ms wait, `keep = true` one
    backup kept. A number's setting refuses a boolean, and says where."""
    config = write(tmp_path / "laurel.toml", f"[{section}]\n{key} = true\n")

    with pytest.raises(SettingsError) as caught:
        load_settings(config)

    assert str(caught.value).endswith(f"{section}.{key}: must be a number, not true")


def test_a_boolean_setting_still_takes_true_and_false(tmp_path: Path) -> None:
    config = write(
        tmp_path / "laurel.toml", "[metrics]\nenabled = true\n[health]\nenabled = false\n"
    )

    settings = load_settings(config)

    assert settings.metrics.enabled is True
    assert settings.health.enabled is False


def test_a_backoff_that_starts_above_its_ceiling_is_refused(tmp_path: Path) -> None:
    config = write(
        tmp_path / "backoff.toml", "[digests]\nretry_base_seconds = 90\nretry_max_seconds = 60\n"
    )
    with pytest.raises(SettingsError, match=r"retry_base_seconds \(90\) must not exceed"):
        load_settings(config)
    equal = write(tmp_path / "equal.toml", "[digests]\nretry_base_seconds = 60\n")
    assert load_settings(equal).digests.retry_base_seconds == 60


def test_the_search_index_lives_beside_the_database_unless_placed_or_kept_in_memory(
    tmp_path: Path,
) -> None:
    database = tmp_path / "laurel.db"
    assert SearchSettings().index_for(database) == tmp_path / "laurel.db.search"
    placed = tmp_path / "elsewhere" / "index"
    assert SearchSettings(index_path=placed).index_for(database) == placed
    assert SearchSettings(in_memory=True, index_path=placed).index_for(database) is None
    # A shard process keeps an index of its own, named by its shards.
    shards = Shards(ids=(0, 2), count=4)
    assert SearchSettings().index_for(database, shards) == tmp_path / "laurel.db.search-0-2of4"


def test_on_postgresql_the_search_index_is_in_memory_unless_placed_one_per_shard_range(
    tmp_path: Path,
) -> None:
    assert SearchSettings().index_for(None) is None  # no file to put it beside
    placed = tmp_path / "index"
    assert SearchSettings(index_path=placed).index_for(None) == placed
    shards = Shards((2, 3), 4)
    assert SearchSettings(index_path=placed).index_for(None, shards) == tmp_path / "index-2-3of4"
    assert SearchSettings(in_memory=True, index_path=placed).index_for(None) is None


def test_two_problems_are_told_one_a_line_without_pydantics_prefix(tmp_path: Path) -> None:
    config = write(
        tmp_path / "two.toml",
        "[digests]\nretry_attempts = 0\n[discord]\napi_base_url = 'ftp://x'\n",
    )
    with pytest.raises(SettingsError) as bad:
        load_settings(config)
    where = f"the configuration is not valid ({config}, then LAUREL_* variables)"
    lines = str(bad.value).split("\n")
    assert lines[0] == where + ":"
    assert [line[:2] for line in lines[1:]] == ["  ", "  "]
    assert sorted(line.strip().split(":")[0] for line in lines[1:]) == [
        "digests.retry_attempts",
        "discord.api_base_url",
    ]
    assert "Value error" not in str(bad.value)
    ends = ("greater than or equal to 1", "'^https?://[^\\s@]+$'")
    assert all(line.endswith(ends) for line in lines[1:])  # nothing between one and the next


def test_a_file_that_is_not_utf8_is_named_with_the_byte(tmp_path: Path) -> None:
    config = tmp_path / "latin1.toml"
    config.write_bytes(b"# caf\xe9\n")
    with pytest.raises(SettingsError) as bad:
        load_settings(config)
    assert str(bad.value) == f"{config}: not UTF-8 text (byte 5); save it as UTF-8"


def test_broken_json_variables_are_all_named_and_no_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LAUREL_DIGESTS", "{broken")
    monkeypatch.setenv("LAUREL_SEARCH", "  [1,")  # JSON after blanks is still JSON
    monkeypatch.setenv("LAUREL_LOGGING", "{}")  # well-formed: not named
    monkeypatch.setenv("NOT_LAUREL", "{broken")  # not Laurel's: not named
    with pytest.raises(SettingsError) as bad:
        load_settings(write(tmp_path / "empty.toml", ""))
    assert str(bad.value) == (
        f"the configuration is not valid: LAUREL_DIGESTS, LAUREL_SEARCH is not well-formed JSON "
        f"(or nests past {MAX_DEPTH} levels); a list is written as [1, 2] and a string in "
        "double quotes"
    )


def test_a_file_nested_too_deep_is_named(tmp_path: Path) -> None:
    config = write(tmp_path / "deep.toml", "x = " + "[" * 200 + "]" * 200 + "\n")
    with pytest.raises(SettingsError) as bad:
        load_settings(config)
    assert str(bad.value).startswith(f"{config}: nested more than {MAX_DEPTH} levels deep")


def test_a_variable_that_is_not_json_where_json_belongs_is_told_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LAUREL_DIGESTS", "retry_attempts=3")  # not even meant as JSON
    with pytest.raises(SettingsError) as bad:
        load_settings(write(tmp_path / "empty.toml", ""))
    assert str(bad.value) == (
        f"the configuration is not valid: a LAUREL_* variable is not well-formed JSON (or "
        f"nests past {MAX_DEPTH} levels); a list is written as [1, 2] and a string in double "
        "quotes"
    )


def test_a_file_nested_too_deep_by_a_table_and_its_keys_together_is_named(tmp_path: Path) -> None:
    # Each line is within the limit; the table's path and the key's together are not.
    half = MAX_DEPTH // 2 + 8
    text = "[" + ".".join(["a"] * half) + "]\n" + ".".join(["b"] * half) + " = 1\n"
    config = write(tmp_path / "deep.toml", text)
    with pytest.raises(SettingsError) as bad:
        load_settings(config)
    assert str(bad.value).startswith(f"{config}: nested more than {MAX_DEPTH} levels deep")


def test_a_database_without_a_password_has_no_secret_to_keep_out_of_logs() -> None:
    assert DatabaseSettings().secrets() == []  # SQLite
    assert DatabaseSettings(url="postgresql://laurel@db:5432/laurel").secrets() == []


def test_a_byte_order_mark_before_the_first_key_is_accepted(tmp_path: Path) -> None:
    """Issue 22: Notepad's UTF-8 BOM made the first line "Invalid statement"."""
    config = tmp_path / "laurel.toml"
    config.write_bytes(b"\xef\xbb\xbf" + b'[database]\npath = "bom.db"\n')
    assert load_settings(config).database.path == Path("bom.db")


@pytest.mark.parametrize(
    "url", ["sqlite:///data/", "sqlite:///{dir}/", "sqlite:///{dir}", "sqlite:///{dir}/.."]
)
def test_a_sqlite_url_naming_a_folder_is_refused_in_one_line_and_makes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], url: str
) -> None:
    """Issue 22: `sqlite:///dir/` made a file named `dir`."""
    from bot.cli import main

    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LAUREL_DATABASE__URL", url.format(dir=folder))
    with pytest.raises(SettingsError, match="names a folder; name the database file in it"):
        load_settings()
    assert main(["db", "init"]) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "names a folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]
    assert list(folder.iterdir()) == []
