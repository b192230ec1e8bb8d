"""Test cases of a generation application: its ``actual_output`` and the ``expected_output`` (one or several).

Cases load from JSON Lines, JSON (a list), CSV, YAML (the ``testing`` extra: PyYAML) or a pandas / Arrow table with
the columns ``actual_output``, ``expected_output`` and optionally ``input``, ``id`` and ``metadata``
(``prediction`` / ``references`` are accepted as aliases). An ``actual_output`` that is null or missing is valid:
the case fails every check with the reason "no output". Errors name the file, the line (or row) and the field.

>>> case = TestCase("Paris is the capital of France.", ["The capital of France is Paris."], id="capital")
>>> case.references, case.prediction
(['The capital of France is Paris.'], 'Paris is the capital of France.')
>>> [c.id for c in load_cases([{"prediction": "a", "references": "a"}, {"actual_output": None,
...                                                                     "expected_output": "b"}])]
['case-1', 'case-2']
"""
from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from refscore.errors import InputError, InputTypeError, MissingExtraError
from refscore.io.digits import digit_limit_problem
from refscore.io.limits import check_line_lengths, parse_bounded, read_file_within_budget
from refscore.io.text_files import decode_utf8

KNOWN_FIELDS = ("actual_output", "expected_output", "input", "id", "metadata", "prediction", "references")
SUFFIXES = (".jsonl", ".json", ".csv", ".yaml", ".yml")


