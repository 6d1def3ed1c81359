"""Why an import's record was not taken, in the reader's language (issue 22).

A rejection carries the English the command line prints (`reason`) and, where it can, what a
locale file can say: the problems of a record that was not valid (bot/catalog/problems.py), or
the key of the store's refusal. Field names are the input's own (a CSV column, a TOML path) and
are shown as they are; a problem no locale file names is shown in English.
"""

from __future__ import annotations

from bot.domain.models import Language, Problem, Rejection
from bot.render.i18n import Strings


def rejection_reason(rejection: Rejection, strings: Strings, language: Language) -> str:
    if rejection.problems:
        separator = strings.text("problem-separator", language)
        return separator.join(
            strings.text(
                "problem-line", language, field=p.field, problem=_said(p, strings, language)
            )
            for p in rejection.problems
        )
    key = f"reason-{rejection.key}"
    if rejection.key and key in strings.messages["en"]:
        try:
            return strings.text(key, language, **rejection.params)
        except (KeyError, IndexError):  # a refusal with other params than its message names
            return rejection.reason
    return rejection.reason


def _said(problem: Problem, strings: Strings, language: Language) -> str:
    key = f"problem-{problem.kind}"
    if key in strings.messages["en"]:
        try:
            return strings.text(key, language, **problem.params)
        except (KeyError, IndexError):
            pass
    return strings.text("problem-other", language, detail=problem.message)
