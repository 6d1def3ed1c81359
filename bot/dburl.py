"""Database URLs, read one way and shown one way (issue 22).

`parse` reads a postgresql:// URL as libpq itself does (`psycopg.conninfo.conninfo_to_dict`),
so that what Laurel calls the password is exactly what the server is sent; without psycopg it
follows libpq's rules in Python (`_libpq_split`). `shown` renders a URL for people, its password
left out (from the authority and from a `password=` parameter), as is the SSL key's
`sslpassword=`. `secrets` names what a log must never show, and `scrub` takes it out of an
engine's error text.

None of them ever repeats a URL it cannot read: libpq's own messages quote the URL, or the
password, whole; a malformed URL is answered with what is wrong in words of our own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from bot.errors import LaurelError

SCHEMES = ("postgresql://", "postgres://")
HIDDEN = "[redacted]"
# libpq's parameters that hold a secret: the password, and the one of the SSL client key.
SECRET_KEYS = ("password", "sslpassword")
# libpq's complaints about a URL, in our words (its own quote the URL or the password).
_REASONS = (
    ("spaces", "a space (write it as %20)"),
    ("%00", "a %00 (a NUL byte) in a percent-encoded part"),
    ("UTF-8", "a percent-encoded part that is not UTF-8 text"),
    ("IPv6", "an IPv6 host address without its closing ]"),
    ("percent-encoded", "a % not followed by two hexadecimal digits (write % as %25)"),
    ("separator", "a query parameter that is not one key=value"),
    ("query parameter", "a query parameter libpq does not know"),
)
_AMBIGUOUS = (
    "an @ after the host: a user name or password holding / or @ must be percent-encoded (%2F, %40)"
)


@dataclass(frozen=True)
class SqliteTarget:
    """A SQLite database: the file at `path` (the default backend)."""

    path: Path

    def shown(self) -> str:
        return str(self.path)


@dataclass(frozen=True)
class PostgresTarget:
    """A PostgreSQL database at `url`, read as libpq reads it when made (a URL libpq cannot
    read is refused in words, never echoed)."""

    url: str

    def __post_init__(self) -> None:
        parse(self.url)

    def shown(self) -> str:
        return shown(self.url)


# What `bot.store.backends.open_database` opens (issue 26): the parsed target decides the
# backend, never the type of a `str | Path` argument.
DatabaseTarget = SqliteTarget | PostgresTarget


class DatabaseUrlError(LaurelError):
    """A database URL that cannot be read; its message never holds the URL."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the database URL is not valid: {reason}")
        self.reason = reason


def parse(url: str) -> dict[str, str]:
    """libpq's reading of `url` (user, password, host, port, dbname and any parameters), or
    DatabaseUrlError saying in one line what is wrong, without the URL."""
    if not url.startswith(SCHEMES):
        raise DatabaseUrlError("it does not start with postgresql://")
    _refuse_ambiguous(url)
    try:
        from psycopg import Error
        from psycopg.conninfo import conninfo_to_dict
    except ImportError:  # psycopg, from the postgresql extra
        return _libpq_split(url)
    try:
        return {k: str(v) for k, v in conninfo_to_dict(url).items() if v is not None}
    except Error as exc:
        message = str(exc)
    except UnicodeDecodeError:  # its message quotes the byte of the password, and where it is
        message = "UTF-8"
    raise DatabaseUrlError(_reason(message))


def shown(url: str) -> str:
    """`url` for a message or a log: as libpq reads it, without its password. A URL that cannot
    be read is shown by its scheme alone."""
    try:
        parts = parse(url)
    except DatabaseUrlError as exc:
        scheme = url.partition("://")[0] if url.startswith(SCHEMES) else "database"
        return f"{scheme}://… (not a valid URL: {exc.reason})"
    for key in SECRET_KEYS:
        parts.pop(key, None)
    user = parts.pop("user", "")
    host, port, dbname = parts.pop("host", ""), parts.pop("port", ""), parts.pop("dbname", "")
    if "," in host or host.startswith("/") or "," in port:  # several hosts, or a socket folder
        parts = {"host": host, **({"port": port} if port else {}), **parts}
        host = port = ""
    netloc = f"[{host}]" if ":" in host else quote(host, safe="")
    netloc = (f"{quote(user, safe='')}@" if user else "") + netloc + (f":{port}" if port else "")
    query = "&".join(f"{k}={quote(v, safe='/,:')}" for k, v in parts.items())
    scheme = url.partition("://")[0]
    return f"{scheme}://{netloc}/{quote(dbname, safe='')}" + (f"?{query}" if query else "")


