"""Laurel's console and stand-ins, apart from the runtime package `bot`: Discord and the arXiv
API on 127.0.0.1 (`localdiscord`, `localarxiv`), the harness that runs LaurelBot against them
(for `laurel console`, the tests and the benchmarks) and what `laurel console`, `laurel
localdiscord` and `laurel localarxiv` run (`cli`). `laurel run` never imports this package.

It ships in the same distribution as `bot`; what only it needs is the `console` extra
(`pip install 'laurel[console]'`). This module imports nothing, so that the command line can
ask it what is missing before importing the rest.
"""

from __future__ import annotations

import importlib.util

# The import names of the `console` extra in pyproject.toml (tests/cli/test_lazy_cli.py keeps
# the two lists equal).
REQUIRES = ("jsonschema", "referencing")
INSTALL = "pip install 'laurel[console]' (in a checkout: pip install -e '.[console]')"


def missing() -> list[str]:
    """The `console` extra's modules this environment lacks."""
    return [name for name in REQUIRES if importlib.util.find_spec(name) is None]
