"""The native ``bootstrap_ci`` and ``paired_test`` against live sacreBLEU 2.6, equal to the last bit.

Real data with 1, 2 and 3 references: WMT17 en-de (sacreBLEU's own test systems, 1 reference), WMT22 en-de (2
references) and SummEval (the first 3 of its 11 references; 60 documents, summaries cut to their first 20 words,
as sacreBLEU's TER needs minutes for 120 full summaries). For BLEU, chrF2 and TER, refscore's mean, interval ends
and half-width are sacreBLEU's values divided by 100 (one division of sacreBLEU's float, so ``== theirs / 100``),
and the p-values are sacreBLEU's.
"""
from __future__ import annotations

import json

import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from conftest import read_segments, shared_data_path
from refscore.significance import bootstrap_ci, paired_test

pytestmark = pytest.mark.parity   # against the peer under this interpreter, on every supported Python

SEGMENTS = 120
PEERS = {"bleu": ("BLEU", sacrebleu.BLEU), "chrf": ("chrF2", sacrebleu.CHRF), "ter": ("TER", sacrebleu.TER)}


def wmt17() -> tuple[dict[str, list[str]], list[list[str]]]:
    root = shared_data_path("wmt17", "en-de")
    names = sorted(path.stem for path in (root / "sys").glob("*.txt"))[:3]
    systems = {name: read_segments(root / "sys" / f"{name}.txt")[:SEGMENTS] for name in names}
    return systems, [read_segments(root / "ref.txt")[:SEGMENTS]]


def wmt22() -> tuple[dict[str, list[str]], list[list[str]]]:
    root = shared_data_path("wmt22", "en-de")
    systems = {name: read_segments(root / "sys" / f"{name}.txt")[500:500 + SEGMENTS]
               for name in ("Online-B", "JDExploreAcademy", "Lan-Bridge")}
    return systems, [read_segments(root / name)[500:500 + SEGMENTS] for name in ("ref.txt", "ref2.txt")]


def summeval() -> tuple[dict[str, list[str]], list[list[str]]]:
    rows = [json.loads(line) for line in shared_data_path("summ_summeval", "summeval.jsonl").read_text(
        encoding="utf-8").splitlines()]
    names = sorted({row["system"] for row in rows})[:3]
    by_system = {name: [row for row in rows if row["system"] == name] for name in names}
    documents = [row["id"] for row in by_system[names[0]]][:60]
    lookup = {(row["system"], row["id"]): row for row in rows}
    def cut(text: str) -> str:
        return " ".join(text.split()[:20])

    systems = {name: [cut(lookup[name, doc]["prediction"]) for doc in documents] for name in names}
    streams = [[cut(lookup[names[0], doc]["references"][k]) for doc in documents] for k in range(3)]
    return systems, streams


CORPORA = {"1 reference (WMT17)": wmt17, "2 references (WMT22)": wmt22, "3 references (SummEval)": summeval}


@pytest.fixture(scope="module", params=list(CORPORA))
def corpus(request):
    return CORPORA[request.param]()


@pytest.fixture()
def sacrebleu_seed(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")


def per_segment(streams: list[list[str]]) -> list[list[str]]:
    return [list(refs) for refs in zip(*streams)]


@pytest.mark.parametrize("metric", list(PEERS))
def test_bootstrap_ci_is_corpus_score_n_bootstrap(corpus, metric, sacrebleu_seed):
    systems, streams = corpus
    hypotheses = next(iter(systems.values()))
    theirs = PEERS[metric][1]().corpus_score(hypotheses, streams, n_bootstrap=1000)
    ours = bootstrap_ci(metric, hypotheses, per_segment(streams), n=1000, seed=12345)
    assert (ours.mean, ours.ci) == (float(theirs._mean) / 100, float(theirs._ci) / 100)
    assert ours.format() == f"{metric.upper()} = {theirs.score:.2f} (μ = {theirs._mean:.2f} ± {theirs._ci:.2f})"


@pytest.mark.parametrize("test, n, confidence_n", [("bs", 1000, None), ("ar", 2000, 300)])
@pytest.mark.parametrize("metric", list(PEERS))
def test_paired_test_is_sacrebleus_paired_test(corpus, metric, test, n, confidence_n, sacrebleu_seed):
    systems, streams = corpus
    name, peer_class = PEERS[metric]
    _, expected = PairedTest(list(systems.items()), {name: peer_class(references=streams)}, references=None,
                             test_type=test, n_samples=n, n_ar_confidence=confidence_n or -1)()
    ours = paired_test(metric, systems, per_segment(streams), test=test, n=n, seed=12345,
                       confidence_n=confidence_n)
    for row, theirs in zip(ours.results[metric], expected[name]):
        assert row.p_value == theirs.p_value, row.system
        assert abs(100 * row.score - theirs.score) < 1e-9, row.system
        if theirs.mean is None:
            assert row.mean is None
        else:
            assert (row.mean, row.ci) == (float(theirs.mean) / 100, float(theirs.ci) / 100), row.system


@pytest.mark.parametrize("options", [{"word_order": 2}, {"eps_smoothing": True, "char_order": 4, "beta": 1},
                                     {"smooth_method": "floor", "smooth_value": 0.2, "effective_order": True},
                                     {"smooth_method": "add-k", "max_ngram_order": 5}, {"normalized": True}])
def test_metric_options_keep_sacrebleus_arithmetic(options, sacrebleu_seed):
    """chrF++, chrF's eps smoothing (sacreBLEU's scalar branches), BLEU smoothing variants, normalized TER: short
    segments, so some resamples hit the branches for empty n-gram orders."""
    from refscore.metrics import get_metric_class

    systems, streams = wmt22()
    hypotheses = [" ".join(line.split()[:4]) for line in next(iter(systems.values()))]
    metric = "chrf" if "beta" in options or "word_order" in options else "ter" if "normalized" in options else "bleu"
    theirs = PEERS[metric][1](**options).corpus_score(hypotheses, streams, n_bootstrap=500)
    refscore_options = {("max_order" if k == "max_ngram_order" else k): v for k, v in options.items()}
    ours = bootstrap_ci(get_metric_class(metric)(**refscore_options), hypotheses, per_segment(streams), n=500)
    assert (ours.mean, ours.ci) == (float(theirs._mean) / 100, float(theirs._ci) / 100)
