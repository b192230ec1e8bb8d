"""Command-line inputs that carry their own references: JSON Lines, CSV and TSV."""
from __future__ import annotations

import csv
import json

import pytest

import refscore
from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main

PREDICTIONS = ["the cat sat on the mat", "a dog barked", "hello, world"]
REFERENCES = [["the cat sat on a mat", "a cat sat on the mat"], ["the dog barked"], ["hello world"]]


def run_json(capsys, args):
    code = main(args)
    captured = capsys.readouterr()
    assert code == ExitCode.OK, captured.err
    return json.loads(captured.out)


def test_csv_and_tsv_give_the_same_scores_as_the_api(tmp_path, capsys):
    csv_path = tmp_path / "outputs.csv"
    csv_path.write_text("prediction,reference,reference_2\n" + "".join(
        f'"{p}","{r[0]}",{"" if len(r) == 1 else r[1]}\n' for p, r in zip(PREDICTIONS, REFERENCES)), encoding="utf-8")
    tsv_path = tmp_path / "outputs.tsv"
    tsv_path.write_text("prediction\treferences\treference_b\n" + "".join(
        f"{p}\t{r[0]}\t{'' if len(r) == 1 else r[1]}\n" for p, r in zip(PREDICTIONS, REFERENCES)), encoding="utf-8")
    expected = refscore.bleu(PREDICTIONS, REFERENCES).score
    for path in (csv_path, tsv_path):
        payload = run_json(capsys, ["score", "-m", "bleu", "-i", str(path), "--format", "json"])
        assert payload[0]["scores"]["bleu"]["score"] == 100 * expected


def test_system_column_groups_records(tmp_path, capsys):
    path = tmp_path / "runs.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["system", "prediction", "reference"])
        writer.writerows([system, p, r[0]] for system in ("A", "B") for p, r in zip(PREDICTIONS, REFERENCES))
    payload = run_json(capsys, ["score", "-m", "chrf", "-i", str(path), "--format", "json"])
    assert [entry["system"] for entry in payload] == [f"{path}:A", f"{path}:B"]


def test_jsonl_input(tmp_path, capsys):
    path = tmp_path / "outputs.jsonl"
    path.write_text("\n".join(json.dumps({"prediction": p, "references": r})
                              for p, r in zip(PREDICTIONS, REFERENCES)) + "\n", encoding="utf-8")
    payload = run_json(capsys, ["score", "-m", "ter", "-i", str(path), "--format", "json", "--segments"])
    assert len(payload[0]["segments"]["ter"]["ter"]) == 3


def test_csv_without_required_columns_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "bad.csv"
    path.write_text("output,target\nx,y\n", encoding="utf-8")
    assert main(["score", "-m", "bleu", "-i", str(path)]) == ExitCode.BAD_INPUT
    assert "'prediction' column" in capsys.readouterr().err


