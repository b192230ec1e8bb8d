"""Exceptions, warnings and the command line's exit codes.

Every user-facing check raises a plain :class:`ValueError` or :class:`TypeError` subclass, so callers that
already catch those keep working; the subclasses below let tools tell refscore's input errors apart.
"""
from __future__ import annotations


class RefscoreError(Exception):
    """Base class of refscore's own errors."""


class InputError(RefscoreError, ValueError):
    """An argument has the wrong shape or value; the message names the argument, the position and the fix."""


class InputTypeError(RefscoreError, TypeError):
    """An argument (or one of its items) has the wrong type."""


class IncompatibleStatisticsError(RefscoreError, ValueError):
    """Statistics computed with different metrics or configurations were combined."""


class MissingExtraError(RefscoreError, ImportError):
    """A feature needs an optional dependency group (``pip install refscore[EXTRA]``)."""

    def __init__(self, feature: str, extra: str, missing: str) -> None:
        super().__init__(
            f"{feature} needs the optional dependencies of the '{extra}' extra ({missing} is not installed); "
            f"install them with: pip install 'refscore[{extra}]'"
        )
        self.extra = extra
        self.missing = missing


class RefscoreWarning(UserWarning):
    """Warnings about input that is valid but probably not what the user meant."""


class ExitCode:
    """Distinct exit codes of the ``refscore`` command line."""

    OK = 0
    USAGE = 2  # argparse: unknown option, missing argument
    UNKNOWN_METRIC = 3
    UNREADABLE_FILE = 4
    UNDECODABLE_INPUT = 5
    LINE_COUNT_MISMATCH = 6
    BAD_INPUT = 7
    MISSING_EXTRA = 8
