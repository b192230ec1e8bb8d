"""BERTScore on tiny random BERT/RoBERTa models: parity with bert-score 0.3.13 for every feature, and bad input.

bert-score is run with ``batch_size=1`` where random models may give negative similarities: bert-score lets padding
take part in the maximum (a padded position scores 0), so its numbers for a pair then depend on the batch
(documented in docs/bertscore.md); without padding they are exact.
"""
from __future__ import annotations

import dataclasses
import json
import shutil
import sys
import threading
import warnings
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from bertscore_helpers import CORPUS, TINY_LAYERS, build_tiny_roberta, transformers_major

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
bert_score = pytest.importorskip("bert_score")

import refscore  # noqa: E402
import refscore.metrics  # noqa: E402
from refscore.metrics.bertscore.baseline import format_baseline, random_pairs  # noqa: E402
from refscore.metrics.bertscore.engine import MAX_WORKERS, ThreadPlan, thread_plan  # noqa: E402
from refscore.metrics.bertscore.packed import (  # noqa: E402
    PackedEncoder, Workspace, WorkspacePool, length_runs, real_tokens, unsupported_reason)
from refscore.errors import InputError, InputTypeError, MissingExtraError, RefscoreWarning  # noqa: E402

HYPS = CORPUS[:9] + ["the cat", "Über den Wolken"]
REFS = CORPUS[4:13] + ["a cat sat on the mat", "über den wolken"]
TOL = 1e-6


@pytest.fixture(scope="module")
def tiny_roberta(tmp_path_factory):
    return str(build_tiny_roberta(tmp_path_factory.mktemp("tiny_roberta")))


@pytest.fixture(scope="module", params=["bert", "roberta"])
def tiny_model(request, tiny_bert, tiny_roberta):
    return tiny_bert if request.param == "bert" else tiny_roberta


@pytest.fixture(scope="module")
def baseline_file(tmp_path_factory):
    table = np.array([[0.2 + 0.05 * k, 0.25 + 0.04 * k, 0.22 + 0.045 * k] for k in range(TINY_LAYERS + 1)])
    path = tmp_path_factory.mktemp("baseline") / "tiny.tsv"
    path.write_text(format_baseline(table), encoding="utf-8")
    return str(path)


def peer(hyps, refs, model, **kwargs):
    kwargs.setdefault("batch_size", 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [t.numpy() for t in bert_score.score(hyps, refs, model_type=model, **kwargs)]


def assert_close(result, expected, tol=TOL):
    for name, ours, theirs in zip(("P", "R", "F"), result, expected):
        assert ours.shape == theirs.shape, name
        np.testing.assert_allclose(ours, theirs, atol=tol, rtol=0, err_msg=name)


# -- parity with bert-score -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("layer", [0, 2, TINY_LAYERS])
def test_layers_match_bert_score(tiny_model, layer):
    result = refscore.bertscore(HYPS, REFS, model_type=tiny_model, num_layers=layer)
    assert_close(result, peer(HYPS, REFS, tiny_model, num_layers=layer))
    assert result.details["hash"] == bert_score.utils.get_hash(tiny_model, layer, False, False, False, False)


def test_idf_and_multiple_references_match_bert_score(tiny_model):
    refs = [[a, b] for a, b in zip(REFS, reversed(REFS))]
    result = refscore.bertscore(HYPS, refs, model_type=tiny_model, num_layers=2, idf=True)
    assert_close(result, peer(HYPS, refs, tiny_model, num_layers=2, idf=True))
    single = [refscore.bertscore(HYPS, [r[k] for r in refs], model_type=tiny_model, num_layers=2,
                                 idf=[s for r in refs for s in r]) for k in range(2)]
    f1 = np.stack([s.details["f1"] for s in single])
    np.testing.assert_array_equal(result.details["best_reference"], np.argmax(f1, axis=0))
    np.testing.assert_allclose(result.details["f1"], f1.max(axis=0), atol=TOL)


def test_idf_dict_and_sentences(tiny_bert):
    scorer = bert_score.BERTScorer(model_type=tiny_bert, num_layers=2, idf=True, idf_sents=CORPUS, batch_size=1)
    expected = [t.numpy() for t in scorer.score(HYPS, REFS, batch_size=1)]
    assert_close(refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2, idf=list(CORPUS)), expected)
    assert_close(refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2, idf=scorer._idf_dict), expected)
    plain = {k: v for k, v in scorer._idf_dict.items()}
    with pytest.raises(InputError, match="no weight for token id"):
        refscore.bertscore(["zzzz qqqq unseen"], ["a"], model_type=tiny_bert, num_layers=2,
                           idf={k: v for k, v in list(plain.items())[:3]})


