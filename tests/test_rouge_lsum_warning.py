"""ROUGE-Lsum silently equals ROUGE-L when no text has a newline (issue 29, item 19): refscore's ROUGE warns once per
call with a :class:`RougeLsumWarning` naming the fix (``split_summaries='builtin'|'nltk'``, ``--split-summaries``;
``sentence_separator`` for token ids), when some text does hold several sentences; rouge-score (and so its
drop-ins) stays silent. Checked on the bundled XSum summaries, SummEval (multi-sentence, no line breaks) and CNN/DM
(sentences on lines)."""
from __future__ import annotations

import json
import subprocess
import sys
import warnings
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as peer_rouge_scorer

import refscore
from refscore.compat import evaluate
from refscore.compat.rouge_score import rouge_scorer
from refscore.errors import RougeLsumWarning
from refscore.text.sentences import first_with_several_sentences, split_sentences
from conftest import shared_data_path, write_segment_files

XSUM = [json.loads(line) for line in
        (resources.files("refscore") / "data" / "xsum_maynez2020" / "summaries.jsonl").read_text("utf-8").splitlines()]
PREDICTIONS = [doc["prediction"] for doc in XSUM]
REFERENCES = [doc["references"][0] for doc in XSUM]
MULTI = next(i for i, text in enumerate(PREDICTIONS) if len(split_sentences(text)) > 1)
SINGLE = [i for i, (p, r) in enumerate(zip(PREDICTIONS, REFERENCES))
          if len(split_sentences(p)) == 1 and len(split_sentences(r)) == 1]


def lsum_warnings(call) -> tuple[list[warnings.WarningMessage], object]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return [w for w in caught if issubclass(w.category, RougeLsumWarning)], result


def test_warns_once_when_lsum_can_only_equal_rouge_l_as_in_rouge_score() -> None:
    found, result = lsum_warnings(lambda: refscore.rouge(PREDICTIONS, REFERENCES))
    assert len(found) == 1
    message = str(found[0].message)
    first = next(i for i, text in enumerate(PREDICTIONS) if len(split_sentences(text)) > 1)
    assert message.startswith("ROUGE-Lsum equals ROUGE-L here: its sentences are the lines of each text "
                              "(split_summaries='newline', rouge-score's default) and no prediction or reference has "
                              f"a newline, yet predictions[{first}] holds ")
    assert "split_summaries='builtin' (rules, no download) or 'nltk'" in message
    assert "--split-summaries builtin|nltk" in message
    assert "warnings.filterwarnings('ignore', category=refscore.errors.RougeLsumWarning)" in message
    assert found[0].filename == __file__
    # what the warning says: ROUGE-Lsum is ROUGE-L on every document, in refscore and in rouge-score alike
    assert result["rougeLsum"].fmeasure.tolist() == result["rougeL"].fmeasure.tolist()
    peer = peer_rouge_scorer.RougeScorer(["rougeL", "rougeLsum"])
    scores = peer.score(REFERENCES[MULTI], PREDICTIONS[MULTI])
    assert scores["rougeL"] == scores["rougeLsum"]
    assert result["rougeLsum"].fmeasure[MULTI] == pytest.approx(scores["rougeLsum"].fmeasure, abs=1e-12)


def test_the_fixes_it_names_split_the_sentences_and_are_quiet() -> None:
    # sentences in another order: ROUGE-L (one subsequence) is below ROUGE-Lsum (per-sentence union LCS)
    hyps = PREDICTIONS + ["The cat sat on the mat. The dog barked at the moon."]
    refs = REFERENCES + ["The dog barked at the moon. The cat sat on a mat."]
    found, result = lsum_warnings(lambda: refscore.rouge(hyps, refs))
    assert len(found) == 1 and result["rougeLsum"].fmeasure[-1] == result["rougeL"].fmeasure[-1]
    found, result = lsum_warnings(lambda: refscore.rouge(hyps, refs, split_summaries="builtin"))
    assert found == [] and result["rougeLsum"].fmeasure[-1] > result["rougeL"].fmeasure[-1]
    on_lines = ["\n".join(split_sentences(text)) for text in hyps + refs]
    found, result = lsum_warnings(lambda: refscore.rouge(on_lines[:len(hyps)], on_lines[len(hyps):]))
    assert found == [] and result["rougeLsum"].fmeasure[-1] > result["rougeL"].fmeasure[-1]


@pytest.mark.parametrize("options", [{}, {"types": ("rouge1", "rougeL")}, {"tokenizer": "unicode"}],
                         ids=["default", "without-rougeLsum", "unicode-tokenizer"])
def test_no_warning_for_single_sentences_or_without_rougelsum(options: dict) -> None:
    hyps, refs = [PREDICTIONS[i] for i in SINGLE], [REFERENCES[i] for i in SINGLE]
    assert lsum_warnings(lambda: refscore.rouge(hyps, refs, **options))[0] == []
    if "types" in options:
        assert lsum_warnings(lambda: refscore.rouge(PREDICTIONS, REFERENCES, **options))[0] == []
    else:
        assert len(lsum_warnings(lambda: refscore.rouge(PREDICTIONS, REFERENCES, **options))[0]) == 1


