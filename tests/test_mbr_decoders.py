"""MBR with outside utilities, sample weights, and mbrs' pruning and centroid decoders, against mbrs 0.1.8.

- **Recorded**: tests/fixtures/mbrs_decoders.json holds the cases and mbrs' results (written by
  tests/mbrs_decoders_peer.py under mbrs' own interpreter); refscore must give the same choices and expected
  utilities on the same float32 values, and the same k-means clusters.
- **Live**: with ``REFSCORE_MBRS_PYTHON`` (an interpreter with mbrs 0.1.8 and torch, e.g. /work/venv-mbrs/bin/python)
  the peer script runs now and the same checks apply to its output.
- The random draws against torch itself (``torch.randint``, ``randperm``, ``multinomial``), where torch is installed.
- Properties in-process (hypothesis): utilities equal to the metric's own matrices give the metric's choice; equal
  weights are no weights; a one-step pruning schedule is plain MBR; and the errors.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import refscore
from refscore.errors import InputError, InputTypeError
from refscore.pairs import centroid_mbr, kmeans, mbr, pruning_mbr
from refscore.pairs._random import TorchCPUDraws

HERE = Path(__file__).parent
FIXTURE = HERE / "fixtures" / "mbrs_decoders.json"
PEER = HERE / "mbrs_decoders_peer.py"
# mbrs sums float32 values (torch), refscore float64: expected utilities agree to float32 rounding.
RTOL = 2e-6


def _float32(values: Any) -> np.ndarray:
    """The values mbrs holds (float32), as float64."""
    return np.asarray(values, dtype=np.float32).astype(np.float64)


def _same_choice(utilities: np.ndarray, ours: int, theirs: int) -> None:
    """The same index, or, where several candidates tie (torch.topk returns any of equal values, refscore the
    first), mbrs' index is one of the tied."""
    if ours != theirs:
        best = utilities[ours]
        assert abs(utilities[theirs] - best) <= RTOL * max(1.0, abs(best)), (ours, theirs, utilities[[ours, theirs]])


def check_matrix_case(case: dict[str, Any], result: dict[str, Any]) -> None:
    sign = 1.0 if case["maximize"] else -1.0
    matrix = sign * _float32(case["matrix"])
    labels = [[str(i) for i in range(matrix.shape[0])]]
    weighting = ({"sample_weights": [_float32(case["weights"])]} if "weights" in case else
                 {"sample_log_probs": [_float32(case["log_probs"])]} if "log_probs" in case else {})
    plain = mbr(labels, utilities=[matrix], **weighting)
    np.testing.assert_allclose(sign * plain.utilities[0], result["expected"], rtol=RTOL, atol=1e-7)
    _same_choice(plain.utilities[0], int(plain.chosen[0]), result["mbr_idx"][0])
    pruned = pruning_mbr(labels, utilities=[matrix], alpha=case["alpha"], sampling_scheduler=case["schedule"],
                         num_bootstrap_samples=case["resamples"], seed=case["seed"], **weighting)
    chosen = int(pruned.chosen[0])
    kept = pruned.utilities[0][~np.isnan(pruned.utilities[0])]   # the candidates left after pruning, in order
    np.testing.assert_allclose(sign * kept, result["kept"], rtol=RTOL, atol=1e-7)
    _same_choice(pruned.utilities[0], chosen, result["idx"][0])
    np.testing.assert_allclose(sign * pruned.utilities[0, chosen], result["score"][0], rtol=RTOL, atol=1e-7)


def check_centroid_case(case: dict[str, Any], result: dict[str, Any]) -> None:
    embeddings = _float32(case["embeddings"])
    references = _float32(case["reference_embeddings"]) if "reference_embeddings" in case else None
    config = {"ncentroids": case["ncentroids"], "niter": case["niter"], "kmeanspp": case["kmeanspp"],
              "seed": case["seed"]}
    centroids, assigns = kmeans(embeddings if references is None else references, **config)
    assert assigns.tolist() == result["assigns"]
    np.testing.assert_allclose(centroids, result["centroids"], rtol=1e-5, atol=1e-5)
    labels = [[f"h{i}" for i in range(len(embeddings))]]
    out = centroid_mbr(labels, [embeddings], "cosine", None if references is None else [references],
                       count_weight=case["count_weight"], **config)
    np.testing.assert_allclose(out.utilities[0], result["expected"], rtol=1e-5, atol=1e-6)
    _same_choice(out.utilities[0], int(out.chosen[0]), result["idx"][0])
    np.testing.assert_allclose(out.utilities[0, out.chosen[0]], result["score"][0], rtol=1e-5, atol=1e-6)


