"""Saved statistics in a data-only format: ``.npz`` with a JSON header, loaded without pickle.

A pickle runs code when it is loaded, so a tampered one cannot be refused safely; pickled :class:`Statistics`
are for handing statistics between processes of one run (Ray, multiprocessing) only. To keep statistics on disk
(a baseline, the parts of a corpus scored on several machines) use :func:`save_statistics` and
:func:`load_statistics`: the file holds two arrays, ``header`` (UTF-8 JSON, see :data:`HEADER_FIELDS`) and ``data``
(the ``(segments, columns)`` int64 or float64 table), with ``carried`` (the columns that follow the rows but are
never summed, see :class:`Statistics`) when the statistics have any, and every defect of a loaded file is an
:class:`~refscore.errors.InputError` naming the file and what is wrong.

>>> import os, tempfile
>>> from refscore.metrics.bleu import BLEU
>>> metric = BLEU()
>>> stats = metric.statistics(["the cat sat"], [["the cat sat down"]])
>>> path = os.path.join(tempfile.mkdtemp(), "part1.npz")
>>> save_statistics(path, stats)
>>> loaded = load_statistics(path, metric=metric)
>>> metric.score_from_statistics(loaded).score == metric.score_from_statistics(stats).score
True
"""
from __future__ import annotations

import json
import os
import struct
import tokenize
import zipfile
import zlib
from typing import Any

import numpy as np

from refscore._column_rules import first_overflowing_sum
from refscore._version import __version__
from refscore.errors import InputError, InputTypeError
from refscore.io.atomic import atomic_write
from refscore.io.limits import parse_bounded
from refscore.protocol import STATS_SCHEMA_VERSION, Metric, Statistics

#: The ``format`` value of every statistics file.
FORMAT_NAME = "refscore-statistics"
#: Bumped when the file layout changes; a file of another version is refused with the version that reads it.
FORMAT_VERSION = 1
#: The header's fields and their JSON types.
HEADER_FIELDS: dict[str, type | tuple[type, ...]] = {
    "format": str, "format_version": int, "refscore_version": str, "schema_version": int, "metric": str,
    "config_hash": str, "columns": list, "nrefs": int, "dtype": str, "shape": list,
}
#: The only array dtypes a statistics table may have (counts and per-document scores).
DTYPES = ("int64", "float64")
#: What reading a damaged archive raises (zipfile: unsupported versions and methods are NotImplementedError; a bad
#: deflate stream zlib.error; a truncated header struct.error; a .npy header numpy cannot parse, SyntaxError or
#: tokenize.TokenError from the tokenizer it falls back to): each becomes an InputError naming the file.
DAMAGED = (ValueError, OSError, EOFError, zipfile.BadZipFile, NotImplementedError, zlib.error, struct.error,
           SyntaxError, tokenize.TokenError)
#: The members of the ``.npz`` archive (``carried.npy`` only when the header names carried columns).
MEMBERS = frozenset({"header.npy", "data.npy"})


def save_statistics(path: str | os.PathLike[str], stats: Statistics) -> None:
    """Write ``stats`` to ``path`` (an ``.npz`` file, replaced atomically) in the data-only format.

    The header records the metric, its config hash, the column names, the reference count, the refscore version
    and the statistics schema version, so :func:`load_statistics` can refuse a file that does not match its data
    or the metric that reads it.
    """
    if not isinstance(stats, Statistics):
        raise InputTypeError(f"save_statistics: stats must be refscore Statistics, got {type(stats).__name__}")
    data = np.ascontiguousarray(stats.data)
    if data.dtype.name not in DTYPES:
        data = data.astype(np.int64 if data.dtype.kind == "i" else np.float64)
    header = {"format": FORMAT_NAME, "format_version": FORMAT_VERSION, "refscore_version": __version__,
              "schema_version": STATS_SCHEMA_VERSION, "metric": stats.metric, "config_hash": stats.config_hash,
              "columns": list(stats.columns), "nrefs": int(stats.nrefs), "dtype": data.dtype.name,
              "shape": list(data.shape)}
    arrays = {"data": data}
    carried_columns = tuple(getattr(stats, "carried_columns", ()))
    if carried_columns:
        header["carried_columns"] = list(carried_columns)
        arrays["carried"] = np.ascontiguousarray(stats.carried)
        header["carried_dtype"] = arrays["carried"].dtype.name
    encoded = np.frombuffer(json.dumps(header, ensure_ascii=False).encode("utf-8"), dtype=np.uint8)
    with atomic_write(path, "wb") as handle:
        np.savez(handle, header=encoded, **arrays)  # type: ignore[arg-type]  # named arrays, not allow_pickle


