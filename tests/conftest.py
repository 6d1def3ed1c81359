from __future__ import annotations

from pathlib import Path

import pytest

# ../shared sits beside the checkout (as in CI); it is never committed into the project.
SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"the shared material is not at {SHARED} (it sits beside the checkout in CI)")
    return SHARED
