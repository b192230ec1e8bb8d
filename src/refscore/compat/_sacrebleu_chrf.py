"""sacreBLEU 2.6's chrF API (``corpus_chrf``, ``sentence_chrf``, class ``CHRF``) on refscore's compiled core.

References use sacreBLEU's *stream* layout (``refs[k][i]``, ``None`` where segment ``i`` has no k-th reference).
Scores are on sacreBLEU's 0–100 scale and are the same floats sacreBLEU computes.

>>> from refscore.compat import sacrebleu
>>> print(sacrebleu.sentence_chrf("The cat sat.", ["The cat sat on the mat."]))
chrF2 = 49.26
>>> metric = sacrebleu.CHRF(word_order=2)
>>> metric.corpus_score(["The cat sat."], [["The cat sat on the mat."]]).score
49.4057766710878
>>> print(metric.get_signature())
nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0
"""
from __future__ import annotations

import json
import os
import statistics
from collections.abc import Sequence
from typing import Any

import numpy as np

from refscore._inputs import from_streams
from refscore.errors import InputError, InputTypeError
from refscore.metrics.chrf import CHRF as _CHRFMetric
from refscore.metrics.chrf import SACREBLEU_VERSION, CHRFConfig, f_scores_percent

__all__ = ["CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf"]


class CHRFScore:
    """sacreBLEU's ``CHRFScore``: ``score`` (0–100), ``char_order``, ``word_order``, ``beta``, ``name``;
    ``str()`` / ``format()`` print like sacreBLEU (``chrF2 = 49.26``)."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: int | float) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.name = f"chrF{beta}" + "+" * word_order
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        """sacreBLEU's ``Score.format``: one line (``name|signature = score``), the bare score, or JSON."""
        fields: dict[str, Any] = {"name": self.name, "score": float(f"{self.score:.{width}f}"), "signature": signature}
        text = f"{self.score:.{width}f}"
        if self._mean > 0:
            mean, ci = f"{self._mean:.{width}f}", f"{self._ci:.{width}f}"
            confidence = f"μ = {mean} ± {ci}"
            text += f" ({confidence})"
            if is_json:
                fields.update(confidence_mean=float(mean), confidence_var=float(ci), confidence=confidence)
        if score_only:
            return text
        if is_json:
            for item in signature.split("|"):
                key, value = item.split(":")
                fields[key] = value
            return json.dumps(fields, indent=1, ensure_ascii=False)
        head = f"{self.name}|{signature}" if signature else self.name
        return f"{head} = {text}"

    def estimate_ci(self, scores: Sequence[CHRFScore]) -> None:
        """Store the mean and the half-width of the 95% interval of bootstrap ``scores`` (sacreBLEU's rule)."""
        values = sorted(s.score for s in scores)
        lower_index = len(values) // 40
        self._ci = 0.5 * (values[len(values) - lower_index - 1] - values[lower_index])
        self._mean = statistics.mean(values)

    def __repr__(self) -> str:
        return self.format()


class CHRFSignature:
    """sacreBLEU's chrF signature: ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``."""

    _ABBREVIATIONS = {"nrefs": "#", "bs": "bs", "seed": "rs", "case": "c", "eff": "e", "nc": "nc", "nw": "nw",
                      "space": "s", "version": "v"}

    def __init__(self, num_refs: int, config: CHRFConfig, n_bootstrap: int | None = None,
                 seed: str | None = None) -> None:
        self.info: dict[str, Any] = {
            "nrefs": "var" if num_refs == -1 else num_refs, "bs": n_bootstrap, "seed": seed,
            "case": "lc" if config.lowercase else "mixed", "eff": "no" if config.eps_smoothing else "yes",
            "nc": config.char_order, "nw": config.word_order, "space": "yes" if config.whitespace else "no",
            "version": SACREBLEU_VERSION}

    def format(self, short: bool = False) -> str:
        return "|".join(f"{self._ABBREVIATIONS[key] if short else key}:{value}"
                        for key, value in self.info.items() if value is not None)

    def update(self, key: str, value: Any) -> None:
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    __repr__ = __str__


def _check_stream(references: Any, name: str) -> list[Any]:
    if isinstance(references, (str, bytes)) or not isinstance(references, Sequence):
        raise InputTypeError(f"CHRF: `{name}` must be a sequence of reference streams (a list of lists of str), "
                             f"got {type(references).__name__}")
    return list(references)