def load_statistics(path: str | os.PathLike[str], metric: Metric | None = None) -> Statistics:
    """Read statistics written by :func:`save_statistics`, checking every part (no pickle is ever loaded).

    With ``metric``, the statistics must also come from that metric with the same configuration (its config
    hash), as :meth:`Metric.check_statistics` requires; their columns are put in the metric's order by name
    (:attr:`Metric.statistics_columns`: a missing or unknown column is named) and their values checked against
    the metric's rules (:meth:`Metric.statistics_rules`: negative counts, matches above their totals). Any defect
    (not an ``.npz`` file, a missing, malformed or too deeply nested header, another format version, column names
    that do not match the data, another dtype, infinite values, an int64 column whose sum overflows; NaN is a
    value) raises :class:`~refscore.errors.InputError` naming the file.
    """
    name = os.fspath(path)
    try:
        # a single .npy array is refused unread: numpy would first allocate whatever its header claims
        single_array = _starts_with(name, np.lib.format.MAGIC_PREFIX)
        archive = None if single_array else np.load(name, allow_pickle=False)
    except FileNotFoundError:
        raise InputError(f"statistics file {name!r} does not exist") from None
    except DAMAGED as exc:
        raise InputError(f"statistics file {name!r} is not a refscore statistics file (.npz): {exc}") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise InputError(f"statistics file {name!r} is a single .npy array, not a refscore statistics file (.npz "
                         f"written by save_statistics)")
    with archive:
        members = set(archive.zip.namelist())  # type: ignore[union-attr]  # an opened file has its zip
        if "header.npy" not in members:
            raise InputError(f"statistics file {name!r} has no header: not written by refscore.save_statistics")
        header = _header(name, _member(archive, "header", name))
        expected = MEMBERS | ({"carried.npy"} if header["carried_columns"] else set())
        if members != expected:
            raise InputError(f"statistics file {name!r} holds {sorted(members)}; expected exactly "
                             f"{sorted(expected)} (written by refscore.save_statistics)")
        data = _member(archive, "data", name)
        carried = _member(archive, "carried", name) if header["carried_columns"] else None
    return _statistics(name, header, data, carried, metric)


def _starts_with(name: str, prefix: bytes) -> bool:
    with open(name, "rb") as handle:
        return handle.read(len(prefix)) == prefix


def _member(archive: Any, member: str, name: str) -> np.ndarray:
    _check_stored_array(archive.zip, f"{member}.npy", name)
    try:
        return archive[member]
    except ValueError as exc:
        if "pickle" not in str(exc):
            raise InputError(f"statistics file {name!r}: member {member!r} is damaged ({exc})") from None
        # object arrays need pickle: refused by allow_pickle=False
        raise InputError(f"statistics file {name!r}: member {member!r} cannot be read without pickle ({exc}); "
                         f"refscore statistics files hold plain int64/float64 arrays only") from None
    except (*DAMAGED, KeyError, MemoryError) as exc:
        raise InputError(f"statistics file {name!r}: member {member!r} is damaged ({exc})") from None


