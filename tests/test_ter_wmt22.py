"""TER on WMT22: every system against sacreBLEU's cached output, and a live sacreBLEU run on a subset.

The cache ``tests/golden/ter_wmt22.npz`` is written by ``tests/golden/make_ter_golden.py`` (sacreBLEU 2.6's
``TER().corpus_score`` on every system with all of the pair's references, per-reference edit counts recorded
from sacreBLEU's own ``translation_edit_rate``). refscore must reproduce every per-reference edit count, every
reference length and the corpus TER (to 1e-9 on the 0–100 scale).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import read_segments, shared_data_path

from refscore.inputs import from_streams
from refscore.metrics.ter import TER

pytestmark = pytest.mark.parity   # against the peer under this interpreter, on every supported Python

GOLDEN = Path(__file__).resolve().parent / "golden" / "ter_wmt22.npz"


def _golden_systems() -> dict[str, list[str]]:
    with np.load(GOLDEN) as archive:
        systems = json.loads(str(archive["meta"]))["systems"]
    by_pair: dict[str, list[str]] = {}
    for entry in systems:
        pair, system = entry.split("/", 1)
        by_pair.setdefault(pair, []).append(system)
    return by_pair


GOLDEN_SYSTEMS = _golden_systems() if GOLDEN.exists() else {}


def pair_references(pair: str) -> list[list[str]]:
    directory = shared_data_path("wmt22", pair)
    files = [directory / name for name in ("ref.txt", "ref2.txt") if (directory / name).exists()]
    return from_streams([read_segments(f) for f in files])


@pytest.mark.parametrize("pair", sorted(GOLDEN_SYSTEMS))
def test_every_cached_system_matches_sacrebleu(pair):
    references = pair_references(pair)
    n_refs = len(references[0])
    metric = TER()
    with np.load(GOLDEN) as archive:
        golden_lengths = archive[f"{pair}|ref_lengths"].astype(np.int64)
        for system in GOLDEN_SYSTEMS[pair]:
            hypotheses = read_segments(shared_data_path("wmt22", pair, "sys", f"{system}.txt"))
            per_ref = metric.reference_edits(hypotheses, references, num_threads=2)
            golden_edits = archive[f"{pair}|{system}|edits"].astype(np.int64)
            assert golden_edits.shape == (n_refs, len(hypotheses))
            mismatched = np.flatnonzero((per_ref.edits.reshape(-1, n_refs) != golden_edits.T).any(axis=1))
            assert mismatched.size == 0, f"{pair}/{system}: edit counts differ at segments {mismatched[:10]}"
            np.testing.assert_array_equal(per_ref.ref_lengths.reshape(-1, n_refs), golden_lengths.T)
            score = metric.score_from_statistics(metric.statistics_from_edits(per_ref, n_refs))
            assert 100 * score.score == pytest.approx(float(archive[f"{pair}|{system}|score"]), abs=1e-9), system


LIVE_CASES = [
    # (pair, options, segments): two-reference pairs, CJK targets with asian_support, every option used
    ("en-de", {}, 150),
    ("zh-en", {}, 60),
    ("en-ja", {"normalized": True, "asian_support": True}, 60),
    ("en-zh", {"normalized": True, "no_punct": True, "asian_support": True}, 40),
    ("ja-en", {"no_punct": True, "asian_support": True, "case_sensitive": True}, 80),
    ("de-en", {"normalized": True, "case_sensitive": True}, 100),
]


@pytest.mark.parametrize("pair, options, n_segments", LIVE_CASES, ids=[c[0] for c in LIVE_CASES])
def test_live_subset_matches_sacrebleu(pair, options, n_segments):
    pytest.importorskip("sacrebleu")
    from _ter_peer import sacrebleu_ter_with_edits

    references = pair_references(pair)[:n_segments]
    system = sorted(shared_data_path("wmt22", pair, "sys").glob("*.txt"))[0]
    hypotheses = read_segments(system)[:n_segments]
    streams = [list(stream) for stream in zip(*references)]
    peer, peer_edits, peer_lengths = sacrebleu_ter_with_edits(hypotheses, streams, **options)
    metric = TER(**options)
    per_ref = metric.reference_edits(hypotheses, references, num_threads=1)
    assert per_ref.edits.tolist() == peer_edits
    assert per_ref.ref_lengths.tolist() == peer_lengths
    score = metric.corpus_score(hypotheses, references, num_threads=2)
    assert 100 * score.score == pytest.approx(peer.score, abs=1e-9)
    assert score.values["num_edits"] == peer.num_edits
    assert score.values["ref_length"] == pytest.approx(peer.ref_length, abs=1e-9)
