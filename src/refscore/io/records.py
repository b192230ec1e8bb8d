"""One record (a hypothesis, its references, an optional system name) from a JSON line, a CSV/TSV row or a Parquet
row, with errors that say what is wrong so that the reader (:mod:`refscore.io.record_files`) can name the file and
the line.

The layout follows ``refscore score``'s record files: ``prediction`` holds the hypothesis, ``references`` a string
or a non-empty list of strings, an optional ``system`` field groups records into systems. The peers' words are
accepted for the default names (:data:`HYPOTHESIS_ALIASES`: ``hypothesis`` as sacreBLEU says, ``hyp``, ``output``;
:data:`REFERENCES_ALIASES`: ``reference``); a record that gives both a name and its alias is refused. Column names
are configurable (:class:`RecordLayout`); configured names have no aliases.

>>> layout = RecordLayout()
>>> layout.parse_json(b'{"prediction": "a cat", "references": ["a cat", "the cat"]}')
('a cat', ['a cat', 'the cat'], None)
>>> layout.parse_json(b'{"hypothesis": "a cat", "reference": "the cat"}')
('a cat', ['the cat'], None)
>>> try:
...     layout.parse_json(b'{"prediction": "a cat", "references": 3}')
... except BadRecord as error:
...     print(error)
'references' must be a string or a non-empty list of strings, got a int
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from refscore.wording import counted
from refscore.errors import InputError, UndecodableInputError
from refscore.io.digits import digit_limit_problem

__all__ = [
    "BadRecord", "HYPOTHESIS_ALIASES", "MalformedRecordError", "NotUtf8Record", "NotUtf8RecordError",
    "REFERENCES_ALIASES", "RecordFormatError", "RecordLayout", "UndecodableRecordError",
]


class BadRecord(ValueError):
    """A record that cannot be scored; the reader adds the file and the line (or row) to the message."""


class NotUtf8Record(BadRecord):
    """A record whose bytes are not UTF-8 (skippable as any bad record; when it stops the run, an
    :class:`UndecodableRecordError`)."""


class RecordFormatError(InputError):
    """A malformed record, named by file and line, that stopped the run (see ``skip_bad_records``)."""


class NotUtf8RecordError(RecordFormatError, UndecodableInputError):
    """A record file that is not UTF-8 where it is read as text (a CSV/TSV line); names the file and the line."""


class MalformedRecordError(RecordFormatError):
    """A record that cannot be scored stopped the run; ``problem`` names it (file, line, what is wrong) without the
    advice to skip such records, for commands that cannot skip them."""

    def __init__(self, problem: str) -> None:
        super().__init__(f"{problem}; fix the record, or skip such records with --skip-bad-records "
                         f"(skip_bad_records=True: they are counted and reported)")
        self.problem = problem


class UndecodableRecordError(MalformedRecordError, UndecodableInputError):
    """A record that is not UTF-8 stopped the run (the command line's status for undecodable input)."""


_MISSING = object()
#: Other names of the default hypothesis field ``prediction``: the peers' words (sacreBLEU's ``hypothesis``).
HYPOTHESIS_ALIASES: tuple[str, ...] = ("hypothesis", "hyp", "output")
#: Other names of the default references field ``references``.
REFERENCES_ALIASES: tuple[str, ...] = ("reference",)


def _json_type(value: Any) -> str:
    return "missing" if value is _MISSING else "null" if value is None else f"a {type(value).__name__}"


@dataclass(frozen=True)
class RecordLayout:
    """Which fields of a record hold the hypothesis, the references and (optionally) the system name.

    In CSV/TSV files every column whose name starts with ``references_column`` without a final ``s``
    (``reference``, ``reference_2``, ``references`` ...) is a reference, as in ``refscore score``. Parquet
    files name their columns as JSON Lines records name their fields (``references``: a string or a list of
    strings), or as CSV files do (string columns ``reference``, ``reference_2`` ...).
    """

    hypothesis_column: str = "prediction"
    references_column: str = "references"
    system_column: str | None = "system"

    def hypothesis_names(self) -> tuple[str, ...]:
        """The names of the hypothesis field: ``hypothesis_column``, then its aliases when it is the default."""
        aliases = HYPOTHESIS_ALIASES if self.hypothesis_column == "prediction" else ()
        return (self.hypothesis_column, *aliases)

    def references_names(self) -> tuple[str, ...]:
        """The names of the references field: ``references_column``, then its aliases when it is the default."""
        aliases = REFERENCES_ALIASES if self.references_column == "references" else ()
        return (self.references_column, *aliases)

    def field_names(self) -> set[str]:
        """Every field name this layout reads (with the aliases): the fields that are not metadata.

        >>> sorted(RecordLayout().field_names())
        ['hyp', 'hypothesis', 'output', 'prediction', 'reference', 'references', 'system']
        """
        return {*self.hypothesis_names(), *self.references_names(), *([self.system_column] if self.system_column
                                                                       else [])}

    def record(self, hypothesis: Any, references: Any, system: Any, has_system: bool) -> tuple[str, list[str],
                                                                                               str | None]:
        """The checked ``(hypothesis, references, system)`` of one record's field values."""
        if not isinstance(hypothesis, str):
            hint = '; use "" for an empty prediction' if hypothesis is None else ""
            raise BadRecord(f"{self.hypothesis_column!r} must be a string, got {_json_type(hypothesis)}{hint}")
        if isinstance(references, str):
            references = [references]
        elif isinstance(references, (list, tuple)) and references:
            references = list(references)
            for index, reference in enumerate(references):
                if not isinstance(reference, str):
                    hint = '; use "" for an empty reference' if reference is None else ""
                    raise BadRecord(f"{self.references_column}[{index}] is {_json_type(reference)}, expected a "
                                    f"string{hint}")
        else:
            got = "an empty list" if isinstance(references, (list, tuple)) else _json_type(references)
            raise BadRecord(f"{self.references_column!r} must be a string or a non-empty list of strings, got {got}")
        if has_system and (not isinstance(system, str) or not system):
            raise BadRecord(f"{self.system_column!r} must be a non-empty string, got {_json_type(system)}")
        return hypothesis, references, system if has_system else None

    def parse_json(self, line: bytes) -> tuple[str, list[str], str | None]:
        """The record of one JSON Lines line (UTF-8 bytes)."""
        try:
            value = json.loads(line)
        except UnicodeDecodeError as exc:
            raise NotUtf8Record(f"not valid UTF-8 ({exc.reason} at byte {exc.start}); re-encode the file as "
                                f"UTF-8") from None
        except json.JSONDecodeError as exc:
            raise BadRecord(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        except RecursionError:
            raise BadRecord("JSON arrays or objects nested too deeply") from None
        except ValueError as exc:   # Python's digit limit on integers (4,300 digits)
            problem = digit_limit_problem(exc, line)
            if problem is None:
                raise
            raise BadRecord(problem[1]) from None
        if not isinstance(value, dict):
            raise BadRecord(f"a JSON {type(value).__name__}, expected an object")
        has_system = self.system_column is not None and self.system_column in value
        return self.record(_field(value, self.hypothesis_names()), _field(value, self.references_names()),
                           value.get(self.system_column) if has_system else None, has_system)

    def table_columns(self, header: list[str], source: str) -> tuple[int, list[int], int | None]:
        """Positions of the hypothesis, reference and system columns in a CSV/TSV header (case-insensitive; the
        hypothesis column may have an alias's name)."""
        names = [name.strip().lower() for name in header]
        prefix = self.references_column.lower()
        prefix = prefix[:-1] if prefix.endswith("s") else prefix
        references = [i for i, name in enumerate(names) if name.startswith(prefix)]
        system = self.system_column.lower() if self.system_column else None
        given = [name.lower() for name in self.hypothesis_names() if name.lower() in names]
        if len(given) > 1:
            raise RecordFormatError(f"{source}: the header names the prediction twice ({given[0]!r} and its alias "
                                    f"{given[1]!r}); keep one")
        hypothesis = given[0] if given else self.hypothesis_column.lower()
        if names.count(hypothesis) != 1 or not references or (system is not None and names.count(system) > 1):
            raise RecordFormatError(
                f"{source}: the header line must name one {self.hypothesis_column!r} column, at least one "
                f"{prefix!r}... column and at most one {self.system_column!r} column, got {header}")
        return names.index(hypothesis), references, names.index(system) if system in names else None

    def parquet_columns(self, names: list[str], source: str) -> tuple[str, list[str], str | None]:
        """The hypothesis column, the reference column(s) and the system column (or None) of a Parquet schema:
        exact names first, else the CSV rule (case-insensitive, ``reference...`` prefix)."""
        lower = {name.lower(): name for name in names}

        def find(wanted: str | None) -> str | None:
            return None if wanted is None else wanted if wanted in names else lower.get(wanted.lower())

        hypothesis = next((found for found in map(find, self.hypothesis_names()) if found is not None), None)
        system = find(self.system_column)
        if self.references_column in names:  # the alias 'reference' falls under the CSV rule's prefix below
            references = [self.references_column]
        else:
            prefix = self.references_column.lower()
            prefix = prefix[:-1] if prefix.endswith("s") else prefix
            references = [name for name in names if name.lower().startswith(prefix)]
        if hypothesis is None or not references:
            missing = self.hypothesis_column if hypothesis is None else self.references_column
            raise RecordFormatError(f"{source}: no column {missing!r}; the columns are {names} (name them "
                                    f"{self.hypothesis_column!r} and {self.references_column!r})")
        return hypothesis, references, system

    def parse_columns(self, values: list[Any], system: Any, has_system: bool) -> tuple[str, list[str], str | None]:
        """The record of one Parquet row: ``values`` holds the hypothesis and then one value per reference column
        (a single column may hold a list; several string columns lose their empty values, as CSV fields do)."""
        hypothesis, *references = values
        if len(references) == 1:
            return self.record(hypothesis, references[0], system, has_system)
        return self.record(hypothesis, [r for r in references if r != "" and r is not None] or [""], system,
                           has_system)

    def parse_row(self, row: list[str], header_size: int, columns: tuple[int, list[int], int | None]) -> tuple[
            str, list[str], str | None]:
        """The record of one CSV/TSV row (empty reference fields are dropped; none left is one empty reference)."""
        if len(row) != header_size:
            raise BadRecord(f"{counted(len(row), 'field')} but the header has {counted(header_size, 'column')}; every "
                            f"row needs one field per column (an empty reference is an empty field)")
        hypothesis, references, system = columns
        return self.record(row[hypothesis], [row[i] for i in references if row[i]] or [""],
                           row[system] if system is not None else None, system is not None)


def _field(record: dict[str, Any], names: tuple[str, ...]) -> Any:
    """The value of the field called ``names[0]`` or one of its aliases (``names[1:]``); ``_MISSING`` when the
    record has none of them. Two of the names at once are ambiguous: an error.

    >>> _field({"hyp": "a cat", "id": 3}, ("prediction", "hypothesis", "hyp"))
    'a cat'
    """
    given = [name for name in names if name in record]
    if len(given) > 1:
        raise BadRecord(f"both {given[0]!r} and {given[1]!r} are given, which name the same field "
                        f"({names[0]!r}); keep one")
    if given:
        return record[given[0]]
    fields = ", ".join(repr(name) for name in list(record)[:12]) + (" ..." if len(record) > 12 else "")
    also = f" (or {', '.join(repr(alias) for alias in names[1:])})" if names[1:] else ""
    raise BadRecord(f"no field {names[0]!r}{also}; the record has {fields or 'no fields'}")