def test_all_layers_and_rescaling_match_bert_score(tiny_model, baseline_file):
    result = refscore.bertscore(HYPS, REFS, model_type=tiny_model, all_layers=True, num_layers=TINY_LAYERS,
                                rescale_with_baseline=True, baseline_path=baseline_file)
    expected = peer(HYPS, REFS, tiny_model, num_layers=TINY_LAYERS, all_layers=True, lang="en",
                    rescale_with_baseline=True, baseline_path=baseline_file)
    assert result.details["f1"].shape == (TINY_LAYERS + 1, len(HYPS))
    assert_close(result, expected)
    one = refscore.bertscore(HYPS, REFS, model_type=tiny_model, num_layers=1, rescale_with_baseline=True,
                             baseline_path=baseline_file)
    assert_close(one, peer(HYPS, REFS, tiny_model, num_layers=1, lang="en", rescale_with_baseline=True,
                           baseline_path=baseline_file))
    assert one.details["hash"].endswith("-custom-rescaled")


def test_empty_candidate_and_reference(tiny_model):
    hyps, refs = ["", "the cat", "   ", "a dog"], ["the cat", "", "x", "a dog"]
    with pytest.warns(RefscoreWarning, match="empty"):
        result = refscore.bertscore(hyps, refs, model_type=tiny_model, num_layers=2)
    for values in result:
        assert values[0] == 0 and values[1] == 0 and values[2] == 0
    assert result.details["f1"][3] > 0.99
    if transformers_major() < 5:  # bert-score 0.3.13 crashes on empty sentences under transformers 5
        assert_close(result, peer(hyps, refs, tiny_model, num_layers=2))


def test_single_reference_idf_gives_bert_score_nan_recall(tiny_bert):
    result = refscore.bertscore(["the cat sat"], ["the cat sat on the mat"], model_type=tiny_bert, num_layers=2,
                                idf=True)
    expected = peer(["the cat sat"], ["the cat sat on the mat"], tiny_bert, num_layers=2, idf=True)
    assert np.isnan(result.details["recall"][0]) and np.isnan(expected[1][0])
    assert result.details["f1"][0] == expected[2][0] == 0


# -- speed features keep results --------------------------------------------------------------------------------------
def test_batches_follow_the_token_budget_and_split_the_tail_on_cpu(tiny_bert):
    embedder = refscore.BERTScorer(tiny_bert, 2, batch_tokens=100, device="cpu")._embedder
    lengths = [50] * 6 + [10] * 40 + [5] * 10  # 750 tokens, longest first

    def tokens(batches):
        pairs = list(batches)
        assert [start for start, _ in pairs] == [0] + [stop for _, stop in pairs[:-1]]
        assert pairs[-1][1] == len(lengths)
        return [sum(lengths[start:stop]) for start, stop in pairs]

    # Once at most 4 budgets (400 tokens) remain, batches hold a quarter budget (25 tokens: two 10s, five 5s).
    assert tokens(embedder._batches(lengths)) == [100] * 4 + [20] * 15 + [25] * 2
    embedder.split_tail = False
    assert tokens(embedder._batches(lengths)) == [100] * 7 + [50]


def test_batching_order_duplicates_and_cache_do_not_change_results(tiny_bert):
    reference = refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2)
    scorer = refscore.BERTScorer(tiny_bert, 2, batch_tokens=7, device="cpu")
    permutation = np.random.default_rng(0).permutation(len(HYPS))
    shuffled = scorer.score([HYPS[i] for i in permutation], [REFS[i] for i in permutation], num_threads=1)
    np.testing.assert_allclose(shuffled.details["f1"], reference.details["f1"][permutation], atol=TOL)
    assert scorer.cache_info().entries == len({ids.tobytes() for ids in scorer._encode_unique(HYPS + REFS, "t")})
    doubled = scorer.score(HYPS + HYPS, REFS + REFS)
    np.testing.assert_allclose(doubled.details["f1"], np.tile(reference.details["f1"], 2), atol=TOL)


def test_several_threads_give_the_same_scores_and_run_in_workers(tiny_model, monkeypatch):
    # CPU workers (on CUDA the batches run one after the other in the calling thread)
    one = refscore.BERTScorer(tiny_model, 2, batch_tokens=16, device="cpu").score(HYPS, REFS, num_threads=1)
    scorer = refscore.BERTScorer(tiny_model, 2, batch_tokens=16, device="cpu")
    threads_used = set()
    forward = scorer._embedder._forward

    def recording(batch, workspaces):
        threads_used.add(threading.current_thread().name)
        return forward(batch, workspaces)

    monkeypatch.setattr(scorer._embedder, "_forward", recording)
    before = torch.get_num_threads()
    three = scorer.score(HYPS, REFS, num_threads=3)
    assert torch.get_num_threads() == before
    assert len(threads_used) > 1 and all(name.startswith("refscore-bertscore") for name in threads_used)
    for ours, single in zip(three, one):
        np.testing.assert_array_equal(ours, single)


