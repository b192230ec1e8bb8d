"""The pairwise capability is the metric's (issue 42): ``refscore.pairs`` asks ``metric.pair_scoring(texts)`` and
neither chooses a strategy nor calls the compiled core; a plug-in metric that declares ``count_streams`` +
``statistics_from_counts`` gets the counts-based strategy, with the numbers of its own sentence scores."""
from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import refscore
from refscore._pair_scoring import CountPairs, NativePairs, PairScoring, SentencePairs
from refscore.inputs import prepare_batch
from refscore.protocol import Metric, Score, Signature

PAIRS = Path(__file__).resolve().parent.parent / "src" / "refscore" / "pairs"
#: The strategy hooks behind ``pair_scoring``: only the metric side reads them.
STRATEGY_HOOKS = {"count_streams", "statistics_from_counts", "pair_matrices"}


def _pairs_modules() -> list[Path]:
    modules = sorted(PAIRS.rglob("*.py"))
    assert modules, PAIRS
    return modules


@pytest.mark.parametrize("path", _pairs_modules(), ids=lambda path: path.name)
def test_pairs_imports_no_compiled_core(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [f"{node.module}.{alias.name}" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                 for alias in node.names]
    assert [name for name in imported if name.startswith("refscore._core") or name == "refscore._pair_scoring"
            or name.startswith("refscore._pair_scoring.")] == []


@pytest.mark.parametrize("path", _pairs_modules(), ids=lambda path: path.name)
def test_pairs_reads_no_strategy_hook(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    read |= {node.args[1].value for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id in {"getattr", "hasattr"} and len(node.args) > 1
             and isinstance(node.args[1], ast.Constant)}
    assert read & STRATEGY_HOOKS == set()


def _ngrams(words: list[str], n: int) -> Counter:
    return Counter(tuple(words[i:i + n]) for i in range(len(words) - n + 1))


@dataclass(frozen=True)
class OverlapConfig:
    max_order: int = 2


class WordOverlap(Metric):
    """A plug-in: mean n-gram F1 over orders 1..max_order of whitespace words (the first reference)."""

    name = "word_overlap_plugin"
    config_class = OverlapConfig

    def statistics(self, hypotheses, references, *, num_threads=None):
        batch = prepare_batch(hypotheses, references, allow_token_ids=False)
        orders = range(1, self.config.max_order + 1)
        rows = []
        for index, hypothesis in enumerate(batch.hypotheses):
            hyp, ref = hypothesis.split(), batch.segment_references(index)[0].split()
            rows.append([max(len(hyp) - n + 1, 0) for n in orders] + [max(len(ref) - n + 1, 0) for n in orders]
                        + [sum((_ngrams(hyp, n) & _ngrams(ref, n)).values()) for n in orders])
        columns = tuple(f"{side}_{n}" for side in ("hyp", "ref", "match") for n in orders)
        return self.new_statistics(columns, np.array(rows, np.int64).reshape(-1, len(columns)), batch.nrefs)

    def scores_from_totals(self, totals):
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        hyp, ref, match = np.split(totals, 3, axis=1)
        denominator = hyp + ref
        return np.where(denominator > 0, 2 * match / np.where(denominator > 0, denominator, 1), 0.0).mean(
            axis=1)[:, None]

    def score_from_statistics(self, stats):
        self.check_statistics(stats)
        return Score(metric=self.name, score=float(self.scores_from_totals(stats.totals()[None])[0, 0]),
                     signature=self.signature_text(stats.nrefs), statistics=stats, higher_is_better=True)

    def signature(self, nrefs=1):
        return Signature({"order": str(self.config.max_order)})


class CountedWordOverlap(WordOverlap):
    """The same plug-in declaring the counts-based capability: words as ids, its rows from the pair counts."""

    def count_streams(self, texts):
        vocabulary: dict[str, int] = {}
        ids, offsets = [], [0]
        for text in texts:
            ids += [vocabulary.setdefault(word, len(vocabulary)) for word in text.split()]
            offsets.append(len(ids))
        return [(np.asarray(ids, np.uint32), np.asarray(offsets, np.int64), self.config.max_order)]

    def statistics_from_counts(self, hyp, ref, match):
        return np.concatenate([hyp, ref, match], axis=1).astype(np.int64)


def pair_by_pair(metric, candidates, references):
    refs = candidates if references is None else references
    return [np.array([[metric.sentence_scores([c], [[r]])[0] for r in ref] for c in cand]).reshape(len(cand), -1)
            for cand, ref in zip(candidates, refs)]


def test_the_strategies_metrics_declare():
    texts = ["a b", "b c"]
    assert type(CountedWordOverlap().pair_scoring(texts)) is CountPairs
    assert type(WordOverlap().pair_scoring(texts)) is SentencePairs
    assert type(refscore.CHRF().pair_scoring(texts)) is CountPairs
    assert type(refscore.TER().pair_scoring(texts)) is SentencePairs
    assert type(refscore.BLEU(flavor="nltk").pair_scoring(texts)) is SentencePairs   # its counts are not sacreBLEU's
    assert issubclass(NativePairs, PairScoring) and issubclass(CountPairs, PairScoring)


def test_a_plugin_declaring_counts_gets_the_kernel_with_its_own_numbers(monkeypatch):
    candidates = [["the cat sat", "a cat sat on the mat", "", "the the the"], ["dogs bark", "猫 が 座った"]]
    references = [["the cat sat on the mat", "the"], ["dogs bark loudly", "猫 が", ""]]
    plain, counted = WordOverlap(), CountedWordOverlap()
    expected = {refs is None: pair_by_pair(plain, candidates, refs) for refs in (references, None)}
    chosen = refscore.mbr(candidates, metric=plain).chosen.tolist()   # through sentence scores

    def refused(*args, **kwargs):
        raise AssertionError("a counts-based metric's pairs went through sentence scores")

    monkeypatch.setattr(PairScoring, "_sentence_matrix", refused)
    for refs in (references, None):
        for ours, theirs in zip(refscore.pairwise_items(counted, candidates, refs), expected[refs is None]):
            assert ours.tobytes() == theirs.tobytes()
    assert refscore.mbr(candidates, metric=counted).chosen.tolist() == chosen


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.text(alphabet="ab cé猫 ", max_size=12), min_size=1, max_size=4), min_size=1, max_size=3))
def test_counts_equal_sentence_scores_on_random_text(items):
    counted = CountedWordOverlap(max_order=3)
    for ours, theirs in zip(refscore.pairwise_items(counted, items), pair_by_pair(WordOverlap(max_order=3), items,
                                                                                   None)):
        assert ours.tobytes() == theirs.tobytes()
