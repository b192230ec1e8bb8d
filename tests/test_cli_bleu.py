"""``refscore score -m bleu,gleu``: end to end against sacreBLEU / NLTK numbers, and the exit codes of bad input."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from nltk.translate.gleu_score import corpus_gleu
from sacrebleu.metrics.bleu import BLEU as SacreBLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main
from conftest import write_segment_files

HYPS = ["The cat sat on a mat.", "The dog.", "猫坐在垫子上。"]
REFS = ["The cat sat on the mat.", "A dog.", "猫坐在垫子上了。"]
REFS2 = ["The cat is on the mat.", "A dog barked.", "猫在垫子上。"]


@pytest.fixture
def files(tmp_path):
    return write_segment_files(tmp_path, {"hyp": HYPS, "ref": REFS, "ref2": REFS2})


def run(args, capsys):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_scores_equal_the_peers(files, capsys):
    code, out, _ = run(["score", "-m", "bleu,gleu", "-r", files["ref"], "-r", files["ref2"], "-i", files["hyp"],
                        "--format", "json", "-tok", "zh", "--smooth", "floor", "-sv", "0.2"], capsys)
    assert code == ExitCode.OK
    scores = json.loads(out)[0]["scores"]
    expected = SacreBLEU(tokenize="zh", smooth_method="floor", smooth_value=0.2).corpus_score(HYPS, [REFS, REFS2])
    assert scores["bleu"]["score"] == pytest.approx(expected.score, abs=1e-9)  # 0–100 as sacreBLEU
    assert scores["bleu"]["signature"].startswith("nrefs:2|case:mixed|eff:no|tok:zh|smooth:floor[0.20]|version:2.6.0")
    assert scores["gleu"]["signature"].startswith("nrefs:2|case:mixed|tok:zh|ngram:1-4")


def test_a_repeated_metrics_flag_adds_its_metrics_instead_of_replacing_them(files, capsys):
    repeated = run(["score", "-m", "bleu", "-m", "gleu", "-r", files["ref"], "-i", files["hyp"], "--format", "json"],
                   capsys)
    joined = run(["score", "-m", "bleu,gleu", "-r", files["ref"], "-i", files["hyp"], "--format", "json"], capsys)
    assert repeated[0] == joined[0] == ExitCode.OK
    assert sorted(json.loads(repeated[1])[0]["scores"]) == ["bleu", "gleu"]
    assert repeated[1] == joined[1]


def test_segments_in_input_order(files, capsys):
    code, out, _ = run(["score", "-m", "bleu,gleu", "-r", files["ref"], "-i", files["hyp"], "--segments",
                        "--effective-order", "--gleu-min-len", "2", "--format", "json"], capsys)
    assert code == ExitCode.OK
    segments = json.loads(out)[0]["segments"]
    peer = SacreBLEU(effective_order=True)
    assert segments["bleu"]["bleu"] == pytest.approx([peer.sentence_score(h, [r]).score
                                                      for h, r in zip(HYPS, REFS)], abs=1e-12)
    tokenizer = Tokenizer13a()
    assert segments["gleu"]["gleu"] == [100 * corpus_gleu([[tokenizer(r).split()]], [tokenizer(h).split()], min_len=2)
                                        for h, r in zip(HYPS, REFS)]


def test_hypotheses_from_stdin(files):
    process = subprocess.run([sys.executable, "-m", "refscore.cli", "score", "-m", "bleu,gleu", "-r", str(files["ref"]),
                              "--format", "json"], input="\n".join(HYPS).encode("utf-8"), capture_output=True)
    assert process.returncode == ExitCode.OK, process.stderr
    result = json.loads(process.stdout)[0]
    assert result["system"] == "<stdin>"
    assert result["scores"]["bleu"]["score"] == pytest.approx(SacreBLEU().corpus_score(HYPS, [REFS]).score,
                                                                    abs=1e-9)


def test_table_output(files, capsys):
    code, out, _ = run(["score", "-m", "bleu,gleu", "-r", files["ref"], "-i", files["hyp"]], capsys)
    assert code == ExitCode.OK
    assert "bleu" in out and "gleu" in out and "tok:13a|smooth:exp" in out


def test_exit_codes(files, tmp_path, capsys):
    code, _, err = run(["score", "-m", "bleu", "-r", tmp_path / "missing.txt", "-i", files["hyp"]], capsys)
    assert code == ExitCode.UNREADABLE_FILE and "missing.txt" in err

    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"fine\nbroken \xff\xfe here\nok\n")
    code, _, err = run(["score", "-m", "bleu", "-r", files["ref"], "-i", bad], capsys)
    assert code == ExitCode.UNDECODABLE_INPUT and "bad.txt" in err and "line 2" in err

    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    code, _, err = run(["score", "-m", "bleu", "-r", files["ref"], "-i", short], capsys)
    assert code == ExitCode.LINE_COUNT_MISMATCH and "short.txt: 1 line)" in err

    code, _, err = run(["score", "-m", "bleu,nosuchmetric", "-r", files["ref"], "-i", files["hyp"]], capsys)
    assert code == ExitCode.UNKNOWN_METRIC and "nosuchmetric" in err

    with pytest.raises(SystemExit) as exit_info:
        main(["score", "-m", "bleu", "-r", str(files["ref"]), "-i", str(files["hyp"]), "--no-such-option"])
    assert exit_info.value.code == ExitCode.USAGE

    code, _, err = run(["score", "-m", "bleu", "-r", files["ref"], "-i", files["hyp"], "--max-order", "0"], capsys)
    assert code == ExitCode.BAD_INPUT and "max_order must be in [1, 10000]" in err
