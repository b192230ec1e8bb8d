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
import signal
import stat
import threading
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any

from refscore.errors import InputError

__all__ = [
    "NO_SPACE", "STANDARD_OUTPUT", "OutputTransaction", "UnwritableOutputError", "atomic_path", "atomic_write",
    "check_distinct_outputs", "check_output_paths", "encoded", "no_space_error", "output_transaction",
    "unencodable_error", "write_text_atomically",
]


#: The output "file" that means standard output; it is not a path to check.
STANDARD_OUTPUT = "-"
#: errno values of a write that failed for lack of space: a full disk, a quota, a file size limit (``ulimit -f``).
NO_SPACE = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG})


class UnwritableOutputError(InputError):
    """An output file cannot be written where it was asked for; the message names the argument, the path, why
    and the fix (the command line exits with status 9, ``ExitCode.UNWRITABLE_OUTPUT``)."""


Paths = Iterable[tuple[str, "str | os.PathLike[str] | None"]]


def check_output_paths(outputs: Mapping[str, str | os.PathLike[str] | None], inputs: Paths = ()) -> None:
    """Check, before any work, that every output file can be written: ``outputs`` maps each argument (``"-o"``,
    ``"--save"``) to its path; None (not asked for) and ``-`` (standard output) are skipped. A path is refused
    when it is a folder or a device, when its folder does not exist or is not a folder, and when a file cannot be
    created in its folder (permissions, a read-only file system); the check creates and removes an empty file
    there, as the atomic write later will (:func:`atomic_path`). Outputs that are one file, or an input's file
    (``inputs``: (argument, path) pairs), are refused too (:func:`check_distinct_outputs`).

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
    check_distinct_outputs(outputs, inputs)
    for argument, path in outputs.items():
        if path is not None and os.fspath(path) != STANDARD_OUTPUT:
            _check_output_path(os.fspath(path), argument)


def check_distinct_outputs(outputs: Mapping[str, str | os.PathLike[str] | None], inputs: Paths = ()) -> None:
    """Refuse an output that is another output's file (each would replace the other) or an input's (``check
    x.jsonl --save x.jsonl`` would overwrite its cases); ``inputs`` are (argument, path) pairs, such as
    ``("the cases file", "x.jsonl")`` or ``("-i", "a.txt")``. Files are compared as files (hard and symbolic links,
    ``./x`` and ``x``), paths that do not exist yet by their absolute form.

    >>> try:
    ...     check_distinct_outputs({"--junit-xml": "run.xml", "--save": "./run.xml"})
    ... except UnwritableOutputError as error:
    ...     print(error)
    --save ./run.xml: is also the file of --junit-xml; give each output its own file
    """
    seen: list[tuple[str, str]] = []
    for argument, path in outputs.items():
        if path is None or os.fspath(path) == STANDARD_OUTPUT:
            continue
        target, where = os.fspath(path), f"{argument} {os.fspath(path)}" if argument else os.fspath(path)
        for label, source in inputs:
            if source is not None and os.fspath(source) != STANDARD_OUTPUT and _same_file(target, os.fspath(source)):
                raise UnwritableOutputError(f"{where}: is also {label} {os.fspath(source)}, an input: writing the "
                                            f"output would replace it; write the output elsewhere")
        for other, earlier in seen:
            if _same_file(target, earlier):
                raise UnwritableOutputError(f"{where}: is also the file of {other}; give each output its own file")
        seen.append((argument, target))


def _same_file(first: str, second: str) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:   # one of them does not exist (yet)
        return os.path.normcase(os.path.realpath(first)) == os.path.normcase(os.path.realpath(second))


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
        import tempfile   # here: the command line's start-up does without it
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
    naming ``argument`` (the flag that gave the path, if any) and the file. A one-output :func:`output_transaction`.

    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "plot.png")
    >>> with atomic_path(target) as temporary:
    ...     temporary.endswith(".png"), os.path.dirname(temporary) == os.path.dirname(target)
    (True, True)
    """
    with output_transaction() as outputs, outputs.path(path, argument) as temporary:
        yield temporary


