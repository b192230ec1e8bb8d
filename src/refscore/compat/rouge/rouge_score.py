"""The ``rouge`` package's ``rouge_score`` module: ``rouge_n``, ``rouge_l_summary_level``, ``multi_rouge_n``,
``f_r_p_rouge_n`` and ``Ngrams``, with that package's results.

>>> rouge_n(["the cat sat"], ["the cat ran"], n=1)["p"]
0.6666666666666666
>>> multi_rouge_n([["the cat sat"], ["the cat ran"]], [(0, 1), (1, 1)], n=2)[1]["f"]
0.999999995
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from refscore.compat.rouge.rouge import _f_r_p, _ngrams, rouge_l_summary_level, rouge_n

__all__ = ["Ngrams", "f_r_p_rouge_n", "multi_rouge_n", "rouge_l_summary_level", "rouge_n"]


class Ngrams:
    """The package's n-gram container: a set when ``exclusive`` (repeats count once), else a list (a multiset).

    >>> len(Ngrams([("a",), ("a",), ("b",)], exclusive=False).intersection(Ngrams([("a",)], exclusive=False)))
    1
    """

    # the package's default ({}), never mutated: the items are copied into a new set or list
    def __init__(self, ngrams: Iterable[Any] = {}, exclusive: bool = True) -> None:  # noqa: B006
        self._ngrams: Any = set(ngrams) if exclusive else list(ngrams)
        self.exclusive = exclusive

    def add(self, o: Any) -> None:
        if self.exclusive:
            self._ngrams.add(o)
        else:
            self._ngrams.append(o)

    def __len__(self) -> int:
        return len(self._ngrams)

    def intersection(self, o: Ngrams) -> Ngrams:
        """Common n-grams; for lists each item of ``o`` is matched at most once (in this container's order)."""
        if self.exclusive:
            return Ngrams(self._ngrams.intersection(o._ngrams), exclusive=True)
        remaining = Counter(o._ngrams)
        common = []
        for item in self._ngrams:
            if remaining[item] > 0:
                remaining[item] -= 1
                common.append(item)
        return Ngrams(common, exclusive=False)

    def union(self, *ngrams: Ngrams) -> Ngrams:
        """All n-grams of this container and ``ngrams`` (a set union, or the lists concatenated)."""
        if self.exclusive:
            return Ngrams(self._ngrams.union(*(o._ngrams for o in ngrams)), exclusive=True)
        return Ngrams([item for o in (self, *ngrams) for item in o._ngrams], exclusive=False)


def f_r_p_rouge_n(evaluated_count: int, reference_count: int, overlapping_count: int) -> dict[str, float]:
    """``{"f", "p", "r"}`` from n-gram counts; P or R is 0 for an empty side; ``F = 2PR / (P + R + 1e-8)``."""
    return _f_r_p(evaluated_count, reference_count, overlapping_count)


def multi_rouge_n(sequences: Sequence[Sequence[str]], scores_ids: Sequence[tuple[int, int]], n: int = 2,
                  exclusive: bool = True) -> list[dict[str, float]]:
    """ROUGE-N of many ``(hyp_id, ref_id)`` pairs of ``sequences`` (lists of sentences), each counted once."""
    if n <= 0:
        raise ValueError(f"multi_rouge_n: n must be positive, got {n}")
    for index, sequence in enumerate(sequences):
        if len(sequence) <= 0:
            raise ValueError(f"multi_rouge_n: sequences[{index}] has no sentence")
    bags = [_ngrams(n, sequence, exclusive) for sequence in sequences]
    return [_f_r_p(len(bags[h]), len(bags[r]), bags[h].overlap(bags[r])) for h, r in scores_ids]
