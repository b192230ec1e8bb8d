"""refscore's advice warnings: valid input that a metric scores, but probably not as the user meant.

- :func:`warn_if_tokenized`: sacreBLEU's check for tokenized hypotheses (at least 100 end in ``" ."``), raised as a
  :class:`~refscore.errors.TokenizedInputWarning` by BLEU, chrF and TER (sacreBLEU itself logs it, for BLEU only);
- :func:`warn_if_cjk`: text mostly in Chinese, Japanese or Korean scored with 13a (sacreBLEU picks ``zh``,
  ``ja-mecab`` or ``ko-mecab`` for such a target), a :class:`~refscore.errors.CJKTokenizerWarning` by BLEU;
- :func:`advise`: any other such warning (ROUGE-Lsum without sentence breaks,
  :class:`~refscore.errors.RougeLsumWarning`).

Each is raised at most once per call, as a Python warning pointing at the caller's line, so the usual warnings
filters silence it. The drop-ins run their peers' code paths inside :func:`as_peer`, where these warnings are off:
a drop-in warns (or logs) only where its peer does.

>>> count_tokenized_periods(["a .", "b .\\nc", "d ."])
2
>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     warn_if_tokenized("TER", ["a ."] * 100, "Detokenize them.")
...     with as_peer():
...         warn_if_tokenized("TER", ["a ."] * 100, "Detokenize them.")
>>> [str(w.message).split(",")[0] for w in caught]
["TER: 100 of the 100 hypotheses end in a tokenized period ('.')"]
"""
from __future__ import annotations

import contextlib
import contextvars
import itertools
import warnings
from collections.abc import Iterator, Sequence

from refscore._core._batch import count_endswith
from refscore.errors import CJKTokenizerWarning, RefscoreWarning, TokenizedInputWarning, caller_stacklevel
from refscore.text.languages import cjk_advice

__all__ = ["TOKENIZED_PERIOD_LINES", "advise", "as_peer", "count_tokenized_periods", "looks_tokenized",
           "warn_if_cjk", "warn_if_tokenized"]

#: sacreBLEU's threshold: this many hypotheses ending in " ." make a corpus look tokenized.
TOKENIZED_PERIOD_LINES = 100

_ADVICE_ON: contextvars.ContextVar[bool] = contextvars.ContextVar("refscore_advice_warnings", default=True)


@contextlib.contextmanager
def as_peer() -> Iterator[None]:
    """Inside this block (this thread or task only) refscore's advice warnings are off, as in the peer a drop-in
    reproduces."""
    token = _ADVICE_ON.set(False)
    try:
        yield
    finally:
        _ADVICE_ON.reset(token)


def advise(message: str, category: type[RefscoreWarning]) -> None:
    """Warn ``message`` as ``category`` at the caller's line, unless inside :func:`as_peer`."""
    if _ADVICE_ON.get():
        warnings.warn(message, category, stacklevel=caller_stacklevel())


def count_tokenized_periods(hypotheses: Sequence[str]) -> int:
    """How many hypotheses end in ``" ."`` (sacreBLEU's sign of tokenized text; compiled for a list of ``str``:
    this runs on every corpus score)."""
    count = count_endswith(hypotheses, " .") if type(hypotheses) is list else -1
    return count if count >= 0 else sum(map(str.endswith, hypotheses, itertools.repeat(" .")))


def looks_tokenized(hypotheses: Sequence[str]) -> bool:
    """sacreBLEU's rule: at least :data:`TOKENIZED_PERIOD_LINES` hypotheses end in ``" ."``.

    >>> looks_tokenized(["a ."] * 99 + ["b .\\nc"]), looks_tokenized(["a ."] * 100)
    (False, True)
    """
    return count_tokenized_periods(hypotheses) >= TOKENIZED_PERIOD_LINES


def warn_if_tokenized(owner: str, hypotheses: Sequence[str], fix: str) -> None:
    """Warn once (:class:`~refscore.errors.TokenizedInputWarning`) when ``hypotheses`` (text) look tokenized by
    sacreBLEU's rule, in sacreBLEU's words, with ``owner``'s ``fix`` and how to silence the warning."""
    if not _ADVICE_ON.get():
        return
    count = count_tokenized_periods(hypotheses)
    if count >= TOKENIZED_PERIOD_LINES:
        advise(f"{owner}: {count} of the {len(hypotheses)} hypotheses end in a tokenized period ('.'), sacreBLEU's "
               f"sign of tokenized text (from {TOKENIZED_PERIOD_LINES} such lines on): it looks like you forgot to "
               f"detokenize your test data, which may hurt your score. {fix} To silence this warning: "
               f"warnings.filterwarnings('ignore', category=refscore.errors.TokenizedInputWarning) (command line: "
               f"PYTHONWARNINGS=ignore::UserWarning)", TokenizedInputWarning)


def warn_if_cjk(owner: str, hypotheses: Sequence[str], tokenize: str) -> None:
    """Warn once (:class:`~refscore.errors.CJKTokenizerWarning`) when ``hypotheses`` are mostly CJK text and
    ``tokenize`` cuts at spaces and punctuation only (:func:`refscore.text.languages.cjk_advice`)."""
    if not _ADVICE_ON.get():
        return
    advice = cjk_advice(owner, hypotheses, tokenize)
    if advice is not None:
        advise(f"{advice}. To silence this warning: warnings.filterwarnings('ignore', "
               f"category=refscore.errors.CJKTokenizerWarning)", CJKTokenizerWarning)