class CHRF:
    """Drop-in for ``sacrebleu.metrics.CHRF``: same constructor, ``corpus_score``, ``sentence_score``,
    ``get_signature``. ``references`` given to the constructor are used when ``corpus_score`` gets ``None``."""

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2

    def __init__(self, char_order: int = CHAR_ORDER, word_order: int = WORD_ORDER, beta: int = BETA,
                 lowercase: bool = False, whitespace: bool = False, eps_smoothing: bool = False,
                 references: Sequence[Sequence[str]] | None = None) -> None:
        self._metric = _CHRFMetric(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                                   whitespace=whitespace, eps_smoothing=eps_smoothing)
        config = self._metric.config
        self.char_order, self.word_order, self.beta = config.char_order, config.word_order, config.beta
        self.order = config.order
        self.lowercase, self.whitespace, self.eps_smoothing = config.lowercase, config.whitespace, config.eps_smoothing
        self.num_refs: int | None = None
        self.n_bootstrap: int | None = None
        self.seed: str | None = None
        self._ref_cache: list[list[str]] | None = None
        if references is not None:
            self._ref_cache = self._per_segment(references)

    def _per_segment(self, references: Sequence[Sequence[str]]) -> list[list[str]]:
        per_segment = from_streams(_check_stream(references, "references"))
        counts = {len(refs) for refs in per_segment}
        self.num_refs = counts.pop() if len(counts) == 1 else -1
        return per_segment

    def _score(self, totals: np.ndarray) -> CHRFScore:
        return CHRFScore(float(f_scores_percent(totals[None, :], self._metric.config)[0]), self.char_order,
                         self.word_order, self.beta)

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None,
                     n_bootstrap: int = 1) -> CHRFScore:
        """Corpus chrF; ``references[k][i]`` is the k-th reference of segment ``i``. With ``n_bootstrap > 1`` the
        score also carries sacreBLEU's bootstrap mean and 95% interval (seed ``$SACREBLEU_SEED``, default 12345)."""
        if references:
            per_segment = self._per_segment(references)
        elif self._ref_cache is not None:
            per_segment = self._ref_cache
        else:
            raise InputError("CHRF.corpus_score: no references given and none were passed to the constructor")
        return self._corpus_score_per_segment(hypotheses, per_segment, n_bootstrap)

    def _corpus_score_per_segment(self, hypotheses: Sequence[str], per_segment: Sequence[Any],
                                  n_bootstrap: int = 1) -> CHRFScore:
        """The corpus score with refscore's per-segment references (``per_segment[i]`` = list of references)."""
        stats = self._metric.statistics(hypotheses, per_segment)
        self.num_refs = stats.nrefs
        score = self._score(stats.totals())
        if n_bootstrap > 1:
            self.n_bootstrap = n_bootstrap
            self.seed, replicates = self._bootstrap(stats.data, n_bootstrap)
            score.estimate_ci(replicates)
        return score

    def _bootstrap(self, data: np.ndarray, n_samples: int) -> tuple[str, list[CHRFScore]]:
        """sacreBLEU's ``_bootstrap_resample``: the same RNG, seed and resampled (float32-summed) statistics."""
        seed = os.environ.get("SACREBLEU_SEED", "12345")
        rng = np.random.default_rng(None if seed.lower() == "none" else int(seed))
        indices = rng.choice(len(data), size=(n_samples, len(data)), replace=True)
        stats32 = data.astype(np.float32)
        totals = np.stack([stats32[row].sum(0) for row in indices])
        percents = f_scores_percent(totals, self._metric.config)
        return seed.lower(), [CHRFScore(float(p), self.char_order, self.word_order, self.beta) for p in percents]

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> CHRFScore:
        """chrF of one hypothesis against its references (a list of strings)."""
        if not isinstance(hypothesis, str):
            raise InputTypeError(f"CHRF: the argument `hyp` should be a string, got {type(hypothesis).__name__}")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise InputTypeError("CHRF: the argument `refs` should be a sequence of strings, e.g. [reference]")
        refs = [ref for ref in references if ref is not None]
        if not refs:
            raise InputError("CHRF: the argument `refs` has no reference (empty, or only None); give at least one")
        self.num_refs = len(refs)
        return self._score(self._metric.statistics([hypothesis], [refs]).totals())

    def get_signature(self) -> CHRFSignature:
        if self.num_refs is None:
            raise InputError("Number of references unknown, please evaluate the metric first.")
        return CHRFSignature(self.num_refs, self._metric.config, self.n_bootstrap, self.seed)


def corpus_chrf(hypotheses: Sequence[str], references: Sequence[Sequence[str]], char_order: int = CHRF.CHAR_ORDER,
                word_order: int = CHRF.WORD_ORDER, beta: int = CHRF.BETA, remove_whitespace: bool = True,
                eps_smoothing: bool = False) -> CHRFScore:
    """sacreBLEU's ``corpus_chrf``: references as streams, ``remove_whitespace`` = not ``whitespace``."""
    return CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                eps_smoothing=eps_smoothing).corpus_score(hypotheses, references)


def sentence_chrf(hypothesis: str, references: Sequence[str], char_order: int = CHRF.CHAR_ORDER,
                  word_order: int = CHRF.WORD_ORDER, beta: int = CHRF.BETA, remove_whitespace: bool = True,
                  eps_smoothing: bool = False) -> CHRFScore:
    """sacreBLEU's ``sentence_chrf``: one hypothesis, a list of reference strings."""
    return CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                eps_smoothing=eps_smoothing).sentence_score(hypothesis, references)
