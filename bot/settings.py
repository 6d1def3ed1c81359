"""Typed settings: a TOML file, then `LAUREL_*` environment variables over it.

Nothing is built at import time: `load_settings` is called once, by the command line, and the
result is handed to whatever needs it. The Discord token is read from `DISCORD_TOKEN` alone —
a token in a file is refused — and is a `SecretStr`, so it never shows up in a repr or a log.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import pydantic_settings
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from bot import dburl
from bot.domain.nesting import MAX_DEPTH, NestedTooDeep, check_data, check_toml
from bot.domain.shards import Shards
from bot.domain.tokens import TOKEN_SHAPED
from bot.errors import LaurelError

DEFAULT_CONFIG = Path("laurel.toml")
DISCORD_API = "https://discord.com/api/v10"
ARXIV_API = "https://export.arxiv.org/api/query"
_ALNUM_ONLY = re.compile(r"[^a-z0-9]")


class SettingsError(LaurelError):
    """The configuration is wrong; the message lists every problem by its location."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _no_true_for_a_number(cls, value: object, info: ValidationInfo) -> object:
        # pydantic takes true as 1 for a number: `busy_timeout_ms = true` was a 1 ms timeout.
        field = cls.model_fields[info.field_name] if info.field_name else None
        if isinstance(value, bool) and field is not None and field.annotation in _NUMBERS:
            raise ValueError(f"must be a number, not {str(value).lower()}")
        return value


_NUMBERS: tuple[object, ...] = (int, float, int | None, float | None)


class DatabaseSettings(_Section):
    path: Path = Field(Path("laurel.db"), description="the SQLite database file")
    # `sqlite:///laurel.db` (a relative path; `sqlite:////srv/laurel.db` an absolute one) or
    # `postgresql://user:password@host:5432/laurel`; without it, `path` (SQLite) as before.
    url: str | None = Field(
        None, description="sqlite:///path or postgresql://…; when absent, path is used"
    )
    backup_dir: Path = Field(Path("backups"), description="where `laurel db backup` writes")
    # How long a write waits for another program's write lock (a CLI import) before the store
    # answers "busy"; bot.store.backends.BUSY_TIMEOUT_MS is the same default.
    busy_timeout_ms: int = Field(5_000, ge=0, le=600_000)

    @field_validator("path", "backup_dir", mode="before")
    @classmethod
    def _not_empty(cls, value: object) -> object:
        # An empty value would become Path("."): the working folder, not a file.
        if isinstance(value, str) and not value.strip():
            raise ValueError("must not be empty (a file name such as laurel.db)")
        return value

    @field_validator("path")
    @classmethod
    def _a_file(cls, value: Path) -> Path:
        if value.name in ("", ".", "..") or value.is_dir():
            raise ValueError(f"{value} is a folder; name the database file in it")
        return value

    @field_validator("url")
    @classmethod
    def _a_database_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if value.startswith(_SQLITE_URL):
            file = value.removeprefix(_SQLITE_URL)
            if not file.strip():
                raise ValueError("sqlite:/// must name the file, as in sqlite:///laurel.db")
            if file.endswith("/") or Path(file).name in ("", ".", "..") or Path(file).is_dir():
                raise ValueError(
                    f"{value} names a folder; name the database file in it, as in "
                    f"sqlite:///{file.rstrip('/')}/laurel.db"
                )
            return value
        if value.startswith(_POSTGRESQL_URLS):
            try:
                dburl.parse(value)
            except dburl.DatabaseUrlError as exc:  # its message never holds the URL
                raise ValueError(str(exc)) from None
            return value
        # Not repeated: whatever follows the scheme may hold a password.
        shown = f"{value.partition('://')[0][:20]}://…" if "://" in value else "it"
        raise ValueError(f"{shown} is neither sqlite:///path nor postgresql://…")

    @property
    def postgresql(self) -> str | None:
        """The PostgreSQL URL, when the database is one; None for SQLite."""
        return self.url if self.url is not None and self.url.startswith(_POSTGRESQL_URLS) else None

    @property
    def sqlite_path(self) -> Path:
        """The SQLite file: `url`'s when it is a sqlite:/// URL, else `path`."""
        if self.url is not None and self.url.startswith(_SQLITE_URL):
            return Path(self.url.removeprefix(_SQLITE_URL))
        return self.path

    @property
    def target(self) -> dburl.DatabaseTarget:
        """What `bot.store.backends` opens: the PostgreSQL URL, or the SQLite file."""
        url = self.postgresql
        if url is not None:
            return dburl.PostgresTarget(url)
        return dburl.SqliteTarget(self.sqlite_path)

    def secrets(self) -> list[str]:
        """What the logs must never show: the password in a PostgreSQL URL."""
        return dburl.secrets(self.postgresql)