class OutputTransaction:
    """The output files of one command, committed together (see :func:`output_transaction`): each is written to
    a temporary file next to its target as the command goes (:meth:`path`, :meth:`open`, :meth:`write_text`), and
    :meth:`commit` renames them all into place at the end; :meth:`abort` removes them, leaving every target as it
    was. Text is encoded before its file is created, so text that UTF-8 cannot hold (a lone surrogate) is an
    error naming the file before any output is written."""

    def __init__(self) -> None:
        self._staged: list[tuple[str, str]] = []   # (target, temporary), in the order they were begun

    @contextlib.contextmanager
    def path(self, path: str | os.PathLike[str], argument: str = "") -> Iterator[str]:
        """A temporary path for ``path`` (same folder and suffix), renamed over it at :meth:`commit`; an error in
        the block removes it (lack of space: :class:`UnwritableOutputError` naming ``argument`` and the file)."""
        target = os.path.abspath(os.fspath(path))
        directory, name = os.path.split(target)
        try:
            import tempfile   # here: the command line's start-up does without it
            descriptor, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=f".tmp{os.path.splitext(name)[1]}",
                                                     dir=directory)
        except OSError as exc:   # checked before the work, but the folder may have changed since
            where = f"{argument} {os.fspath(path)}" if argument else os.fspath(path)
            raise (no_space_error(path, exc, argument) if exc.errno in NO_SPACE else UnwritableOutputError(
                f"{where}: cannot create a file in {directory} ({exc.strerror}); write elsewhere")) from None
        os.close(descriptor)
        self._staged.append((target, temporary))
        try:
            yield temporary
        except BaseException as exc:
            self._staged.remove((target, temporary))
            with contextlib.suppress(OSError):
                os.remove(temporary)
            if isinstance(exc, OSError) and exc.errno in NO_SPACE:
                raise no_space_error(path, exc, argument) from None
            if isinstance(exc, UnicodeEncodeError):   # text streamed into the file
                raise unencodable_error(exc, f"{argument} {os.fspath(path)}" if argument else os.fspath(path),
                                        at=False) from None
            raise

    @contextlib.contextmanager
    def open(self, path: str | os.PathLike[str], mode: str = "w", argument: str = "",
             encoding: str | None = "utf-8", newline: str | None = None) -> Iterator[IO[Any]]:
        """``open(path, mode)`` (``"w"`` or ``"wb"``) on a staged temporary file, flushed to disk at the end."""
        if mode not in ("w", "wb"):
            raise InputError(f"atomic_write writes whole files: mode must be 'w' or 'wb', got {mode!r}")
        text = mode == "w"
        with self.path(path, argument) as temporary, open(
                temporary, mode, encoding=encoding if text else None, newline=newline if text else None) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())

    def write_text(self, path: str | os.PathLike[str], text: str | bytes, argument: str = "") -> None:
        """Stage ``text`` as ``path``'s UTF-8 content (bytes: as they are); text UTF-8 cannot hold is refused
        before the file exists."""
        data = text if isinstance(text, bytes) else encoded(text, f"{argument} {os.fspath(path)}" if argument
                                                            else os.fspath(path))
        with self.open(path, "wb", argument) as handle:
            handle.write(data)

    def commit(self) -> None:
        """Rename every staged file over its target, with SIGINT and SIGTERM held back meanwhile (a signal that
        arrives is delivered after the last rename), so that an interrupt leaves all of them or none; a rename that
        fails removes the temporary files not yet renamed."""
        held = {signal.SIGINT, getattr(signal, "SIGTERM", signal.SIGINT)}
        blocked = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, held) if blocked else None
        try:
            while self._staged:
                target, temporary = self._staged[0]
                _keep_permissions(target, temporary)
                os.replace(temporary, target)
                self._staged.pop(0)
        except BaseException:   # a rename failed (or was interrupted): the files not yet in place go
            self.abort()
            raise
        finally:
            if previous is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)

    def abort(self) -> None:
        """Remove every staged file; the targets stay as they were."""
        for _, temporary in self._staged:
            with contextlib.suppress(OSError):
                os.remove(temporary)
        self._staged = []


@contextlib.contextmanager
def output_transaction() -> Iterator[OutputTransaction]:
    """An :class:`OutputTransaction` committed when the block ends without an exception, aborted otherwise
    (``BaseException``: Ctrl-C and SIGTERM too): a command's outputs appear together or not at all.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> try:
    ...     with output_transaction() as outputs:
    ...         outputs.write_text(os.path.join(folder, "j.xml"), "<testsuites/>", "--junit-xml")
    ...         outputs.write_text(os.path.join(folder, "run.json"), "a" + chr(0xD800), "--save")
    ... except InputError as error:
    ...     print(str(error).replace(folder, "F").split(", which")[0])
    --save F/run.json: the output holds '\\ud800' at character 1
    >>> os.listdir(folder)
    []
    """
    outputs = OutputTransaction()
    try:
        yield outputs
    except BaseException:
        outputs.abort()
        raise
    outputs.commit()


def encoded(text: str, where: str, encoding: str = "utf-8") -> bytes:
    """``text`` in ``encoding``; a character it cannot hold is an :class:`InputError` naming ``where`` (the file
    or stream), the character and its position, before anything is written.

    >>> encoded("ok", "-o out.txt")
    b'ok'
    """
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        raise unencodable_error(exc, where) from None


def unencodable_error(exc: UnicodeEncodeError, where: str, at: bool = True) -> InputError:
    """The error for text that ``exc.encoding`` cannot hold, naming ``where``, the character and (``at``) its
    position in the text."""
    character = exc.object[exc.start]
    kind = (" (a lone surrogate: text that is not valid Unicode, e.g. a JSON escape \\ud800 without its pair)"
            if 0xD800 <= ord(character) <= 0xDFFF else "")
    name = "UTF-8" if exc.encoding.lower().replace("-", "").replace("_", "") == "utf8" else exc.encoding
    return InputError(f"{where}: the output holds {character!r}{f' at character {exc.start}' if at else ''}, "
                      f"which {name} cannot encode{kind}; fix that text in the input")


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
    with output_transaction() as outputs, outputs.open(path, mode, argument, encoding, newline) as handle:
        yield handle


def write_text_atomically(path: str | os.PathLike[str], text: str, argument: str = "") -> None:
    """Write the whole of ``text`` (UTF-8) to ``path`` atomically (see :func:`atomic_path`).

    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "report.html")
    >>> write_text_atomically(target, "<p>hi</p>")
    >>> open(target, encoding="utf-8").read()
    '<p>hi</p>'
    """
    with output_transaction() as outputs:
        outputs.write_text(path, text, argument)
