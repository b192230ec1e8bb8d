"""Analyses derived from a report's statistics: rankings with significance clusters, buckets (compare-mt style),
the n-grams one system matches and another misses, and the segments where two systems differ most.

>>> cluster_ranking(["a", "b", "c"], {"a": 0.3, "b": 0.29, "c": 0.1}, True,
...                 {"a": {"b": 0.4, "c": 0.001}, "b": {"a": 0.4, "c": 0.001}, "c": {"a": 0.001, "b": 0.001}})
[['a', 'b'], ['c']]
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from refscore.reporting.data import SIGNIFICANCE_LEVEL, ReportData
from refscore.significance.multiple import holm

#: Display tokenizer shared with the page's highlighting (report.js): runs of letters/digits, or one other
#: non-space character. It approximates the metrics' own tokenizers and only drives displays, never a score.
TOKEN = re.compile(r"[^\W_]+|[^\w\s]|_", re.UNICODE)

#: Length and rare-word buckets are cut at these quantiles of the data (five buckets of about a fifth of the
#: segments each), rounded to two significant digits; equal edges merge, so ties make fewer, larger buckets.
QUANTILES = (0.2, 0.4, 0.6, 0.8)
#: Rare-word buckets: share of a segment's reference words that occur at most RARE_MAX times in all references.
RARE_MAX = 2
#: A metadata field becomes a bucket when it has between 2 and this many distinct values.
MAX_CATEGORIES = 30


def tokens(text: str) -> list[str]:
    """The display tokens of a text.

    >>> tokens("Hello, world's 2 cats!")
    ['Hello', ',', 'world', "'", 's', '2', 'cats', '!']
    """
    return TOKEN.findall(text)


def cluster_ranking(systems: list[str], scores: dict[str, float], higher_is_better: bool,
                    p_values: dict[str, dict[str, float]], alpha: float = SIGNIFICANCE_LEVEL) -> list[list[str]]:
    """Systems best first, grouped: a system joins the current cluster unless it is significantly different
    (paired bootstrap, ``p <= alpha``) from the cluster's first, best system."""
    ranked = sorted(systems, key=lambda s: scores[s], reverse=higher_is_better)
    clusters: list[list[str]] = []
    for system in ranked:
        if clusters and p_values.get(clusters[-1][0], {}).get(system, 0.0) > alpha:
            clusters[-1].append(system)
        else:
            clusters.append([system])
    return clusters


def pairwise_p_values(data: ReportData, name: str, correction: str = "none") -> dict[str, dict[str, float]]:
    """The paired-bootstrap p-value of every two systems for score ``name`` (symmetric: the p-value of the test
    with the earlier system, in report order, as the baseline), uncorrected or Holm-corrected over the
    ``k(k-1)/2`` pairs of this score."""
    pairs = [(a, b) for i, a in enumerate(data.systems) for b in data.systems[i + 1:]]
    raw = [data.p_values[name][a][b] for a, b in pairs]
    values = holm(raw) if correction == "holm" else raw
    matrix: dict[str, dict[str, float]] = {s: {} for s in data.systems}
    for (a, b), p in zip(pairs, values):
        matrix[a][b] = matrix[b][a] = p
    return matrix


def best_systems(data: ReportData, name: str) -> list[str]:
    """The system(s) with the best corpus score of ``name`` (ties kept)."""
    values = {s: data.corpus[s][name] for s in data.systems}
    best = max(values.values()) if data.higher_is_better[name] else min(values.values())
    return [s for s, v in values.items() if v == best]


def quantile_edges(values: np.ndarray, whole: bool = False) -> list[float]:
    """Bucket edges from the data: the :data:`QUANTILES` of ``values`` rounded to two significant digits (and to
    integers for ``whole`` numbers such as lengths), without repeats and strictly inside (minimum, maximum], so that
    no bucket is empty by construction.

    >>> quantile_edges(np.arange(60, 101), whole=True)
    [68.0, 76.0, 84.0, 92.0]
    >>> quantile_edges(np.array([1, 12]), whole=True)
    [3.0, 5.0, 8.0, 10.0]
    >>> quantile_edges(np.array([0, 0, 0, 0, 0.5, 1]))  # ties: fewer edges, no empty bucket
    [0.5]
    """
    if values.size == 0:
        return []
    low, high = float(values.min()), float(values.max())
    rounded = (float(f"{q:.2g}") for q in np.quantile(values, QUANTILES))
    if whole:
        rounded = (float(round(edge)) for edge in rounded)
    return sorted({edge for edge in rounded if low < edge <= high})