_SQLITE_URL = "sqlite:///"
_POSTGRESQL_URLS = dburl.SCHEMES


class SearchSettings(_Section):
    engine: Literal["tantivy", "fts5"] = Field(
        "tantivy", description="tantivy: a derived index beside the database; fts5: SQLite's own"
    )
    index_path: Path | None = Field(
        None,
        description="where the tantivy index lives (default: the database's path + .search; "
        "on PostgreSQL, in memory)",
    )
    in_memory: bool = Field(False, description="keep the index in memory, rebuilt at each start")
    meaning: bool = Field(
        True,
        description="when no paper has every word typed, rank the papers with some of them by "
        "meaning too (a small model on the CPU, in the index; off: words alone)",
    )
    follow_seconds: float = Field(
        5.0, gt=0, description="how often to catch up with writes made by other processes"
    )

    def index_for(self, database: Path | None, shards: Shards | None = None) -> Path | None:
        """Where the index of the SQLite file `database` (None: a PostgreSQL database) lives;
        None: in memory. A shard process keeps its own (`laurel.db.search-0-1of4`): one tantivy
        directory has one writer, and the processes of a sharded bot share the database, not
        their indexes. On PostgreSQL there is no file to put it beside: it is `index_path`
        (per shard range, as above), or in memory, rebuilt from the database at each start."""
        if self.in_memory:
            return None
        suffix = "" if shards is None else f"-{'-'.join(map(str, shards.ids))}of{shards.count}"
        if database is None:
            if self.index_path is None:
                return None
            return self.index_path.with_name(f"{self.index_path.name}{suffix}")
        if self.index_path is not None:
            return self.index_path
        return database.with_name(f"{database.name}.search{suffix}")


class DiscordSettings(_Section):
    api_base_url: str = Field(DISCORD_API, pattern=r"^https?://[^\s@]+$")
    gateway_url: str | None = Field(None, pattern=r"^wss?://[^\s@]+$")
    dev_guild_id: int | None = Field(None, gt=0)
    # At start, Discord is tried this often (waiting backoff, 2x, 4x, … up to a minute between)
    # before the bot gives up saying it cannot reach it.
    connect_attempts: int = Field(6, ge=1, le=100)
    connect_backoff_seconds: float = Field(2.0, ge=0, le=600)
    # Discord drops a first answer later than 3 s: slow work (a chart, a search) is awaited
    # this long, then the interaction is deferred ("thinking…") and answered by an edit.
    # bot.commands.timing.DEFER_AFTER is the same default.
    defer_after_seconds: float = Field(1.5, ge=0, le=2.5)
    # Gateway sharding (Discord requires it from 2,500 servers): this process runs shards
    # `shard_ids` (a list, or a range string such as "0-3") of `shard_count`. A count alone
    # runs all its shards; neither: one unsharded connection. `laurel run --shards` overrides.
    shard_ids: list[int] | str | None = None
    shard_count: int | None = None

    @model_validator(mode="after")
    def _runnable_shards(self) -> DiscordSettings:
        self.shards  # noqa: B018 (raises, with the reason, for shards that cannot be run)
        return self

    @property
    def shards(self) -> Shards | None:
        """The shards this process runs; None: not sharded."""
        return Shards.of(self.shard_ids, self.shard_count)


