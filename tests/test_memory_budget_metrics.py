"""The memory budget (REFSCORE_MEMORY_BUDGET) on the metrics' product-of-sizes paths: TER's banded edit-distance
workspace, ROUGE-S skip-bigrams (both flavors), ROUGE-Lsum's match masks and BERTScore's similarity matrices.
The budget is lowered instead of feeding huge inputs: a segment beyond it is an error naming it, the budget and
how to raise it; under it, the peer's number."""
from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics.ter import TER as SacreTER

import refscore
from refscore._memory import ENV_VAR
from refscore.errors import MemoryBudgetError
from refscore.metrics.rouge.memory import lsum_table_bytes, skip_bigram_counts
from refscore.metrics.ter import ter_workspace_bytes

RAISE = rf"raise it with the environment variable {ENV_VAR} \(e\.g\. {ENV_VAR}="


def _words(count: int, start: int = 0) -> str:
    return " ".join(f"w{(k * 7919) % 997}" for k in range(start, start + count))


# -- TER ---------------------------------------------------------------------------------------------------------
def test_ter_refuses_a_segment_whose_workspace_exceeds_the_budget(monkeypatch):
    long = _words(3000)
    hypotheses, references = ["a b", long, _words(40)], ["a c", long, _words(40, 3)]
    need = float(ter_workspace_bytes(np.array([3000]), np.array([3000]), np.array([2 * len(long)]))[0])
    monkeypatch.setenv(ENV_VAR, str(int(need * 0.9)))
    with pytest.raises(MemoryBudgetError, match=r"TER of segment 1 \(hypotheses\[1\], about 3,000 words, against "
                                                rf"its references\) needs about .* memory budget of .*; {RAISE}"):
        refscore.ter(hypotheses, references, num_threads=1)
    ids_need = float(ter_workspace_bytes(np.array([3000]), np.array([3000]), np.array([0]))[0])
    monkeypatch.setenv(ENV_VAR, str(int(ids_need * 0.9)))
    with pytest.raises(MemoryBudgetError, match=r"TER of segment 1"):   # token ids: their lengths
        refscore.ter([[1, 2], list(range(3000)), [5]], [[1, 3], list(range(3000)), [5]], num_threads=1)
    monkeypatch.setenv(ENV_VAR, str(int(need * 1.1)))
    short = [h[:4000] for h in hypotheses], [r[:4000] for r in references]
    assert abs(100 * refscore.ter(*short, num_threads=1).score
               - SacreTER().corpus_score(short[0], [short[1]]).score) <= 1e-9


def test_ter_counts_the_segments_its_threads_hold_at_once(monkeypatch):
    text = _words(1500)
    need = float(ter_workspace_bytes(np.array([1500]), np.array([1500]), np.array([2 * len(text)]))[0])
    monkeypatch.setenv(ENV_VAR, str(int(need * 2.5)))
    with pytest.raises(MemoryBudgetError, match=r"and the 2 next largest segments at once \(3 threads\).*"
                                                r"use fewer threads"):
        refscore.ter([text] * 3, [text] * 3, num_threads=3)
    assert refscore.ter([text] * 3, [text] * 3, num_threads=1).score == 0.0


def test_ter_bound_from_lengths_never_undercounts_the_words(monkeypatch):
    # normalized TER splits punctuation off: "a.b.c.d" is 7 words from one whitespace word
    text = ".".join(["a"] * 2000)
    need = float(ter_workspace_bytes(np.array([3999]), np.array([3999]), np.array([2 * len(text)]))[0])
    monkeypatch.setenv(ENV_VAR, str(int(need * 0.9)))
    with pytest.raises(MemoryBudgetError, match=r"TER of segment 0"):
        refscore.ter([text], [text], normalized=True)
    assert refscore.ter([text], [text]).score == 0.0   # one word without normalization: far within the budget


def test_the_command_line_reports_the_budget_as_bad_input(tmp_path):
    import os
    import subprocess

    from test_cli_process import refscore_command
    from refscore.cli.exit_codes import ExitCode

    long = _words(3000)
    (tmp_path / "h.txt").write_text(f"a b\n{long}\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text(f"a c\n{long}\n", encoding="utf-8")
    command = refscore_command("score", "-m", "ter", "-i", "h.txt", "-r", "r.txt")
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, ENV_VAR: "1MiB"})
    assert done.returncode == ExitCode.BAD_INPUT and done.stdout == ""
    assert done.stderr.startswith("refscore: error: TER of segment 1 (hypotheses[1], about 3,000 words") and \
        f"{ENV_VAR}=" in done.stderr and "Traceback" not in done.stderr


# -- ROUGE -------------------------------------------------------------------------------------------------------
def test_skip_bigram_counts_match_the_kernel():
    from refscore._core._rouge155 import skip_bigram_count

    for length in (0, 1, 2, 3, 7, 50):
        for skip in (None, 0, 1, 4, 60):
            for unigrams in (False, True):
                expected = skip_bigram_count(length, -1 if skip is None else skip, unigrams)
                assert skip_bigram_counts(np.array([length]), skip, unigrams)[0] == expected