def test_record_files_refuse_reference_files(tmp_path, capsys):
    path = tmp_path / "outputs.csv"
    path.write_text("prediction,reference\na,b\n", encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("b\n", encoding="utf-8")
    assert main(["score", "-m", "bleu", "-r", str(ref), "-i", str(path)]) == ExitCode.USAGE
    assert "no -r" in capsys.readouterr().err


def run_error(capsys, args, code=ExitCode.BAD_INPUT):
    assert main(args) == code
    return capsys.readouterr().err


def test_csv_fields_may_span_lines_and_keep_their_line_breaks(tmp_path, capsys):
    prediction, reference = "the dog ran\nthe cat sat", "the cat sat\nthe dog ran"
    csv_path = tmp_path / "multi.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["prediction", "reference"], [prediction, reference]])
    jsonl_path = tmp_path / "multi.jsonl"
    jsonl_path.write_text(json.dumps({"prediction": prediction, "references": [reference]}) + "\n", encoding="utf-8")
    args = ["score", "-m", "rouge", "--rouge-types", "rouge1,rougeL,rougeLsum", "--format", "json", "--segments"]
    from_csv = run_json(capsys, args + ["-i", str(csv_path)])[0]["segments"]["rouge"]
    assert from_csv == run_json(capsys, args + ["-i", str(jsonl_path)])[0]["segments"]["rouge"]
    assert from_csv["rougeLsum"] == [100.0] and from_csv["rougeL"] == [50.0]


def test_csv_and_tsv_structure_errors_name_the_line(tmp_path, capsys):
    cases = {
        "short.csv": ('prediction,reference\n"a\nb",c\n\ndog barked\n', "line 5: 1 field but the header has 2 columns"),
        "unclosed.csv": ('prediction,reference\nx,y\n"unterminated,x\n', "line 3: malformed CSV"),
        "stray_quote.csv": ('prediction,reference\n"Hello," he said,x\n', "line 2: malformed CSV"),
        "tab.tsv": ("prediction\treference\na\tb\tc\n", "line 2: 3 fields but the header has 2 columns"),
        "header_only.csv": ("prediction,reference\n", "no records"),
        "empty.jsonl": ("\n", "no records"),
        "no_system.csv": ("system,prediction,reference\nA,a,b\n,c,d\n", "line 3: 'system' must be a non-empty"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_text(content, encoding="utf-8")
        assert message in run_error(capsys, ["score", "-m", "bleu", "-i", str(path)]), name


def test_tsv_has_no_quoting_and_headers_ignore_case(tmp_path, capsys):
    path = tmp_path / "quotes.tsv"
    path.write_text('Prediction\tReference\tSYSTEM\n"Hello," he said\t"Hello," he said\tA\nx\ty\tA\n',
                    encoding="utf-8")
    payload = run_json(capsys, ["score", "-m", "chrf", "-i", str(path), "--format", "json", "--segments"])
    assert payload[0]["system"] == f"{path}:A"
    assert payload[0]["segments"]["chrf"]["chrf"][0] == pytest.approx(100.0)


def test_huge_fields_and_deep_json(tmp_path, capsys):
    path = tmp_path / "big.csv"
    path.write_text("prediction,reference\n" + "word " * 40_000 + ",word\n", encoding="utf-8")
    assert run_json(capsys, ["score", "-m", "bleu", "-i", str(path), "--format", "json"])[0]["scores"]["bleu"]
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "\n", encoding="utf-8")
    assert "line 1: JSON arrays or objects nested too deeply" in run_error(capsys, ["score", "-i", str(deep)])


def test_jsonl_errors_name_the_file_line(tmp_path, capsys):
    cases = [('\n\n{"references": ["a"]}\n', "line 3: no field 'prediction' (or 'hypothesis', 'hyp', 'output'); the "
                                           "record has 'references'"),
             ('{"prediction": "a", "references": ["b", null]}\n', 'references[1] is null, expected a string; use ""'),
             ('{"prediction": null, "references": ["b"]}\n', 'got null; use "" for an empty prediction'),
             ('{"prediction": "a", "references": "b", "system": null}\n', "line 1: 'system' must be a non-empty"),
             ('{"prediction": "a", "references": "b", "system": "A"}\n{"prediction": "a", "references": "b"}\n',
              "line 2: 'system' must be a non-empty string in every record or absent from all (line 1 has one)")]
    for content, message in cases:
        path = tmp_path / "bad.jsonl"
        path.write_text(content, encoding="utf-8")
        assert message in run_error(capsys, ["score", "-i", str(path)])


def test_record_files_with_confidence_intervals(tmp_path, capsys):
    path = tmp_path / "outputs.jsonl"
    path.write_text("\n".join(json.dumps({"prediction": p, "references": r})
                              for p, r in zip(PREDICTIONS, REFERENCES)) + "\n", encoding="utf-8")
    payload = run_json(capsys, ["score", "-m", "bleu", "-i", str(path), "--confidence", "--confidence-n", "50",
                                "--format", "json"])
    interval = payload[0]["scores"]["bleu"]
    assert interval["n"] == 50 and interval["score"] == 100 * refscore.bleu(PREDICTIONS, REFERENCES).score


def test_compare_reads_record_files_with_shared_references(tmp_path, capsys):
    references = [r[0] for r in REFERENCES]
    systems = {"A": PREDICTIONS, "B": ["the cat sat", "a dog", "hello world"]}
    records = tmp_path / "runs.csv"
    with records.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["system", "prediction", "reference"])
        writer.writerows([name, p, r] for name, lines in systems.items() for p, r in zip(lines, references))
    text_files = []
    for name, lines in systems.items():
        text_files.append(tmp_path / f"{name}.txt")
        text_files[-1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("\n".join(references) + "\n", encoding="utf-8")
    common = ["compare", "-m", "bleu,chrf", "--n", "200", "--format", "json"]
    from_records = run_json(capsys, common + ["-i", str(records)])
    from_text = run_json(capsys, common + ["-r", str(ref), "-i", *map(str, text_files)])
    assert [entry["system"] for entry in from_records["systems"]] == ["A", "B"]  # the records' system names
    assert [entry["scores"] for entry in from_records["systems"]] == [entry["scores"] for entry in
                                                                     from_text["systems"]]
    other = tmp_path / "other.jsonl"
    other.write_text("\n".join(json.dumps({"prediction": p, "references": "x"}) for p in PREDICTIONS) + "\n",
                     encoding="utf-8")
    assert "references of segment 0 differ" in run_error(capsys, ["compare", "-i", str(records), str(other)])


def test_plain_text_inputs_follow_sacrebleu(tmp_path, capsys):
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\na dog barked\n", encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("the cat sat on the mat \t\na dog barked  \n", encoding="utf-8")
    payload = run_json(capsys, ["score", "-m", "chrf", "--chrf-whitespace", "-r", str(ref), "-r", str(ref),
                                "-i", str(hyp), "--format", "json"])[0]["scores"]["chrf"]
    sacrebleu = pytest.importorskip("sacrebleu")
    clean = ["the cat sat on the mat", "a dog barked"]  # sacreBLEU's command line strips trailing whitespace
    expected = sacrebleu.CHRF(whitespace=True).corpus_score(clean, [clean, clean])
    assert payload["score"] == pytest.approx(expected.score, abs=1e-9)
    assert "nrefs:2" in payload["signature"]
    assert "more than once" in run_error(capsys, ["score", "-r", str(ref), "-i", str(hyp), str(hyp)],
                                         ExitCode.USAGE)
    assert "only once" in run_error(capsys, ["score", "-r", "-", "-i", "-"], ExitCode.USAGE)
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    assert f"the inputs are empty ({empty}, {empty}: 0 lines)" in run_error(
        capsys, ["score", "-r", str(empty), "-i", str(empty)])


def test_option_errors_name_the_flags(tmp_path, capsys):
    ref = tmp_path / "ref.txt"
    ref.write_text("a b\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["score", "-m", "rouge", "--rouge-types", "rouge0", "-r", str(ref), "-i", str(ref)])
    err = capsys.readouterr().err
    assert "argument --rouge-types:" in err and "_parse_types" not in err
    pytest.importorskip("torch")
    err = run_error(capsys, ["score", "-m", "bertscore", "-r", str(ref), "-i", str(ref)])
    assert "(on the command line: model_type is --bertscore-model, lang is --bertscore-lang)" in err


def test_docstring_examples_run():
    import doctest

    import refscore.cli.arguments
    import refscore.cli.exit_codes
    import refscore.cli.metric_setup

    for module in (refscore.cli.metric_setup, refscore.cli.arguments, refscore.cli.exit_codes):
        failures, attempted = doctest.testmod(module)
        assert failures == 0 and attempted > 0, module
