"""The float32 products floor printed by benchmarks/bench_bertscore.py counts exactly the matrix products that
refscore's packed encoder computes (torch's FLOP counter on a tiny BERT), so the floor it reports is refscore's
own minimum work."""
from __future__ import annotations

import doctest
import sys
from pathlib import Path

import numpy as np
import pytest

from bertscore_helpers import build_tiny_bert

torch = pytest.importorskip("torch")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import products_floor  # noqa: E402


def _addmm_in_place_flops(self_shape, a_shape, b_shape, out_shape=None, **kwargs):
    """torch's counter knows ``addmm`` but not the in-place ``addmm_`` the packed encoder accumulates with."""
    return 2 * a_shape[0] * a_shape[1] * b_shape[1]


@pytest.mark.parametrize("num_layers", [1, 3])
def test_floor_counts_the_products_of_the_packed_encoder(tmp_path, num_layers):
    from torch.utils.flop_counter import FlopCounterMode

    from refscore import BERTScorer

    scorer = BERTScorer(str(build_tiny_bert(tmp_path / "bert")), num_layers=num_layers)
    packed = scorer._embedder.packed
    assert packed is not None, "the tiny BERT should run on the packed encoder"
    sentences = ["The cat sat on the mat.", "A quick brown fox.", "Привет", "The cat sat on the mat."]
    lengths = products_floor.distinct_token_lengths(scorer, sentences)
    assert len(lengths) == 3
    sequences = [np.asarray(ids) for ids in {tuple(scorer.tokenizer(s)["input_ids"]) for s in sentences}]
    input_ids = torch.zeros((len(sequences), max(lengths)), dtype=torch.long)
    for row, ids in enumerate(sequences):
        input_ids[row, :len(ids)] = torch.from_numpy(ids)
    counter = FlopCounterMode(display=False, custom_mapping={torch.ops.aten.addmm_: _addmm_in_place_flops})
    with torch.inference_mode(), counter:
        packed.hidden_states(input_ids, [len(ids) for ids in sequences], all_layers=False)
    config = scorer.model.config
    expected = products_floor.linear_flops(lengths, config.hidden_size, config.intermediate_size, num_layers)
    assert counter.get_total_flops() == expected


def test_measured_rate_is_positive_and_names_its_workers():
    rate = products_floor.measure_product_rate(hidden=64, intermediate=256, workers=2, seconds=0.05)
    assert rate.workers == 2 and rate.gflops > 0


def test_docstring_examples_run():
    assert doctest.testmod(products_floor).failed == 0
