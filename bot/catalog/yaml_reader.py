"""Reading YAML: the one module that imports PyYAML, and only the importers import it, when
they read a file (the ai-bestpapers importer, for `laurel import` and `/curate import` of a
.yml; the bundle converter). A starting bot never loads PyYAML.

Nesting is bounded as for every document (bot.domain.nesting): refused while composed, at the
level that goes too deep.
"""

from __future__ import annotations

from typing import Any

import yaml

from bot.domain.nesting import MAX_DEPTH, NestedTooDeep

YAMLError = yaml.YAMLError


class BoundedSafeLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing to compose a node deeper than MAX_DEPTH."""

    origin = "document"
    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise NestedTooDeep(self.origin)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_yaml(text: str, origin: str) -> Any:
    """yaml.safe_load, nested no deeper than MAX_DEPTH."""
    loader = BoundedSafeLoader(text)
    loader.origin = origin
    try:
        return loader.get_single_data()
    except RecursionError:
        raise NestedTooDeep(origin) from None
    finally:
        loader.dispose()


def yaml_line(error: Exception) -> str:
    """The line a YAML error points at, or "?" (a decoding error has none)."""
    mark = getattr(error, "problem_mark", None)
    return str(mark.line + 1) if mark is not None else "?"
