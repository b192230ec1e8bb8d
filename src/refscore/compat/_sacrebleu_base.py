"""What every sacreBLEU drop-in (BLEU, chrF, TER) shares: sacreBLEU 2.6's ``Score`` printing and bootstrap interval,
its ``Signature`` object, reference streams with a reference cache, and the bootstrap estimate (computed by
:mod:`refscore.significance`, the code behind the native ``bootstrap_ci``).

A drop-in metric subclasses :class:`SacreMetric` with a refscore :class:`~refscore.protocol.Metric` and one
method, ``_scores(totals)``, that turns rows of summed statistics into sacreBLEU score objects.

>>> refscore_signature = Signature({"nrefs": "1", "case": "mixed", "version": "2.6.0"}, {"case": "c"})
>>> signature = SacreSignature.from_refscore(refscore_signature, n_bootstrap=1000, seed="12345")
>>> signature.format(), signature.format(short=True)
('nrefs:1|bs:1000|seed:12345|case:mixed|version:2.6.0', '#:1|bs:1000|rs:12345|c:mixed|v:2.6.0')
"""
from __future__ import annotations

import json
import os
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from refscore.checks import check_int
from refscore.inputs import from_streams
from refscore.inputs import per_segment as as_per_segment
from refscore.wording import counted
from refscore.errors import InputError, InputTypeError
from refscore.metrics.advice import as_peer
from refscore.protocol import Metric, Signature

#: sacreBLEU's ``Signature._abbr`` for the fields every metric has (``format(short=True)``).
_BASE_ABBREVIATIONS = {"version": "v", "nrefs": "#", "test": "t", "lang": "l", "subset": "S", "origlang": "o",
                       "bs": "bs", "ar": "ar", "seed": "rs"}


class SacreScore:
    """sacreBLEU's ``metrics.base.Score``: ``name``, ``score`` (0–100), ``format()``, ``estimate_ci()``."""

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        """One line (``name|signature = score verbose``), the bare score, or sacreBLEU's JSON."""
        fields: dict[str, Any] = {"name": self.name, "score": float(f"{self.score:.{width}f}"), "signature": signature}
        text = f"{self.score:.{width}f}"
        if self._mean > 0:
            mean, ci = f"{self._mean:.{width}f}", f"{self._ci:.{width}f}"
            confidence = f"μ = {mean} ± {ci}"
            text += f" ({confidence})"
            if is_json:
                fields.update(confidence_mean=float(mean), confidence_var=float(ci), confidence=confidence)
        line = f"{self.name}|{signature}" if signature else self.name
        line = f"{line} = {text}"
        if self._verbose:
            line += f" {self._verbose}"
            fields["verbose_score"] = self._verbose
        if score_only:
            return text
        if is_json:
            for item in signature.split("|"):
                key, value = item.split(":")
                fields[key] = value
            return json.dumps(fields, indent=1, ensure_ascii=False)
        return line

    def estimate_ci(self, scores: Sequence[SacreScore]) -> None:
        """Store the mean and the half-width of the central 95% range of bootstrap ``scores`` (sacreBLEU's rule)."""
        values = sorted(s.score for s in scores)
        lower_index = len(values) // 40
        self._ci = 0.5 * (values[len(values) - lower_index - 1] - values[lower_index])
        self._mean = statistics.mean(values)

    def __repr__(self) -> str:
        return self.format()


class SacreSignature:
    """sacreBLEU's ``Signature``: ``info`` (ordered fields, ``None`` = omitted), ``format(short=False)``,
    ``update(key, value)``; ``version`` always prints last."""

    def __init__(self, info: Mapping[str, Any], abbreviations: Mapping[str, str] | None = None) -> None:
        self.info = {key: value for key, value in info.items() if key != "refscore"}
        self._abbr = {**_BASE_ABBREVIATIONS, **(abbreviations or {})}

    @classmethod
    def from_refscore(cls, signature: Signature, *, omit: Sequence[str] = (), n_bootstrap: int | None = None,
                      seed: str | None = None) -> SacreSignature:
        """sacreBLEU's field order (``nrefs``, ``bs``, ``seed``, then the metric's fields) from a refscore signature,
        without the ``refscore`` field and the fields in ``omit``."""
        fields = signature.fields
        metric_fields = {k: v for k, v in fields.items() if k not in ("nrefs", "version", "refscore", *omit)}
        nrefs = fields["nrefs"]
        info = {"version": fields["version"], "nrefs": int(nrefs) if nrefs.isdigit() else nrefs, "bs": n_bootstrap,
                "ar": None, "seed": seed, "test": None, "lang": None, "origlang": None, "subset": None,
                **metric_fields}
        return cls(info, signature.short_names)

    def format(self, short: bool = False) -> str:
        keys = [key for key in self.info if key != "version"] + ["version"]
        pairs = []
        for key in keys:
            value = self.info.get(key)
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{self._abbr.get(key, key) if short else key}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    __repr__ = __str__


