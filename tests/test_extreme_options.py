"""Extreme option values (issue 40 item 13): refused before anything is allocated, naming the argument and the
limit (an n-gram order above MAX_NGRAM_ORDER, a statistics table or a resample count over the memory budget, a
REFSCORE_HASH_KEY that is not a key), never a traceback; long resample runs say their estimated time."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

import refscore
from refscore import meta
from refscore.checks import MAX_NGRAM_ORDER, check_order
from refscore.cli.main import main
from refscore.errors import InputError, MemoryBudgetError
from refscore.metrics.gleu import GLEU
from refscore.metrics.rouge.config import ROUGE155Config
from refscore import progress

SRC = str(Path(refscore.__file__).resolve().parent.parent)


@pytest.fixture()
def texts(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("r.txt").write_text("the cat sat on the mat\na dog ran\n")
    Path("h.txt").write_text("the cat sat on a mat\nthe dog ran\n")


@pytest.mark.parametrize("flags, named", [
    (["--max-order", "1000000000"], "max_order must be in [1, 10000]"),
    (["--max-order", "9223372036854775808"], "max_order must be in [1, 10000]"),
    (["-m", "chrf", "--chrf-char-order", "1000000000"], "char_order must be in [0, 10000]"),
    (["-m", "chrf", "--chrf-word-order", "9223372036854775808"], "word_order must be in [0, 10000]"),
])
def test_an_order_above_the_limit_is_one_line_naming_the_flag(texts, capsys, flags, named):
    assert main(["score", "-r", "r.txt", "-i", "h.txt", *flags]) == 7
    err = capsys.readouterr().err
    assert named in err and "MAX_NGRAM_ORDER" in err and flags[-2] in err and "Traceback" not in err


def test_rouge_types_and_gleu_orders_are_bounded(texts, capsys):
    with pytest.raises(SystemExit) as exited:       # argparse's usage error
        main(["score", "-r", "r.txt", "-i", "h.txt", "-m", "rouge", "--rouge-types", "rouge99999999999999999999"])
    assert exited.value.code == 2
    assert "must be in [1, 10000]" in capsys.readouterr().err
    with pytest.raises(InputError, match=r"GLEU: max_len must be in \[1, 10000\]"):
        GLEU(max_len=MAX_NGRAM_ORDER + 1)
    with pytest.raises(InputError, match=r"the n-gram order of '1000000' must be in \[1, 10000\]"):
        ROUGE155Config(types=("1000000",))
    assert check_order(MAX_NGRAM_ORDER, "max_order") == MAX_NGRAM_ORDER     # the limit itself is accepted


def test_the_statistics_table_is_checked_against_the_memory_budget(monkeypatch):
    monkeypatch.setenv("REFSCORE_MEMORY_BUDGET", "1MiB")
    hypotheses, references = ["the cat sat"] * 10, [["the cat sat"]] * 10
    bleu = refscore.BLEU(max_order=10_000)          # 20,002 int64 columns: 1.5 MiB for 10 segments
    with pytest.raises(MemoryBudgetError, match=r"BLEU statistics of 10 segments with max_order=10000 .*needs about "
                                                r"1\.5 MiB, more than the memory budget of 1\.0 MiB.*lower max_order"):
        bleu.statistics(hypotheses, references)
    with pytest.raises(MemoryBudgetError, match=r"chrF2 statistics of 10 segments with char_order=10000"):
        refscore.CHRF(char_order=10_000).statistics(hypotheses, references)
    with pytest.raises(MemoryBudgetError, match=r"max_order=10000"):
        refscore.BLEU(max_order=10_000, flavor="evaluate").statistics(hypotheses, references)
    assert bleu.statistics(hypotheses[:2], references[:2]).data.shape == (2, 20_002)


def _ratings(path: Path) -> None:
    import json

    references = [f"the cat number {j} sat on the mat near the door {j}" for j in range(8)]
    path.write_text("".join(json.dumps({"system": f"s{i}", "seg_id": j, "prediction": r[: 5 + 3 * i + j],
                                        "references": [r], "mqm": -float(i + j % 3)}) + "\n"
                            for i in range(4) for j, r in enumerate(references)))


@pytest.mark.parametrize("flags, named", [(["--k", "1000000000"], "for k=1,000,000,000 needs about"),
                                          (["--bootstrap", "1000000000"], "for n_bootstrap=1,000,000,000 needs"),
                                          (["--k", "9223372036854775808"], "for k=9,223,372,036,854,775,808")])
def test_meta_eval_resample_counts_over_the_budget_are_refused_before_any_work(tmp_path, capsys, flags, named):
    _ratings(tmp_path / "ratings.jsonl")
    start = time.perf_counter()
    assert main(["meta-eval", str(tmp_path / "ratings.jsonl"), "-m", "chrf,bleu", *flags]) == 7
    err = capsys.readouterr().err
    assert named in err and "memory budget" in err and "Traceback" not in err
    assert time.perf_counter() - start < 30


def test_perm_both_and_bootstrap_interval_check_their_counts():
    human, metric = [1.0, 2.0, 3.0, 4.0], [1.0, 3.0, 2.0, 4.0]
    with pytest.raises(MemoryBudgetError, match="k=10,000,000,000"):
        meta.perm_both(human, metric, metric, k=10 ** 10)
    with pytest.raises(MemoryBudgetError, match="n=10,000,000,000"):
        meta.bootstrap_interval(human, metric, n=10 ** 10)
    with pytest.raises(MemoryBudgetError, match="k=10,000,000,000"):
        meta.perm_both_matrix(human, {"a": metric, "b": human}, k=10 ** 10)


def test_a_long_resample_run_says_its_estimated_time(monkeypatch):
    rng = np.random.default_rng(1)
    human = rng.normal(size=50)
    a, b = human + rng.normal(size=50), human + rng.normal(size=50)
    monkeypatch.setattr(progress, "LONG_RUN_SECONDS", 0.0)
    with pytest.warns(progress.LongRunWarning, match=r"PERM-BOTH pearson, k=3,000: about \d+ s \(estimated from "
                                                     r"the first 1,000 of 3,000\)"):
        meta.perm_both(human, a, b, k=3000, seed=1, early_min=0.0, early_max=1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        meta.perm_both(human, a, b, k=3000, seed=1, early_min=0.0, early_max=1.0, progress=False)
    drawn = progress.bars_drawn()
    meta.perm_both(human, a, b, k=3000, seed=1, early_min=0.0, early_max=1.0, progress=True)
    assert progress.bars_drawn() == drawn + 1


def test_a_perm_both_matrix_says_the_estimated_time_of_all_its_pairs(monkeypatch):
    """One estimate for the matrix, from its first pair, before the other pairs run: a run of many metrics is long
    because of its number of pairs, each of which alone is short."""
    rng = np.random.default_rng(2)
    human = rng.normal(size=40)
    metrics = {name: human + rng.normal(size=40) for name in "abcd"}
    monkeypatch.setattr(progress, "LONG_RUN_SECONDS", 0.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        meta.perm_both_matrix(human, metrics, k=200, seed=1)
    messages = [str(w.message) for w in caught if issubclass(w.category, progress.LongRunWarning)]
    assert len(messages) == 2, messages   # the first pair's own estimate, then the matrix's
    assert re.fullmatch(r"PERM-BOTH pearson, 6 pairs of metrics x k=200: about \d+ s \(estimated from the first 1 "
                        r"of 6\)", messages[1]), messages


def _run(args, **env):
    return subprocess.run(args, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": SRC, **env})


def test_a_hash_key_that_is_not_one_is_one_line_on_the_command_line_and_an_error_on_import(tmp_path):
    (tmp_path / "r.txt").write_text("a b c\n")
    module = _run([sys.executable, "-m", "refscore.cli", "score", "-r", str(tmp_path / "r.txt"), "-i",
                   str(tmp_path / "r.txt")], REFSCORE_HASH_KEY="abc")
    script = tmp_path / "refscore"    # as the installed console script is named
    script.write_text("import sys\nfrom refscore.cli.main import main\nsys.exit(main())\n")
    console = _run([sys.executable, str(script), "--help"], REFSCORE_HASH_KEY="abc")
    for result in (module, console):
        assert result.returncode == 7 and "Traceback" not in result.stderr
        assert result.stderr.strip().splitlines() == [
            "refscore: error: the environment variable REFSCORE_HASH_KEY='abc' is not a decimal integer in "
            "[0, 2**64): set it to a fixed hash key (0: unkeyed, for tests) or unset it for a random per-process key"]
    library = _run([sys.executable, "-c", "import refscore"], REFSCORE_HASH_KEY="abc")
    assert library.returncode == 1 and "ValueError: the environment variable REFSCORE_HASH_KEY='abc'" in library.stderr
    assert _run([sys.executable, "-m", "refscore.cli", "--help"], REFSCORE_HASH_KEY="12345").returncode == 0
