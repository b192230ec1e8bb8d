"""`refscore score -m rouge` (text and JSONL inputs) and the summarization part of `refscore example`."""
from __future__ import annotations

import json

import pytest

import refscore
from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main


def test_score_text_files_with_rouge_options(tmp_path, capsys):
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\nhello there world\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cats sat on a mat\nhello world\n", encoding="utf-8")
    code = main(["score", "-m", "rouge", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"),
                 "--rouge-types", "rouge1,rougeL", "--stemmer", "--format", "json"])
    assert code == ExitCode.OK
    payload = json.loads(capsys.readouterr().out)
    expected = refscore.rouge(["the cats sat on a mat", "hello world"], ["the cat sat on the mat", "hello there world"],
                              ("rouge1", "rougeL"), stemmer=True)
    assert payload[0]["scores"]["rouge"]["fmeasure"]["rouge1"] == 100 * expected.means["rouge1"].fmeasure
    assert "stem:yes" in payload[0]["scores"]["rouge"]["signature"]


def test_score_jsonl_input_with_segments(tmp_path, capsys):
    records = [{"prediction": "a b c", "references": ["a b d", "a b c"], "system": "s1"},
               {"prediction": "x y", "references": "x z", "system": "s1"},
               {"prediction": "a b", "references": ["a b c"], "system": "s2"}]
    path = tmp_path / "systems.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert main(["score", "-m", "rouge", "-i", str(path), "--rouge-types", "rouge1", "--segments"]) == ExitCode.OK
    output = capsys.readouterr().out.strip().split("\n")
    lines = [line for line in output if not line.startswith("#")]
    assert output[len(lines):] == [line for line in output if line.startswith("# rouge: ")]  # signature last
    assert len(output) == len(lines) + 1
    assert lines[0].split("\t")[:3] == ["system", "segment", "rouge1"]
    assert [line.split("\t")[2] for line in lines[1:]] == ["100.0000", "50.0000", "80.0000"]
    assert lines[1].startswith(f"{path}:s1\t0") and lines[3].startswith(f"{path}:s2\t0")


@pytest.mark.parametrize("content, message", [
    ('{"prediction": "a"\n', "line 1: not valid JSON"),
    ('{"prediction": "a", "references": []}\n', "line 1: 'references' must be a string or a non-empty list"),
    ('[1, 2]\n', "line 1: a JSON list"),
])
def test_bad_jsonl_input(tmp_path, capsys, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    assert main(["score", "-m", "rouge", "-i", str(path)]) == ExitCode.BAD_INPUT
    assert message in capsys.readouterr().err


def test_jsonl_with_reference_files_is_a_usage_error(tmp_path, capsys):
    path = tmp_path / "a.jsonl"
    path.write_text('{"prediction": "a", "references": ["a"]}\n', encoding="utf-8")
    assert main(["score", "-m", "rouge", "-i", str(path), "-r", str(path)]) == ExitCode.USAGE


def test_example_scores_rouge_on_bundled_summaries(capsys):
    assert main(["example", "--format", "json"]) == ExitCode.OK
    payload = json.loads(capsys.readouterr().out)
    systems = {entry["system"]: entry["scores"]["rouge"] for entry in payload if "rouge" in entry["scores"]}
    assert sorted(systems) == ["BERTS2S", "PtGen", "TConvS2S", "TranS2S"]
    assert all(0 < score["fmeasure"]["rouge1"] < 100 for score in systems.values())  # 0–100 on the command line
