from bot.errors import LaurelError


class StoreError(LaurelError):
    """The database cannot be used as asked."""
