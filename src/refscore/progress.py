"""Progress bars for long runs: one policy for every part of refscore (BERTScore, bootstrap, randomization).

The bars are tqdm's (a small, well-kept library that every ML user already has, and the one transformers and
bert-score use), written to stderr. ``enabled=None`` means "automatic": a bar shows only when stderr is a terminal
and the run is expected to take longer than about two seconds; ``True`` and ``False`` force it on or off (the
command line's ``--progress/--no-progress``).

>>> bar = progress_bar(total=3, description="demo", enabled=False)
>>> for _ in range(3):
...     bar.update(1)
>>> bar.close()
"""
from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from refscore.errors import RefscoreWarning

__all__ = [
    "AUTO_MIN_SECONDS", "LONG_RUN_SECONDS", "LongRunWarning", "bars_drawn", "close_open_bars", "format_duration",
    "progress_bar", "timed_bar", "timed_map", "wants_progress",
]

#: Runs expected to take longer than this many seconds show a bar when ``enabled`` is None.
AUTO_MIN_SECONDS = 2.0
#: A run estimated to take longer than this says its estimated time: in its bar, or where none is drawn (stderr is
#: not a terminal) in a :class:`LongRunWarning`.
LONG_RUN_SECONDS = 60.0
#: How long the first units of a timed run (:func:`timed_map`) run before the whole run's time is estimated.
_TIMING_SECONDS = 0.25

_T = TypeVar("_T")
_R = TypeVar("_R")


class LongRunWarning(RefscoreWarning):
    """A run (e.g. a resample count) is estimated to take longer than :data:`LONG_RUN_SECONDS`."""
#: How many bars this process has drawn (see :func:`bars_drawn` and :func:`close_open_bars`).
_drawn = 0


class _NoBar:
    """The do-nothing stand-in for a bar that is off (same methods as the tqdm ones refscore calls)."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def wants_progress(enabled: bool | None, expected_seconds: float) -> bool:
    """Whether to show a bar: ``enabled`` when given, else a long run (see :data:`AUTO_MIN_SECONDS`) on a terminal.

    >>> wants_progress(False, 100.0), wants_progress(True, 0.0)
    (False, True)
    """
    if enabled is not None:
        return bool(enabled)
    return expected_seconds > AUTO_MIN_SECONDS and _stderr_is_terminal()


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (ValueError, AttributeError):  # closed or replaced stderr
        return False


def progress_bar(total: int, description: str, enabled: bool | None = None, expected_seconds: float = 0.0,
                 unit: str = "it") -> Any:
    """A tqdm bar on stderr, or a do-nothing stand-in when :func:`wants_progress` says no (or tqdm is missing).

    Call ``update(n)`` as work completes and ``close()`` at the end (or use it as a context manager).
    """
    if not wants_progress(enabled, expected_seconds):
        return _NoBar()
    try:
        from tqdm.auto import tqdm
    except ImportError:  # tqdm is a dependency; a broken install should cost the bar, not the result
        return _NoBar()
    global _drawn
    _drawn += 1
    return tqdm(total=total, desc=description, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True)


def format_duration(seconds: float) -> str:
    """``'45 s'``, ``'12 min'``, ``'3.4 h'``, ``'9.1 days'``.

    >>> format_duration(45.2), format_duration(720), format_duration(12240), format_duration(8e5)
    ('45 s', '12 min', '3.4 h', '9.3 days')
    """
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def timed_bar(total: int, done: int, seconds: float, description: str, enabled: bool | None = None,
              unit: str = "it") -> Any:
    """The bar of a run whose first ``done`` of ``total`` units took ``seconds`` (already counted in it). The whole
    run's time is estimated from them: a long one shows a bar (:func:`wants_progress`), and one longer than
    :data:`LONG_RUN_SECONDS` says its estimated time in the bar's description, or in a :class:`LongRunWarning` where
    no bar is drawn (unless ``enabled`` is False).

    >>> bar = timed_bar(10, 1, 0.001, "demo", enabled=False)
    >>> bar.update(9); bar.close()
    """
    expected = seconds / max(done, 1) * total
    long = expected > LONG_RUN_SECONDS
    text = f"{description} (about {format_duration(expected)})" if long else description
    bar = progress_bar(total, text, enabled, expected, unit)
    if long and isinstance(bar, _NoBar) and enabled is not False:
        warnings.warn(f"{description}: about {format_duration(expected)} (estimated from the first {done:,} of "
                      f"{total:,})", LongRunWarning, stacklevel=3)
    bar.update(done)
    return bar


def timed_map(function: Callable[[_T], _R], items: Sequence[_T], description: str,
              enabled: bool | None = None) -> list[_R]:
    """``[function(item) for item in items]`` with a :func:`timed_bar` once the first items have run a moment.

    >>> timed_map(abs, [-1, 2, -3], "demo", enabled=False)
    [1, 2, 3]
    """
    results: list[_R] = []
    start, bar = time.perf_counter(), None
    try:
        for item in items:
            results.append(function(item))
            if bar is not None:
                bar.update(1)
            elif time.perf_counter() - start > _TIMING_SECONDS or len(results) == len(items):
                bar = timed_bar(len(items), len(results), time.perf_counter() - start, description, enabled)
    finally:
        if bar is not None:
            bar.close()
    return results


def bars_drawn() -> int:
    """How many bars this process has drawn so far: a command reads it when it starts, for
    :func:`close_open_bars`."""
    return _drawn


def close_open_bars(drawn_before: int = 0) -> bool:
    """Close every bar still open, as after an interrupted run (each clears its line: bars do not stay); returns
    whether a bar was drawn after :func:`bars_drawn` gave ``drawn_before``, so that the caller can start its message
    on a fresh line (a bar caught half-drawn, e.g. interrupted while it was being set up, may not be among the open
    ones; a bar of an earlier command in the same process closed normally and cleared its line).

    >>> start = bars_drawn()
    >>> close_open_bars(start)
    False
    """
    try:
        from tqdm import tqdm
    except ImportError:
        return _drawn > drawn_before
    for bar in list(getattr(tqdm, "_instances", ())):
        bar.close()
    return _drawn > drawn_before
