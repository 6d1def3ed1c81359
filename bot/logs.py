"""Log output as the settings ask: text for people, JSON lines for collectors; never a secret."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterable

from bot.observability.redact import RedactingFormatter, Redactor
from bot.settings import LoggingSettings


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(settings: LoggingSettings, secrets: Iterable[str] = ()) -> None:
    """Log to stderr as `settings` ask, with `secrets` (and token-shaped strings) redacted."""
    handler = logging.StreamHandler(sys.stderr)
    inner = (
        JsonFormatter()
        if settings.format == "json"
        else logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    )
    handler.setFormatter(RedactingFormatter(inner, Redactor(secrets)))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.level)
    # APScheduler logs every run of every job at INFO ("Running job", "executed successfully"):
    # the search index's catch-up job alone wrote two lines every [search] follow_seconds. Its
    # warnings (a run missed) and errors (a job that raised) still show; DEBUG shows all of it.
    executors = logging.getLogger("apscheduler.executors")
    executors.setLevel(logging.NOTSET if settings.level == "DEBUG" else logging.WARNING)
