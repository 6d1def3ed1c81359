"""The stand-in on a free port, and the real discord.py client pointed at it (the client and
`connected`: tests/support/bare_client.py).

Every test ends by checking that the client made no request the stand-in does not know and
broke neither Discord's spec nor its limits; a test that breaks them on purpose empties
`server.violations` once it has looked at them.
"""

from __future__ import annotations

import discord
import pytest
import yarl

from laurel_console.localdiscord.server import LocalDiscord
from tests.support.bare_client import Laurel


@pytest.fixture
def server(server: LocalDiscord, monkeypatch: pytest.MonkeyPatch) -> LocalDiscord:
    """The stand-in of tests/conftest.py, with discord.py's own URLs pointed at it: these
    tests use a bare client, not LaurelBot (which is told its API base by its settings)."""
    monkeypatch.setattr(discord.http.Route, "BASE", server.rest_url)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url)
    )
    return server


@pytest.fixture
def bot() -> Laurel:
    return Laurel()