def test_many_threads_are_shared_among_at_most_max_workers(tiny_bert):
    assert thread_plan(2, "cpu") == ThreadPlan(2, 1)
    assert thread_plan(4 * MAX_WORKERS, "cpu") == ThreadPlan(MAX_WORKERS, 4)
    assert thread_plan(MAX_WORKERS + 2, "cpu") == ThreadPlan((MAX_WORKERS + 2) // 2, 2)
    assert thread_plan(8, "cuda") == ThreadPlan(1, 1)
    scorer = refscore.BERTScorer(tiny_bert, 2, batch_tokens=16)
    shared = scorer.score(HYPS, REFS, num_threads=MAX_WORKERS + 2)
    for ours, single in zip(shared, scorer.score(HYPS, REFS, num_threads=1)):
        np.testing.assert_allclose(ours, single, atol=TOL, rtol=0)


def test_packed_forward_matches_the_model_forward(tiny_model):
    # the packed encoder is the CPU's (unsupported_reason: on CUDA the model's own forward runs)
    packed = refscore.BERTScorer(tiny_model, 2, all_layers=True, batch_tokens=40, device="cpu")
    plain = refscore.BERTScorer(tiny_model, 2, all_layers=True, batch_tokens=40, device="cpu")
    plain._embedder.packed = None
    assert packed._embedder.packed is not None
    sequences = packed._encode_unique(HYPS + REFS, "sentences")
    ours = packed._embedder.embed(sequences, [False] * len(sequences))
    theirs = plain._embedder.embed(sequences, [False] * len(sequences))
    for a, b in zip(ours, theirs):
        assert a.shape == b.shape == (len(a), TINY_LAYERS + 1, 32)
        np.testing.assert_allclose(a.numpy(), b.numpy(), atol=1e-6, rtol=0)
    assert_close(packed.score(HYPS, REFS), plain.score(HYPS, REFS))


@pytest.mark.parametrize("module", ["refscore.metrics.bertscore.packed", "refscore.metrics.bertscore.engine",
                                    "refscore.metrics.bertscore.models", "refscore.metrics.bertscore.idf",
                                    "refscore.metrics.bertscore.encoding"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    failures, attempted = doctest.testmod(importlib.import_module(module))
    assert failures == 0 and attempted > 0


def test_workspace_buffers_are_reused_from_batch_to_batch():
    workspace = Workspace()
    first = workspace.matrix("intermediate", 4, 3, torch.float32)
    smaller = workspace.matrix("intermediate", 2, 3, torch.float32)
    assert smaller.shape == (2, 3) and smaller.data_ptr() == first.data_ptr()
    larger = workspace.matrix("intermediate", 5, 3, torch.float32)
    assert larger.shape == (5, 3) and larger.numel() == 15
    assert workspace.matrix("intermediate", 5, 3, torch.bfloat16).dtype == torch.bfloat16
    assert workspace.matrix("query", 2, 3, torch.float32).data_ptr() != first.data_ptr()


def test_workspace_pool_lends_one_workspace_per_batch_in_progress():
    pool = WorkspacePool()
    with pool.borrow() as first:
        with pool.borrow() as second:
            assert first is not second
    with pool.borrow() as again:
        assert again is first or again is second


def test_packed_forward_is_checked_and_falls_back(tiny_bert, monkeypatch):
    scorer = refscore.BERTScorer(tiny_bert, 2, device="cpu")
    packed = scorer._embedder.packed
    assert packed.agrees_with_model(scorer._embedder.pad_id)
    packed.shapes[0] = dataclasses.replace(packed.shapes[0], scaling=packed.shapes[0].scaling * 2)
    assert not packed.agrees_with_model(scorer._embedder.pad_id)
    monkeypatch.setattr(PackedEncoder, "agrees_with_model", lambda self, pad_id: False)
    fallback = refscore.BERTScorer(tiny_bert, 2)
    assert fallback._embedder.packed is None
    assert_close(fallback.score(HYPS, REFS, num_threads=2), peer(HYPS, REFS, tiny_bert, num_layers=2))
    every_layer = refscore.BERTScorer(tiny_bert, 2, all_layers=True, batch_tokens=16)
    assert every_layer._embedder.packed is None
    assert_close(every_layer.score(HYPS, REFS, num_threads=2),
                 peer(HYPS, REFS, tiny_bert, num_layers=2, all_layers=True))


def test_unsupported_architectures_use_the_model_forward():
    transformers = pytest.importorskip("transformers")
    distil = transformers.DistilBertModel(transformers.DistilBertConfig(
        vocab_size=50, dim=32, n_layers=1, n_heads=4, hidden_dim=64)).eval()
    assert "DistilBertModel is not one of" in unsupported_reason(distil, "cpu")
    assert PackedEncoder.for_model(distil, "cpu", 0) is None
    bert = transformers.BertModel(transformers.BertConfig(
        vocab_size=50, hidden_size=32, num_hidden_layers=1, num_attention_heads=4, intermediate_size=64))
    assert unsupported_reason(bert, "cpu") == "the model is in training mode"
    bert.eval()
    assert unsupported_reason(bert, "cpu") is None
    assert unsupported_reason(bert, "cuda:0") == "device cuda:0 is not the CPU"
    assert length_runs([5, 5, 5, 2, 5]) == [(0, 3, 5), (15, 1, 2), (17, 1, 5)]


@pytest.mark.parametrize("name", ["XLMRoberta", "Camembert"])
def test_other_bert_family_encoders_run_packed(name):
    transformers = pytest.importorskip("transformers")
    config = getattr(transformers, f"{name}Config")(vocab_size=60, hidden_size=32, num_hidden_layers=2,
                                                    num_attention_heads=4, intermediate_size=64, pad_token_id=1,
                                                    max_position_embeddings=20)
    torch.manual_seed(0)
    model = getattr(transformers, f"{name}Model")(config).eval()
    packed = PackedEncoder.for_model(model, "cpu", pad_id=1)
    assert packed is not None
    input_ids = torch.tensor([[0, 5, 9, 7, 2], [0, 8, 2, 1, 1]])
    with torch.inference_mode():
        expected = model(input_ids, attention_mask=(input_ids != 1).long())[0][input_ids != 1]
        ours = packed.hidden_states(input_ids, [5, 3], all_layers=False)[:, 0]
    np.testing.assert_allclose(ours.numpy(), expected.numpy(), atol=1e-5, rtol=0)


def test_token_id_inputs(tiny_model):
    scorer = refscore.BERTScorer(tiny_model, 2)
    text = scorer.score(HYPS, REFS)
    with_special = [scorer._encoder.encode_texts([s])[0] for s in HYPS]
    without = [ids[1:-1] for ids in with_special]
    refs_ids = [scorer._encoder.encode_texts([s])[0].tolist() for s in REFS]
    for hyps_ids in (with_special, without):
        np.testing.assert_allclose(scorer.score(hyps_ids, refs_ids).details["f1"], text.details["f1"], atol=TOL)


def test_bfloat16_is_close_to_float32(tiny_bert):
    exact = refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2)
    approx = refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2, dtype="bfloat16")
    assert np.abs(approx.details["f1"] - exact.details["f1"]).max() < 0.02
    assert "dtype:bfloat16" in approx.signature


def test_long_inputs_truncate_with_warning(tiny_model):
    long_text = " ".join(["goods"] * 500)
    with pytest.warns(RefscoreWarning, match="truncated"):
        result = refscore.bertscore([long_text], [long_text + " cat"], model_type=tiny_model, num_layers=2)
    assert_close(result, peer([long_text], [long_text + " cat"], tiny_model, num_layers=2))


def test_tokenizing_in_chunks_on_worker_threads_gives_the_same_ids_and_warnings(tiny_model, monkeypatch):
    from refscore.metrics.bertscore import encoding
    from refscore.metrics.bertscore.engine import ThreadPlan, chunk_mapper

    scorer = refscore.BERTScorer(tiny_model, num_layers=2)
    long_text = " ".join(["goods"] * 500)
    sentences = [f"{text} {index}" for index, text in enumerate(HYPS + REFS)] + ["", long_text, "  ", *CORPUS]
    with pytest.warns(RefscoreWarning, match="truncated") as serial_warnings:
        expected = scorer._encoder.encode_texts(sentences)
    monkeypatch.setattr(encoding, "TOKENIZE_CHUNK", 3)
    scorer._encoder.tokenizer(["a"], truncation=True, max_length=4)  # leaves the tokenizer's truncation on
    with pytest.warns(RefscoreWarning, match="truncated") as chunked_warnings:
        chunked = scorer._encoder.encode_texts(sentences, map_chunks=chunk_mapper(ThreadPlan(2, 1)))
    assert [ids.tolist() for ids in chunked] == [ids.tolist() for ids in expected]
    assert [str(w.message) for w in chunked_warnings] == [str(w.message) for w in serial_warnings]


def test_a_tokenizer_that_refuses_threads_is_called_from_the_calling_thread(tiny_bert, monkeypatch):
    import threading

    from refscore.metrics.bertscore import encoding
    from refscore.metrics.bertscore.engine import ThreadPlan, chunk_mapper

    scorer = refscore.BERTScorer(tiny_bert, num_layers=2)
    sentences = [f"{text} {index}" for index, text in enumerate(CORPUS * 3)]
    expected = scorer._encoder.encode_texts(sentences)
    tokenizer, caller = scorer._encoder.tokenizer, threading.get_ident()

    class RefusesOtherThreads:
        is_fast = True

        def __call__(self, *args, **kwargs):
            if threading.get_ident() != caller:  # as PyO3 does when one thread changes what another one uses
                raise RuntimeError("Already borrowed")
            return tokenizer(*args, **kwargs)

    monkeypatch.setattr(encoding, "TOKENIZE_CHUNK", 4)
    monkeypatch.setattr(scorer._encoder, "tokenizer", RefusesOtherThreads())
    chunked = scorer._encoder.encode_texts(sentences, map_chunks=chunk_mapper(ThreadPlan(2, 1)))
    assert [ids.tolist() for ids in chunked] == [ids.tolist() for ids in expected]


# -- signature, metric protocol, CLI -------------------------------------------------------------------------------
def test_signature_and_metric_statistics(tiny_bert):
    metric = refscore.metrics.get_metric_class("bertscore")(model_type=tiny_bert, num_layers=2,
                                                            idf_sentences=tuple(REFS))
    stats = metric.statistics(HYPS, REFS)
    assert stats.columns == ("precision", "recall", "f1", "documents")
    merged = metric.statistics(HYPS[:4], REFS[:4]) + metric.statistics(HYPS[4:], REFS[4:])
    np.testing.assert_allclose(merged.data, stats.data, atol=TOL)
    score = metric.score_from_statistics(merged)
    expected = refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2, idf=list(REFS))
    assert score.values["f1"] == pytest.approx(float(np.mean(expected.details["f1"], dtype=np.float64)), abs=TOL)
    np.testing.assert_allclose(metric.sentence_scores(HYPS, REFS), expected.details["f1"], atol=TOL)
    assert "idf:fixed-" in score.signature and "layer:2" in score.signature and "transformers:" in score.signature
    assert str(tiny_bert) not in score.signature and f"model:{Path(tiny_bert).name}@" in score.signature
    other = refscore.metrics.get_metric_class("bertscore")(model_type=tiny_bert, num_layers=2,
                                                           idf_sentences=tuple(HYPS))
    assert other.config_hash != metric.config_hash
    with pytest.raises(ValueError):
        other.score_from_statistics(stats)


