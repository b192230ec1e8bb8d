"""BERTScore on a CUDA device: parity with bert-score 0.3.13 running on the same device, and agreement with the CPU.

These tests need a GPU and skip without one (CI has none); they run on a GPU machine with
``python -m pytest tests/test_bertscore_cuda.py`` (docs/bertscore.md, "On a GPU"). The rest of the BERTScore suite
runs on the GPU too there: ``device="auto"`` (the default of refscore and bert-score) picks CUDA when it is present.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from bertscore_helpers import CORPUS, TINY_LAYERS, build_tiny_bert, build_tiny_roberta

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
bert_score = pytest.importorskip("bert_score")

import refscore  # noqa: E402

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device (torch sees none)")

HYPS = CORPUS[:9] + ["the cat", "Über den Wolken"]
REFS = CORPUS[4:13] + ["a cat sat on the mat", "über den wolken"]
#: bert-score 0.3.13 fails on empty strings with transformers 5 (its ``sent_encode`` calls the tokenizer method
#: ``build_inputs_with_special_tokens``, which transformers 5 removed), so empty strings are compared with the CPU.
WITH_EMPTY = (HYPS + ["", "a"], REFS + ["an empty hypothesis", ""])
#: bert-score and refscore run the same float32 kernels on the same device; what differs is the batch composition
#: (bert-score pads a batch to its longest sentence, refscore packs by length), which changes the reduction order
#: of cuBLAS's products: differences of a few float32 ulps of values of order 1 (~1e-7 each), well under 1e-6.
TOL = 1e-6
#: CPU (MKL) and GPU (cuBLAS) sum the products in different orders; on these 3-layer models of width 32 each layer
#: adds a few ulps of relative error to activations of order 1, so the cosine similarities differ by ~1e-6 at most.
DEVICE_TOL = 1e-5


@pytest.fixture(scope="module", params=["bert", "roberta"])
def tiny_model(request, tmp_path_factory):
    build = build_tiny_bert if request.param == "bert" else build_tiny_roberta
    return str(build(tmp_path_factory.mktemp(f"tiny_{request.param}")))


def peer(hyps, refs, model, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [t.cpu().numpy() for t in bert_score.score(hyps, refs, model_type=model, batch_size=1,
                                                          device="cuda", **kwargs)]


def assert_close(result, expected, tol):
    for name, ours, theirs in zip(("P", "R", "F"), result, expected):
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), atol=tol, rtol=0, err_msg=name)


@pytest.mark.parametrize("layer", [1, TINY_LAYERS])
def test_cuda_matches_bert_score_on_cuda(tiny_model, layer):
    result = refscore.bertscore(HYPS, REFS, model_type=tiny_model, num_layers=layer, device="cuda")
    assert_close(result, peer(HYPS, REFS, tiny_model, num_layers=layer), TOL)


def test_cuda_idf_and_multiple_references_match_bert_score(tiny_model):
    refs = [[ref, CORPUS[(k + 3) % len(CORPUS)]] for k, ref in enumerate(REFS)]
    result = refscore.bertscore(HYPS, refs, model_type=tiny_model, num_layers=2, idf=True, device="cuda")
    assert_close(result, peer(HYPS, refs, tiny_model, num_layers=2, idf=True), TOL)


def test_cuda_agrees_with_cpu(tiny_model):
    on_gpu = refscore.bertscore(*WITH_EMPTY, model_type=tiny_model, num_layers=2, device="cuda")
    on_cpu = refscore.bertscore(*WITH_EMPTY, model_type=tiny_model, num_layers=2, device="cpu")
    assert_close(on_gpu, on_cpu, DEVICE_TOL)


def test_cuda_scorer_reuses_its_model_and_gives_the_same_scores_twice(tiny_model):
    scorer = refscore.BERTScorer(tiny_model, 2, device="cuda")
    first = scorer.score(HYPS, REFS)
    second = scorer.score(HYPS, REFS)
    assert_close(second, first, 0.0)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_cuda_reduced_precision_stays_near_float32(tiny_model, dtype):
    # docs/bertscore.md: reduced precision is not exact; on the tiny random models the tests bound it by 0.02 (as
    # the CPU tests do): bfloat16 keeps 8 bits of mantissa, a relative error of 2**-8 per rounding, and the cosine
    # of width-32 vectors after 3 layers moves by about that order.
    reduced = refscore.bertscore(HYPS, REFS, model_type=tiny_model, num_layers=2, device="cuda", dtype=dtype)
    full = refscore.bertscore(HYPS, REFS, model_type=tiny_model, num_layers=2, device="cuda")
    assert_close(reduced, full, 0.02)



def test_cuda_attention_runs_without_cudnn_plans(tiny_model):
    # cuDNN's attention builds a plan per (batch, length) shape, slower than the model on length-sorted batches
    scorer = refscore.BERTScorer(tiny_model, 2, device="cuda", dtype="bfloat16")
    before = torch.backends.cuda.cudnn_sdp_enabled()
    seen = []
    model = scorer._embedder.loaded.model
    handle = model.register_forward_pre_hook(lambda module, args: seen.append(torch.backends.cuda.cudnn_sdp_enabled()))
    try:
        scorer.score(HYPS, REFS)
    finally:
        handle.remove()
    assert seen and not any(seen)
    assert torch.backends.cuda.cudnn_sdp_enabled() == before
