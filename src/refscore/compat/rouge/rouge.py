"""Drop-in for the ``rouge`` PyPI package (1.0.1): ``Rouge().get_scores(hyps, refs, avg=False)`` and
``FilesRouge``, with that package's own semantics and identical outputs.

Those semantics differ from rouge-score's and are kept on purpose: sentences are the pieces between ``.``
characters; words are split on single spaces and are case-sensitive with punctuation attached; with
``exclusive=True`` (default) n-grams and words are counted as *sets* (repeats count once); ROUGE-L is its
summary-level union LCS over distinct words; ``F = 2PR / (P + R + 1e-8)``. The LCS backtrack (with that package's
tie-breaking) runs in refscore's compiled core.

>>> scores = Rouge().get_scores("to make people trustworthy you need to trust them",
...                             "the way to make people trustworthy is to trust them")
>>> {k: round(v["f"], 4) for k, v in scores[0].items()}
{'rouge-1': 0.7059, 'rouge-2': 0.5882, 'rouge-l': 0.7059}
"""
from __future__ import annotations

import io
import os
from collections import Counter
from collections.abc import Sequence
from typing import Any

from refscore.metrics.rouge import lcs_positions

__all__ = ["FilesRouge", "Rouge"]


class _Words:
    """A bag of items: a set when ``exclusive`` (the package's default), else a multiset."""

    def __init__(self, items: Any, exclusive: bool) -> None:
        self.exclusive = exclusive
        self.items: Any = set(items) if exclusive else Counter(items)

    def __len__(self) -> int:
        return len(self.items) if self.exclusive else sum(self.items.values())

    def overlap(self, other: _Words) -> int:
        if self.exclusive:
            return len(self.items & other.items)
        return sum((self.items & other.items).values())


def _words(sentences: Sequence[str]) -> list[str]:
    return [word for sentence in sentences for word in sentence.split(" ")]


def _ngrams(n: int, sentences: Sequence[str], exclusive: bool) -> _Words:
    words = _words(sentences)
    return _Words((tuple(words[i:i + n]) for i in range(len(words) - n + 1)), exclusive)


def _f_r_p(evaluated_count: int, reference_count: int, overlapping_count: int) -> dict[str, float]:
    precision = 0.0 if evaluated_count == 0 else overlapping_count / evaluated_count
    recall = 0.0 if reference_count == 0 else overlapping_count / reference_count
    f1_score = 2.0 * ((precision * recall) / (precision + recall + 1e-8))
    return {"f": f1_score, "p": precision, "r": recall}


def rouge_n(evaluated_sentences: Sequence[str], reference_sentences: Sequence[str], n: int = 2,
            raw_results: bool = False, exclusive: bool = True) -> dict[str, float]:
    """ROUGE-N of two sentence lists, as ``rouge.rouge_score.rouge_n``."""
    if len(evaluated_sentences) <= 0:
        raise ValueError("Hypothesis is empty.")
    if len(reference_sentences) <= 0:
        raise ValueError("Reference is empty.")
    evaluated = _ngrams(n, evaluated_sentences, exclusive)
    reference = _ngrams(n, reference_sentences, exclusive)
    overlap = evaluated.overlap(reference)
    if raw_results:
        return {"hyp": len(evaluated), "ref": len(reference), "overlap": overlap}
    return _f_r_p(len(evaluated), len(reference), overlap)


def _lcs_words(reference_words: list[str], evaluated_words: list[str]) -> list[str]:
    """The words of the LCS chosen by the package's ``_recon_lcs`` (ties move along the evaluated text)."""
    vocabulary: dict[str, int] = {}
    ref_ids = [vocabulary.setdefault(w, len(vocabulary)) for w in reference_words]
    eval_ids = [vocabulary.setdefault(w, len(vocabulary)) for w in evaluated_words]
    positions = lcs_positions(ref_ids, eval_ids, up_on_tie=False)
    return [reference_words[p] for p in positions]


def rouge_l_summary_level(evaluated_sentences: Sequence[str], reference_sentences: Sequence[str],
                          raw_results: bool = False, exclusive: bool = True, **_: Any) -> dict[str, float]:
    """Summary-level ROUGE-L, as ``rouge.rouge_score.rouge_l_summary_level``."""
    if len(evaluated_sentences) <= 0 or len(reference_sentences) <= 0:
        raise ValueError("Collections must contain at least 1 sentence.")
    m = len(_Words(_words(reference_sentences), exclusive))
    n = len(_Words(_words(evaluated_sentences), exclusive))
    union: list[str] = []
    for reference_sentence in reference_sentences:
        reference_words = reference_sentence.split(" ")
        for evaluated_sentence in evaluated_sentences:
            union.extend(_lcs_words(reference_words, evaluated_sentence.split(" ")))
    llcs = len(set(union)) if exclusive else len(union)
    recall = llcs / m
    precision = llcs / n
    f_lcs = 2.0 * ((precision * recall) / (precision + recall + 1e-8))
    if raw_results:
        return {"hyp": n, "ref": m, "overlap": llcs}
    return {"f": f_lcs, "p": precision, "r": recall}


def _sentences(text: str) -> list[str]:
    return [" ".join(piece.split()) for piece in text.split(".") if len(piece) > 0]


