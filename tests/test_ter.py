"""TER: golden values, sacreBLEU's edge cases, API, statistics, threads, bad input, CLI and drop-ins."""
from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

pytestmark = pytest.mark.parity   # against the peer under this interpreter, on every supported Python

sacrebleu = pytest.importorskip("sacrebleu")
from _ter_peer import sacrebleu_ter_with_edits, to_streams  # noqa: E402

import refscore  # noqa: E402
from refscore.cli.main import main  # noqa: E402
from refscore.compat import evaluate as compat_evaluate  # noqa: E402
from refscore.compat import sacrebleu as compat_sacrebleu  # noqa: E402
from refscore.errors import IncompatibleStatisticsError, InputError, InputTypeError  # noqa: E402
from refscore.example import load_example  # noqa: E402
from refscore.metrics import get_metric_class  # noqa: E402
from refscore.metrics.ter import TER, TERConfig  # noqa: E402

OPTION_GRID = [
    {},
    {"normalized": True},
    {"no_punct": True},
    {"normalized": True, "asian_support": True},
    {"no_punct": True, "asian_support": True, "case_sensitive": True},
    {"normalized": True, "no_punct": True, "asian_support": True, "case_sensitive": True},
]


def test_anchor_multi_reference_value():
    # anchors.md §5: 1 edit / average reference length 4.5 = 22.22
    score = refscore.sentence_ter("The cat sat", ["the cat sat on the mat", "a cat sat"])
    assert score.values["num_edits"] == 1
    assert score.values["ref_length"] == 4.5
    assert 100 * score.score == pytest.approx(22.22, abs=0.005)
    assert score.higher_is_better is False
    assert str(score.format()) == "TER = 22.22"


@pytest.mark.parametrize("hyp, ref", [("", ""), ("a b", ""), ("", "a b"), ("  ", " \n"), ("A b", "a B")])
def test_empty_and_trivial_segments_match_sacrebleu(hyp, ref):
    peer = sacrebleu.metrics.TER().sentence_score(hyp, [ref])
    ours = refscore.sentence_ter(hyp, ref)
    assert 100 * ours.score == pytest.approx(peer.score, abs=1e-12)
    assert (ours.values["num_edits"], ours.values["ref_length"]) == (peer.num_edits, peer.ref_length)


def test_bundled_example_matches_sacrebleu_for_option_grid():
    example = load_example()
    refs = example.references
    for options in OPTION_GRID:
        metric = TER(**options)
        for hyps in example.systems.values():
            peer, peer_edits, _ = sacrebleu_ter_with_edits(hyps[:60], to_streams(refs[:60]), **options)
            ours = metric.corpus_score(hyps[:60], refs[:60], num_threads=2)
            assert 100 * ours.score == pytest.approx(peer.score, abs=1e-9)
            assert metric.reference_edits(hyps[:60], refs[:60]).edits.tolist() == peer_edits
            peer_signature = _signature_of(options, refs[:60])
            assert ours.signature == f"{peer_signature}|refscore:{refscore.__version__}"


def _signature_of(options, refs):
    metric = sacrebleu.metrics.TER(**options)
    metric.corpus_score(["x"] * len(refs), to_streams(refs))
    return str(metric.get_signature())


def test_signature_short_form_and_variable_references():
    metric = TER(case_sensitive=True, normalized=True)
    assert metric.signature(-1).format(short=True).startswith("#:var|c:mixed|t:tercom|nr:yes|pn:yes|as:no|v:2.6.0")
    stats = metric.statistics(["a", "b"], [["a"], ["b", "c"]])
    assert stats.nrefs == -1
    assert metric.score_from_statistics(stats).signature.startswith("nrefs:var|")


