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
    ordinary = "laurel_console.localdiscord.rest_interactions took 0.25 s for 3.11.7 at example.com"
    assert redact(ordinary) == ordinary


# -- interaction tokens: as Discord makes them ("interaction:" in base64, then more) ---------

INTERACTION_TOKEN = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96)
WEBHOOK_TOKEN = secrets.token_urlsafe(51)  # a followup's token need not look like anything


@pytest.mark.parametrize(
    "line",
    [
        "POST https://discord.com/api/v10/interactions/1234567890123456789/{t}/callback "
        "with {{'type': 4}} has returned 204",
        "POST http://127.0.0.1:4321/api/v10/interactions/123/{t}/callback?with_response=true",
        "PATCH https://discord.com/api/v10/webhooks/1098765432109876543/{t}/messages/@original",
        "POST https://discord.com/api/v10/webhooks/1098765432109876543/{t}?wait=true",
        "DELETE /webhooks/1/{t}/messages/1234",
        "For Shard ID None: WebSocket Event: {{'t': 'INTERACTION_CREATE', 'd': {{'id': '1', "
        "'token': '{t}', 'type': 2}}}}",
        '{{"op": 0, "t": "INTERACTION_CREATE", "d": {{"token": "{t}", "id": "1"}}}}',
        'json inside json: {{\\"token\\": \\"{t}\\"}}',
    ],
    ids=[
        "callback",
        "callback-query",
        "original",
        "followup",
        "path-only",
        "gateway-repr",
        "gateway-json",
        "json-escaped",
    ],
)
@pytest.mark.parametrize(
    "token", [INTERACTION_TOKEN, WEBHOOK_TOKEN], ids=["interaction", "webhook"]
)
def test_interaction_and_webhook_tokens_are_redacted(line: str, token: str) -> None:
    text = line.format(t=token)
    redacted = Redactor()(text)

    assert token not in redacted
    assert token[:12] not in redacted
    assert token[-12:] not in redacted
    assert REDACTED in redacted


def test_a_bare_interaction_token_is_redacted_by_its_shape() -> None:
    # (a webhook token on its own has no shape to know it by; it is caught where it is used)
    redacted = Redactor()(f"the interaction {INTERACTION_TOKEN} expired")
    assert redacted == f"the interaction {REDACTED} expired"


def test_what_surrounds_an_interaction_token_is_kept() -> None:
    redact = Redactor()
    line = f"POST https://discord.com/api/v10/interactions/42/{INTERACTION_TOKEN}/callback done"
    assert (
        redact(line) == f"POST https://discord.com/api/v10/interactions/42/{REDACTED}/callback done"
    )
    webhook = f"PATCH /webhooks/7/{WEBHOOK_TOKEN}/messages/@original has returned 200"
    assert redact(webhook) == f"PATCH /webhooks/7/{REDACTED}/messages/@original has returned 200"
    plain = "GET /webhooks/7 and /interactions/42 and a 'tokens' count: 3, paper token: 5"
    assert redact(plain) == plain


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