def test_cli_score_and_baseline(tiny_bert, tmp_path, capsys):
    from refscore.cli.main import main

    hyp_file, ref_file = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp_file.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    ref_file.write_text("\n".join(REFS) + "\n", encoding="utf-8")
    assert main(["score", "-m", "bertscore", "-r", str(ref_file), "-i", str(hyp_file), "--bertscore-model",
                 tiny_bert, "--bertscore-layers", "2", "--bertscore-idf", str(ref_file), "--format", "json"]) == 0
    scores = json.loads(capsys.readouterr().out)[0]["scores"]["bertscore"]
    expected = refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2, idf=list(REFS))
    # the command line prints 0–100 (refscore.cli.scale): the API's values and their tolerance times 100
    for name in ("f1", "precision"):
        mean = float(np.mean(expected.details[name], dtype=np.float64))
        assert scores[name] == pytest.approx(100 * mean, abs=100 * TOL), name
    assert "idf:fixed-" in scores["signature"] and "layer:2" in scores["signature"]

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(CORPUS) + "\n", encoding="utf-8")
    out = tmp_path / "baseline.tsv"
    assert main(["bertscore-baseline", "--model", tiny_bert, "--corpus", str(corpus), "--pairs", "30",
                 "-o", str(out)]) == 0
    table = np.loadtxt(out, delimiter=",", skiprows=1)
    assert table.shape == (TINY_LAYERS + 1, 4)
    first, second = random_pairs(len(CORPUS), 30, 0)
    expected = peer([CORPUS[i] for i in first], [CORPUS[j] for j in second], tiny_bert, num_layers=TINY_LAYERS,
                    all_layers=True)
    np.testing.assert_allclose(table[:, 1:], np.stack([v.mean(axis=1) for v in expected], axis=1), atol=1e-6)
    rescaled = refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2, rescale_with_baseline=True,
                                  baseline_path=str(out))
    assert_close(rescaled, peer(HYPS, REFS, tiny_bert, num_layers=2, lang="en", rescale_with_baseline=True,
                                baseline_path=str(out)))