def _checked(names: Sequence[str] | None, available: Any, kind: str, default: list[str]) -> list[str]:
    """Lowercased ``names`` (``default`` when None), each of which must be in ``available``."""
    if names is None:
        return default
    lowered = [name.lower() for name in names]
    for name in lowered:
        if name not in available:
            raise ValueError("Unknown %s '%s'" % (kind, name))
    return lowered


class Rouge:
    """``rouge.Rouge``: ``get_scores(hyps, refs, avg=False, ignore_empty=False)``."""

    DEFAULT_METRICS = ["rouge-1", "rouge-2", "rouge-l"]
    AVAILABLE_METRICS = {
        **{f"rouge-{n}": (lambda hyp, ref, n=n, **k: rouge_n(hyp, ref, n, **k)) for n in range(1, 6)},
        "rouge-l": lambda hyp, ref, **k: rouge_l_summary_level(hyp, ref, **k),
    }
    DEFAULT_STATS = ["r", "p", "f"]
    AVAILABLE_STATS = ["r", "p", "f"]

    def __init__(self, metrics: Sequence[str] | None = None, stats: Sequence[str] | None = None,
                 return_lengths: bool = False, raw_results: bool = False, exclusive: bool = True) -> None:
        self.return_lengths = return_lengths
        self.raw_results = raw_results
        self.exclusive = exclusive
        self.metrics = _checked(metrics, Rouge.AVAILABLE_METRICS, "metric", Rouge.DEFAULT_METRICS)
        if self.raw_results:
            self.stats = ["hyp", "ref", "overlap"]
        else:
            self.stats = _checked(stats, Rouge.AVAILABLE_STATS, "stat", Rouge.DEFAULT_STATS)

    def get_scores(self, hyps: Any, refs: Any, avg: bool = False, ignore_empty: bool = False) -> Any:
        if isinstance(hyps, str):
            hyps, refs = [hyps], [refs]
        if ignore_empty:
            pairs = [pair for pair in zip(hyps, refs) if len(pair[0]) > 0 and len(pair[1]) > 0]
            hyps, refs = zip(*pairs)
        if not isinstance(hyps, type(refs)):
            raise TypeError(f"hyps and refs must be the same kind of sequence, got {type(hyps).__name__} and "
                            f"{type(refs).__name__}")
        if len(hyps) != len(refs):
            raise ValueError(f"hyps has {len(hyps)} items but refs has {len(refs)}")
        return self._get_avg_scores(hyps, refs) if avg else self._get_scores(hyps, refs)

    def _pair_scores(self, hyp_text: str, ref_text: str, **options: Any) -> tuple[dict[str, Any], dict[str, int]]:
        """Each metric's scores of one pair, and the pair's word counts."""
        hyp, ref = _sentences(hyp_text), _sentences(ref_text)
        scores = {m: Rouge.AVAILABLE_METRICS[m](hyp, ref, exclusive=self.exclusive, **options) for m in self.metrics}
        return scores, {"hyp": len(" ".join(hyp).split()), "ref": len(" ".join(ref).split())}

    def _get_scores(self, hyps: Sequence[str], refs: Sequence[str]) -> list[dict[str, Any]]:
        results = []
        for hyp_text, ref_text in zip(hyps, refs):
            scores, lengths = self._pair_scores(hyp_text, ref_text, raw_results=self.raw_results)
            sentence_score: dict[str, Any] = {m: {s: sc[s] for s in self.stats} for m, sc in scores.items()}
            if self.return_lengths:
                sentence_score["lengths"] = lengths
            results.append(sentence_score)
        return results

    def _get_avg_scores(self, hyps: Sequence[str], refs: Sequence[str]) -> dict[str, Any]:
        # As the package: the average path never passes raw_results to the metric functions.
        totals: dict[str, Any] = {m: {s: 0 for s in self.stats} for m in self.metrics}
        length_totals = {"hyp": 0, "ref": 0}
        count = 0
        for hyp_text, ref_text in zip(hyps, refs):
            scores, lengths = self._pair_scores(hyp_text, ref_text)
            for m, sc in scores.items():
                totals[m] = {s: totals[m][s] + sc[s] for s in self.stats}
            for key in length_totals:
                length_totals[key] += lengths[key]
            count += 1
        averages: dict[str, Any] = {m: {s: totals[m][s] / count for s in self.stats} for m in self.metrics}
        if self.return_lengths:
            averages["lengths"] = {k: length_totals[k] / count for k in ["hyp", "ref"]}
        return averages


class FilesRouge:
    """``rouge.FilesRouge``: scores line i of a hypothesis file against line i of a reference file."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.rouge = Rouge(*args, **kwargs)

    def get_scores(self, hyp_path: str, ref_path: str, avg: bool = False, ignore_empty: bool = False) -> Any:
        for path in (hyp_path, ref_path):
            if not os.path.isfile(path):
                raise FileNotFoundError(f"FilesRouge: {path} is not a file")
        with io.open(hyp_path, encoding="utf-8", mode="r") as hyp_file:
            hyps = [line[:-1] for line in hyp_file]
        with io.open(ref_path, encoding="utf-8", mode="r") as ref_file:
            refs = [line[:-1] for line in ref_file]
        if len(hyps) != len(refs):
            raise ValueError(f"FilesRouge: {hyp_path} has {len(hyps)} lines but {ref_path} has {len(refs)}")
        return self.rouge.get_scores(hyps, refs, avg=avg, ignore_empty=ignore_empty)