def _check_stored_array(archive: zipfile.ZipFile, member: str, name: str) -> None:
    """Refuse a member that zipfile or numpy cannot read safely, before reading it: an encrypted member (zipfile
    raises RuntimeError), a compression other than stored/deflated, and an array whose .npy header claims more
    bytes than the member holds (numpy would allocate them before finding out)."""
    try:
        info = archive.getinfo(member)
    except KeyError:
        raise InputError(f"statistics file {name!r} has no member {member!r}") from None
    if info.flag_bits & 0x1:
        raise InputError(f"statistics file {name!r}: member {member!r} is marked encrypted; save_statistics "
                         f"never encrypts, so the file is damaged or was not written by refscore")
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise InputError(f"statistics file {name!r}: member {member!r} uses zip compression method "
                         f"{info.compress_type}; statistics files are stored or deflated (.npz)")
    try:
        with archive.open(info) as handle:
            version = np.lib.format.read_magic(handle)
            read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                           (2, 0): np.lib.format.read_array_header_2_0}.get(version)
            if read_header is None:
                raise InputError(f"statistics file {name!r}: member {member!r} is a .npy array of format version "
                                 f"{version}; save_statistics writes version 1.0 or 2.0")
            shape, _, dtype = read_header(handle)
    except InputError:
        raise
    except tokenize.TokenError as exc:
        raise InputError(f"statistics file {name!r}: member {member!r} is damaged (its .npy header does not parse: "
                         f"{exc.args[0]})") from None
    except (*DAMAGED, RuntimeError) as exc:  # RuntimeError: zipfile's "encrypted" for a member it cannot open
        raise InputError(f"statistics file {name!r}: member {member!r} is damaged ({exc})") from None
    claimed = int(np.prod(shape, dtype=object)) * dtype.itemsize
    # the sizes in the zip directory are claims too: bound them by the file's size (deflate expands <= 1032x)
    holds = min(info.file_size, os.path.getsize(name) * (1 if info.compress_type == zipfile.ZIP_STORED else 1032))
    if claimed > holds:
        raise InputError(f"statistics file {name!r}: member {member!r} claims an array of shape {shape} "
                         f"({claimed:,} bytes) but holds at most {holds:,} bytes; the file is damaged")


def _header(name: str, raw: np.ndarray) -> dict[str, Any]:
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise InputError(f"statistics file {name!r}: the header must be UTF-8 JSON bytes, got a {raw.dtype} array "
                         f"of shape {raw.shape}")
    try:
        # nesting too deep (a header of '[' * 100000) is an InputError naming the file, not a RecursionError
        header = parse_bounded(json.loads, raw.tobytes().decode("utf-8"), f"statistics file {name!r}: the header")
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"statistics file {name!r}: the header is not UTF-8 JSON ({exc})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
        raise InputError(f"statistics file {name!r}: the header does not name the format {FORMAT_NAME!r}")
    if header.get("format_version") != FORMAT_VERSION:
        raise InputError(f"statistics file {name!r} has format version {header.get('format_version')!r}; this "
                         f"refscore ({__version__}) reads version {FORMAT_VERSION} (the file was written by "
                         f"refscore {header.get('refscore_version')!r}: load it with that version)")
    for field, kind in HEADER_FIELDS.items():
        value = header.get(field)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise InputError(f"statistics file {name!r}: header field {field!r} is missing or not a "
                             f"{_json_name(kind)} (got {value!r})")
    if header["schema_version"] != STATS_SCHEMA_VERSION:
        raise InputError(f"statistics file {name!r} holds statistics of schema version {header['schema_version']}; "
                         f"this refscore computes version {STATS_SCHEMA_VERSION}: recompute them")
    header.setdefault("carried_columns", [])
    names = header["columns"] + (header["carried_columns"] if isinstance(header["carried_columns"], list) else [0])
    if not all(isinstance(column, str) for column in names):
        raise InputError(f"statistics file {name!r}: header fields 'columns' and 'carried_columns' must be lists "
                         f"of names")
    if len(set(names)) != len(names):
        raise InputError(f"statistics file {name!r}: header field 'columns' names a column twice")
    return header