class LoggingSettings(_Section):
    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    format: Literal["text", "json"] = "text"


class HealthSettings(_Section):
    enabled: bool = True
    host: str = Field("127.0.0.1", min_length=1)
    port: int = Field(8086, ge=0, le=65535)


class MetricsSettings(_Section):
    enabled: bool = False
    host: str = Field("127.0.0.1", min_length=1)
    port: int = Field(9108, ge=0, le=65535)


class BackupSettings(_Section):
    enabled: bool = True
    interval_hours: float = Field(24.0, gt=0, le=24 * 366)
    keep: int = Field(7, ge=1)


class ArxivSettings(_Section):
    base_url: str = Field(ARXIV_API, pattern=r"^https?://[^\s@]+$")
    timeout_seconds: float = Field(20.0, gt=0, le=300)
    # arXiv's terms of use ask for no more than one request every three seconds.
    min_interval_seconds: float = Field(3.0, ge=0, le=600)
    retries: int = Field(3, ge=0, le=10)
    backoff_seconds: float = Field(5.0, ge=0, le=600)
    ids_per_request: int = Field(100, ge=1, le=2000)
    # A starting bot runs enrich in the background (bot.catalog.arxiv.enrich_job).
    enrich_on_start: bool = False


Snowflake = Annotated[int, Field(gt=0)]


class CurationSettings(_Section):
    """Who may change the catalogue from Discord, besides the bot's owner (always)."""

    user_ids: list[Snowflake] = Field(default_factory=list)
    role_ids: list[Snowflake] = Field(default_factory=list)
    home_guild_id: int | None = Field(None, gt=0)


class DigestSettings(_Section):
    # Discord's global limit is 50 requests/s per bot; 429s count towards Cloudflare's ban on
    # invalid requests, so the fan-out paces itself instead of leaning on them. The bot's rate:
    # a shard process takes its shards' share (bot.domain.shards.process_rate).
    requests_per_second: float | None = Field(50.0, gt=0)
    fan_out_concurrency: int = Field(50, ge=1, le=1_000)
    tick_seconds: int = Field(60, ge=1, le=60)
    catch_up_hours: float = Field(6.0, ge=0, le=24 * 7)
    late_after_minutes: float = Field(5.0, ge=0)
    retry_attempts: int = Field(5, ge=1, le=20)
    retry_base_seconds: float = Field(2.0, gt=0)
    retry_max_seconds: float = Field(60.0, gt=0)
    # Discord de-duplicates a nonce for "a few minutes"; resend within this, look up after it.
    nonce_window_seconds: float = Field(90.0, ge=0)
    history_lookup_limit: int = Field(100, ge=1, le=100)

    @field_validator("tick_seconds")
    @classmethod
    def _divides_a_minute(cls, value: int) -> int:
        if 60 % value:
            raise ValueError("tick_seconds must divide 60 (1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30)")
        return value

    @model_validator(mode="after")
    def _backoff_in_order(self) -> DigestSettings:
        if self.retry_base_seconds > self.retry_max_seconds:
            raise ValueError(
                f"retry_base_seconds ({self.retry_base_seconds:g}) must not exceed "
                f"retry_max_seconds ({self.retry_max_seconds:g})"
            )
        return self


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="LAUREL_", env_nested_delimiter="__", extra="forbid"
    )

    database: DatabaseSettings = DatabaseSettings()
    search: SearchSettings = SearchSettings()
    discord: DiscordSettings = DiscordSettings()
    logging: LoggingSettings = LoggingSettings()
    health: HealthSettings = HealthSettings()
    metrics: MetricsSettings = MetricsSettings()
    backups: BackupSettings = BackupSettings()
    arxiv: ArxivSettings = ArxivSettings()
    curation: CurationSettings = CurationSettings()
    digests: DigestSettings = DigestSettings()
    # Read from the DISCORD_TOKEN variable by name (the alias bypasses the LAUREL_ prefix, so
    # LAUREL_TOKEN sets nothing); a file that names a token is refused; never dumped.
    token: SecretStr | None = Field(
        None, validation_alias="DISCORD_TOKEN", exclude=True, repr=False
    )

    @model_validator(mode="after")
    def _search_on_postgresql(self) -> Settings:
        if self.database.postgresql is not None and self.search.engine == "fts5":
            raise ValueError(
                '[search] engine = "fts5" is SQLite\'s own search: on PostgreSQL use "tantivy"'
            )
        return self

    @field_validator("token")
    @classmethod
    def _no_empty_token(cls, value: SecretStr | None) -> SecretStr | None:
        return value if value and value.get_secret_value() else None

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # The environment overrides the file, which is handed in as init values.
        return (env_settings, init_settings)


