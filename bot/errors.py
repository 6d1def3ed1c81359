class LaurelError(Exception):
    """A problem whose message is fit to show a person as it is: short, and saying what to do.

    The command line prints it and exits non-zero; Discord shows it ephemerally. Anything else
    that escapes is a bug, and is logged with its traceback instead.
    """


class UserError(LaurelError):
    """A mistake in what someone asked Discord for, told back in their own language.

    `key` names a message in `bot/render/locales/<language>/*.toml`; `params` fill it in.
    `str()` gives the key, for logs; the central error handler renders the text. `fault` marks
    one that is no mistake of theirs (a service Laurel needs is down): it is told the same way,
    and counted apart in the metrics.
    """

    fault = False

    def __init__(self, key: str, /, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class StoreError(LaurelError):
    """The database cannot be used as asked; the English reason is for the operator."""


class WriteRefused(StoreError):
    """The database refused a write as a whole: nothing of it was written.

    The store raises one of the kinds below, so that what answers the member (the central error
    handler, the command line) knows busy from read-only from full without knowing the engine.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(f"{reason}; nothing was written. Try again once that is fixed.")


class StoreBusy(WriteRefused):
    """Another program held the database's write lock too long."""


class StoreReadOnly(WriteRefused):
    """The database, its folder or its mount may not be written."""


class StoreFull(WriteRefused):
    """The disk is full, or the database reached its size limit."""
