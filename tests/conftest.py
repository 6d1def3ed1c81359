from __future__ import annotations

from pathlib import Path

import pytest

from bot.localdiscord.limits import SpecValidatorProtocol

# ../shared sits beside the checkout (as in CI); it is never committed into the project.
SHARED = Path(__file__).resolve().parents[2] / "shared"
SPEC = SHARED / "discord-api-spec" / "openapi.json"


@pytest.fixture(scope="session")
def spec_validator() -> SpecValidatorProtocol | None:
    """Discord's OpenAPI spec from ../shared, checking every request the bot sends in tests.

    Where ../shared is absent the stand-in still enforces Discord's limits, but not the spec;
    the run's header says so (see pytest_report_header).
    """
    if not SPEC.is_file():
        return None
    from bot.localdiscord.spec import SpecValidator

    return SpecValidator.from_file(SPEC)


def pytest_report_header() -> str:
    where = SPEC if SPEC.is_file() else f"absent ({SPEC}): requests are checked against limits only"
    return f"Discord OpenAPI spec: {where}"


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"the shared material is not at {SHARED} (it sits beside the checkout in CI)")
    return SHARED