def check_record(record: dict[str, Any]) -> None:
    assert len(record["cases"]) == len(record["results"]) > 10
    for case, result in zip(record["cases"], record["results"]):
        if case["decoder"] == "centroid_mbr":
            check_centroid_case(case, result)
        else:
            check_matrix_case(case, result)


def test_recorded_mbrs_results():
    check_record(json.loads(FIXTURE.read_text()))


def test_live_mbrs(tmp_path):
    python = os.environ.get("REFSCORE_MBRS_PYTHON")
    if not python:
        pytest.skip("set REFSCORE_MBRS_PYTHON to an interpreter with mbrs 0.1.8 and torch (tests/mbrs_decoders_peer.py "
                    "says how to make one) to run mbrs itself; the recorded results are checked without it")
    out = tmp_path / "mbrs.json"
    subprocess.run([python, str(PEER), str(out)], check=True, timeout=600)
    record = json.loads(out.read_text())
    assert record["cases"] == json.loads(FIXTURE.read_text())["cases"]   # the fixture records these cases
    check_record(record)


def random_cases(count: int, seed: int) -> list[dict[str, Any]]:
    """Random shapes, values (continuous and tied), weights, seeds, thresholds, schedules and k-means settings."""
    rng = np.random.default_rng(seed)
    cases: list[dict[str, Any]] = []
    for _ in range(count):
        rows, columns = int(rng.integers(1, 50)), int(rng.integers(1, 120))
        if rng.random() < 0.3:   # discrete values and duplicated candidates
            base = np.round(rng.random((max(rows // 2, 1), columns)) * 10) / 10
            matrix = base[rng.integers(0, len(base), rows)]
        else:
            matrix = np.round(rng.random((rows, 1)) * rng.random() + rng.random((rows, columns)), 4)
        schedule = sorted(set(int(v) for v in rng.integers(1, 2 * columns + 2, int(rng.integers(1, 6)))))
        case: dict[str, Any] = {"decoder": "pruning_mbr", "matrix": matrix.tolist(),
                                "alpha": float(rng.choice([0.5, 0.9, 0.99, 1.0])), "schedule": schedule,
                                "resamples": int(rng.integers(1, 300)), "seed": int(rng.integers(0, 2**32)),
                                "maximize": True}
        if rng.random() < 0.4:
            case["weights"] = np.round(rng.random(columns) + 0.01, 4).tolist()
        cases.append(case)
        count_rows, dim = int(rng.integers(1, 80)), int(rng.integers(1, 20))
        centres = rng.normal(size=(int(rng.integers(1, 8)), dim)) * 2
        vectors = centres[rng.integers(0, len(centres), count_rows)] + rng.normal(size=(count_rows, dim))
        cases.append({"decoder": "centroid_mbr", "embeddings": np.round(vectors, 3).tolist(),
                      "ncentroids": int(rng.integers(1, 12)), "niter": int(rng.integers(1, 8)),
                      "kmeanspp": bool(rng.random() < 0.7), "seed": int(rng.integers(0, 2**32)),
                      "count_weight": bool(rng.random() < 0.5)})
    return cases


def test_live_mbrs_random_cases(tmp_path):
    """mbrs' choices on 80 random cases (its decoders only: the chosen index and its score)."""
    python = os.environ.get("REFSCORE_MBRS_PYTHON")
    if not python:
        pytest.skip("set REFSCORE_MBRS_PYTHON to an interpreter with mbrs 0.1.8 and torch to run mbrs itself")
    cases = random_cases(40, seed=int(os.environ.get("REFSCORE_MBRS_SEED", "0")))
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    subprocess.run([python, str(PEER), str(tmp_path / "out.json"), str(tmp_path / "cases.json"), "1"], check=True,
                   timeout=600)
    for case, theirs in zip(cases, json.loads((tmp_path / "out.json").read_text())):
        if case["decoder"] == "centroid_mbr":
            vectors = _float32(case["embeddings"])
            ours = centroid_mbr([[str(i) for i in range(len(vectors))]], [vectors], ncentroids=case["ncentroids"],
                                niter=case["niter"], kmeanspp=case["kmeanspp"], seed=case["seed"],
                                count_weight=case["count_weight"])
            tolerance = 1e-5
        else:
            matrix = _float32(case["matrix"])
            weighting = {"sample_weights": [_float32(case["weights"])]} if "weights" in case else {}
            ours = pruning_mbr([[str(i) for i in range(len(matrix))]], utilities=[matrix], alpha=case["alpha"],
                               sampling_scheduler=case["schedule"], num_bootstrap_samples=case["resamples"],
                               seed=case["seed"], **weighting)
            tolerance = RTOL
        chosen = int(ours.chosen[0])
        _same_choice(ours.utilities[0], chosen, theirs["idx"][0])
        assert abs(ours.utilities[0, chosen] - theirs["score"][0]) <= tolerance * max(1.0, abs(theirs["score"][0]))


def test_live_mbrs_pruning_with_chrf_on_wmt22(tmp_path):
    """Texts end to end: pruning MBR with refscore's chrF (only the pairs each step needs) against mbrs' pruning
    decoder with its own chrF (sacreBLEU's, 0-100, float32), on samples of WMT22 en-de system outputs (drawn with
    replacement: duplicates, as sampling gives)."""
    python = os.environ.get("REFSCORE_MBRS_PYTHON")
    if not python:
        pytest.skip("set REFSCORE_MBRS_PYTHON to an interpreter with mbrs 0.1.8 and torch to run mbrs itself")
    from conftest import read_segments, shared_data_path

    systems = [read_segments(path) for path in sorted(shared_data_path("wmt22", "en-de", "sys").glob("*.txt"))]
    rng = np.random.default_rng(11)
    cases = []
    for segment in rng.choice(min(map(len, systems)), 8, replace=False):
        outputs = [system[segment] for system in systems]
        cases.append({"decoder": "pruning_chrf", "hypotheses": [outputs[i] for i in rng.integers(0, len(outputs), 40)],
                      "alpha": 0.9, "schedule": [4, 8, 16, 40], "resamples": 200, "seed": int(rng.integers(0, 2**32))})
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    subprocess.run([python, str(PEER), str(tmp_path / "out.json"), str(tmp_path / "cases.json"), "1"], check=True,
                   timeout=600)
    for case, theirs in zip(cases, json.loads((tmp_path / "out.json").read_text())):
        ours = pruning_mbr([case["hypotheses"]], metric="chrf", alpha=case["alpha"],
                           sampling_scheduler=case["schedule"], num_bootstrap_samples=case["resamples"],
                           seed=case["seed"])
        chosen = int(ours.chosen[0])
        assert case["hypotheses"][chosen] == case["hypotheses"][theirs["idx"][0]]
        assert abs(100 * ours.utilities[0, chosen] - theirs["score"][0]) <= 1e-3


# --- the random draws, against torch itself -------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), high=st.integers(1, 3000), rows=st.integers(1, 40), n=st.integers(1, 300))
def test_draws_equal_torch(seed, high, rows, n):
    torch = pytest.importorskip("torch")
    generator = torch.Generator().manual_seed(seed)
    draws = TorchCPUDraws(seed)
    assert np.array_equal(draws.randint(high, (rows, 7)), torch.randint(high, (rows, 7), generator=generator).numpy())
    assert np.array_equal(draws.randperm(n), torch.randperm(n, generator=generator).numpy())
    weights = np.random.default_rng(seed).random(n).astype(np.float32)
    weights[::3] = np.float32(1e-5)
    weights /= weights.sum(dtype=np.float32)
    assert draws.multinomial_one(weights) == torch.multinomial(torch.from_numpy(weights), 1,
                                                               generator=generator).item()
    assert np.array_equal(draws.randint(high, (3,)), torch.randint(high, (3,), generator=generator).numpy())


# --- properties in-process --------------------------------------------------------------------------------------

texts = st.lists(st.text(alphabet="ab cдж", max_size=8), min_size=1, max_size=7)


@settings(max_examples=30, deadline=None)
@given(items=st.lists(texts, min_size=1, max_size=3), include_self=st.booleans())
def test_utilities_from_pairwise_equal_metric_mode(items, include_self):
    matrices = refscore.pairwise("chrf", items)
    by_metric = mbr(items, metric="chrf", include_self=include_self)
    by_matrix = mbr(items, utilities=matrices, include_self=include_self)
    np.testing.assert_allclose(by_matrix.utilities, by_metric.utilities, rtol=0, atol=1e-15)
    assert by_matrix.chosen.tolist() == by_metric.chosen.tolist()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), rows=st.integers(1, 12), columns=st.integers(1, 20), scale=st.floats(0.1, 50))
def test_weights(seed, rows, columns, scale):
    rng = np.random.default_rng(seed)
    matrix = rng.random((rows, columns))
    equal = mbr([["x"] * rows], utilities=[matrix], sample_weights=[np.full(columns, scale)])
    np.testing.assert_allclose(equal.utilities, mbr([["x"] * rows], utilities=[matrix]).utilities, atol=1e-14)
    weights = rng.random(columns)
    weighted = mbr([["x"] * rows], utilities=[matrix], sample_weights=[weights * scale])
    np.testing.assert_allclose(weighted.utilities[0], matrix @ weights / weights.sum(), atol=1e-12)
    logs = mbr([["x"] * rows], utilities=[matrix], sample_log_probs=[np.log(weights) - 300])
    np.testing.assert_allclose(logs.utilities, weighted.utilities, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**16), size=st.integers(1, 10))
def test_weights_without_self_pairs(seed, size):
    """Self-pairs left out: each candidate's weights renormalised over the others (NaN where none is left)."""
    rng = np.random.default_rng(seed)
    matrix, weights = rng.random((size, size)), rng.random(size) * (rng.random(size) < 0.8)
    weights[0] = 0.5    # at least one positive weight
    result = mbr([["x"] * size], utilities=[matrix], include_self=False, sample_weights=[weights])
    for i in range(size):
        others = [j for j in range(size) if j != i]
        total = weights[others].sum()
        expected = matrix[i, others] @ weights[others] / total if total > 0 else np.nan
        np.testing.assert_allclose(result.utilities[0, i], expected, atol=1e-14)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**16), rows=st.integers(1, 15), columns=st.integers(1, 30), alpha=st.floats(0.05, 1.0))
