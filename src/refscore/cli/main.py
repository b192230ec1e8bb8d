"""``refscore``, the command line: a dispatcher that builds only what the command needs.

Phase one is this module: the commands are declared in :data:`refscore.cli.commands.COMMANDS`, so ``refscore
--help`` imports no command module, no metric and not numpy. Phase two imports the one module of the command given
(``refscore score ...``: :mod:`refscore.cli.score`), whose parser carries every metric's flags from their
declarations (:mod:`refscore.cli.metric_flags`); the metrics ``-m`` selects are built from their classes, and a
metric module loads only when it is selected or one of its flags is given. A plug-in that cannot be loaded is one
warning line for every command that does not use it. docs/cli.md gives the start-up figures.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from refscore import __version__
from refscore.cli.commands import COMMANDS
from refscore.cli.exit_codes import CliError, ExitCode, input_error_code
from refscore.cli.process import guarded
from refscore.errors import InputError, MissingExtraError, RefscoreWarning
from refscore.io.atomic import UnwritableOutputError

#: :func:`build_parser`'s default: every command's parser (the docs' command reference and tests read them all).
ALL = "*"


def command_of(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs: its first word that is not an option (``refscore`` itself takes only
    ``--help`` and ``--version``), or None.

    >>> command_of(["score", "-m", "bleu"]), command_of(["--help"])
    ('score', None)
    """
    return next((word for word in argv if not word.startswith("-")), None)


def metrics_epilog() -> str:
    """The help's list of the registered metrics with their flags (declared: no metric module is imported)."""
    from refscore.cli.metric_flags import flags_by_metric

    import textwrap

    lines = ["metrics (-m) and their flags (refscore score --help explains them):"]
    for name, flags in flags_by_metric().items():
        lines += textwrap.wrap(f"{name}: {' '.join(flags) if flags else '(no flags)'}", 100, initial_indent="  ",
                               subsequent_indent="      ", break_on_hyphens=False, break_long_words=False)
    return "\n".join(lines)


def build_parser(command: str | None = ALL) -> argparse.ArgumentParser:
    """The parser of ``refscore``, with the full parser of ``command`` (:data:`ALL`: of every command) and a
    one-line entry for each of the others; ``command=None`` (no command given) adds the metrics' list to the help.

    >>> sorted(build_parser(None).parse_args(["example"]).__dict__)
    ['command']
    """
    epilog = metrics_epilog() if command is None else None
    parser = argparse.ArgumentParser(prog="refscore", description="Fast, exact reference-based text metrics.",
                                     epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"refscore {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    modules = list(dict.fromkeys(entry.module for entry in COMMANDS.values())) if command == ALL else \
        [COMMANDS[command].module] if command in COMMANDS else []
    for name, entry in COMMANDS.items():
        if entry.module in modules:
            if name == next(other for other, e in COMMANDS.items() if e.module == entry.module):
                importlib.import_module(entry.module).register(commands)   # its first command: it adds them all
        else:
            commands.add_parser(name, help=entry.help)   # listed only: not the command being run
    return parser


def warning_printer() -> Callable[..., None]:
    """A ``warnings.showwarning`` for one command: refscore's own warnings as one ``refscore: warning: ...`` line
    on stderr without the source line; a warning with a category of its own (``TokenizedInputWarning``,
    ``RougeLsumWarning``) once per command (the metrics and systems that follow give the same advice), plain
    ``RefscoreWarning`` once per message; other warnings as Python shows them."""
    default, shown = warnings.showwarning, set()

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int, file: Any = None,
             line: str | None = None) -> None:
        if not issubclass(category, RefscoreWarning):
            default(message, category, filename, lineno, file, line)
            return
        key = (category, str(message)) if category is RefscoreWarning else category
        if key not in shown:
            shown.add(key)
            print(f"refscore: warning: {message}", file=sys.stderr)
    return show


def _error_line(exc: Exception, args: argparse.Namespace) -> int | None:
    """Print a command's error as one line and give its exit code; None: not an error of the command's input."""
    if isinstance(exc, CliError):
        code = exc.exit_code
    elif isinstance(exc, MissingExtraError):
        code = ExitCode.MISSING_EXTRA
    elif isinstance(exc, UnwritableOutputError):   # an output file, checked before any work (refscore.io.atomic)
        code = ExitCode.UNWRITABLE_OUTPUT
    elif isinstance(exc, (InputError, ValueError, TypeError)):
        from refscore.cli.metric_setup import flag_hint, selected_options

        print(f"refscore: error: {exc}{flag_hint(str(exc), selected_options(args))}", file=sys.stderr)
        return input_error_code(exc)
    else:
        return None
    print(f"refscore: error: {exc}", file=sys.stderr)
    return code


@guarded  # Ctrl-C, broken pipes, closed stdout: refscore.cli.process
def main(argv: Sequence[str] | None = None) -> int:
    if "REFSCORE_HASH_KEY" in os.environ:   # before parsing: a random key is in use (refscore._core), refuse work
        from refscore.hash_key import hash_key_problem

        key_problem = hash_key_problem()
        if key_problem is not None:
            print(f"refscore: error: {key_problem}", file=sys.stderr)
            return ExitCode.BAD_INPUT
    argv = sys.argv[1:] if argv is None else list(argv)
    show_warning = warning_printer()
    with warnings.catch_warnings():   # the parser's own warnings (a plug-in that cannot be loaded) as one line too
        warnings.showwarning = show_warning
        args = build_parser(command_of(argv)).parse_args(argv)
    try:
        with warnings.catch_warnings():
            warnings.showwarning = show_warning
            return int(args.handler(args))
    except Exception as exc:
        code = _error_line(exc, args)
        if code is None:
            raise
        return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
