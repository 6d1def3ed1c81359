class LaurelError(Exception):
    """A problem whose message is fit to show a person as it is: short, and saying what to do.

    The command line prints it and exits non-zero; Discord shows it ephemerally. Anything else
    that escapes is a bug, and is logged with its traceback instead.
    """
