"""The command line's one scale rule: 0–100 in every output format (text, ``--segments``, JSON, ``--confidence``,
``compare``), JSON equal to ``sacrebleu -f json`` for BLEU, chrF and TER."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import refscore
from refscore.cli.main import main
from conftest import write_segment_files

HYPS = ["The cat sat on a mat.", "Zweimal.", "The dog barked at the mailman loudly.", "",
        "It rained all day , so we stayed home.", "猫坐在垫子上。"]
REFS = ["The cat sat on the mat.", "Zweimal.", "A dog barked loudly at the postman.", "Nothing.",
        "It rained the whole day so we stayed at home.", "猫坐在垫子上了。"]
REFS2 = ["A cat was sitting on the mat.", "Two times.", "The dog barked at the postman.", "",
         "We stayed home because it rained all day.", "猫在垫子上。"]
SACREBLEU_CLI = Path(sys.executable).parent / "sacrebleu"


@pytest.fixture
def files(tmp_path):
    return write_segment_files(tmp_path, {"hyp": HYPS, "ref": REFS, "ref2": REFS2})


def sacrebleu_json(*args) -> list[dict]:
    command = [str(SACREBLEU_CLI)] if SACREBLEU_CLI.exists() else [sys.executable, "-m", "sacrebleu"]
    out = subprocess.run([*command, *map(str, args), "-f", "json"], capture_output=True, text=True, check=True).stdout
    payload = json.loads(out)
    return payload if isinstance(payload, list) else [payload]


def refscore_output(capsys, *args) -> str:
    assert main([str(a) for a in args]) == 0
    return capsys.readouterr().out


def without_refscore_version(signature: str) -> str:
    return re.sub(r"\|refscore:[^|]*$", "", signature)


@pytest.mark.parametrize("options, sacrebleu_options", [
    ([], []),
    (["-tok", "intl", "-lc", "--chrf-word-order", "2"], ["-tok", "intl", "-lc", "--chrf-word-order", "2"]),
])
@pytest.mark.parametrize("nrefs", [1, 2])
def test_json_equals_sacrebleu_json(files, capsys, options, sacrebleu_options, nrefs):
    refs = [files["ref"], files["ref2"]][:nrefs]
    payload = json.loads(refscore_output(capsys, "score", "-m", "bleu,chrf,ter", *(a for r in refs for a in ("-r", r)),
                                         "-i", files["hyp"], "--format", "json", *options))
    ours = payload[0]["scores"]
    # -w 16: sacreBLEU rounds its JSON to the width; 16 decimals keep every bit of a score below 1000
    theirs = sacrebleu_json(*refs, "-i", files["hyp"], "-m", "bleu", "chrf", "ter", "-w", "16", *sacrebleu_options)
    for name, expected in zip(("bleu", "chrf", "ter"), theirs):
        got = ours[name]
        assert got["name"] == expected["name"]
        assert got["score"] == expected["score"], name
        assert without_refscore_version(got["signature"]) == expected["signature"], name
        if "verbose_score" in expected:
            assert got["verbose_score"] == expected["verbose_score"]


def test_confidence_json_against_sacrebleu(files, capsys):
    payload = json.loads(refscore_output(capsys, "score", "-m", "bleu,chrf,ter", "-r", files["ref"], "-i",
                                         files["hyp"], "--confidence", "--format", "json"))
    ours = payload[0]["scores"]
    theirs = sacrebleu_json(files["ref"], "-i", files["hyp"], "-m", "bleu", "chrf", "ter", "--confidence", "-w", "16")
    for name, expected in zip(("bleu", "chrf", "ter"), theirs):
        got = ours[name]
        assert got["score"] == pytest.approx(expected["score"], rel=0, abs=1e-12), name
        assert without_refscore_version(got["signature"]) == expected["signature"], name
        # mean and half-width (sacreBLEU's confidence_mean / confidence_var) as sacreBLEU prints them at -w 2;
        # their trailing digits differ where sacreBLEU resamples in float32 (issue 18, item 11)
        assert (f"{got['mean']:.2f}", f"{got['ci']:.2f}") == \
            (f"{expected['confidence_mean']:.2f}", f"{expected['confidence_var']:.2f}"), name


def test_every_output_format_is_0_to_100(files, capsys):
    metrics = ["-m", "bleu,chrf,ter,gleu,rouge", "-r", files["ref"], "-i", files["hyp"]]
    payload = json.loads(refscore_output(capsys, "score", *metrics, "--format", "json", "--segments"))[0]
    api = {"bleu": refscore.bleu(HYPS, REFS).score, "chrf": refscore.chrf(HYPS, REFS).score,
           "ter": refscore.ter(HYPS, REFS).score, "gleu": refscore.gleu(HYPS, REFS).score}
    for name, value in api.items():
        assert payload["scores"][name]["score"] == pytest.approx(100 * value, rel=1e-15)
    rouge1 = refscore.rouge(HYPS, REFS, ("rouge1", "rouge2", "rougeL", "rougeLsum")).means["rouge1"]
    assert payload["scores"]["rouge"]["fmeasure"]["rouge1"] == pytest.approx(100 * rouge1.fmeasure, rel=1e-15)
    table = refscore_output(capsys, "score", *metrics).splitlines()
    header, row = table[0].split(), table[2].split()
    shown = dict(zip(header[1:], row[1:]))
    for name in api:
        assert shown[name] == f"{payload['scores'][name]['score']:.2f}"
    assert shown["rouge1"] == f"{payload['scores']['rouge']['fmeasure']['rouge1']:.2f}"
    rows = [line.split("\t") for line in refscore_output(capsys, "score", *metrics, "--segments").splitlines()
            if not line.startswith("#")]
    columns = {name: [r[i] for r in rows[1:]] for i, name in enumerate(rows[0]) if i >= 2}
    for metric, table in payload["segments"].items():
        for name, values in table.items():
            assert columns[name] == [f"{v:.4f}" for v in values], name
    confidence = refscore_output(capsys, "score", *metrics, "--confidence", "--confidence-n", "50").splitlines()
    cells = dict(zip(confidence[0].split()[1:], re.findall(r"(\d+\.\d+) \(μ", confidence[2])))
    assert cells["bleu"] == f"{payload['scores']['bleu']['score']:.2f}"
    compare = json.loads(refscore_output(capsys, "compare", "-m", "chrf", "-r", files["ref"], "-i", files["hyp"],
                                         files["ref2"], "--n", "50", "--format", "json"))
    assert compare["systems"][0]["scores"]["chrf"]["score"] == pytest.approx(payload["scores"]["chrf"]["score"])
    assert 0 <= compare["systems"][1]["scores"]["chrf"]["p_value"] <= 1  # p-values are probabilities, not scores


def test_width_applies_to_the_table_and_segments(files, capsys):
    table = refscore_output(capsys, "score", "-r", files["ref"], "-i", files["hyp"], "-w", "5").splitlines()
    assert re.fullmatch(r"\d+\.\d{5}", table[2].split()[-1])
    rows = refscore_output(capsys, "score", "-r", files["ref"], "-i", files["hyp"], "--segments", "-w", "0")
    assert rows.splitlines()[2].split("\t")[2] == "100"


def test_significance_docs_give_the_json_scale_compare_prints(files, capsys):
    """docs/significance.md said the JSON of ``compare``/``score --confidence`` is 0–1; both print 0–100."""
    compare = json.loads(refscore_output(capsys, "compare", "-m", "chrf", "-r", files["ref"], "-i", files["hyp"],
                                         files["ref2"], "--n", "20", "--format", "json"))
    chrf = compare["systems"][0]["scores"]["chrf"]
    confidence = json.loads(refscore_output(capsys, "score", "-m", "chrf", "-r", files["ref"], "-i", files["hyp"],
                                            "--confidence", "--confidence-n", "20", "--format", "json"))[0]
    api = refscore.chrf(HYPS, REFS).score
    assert chrf["score"] == pytest.approx(100 * api) and confidence["scores"]["chrf"]["score"] == pytest.approx(100 * api)
    page = (Path(__file__).resolve().parent.parent / "docs" / "significance.md").read_text(encoding="utf-8")
    prose = re.sub(r"^```.*?^```", "", page, flags=re.DOTALL | re.MULTILINE)   # the Python API's to_dict is 0–1
    paragraphs = [p for p in re.split(r"\n\s*\n", prose) if "JSON" in p and "scale" in p]
    assert paragraphs, "docs/significance.md no longer says which scale the JSON is on"
    for paragraph in paragraphs:   # every paragraph on the JSON's scale names the 0–100 the commands print
        assert "0–100" in paragraph, paragraph