# -- drop-in compatibility -------------------------------------------------------------------------------------------
def test_compat_bert_score(tiny_bert, tmp_path):
    from refscore.compat import bert_score as compat

    (P, R, F), hash_code = compat.score(HYPS, REFS, model_type=tiny_bert, num_layers=2, return_hash=True)
    assert isinstance(F, torch.Tensor) and F.dtype == torch.float32
    assert_close([P.numpy(), R.numpy(), F.numpy()], peer(HYPS, REFS, tiny_bert, num_layers=2))
    assert hash_code == bert_score.utils.get_hash(tiny_bert, 2, False, False, False, False)

    scorer = compat.BERTScorer(model_type=tiny_bert, num_layers=2, idf=True)
    with pytest.raises(InputError, match="IDF weights are not computed"):
        scorer.score(HYPS, REFS)
    scorer.compute_idf(CORPUS)
    theirs = bert_score.BERTScorer(model_type=tiny_bert, num_layers=2, idf=True, idf_sents=CORPUS)
    assert_close([t.numpy() for t in scorer.score(HYPS, REFS)],
                 [t.numpy() for t in theirs.score(HYPS, REFS, batch_size=1)])
    assert scorer.hash == theirs.hash
    pytest.importorskip("matplotlib")
    image = tmp_path / "heatmap.png"
    scorer.plot_example(HYPS[0], REFS[0], fname=str(image))
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_compat_evaluate_keeps_the_first_calls_idf_as_hf(tiny_bert):
    """HF's script reuses its scorer while the settings' hash is unchanged, IDF weights included
    (tests/test_compat_evaluate_bertscore.py tests the sequence against HF's logic on MiniLM)."""
    from refscore.compat import evaluate

    metric = evaluate.load("bertscore")
    first = metric.compute(predictions=HYPS, references=REFS, model_type=tiny_bert, num_layers=2, idf=True)
    assert set(first) == {"precision", "recall", "f1", "hashcode"}
    second = metric.compute(predictions=HYPS[:5], references=REFS[5:10], model_type=tiny_bert, num_layers=2,
                            idf=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kept = bert_score.BERTScorer(model_type=tiny_bert, num_layers=2, idf=True, idf_sents=REFS)
    expected = kept.score(HYPS[:5], REFS[5:10], batch_size=1)[2].numpy()
    np.testing.assert_allclose(second["f1"], expected, atol=TOL)
    assert first["hashcode"] == second["hashcode"] == bert_score.utils.get_hash(tiny_bert, 2, True, False, False,
                                                                                False)


# -- bad input -------------------------------------------------------------------------------------------------------
def test_bad_input(tiny_bert, tmp_path, monkeypatch):
    scorer = refscore.BERTScorer(tiny_bert, 2)
    with pytest.raises(InputError, match="has 2 segments but references has 1"):
        scorer.score(["a", "b"], ["a"])
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\] is None"):
        scorer.score(["a", None], ["a", "b"])
    with pytest.raises(InputTypeError, match=r"references\[0\] is 3"):
        scorer.score(["a"], [3])
    with pytest.raises(InputError, match="empty"):
        scorer.score([], [])
    with pytest.raises(InputError, match=r"references\[0\] is an empty list"):
        scorer.score(["a"], [[]])
    with pytest.raises(InputError, match="out of range.*0..3"):
        refscore.BERTScorer(tiny_bert, 4)
    with pytest.raises(InputError, match="num_layers is required.*it has 3 layers"):
        refscore.BERTScorer(tiny_bert)
    with pytest.raises(InputError, match="needs a model"):
        refscore.BERTScorer()
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(InputError, match="HF_HUB_OFFLINE is set.*local copy"):
        refscore.BERTScorer("no-such-org/no-such-model", 2)
    wrong = tmp_path / "wrong.tsv"
    wrong.write_text(format_baseline(np.full((7, 3), 0.5)), encoding="utf-8")
    with pytest.raises(InputError, match="has 7 layer rows but the model has 3 layers"):
        refscore.BERTScorer(tiny_bert, 2, rescale_with_baseline=True, baseline_path=str(wrong))
    with pytest.raises(InputError, match="needs a baseline"):
        refscore.BERTScorer(tiny_bert, 2, rescale_with_baseline=True)
    with pytest.raises(InputError, match="dtype"):
        refscore.BERTScorer(tiny_bert, 2, dtype="float8")


