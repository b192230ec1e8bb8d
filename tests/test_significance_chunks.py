"""Resampling in bounded chunks: the same random stream and results as one sacreBLEU-style draw, memory that does
not grow with the number of resamples, Ctrl-C within a second, and the progress bar."""
from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from refscore.significance import sampling, bootstrap_ci, paired_test
from refscore.significance.sampling import bootstrap_draw, make_rng, mask_draw, run_chunks
from test_cli_process import default_sigint
from test_significance import make_corpus


def chunked(draw, n, rows):
    return np.concatenate(run_chunks(draw, n, rows, lambda chunk: chunk, num_threads=1, progress=False,
                                     description="test", unit="resample"))


@pytest.mark.parametrize("n_segments", [1, 7, 33, 257])
def test_chunked_bootstrap_draws_are_sacrebleus_single_draw(n_segments):
    expected_rng = make_rng(12345)
    expected = expected_rng.choice(n_segments, size=(1000, n_segments), replace=True)
    for rows in (1, 7, 64, 333, 1000, 5000):   # most do not divide 1000
        rng = make_rng(12345)
        assert np.array_equal(chunked(bootstrap_draw(rng, n_segments), 1000, rows), expected), rows
        assert rng.integers(1 << 30) == _next_after_choice(n_segments)   # left where sacreBLEU's generator is


def _next_after_choice(n_segments):
    rng = make_rng(12345)
    rng.choice(n_segments, size=(1000, n_segments), replace=True)
    return rng.integers(1 << 30)


@pytest.mark.parametrize("n_segments", [1, 7, 33, 257])
def test_chunked_masks_are_sacrebleus_single_draw(n_segments):
    whole = make_rng(7)
    expected = whole.integers(2, size=(1000, n_segments), dtype=bool)
    after = whole.choice(n_segments, size=(5, n_segments))   # sacreBLEU's interval resamples follow the masks
    for rows in (32, 96, 320, 1024):   # multiples of 32 (numpy's word of random bits), none divides 1000
        rng = make_rng(7)
        assert np.array_equal(chunked(mask_draw(rng, n_segments), 1000, rows), expected), rows
        assert np.array_equal(rng.choice(n_segments, size=(5, n_segments)), after), rows


def test_chunk_rows_bound_the_work_and_keep_mask_words_whole():
    assert sampling.chunk_rows(2037, 10) * 2037 * 10 <= sampling._CHUNK_ELEMENTS
    assert sampling.chunk_rows(3, 1, multiple=32) % 32 == 0
    assert sampling.chunk_rows(10 ** 7, 1, multiple=32) == 32   # at least one word of masks


@pytest.mark.parametrize("elements", [7 * 120, 100 * 120 + 5, 333 * 120])
def test_results_do_not_depend_on_the_chunk_size(monkeypatch, elements):
    systems, references = make_corpus(120, 3, seed=4)
    hyps = systems["sys0"]
    reference = {metric: bootstrap_ci(metric, hyps, references, n=1000, seed=3).to_dict()
                 for metric in ("bleu", "chrf", "ter")}
    paired = {test: paired_test(["bleu", "chrf", "ter"], systems, references, test=test, n=1000, seed=3,
                                confidence_n=200 if test == "ar" else None).to_dict() for test in ("bs", "ar")}
    monkeypatch.setattr(sampling, "_CHUNK_ELEMENTS", elements)
    for metric, expected in reference.items():
        assert bootstrap_ci(metric, hyps, references, n=1000, seed=3).to_dict() == expected
    for test, expected in paired.items():
        assert paired_test(["bleu", "chrf", "ter"], systems, references, test=test, n=1000, seed=3,
                           confidence_n=200 if test == "ar" else None, num_threads=2).to_dict() == expected


MEMORY_SCRIPT = textwrap.dedent("""
    import sys, tracemalloc
    import numpy as np
    from refscore.metrics import get_metric_class
    from refscore.significance import bootstrap_ci_from_statistics, paired_test_from_statistics
    from refscore.protocol import Statistics
    rng = np.random.default_rng(0)
    metric = get_metric_class(sys.argv[1])()
    stats = metric.statistics(["a b c d e f"] * 500, [["a b c x e f g"]] * 500)
    data = rng.integers(0, 30, size=stats.data.shape).astype(stats.data.dtype)
    stats = Statistics(stats.metric, stats.config_hash, stats.columns, data, stats.nrefs)
    tracemalloc.start()
    if sys.argv[2] == "bs":
        bootstrap_ci_from_statistics(metric, stats, n=int(sys.argv[3]), num_threads=1)
    else:
        paired_test_from_statistics(metric, {"a": stats, "b": stats}, test="ar", n=int(sys.argv[3]), num_threads=1)
    print(tracemalloc.get_traced_memory()[1])
""")


@pytest.mark.parametrize("metric, test, n", [("bleu", "bs", 100_000), ("chrf", "ar", 100_000)])
def test_memory_does_not_grow_with_the_number_of_resamples(metric, test, n):
    """Peak traced memory of 100,000 resamples (or trials) of 500 segments stays under 64 MiB (the whole index
    matrix alone would be 400 MB; 2,037 segments took 1.68 GB before chunking): a chunk's drawn indices and
    multiplicities (2**20 entries, 8 MiB each), their float32 product, and 8 bytes per resample and score for the
    resampled scores (0.8 MB)."""
    done = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, metric, test, str(n)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.split()[-1]) < 64 * 2 ** 20


INTERRUPT_SCRIPT = textwrap.dedent("""
    import numpy as np
    from refscore.metrics import get_metric_class
    from refscore.significance import paired_test_from_statistics
    metric = get_metric_class("bleu")()
    stats = metric.statistics(["a b c d e f"] * 2037, [["a b c x e f g"]] * 2037)
    print("ready", flush=True)
    paired_test_from_statistics(metric, {"a": stats, "b": stats}, test="ar", n=2_000_000)
""")


def test_ctrl_c_stops_a_long_randomization_within_a_second():
    process = subprocess.Popen([sys.executable, "-c", INTERRUPT_SCRIPT], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    assert process.stdout.readline().strip() == "ready"
    time.sleep(1.5)
    assert process.poll() is None   # still running
    process.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    _, stderr = process.communicate(timeout=60)
    assert time.perf_counter() - sent < 1.5
    assert "KeyboardInterrupt" in stderr


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_progress_bar_on_request_only(capfd, test):
    systems, references = make_corpus(30, 2)
    paired_test("bleu", systems, references, test=test, n=300, progress=True)
    assert "bleu" in capfd.readouterr().err
    paired_test("bleu", systems, references, test=test, n=300, progress=False)
    bootstrap_ci("chrf", systems["sys0"], references, n=300, progress=False)
    assert capfd.readouterr().err == ""
    bootstrap_ci("chrf", systems["sys0"], references, n=300, progress=True)
    assert "resample" in capfd.readouterr().err
    bootstrap_ci("chrf", systems["sys0"], references, n=300)   # automatic: stderr is not a terminal here
    assert capfd.readouterr().err == ""

