"""Loading test cases: JSONL, JSON, CSV, YAML, pandas and Arrow tables, aliases, and every bad-input message."""
from __future__ import annotations

import builtins
import json

import pytest

from refscore.errors import InputError, InputTypeError, MissingExtraError
from refscore.testing import TestCase, load_cases


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_jsonl_with_aliases_metadata_and_null_output(tmp_path):
    path = write(tmp_path / "cases.jsonl",
                 '{"id": "q1", "input": "Translate: Hallo", "actual_output": "Hello", "expected_output": "Hello"}\n'
                 "\n"
                 '{"prediction": "Hi", "references": ["Hello", "Hi"], "metadata": {"lang": "de"}}\n'
                 '{"actual_output": null, "expected_output": "Bye"}\n')
    cases = load_cases(path)
    assert [c.id for c in cases] == ["q1", "case-2", "case-3"]
    assert cases[0].input == "Translate: Hallo"
    assert cases[1].references == ["Hello", "Hi"] and cases[1].metadata == {"lang": "de"}
    assert cases[2].actual_output is None
    assert cases[1].source == f"{path}: line 3"


def test_missing_field_names_file_line_and_field(tmp_path):
    path = write(tmp_path / "cases.jsonl", '{"actual_output": "a", "expected_output": "a"}\n{"actual_output": "b"}\n')
    with pytest.raises(InputError, match=r"cases\.jsonl: line 2: missing field 'expected_output'"):
        load_cases(path)


def test_missing_actual_output_is_no_output_not_an_error(tmp_path):
    path = write(tmp_path / "cases.jsonl", '{"expected_output": "a"}\n')
    assert load_cases(path)[0].actual_output is None


@pytest.mark.parametrize("line, message", [
    ('{"actual_output": 3, "expected_output": "a"}', r"line 1: actual_output must be a string or None"),
    ('{"actual_output": "a", "expected_output": []}', r"line 1: expected_output is an empty list"),
    ('{"actual_output": "a", "expected_output": ["a", null]}', r"line 1: expected_output\[1\] must be a string"),
    ('{"actual_output": "a", "prediction": "b", "expected_output": "a"}', r"both 'actual_output' and its alias"),
    ('[1, 2]', r"line 1: expected an object"),
    ('{"actual_output": "a", ', r"line 1 is not valid JSON"),
])
def test_bad_records(tmp_path, line, message):
    path = write(tmp_path / "cases.jsonl", line + "\n")
    with pytest.raises((InputError, InputTypeError), match=message):
        load_cases(path)


def test_duplicate_ids_name_both_lines(tmp_path):
    path = write(tmp_path / "cases.jsonl", "".join(
        json.dumps({"id": case_id, "actual_output": "a", "expected_output": "a"}) + "\n" for case_id in "xyx"))
    with pytest.raises(InputError, match=r"line 3: duplicate case id 'x' \(first at .*line 1\)"):
        load_cases(path)


def test_csv_with_extra_expected_outputs_and_metadata_columns(tmp_path):
    path = write(tmp_path / "cases.csv", 'id,actual_output,expected_output,expected_output_2,topic\n'
                                         'a,"Hello, world",Hello world,,greeting\n'
                                         'b,,Bye,Goodbye,farewell\n')
    cases = load_cases(path)
    assert cases[0].actual_output == "Hello, world" and cases[0].expected_output == "Hello world"
    assert cases[1].actual_output == "" and cases[1].references == ["Bye", "Goodbye"]
    assert cases[1].metadata == {"topic": "farewell"}


def test_csv_ragged_row(tmp_path):
    path = write(tmp_path / "cases.csv", "actual_output,expected_output\na,b,c\n")
    with pytest.raises(InputError, match=r"cases\.csv: line 2 has 3 field\(s\) but the header has 2"):
        load_cases(path)


def test_yaml_with_line_numbers(tmp_path):
    path = write(tmp_path / "cases.yaml", "cases:\n"
                                          "  - id: one\n    actual_output: a b\n    expected_output: a b\n"
                                          "  - actual_output: c\n")
    with pytest.raises(InputError, match=r"cases\.yaml: line 5: missing field 'expected_output'"):
        load_cases(path)
    write(path, "- actual_output: a\n  expected_output: [a, b]\n")
    assert load_cases(path)[0].references == ["a", "b"]


def test_yaml_without_pyyaml_names_the_extra(tmp_path, monkeypatch):
    path = write(tmp_path / "cases.yml", "- actual_output: a\n  expected_output: a\n")
    real_import = builtins.__import__

    def no_yaml(name, *args, **kwargs):
        if name == "yaml":
            raise ImportError("no yaml")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_yaml)
    with pytest.raises(MissingExtraError, match=r"pip install 'refscore\[testing\]'"):
        load_cases(path)


def test_json_list_and_unknown_extension(tmp_path):
    path = write(tmp_path / "cases.json", json.dumps([{"actual_output": "a", "expected_output": "a"}]))
    assert load_cases(path)[0].actual_output == "a"
    with pytest.raises(InputError, match=r"unknown cases format '\.txt'"):
        load_cases(write(tmp_path / "cases.txt", ""))


def test_unreadable_file_is_an_os_error(tmp_path):
    with pytest.raises(OSError, match=r"cannot read the cases file"):
        load_cases(tmp_path / "absent.jsonl")


def test_pandas_and_arrow_tables():
    pandas = pytest.importorskip("pandas")
    pyarrow = pytest.importorskip("pyarrow")
    frame = pandas.DataFrame({"actual_output": ["a", None], "expected_output": ["a", "b"], "id": ["x", "y"]})
    cases = load_cases(frame)
    assert [c.actual_output for c in cases] == ["a", None] and [c.id for c in cases] == ["x", "y"]
    table = pyarrow.table({"prediction": ["a"], "references": [["a", "b"]]})
    assert load_cases(table)[0].references == ["a", "b"]
    with pytest.raises(InputError, match=r"table row 0: missing field 'expected_output'"):
        load_cases(pandas.DataFrame({"actual_output": ["a"]}))


def test_test_case_objects_are_not_mutated():
    case = TestCase("a", "a")
    loaded = load_cases([case])
    assert loaded[0].id == "case-1" and case.id is None
    assert TestCase.__test__ is False


@pytest.mark.parametrize("record", [
    {"actual_output": "a b", "expected_output": "a c"},
    {"actual_output": "a b", "expected_output": ["a c"]},
    {"actual_output": "a b", "expected_output": ["a c", "b d"]},
    {"actual_output": "", "expected_output": [""]},
])
def test_plain_records_load_as_the_checked_constructor_builds_them(record):
    from refscore.testing.cases import case_from_mapping

    fast = case_from_mapping(record, "cases[0]")
    checked = TestCase(record["actual_output"], record["expected_output"], source="cases[0]")
    assert vars(fast) == vars(checked)
    if isinstance(record["expected_output"], list):   # the case owns its list, as TestCase's copy does
        assert fast.expected_output is not record["expected_output"]


@pytest.mark.parametrize("record, message", [
    ({"actual_output": "a", "expected_output": []}, "expected_output is an empty list"),
    ({"actual_output": "a", "expected_output": ["b", None]}, r"expected_output\[1\] must be a string, got null"),
    ({"actual_output": 3, "expected_output": "b"}, "actual_output must be a string or None"),
    ({"actual_output": "a", "expected_output": 3}, "expected_output must be a string or a list of strings"),
])
def test_plain_records_that_are_not_two_texts_get_the_checked_errors(record, message):
    with pytest.raises((InputError, InputTypeError), match=message):
        load_cases([record])