def test_missing_extra_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(MissingExtraError, match=r"refscore\[bertscore\]"):
        refscore.BERTScorer("any-model", 2)


def test_defaultdict_idf_like_bert_score(tiny_bert):
    weights = defaultdict(lambda: 1.0, {2: 0.0, 3: 0.0})
    weighted = refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2, idf=weights)
    plain = refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2)
    np.testing.assert_allclose(weighted.details["f1"], plain.details["f1"], atol=TOL)


def test_out_of_memory_retries_with_smaller_batches(tiny_bert):
    expected = refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2)
    scorer = refscore.BERTScorer(tiny_bert, 2, batch_tokens=10_000)
    run_model = scorer._embedder._run_model

    def limited(batch, workspaces):
        if len(batch) > 3:
            raise torch.cuda.OutOfMemoryError("CUDA out of memory (simulated)")
        return run_model(batch, workspaces)

    scorer._embedder._run_model = limited
    with pytest.warns(RefscoreWarning, match="out of memory.*retrying with smaller batches"):
        result = scorer.score(HYPS, REFS)
    np.testing.assert_allclose(result.details["f1"], expected.details["f1"], atol=TOL)
    assert scorer._embedder.batch_tokens < 10_000


def test_local_model_signature_is_path_independent(tiny_bert, tmp_path):
    from refscore.metrics.bertscore.models import model_label

    copy = tmp_path / Path(tiny_bert).name
    shutil.copytree(tiny_bert, copy)
    assert model_label(str(copy)) == model_label(str(tiny_bert))
    config = json.loads((copy / "config.json").read_text())
    config["num_hidden_layers"] += 1
    (copy / "config.json").write_text(json.dumps(config))
    assert model_label(str(copy)) != model_label(str(tiny_bert))
    assert model_label("roberta-large") == "roberta-large"