def _bin(values: np.ndarray, edges: list[float], labels: list[str]) -> list[str]:
    return [labels[i] for i in np.searchsorted(np.asarray(edges), values, side="right")]


def _edge_labels(edges: list[float], fmt: str, whole: bool = False) -> list[str]:
    """``< a``, ``a–b`` (a included, b not; for ``whole`` numbers ``a–(b-1)``), ..., ``≥ z``."""
    if not edges:
        return ["all"]

    def span(lo: float, hi: float) -> str:
        if whole:
            top = int(np.ceil(hi)) - 1
            return fmt.format(lo) if top <= lo else f"{fmt.format(lo)}–{fmt.format(top)}"
        return f"{fmt.format(lo)}–{fmt.format(hi)}"

    labels = [f"< {fmt.format(edges[0])}"]
    labels += [span(lo, hi) for lo, hi in zip(edges, edges[1:])]
    return labels + [f"≥ {fmt.format(edges[-1])}"]


def _text_buckets(texts: list[str], side: str) -> dict[str, list[str]]:
    """Length and rare-word buckets of one side's texts (words seen at most RARE_MAX times on that side)."""
    token_lists = [tokens(text) for text in texts]
    lengths = np.array([len(t) for t in token_lists], dtype=np.float64)
    frequency = Counter(t.lower() for toks in token_lists for t in toks)
    rare = np.array([sum(frequency[t.lower()] <= RARE_MAX for t in toks) / len(toks) if toks else 0.0
                     for toks in token_lists])
    length_edges, rare_edges = quantile_edges(lengths, whole=True), quantile_edges(rare)
    return {f"{side} length (words)": _bin(lengths, length_edges, _edge_labels(length_edges, "{:g}", whole=True)),
            f"rare {side} words (share seen ≤ {RARE_MAX}× in all {side}s)": _bin(
                rare, rare_edges, _edge_labels([100 * edge for edge in rare_edges], "{:.3g}%"))}


def segment_buckets(data: ReportData) -> dict[str, list[str]]:
    """Bucket label per segment for each bucketing: reference (and source) length and rare-word share, and the
    metadata fields with 2 to MAX_CATEGORIES distinct values."""
    buckets = _text_buckets([refs[0] for refs in data.references], "reference")
    if data.sources is not None:
        buckets.update(_text_buckets(data.sources, "source"))
    buckets = {name: labels for name, labels in buckets.items() if len(set(labels)) > 1}  # one bucket says nothing
    for key, values in data.metadata.items():
        if 2 <= len(set(values)) <= MAX_CATEGORIES:
            buckets[key] = values
    return buckets


_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
#: A label of numeric buckets (``< 5``, ``5–9``, ``22%–29%``, ``≥ 30``) or a metadata value that is one number.
_NUMERIC_LABEL = re.compile(rf"(< |≥ )?({_NUMBER})%?(?:–{_NUMBER}%?)?")


def bucket_order(labels: list[str]) -> list[str]:
    """Bucket labels in first-seen order for metadata, or in the order of the edge labels for numeric buckets
    (and metadata whose every value is a number). A value that only looks numeric (``1.2.3``, ``3rd``) makes the
    field categories.

    >>> bucket_order(["≥ 30", "5–9", "< 5"]), bucket_order(["1.10.0", "1.2.3"]), bucket_order(["10", "9"])
    (['< 5', '5–9', '≥ 30'], ['1.10.0', '1.2.3'], ['9', '10'])
    """
    seen = list(dict.fromkeys(labels))
    matches = [_NUMERIC_LABEL.fullmatch(label) for label in seen]
    if not all(matches):
        return seen
    keys = {label: (0 if match[1] == "< " else 2 if match[1] == "≥ " else 1, float(match[2]))
            for label, match in zip(seen, matches) if match is not None}
    return sorted(seen, key=keys.__getitem__)


