"""``-m file:PATH`` with record files whose records carry an ``id``: the scores join on (system, id), not on the
segment number; records without ids still join on segment numbers (real ``refscore`` processes); a system whose
records mix both, or repeat an id, is refused."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import refscore
from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main
from refscore.errors import InputError
from refscore.metrics.external import SystemSegments
from test_cli_process import refscore_command

IDS = ["doc1-1", "doc1-2", "doc2-1", "doc2-2", "doc3-1"]
REFERENCES = ["the cat sat on the mat", "a dog ran", "it rained all day", "the sun came out", "we went home"]
# scores keyed by id, listed in another order than the records: a join on segment numbers would pick other rows
SCORES = {"base": {"doc2-2": 0.25, "doc1-1": 0.5, "doc3-1": 0.125, "doc1-2": 0.75, "doc2-1": 0.375},
          "new": {"doc3-1": 0.875, "doc2-1": 0.625, "doc1-1": 1.0, "doc2-2": 0.5, "doc1-2": 0.75}}


def refscore_run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(refscore_command(*args), cwd=cwd, capture_output=True, text=True, timeout=300)


def write_records(path: Path, ids=IDS) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for system in SCORES:
            for index, (reference, segment_id) in enumerate(zip(REFERENCES, ids)):
                record = {"system": system, "prediction": f"{system} {index}", "references": [reference]}
                if segment_id is not None:
                    record["id"] = segment_id
                handle.write(json.dumps(record) + "\n")


@pytest.fixture()
def folder(tmp_path) -> Path:
    write_records(tmp_path / "runs.jsonl")
    with open(tmp_path / "comet.jsonl", "w", encoding="utf-8") as handle:
        for system, scores in SCORES.items():
            handle.writelines(json.dumps({"system": system, "id": key, "score": value}) + "\n"
                              for key, value in scores.items())
    return tmp_path


def test_compare_joins_record_ids_not_segment_numbers(folder):
    result = refscore_run("compare", "-m", "file:comet.jsonl", "-i", "runs.jsonl", "--n", "200", "--format", "json",
                          cwd=folder)
    assert result.returncode == ExitCode.OK, result.stderr
    rows = json.loads(result.stdout)["systems"]
    metric = refscore.external_scores(folder / "comet.jsonl")
    systems = {name: SystemSegments([""] * len(IDS), system=name, ids=IDS) for name in SCORES}
    expected = refscore.paired_test(metric, systems, [""] * len(IDS), n=200).results["comet"]
    assert [row["scores"]["comet"]["score"] for row in rows] == pytest.approx([r.score for r in expected],
                                                                               rel=1e-15)
    assert rows[1]["scores"]["comet"]["p_value"] == expected[1].p_value
    assert rows[0]["scores"]["comet"]["score"] == pytest.approx(sum(SCORES["base"].values()) / 5, rel=1e-15)


def test_score_of_records_without_ids_joins_segment_numbers(folder):
    write_records(folder / "plain.jsonl", ids=[None] * len(IDS))
    with open(folder / "numbered.tsv", "w", encoding="utf-8") as handle:
        handle.write("system\tid\tscore\n")
        for system, scores in SCORES.items():    # the scores in id order, under their segment numbers 1..5
            handle.writelines(f"{system}\t{number}\t{scores[key]}\n" for number, key in enumerate(IDS, start=1))
    result = refscore_run("score", "-m", "file:numbered.tsv", "-i", "plain.jsonl", "--format", "json", cwd=folder)
    assert result.returncode == ExitCode.OK, result.stderr
    means = [system["scores"]["numbered"]["score"] for system in json.loads(result.stdout)]
    assert means == pytest.approx([sum(s.values()) / 5 for s in SCORES.values()], rel=1e-15)


def test_scores_keyed_by_record_id_do_not_join_records_without_ids(folder, monkeypatch, capsys):
    monkeypatch.chdir(folder)
    write_records(folder / "plain.jsonl", ids=[None] * len(IDS))
    assert main(["score", "-m", "file:comet.jsonl", "-i", "plain.jsonl"]) == ExitCode.BAD_INPUT
    assert "(system, id) ('base', '1')" in capsys.readouterr().err


@pytest.mark.parametrize(("ids", "message"), [
    (["doc1-1", None, "doc2-1", "doc2-2", "doc3-1"], "record 2 of runs.jsonl:base has no 'id' field"),
    (["doc1-1", "doc1-2", "doc1-1", "doc2-2", "doc3-1"], "given twice: ('base', 'doc1-1')"),
])
def test_a_system_mixing_or_repeating_ids_is_refused(folder, monkeypatch, capsys, ids, message):
    monkeypatch.chdir(folder)
    write_records(folder / "runs.jsonl", ids=ids)
    assert main(["score", "-m", "file:comet.jsonl", "-i", "runs.jsonl"]) == ExitCode.BAD_INPUT
    error = capsys.readouterr().err
    assert message in error and error.startswith("refscore: error:")


def test_system_segments_refuse_a_repeated_id():
    with pytest.raises(InputError, match=r"1 id given twice: \('sysA', 'a'\)"):
        SystemSegments(["x", "y", "z"], system="sysA", ids=["a", "b", "a"])
