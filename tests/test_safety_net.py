"""The suite's own safety net: a test that hangs fails after a bounded time (issue 13)."""

from __future__ import annotations

import pytest


def test_every_test_runs_under_a_timeout(request: pytest.FixtureRequest) -> None:
    assert request.config.pluginmanager.hasplugin("timeout"), "pytest-timeout is in [test]"
    assert 0 < float(request.config.getini("timeout")) <= 900