def bootstrap_estimate(metric: Metric, data: np.ndarray, n_samples: int) -> tuple[str, float, float]:
    """sacreBLEU's ``_bootstrap_resample`` + ``Score.estimate_ci``: the seed string (``$SACREBLEU_SEED``, default
    12345, ``none`` = fresh entropy), and the bootstrap mean and half-width on the 0–100 scale, computed by
    :mod:`refscore.significance` with sacreBLEU's own arithmetic (the native ``bootstrap_ci`` is the same values / 100).
    """
    from refscore.significance.sampling import bootstrap_draw, make_rng
    from refscore.significance.intervals import resample_scores, summarize_samples

    seed = os.environ.get("SACREBLEU_SEED", "12345")
    rng = make_rng(None if seed.lower() == "none" else int(seed))
    samples = resample_scores(metric, [data], bootstrap_draw(rng, len(data)), n_samples, num_threads=None,
                              progress=None)[0]
    mean, _, _, half_width = summarize_samples(samples, 0.95, corpus_score_rule=True)[0]
    return seed.lower(), mean, half_width


def check_hypotheses(hypotheses: Any, owner: str) -> None:
    """Refuse a single string where sacreBLEU takes a list of hypotheses (sacreBLEU scores its characters as
    segments and returns a number; refscore raises, see docs/compat.md)."""
    if isinstance(hypotheses, str):
        raise InputTypeError(f"{owner}: hypotheses is a single string where sacreBLEU takes a list of hypotheses "
                             f"(one per segment); sacreBLEU would score its characters as segments. Wrap it in a "
                             f"list, [hypothesis], or use sentence_score(hypothesis, references)")


def _segments(lengths: Sequence[int]) -> str:
    low, high = min(lengths), max(lengths)
    count = counted(high, "segment") if low == high else f"{low} to {high} segments"
    return count + (" each" if len(lengths) > 1 else "")


def check_stream_layout(hypotheses: Sequence[Any], references: Sequence[Any], owner: str) -> None:
    """Refuse reference streams (``references[k][i]``) whose lengths differ from the number of hypotheses, saying
    what was passed, what sacreBLEU itself would do (its ``zip`` stops at the shortest stream, so it scores only
    that many segments) and the fix. As many streams as hypotheses is per-segment references
    (``references[i]`` = segment i's references, as lighteval and jury pass them): the fix is ``list(zip(*refs))``.

    >>> check_stream_layout(["a", "b", "c"], [["x"], ["y"], ["z"]], "CHRF")
    Traceback (most recent call last):
    ...
    refscore.errors.InputError: CHRF: got 3 hypotheses and 3 reference streams of 1 segment each; ...transpose...
    """
    if not isinstance(hypotheses, Sequence) or not all(
            isinstance(stream, Sequence) and not isinstance(stream, str) for stream in references):
        return   # the type checks that follow name the bad argument or item
    lengths = [len(stream) for stream in references]
    n = len(hypotheses)
    if all(length == n for length in lengths):
        return
    scored = min(n, *lengths)
    sacrebleu_would = (f"sacreBLEU itself would score only {counted(scored, 'segment')} (its zip stops at the "
                       f"shortest stream) and report that number for the corpus")
    passed = (f"{owner}: got {counted(n, 'hypothesis')} and {counted(len(lengths), 'reference stream')} "
              f"of {_segments(lengths)}; sacreBLEU's references are streams, references[k][i] = the k-th reference "
              f"of segment i, so every stream needs one entry per hypothesis")
    if len(lengths) == n:
        first = "the first hypothesis" if scored == 1 else f"the first {scored} hypotheses"
        sacrebleu_would += f", {first} against references of all {n} segments"
        raise InputError(f"{passed}. These look like per-segment references (references[i] = the references of "
                         f"segment i, the layout lighteval and jury pass); {sacrebleu_would}. Fix: transpose them "
                         f"into streams, list(zip(*references)) (pad segments with fewer references with None), "
                         f"or call refscore's own functions, which take per-segment references")
    raise InputError(f"{passed}; {sacrebleu_would}. Fix: give every stream {n} entries (None where a segment has "
                     f"no k-th reference)")


