"""Fuzz target of saved statistics' headers (refscore.io.statistics), registered in :data:`targets.TARGETS`.

* ``statistics-header``: a valid statistics file of a drawn metric (BLEU: int64 counts; TER: float64; ROUGE:
  float64 with carried columns; chrF++) with its header or an array header changed, one fuzzer-chosen edit:

  - ``permute``: columns (and carried columns) permuted in the header and the data together: loaded with the
    metric, the statistics equal the original bit for bit and score the same (columns are matched by name);
  - ``rename``: a column renamed, dropped or duplicated: loading with the metric is an ``InputError``;
  - ``field``: a header field set to a drawn JSON value (strings, huge and negative integers, floats, lists,
    objects, null, booleans) or removed;
  - ``value``: one cell set to a drawn value (negative, huge, NaN, an int64 extreme);
  - ``raw``: the JSON header replaced by fuzzer bytes or by brackets nested to a drawn depth;
  - ``npy``: the ``.npy`` header of ``data`` or ``header`` replaced by a drawn Python-literal-like text.

  Every file is refused with refscore's own error (``RefscoreError``) or loads into statistics whose columns are
  the metric's, whose values pass the metric's rules (``Metric.statistics_rules``) with int64 totals that did not
  wrap, and which score without any other exception (a NaN only where the data holds one).
"""
from __future__ import annotations

import io
import json
import math
import os
import tempfile
import zipfile

import numpy as np

import refscore
from refscore.errors import RefscoreError
from refscore.io.statistics import load_statistics, save_statistics

#: Characters of a drawn .npy header: Python literal syntax (quotes, brackets, escapes) and a few others.
NPY_ALPHABET = "{}()[]'\"\\:,. _-+0123456789<>|fiuUbdescrshapefortran_orderTrueFalseNone#\n\t\x00é"
#: Drawn JSON values of a header field.
FIELD_VALUES = ("", "x", "refscore-statistics", 0, 1, -1, 2, 10**30, -10**30, 1.5, float("nan"), [], [1], ["a"],
                {}, {"a": 1}, None, True, False)
#: Drawn values of a statistics cell.
CELL_VALUES = (-1, 0, 1, 7, 10**6, 2**62, 2**63 - 1, -2**63, -0.5, 0.5, 1e300, float("nan"))
EDITS = ("permute", "rename", "field", "value", "raw", "npy")


def _metrics() -> tuple[refscore.protocol.Metric, ...]:
    return (refscore.BLEU(), refscore.TER(), refscore.ROUGE(types=("rouge1", "rougeL")), refscore.CHRF(word_order=2))


def statistics_header(data: bytes) -> None:
    from targets import Source

    source = Source(data)
    edit = source.choice(EDITS)   # first: the first byte picks the edit, the second the metric
    metric = source.choice(_metrics())
    texts = [source.text(12) or "a" for _ in range(4)]
    stats = metric.statistics(texts[:2], [[texts[2]], [texts[3]]])
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "s.npz")
        save_statistics(path, stats)
        with np.load(path) as archive:
            members = {name: archive[name] for name in archive.files}
        header = json.loads(members["header"].tobytes())
        npy = _edit(edit, source, header, members)
        if edit != "raw":   # (raw replaced the encoded header itself)
            members["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
        if npy is None:
            np.savez(path, **members)
        else:
            _write_with_npy_header(path, members, *npy)
        try:
            loaded = load_statistics(path, metric=metric)
        except RefscoreError:
            assert edit != "permute", "a consistently permuted file was refused"
            return
    assert edit != "rename", f"a renamed column was accepted: {loaded.columns}"
    _check_loaded(metric, loaded)
    if edit == "permute":
        np.testing.assert_array_equal(loaded.data, stats.data)
        np.testing.assert_array_equal(loaded.carried, stats.carried)
        same = metric.score_from_statistics(loaded).score, metric.score_from_statistics(stats).score
        assert same[0] == same[1] or (math.isnan(same[0]) and math.isnan(same[1])), same


def _edit(edit: str, source, header: dict, members: dict) -> tuple[str, str] | None:
    """Apply one edit to ``header`` and ``members`` in place; for ``npy`` the member whose .npy header is to be
    replaced and the replacement text, else None."""
    columns = header["columns"]
    if edit == "permute":
        order = sorted(range(len(columns)), key=lambda _: source.integer(0, 255))
        header["columns"] = [columns[i] for i in order]
        members["data"] = np.ascontiguousarray(members["data"][:, order])
        carried = header.get("carried_columns") or []
        if carried:
            kept = sorted(range(len(carried)), key=lambda _: source.integer(0, 255))
            header["carried_columns"] = [carried[i] for i in kept]
            members["carried"] = np.ascontiguousarray(members["carried"][:, kept])
    elif edit == "rename":
        at = source.integer(0, len(columns) - 1)
        kind = source.integer(0, 2)
        if kind == 0:
            columns[at] = source.text(8) + "_"   # never one of the metric's names, which have no trailing _
        elif kind == 1:
            del columns[at]
            members["data"] = np.ascontiguousarray(np.delete(members["data"], at, axis=1))
            header["shape"] = list(members["data"].shape)
        else:
            columns[at] = columns[(at + 1) % len(columns)]
    elif edit == "field":
        field = source.choice(sorted(header) + ["extra", "carried_dtype"])
        if source.integer(0, 5) == 0:
            header.pop(field, None)
        else:
            header[field] = source.choice(FIELD_VALUES)
    elif edit == "value":
        data = members["data"].copy()
        value = source.choice(CELL_VALUES)
        if data.dtype.kind == "i" and not isinstance(value, int):
            data = data.astype(np.float64)   # a count table saved as floats
            header["dtype"] = "float64"
        data[source.integer(0, data.shape[0] - 1), source.integer(0, data.shape[1] - 1)] = value
        members["data"] = data
    elif edit == "raw":
        depth = source.integer(0, 3)
        raw = (b"[" * 10 ** (depth + 2)) if depth else source.data[source.position:source.position + 256]
        members["header"] = np.frombuffer(raw, np.uint8)
    elif edit == "npy":
        member = source.choice(("data", "header"))
        return member, "".join(source.choice(NPY_ALPHABET) for _ in range(source.integer(0, 80)))
    return None


def _write_with_npy_header(path: str, members: dict, member: str, text: str) -> None:
    """The archive of ``members`` with the .npy header of ``member`` replaced by ``text`` (padded or cut to the
    header's length, so that the array's bytes stay where they were)."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, array in members.items():
            buffer = io.BytesIO()
            np.save(buffer, array)
            content = buffer.getvalue()
            if name == member:
                length = int.from_bytes(content[8:10], "little")
                body = ((text + " " * length)[:length - 1] + "\n").encode("latin-1", "replace")
                content = content[:10] + body + content[10 + length:]
            archive.writestr(f"{name}.npy", content)


def _check_loaded(metric, loaded) -> None:
    assert loaded.columns == metric.statistics_columns, (loaded.columns, metric.statistics_columns)
    assert metric.statistics_rules().first_violation(loaded) is None
    if loaded.data.dtype.kind == "i":
        exact = [sum(int(v) for v in loaded.data[:, j]) for j in range(loaded.data.shape[1])]
        assert exact == [int(v) for v in loaded.totals()], "int64 totals wrapped around"
    score = metric.score_from_statistics(loaded).score
    assert not math.isnan(score) or bool(np.isnan(loaded.data).any()), (score, loaded.data)


STATISTICS_TARGETS = {"statistics-header": statistics_header}