def secrets(url: str | None) -> list[str]:
    """Every form of `url`'s password a message might carry: as written, and as decoded (in the
    authority, or a `password=` parameter). Empty for no URL or no password."""
    if not url or not url.startswith(SCHEMES):
        return []
    found: set[str] = set()
    credentials, _, rest = _split_credentials(url)
    if credentials is not None and ":" in credentials:
        found.add(credentials.partition(":")[2])
    query = rest.partition("?")[2]
    for pair in query.split("&"):
        key, _, value = pair.partition("=")
        if key.strip().lower() in SECRET_KEYS:
            found.add(value)
    try:
        parts = parse(url)
        found |= {parts[key] for key in SECRET_KEYS if key in parts}
    except DatabaseUrlError:
        # Read some other way (urlsplit's last @, say), everything up to the last @ might be
        # a password: the widest reading is kept out of logs too.
        found.add(url.partition("://")[2].rpartition("@")[0].partition(":")[2])
    found |= {_decoded(s) for s in found}
    return sorted((s for s in found if s), key=len, reverse=True)


def scrub(text: str, url: str) -> str:
    """`text` (an engine's error message) with `url` and every form of its password taken out."""
    text = text.replace(url, shown(url))
    for secret in secrets(url):
        text = text.replace(secret, HIDDEN)
    return text


def _reason(libpq_message: str) -> str:
    for fragment, reason in _REASONS:
        if fragment in libpq_message:
            return reason
    return "libpq cannot read it"


def _split_credentials(url: str) -> tuple[str | None, str, str]:
    """libpq's first step: (user[:password] or None, the text after the scheme, the rest). The
    credentials end at the first @, if an @ comes before any /."""
    after = url.partition("://")[2]
    end = len(after)
    for i, char in enumerate(after):
        if char in "@/":
            end = i
            break
    if end < len(after) and after[end] == "@":
        return after[:end], after, after[end + 1 :]
    return None, after, after


def _refuse_ambiguous(url: str) -> None:
    """An @ left between the credentials and the query: libpq would read part of a password as
    the host, port or database name (and print it), so no reading is safe."""
    _, _, rest = _split_credentials(url)
    if "@" in rest.partition("?")[0]:
        raise DatabaseUrlError(_AMBIGUOUS)


def _decode(text: str) -> str:
    """libpq's percent-decoding, refusing what it refuses."""
    if " " in text:
        raise DatabaseUrlError(_reason("spaces"))
    out = bytearray()
    i = 0
    raw = text.encode()
    while i < len(raw):
        if raw[i : i + 1] == b"%":
            pair = raw[i + 1 : i + 3]
            try:
                value = int(pair, 16) if len(pair) == 2 and pair.isalnum() else -1
            except ValueError:
                value = -1
            if value < 0:
                raise DatabaseUrlError(_reason("percent-encoded"))
            if value == 0:
                raise DatabaseUrlError(_reason("%00"))
            out.append(value)
            i += 3
        else:
            out += raw[i : i + 1]
            i += 1
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:  # as psycopg's reading refuses it
        raise DatabaseUrlError(_reason("UTF-8")) from None


def _decoded(text: str) -> str:
    try:
        return _decode(text)
    except DatabaseUrlError:
        return text


def _libpq_split(url: str) -> dict[str, str]:
    """libpq's URI rules (fe-connect.c, conninfo_uri_parse_options), for when psycopg is not
    installed: credentials up to the first @ before any /, hosts (IPv6 in brackets) and ports
    separated by commas, the database name up to ?, then key=value parameters."""
    credentials, _, rest = _split_credentials(url)
    parts: dict[str, str] = {}
    if credentials is not None:
        user, colon, password = credentials.partition(":")
        if user:
            parts["user"] = _decode(user)
        if colon and password:
            parts["password"] = _decode(password)
    location, _, query = rest.partition("?")
    netloc, slash, dbname = location.partition("/")
    hosts, ports = [], []
    for item in netloc.split(",") if netloc else []:
        if item.startswith("["):
            host, bracket, tail = item[1:].partition("]")
            if not bracket:
                raise DatabaseUrlError(_reason("IPv6"))
            port = tail.removeprefix(":")
        else:
            host, _, port = item.partition(":")
        hosts.append(_decode(host))
        ports.append(_decode(port))
    if any(hosts):
        parts["host"] = ",".join(hosts)
    if any(ports):
        parts["port"] = ",".join(ports)
    if slash and dbname:
        parts["dbname"] = _decode(dbname)
    for pair in query.split("&") if query else []:
        key, equals, value = pair.partition("=")
        if not equals or "=" in value:
            raise DatabaseUrlError(_reason("separator"))
        parts[_decode(key)] = _decode(value)
    return parts