def test_one_step_pruning_is_mbr(seed, rows, columns, alpha):
    matrix = np.random.default_rng(seed).random((rows, columns))
    plain = mbr([["x"] * rows], utilities=[matrix])
    pruned = pruning_mbr([["x"] * rows], utilities=[matrix], sampling_scheduler=[columns], alpha=alpha,
                         num_bootstrap_samples=50, seed=seed)
    assert pruned.chosen.tolist() == plain.chosen.tolist()
    kept = ~np.isnan(pruned.utilities[0])
    np.testing.assert_allclose(pruned.utilities[0, kept], plain.utilities[0, kept], atol=1e-14)


def test_pruning_with_a_metric_scores_only_what_it_needs():
    samples = [["the cat sat on the mat", "the cat sat on a mat", "a cat sat on the mat", "dogs", "the dog",
                "the cat sat on the mat", "cats sit on mats", "a mat"] * 4]
    matrix = refscore.pairwise("chrf", samples)[0]
    by_metric = pruning_mbr(samples, metric="chrf", sampling_scheduler=[4, 8, 32], seed=3)
    by_matrix = pruning_mbr(samples, utilities=[matrix], sampling_scheduler=[4, 8, 32], seed=3)
    np.testing.assert_allclose(by_metric.utilities, by_matrix.utilities, atol=1e-15)
    assert by_metric.best == ["the cat sat on the mat"]


