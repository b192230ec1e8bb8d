"""How the ``refscore`` process ends when its user or its streams stop it early: Ctrl-C, a closed pipe, a closed
standard output. Every subcommand runs inside :func:`guarded`:

- **Ctrl-C** (SIGINT, :class:`KeyboardInterrupt`): the line ``refscore: interrupted`` on stderr and exit status
  130 (128 + SIGINT, what a shell reports for a process stopped by Ctrl-C); a second Ctrl-C during the clean-up
  ends the process at once. Files being written are removed (:mod:`refscore.io.atomic`).
- **SIGTERM** (what ``timeout``, CI runners and Kubernetes send) is handled the same way: it raises
  :class:`Terminated` (a ``KeyboardInterrupt``, so every clean-up that Ctrl-C runs runs), the line
  ``refscore: terminated`` and exit status 143 (128 + SIGTERM).
- **Broken pipe** (``refscore score ... | head -1``): no message, exit status 141 (128 + SIGPIPE, as ``cat`` or
  ``grep`` report it: under ``set -o pipefail`` the pipeline fails as it would with them), wherever standard
  output is written: a ``print`` deep inside a command, a large write, the final flush. While a command runs,
  ``sys.stdout`` turns a broken pipe (or a full disk) into :class:`OutputFailed`, which no ``except OSError`` of
  the command (meant for its input files) can catch and report as ``[Errno 32] Broken pipe``. Standard output is then pointed at the
  null device so that Python's final flush at exit does not complain.
- **Closed standard output** (``refscore score ... >&-``) or a full disk (``> /dev/full``): one error line (exit
  status 9) instead of silently printing nothing, or a traceback.

A closed or missing standard input is reported where it is read (:func:`refscore.cli.io.read_bytes`).
"""
from __future__ import annotations

import functools
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

from refscore.io.atomic import NO_SPACE, encoded, unencodable_error
from refscore.progress import bars_drawn, close_open_bars
from refscore.cli.exit_codes import ExitCode
from refscore.cli.output import shown

INTERRUPTED_MESSAGE = "refscore: interrupted"
TERMINATED_MESSAGE = "refscore: terminated"
#: errno values of a write that failed for lack of space (``> /dev/full``, a full disk, a quota, ``ulimit -f``).
FULL_DISK = NO_SPACE


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread by the handler :func:`guarded` installs: a ``KeyboardInterrupt``, so
    that it is cleaned up after exactly as Ctrl-C is (temporary files removed, bars closed)."""


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


def stopped(interrupt: KeyboardInterrupt) -> tuple[str, int]:
    """The line and the exit status for an interrupt: Ctrl-C (130) or SIGTERM (143).

    >>> stopped(KeyboardInterrupt()), stopped(Terminated())
    (('refscore: interrupted', 130), ('refscore: terminated', 143))
    """
    if isinstance(interrupt, Terminated):
        return TERMINATED_MESSAGE, ExitCode.TERMINATED
    return INTERRUPTED_MESSAGE, ExitCode.INTERRUPTED


class ClosedOutputError(Exception):
    """Raised on the first write to a standard output that the caller closed."""


class OutputFailed(BaseException):
    """A write to standard output failed for a reason of the output's own: its reader went away (a broken pipe) or
    the disk is full; ``error`` is the ``OSError``. A ``BaseException``, like ``KeyboardInterrupt``, so that it
    passes every ``except Exception`` and ``except OSError`` of a command (meant for its input files) straight to
    :func:`guarded`."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