def test_rouge_s_refuses_unbounded_skip_bigrams_of_a_long_pair(monkeypatch):
    long = _words(1200)
    monkeypatch.setenv(ENV_VAR, "4MiB")   # ROUGE-S*: 2 x 719,400 keys of 8 bytes = 11 MiB
    with pytest.raises(MemoryBudgetError, match=r"rougeS of segment 1 \(predictions\[1\] against references\[1\]\[1\]"
                                                rf"\) needs about 11\.0 MiB.*{RAISE}.*skip_distance=4"):
        refscore.ROUGE(types=("rougeS",), skip_distance=None).corpus_score(["a b", long], [["a c"], ["x", long]])
    su4 = refscore.ROUGE(types=("rougeSU",), skip_distance=4)
    within = su4.corpus_score(["a b", long], [["a c"], ["x", long]]).score   # ROUGE-SU4: 2 x 7,195 keys
    monkeypatch.delenv(ENV_VAR)
    assert within == su4.corpus_score(["a b", long], [["a c"], ["x", long]]).score > 0


def test_rouge155_skip_bigrams_use_the_budget_and_the_dense_table(monkeypatch):
    long = _words(1200)
    monkeypatch.setenv(ENV_VAR, "4MiB")
    with pytest.raises(MemoryBudgetError, match=r"ROUGE-S\* of segment 0 \(hypotheses\[0\] and its references\)"):
        refscore.ROUGE155(types=("ROUGE-S*",)).corpus_score([long], [[long]])
    # 3,000 tokens of two words: 4.5 million skip-bigrams, counted in a 3 x 3 dense table, not as keys
    two = " ".join(["a", "b"] * 1500)
    assert refscore.ROUGE155(types=("ROUGE-S*",)).corpus_score([two], [[two]]).score == pytest.approx(1.0)


def test_rouge_lsum_refuses_long_sentences_of_several_sentence_texts(monkeypatch):
    from rouge_score.rouge_scorer import RougeScorer

    long = _words(4000)
    text = f"a b c\n{long}"
    need = float(lsum_table_bytes(4000, 4000, len(set(long.split()))))   # 997 distinct words
    monkeypatch.setenv(ENV_VAR, str(int(need * 0.9)))
    with pytest.raises(MemoryBudgetError, match=r"rougeLsum of segment 0 \(predictions\[0\] and its references\)"
                                                r".*ROUGE-Lsum's sentences are its lines"):
        refscore.ROUGE(types=("rougeLsum",)).corpus_score([text], [[text]])
    with pytest.raises(MemoryBudgetError, match=r"rougeLsum of segment 0"):   # token ids with sentence ends
        ids = [1, 2, 0, *range(10, 4010)]
        refscore.ROUGE(types=("rougeLsum",), sentence_separator=0).corpus_score([ids], [[ids]])
    # one sentence each: ROUGE-Lsum is the LCS length, linear in memory: never refused
    assert refscore.ROUGE(types=("rougeLsum",)).corpus_score([long], [[long]]).score == 1.0
    monkeypatch.setenv(ENV_VAR, str(int(need * 1.1)))
    short = f"a b c\n{_words(300)}\nd e"
    peer = RougeScorer(["rougeLsum"]).score(short, short[::-1])["rougeLsum"].fmeasure
    assert refscore.ROUGE(types=("rougeLsum",)).corpus_score([short[::-1]], [[short]]).score == pytest.approx(
        peer, abs=1e-12)


# -- BERTScore ---------------------------------------------------------------------------------------------------
def test_bertscore_refuses_a_similarity_matrix_over_the_budget(monkeypatch, tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from bertscore_helpers import CORPUS, build_tiny_bert
    from refscore.metrics.bertscore.match_memory import similarity_bytes

    model = str(build_tiny_bert(tmp_path / "tiny"))
    scorer = refscore.BERTScorer(model, 2)
    expected = scorer.score(CORPUS[:3], CORPUS[3:6]).details["f1"]
    hidden = scorer.model.config.hidden_size
    lengths = [len(scorer.tokenizer(text)["input_ids"]) for text in CORPUS[:6]]
    needs = similarity_bytes(np.array(lengths[:3]), np.array(lengths[3:6]), layers=1, hidden=hidden)
    largest = int(np.argmax(needs))
    monkeypatch.setenv(ENV_VAR, str(int(needs[largest]) - 1))
    with pytest.raises(MemoryBudgetError, match=rf"similarity matrix of hypotheses\[{largest}\] against "
                                                rf"references\[{largest}\] \(1 layer\(s\) x .*{RAISE}"):
        scorer.score(CORPUS[:3], CORPUS[3:6], num_threads=1)
    monkeypatch.setenv(ENV_VAR, str(int(needs[largest])))
    np.testing.assert_array_equal(scorer.score(CORPUS[:3], CORPUS[3:6], num_threads=1).details["f1"], expected)