def _json_name(kind: type | tuple[type, ...]) -> str:
    names: dict[type | tuple[type, ...], str] = {str: "string", int: "integer", list: "list"}
    return names.get(kind, str(kind))


def _statistics(name: str, header: dict[str, Any], data: np.ndarray, carried: np.ndarray | None,
                metric: Metric | None) -> Statistics:
    columns = header["columns"]
    if data.dtype.name not in DTYPES or data.dtype.name != header["dtype"]:
        raise InputError(f"statistics file {name!r}: data has dtype {data.dtype}, header says {header['dtype']!r}; "
                         f"statistics are int64 or float64")
    if data.ndim != 2 or list(data.shape) != header["shape"] or data.shape[1] != len(columns):
        raise InputError(f"statistics file {name!r}: data has shape {data.shape}, but the header names "
                         f"{len(columns)} columns and shape {header['shape']}; the file does not match its data")
    if data.dtype.kind == "f" and np.isinf(data).any():  # NaN is a value (Statistics' rule), infinity is not
        row, column = np.argwhere(np.isinf(data))[0]
        raise InputError(f"statistics file {name!r}: segment {row}, column {columns[column]!r} is "
                         f"{data[row, column]}; saved statistics are finite numbers or NaN")
    if header["nrefs"] < -1 or header["nrefs"] == 0:
        raise InputError(f"statistics file {name!r}: nrefs is {header['nrefs']}; it is a positive reference "
                         f"count, or -1 when the count varies")
    if carried is not None:
        _check_carried(name, header, carried, data.shape[0])
        stats = Statistics(header["metric"], header["config_hash"], tuple(columns), data, header["nrefs"],
                           tuple(header["carried_columns"]), carried)
    else:
        stats = Statistics(header["metric"], header["config_hash"], tuple(columns), data, header["nrefs"])
    overflow = first_overflowing_sum(data)
    if overflow is not None:
        raise InputError(f"statistics file {name!r}: column {columns[overflow]!r} sums to more than an int64 holds "
                         f"over the {len(data):,} segments; no metric computes such counts: the file is damaged")
    return stats if metric is None else _for_metric(name, stats, metric)


def _for_metric(name: str, stats: Statistics, metric: Metric) -> Statistics:
    """``stats`` with the columns in ``metric``'s order, matched by name (the formulas read them by position), and
    their values checked against the metric's rules (:meth:`Metric.statistics_rules`)."""
    try:
        columns = metric.statistics_columns
        if stats.metric == metric.name and stats.config_hash == metric.config_hash and columns is not None:
            # carried columns are matched when the file has any (ROUGE scores without them, as before they existed)
            stats = stats.reordered(columns, metric.carried_statistics_columns if stats.carried_columns else None)
        metric.check_statistics(stats)
    except InputError as exc:
        raise InputError(f"statistics file {name!r}: {exc}") from None
    violation = metric.statistics_rules().first_violation(stats)
    if violation is not None:
        raise InputError(f"statistics file {name!r}: {violation}; {metric.name} never computes such statistics, so "
                         f"the file is damaged or was edited")
    return stats



def _check_carried(name: str, header: dict[str, Any], carried: np.ndarray, rows: int) -> None:
    names = header["carried_columns"]
    if carried.dtype.name not in DTYPES or carried.dtype.name != header.get("carried_dtype"):
        raise InputError(f"statistics file {name!r}: carried columns have dtype {carried.dtype}, header says "
                         f"{header.get('carried_dtype')!r}; they are int64 or float64")
    if carried.shape != (rows, len(names)):
        raise InputError(f"statistics file {name!r}: carried columns have shape {carried.shape}, expected "
                         f"{(rows, len(names))} (one row per segment, one column per carried name)")
    if carried.dtype.kind == "f" and np.isinf(carried).any():
        raise InputError(f"statistics file {name!r}: a carried column holds an infinity; saved statistics are "
                         f"finite numbers or NaN")


__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "load_statistics", "save_statistics"]
