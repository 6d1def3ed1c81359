"""Where the shared material is: ../shared beside the checkout (as in CI), never committed into
the project. Tests that need it skip where it is absent (the `shared_dir` fixture)."""

from __future__ import annotations

from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared"
SPEC = SHARED / "discord-api-spec" / "openapi.json"
