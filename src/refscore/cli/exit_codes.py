"""Exit codes of the ``refscore`` command line: one per kind of failure, so scripts can tell them apart.

>>> ExitCode.LINE_COUNT_MISMATCH, ExitCode.INTERRUPTED
(6, 130)
"""
from __future__ import annotations

from refscore.errors import UndecodableInputError


class ExitCode:
    """Distinct exit codes of the ``refscore`` command line."""

    OK = 0
    CHECKS_FAILED = 1  # `refscore check`: a case or a gate failed
    USAGE = 2  # argparse: unknown option, missing argument
    UNKNOWN_METRIC = 3
    UNREADABLE_FILE = 4
    UNDECODABLE_INPUT = 5
    LINE_COUNT_MISMATCH = 6
    BAD_INPUT = 7
    MISSING_EXTRA = 8
    UNWRITABLE_OUTPUT = 9  # an output file that cannot be written, standard output closed (``>&-``), a full disk
    THREADS_REFUSED = 11  # the system refused the compiled core's OpenMP threads (refscore._core._parallel)
    INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as shells report it
    TERMINATED = 143  # SIGTERM (timeout, CI, Kubernetes): 128 + SIGTERM, handled as Ctrl-C
    BROKEN_PIPE = 141  # the reader of standard output went away (``| head``): 128 + SIGPIPE


def input_error_code(error: BaseException) -> int:
    """The exit code of an input error: undecodable input (not UTF-8, whichever reader found it: text, records,
    cases) or bad input.

    >>> input_error_code(UndecodableInputError("x.csv: line 2: not valid UTF-8")), input_error_code(ValueError())
    (5, 7)
    """
    return ExitCode.UNDECODABLE_INPUT if isinstance(error, UndecodableInputError) else ExitCode.BAD_INPUT


class CliError(Exception):
    """An error the command line reports as one line on stderr, exiting with ``exit_code`` (here, beside the exit
    codes, so that the dispatcher catches it without importing the input readers; ``refscore.cli.io`` re-exports
    it)."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code
