"""Exceptions and warnings (the command line's exit codes are :mod:`refscore.cli.exit_codes`).

Every user-facing check raises a plain :class:`ValueError` or :class:`TypeError` subclass, so callers that
already catch those keep working; the subclasses below let tools tell refscore's input errors apart. One kind of
mistake, one class: a wrong type is :class:`InputTypeError`, a wrong value :class:`InputError` (scalar arguments
are checked in :mod:`refscore.checks`, hypotheses and references in :mod:`refscore.inputs`).
"""
from __future__ import annotations

import os
import sys
from types import FrameType

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


class RefscoreError(Exception):
    """Base class of refscore's own errors."""


class InputError(RefscoreError, ValueError):
    """An argument has the wrong shape or value; the message names the argument, the position and the fix."""


class UndecodableInputError(InputError):
    """An input file (or standard input) that is not valid UTF-8; the message names the source and the line. Text
    and record readers alike raise it, and the command line exits with its one status for undecodable input."""


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


class MissingModelError(InputError, FileNotFoundError):
    """A model file (e.g. a SentencePiece model of a sacreBLEU tokenizer) is not where it is looked for; the
    message names the file, where it was expected and where it comes from."""


class MemoryBudgetError(InputError, MemoryError):
    """Work would need more memory than the memory budget (:mod:`refscore._memory`: ``memory_budget=``, the
    environment variable ``REFSCORE_MEMORY_BUDGET``); the message names the budget and how to raise it."""


class RefscoreWarning(UserWarning):
    """Warnings about input that is valid but probably not what the user meant."""


class TokenizedInputWarning(RefscoreWarning):
    """BLEU, chrF or TER got hypotheses that look tokenized (sacreBLEU's rule: at least 100 end in ``" ."``).
    Silence it with ``warnings.filterwarnings("ignore", category=TokenizedInputWarning)``."""


class CJKTokenizerWarning(RefscoreWarning):
    """BLEU got hypotheses that are mostly Chinese, Japanese or Korean text with the 13a (or intl) tokenizer, which
    cuts them at spaces and punctuation only. Silence it with
    ``warnings.filterwarnings("ignore", category=CJKTokenizerWarning)``."""


class RougeLsumWarning(RefscoreWarning):
    """ROUGE-Lsum was asked for but no text has a sentence break, so it equals ROUGE-L. Silence it with
    ``warnings.filterwarnings("ignore", category=RougeLsumWarning)``."""


def caller_stacklevel() -> int:
    """The ``stacklevel`` for :func:`warnings.warn` that points at the first frame outside refscore (the user's
    call), however deep inside the package the warning is raised."""
    frame: FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and (frame.f_code.co_filename.startswith(_PACKAGE_DIR) or (
            frame.f_code.co_filename == "<string>" and frame.f_code.co_name == "__init__")):  # a config dataclass's
        frame = frame.f_back
        level += 1
    return level