def load_settings(path: Path | None = None) -> Settings:
    """Read `path` (or `$LAUREL_CONFIG`, or ./laurel.toml if present) plus the environment."""
    env = os.environ
    explicit = path or (Path(env["LAUREL_CONFIG"]) if env.get("LAUREL_CONFIG") else None)
    config_path = explicit or DEFAULT_CONFIG
    data: dict[str, Any] = {}
    if config_path.exists():
        data = _read_toml(config_path)
    elif explicit is not None:
        raise SettingsError(f"no configuration file at {config_path}")
    if _names_a_token(data):
        raise SettingsError(
            f"{config_path}: the Discord token may not be written in a file; "
            "set the DISCORD_TOKEN environment variable instead"
        )
    try:
        return Settings(**data)
    except (pydantic_settings.SettingsError, RecursionError):
        # An environment variable that should hold JSON (a list, a section) does not.
        raise SettingsError(_bad_json_variables(env)) from None
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in e['loc']) or '(top level)'}: "
            + e["msg"].removeprefix("Value error, ")
            for e in exc.errors(include_url=False)
        ]
        where = f"the configuration is not valid ({config_path}, then LAUREL_* variables)"
        if len(problems) == 1:  # one problem, one line
            raise SettingsError(f"{where}: {problems[0]}") from None
        raise SettingsError(where + ":" + "".join(f"\n  {p}" for p in problems)) from None


def _bad_json_variables(env: Mapping[str, str]) -> str:
    """Which LAUREL_* variables hold JSON that is broken or nested too deep, named."""
    bad = []
    for name, value in sorted(env.items()):
        if not name.startswith("LAUREL_") or not value.lstrip().startswith(("[", "{")):
            continue
        try:
            check_data(json.loads(value), name)
        except (ValueError, RecursionError, NestedTooDeep):
            bad.append(name)
    names = ", ".join(bad) or "a LAUREL_* variable"
    return (
        f"the configuration is not valid: {names} is not well-formed JSON (or nests past "
        f"{MAX_DEPTH} levels); a list is written as [1, 2] and a string in double quotes"
    )


def _names_a_token(value: object) -> bool:
    """Whether a key anywhere in `value` names a token (in any spelling: `DISCORD_TOKEN`,
    `bot_token`, `botToken`, …), or a string anywhere in it is shaped like one."""
    if isinstance(value, dict):
        return any(
            "token" in _ALNUM_ONLY.sub("", str(key).lower()) or _names_a_token(item)
            for key, item in value.items()
        )
    if isinstance(value, list):
        return any(_names_a_token(item) for item in value)
    return isinstance(value, str) and TOKEN_SHAPED.search(value) is not None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_bytes().decode("utf-8-sig")  # a byte-order mark (Notepad's) is no key
    except UnicodeDecodeError as exc:
        raise SettingsError(
            f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8"
        ) from None
    except OSError as exc:
        raise SettingsError(f"{path}: cannot be read: {exc.strerror}") from None
    try:
        check_toml(text, str(path))
        data = tomllib.loads(text)
        check_data(data, str(path))
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not valid TOML: {exc}") from None
    except (NestedTooDeep, RecursionError):
        raise SettingsError(str(NestedTooDeep(str(path)))) from None
    return data
