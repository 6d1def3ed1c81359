"""What can go wrong when asking arXiv, as errors a person can be shown.

Each is a `UserError`: its key names a message in `bot/render/locales/*/arxiv.toml`, so a
curator in Discord reads it in their language and `laurel enrich` prints the English one.
"""

from __future__ import annotations

from bot.errors import UserError


class ArxivError(UserError):
    """Any failure to get a paper's record from arXiv."""


class ArxivQueryError(ArxivError):
    """arXiv refused the query: it answered with an entry titled "Error" and says why."""

    def __init__(self, message: str) -> None:
        super().__init__("arxiv-query-error", message=message)
        self.message = message


class ArxivNotFoundError(ArxivError):
    """arXiv knows no paper with this id."""

    def __init__(self, arxiv_id: str) -> None:
        super().__init__("arxiv-not-found", arxiv_id=arxiv_id)
        self.arxiv_id = arxiv_id


class ArxivUnavailableError(ArxivError):
    """arXiv did not answer usefully (5xx, timeouts, broken connections) after every retry."""

    fault = True

    def __init__(self, reason: str, attempts: int) -> None:
        super().__init__("arxiv-unavailable", reason=reason, attempts=attempts)
        self.reason = reason
        self.attempts = attempts


class ArxivBadResponseError(ArxivError):
    """arXiv answered with something that is not an Atom feed of papers."""

    def __init__(self, reason: str) -> None:
        super().__init__("arxiv-bad-response", reason=reason)
        self.reason = reason