@dataclass
class TestCase:
    """One test case. ``expected_output`` is a string or a non-empty list of strings (several acceptable outputs);
    ``actual_output`` is None when the application returned nothing. ``source`` ("file:line") is set by the
    loaders and used in messages."""

    __test__: ClassVar[bool] = False    # not a pytest test class despite its name

    actual_output: str | None
    expected_output: str | list[str]
    input: str | None = None
    id: str | None = None
    metadata: dict[str, Any] | None = None
    source: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        where = self.source or (f"case {self.id!r}" if self.id is not None else "TestCase")
        if self.actual_output is not None and not isinstance(self.actual_output, str):
            raise InputTypeError(f"{where}: actual_output must be a string or None (no output), got "
                                 f"{type(self.actual_output).__name__}")
        expected = self.expected_output
        if isinstance(expected, (list, tuple)):
            if not expected:
                raise InputError(f"{where}: expected_output is an empty list; give at least one expected output")
            for index, item in enumerate(expected):
                if not isinstance(item, str):
                    raise InputTypeError(f"{where}: expected_output[{index}] must be a string, got "
                                         f"{'null' if item is None else type(item).__name__}")
            self.expected_output = list(expected)
        elif not isinstance(expected, str):
            raise InputTypeError(f"{where}: expected_output must be a string or a list of strings, got "
                                 f"{'null' if expected is None else type(expected).__name__}")
        if self.id is not None:
            if isinstance(self.id, bool) or not isinstance(self.id, (str, int)):
                raise InputTypeError(f"{where}: id must be a string or an integer, got {type(self.id).__name__}")
            self.id = str(self.id)
        if self.metadata is not None and not isinstance(self.metadata, Mapping):
            raise InputTypeError(f"{where}: metadata must be a mapping, got {type(self.metadata).__name__}")

    @classmethod
    def _of_checked_texts(cls, actual: str, expected: str | list[str], source: str) -> TestCase:
        """A case of two texts the loader has already checked (a str, and a str or a non-empty list of str):
        the same object as ``TestCase(actual, expected, source=source)`` without repeating ``__post_init__``'s
        checks, which cost more than the scoring for large suites."""
        case = cls.__new__(cls)
        case.__dict__.update(actual_output=actual, expected_output=expected, input=None, id=None, metadata=None,
                             source=source)
        return case

    @property
    def prediction(self) -> str | None:
        """Alias of ``actual_output``."""
        return self.actual_output

    @property
    def references(self) -> list[str]:
        """``expected_output`` as a list."""
        return [self.expected_output] if isinstance(self.expected_output, str) else list(self.expected_output)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (``source`` left out)."""
        return {"id": self.id, "input": self.input, "actual_output": self.actual_output,
                "expected_output": self.expected_output, "metadata": self.metadata}


def _is_missing(value: Any) -> bool:
    """None, or the NaN / NA a pandas table holds in an empty cell."""
    if value is None:
        return True
    if value.__class__ is str:
        return False
    if isinstance(value, float) and math.isnan(value):
        return True
    return type(value).__name__ in ("NAType", "NaTType")


def _field(record: Mapping[str, Any], name: str, alias: str, where: str) -> tuple[bool, Any]:
    """(present, value) of a field given by its name or its alias (not both)."""
    if name in record:
        if alias in record:
            raise InputError(f"{where}: both {name!r} and its alias {alias!r} are given; keep one")
        return True, record[name]
    if alias in record:
        return True, record[alias]
    return False, None


def _field_key(name: str) -> str:
    """A field name without case, underscores, hyphens or spaces: what near-miss spellings share."""
    return "".join(char for char in name.lower() if char not in "_- ")


_KNOWN_KEYS = {_field_key(name): name for name in KNOWN_FIELDS}


def _reject_near_misses(names: Iterable[Any], where: str) -> None:
    """An error for a field that is a known field spelled with other case, underscores or hyphens
    (``Actual_Output``, ``expected-output``): kept as metadata, its text would silently be lost."""
    for name in names:
        known = _KNOWN_KEYS.get(_field_key(name)) if isinstance(name, str) else None
        if known is not None:
            raise InputError(f"{where}: field {name!r} looks like {known!r}; rename it to {known!r} (field names "
                             f"are lower case with underscores)")


def case_from_mapping(record: Mapping[str, Any], where: str) -> TestCase:
    """A :class:`TestCase` from one record; ``where`` ("cases.jsonl: line 3") prefixes every error."""
    if record.__class__ is dict and len(record) == 2:   # the common record: just the two texts
        actual, expected = record.get("actual_output"), record.get("expected_output")
        if actual.__class__ is str:
            if expected.__class__ is str:
                return TestCase._of_checked_texts(actual, expected, where)
            if expected.__class__ is list and (len(expected) == 1 and expected[0].__class__ is str or
                                               expected and all(item.__class__ is str for item in expected)):
                return TestCase._of_checked_texts(actual, list(expected), where)
    if not isinstance(record, Mapping):
        raise InputTypeError(f"{where}: expected an object with 'actual_output' and 'expected_output', got "
                             f"{type(record).__name__}")
    extra = {key: value for key, value in record.items() if key not in KNOWN_FIELDS}
    _reject_near_misses(extra, where)
    _, actual = _field(record, "actual_output", "prediction", where)
    present, expected = _field(record, "expected_output", "references", where)
    if not present:
        raise InputError(f"{where}: missing field 'expected_output' (or its alias 'references'); every case needs "
                         f"the output it is checked against")
    metadata = record.get("metadata")
    if _is_missing(metadata):
        metadata = None
    if extra:     # other columns of a table are kept as metadata
        metadata = {**(metadata or {}), **extra}
    text_input, case_id = record.get("input"), record.get("id")
    return TestCase(None if _is_missing(actual) else actual, expected,
                    input=None if _is_missing(text_input) else text_input,
                    id=None if _is_missing(case_id) else case_id, metadata=metadata, source=where)


def _read_text(path: Path, lines: bool = True) -> str:
    """The UTF-8 text of a cases file within the read budget: its bytes, and each line's where it is read by line
    (a JSON document may be one long line: ``lines=False``)."""
    try:
        data = read_file_within_budget(path)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot read the cases file {path}: {exc.strerror}") from None
    if lines:
        check_line_lengths(data, str(path))
    return decode_utf8(data, str(path))


def _jsonl_records(path: Path) -> Iterable[tuple[str, Any]]:
    for number, line in enumerate(_read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield f"{path}: line {number}", parse_bounded(json.loads, line, str(path), line=number)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: line {number} is not valid JSON ({exc.msg} at column {exc.colno})") from None


def _json_records(path: Path) -> Iterable[tuple[str, Any]]:
    try:
        data = parse_bounded(json.loads, _read_text(path, lines=False), str(path))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: line {exc.lineno} is not valid JSON ({exc.msg})") from None
    if isinstance(data, Mapping) and "cases" in data:
        data = data["cases"]
    if not isinstance(data, list):
        raise InputError(f"{path}: expected a JSON list of cases (or an object with a 'cases' list)")
    return ((f"{path}: case {index + 1}", record) for index, record in enumerate(data))


def _csv_records(path: Path) -> Iterable[tuple[str, Any]]:
    """Rows of a CSV file with a header; an empty ``actual_output`` cell is the empty string (CSV has no null)
    and extra ``expected_output_2``, ``expected_output_3`` ... columns add expected outputs."""
    reader = csv.reader(io.StringIO(_read_text(path), newline=""), strict=True)
    try:
        header = [name.strip() for name in next(reader, [])]
        for row in reader:
            line = reader.line_num
            if not row:
                continue
            if len(row) != len(header):
                raise InputError(f"{path}: line {line} has {len(row)} field(s) but the header has {len(header)}")
            record: dict[str, Any] = dict(zip(header, row))
            more = [record.pop(name) for name in header if name.startswith("expected_output_") and record[name]]
            if more and "expected_output" in record:
                record["expected_output"] = [record["expected_output"], *more]
            yield f"{path}: line {line}", record
    except csv.Error as exc:
        raise InputError(f"{path}: line {reader.line_num}: malformed CSV ({exc}); quote fields that contain "
                         f"commas, quotes or line breaks") from None


def _yaml_records(path: Path) -> Iterable[tuple[str, Any]]:
    try:
        import yaml
    except ImportError:
        raise MissingExtraError(f"reading YAML cases ({path})", "testing", "PyYAML") from None
    text = _read_text(path)
    stream = io.StringIO(text)
    stream.name = str(path)     # PyYAML's messages name the stream ("<unicode string>" otherwise)
    try:
        loader = _no_alias_loader(yaml)(stream)   # its reader already checks the first characters
    except yaml.YAMLError as exc:
        raise InputError(_yaml_error(path, exc, text)) from None
    try:
        root = loader.get_single_node()
        data = None if root is None else loader.construct_document(root)
    except yaml.YAMLError as exc:
        raise InputError(_yaml_error(path, exc, text)) from None
    except RecursionError:
        raise InputError(f"{path}: YAML lists or mappings nested too deeply") from None
    except ValueError as exc:   # Python's digit limit on integers (4,300 digits)
        problem = digit_limit_problem(exc, stream.getvalue())
        if problem is None:
            raise
        raise InputError(f"{path}: line {problem[0]}: {problem[1]}") from None
    finally:
        loader.dispose()
    if isinstance(data, Mapping) and "cases" in data:
        data = data["cases"]
        root = next(value for key, value in root.value if key.value == "cases")
    if not isinstance(data, list):
        raise InputError(f"{path}: expected a YAML list of cases (or a mapping with a 'cases' list)")
    return ((f"{path}: line {node.start_mark.line + 1}", record) for node, record in zip(root.value, data))


def _yaml_error(path: Path, exc: Any, text: str = "") -> str:
    """A PyYAML error (several lines, each naming the stream) as one line: the file, the line and column of the
    problem, what is wrong and where the construct it was in began (a character YAML does not allow: its line in
    ``text``).

    >>> import yaml
    >>> try:
    ...     yaml.safe_load("cases:\\n  - {a: 1\\n  - b: [\\n")
    ... except yaml.YAMLError as exc:
    ...     print(_yaml_error(Path("c.yaml"), exc))
    c.yaml: line 3, column 6: not valid YAML (expected ',' or '}', but got ':'; while parsing a flow mapping that began at line 2, column 5)
    """
    mark, problem = getattr(exc, "problem_mark", None), getattr(exc, "problem", None)
    if isinstance(getattr(exc, "position", None), int) and isinstance(getattr(exc, "character", None), int):
        line = text.count("\n", 0, exc.position) + 1   # a ReaderError: a character position, no mark
        return (f"{path}: line {line}: not valid YAML (the character U+{exc.character:04X} is not allowed in "
                f"YAML; remove it or quote it as an escape)")
    if mark is None or problem is None:
        return f"{path}: not valid YAML ({' '.join(str(exc).split())})"
    context, context_mark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    began = f" that began at line {context_mark.line + 1}, column {context_mark.column + 1}" if context_mark else ""
    within = f"; {' '.join(context.split())}{began}" if context else ""
    return (f"{path}: line {mark.line + 1}, column {mark.column + 1}: not valid YAML ({' '.join(problem.split())}"
            f"{within})")


def _no_alias_loader(yaml: Any) -> Any:
    """PyYAML's safe loader refusing aliases (``*name``): an alias repeats a node without its bytes, so a few
    hundred bytes of nested aliases expand to gigabytes (a "billion laughs"); case files have no need for them."""

    class NoAliasLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                mark = self.peek_event().start_mark
                raise InputError(f"{mark.name}: line {mark.line + 1}: YAML aliases (*name) are not read in case "
                                 f"files; write the value out in full")
            return super().compose_node(parent, index)

    return NoAliasLoader


def _table_records(table: Any) -> Iterable[tuple[str, Any]] | None:
    """Rows of a pandas DataFrame or a pyarrow Table (recognised without importing either), else None."""
    module = type(table).__module__
    if module.startswith("pandas") and hasattr(table, "to_dict"):
        rows = table.to_dict("records")
    elif module.startswith("pyarrow") and hasattr(table, "to_pylist"):
        rows = table.to_pylist()
    else:
        return None
    return ((f"table row {index}", row) for index, row in enumerate(rows))


def _file_records(path: Path) -> Iterable[tuple[str, Any]]:
    suffix = path.suffix.lower()
    readers = {".jsonl": _jsonl_records, ".json": _json_records, ".csv": _csv_records, ".yaml": _yaml_records,
               ".yml": _yaml_records}
    if suffix not in readers:
        raise InputError(f"{path}: unknown cases format {suffix or '(no extension)'!r}; use one of "
                         f"{', '.join(SUFFIXES)}")
    return readers[suffix](path)


def load_cases(source: Any) -> list[TestCase]:
    """Test cases from a file path, a pandas / Arrow table, or an iterable of :class:`TestCase` or mappings.

    Cases without an ``id`` get ``case-N`` (N counts from 1 in input order); duplicate ids are an error.
    """
    if isinstance(source, (str, os.PathLike)):
        records: Iterable[tuple[str, Any]] = _file_records(Path(source))
    else:
        table = _table_records(source)
        if table is not None:
            records = table
        elif isinstance(source, Iterable) and not isinstance(source, (bytes, Mapping)):
            records = ((f"cases[{index}]", item) for index, item in enumerate(source))
        else:
            raise InputTypeError(f"cases must be a file path, a pandas/Arrow table or a list of TestCase objects or "
                                 f"mappings, got {type(source).__name__}")
    pairs = list(records)
    cases = [item if isinstance(item, TestCase) else case_from_mapping(item, where) for where, item in pairs]
    seen: dict[str, str] = {}
    given = {id(item) for _, item in pairs if isinstance(item, TestCase)}
    for index, case in enumerate(cases):
        if case.id is None:     # the caller's own TestCase objects are copied, not changed
            if id(case) in given:
                case = cases[index] = dataclasses.replace(case)
            case.id = f"case-{index + 1}"
        where = case.source or f"cases[{index}]"
        if case.id in seen:
            raise InputError(f"{where}: duplicate case id {case.id!r} (first at {seen[case.id]}); give every case a "
                             f"unique id")
        seen[case.id] = where
    return cases


__all__ = ["TestCase", "case_from_mapping", "load_cases"]
