"""No token or secret reaches the log, whatever path it takes into a record."""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Iterator

import pytest

from bot.logs import configure_logging
from bot.observability.redact import REDACTED, Redactor
from bot.settings import LoggingSettings

# Shaped as Discord shapes bot tokens (base64 id . timestamp . HMAC), made fresh per run.
TOKEN = f"MTA5ODc2NTQzMjEwOTg3NjU0.{secrets.token_urlsafe(4)}.{secrets.token_urlsafe(27)}"
# Not token-shaped at all: only knowing the value catches it.
PLAIN_SECRET = 'hunter2 "quoted" secret'


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.usefixtures("restore_logging")
@pytest.mark.parametrize("form", ["text", "json"])
def test_the_configured_token_is_never_written(
    form: str, capsys: pytest.CaptureFixture[str]
) -> None:
    configure_logging(LoggingSettings(format=form, level="DEBUG"), secrets=[PLAIN_SECRET])
    log = logging.getLogger("laurel.test")
    log.info("logging in with %s", PLAIN_SECRET)
    log.debug("payload %r", {"op": 2, "d": {"token": PLAIN_SECRET}})
    try:
        raise RuntimeError(f"login failed for token {PLAIN_SECRET}")
    except RuntimeError:
        log.exception("gateway error")
    err = capsys.readouterr().err
    assert PLAIN_SECRET not in err
    assert json.dumps(PLAIN_SECRET)[1:-1] not in err  # nor as JSON escapes it
    assert err.count(REDACTED) == 3  # the message, the payload, the exception
    assert "logging in with" in err
    assert "RuntimeError" in err


@pytest.mark.usefixtures("restore_logging")
@pytest.mark.parametrize("form", ["text", "json"])
def test_a_token_shaped_string_in_an_exception_is_redacted_unannounced(
    form: str, capsys: pytest.CaptureFixture[str]
) -> None:
    configure_logging(LoggingSettings(format=form))  # this token was never given to the logger
    try:
        raise ValueError(f"401 Unauthorized: Bot {TOKEN} rejected")
    except ValueError:
        logging.getLogger("laurel.test").exception("request failed")
    err = capsys.readouterr().err
    assert TOKEN not in err
    assert TOKEN.split(".")[2] not in err  # not even the HMAC part
    assert "401 Unauthorized" in err
    if form == "json":
        (line,) = err.splitlines()
        assert REDACTED in json.loads(line)["traceback"]


def test_authorization_headers_and_ordinary_text() -> None:
    redact = Redactor()
    assert redact("{'Authorization': 'Bot abc.def'}") == "{'Authorization': '[redacted]'}"
    assert redact("authorization=Bearer xyz") == "authorization=[redacted]"
    ordinary = "bot.localdiscord.rest_interactions took 0.25 s for 3.11.7 at example.com"
    assert redact(ordinary) == ordinary


# -- found by mutation testing (docs/mutation.md) ---------------------------------------------
def test_a_secret_inside_another_is_redacted_with_it_not_before_it() -> None:
    # The shorter secret sorts after the longer one alphabetically but must go second: removed
    # first, it would leave the longer one's ends ("a-", "-b") in the line.
    inner, outer = "xhunter2", "a-xhunter2-b"
    redact = Redactor([inner, outer])
    assert redact(f"one {outer} two {inner}") == f"one {REDACTED} two {REDACTED}"


def test_a_secret_as_json_escapes_it_is_redacted_to_the_last_character() -> None:
    line = json.dumps({"message": f"login with {PLAIN_SECRET} failed"})
    assert Redactor([PLAIN_SECRET])(line) == json.dumps(
        {"message": f"login with {REDACTED} failed"}
    )
