"""``refscore compare`` and ``refscore score --confidence`` on a small registered test metric."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from conftest import write_segment_files
from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main
from refscore.metrics import REGISTRY
from refscore.metrics.bleu import BLEU
from refscore.metrics.rouge import ROUGE, ROUGE155
from refscore.significance import bootstrap_ci, paired_test
from significance_metrics import TokenAccuracy
from test_significance import make_corpus


@pytest.fixture()
def files(tmp_path, monkeypatch):
    monkeypatch.setitem(REGISTRY, "tokacc", "significance_metrics:TokenAccuracy")
    systems, references = make_corpus(80, 3, seed=4)
    paths = write_segment_files(tmp_path, {"ref": references, **systems})
    return str(paths.pop("ref")), [str(path) for path in paths.values()], systems, references


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_compare_json_equals_api(files, capsys):
    ref, paths, systems, references = files
    code, out, _ = run(capsys, "compare", "-m", "tokacc", "-r", ref, "-i", *paths, "--n", "300", "--format", "json")
    assert code == ExitCode.OK
    payload = json.loads(out)
    expected = paired_test(TokenAccuracy(), dict(zip(paths, systems.values())), references, n=300)
    assert payload["test"] == "bs" and payload["n"] == 300 and payload["seed"] == 12345
    assert payload["baseline"] == list(systems)[0]  # sys0.txt: the file name without directory and extension
    for index, entry in enumerate(payload["systems"]):
        row = expected.results["tokacc"][index]
        scores = entry["scores"]["tokacc"]
        # the command line is 0–100 (refscore.cli.scale): the API's values times 100
        assert (scores["score"], scores["mean"], scores["ci"]) == (100 * row.score, 100 * row.mean, 100 * row.ci)
        assert scores.get("p_value") == row.p_value
    assert "p_value" not in payload["systems"][0]["scores"]["tokacc"]
    assert payload["signatures"]["tokacc"].startswith("nrefs:1|bs:300|seed:12345|")


def test_compare_text_and_latex_tables(files, capsys):
    ref, paths, _, _ = files
    code, out, _ = run(capsys, "compare", "-m", "tokacc", "-r", ref, "-i", *paths, "--paired-ar", "--n", "200",
                       "--seed", "0")
    assert code == ExitCode.OK
    assert f"Baseline: {list(files[2])[0]} " in out and "(p = " in out and "±" not in out.split("tokacc:")[0]
    assert "tokacc: nrefs:1|ar:200|seed:0|" in out
    code, out, _ = run(capsys, "compare", "-m", "tokacc", "-r", ref, "-i", *paths, "--n", "50", "--format", "latex",
                       "--name", "base_line", "b", "c")
    assert code == ExitCode.OK
    assert "\\toprule" in out and "$\\pm$" in out and "base\\_line" in out  # system names have underscores escaped


def test_compare_marks_significant_differences(files, capsys):
    ref, paths, _, _ = files
    code, out, _ = run(capsys, "compare", "-m", "tokacc", "-r", ref, "-i", paths[0], ref, "--n", "100")
    assert code == ExitCode.OK  # the reference itself as a "system": far better than the baseline
    assert "(p = 0.0099)*" in out


def test_score_confidence_equals_bootstrap_ci(files, capsys):
    ref, paths, systems, references = files
    code, out, _ = run(capsys, "score", "-m", "tokacc", "-r", ref, "-i", paths[1], "--confidence",
                       "--confidence-n", "250", "--format", "json")
    assert code == ExitCode.OK
    entry = json.loads(out)[0]["scores"]["tokacc"]
    expected = bootstrap_ci(TokenAccuracy(), systems["sys1"], references, n=250)
    assert (entry["score"], entry["mean"], entry["ci"]) == (100 * expected.score, 100 * expected.mean,
                                                            100 * expected.ci)
    assert entry["signature"].startswith("nrefs:1|bs:250|seed:12345|")
    code, out, _ = run(capsys, "score", "-m", "tokacc", "-r", ref, "-i", paths[1], "--confidence")
    assert code == ExitCode.OK and "μ = " in out


def test_compare_bad_input(files, capsys, tmp_path):
    ref, paths, _, _ = files
    code, _, err = run(capsys, "compare", "-m", "tokacc", "-r", ref, "-i", paths[0])
    assert code == ExitCode.USAGE and "a baseline and at least one other system" in err
    short = tmp_path / "short.txt"
    short.write_text("a b\n", encoding="utf-8")
    code, _, err = run(capsys, "compare", "-m", "tokacc", "-r", ref, "-i", paths[0], str(short))
    assert code == ExitCode.LINE_COUNT_MISMATCH and "short.txt: 1 line)" in err
    code, _, err = run(capsys, "compare", "-m", "tokacc", "-r", ref, "-i", paths[0], paths[0])
    assert code == ExitCode.USAGE and "more than once" in err
    code, _, err = run(capsys, "compare", "-m", "tokacc", "-i", *paths)
    assert code == ExitCode.USAGE and "reference file" in err
    code, _, err = run(capsys, "score", "-m", "tokacc", "-r", ref, "-i", paths[0], "--confidence", "--segments")
    assert code == ExitCode.USAGE and "cannot be combined with --segments" in err
    for arguments, message in ((["compare", "--seed", "-3"], "invalid seed -3"),
                               (["compare", "--n", "0"], "argument --n: invalid value 0: give an integer >= 1"),
                               (["compare", "-w", "-1"], "argument --width/-w: invalid value -1: give an integer >= 0"),
                               (["score", "--confidence", "--confidence-n", "0"], "argument --confidence-n"),
                               (["score", "--num-threads", "0"], "argument --num-threads: invalid value 0")):
        with pytest.raises(SystemExit) as exc:
            main([arguments[0], "-m", "tokacc", "-r", ref, "-i", *paths, *arguments[1:]])
        assert exc.value.code == ExitCode.USAGE
        assert message in capsys.readouterr().err
    code, _, err = run(capsys, "compare", "-m", "tokacc", "-r", ref, "-i", *paths, "--confidence-n", "100")
    assert code == ExitCode.USAGE and "--confidence-n applies to --paired-ar only" in err


def test_a_malformed_record_suggests_skipping_only_where_the_command_can_skip(tmp_path, capsys):
    path = tmp_path / "outputs.jsonl"
    path.write_text('{"system": "x", "prediction": "a b", "references": ["a b"]}\n'
                    '{"system": "y", "prediction": 3, "references": ["a b"]}\n', encoding="utf-8")
    assert main(["compare", "-i", str(path), "-m", "bleu"]) == ExitCode.BAD_INPUT
    error = capsys.readouterr().err
    assert f"{path}: line 2" in error and "prediction" in error and "--skip-bad-records" not in error
    for command in (["score", "-i", str(path), "-m", "bleu"], ["report", "-i", str(path), "-m", "bleu", "-o",
                                                                 str(tmp_path / "r.html")]):
        assert main(command) == ExitCode.BAD_INPUT
        error = capsys.readouterr().err
        assert f"{path}: line 2" in error and ("--skip-bad-records" in error) == (command[0] == "score"), error


def _compare(*argv: str) -> subprocess.CompletedProcess:
    """``refscore compare`` in a real subprocess (the installed command line, not ``main`` in-process)."""
    process = subprocess.run([sys.executable, "-m", "refscore.cli", "compare", *argv], capture_output=True,
                             text=True, encoding="utf-8")
    assert process.returncode == ExitCode.OK, process.stderr
    return process


def _table_columns(text: str) -> list[str]:
    """The column names of the text table (its header line, split where the table puts 2+ spaces)."""
    header = next(line for line in text.splitlines() if line.startswith("System"))
    return [name.strip() for name in re.split(r"\s{2,}", header)[1:]]


def test_compare_rouge_table_is_compact_unless_all_scores(tmp_path):
    systems, references = make_corpus(60, 2, seed=7)
    paths = write_segment_files(tmp_path, {"ref": references, **systems})
    inputs = ["-r", str(paths["ref"]), "-i", *(str(paths[name]) for name in systems), "-m", "rouge,bleu", "--n", "200"]
    compact = _compare(*inputs).stdout
    # the primary score of each metric: each ROUGE type's F-measure, then BLEU
    assert _table_columns(compact) == [f"{name} (μ ± 95% CI)" for name in ("rouge1", "rouge2", "rougeL", "rougeLsum",
                                                                          "bleu")]
    assert "precision" not in compact and "recall" not in compact
    everything = _compare(*inputs, "--all-scores").stdout
    names = list(ROUGE().score_names) + ["bleu"]
    assert _table_columns(everything) == [f"{name} (μ ± 95% CI)" for name in names]
    assert max(map(len, compact.splitlines())) < max(map(len, everything.splitlines())) / 2
    # the compact table's cells are the full table's cells (the same test, columns left out)
    expected = paired_test([ROUGE(), BLEU()], {str(paths[name]): systems[name] for name in systems}, references,
                           n=200)
    lines = compact.splitlines()
    rows = lines[lines.index(next(line for line in lines if line.startswith("---"))) + 1:][:len(systems)]
    assert len(rows) == 2 and rows[0].startswith("Baseline: ")
    for row, line in enumerate(rows):
        result = expected.results["rougeL"][row]
        assert f"{100 * result.score:.2f} ({100 * result.mean:.2f} ± {100 * result.ci:.2f})" in line
    latex = _compare(*inputs, "--format", "latex").stdout
    assert "\\begin{tabular}{lccccc}" in latex and "precision" not in latex
    latex_all = _compare(*inputs, "--format", "latex", "--all-scores").stdout
    assert "\\begin{tabular}{l" + "c" * len(names) + "}" in latex_all and "rouge1\\_precision" in latex_all
    # JSON keeps every score either way (a table is for reading; JSON for programs)
    payload = json.loads(_compare(*inputs, "--format", "json").stdout)
    assert list(payload["systems"][0]["scores"]) == names


def test_primary_scores_are_a_fact_of_each_metric():
    assert ROUGE(types=("rouge1", "rougeL")).primary_score_names == ("rouge1", "rougeL")
    assert BLEU().primary_score_names == ("bleu",)
    assert ROUGE155(types=("ROUGE-1", "ROUGE-L")).primary_score_names == ("ROUGE-1-F", "ROUGE-L-F")