def test_statistics_columns_merge_and_pickle():
    example = load_example()
    hyps = next(iter(example.systems.values()))
    metric = TER()
    whole = metric.statistics(hyps, example.references)
    assert whole.columns == ("edits", "ref_length")
    parts = [metric.statistics(hyps[a:b], example.references[a:b]) for a, b in ((0, 7), (7, 100), (100, None))]
    merged = sum(parts)
    np.testing.assert_array_equal(merged.data, whole.data)
    assert metric.score_from_statistics(merged) == metric.score_from_statistics(whole)
    restored = pickle.loads(pickle.dumps(whole))
    assert metric.score_from_statistics(restored) == metric.score_from_statistics(whole)
    with pytest.raises(IncompatibleStatisticsError):
        _ = whole + TER(normalized=True).statistics(hyps[:3], example.references[:3])


def test_scores_from_totals_is_vectorised_and_handles_zero_length():
    metric = TER()
    totals = np.array([[3.0, 6.0], [2.0, 0.0], [0.0, 0.0], [9.0, 4.5]])
    np.testing.assert_allclose(metric.scores_from_totals(totals)[:, 0], [0.5, 1.0, 0.0, 2.0])
    stats = metric.statistics(["a b c", "x y", ""], [["a c b"], [""], [""]])
    np.testing.assert_allclose(metric.segment_scores(stats), [1 / 3, 1.0, 0.0])
    np.testing.assert_allclose(metric.sentence_scores(["a b c", "x y", ""], [["a c b"], [""], [""]]),
                               [1 / 3, 1.0, 0.0])


def test_thread_count_never_changes_results():
    example = load_example()
    hyps = [h for system in example.systems.values() for h in system]
    refs = example.references * len(example.systems)
    metric = TER(normalized=True)
    one = metric.reference_edits(hyps, refs, num_threads=1)
    for threads in (2, 3, 8):
        other = metric.reference_edits(hyps, refs, num_threads=threads)
        np.testing.assert_array_equal(one.edits, other.edits)
        np.testing.assert_array_equal(one.ref_lengths, other.ref_lengths)


def test_long_segment_with_three_references_is_fast_and_thread_independent():
    rng = np.random.default_rng(7)
    vocab = np.array([f"w{i}" for i in range(300)])
    hyp = " ".join(rng.choice(vocab, 2000))
    refs = [" ".join(rng.choice(vocab, n)) for n in (1900, 2000, 2100)]
    metric = TER()
    one = metric.reference_edits([hyp, hyp], [refs, refs[::-1]], num_threads=1)
    two = metric.reference_edits([hyp, hyp], [refs, refs[::-1]], num_threads=2)
    np.testing.assert_array_equal(one.edits, two.edits)
    np.testing.assert_array_equal(one.edits[:3], one.edits[3:][::-1])
    assert one.ref_lengths.tolist() == [1900, 2000, 2100, 2100, 2000, 1900]


def test_token_ids_skip_the_tokenizer():
    words = {}
    def ids(text):
        return [words.setdefault(w, len(words)) for w in text.lower().split()]

    hyps = ["the cat sat on the mat", "A dog"]
    refs = [["on the mat the cat sat", "a cat sat"], ["the dog barked"]]
    text_score = refscore.ter(hyps, refs)
    id_score = refscore.ter([ids(h) for h in hyps], [[ids(r) for r in rs] for rs in refs])
    assert (id_score.values, id_score.score) == (text_score.values, text_score.score)
    assert refscore.ter([np.array([1, 2, 3])], [np.array([3, 1, 2])]).values["num_edits"] == 1