def test_centroid_with_every_reference_its_own_centroid_is_mbr():
    rng = np.random.default_rng(0)
    embeddings = rng.normal(size=(6, 4))
    out = centroid_mbr([list("abcdef")], [embeddings], ncentroids=8)
    unit = embeddings / np.linalg.norm(embeddings, axis=1)[:, None]
    np.testing.assert_allclose(out.utilities[0], (unit @ unit.T).mean(axis=1), atol=1e-14)


def test_centroid_weights_sum_over_clusters():
    embeddings = np.array([[1.0, 0.0], [0.99, 0.01], [0.0, 1.0], [0.01, 0.99]])
    weights = np.array([0.1, 0.2, 0.3, 0.4])
    out = centroid_mbr([list("abcd")], [embeddings], ncentroids=2, sample_weights=[weights])
    centroids, assigns = kmeans(embeddings, 2)
    mass = np.array([weights[assigns == c].sum() for c in range(2)])
    utility = refscore.pairs.cosine_utility([embeddings])(0, centroids)
    np.testing.assert_allclose(out.utilities[0], utility @ mass, atol=1e-14)


@pytest.mark.parametrize("call, error, message", [
    (lambda: mbr([["a", "b"]], utilities=[np.zeros((3, 2))]), InputError,
     r"utilities\[0\] has shape 3 x 2 but item 0 has 2 candidate\(s\); expected 2 x R"),
    (lambda: mbr([["a", "b"]], pseudo_references=[["c"]], utilities=[np.zeros((2, 2))]), InputError,
     r"utilities\[0\] has shape 2 x 2 but item 0 has 2 candidate\(s\) and 1 pseudo-reference\(s\); expected 2 x 1"),
    (lambda: mbr([["a"], ["b"]], utilities=[np.zeros((1, 1))]), InputError,
     r"utilities has 1 item\(s\) but candidates has 2"),
    (lambda: mbr([["a", "b"]], utilities=[[[0.1, np.nan], [0.2, 0.3]]]), InputError,
     r"utilities\[0\]\[0, 1\] is nan \(1 value\(s\) not finite\)"),
    (lambda: mbr([["a", "b"]], utilities=[np.eye(2)], sample_weights=[[1, -1]]), InputError,
     r"sample_weights\[0\]\[1\] is -1.0; weights are finite numbers >= 0"),
    (lambda: mbr([["a", "b"]], utilities=[np.eye(2)], sample_weights=[[1, 2, 3]]), InputError,
     r"sample_weights\[0\] has shape \(3,\) but item 0 has 2 pseudo-reference\(s\)"),
    (lambda: mbr([["a", "b"]], utilities=[np.eye(2)], sample_weights=[[0, 0]]), InputError, r"every weight is 0"),
    (lambda: mbr([["a", "b"]], utilities=[np.eye(2)], sample_weights=[[1, 1]], sample_log_probs=[[0, 0]]),
     InputError, r"not both"),
    (lambda: mbr([["a", "b"]], utilities=[np.eye(2)], sample_log_probs=[[0, np.nan]]), InputError, r"NaN or \+inf"),
    (lambda: mbr([["a", "b"]], metric="chrf", utilities=[np.eye(2)]), InputError, r"metric or utilities, not both"),
    (lambda: mbr([["a", "b"]], utilities=[np.zeros((2, 3))], include_self=False), InputError,
     r"include_self=False .* item 0 is 2 x 3"),
    (lambda: mbr([["a"]], utilities="m.npy"), InputTypeError, r"utilities must be a list of 2-D arrays"),
    (lambda: pruning_mbr([["a"]], utilities=[[[1.0]]], alpha=0), InputError, r"alpha must be > 0"),
    (lambda: pruning_mbr([["a"]], utilities={"x": [[[1.0]]], "y": [[[1.0]]]}), InputError,
     r"one utility matrix per item, got 2 by name \(x, y\)"),
    (lambda: pruning_mbr([["a"]], utilities=[[[1.0]]], sampling_scheduler=[8, 0]), InputError,
     r"sampling_scheduler\[1\] must be >= 1"),
    (lambda: pruning_mbr([["a"]], utilities=[[[1.0]]], seed=-1), InputError, r"seed must be"),
    (lambda: centroid_mbr([["a", "b"]], [np.zeros((3, 2))]), InputError,
     r"embeddings\[0\] has shape \(3, 2\); expected \(2 x dim\)"),
    (lambda: centroid_mbr([["a"]], [np.zeros((1, 2))], utility=lambda k, c: np.zeros((2, 1))), InputError,
     r"utility\(0, centroids\) returned shape \(2, 1\); expected \(1, 1\)"),
    (lambda: centroid_mbr([["a"]], [np.zeros((1, 2))], count_weight=True, sample_weights=[[1.0]]), InputError,
     r"not both"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_padded_matrix_round_trip():
    """refscore.pairwise's NaN-padded result is taken as it is: rows and columns beyond an item's are padding."""
    items = [["a cat", "the cat", "a dog"], ["x"]]
    padded = refscore.pairwise("chrf", items)
    result = mbr(items, utilities=padded, include_self=True)
    assert result.chosen.tolist() == mbr(items, metric="chrf", include_self=True).chosen.tolist()
    padded[1, 0, 2] = 0.5   # a value where item 1 has no pseudo-reference... is taken as a third column
    with pytest.raises(InputError, match=r"utilities\[1\]\[0, 1\] is nan"):
        mbr(items, utilities=padded)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
