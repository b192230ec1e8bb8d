"""How the ``refscore`` process ends when its user or its streams stop it early: Ctrl-C, a closed pipe, a closed
standard output. Every subcommand runs inside :func:`guarded`:

- **Ctrl-C** (SIGINT, :class:`KeyboardInterrupt`): the line ``refscore: interrupted`` on stderr and exit status
  130 (128 + SIGINT, what a shell reports for a process stopped by Ctrl-C); a second Ctrl-C during the clean-up
  ends the process at once. Files being written are removed (:mod:`refscore._atomic`).
- **Broken pipe** (``refscore score ... | head -1``): no message, exit status 141 (128 + SIGPIPE, as ``cat`` or
  ``grep`` report it: under ``set -o pipefail`` the pipeline fails as it would with them). Standard output is
  pointed at the null device so that Python's final flush at exit does not complain.
- **Closed standard output** (``refscore score ... >&-``) or a full disk (``> /dev/full``): one error line (exit
  status 9) instead of silently printing nothing, or a traceback.

A closed or missing standard input is reported where it is read (:func:`refscore.cli.io.read_bytes`).
"""
from __future__ import annotations

import errno
import functools
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from refscore._progress import bars_drawn, close_open_bars
from refscore.cli.exit_codes import ExitCode

INTERRUPTED_MESSAGE = "refscore: interrupted"
#: errno values of a write that failed for lack of space (``> /dev/full``, a full disk, a quota).
FULL_DISK = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}


class ClosedOutputError(Exception):
    """Raised on the first write to a standard output that the caller closed."""


class _ClosedOutput:
    """Stands in for ``sys.stdout`` when it is None (file descriptor 1 closed): any write is an error."""

    def write(self, text: str) -> int:
        raise ClosedOutputError("standard output is closed; redirect it to a file (> FILE) or to /dev/null")

    def flush(self) -> None:
        pass


def guarded(main: Callable[..., int]) -> Callable[..., int]:
    """``main`` with Ctrl-C, broken pipes and a closed stdout handled as described in this module; its result is
    the process's exit status.

    >>> guarded(lambda: 3)()
    3
    """

    @functools.wraps(main)
    def run(*args: Any, **kwargs: Any) -> int:
        if sys.stdout is None:
            sys.stdout = _ClosedOutput()  # type: ignore[assignment]
        drawn_before = bars_drawn()
        try:
            code = main(*args, **kwargs)
            sys.stdout.flush()  # a broken pipe shows here, not in Python's flush at exit
            return code
        except KeyboardInterrupt:
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # a second Ctrl-C during the clean-up ends it at once
            # the message goes on a line of its own, never after a half-drawn bar
            _report(("\n" if close_open_bars(drawn_before) else "") + INTERRUPTED_MESSAGE)
            return ExitCode.INTERRUPTED
        except BrokenPipeError:
            _silence_stdout()
            return ExitCode.BROKEN_PIPE
        except SystemExit:  # argparse after --help, --version or a usage error
            try:
                sys.stdout.flush()
            except BrokenPipeError:
                _silence_stdout()
                return ExitCode.BROKEN_PIPE
            raise
        except ClosedOutputError as exc:
            _report(f"refscore: error: {exc}")
            return ExitCode.UNWRITABLE_OUTPUT
        except OSError as exc:
            if exc.errno not in FULL_DISK:
                raise
            _silence_stdout()  # the unwritten rest would fail again at exit
            _report(f"refscore: error: cannot write the output: {exc.strerror}; free some space or write elsewhere")
            return ExitCode.UNWRITABLE_OUTPUT

    return run


def _report(line: str) -> None:
    """One line on stderr (nothing when stderr itself is closed or broken)."""
    if sys.stderr is None:  # print(file=None) would write to stdout
        return
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _silence_stdout() -> None:
    """Point file descriptor 1 at the null device, so the data still buffered in ``sys.stdout`` is discarded
    quietly when Python flushes it at exit (otherwise: ``Exception ignored ... BrokenPipeError``)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
