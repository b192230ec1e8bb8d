"""Fuzz targets of the many-against-many kernels (``refscore.pairwise`` / ``refscore.mbr``, compiled in
``refscore._core._pairwise``), registered in :data:`targets.TARGETS`.

* ``pairwise``: a metric drawn among chrF, chrF++, BLEU (tokenizer drawn), Google-BLEU, TER and ROUGE-1/2/L;
  items of fuzzed texts drawn from a small pool (so that texts repeat within and across items), ragged, empty
  items and empty strings included, against references or (MBR) against the item's own candidates. Every cell
  equals, bit for bit, the metric's own ``sentence_scores`` of that pair (chrF, BLEU and TER: also sacreBLEU's
  sentence score); padding is NaN exactly where an item has no such pair; 1 and 3 threads give the same matrix;
  ``pairwise_items`` gives the same matrices unpadded; a drawn memory budget gives the same matrix or refuses with
  ``MemoryBudgetError``.
* ``mbr``: the expected utilities equal the means of the pairwise rows (the diagonal left out unless
  ``include_self``; TER's sign flipped) and the chosen candidate is the first argmax of them (-1: an empty item).
"""
from __future__ import annotations

import functools

import numpy as np

import refscore
from refscore.errors import MemoryBudgetError

#: Words (several scripts, punctuation, case variants) the texts are made of, so that n-grams of different texts
#: match often; a fuzzed raw text (targets.Source.text) is mixed in now and then.
WORDS = ("the", "The", "cat", "cats", "sat", "on", "mat", "a", "Ärger", "straße", "猫", "が", "好き", "кот", "😀",
         "(hi)", "end.", ",", "'s", "x\u0301", "10", "1,000", "-", "")
SEPARATORS = (" ", " ", "  ", "\t", "\u3000", "")


def _metrics() -> list[tuple[str, refscore.protocol.Metric]]:
    from refscore.metrics.bleu import BLEU

    return [("chrf", refscore.CHRF()), ("chrf", refscore.CHRF(word_order=2)),
            ("chrf", refscore.CHRF(word_order=1, lowercase=True, whitespace=True)),
            *[("bleu", BLEU(tokenize=t, effective_order=True)) for t in ("13a", "intl", "zh", "char", "none")],
            ("bleu", BLEU(max_order=2, lowercase=True)), ("gleu", refscore.GLEU()), ("gleu", refscore.GLEU(min_len=2)),
            ("ter", refscore.TER()), ("ter", refscore.TER(normalized=True, case_sensitive=True)),
            ("rouge", refscore.ROUGE(types=("rouge1",))), ("rouge", refscore.ROUGE(types=("rouge2",), stemmer=True)),
            ("rouge", refscore.ROUGE(types=("rougeL",)))]


METRICS = _metrics()


def _text(source) -> str:
    if source.integer(0, 7) == 0:
        return source.text(30)
    return "".join(source.choice(WORDS) + source.choice(SEPARATORS) for _ in range(source.integer(0, 8)))


def _items(source, pool: list[str], max_items: int = 3, max_size: int = 4) -> list[list[str]]:
    return [[source.choice(pool) for _ in range(source.integer(0, max_size))]
            for _ in range(source.integer(0, max_items))]


def _draw(source) -> tuple[str, refscore.protocol.Metric, list[list[str]], list[list[str]] | None]:
    name, metric = source.choice(METRICS)
    pool = [_text(source) for _ in range(source.integer(1, 6))]
    candidates = _items(source, pool)
    references = _items(source, pool, len(candidates), 3) if source.integer(0, 1) else None
    if references is not None:  # one list per item: _items drew at most len(candidates) of them
        references = (references + [[] for _ in candidates])[:len(candidates)]
    return name, metric, candidates, references


def brute_force(metric, candidates: list[list[str]], references: list[list[str]] | None) -> np.ndarray:
    """Each item's (candidates, references) matrix from ``metric.sentence_scores`` on the flattened pairs, padded
    with NaN (tests/test_pairwise.py's rule)."""
    refs = [c if references is None else references[k] for k, c in enumerate(candidates)]
    out = np.full((len(candidates), max(map(len, candidates), default=0), max(map(len, refs), default=0)), np.nan)
    pairs = [(k, i, j, c, r) for k, (cands, item_refs) in enumerate(zip(candidates, refs))
             for i, c in enumerate(cands) for j, r in enumerate(item_refs)]
    if pairs:
        scores = metric.sentence_scores([p[3] for p in pairs], refscore.per_segment([[p[4]] for p in pairs]))
        for (k, i, j, _, _), score in zip(pairs, scores):
            out[k, i, j] = score
    return out


def _assert_same(actual: np.ndarray, expected: np.ndarray, what: str, case) -> None:
    assert actual.shape == expected.shape, (what, actual.shape, expected.shape, case)
    assert np.array_equal(actual, expected, equal_nan=True), (what, actual, expected, case)