@dataclass(frozen=True)
class BucketScores:
    """Corpus scores of each system on each bucket's segments: ``scores[bucket][system][score name]``."""

    name: str
    labels: list[str]
    counts: dict[str, int]
    scores: dict[str, dict[str, dict[str, float]]]


def bucket_scores(data: ReportData, name: str, per_segment: list[str]) -> BucketScores:
    """Each metric's corpus score over each bucket's segments (from the statistics already computed)."""
    labels = bucket_order(per_segment)
    indices = {label: np.array([i for i, v in enumerate(per_segment) if v == label], dtype=np.int64)
               for label in labels}
    scores: dict[str, dict[str, dict[str, float]]] = {label: {s: {} for s in data.systems} for label in labels}
    for metric in data.metrics:
        for system in data.systems:
            stats = data.statistics[metric.name][system]
            for label in labels:
                summary = metric.score_from_statistics(stats.take(indices[label])).summary()
                for score_name, value in summary.items():
                    if score_name in data.metric_of:
                        scores[label][system][score_name] = float(value)
    return BucketScores(name, labels, {label: int(len(idx)) for label, idx in indices.items()}, scores)


def _ngrams(toks: list[str], max_n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(toks[i:i + n]) for n in range(1, max_n + 1) for i in range(len(toks) - n + 1))


def matched_ngrams(data: ReportData, max_n: int = 4) -> dict[str, Counter[tuple[str, ...]]]:
    """Per system, how often each reference n-gram (1..``max_n`` tokens) is matched over the corpus: per segment
    the hypothesis count clipped by the largest count in any reference (as BLEU), summed."""
    reference_grams = [[_ngrams(tokens(r), max_n) for r in refs] for refs in data.references]
    limits = []
    for grams in reference_grams:
        limit: Counter[tuple[str, ...]] = Counter()
        for ref in grams:
            limit |= ref
        limits.append(limit)
    totals: dict[str, Counter[tuple[str, ...]]] = {}
    for system in data.systems:
        total: Counter[tuple[str, ...]] = Counter()
        for limit, hypothesis in zip(limits, data.hypotheses[system]):
            total.update({g: min(c, limit[g]) for g, c in _ngrams(tokens(hypothesis), max_n).items() if g in limit})
        totals[system] = total
    return totals


@dataclass(frozen=True)
class NgramDifference:
    """The n-grams ``first`` matches in the references more often than ``second`` (and vice versa), as
    compare-mt's n-gram analysis: ratio ``(a + 1) / (a + b + 2)`` of the clipped match counts."""

    first: str
    second: str
    first_better: list[tuple[str, int, int]]
    second_better: list[tuple[str, int, int]]


def ngram_differences(matched: dict[str, Counter[tuple[str, ...]]], first: str, second: str, top: int = 15,
                      min_count: int = 3) -> NgramDifference:
    """The n-grams of the references that one system matches and the other misses (from :func:`matched_ngrams`),
    at least ``min_count`` matches by the two together."""
    counts_a, counts_b = matched[first], matched[second]
    rows = [(" ".join(g), counts_a[g], counts_b[g]) for g in counts_a.keys() | counts_b.keys()
            if counts_a[g] + counts_b[g] >= min_count and counts_a[g] != counts_b[g]]

    def ratio(row: tuple[str, int, int]) -> float:
        return (row[1] + 1) / (row[1] + row[2] + 2)

    first_better = sorted((r for r in rows if r[1] > r[2]), key=lambda row: (-ratio(row), -row[1], row[0]))[:top]
    second_better = sorted((r for r in rows if r[2] > r[1]), key=lambda row: (ratio(row), -row[2], row[0]))[:top]
    return NgramDifference(first, second, first_better, second_better)


def largest_differences(data: ReportData, first: str, second: str, score_name: str, top: int = 10) -> list[int]:
    """Segments where ``second`` scores furthest above or below ``first`` (largest absolute difference first)."""
    diff = data.segment_scores[second][score_name] - data.segment_scores[first][score_name]
    order = np.argsort(-np.abs(diff), kind="stable")
    return [int(i) for i in order[:top]]
