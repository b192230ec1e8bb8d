"""sacreBLEU 2.6's TER API (``corpus_ter``, ``sentence_ter``, class ``TER``) computed by refscore.

References use sacreBLEU's stream layout (``refs[k][i]``, ``None`` where segment ``i`` has no k-th reference);
scores are on sacreBLEU's 0–100 scale and results have sacreBLEU's ``TERScore`` attributes.

>>> from refscore.compat.sacrebleu import corpus_ter
>>> print(corpus_ter(["The cat sat"], [["the cat sat on the mat"], ["a cat sat"]]))
TER = 22.22
"""
from __future__ import annotations

from collections.abc import Sequence

from refscore._inputs import from_streams
from refscore.errors import InputError, InputTypeError
from refscore.metrics.base import Signature
from refscore.metrics.ter import TER as _RefscoreTER
from refscore.metrics.ter import TERScore as _RefscoreTERScore

__all__ = ["TER", "TERScore", "corpus_ter", "sentence_ter"]


class TERScore:
    """sacreBLEU's ``TERScore``: ``score`` (0–100), ``num_edits`` (int), ``ref_length`` (float), ``name``."""

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        self.name = "TER"
        self.score = score
        self.num_edits = int(num_edits)
        self.ref_length = ref_length

    @classmethod
    def _from_refscore(cls, result: _RefscoreTERScore) -> TERScore:
        return cls(100 * result.score, result.num_edits, result.ref_length)

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        """sacreBLEU's ``Score.format``: ``TER = 22.22`` or ``TER|<signature> = 22.22``."""
        import json

        text = f"{self.score:.{width}f}"
        if score_only:
            return text
        if is_json:
            payload = {"name": self.name, "score": float(text), "signature": signature}
            for field in signature.split("|") if signature else []:
                key, value = field.split(":")
                payload[key] = value
            return json.dumps(payload, indent=1, ensure_ascii=False)
        return f"{self.name}|{signature} = {text}" if signature else f"{self.name} = {text}"

    def __repr__(self) -> str:
        return self.format()


class TER:
    """sacreBLEU's ``TER`` class: ``corpus_score``, ``sentence_score``, ``get_signature``.

    >>> metric = TER()
    >>> metric.sentence_score("The cat sat", ["the cat sat on the mat", "a cat sat"]).num_edits
    1
    >>> print(metric.get_signature())
    nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0
    """

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False, references: Sequence[Sequence[str]] | None = None) -> None:
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self._metric = _RefscoreTER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                                    case_sensitive=case_sensitive)
        self._references = None if references is None else from_streams(references)
        self._num_refs: int | None = None
        if self._references is not None:
            self._num_refs = self._count_refs(self._references)

    @staticmethod
    def _count_refs(per_segment: list[list[str]]) -> int:
        counts = {len(refs) for refs in per_segment}
        return counts.pop() if len(counts) == 1 else -1

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None,
                     n_bootstrap: int = 1) -> TERScore:
        """Corpus TER; ``references`` are streams (``refs[k][i]``), or None to use those given at construction."""
        if n_bootstrap != 1:
            raise InputError("TER.corpus_score: n_bootstrap > 1 is not supported by refscore.compat.sacrebleu; "
                             "compute bootstrap intervals from refscore.TER().statistics(...) instead")
        if references is None:
            if self._references is None:
                raise InputError("TER.corpus_score: no references given and none cached; pass references=")
            per_segment = self._references
        else:
            per_segment = from_streams(references)
            self._num_refs = self._count_refs(per_segment)
        if isinstance(hypotheses, str):
            raise InputTypeError("TER.corpus_score: hypotheses should be a sequence of strings, got one string; "
                                 "wrap it in a list")
        if len(hypotheses) != len(per_segment):
            raise InputError(f"TER.corpus_score: {len(hypotheses)} hypotheses but the reference streams have "
                             f"{len(per_segment)} segments; give one reference per hypothesis in each stream")
        return TERScore._from_refscore(self._metric.corpus_score(list(hypotheses), per_segment))

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> TERScore:
        """TER of one hypothesis against its references (a list of strings)."""
        if not isinstance(hypothesis, str):
            raise InputTypeError(f"TER.sentence_score: hypothesis should be a string, got {type(hypothesis).__name__}")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise InputTypeError("TER.sentence_score: references should be a sequence of strings (a list), "
                                 f"got {type(references).__name__}")
        refs = [ref for ref in references if ref is not None]
        if not refs:
            raise InputError("TER.sentence_score: references is empty; give at least one reference string")
        self._num_refs = len(refs)
        return TERScore._from_refscore(self._metric.sentence_score(hypothesis, refs))

    def get_signature(self) -> Signature:
        """sacreBLEU's signature (``nrefs:...|case:...|tok:tercom|norm:...|punct:...|asian:...|version:2.6.0``)."""
        if self._num_refs is None:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        signature = self._metric.signature(self._num_refs)
        signature.fields.pop("refscore")  # sacreBLEU's own signature has no refscore field
        return signature


def corpus_ter(hypotheses: Sequence[str], references: Sequence[Sequence[str]], normalized: bool = False,
               no_punct: bool = False, asian_support: bool = False, case_sensitive: bool = False) -> TERScore:
    """sacreBLEU's ``corpus_ter`` (reference streams, 0–100 scale)."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.corpus_score(hypotheses, references)


def sentence_ter(hypothesis: str, references: Sequence[str], normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False) -> TERScore:
    """sacreBLEU's ``sentence_ter`` (a list of reference strings, 0–100 scale)."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.sentence_score(hypothesis, references)
