"""The fields of JSONL / CSV / TSV records beyond the prediction, references and system: metadata buckets of
``refscore report``, the segment ids (``id``) and sources (``source``), and the ids by which ``-m file:PATH``
scores join the records (:func:`refscore.cli.metric_setup.keyed_inputs`). Parquet files give none (yet).
"""
from __future__ import annotations

import json
from typing import Any

from refscore.cli.io import read_lines
from refscore.io.record_files import input_kind, table_rows
from refscore.io.records import RecordLayout

#: Record fields that are not metadata ("source" and "id" fields are kept with the metadata, then split off as the
#: sources and the segment ids); the aliases of the prediction and references fields are not metadata either.
_RESERVED = RecordLayout().field_names()


def _jsonl_metadata(path: str) -> list[tuple[Any, dict[str, str]]]:
    rows = []
    for line in read_lines(path):
        if line.strip():
            record = json.loads(line)  # already validated by the record reader
            fields = {key: str(value) for key, value in record.items()
                      if key not in _RESERVED and isinstance(value, (str, int, float, bool))}
            rows.append((record.get("system"), fields))
    return rows


def _table_metadata(path: str) -> list[tuple[Any, dict[str, str]]]:
    rows = [row for _, row in table_rows(path)]
    names = [name.strip() for name in rows[0]] if rows else []
    extra = [i for i, name in enumerate(names)
             if name.lower() not in _RESERVED and not name.lower().startswith("reference")]
    system = next((i for i, name in enumerate(names) if name.lower() == "system"), None)
    return [(row[system] if system is not None else None, {names[i]: row[i] for i in extra}) for row in rows[1:]]


def record_metadata(paths: list[str], baseline_name: str) -> dict[str, list[str]]:
    """Metadata fields of the baseline system's records (one value per segment; missing values are empty).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "in.jsonl")
    >>> records = [{"prediction": "a", "references": ["a"], "domain": "news"},
    ...            {"prediction": "b", "references": ["b"], "doc": 7}]
    >>> with open(path, "w") as stream:
    ...     _ = stream.write("".join(json.dumps(record) + chr(10) for record in records))
    >>> record_metadata([path], path)
    {'domain': ['news', ''], 'doc': ['', '7']}
    """
    rows: list[dict[str, str]] = []
    for path in paths:
        kind = input_kind(path)
        if kind == "parquet":  # metadata columns of Parquet files are not read (yet): no buckets
            continue
        records = _jsonl_metadata(path) if kind == "jsonl" else _table_metadata(path)
        for system, fields in records:
            name = path if system is None else f"{path}:{system}"
            if name == baseline_name:
                rows.append(fields)
    keys = list(dict.fromkeys(key for fields in rows for key in fields))
    return {key: [fields.get(key, "") for fields in rows] for key in keys}


def split_field(metadata: dict[str, list[str]], field: str) -> tuple[dict[str, list[str]], list[str] | None]:
    """The records' field ``field`` (any case: ``source``, ``id``) apart from the metadata.

    >>> split_field({"ID": ["a", "b"], "domain": ["x", "y"]}, "id")
    ({'domain': ['x', 'y']}, ['a', 'b'])
    """
    key = next((k for k in metadata if k.lower() == field), None)
    if key is None:
        return metadata, None
    return {k: v for k, v in metadata.items() if k != key}, metadata[key]


__all__ = ["record_metadata", "split_field"]
