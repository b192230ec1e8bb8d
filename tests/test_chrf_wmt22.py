"""chrF on every WMT22 system: sacreBLEU's own scores (cached by tests/golden/make_chrf_wmt22.py), the official
WMT22 chrF table, and live sacreBLEU per-segment statistics on a slice of every language pair."""
from __future__ import annotations

import csv
import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import CHRF as PeerCHRF

from conftest import read_segments, shared_data_path
from refscore.metrics.chrf import CHRF

pytestmark = pytest.mark.parity   # against the peer under this interpreter, on every supported Python

GOLDEN = Path(__file__).resolve().parent / "golden" / "chrf_wmt22_sacrebleu.json"
#: The system file in the source repository differs from the output that was officially scored (data README).
OFFICIAL_EXCEPTIONS = {("ru-sah", "Lan-Bridge")}


@lru_cache(maxsize=None)
def pair_files(pair: str) -> tuple[dict[str, list[str]], dict[str, str]]:
    """The references of a pair by file name, and official reference name -> file name (refs.tsv)."""
    directory = shared_data_path("wmt22", pair)
    refs = {path.name: read_segments(path) for path in sorted(directory.glob("ref*.txt"))}
    with open(directory / "refs.tsv", encoding="utf-8") as handle:
        names = {row["original_ref_name"]: row["file"] for row in csv.DictReader(handle, delimiter="\t")}
    return refs, names


@lru_cache(maxsize=None)
def system_segments(pair: str, system: str) -> list[str]:
    return read_segments(shared_data_path("wmt22", pair, "sys", f"{system}.txt"))


def per_segment(reference_lists: list[list[str]]) -> list[list[str]]:
    return [list(refs) for refs in zip(*reference_lists)]


@lru_cache(maxsize=None)
def our_score(pair: str, system: str, ref_files: tuple[str, ...], word_order: int = 0) -> float:
    refs, _ = pair_files(pair)
    return 100 * CHRF(word_order=word_order).corpus_score(
        system_segments(pair, system), per_segment([refs[name] for name in ref_files])).score


def all_ref_files(pair: str) -> tuple[str, ...]:
    return tuple(pair_files(pair)[0])


def golden() -> dict:
    shared_data_path("wmt22")
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_every_system_equals_sacrebleu_single_and_multi_reference():
    data = golden()
    assert data["sacrebleu"] == "2.6.0" and len(data["chrf"]) == 191
    mismatches = []
    for key, expected in data["chrf"].items():
        pair, system = key.split("/")
        for refset, peer in expected.items():
            files = ("ref.txt",) if refset == "ref.txt" else all_ref_files(pair)
            ours = our_score(pair, system, files)
            if abs(ours - peer) > 1e-9:
                mismatches.append((key, refset, ours, peer))
    assert not mismatches


def test_chrf_plus_plus_equals_sacrebleu_on_one_system_per_pair():
    data = golden()
    for key, peer in data["chrf++_all_refs"].items():
        pair, system = key.split("/")
        assert our_score(pair, system, all_ref_files(pair), word_order=2) == pytest.approx(peer, abs=1e-9), key


def test_reproduces_official_wmt22_chrf():
    table = shared_data_path("wmt22", "_official", "automatic-scores.tsv")
    checked, misses = 0, []
    with open(table, encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            metric = row["metric"]
            if not metric.startswith("chrf-") or (row["pair"], row["system"]) in OFFICIAL_EXCEPTIONS:
                continue
            _, names = pair_files(row["pair"])
            reference = metric[len("chrf-"):]
            if reference == "all":
                files = all_ref_files(row["pair"])
            elif reference in names:
                files = (names[reference],)
            else:  # a reference that is not in the data set (e.g. cs-en "A")
                continue
            ours = our_score(row["pair"], row["system"], files)
            checked += 1
            if abs(ours - float(row["score"])) > 0.01:
                misses.append((row["pair"], row["system"], metric, ours, float(row["score"])))
    assert checked > 400 and not misses


@pytest.mark.parametrize("word_order", [0, 2])
def test_segment_statistics_equal_live_sacrebleu_on_every_pair(word_order):
    root = shared_data_path("wmt22")
    for pair_dir in sorted(p for p in root.iterdir() if (p / "sys").is_dir()):
        refs, _ = pair_files(pair_dir.name)
        system = sorted((pair_dir / "sys").glob("*.txt"))[-1].stem
        hyps = system_segments(pair_dir.name, system)[:60]
        streams = [ref[:60] for ref in refs.values()]
        ours = CHRF(word_order=word_order).statistics(hyps, per_segment(streams)).data
        peer = np.array(PeerCHRF(word_order=word_order)._extract_corpus_statistics(hyps, streams))
        np.testing.assert_array_equal(ours, peer, err_msg=f"{pair_dir.name}/{system}")


def test_threads_give_identical_statistics_on_a_full_system():
    refs, _ = pair_files("zh-en")
    hyps = system_segments("zh-en", "Online-A")
    references = per_segment(list(refs.values()))
    metric = CHRF(word_order=2)
    one = metric.statistics(hyps, references, num_threads=1).data
    np.testing.assert_array_equal(metric.statistics(hyps, references, num_threads=2).data, one)
    np.testing.assert_array_equal(metric.statistics(hyps, references, num_threads=5).data, one)