@pytest.mark.parametrize("call, error, fragment", [
    (lambda: refscore.ter("a b", ["a b"]), InputTypeError, "wrap it in a list"),
    (lambda: refscore.ter(["a", None], ["a", "b"]), InputTypeError, "hypotheses[1]"),
    (lambda: refscore.ter(["a", "b"], ["a"]), InputError, "2 segments"),
    (lambda: refscore.ter(["a"], [[]]), InputError, "references[0] is an empty list"),
    (lambda: refscore.ter(["a"], [[None]]), InputTypeError, "references[0][0]"),
    (lambda: refscore.ter(["a", "b"], [["a", "b"], ["c", "d"], ["e", "f"]]), InputError, "3"),
    (lambda: refscore.ter([[1, 2], "b"], [[1], [2]]), InputTypeError, "hypotheses[1]"),
    (lambda: TER(normalized="yes"), InputTypeError, "TERConfig: normalized must be True or False"),
    (lambda: TER(lowercase=True), InputError, "valid options"),
    (lambda: refscore.ter([], []), InputError, "at least one segment"),
])
def test_bad_input_raises_clear_errors(call, error, fragment):
    with pytest.raises(error) as info:
        call()
    assert fragment in str(info.value)


def test_registry_and_config():
    assert get_metric_class("TER") is TER
    assert TER().config == TERConfig()
    assert TER.higher_is_better is False
    assert repr(TER(no_punct=True)).startswith("TER(normalized=False, no_punct=True")