def test_a_multi_sentence_reference_is_named() -> None:
    hyps = [PREDICTIONS[i] for i in SINGLE[:3]]
    refs = [[REFERENCES[SINGLE[0]]], [REFERENCES[SINGLE[1]], "The cat sat. The dog barked."], [REFERENCES[SINGLE[2]]]]
    found, _ = lsum_warnings(lambda: refscore.rouge(hyps, refs))
    assert "yet references[1] holds 2 sentences" in str(found[0].message)


def test_token_ids_without_sentence_separator_warn_naming_it() -> None:
    ids, ref_ids = [[1, 2, 9, 4, 5], [6, 7]], [[4, 5, 9, 1, 2], [7]]   # 9 ends a sentence
    found, plain = lsum_warnings(lambda: refscore.rouge(ids, ref_ids))
    assert len(found) == 1 and "pass sentence_separator=<the id that ends a sentence>" in str(found[0].message).lower()
    assert plain["rougeLsum"].fmeasure.tolist() == plain["rougeL"].fmeasure.tolist()
    found, split = lsum_warnings(lambda: refscore.rouge(ids, ref_ids, sentence_separator=9))
    assert found == [] and split["rougeLsum"].fmeasure.tolist() != split["rougeL"].fmeasure.tolist()


def test_summeval_and_cnndm() -> None:
    summeval = [json.loads(line) for line in
                shared_data_path("summ_summeval", "summeval.jsonl").read_text("utf-8").splitlines()[:200]]
    found, _ = lsum_warnings(lambda: refscore.rouge([d["prediction"] for d in summeval],
                                                    [d["references"] for d in summeval]))
    assert len(found) == 1   # multi-sentence, tokenized, no line breaks
    cnndm = [json.loads(line) for line in
             shared_data_path("summ_cnndm_see2017", "pointer-gen.jsonl").read_text("utf-8").splitlines()[:200]]
    found, _ = lsum_warnings(lambda: refscore.rouge([d["prediction"] for d in cnndm],
                                                    [d["references"] for d in cnndm]))
    assert found == []   # sentences on lines: ROUGE-Lsum works as meant


@pytest.mark.parametrize("call", [
    lambda: rouge_scorer.RougeScorer(["rougeL", "rougeLsum"]).score(REFERENCES[MULTI], PREDICTIONS[MULTI]),
    lambda: rouge_scorer.RougeScorer(["rougeLsum"], tokenizer=rouge_scorer.tokenizers.DefaultTokenizer()).score(
        REFERENCES[MULTI], PREDICTIONS[MULTI]),
    lambda: evaluate.load("rouge").compute(predictions=PREDICTIONS, references=REFERENCES),
], ids=["rouge_score", "rouge_score-custom-tokenizer", "hf-rouge"])
def test_drop_ins_stay_silent_as_rouge_score(call) -> None:
    with warnings.catch_warnings(record=True) as peer:
        warnings.simplefilter("always")
        peer_rouge_scorer.RougeScorer(["rougeL", "rougeLsum"]).score(REFERENCES[MULTI], PREDICTIONS[MULTI])
    assert peer == []
    assert lsum_warnings(call)[0] == []


def test_command_line_prints_it_once_on_stderr(tmp_path) -> None:
    files = write_segment_files(tmp_path, {"hyp": PREDICTIONS, "ref": REFERENCES})
    process = subprocess.run([sys.executable, "-m", "refscore.cli", "score", "-m", "rouge", "-r", str(files["ref"]),
                              "-i", str(files["hyp"])], capture_output=True, text=True)
    assert process.returncode == 0, process.stderr
    lines = process.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("refscore: warning: ROUGE-Lsum equals ROUGE-L here:")
    assert "--split-summaries builtin|nltk" in lines[0] and "rougeLsum" in process.stdout
    quiet = subprocess.run([sys.executable, "-m", "refscore.cli", "score", "-m", "rouge", "--split-summaries",
                            "builtin", "-r", str(files["ref"]), "-i", str(files["hyp"])],
                           capture_output=True, text=True)
    assert quiet.returncode == 0 and quiet.stderr == ""


SENTENCE_PIECES = ["a", "B", ".", "!", "?", "…", " ", "\t", "\u3000", "Mr.", "e.g.", "J.", "。", "！", "」", "”",
                   ")", "»", "'", '"', "\n", "\x00", "x y", "3.14"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(SENTENCE_PIECES), max_size=10).map("".join), max_size=6))
def test_first_with_several_sentences_is_the_splitters_answer(texts: list[str]) -> None:
    expected = next((k for k, text in enumerate(texts) if len(split_sentences(text)) > 1), None)
    assert first_with_several_sentences(texts) == expected
