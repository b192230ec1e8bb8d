"""Atomic file output: a file refscore writes either appears complete or not at all.

The content goes to a temporary file in the target's directory (same file system, so the final rename is atomic),
which replaces the target only when writing has finished; on any error or interrupt (Ctrl-C) the temporary file is
removed and an existing target is left as it was.

>>> import os, tempfile
>>> target = os.path.join(tempfile.mkdtemp(), "scores.txt")
>>> with atomic_write(target) as handle:
...     _ = handle.write("42\\n")
>>> open(target, encoding="utf-8").read()
'42\\n'
"""
from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator, Mapping
from typing import IO, Any

from refscore.errors import InputError

__all__ = [
    "NO_SPACE", "STANDARD_OUTPUT", "UnwritableOutputError", "atomic_path", "atomic_write", "check_output_paths",
    "no_space_error", "write_text_atomically",
]


#: The output "file" that means standard output; it is not a path to check.
STANDARD_OUTPUT = "-"
#: errno values of a write that failed for lack of space: a full disk, a quota, a file size limit (``ulimit -f``).
NO_SPACE = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG})


class UnwritableOutputError(InputError):
    """An output file cannot be written where it was asked for; the message names the argument, the path, why
    and the fix (the command line exits with status 9, ``ExitCode.UNWRITABLE_OUTPUT``)."""


def check_output_paths(outputs: Mapping[str, str | os.PathLike[str] | None]) -> None:
    """Check, before any work, that every output file can be written: ``outputs`` maps each argument (``"-o"``,
    ``"--save"``) to its path; None (not asked for) and ``-`` (standard output) are skipped. A path is refused
    when it is a folder or a device, when its folder does not exist or is not a folder, and when a file cannot be
    created in its folder (permissions, a read-only file system); the check creates and removes an empty file
    there, as the atomic write later will (:func:`atomic_path`).

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> check_output_paths({"-o": os.path.join(folder, "report.html"), "--save": None})
    >>> os.listdir(folder)
    []
    >>> try:
    ...     check_output_paths({"-o": os.path.join(folder, "nodir", "report.html")})
    ... except UnwritableOutputError as error:
    ...     print(str(error).replace(folder, "FOLDER"))
    -o FOLDER/nodir/report.html: the folder does not exist (FOLDER/nodir); create it or write elsewhere
    """
    for argument, path in outputs.items():
        if path is not None and os.fspath(path) != STANDARD_OUTPUT:
            _check_output_path(os.fspath(path), argument)


def _check_output_path(target: str, argument: str) -> None:
    where = f"{argument} {target}" if argument else target
    if os.path.isdir(target):
        raise UnwritableOutputError(f"{where}: is a folder, not a file; give a file name (e.g. "
                                    f"{os.path.join(target, 'NAME')})")
    if os.path.exists(target) and not stat.S_ISREG(os.stat(target).st_mode):
        raise UnwritableOutputError(f"{where}: is not a regular file (a device or a pipe); refscore writes a "
                                    f"file and then renames it into place, so give a file name")
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.exists(folder):
        raise UnwritableOutputError(f"{where}: the folder does not exist ({folder}); create it or write elsewhere")
    if not os.path.isdir(folder):
        raise UnwritableOutputError(f"{where}: {folder} is a file, not a folder; write elsewhere")
    try:
        descriptor, probe = tempfile.mkstemp(prefix=".refscore-check.", dir=folder)
    except OSError as exc:
        raise UnwritableOutputError(f"{where}: cannot create a file in {folder} ({exc.strerror}); write "
                                    f"elsewhere") from None
    os.close(descriptor)
    os.remove(probe)


def no_space_error(target: str | os.PathLike[str], error: OSError, argument: str = "") -> UnwritableOutputError:
    """The error for an output that ran out of space (``error.errno`` in :data:`NO_SPACE`), naming the file.

    >>> print(no_space_error("run.json", OSError(errno.ENOSPC, "No space left on device"), "--save"))
    --save run.json: cannot write it (No space left on device); free some space or write elsewhere
    """
    where = f"{argument} {os.fspath(target)}" if argument else os.fspath(target)
    return UnwritableOutputError(f"{where}: cannot write it ({error.strerror or error}); free some space or write "
                                 f"elsewhere")


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], argument: str = "") -> Iterator[str]:
    """A temporary path next to ``path`` (same suffix, for writers that infer the format from it) that replaces
    ``path`` when the block ends without an exception; removed otherwise (``BaseException``: Ctrl-C too). A write
    that fails for lack of space (a full disk, a quota, ``ulimit -f``) becomes :class:`UnwritableOutputError`
    naming ``argument`` (the flag that gave the path, if any) and the file.

    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "plot.png")
    >>> with atomic_path(target) as temporary:
    ...     temporary.endswith(".png"), os.path.dirname(temporary) == os.path.dirname(target)
    (True, True)
    """
    target = os.fspath(path)
    directory, name = os.path.split(os.path.abspath(target))
    descriptor, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=f".tmp{os.path.splitext(name)[1]}",
                                             dir=directory)
    os.close(descriptor)
    try:
        yield temporary
        _keep_permissions(target, temporary)
        os.replace(temporary, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        if isinstance(exc, OSError) and exc.errno in NO_SPACE:
            raise no_space_error(target, exc, argument) from None
        raise


def _keep_permissions(target: str, temporary: str) -> None:
    """Give the new file the mode an ordinary ``open(target, "w")`` would: the existing file's mode, else the
    default for new files (mkstemp creates files readable by the owner only)."""
    try:
        mode = os.stat(target).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temporary, mode)


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8",
                 newline: str | None = None, argument: str = "") -> Iterator[IO[Any]]:
    """``open(path, mode)`` for writing, atomically (see :func:`atomic_path`); ``mode`` is ``"w"`` or ``"wb"``.

    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "table.tsv")
    >>> with atomic_write(target) as handle:
    ...     _ = handle.write("layer,P,R,F\\n")
    ...     raise OSError("disk full")  # failed half-way (or Ctrl-C): nothing is written
    Traceback (most recent call last):
    OSError: disk full
    >>> os.path.exists(target), os.listdir(os.path.dirname(target))
    (False, [])
    """
    if mode not in ("w", "wb"):
        raise InputError(f"atomic_write writes whole files: mode must be 'w' or 'wb', got {mode!r}")
    with atomic_path(path, argument) as temporary:
        text = mode == "w"
        with open(temporary, mode, encoding=encoding if text else None, newline=newline if text else None) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())


def write_text_atomically(path: str | os.PathLike[str], text: str, argument: str = "") -> None:
    """Write the whole of ``text`` (UTF-8) to ``path`` atomically (see :func:`atomic_path`).

    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "report.html")
    >>> write_text_atomically(target, "<p>hi</p>")
    >>> open(target, encoding="utf-8").read()
    '<p>hi</p>'
    """
    with atomic_write(path, argument=argument) as stream:
        stream.write(text)