def test_cli_score_json_segments_with_options(tmp_path, capsys):
    hyps = ["The cat sat on the mat.", "Hello, world!", ""]
    refs = ["the cat sat on a mat .", "hello world", "not empty"]
    (tmp_path / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    code = main(["score", "-m", "ter", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"),
                 "--segments", "--format", "json", "--ter-normalized", "--ter-no-punct", "--ter-case-sensitive"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)[0]
    options = {"normalized": True, "no_punct": True, "case_sensitive": True}
    peer = sacrebleu.metrics.TER(**options)
    assert result["scores"]["ter"]["score"] == peer.corpus_score(hyps, [refs]).score  # 0–100, as sacreBLEU
    assert result["scores"]["ter"]["higher_is_better"] is False
    assert result["segments"]["ter"]["ter"] == [peer.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]


def test_compat_sacrebleu_matches_sacrebleu():
    hyps = ["The cat sat", "Hello there, General Kenobi!", ""]
    streams = [["the cat sat on the mat", "hello there general kenobi", "x"], ["a cat sat", None, ""]]
    for options in OPTION_GRID:
        ours = compat_sacrebleu.corpus_ter(hyps, streams, **options)
        peer = sacrebleu.corpus_ter(hyps, streams, **options)
        assert (ours.score, ours.num_edits, ours.ref_length) == (peer.score, peer.num_edits, peer.ref_length)
        assert str(ours) == str(peer) and ours.format(signature="a:b", is_json=True) == peer.format(
            signature="a:b", is_json=True)
        ours_s = compat_sacrebleu.sentence_ter(hyps[1], ["hello there!", "General Kenobi"], **options)
        peer_s = sacrebleu.sentence_ter(hyps[1], ["hello there!", "General Kenobi"], **options)
        assert (ours_s.score, ours_s.num_edits, ours_s.ref_length) == (peer_s.score, peer_s.num_edits,
                                                                        peer_s.ref_length)
    ours_metric, peer_metric = compat_sacrebleu.TER(no_punct=True), sacrebleu.metrics.TER(no_punct=True)
    ours_metric.corpus_score(hyps, streams)
    peer_metric.corpus_score(hyps, streams)
    assert str(ours_metric.get_signature()) == str(peer_metric.get_signature())
    assert ours_metric.get_signature().format(short=True) == peer_metric.get_signature().format(short=True)
    cached = compat_sacrebleu.TER(references=streams)
    peer_cached = sacrebleu.metrics.TER(references=streams)
    assert cached.corpus_score(hyps, None).score == peer_cached.corpus_score(hyps, None).score
    ours_bs = ours_metric.corpus_score(hyps * 4, [stream * 4 for stream in streams], n_bootstrap=100)
    peer_bs = peer_metric.corpus_score(hyps * 4, [stream * 4 for stream in streams], n_bootstrap=100)
    assert (ours_bs._mean, ours_bs._ci) == (peer_bs._mean, peer_bs._ci)  # float32 replicates, as sacreBLEU's
    assert str(ours_bs) == str(peer_bs) and str(ours_metric.get_signature()) == str(peer_metric.get_signature())
    with pytest.raises(InputError, match="n_bootstrap"):
        ours_metric.corpus_score(hyps, streams, n_bootstrap=0)
    with pytest.raises(InputTypeError, match="sequence of strings"):
        ours_metric.sentence_score("a", "a")
    with pytest.raises(ValueError, match="Number of references unknown"):
        compat_sacrebleu.TER().get_signature()


@pytest.mark.parametrize("kwargs, expected", [
    # the examples of HF evaluate's metrics/ter/ter.py (values produced by sacreBLEU)
    ({"case_sensitive": True}, {"score": 150.0, "num_edits": 15, "ref_length": 10.0}),
    ({"case_sensitive": True, "n": 2}, {"score": 62.5, "num_edits": 5, "ref_length": 8.0}),
    ({"normalized": True, "case_sensitive": True, "n": 2},
     {"score": 57.14285714285714, "num_edits": 6, "ref_length": 10.5}),
    ({"ignore_punct": True, "case_sensitive": False, "n": 2}, {"score": 0.0, "num_edits": 0, "ref_length": 8.0}),
    ({"ignore_punct": True, "case_sensitive": False}, {"score": 100.0, "num_edits": 10, "ref_length": 10.0}),
])
def test_compat_evaluate_examples(kwargs, expected):
    predictions = ["does this sentence match??", "what about this sentence?",
                   "What did the TER metric user say to the developer?"]
    references = [["does this sentence match", "does this sentence match!?!"],
                  ["wHaT aBoUt ThIs SeNtEnCe?", "wHaT aBoUt ThIs SeNtEnCe?"],
                  ["Your jokes are...", "...TERrible"]]
    n = kwargs.pop("n", 3)
    result = compat_evaluate.load("ter").compute(predictions=predictions[:n], references=references[:n], **kwargs)
    assert result == expected


def test_compat_evaluate_single_references_and_errors():
    ter = compat_evaluate.load("ter")
    peer = sacrebleu.corpus_ter(["a b c"], [["a c b"]])
    assert ter.compute(predictions=["a b c"], references=["a c b"]) == {
        "score": peer.score, "num_edits": peer.num_edits, "ref_length": peer.ref_length}
    with pytest.raises(InputError, match="same number of references"):
        ter.compute(predictions=["a", "b"], references=[["a"], ["b", "c"]])


def test_shift_candidate_cap_matches_sacrebleu(monkeypatch):
    """Repetitive sentences make sacreBLEU evaluate its full 1,000 shift candidates; edits must still agree."""
    import random

    import sacrebleu.metrics.lib_ter as lib_ter

    original_shift = lib_ter._shift
    most_candidates = [0]

    def counting_shift(words_h, words_r, cached_ed, checked):
        result = original_shift(words_h, words_r, cached_ed, checked)
        most_candidates[0] = max(most_candidates[0], result[2])
        return result

    monkeypatch.setattr(lib_ter, "_shift", counting_shift)
    rng = random.Random(5)
    hyps, refs = [], []
    for _ in range(8):
        n, vocabulary = rng.randint(20, 40), rng.randint(3, 6)
        hyps.append([f"w{rng.randrange(vocabulary)}" for _ in range(n)])
        refs.append([f"w{rng.randrange(vocabulary)}" for _ in range(n + rng.randint(-5, 5))])
    expected = [lib_ter.translation_edit_rate(h, r)[0] for h, r in zip(hyps, refs)]
    assert most_candidates[0] >= lib_ter._MAX_SHIFT_CANDIDATES
    ours = TER().reference_edits([" ".join(h) for h in hyps], [" ".join(r) for r in refs], num_threads=2)
    assert ours.edits.tolist() == expected