def test_empty_idf_dict_means_no_idf_as_in_bert_score(tiny_bert):
    from refscore.compat import bert_score as compat

    for empty in ({}, defaultdict(lambda: 1.0)):
        (P, R, F), ours = compat.score(HYPS, REFS, model_type=tiny_bert, num_layers=2, idf=empty, return_hash=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected, theirs = bert_score.score(HYPS, REFS, model_type=tiny_bert, num_layers=2, idf=empty,
                                                batch_size=1, return_hash=True)
        assert_close([P.numpy(), R.numpy(), F.numpy()], [t.numpy() for t in expected])
        assert ours == theirs and "_no-idf" in ours


def test_built_in_baselines_ignore_the_case_of_lang(tiny_bert):
    from refscore.metrics.bertscore.baseline import builtin_baseline_path

    assert builtin_baseline_path("EN", "roberta-large") == builtin_baseline_path("en", "roberta-large") is not None
    assert refscore.BERTScorer(tiny_bert, 2, lang="EN").lang == "en"
    with pytest.raises(InputTypeError, match="lang must be a language code"):
        refscore.BERTScorer(tiny_bert, 2, lang=1)


def test_compat_evaluate_add_and_add_batch(tiny_bert):
    from refscore.compat import evaluate

    metric = evaluate.load("bertscore")
    metric.add_batch(predictions=HYPS[:-1], references=REFS[:-1])
    metric.add(prediction=HYPS[-1], reference=REFS[-1])
    result = metric.compute(model_type=tiny_bert, num_layers=2)
    np.testing.assert_allclose(result["f1"], peer(HYPS, REFS, tiny_bert, num_layers=2)[2], atol=TOL)
    with pytest.raises(InputError, match="needs predictions"):
        metric.compute(model_type=tiny_bert, num_layers=2)  # the queue was emptied by the previous compute


def test_warnings_name_the_positions_the_user_passed(tiny_bert):
    long_text = " ".join(["goods"] * 600)
    with pytest.warns(RefscoreWarning, match=r"truncated.*: hypotheses\[3\]$"):
        refscore.bertscore(["a", "a", "b", long_text], ["x", "y", "z", "w"], model_type=tiny_bert, num_layers=2)
    with pytest.warns(RefscoreWarning) as caught:
        refscore.bertscore(["a", "", "b"], [["x", "u"], ["", "y"], "z"], model_type=tiny_bert, num_layers=2)
    messages = [str(w.message) for w in caught]
    assert any("empty candidate" in m and "(hypotheses[1])" in m for m in messages)
    assert any("empty reference" in m and "(references[1][0])" in m for m in messages)
    assert all(w.filename == __file__ for w in caught)  # the warning points at the caller, not into refscore


def test_token_ids_outside_the_vocabulary_are_errors(tiny_bert):
    scorer = refscore.BERTScorer(tiny_bert, 2)
    vocabulary = scorer.model.config.vocab_size
    expected = rf"hypotheses\[1\] holds token id {vocabulary} at position 2.*0..{vocabulary - 1}"
    with pytest.raises(InputError, match=expected):
        scorer.score([[5, 6], [5, 6, vocabulary]], [[5], [6]])
    with pytest.raises(InputError, match=r"references\[0\]\[1\] holds token id -1 at position 0"):
        scorer.score([[5, 6]], [[[5], [-1]]])
    with pytest.raises(InputTypeError, match="token ids must be a list of ints or a 1-D integer numpy array"):
        scorer.score([np.array([5.0, 6.0])], [[5]])


def test_bad_settings_are_clear_errors(tiny_bert, tmp_path):
    headless = tmp_path / "headless.tsv"
    headless.write_text("\n".join(format_baseline(np.full((TINY_LAYERS + 2, 3), 0.5)).splitlines()[1:]) + "\n")
    with pytest.raises(InputError, match="has no header: line 1 is '0,0.5,0.5,0.5'"):
        refscore.BERTScorer(tiny_bert, 2, rescale_with_baseline=True, baseline_path=str(headless))
    with pytest.raises(InputError, match="'tpu' is not a torch device"):
        refscore.BERTScorer(tiny_bert, 2, device="tpu")
    assert refscore.BERTScorer(tiny_bert, 2, device="CPU").device == "cpu"
    if not torch.cuda.is_available():
        with pytest.raises(InputError, match="'cuda:0' but torch has no CUDA device"):
            refscore.BERTScorer(tiny_bert, 2, device=0)
    for value in (0, -5):
        with pytest.raises(InputError, match="batch_tokens must be >= 1"):
            refscore.BERTScorer(tiny_bert, 2, batch_tokens=value)
    with pytest.raises(InputTypeError, match="batch_tokens must be an int >= 1 or None"):
        refscore.BERTScorer(tiny_bert, 2, batch_tokens=2.5)
    with pytest.raises(InputError, match="num_threads must be >= 1"):
        refscore.BERTScorer(tiny_bert, 2).score(["a"], ["b"], num_threads=0)
    missing = tmp_path / "no" / "such" / "model"
    with pytest.raises(InputError, match="looks like a local path but does not exist"):
        refscore.BERTScorer(str(missing), 2)


def test_progress_bar_completes(tiny_bert, monkeypatch):
    """The embedding bar (refscore.progress's policy) counts every batch: total == updates, and it is closed."""
    from refscore.metrics.bertscore import engine
    from refscore.progress import progress_bar

    bars = []

    def recording_bar(total, description, enabled=None, expected_seconds=0.0, unit="it"):
        bar = progress_bar(total, description, enabled, expected_seconds, unit)
        record = {"total": total, "enabled": enabled, "seconds": expected_seconds, "updates": 0, "closed": False}
        bars.append(record)

        class Recorder:
            def update(self, n=1):
                record["updates"] += n
                bar.update(n)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                record["closed"] = True
                bar.close()

        return Recorder()

    monkeypatch.setattr(engine, "progress_bar", recording_bar)
    refscore.BERTScorer(tiny_bert, 2, batch_tokens=16, progress=True).score(HYPS, REFS)
    assert bars and all(bar["enabled"] is True and bar["closed"] for bar in bars)
    assert all(bar["updates"] == bar["total"] for bar in bars) and sum(bar["total"] for bar in bars) > 1
    assert all(0 < bar["seconds"] < 2 for bar in bars)  # a tiny model on 22 sentences: no automatic bar


def test_progress_bar_on_stderr_only_when_asked(tiny_bert, capsys):
    pytest.importorskip("tqdm")
    for progress, shown in ((True, True), (False, False), (None, False)):  # None: stderr is not a terminal here
        refscore.BERTScorer(tiny_bert, 2, batch_tokens=16, progress=progress).score(HYPS, REFS)
        captured = capsys.readouterr()
        assert ("BERTScore embedding" in captured.err) == shown, (progress, captured.err)
        assert "BERTScore embedding" not in captured.out and "Loading weights" not in captured.err


def test_expected_seconds_grow_with_tokens_and_model_size():
    from refscore.metrics.bertscore.engine import expected_seconds

    assert expected_seconds(2000, 10**8, "cpu") == 2 * expected_seconds(1000, 10**8, "cpu")
    assert expected_seconds(1000, 10**9, "cpu") == 10 * expected_seconds(1000, 10**8, "cpu")
    assert expected_seconds(1000, 10**8, "cuda:1") < expected_seconds(1000, 10**8, "cpu")
    # bert-score's default English model (roberta-large, 17 layers, ~250M weights outside the embedding table) on
    # 1,984 pairs of ~30 tokens: a run of tens of seconds on a CPU, so the automatic rule shows a bar
    assert expected_seconds(2 * 1984 * 30, 2 * 250_000_000, "cpu") > 2