@functools.lru_cache(maxsize=None)
def _sacrebleu_sentence(metric_repr: str, metric):
    """sacreBLEU's sentence score (0-100), for chrF, BLEU and TER."""
    from sacrebleu.metrics.bleu import BLEU
    from sacrebleu.metrics.chrf import CHRF
    from sacrebleu.metrics.ter import TER

    import logging

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)   # its advice to use effective_order, per pair
    config = metric.config
    if metric.name == "chrf":
        peer = CHRF(char_order=config.char_order, word_order=config.word_order, beta=config.beta,
                    lowercase=config.lowercase, whitespace=config.whitespace, eps_smoothing=config.eps_smoothing)
    elif metric.name == "bleu":
        peer = BLEU(tokenize=config.tokenize, lowercase=config.lowercase, max_ngram_order=config.max_order,
                    smooth_method=config.smooth_method, effective_order=config.effective_order)
    else:
        peer = TER(normalized=config.normalized, case_sensitive=config.case_sensitive, no_punct=config.no_punct,
                   asian_support=config.asian_support)
    return lambda hypothesis, reference: peer.sentence_score(hypothesis, [reference]).score


def pairwise(data: bytes) -> None:
    from targets import _source

    source = _source(data)
    name, metric, candidates, references = _draw(source)
    case = (repr(metric), candidates, references)
    one = refscore.pairwise(metric, candidates, references, num_threads=1)
    _assert_same(one, brute_force(metric, candidates, references), "cells vs sentence_scores", case)
    _assert_same(refscore.pairwise(metric, candidates, references, num_threads=3), one, "1 vs 3 threads", case)
    for k, matrix in enumerate(refscore.pairwise_items(metric, candidates, references, num_threads=2)):
        _assert_same(matrix, one[k, :matrix.shape[0], :matrix.shape[1]], "pairwise_items", case)
        assert matrix.shape == (len(candidates[k]), len((references or candidates)[k])), case
    budget = 1 << source.integer(10, 22)
    try:
        _assert_same(refscore.pairwise(metric, candidates, references, memory_budget=budget), one,
                     f"memory_budget={budget}", case)
    except MemoryBudgetError as error:
        assert "memory budget" in str(error), error
    if name in ("chrf", "bleu", "ter"):   # a few cells against sacreBLEU itself
        peer = _sacrebleu_sentence(repr(metric), metric)
        cells = [(k, i, j) for k, item in enumerate(candidates) for i in range(len(item))
                 for j in range(len((references or candidates)[k]))][:6]
        for k, i, j in cells:
            expected = peer(candidates[k][i], (references or candidates)[k][j])
            # tests/test_pairwise.py's exact relation: chrF and BLEU are sacreBLEU's float divided by 100;
            # sacreBLEU's TER is 100 * (edits / length), refscore's the quotient itself
            ours, expected = (100 * one[k, i, j], expected) if name == "ter" else (one[k, i, j], expected / 100)
            assert ours == expected, (k, i, j, ours, expected, case)


def mbr(data: bytes) -> None:
    from targets import _source

    source = _source(data)
    _, metric, candidates, pseudo = _draw(source)
    include_self = bool(source.integer(0, 1))
    case = (repr(metric), candidates, pseudo, include_self)
    result = refscore.mbr(candidates, metric=metric, pseudo_references=pseudo, include_self=include_self,
                          return_matrices=True, num_threads=source.integer(1, 3))
    [matrix] = result.matrices.values()
    _assert_same(matrix, refscore.pairwise(metric, candidates, pseudo, num_threads=1), "mbr's matrix", case)
    sign = 1.0 if metric.higher_is_better else -1.0
    for k, item in enumerate(candidates):
        refs = pseudo[k] if pseudo is not None else item
        for i in range(len(item)):
            row = [matrix[k, i, j] for j in range(len(refs)) if pseudo is not None or include_self or j != i]
            expected = sign * sum(row) / len(row) if row else np.nan
            # The mean of at most 4 cells, summed here left to right and by numpy pairwise: they differ by at most
            # 4 roundings of partial sums, each within 2**-52 of the largest |cell| (TER can exceed 1).
            bound = 4 * 2.0 ** -52 * max([1.0] + [abs(v) for v in row])
            got = result.utilities[k, i]
            assert (np.isnan(got) and np.isnan(expected)) or abs(got - expected) <= bound, (k, i, got, expected, case)
        row = result.utilities[k, :len(item)]
        chosen = -1 if not item else 0 if np.isnan(row).all() else int(np.nanargmax(row))
        assert result.chosen[k] == chosen, (k, result.chosen[k], row, case)
        assert result.best[k] == (item[chosen] if item else None), case
        assert np.isnan(result.utilities[k, len(item):]).all(), case


PAIR_TARGETS = {"pairwise": pairwise, "mbr": mbr}