class SacreMetric:
    """The sacreBLEU ``Metric`` API around a refscore metric: reference streams (``refs[k][i]``, ``None`` where
    segment ``i`` has no k-th reference), the constructor's reference cache, ``corpus_score(..., n_bootstrap)``,
    ``sentence_score`` and ``get_signature``. Subclasses implement :meth:`_scores`."""

    _signature_class: type[SacreSignature] = SacreSignature
    #: Fields of refscore's signature that sacreBLEU's does not print.
    _omitted_fields: tuple[str, ...] = ()

    def __init__(self, metric: Metric, references: Sequence[Sequence[str | None]] | None = None) -> None:
        self._metric = metric
        self.num_refs: int | None = None
        self.n_bootstrap: int | None = None
        self.seed: str | None = None
        self._ref_cache: list[list[str]] | None = None
        if references is not None:
            self._ref_cache = self._cache_references(references)
            counts = set(map(len, self._ref_cache))
            self.num_refs = counts.pop() if len(counts) == 1 else -1

    # -- for subclasses ----------------------------------------------------------------------------------------
    def _scores(self, totals: np.ndarray) -> Sequence[SacreScore]:
        """sacreBLEU score objects of the rows of summed statistics ``totals`` (``(m, k)``)."""
        raise NotImplementedError

    def _warn_corpus(self, hypotheses: Sequence[str]) -> None:
        """Hook for sacreBLEU's corpus-level warnings (BLEU's tokenized-period check)."""

    # -- sacreBLEU's API ---------------------------------------------------------------------------------------
    def _cache_references(self, references: Any) -> list[list[str]]:
        name = type(self).__name__
        if isinstance(references, (str, bytes)) or not isinstance(references, Sequence):
            raise InputTypeError(f"{name}: `references` must be a sequence of reference streams (a list of lists "
                                 f"of str, refs[k][i]), got {type(references).__name__}")
        for k, stream in enumerate(references):
            if isinstance(stream, str):   # sacreBLEU reads its characters as segments and returns a score
                raise InputTypeError(
                    f"{name}: references[{k}] is a single string where sacreBLEU takes a reference stream (a list "
                    f"with one reference per hypothesis, refs[k][i]); sacreBLEU would score its characters as "
                    f"segments. Wrap a single stream in a list: references=[stream]")
        return from_streams(references)

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]] | None,
                     n_bootstrap: int = 1) -> Any:
        """The corpus score; ``references[k][i]`` is the k-th reference of segment ``i`` (None: use the
        constructor's). ``n_bootstrap > 1`` adds sacreBLEU's bootstrap mean and 95% interval (same RNG and seed,
        ``$SACREBLEU_SEED``, default 12345)."""
        check_hypotheses(hypotheses, type(self).__name__)
        if references:   # num_refs comes from the statistics (set once, by _corpus_score_per_segment)
            check_stream_layout(hypotheses, references, type(self).__name__)
            per_segment = self._cache_references(references)
        elif self._ref_cache is not None:
            if len(self._ref_cache) != len(hypotheses):
                scored = min(len(hypotheses), len(self._ref_cache))
                raise InputError(f"{type(self).__name__}.corpus_score: {counted(len(hypotheses), 'hypothesis')} but "
                                 f"the constructor's references have {counted(len(self._ref_cache), 'segment')}; "
                                 f"sacreBLEU would score only the first {counted(scored, 'segment')}. Give one "
                                 f"hypothesis per reference segment")
            per_segment = self._ref_cache
        else:
            raise InputError(f"{type(self).__name__}.corpus_score: no references given and none were passed to the "
                             f"constructor")
        return self._corpus_score_per_segment(hypotheses, per_segment, n_bootstrap)

    def _corpus_score_per_segment(self, hypotheses: Sequence[str], per_segment: Sequence[Any],
                                  n_bootstrap: int = 1) -> Any:
        """The corpus score with refscore's per-segment references (``per_segment[i]`` = list of references)."""
        check_int(n_bootstrap, "n_bootstrap", minimum=1, owner=f"{type(self).__name__}.corpus_score")
        with as_peer():   # sacreBLEU's own warnings only (_warn_corpus), not refscore's
            stats = self._metric.statistics(hypotheses, as_per_segment(per_segment))
        self._warn_corpus(hypotheses)
        self.num_refs = stats.nrefs
        score = self._scores(stats.totals()[None, :])[0]
        if n_bootstrap > 1:
            self.n_bootstrap = int(n_bootstrap)
            self.seed, score._mean, score._ci = bootstrap_estimate(self._metric, stats.data, self.n_bootstrap)
        return score

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> Any:
        """The score of one hypothesis against its references (a list of strings; ``None`` entries skipped)."""
        name = type(self).__name__
        if not isinstance(hypothesis, str):
            raise InputTypeError(f"{name}: the argument `hyp` should be a string, got {type(hypothesis).__name__}")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise InputTypeError(f"{name}: the argument `refs` should be a sequence of strings, e.g. [reference]")
        refs = [ref for ref in references if ref is not None]
        if not refs:
            raise InputError(f"{name}: the argument `refs` has no reference (empty, or only None); give at least one")
        self.num_refs = len(refs)
        with as_peer():
            stats = self._metric.statistics([hypothesis], [refs], num_threads=1)
        return self._scores(stats.totals()[None, :])[0]

    def get_signature(self) -> SacreSignature:
        """sacreBLEU's signature of the last evaluation (``nrefs``, ``bs``/``seed`` after a bootstrap, options)."""
        if self.num_refs is None:
            raise InputError("Number of references unknown, please evaluate the metric first.")
        return self._signature_class.from_refscore(self._metric.signature(self.num_refs), omit=self._omitted_fields,
                                                   n_bootstrap=self.n_bootstrap, seed=self.seed)