class _WatchedOutput:
    """Stands in for ``sys.stdout`` while a command runs: writes and flushes go to the real stream, and a broken
    pipe or a full disk becomes :class:`OutputFailed`; anything else (``fileno``, ``isatty``, ``encoding``) is the
    real stream's.

    >>> import io
    >>> watched = _WatchedOutput(io.StringIO())
    >>> watched.write("a line"), watched.getvalue()
    (6, 'a line')
    """

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        try:   # on a terminal, data cannot send it control sequences (refscore.cli.output.shown)
            self.terminal = bool(stream.isatty())
        except (AttributeError, ValueError, OSError):
            self.terminal = False

    def write(self, text: str) -> int:
        try:
            return self.stream.write(shown(text) if self.terminal else text)
        except OSError as exc:
            raise _output_error(exc) from None
        except UnicodeEncodeError as exc:   # an InputError (exit 7) naming the stream, not a codec's message
            raise unencodable_error(exc, "standard output", at=False) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            raise _output_error(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _output_error(exc: OSError) -> BaseException:
    """What a failed write to standard output raises: :class:`OutputFailed` for a broken pipe or a full disk,
    the error itself otherwise."""
    return OutputFailed(exc) if isinstance(exc, BrokenPipeError) or exc.errno in FULL_DISK else exc


def check_printable(text: str) -> None:
    """Refuse, before any output file is written, text that standard output's encoding cannot hold (an
    :class:`~refscore.errors.InputError` naming the character and its position)."""
    stream = sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding, getattr(stream, "errors", None) or "strict")
    except UnicodeEncodeError:
        encoded(text, "standard output", encoding)
    except LookupError:   # an encoding or error handler codecs does not know: the write will say
        pass


def note(line: str) -> None:
    """Print a line that reports what was done (``refscore: wrote report.html``), not the command's output: with
    standard output closed (``>&-``) it is left out, so a command whose output is a file still succeeds.

    >>> note("refscore: wrote report.html")
    refscore: wrote report.html
    """
    if not isinstance(sys.stdout, _ClosedOutput):
        print(line)


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
        stdout = sys.stdout
        sys.stdout = _ClosedOutput() if stdout is None else _WatchedOutput(stdout)
        previous = _handle_sigterm()
        try:
            return _run_guarded(main, *args, **kwargs)
        finally:
            sys.stdout = stdout
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)

    return run


def _handle_sigterm() -> Any:
    """Make SIGTERM raise :class:`Terminated` (only the main thread can install handlers; a SIGTERM that the
    parent set to be ignored stays ignored); the handler it replaced, or None when it installed none."""
    if not hasattr(signal, "SIGTERM") or threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGTERM)
    if previous == signal.SIG_IGN:
        return None
    signal.signal(signal.SIGTERM, _raise_terminated)
    return previous


def _run_guarded(main: Callable[..., int], *args: Any, **kwargs: Any) -> int:
    """``main(*args, **kwargs)`` ended as this module's docstring says (``sys.stdout`` is already watched)."""
    drawn_before = bars_drawn()
    try:
        code = main(*args, **kwargs)
        sys.stdout.flush()  # a broken pipe shows here, not in Python's flush at exit
        return code
    except KeyboardInterrupt as interrupt:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # a second Ctrl-C (or SIGTERM) during the clean-up ends it
        if _handle_sigterm() is not None:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        line, code = stopped(interrupt)
        # the message goes on a line of its own, never after a half-drawn bar
        _report(("\n" if close_open_bars(drawn_before) else "") + line)
        return code
    except SystemExit:  # argparse after --help, --version or a usage error
        try:
            sys.stdout.flush()
        except OutputFailed as failed:
            return _output_failed(failed.error)
        raise
    except ClosedOutputError as exc:
        _report(f"refscore: error: {exc}")
        return ExitCode.UNWRITABLE_OUTPUT
    except OutputFailed as failed:
        return _output_failed(failed.error)
    except OSError as exc:  # standard error's reader went away, or a write that bypassed sys.stdout
        if not isinstance(_output_error(exc), OutputFailed):
            raise
        return _output_failed(exc)


def _output_failed(exc: OSError) -> int:
    """The exit status after a failed write to the output: 141 and silence for a broken pipe; 9 and one line for a
    full disk."""
    _silence_stdout()  # the unwritten rest would fail again in Python's flush at exit
    if isinstance(exc, BrokenPipeError):
        return ExitCode.BROKEN_PIPE
    _report(f"refscore: error: cannot write the output: {exc.strerror}; free some space or write elsewhere")
    return ExitCode.UNWRITABLE_OUTPUT


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
