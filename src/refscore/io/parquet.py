"""Parquet record files read within the read budget (:mod:`refscore.io.limits`: the file's size on disk and its
row groups' uncompressed size against ``REFSCORE_MAX_INPUT_BYTES``, each text value against
``REFSCORE_MAX_LINE_BYTES``), pyarrow's errors for a damaged file as one line naming the file (and the row group).
pyarrow is imported on first use (the ``parquet`` extra)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from refscore.errors import MissingExtraError
from refscore.io.limits import LineTooLongError, MAX_LINE_BYTES_VARIABLE, check_file_size, max_line_bytes
from refscore.io.records import RecordFormatError

__all__ = ["check_value_lengths", "parquet_batches", "parquet_error", "parquet_file", "parquet_module"]


def parquet_module() -> Any:
    """``pyarrow.parquet``, imported on first use; without pyarrow a :class:`MissingExtraError` that names
    ``pip install 'refscore[parquet]'``."""
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise MissingExtraError("Parquet record files", "parquet", getattr(exc, "name", None) or "pyarrow") \
            from None
    return pq


def parquet_error(path: str, exc: Exception, where: str = "") -> RecordFormatError:
    """pyarrow's error for a damaged Parquet file (several lines) as one line naming the file (and ``where``: the
    row group).

    >>> damaged = OSError("Couldn't deserialize thrift: \\nDeserializing page header failed.\\n")
    >>> print(parquet_error("r.parquet", damaged, "row group 1"))
    r.parquet: row group 1: not a readable Parquet file (Couldn't deserialize thrift: Deserializing page header failed.)
    """
    place = f" {where}:" if where else ""
    return RecordFormatError(f"{path}:{place} not a readable Parquet file ({' '.join(str(exc).split())})")


def parquet_file(path: str) -> Any:
    """An open ``pyarrow.parquet.ParquetFile`` within the read budget (its size on disk and its row groups'
    uncompressed size); a file that is not Parquet is a one-line error naming it."""
    pq = parquet_module()
    import pyarrow as pa

    check_file_size(path)
    try:
        parquet = pq.ParquetFile(path)
    except (pa.ArrowException, OSError) as exc:
        raise parquet_error(path, exc) from None
    metadata = parquet.metadata
    check_file_size(path, sum(metadata.row_group(g).total_byte_size for g in range(metadata.num_row_groups)))
    return parquet


def parquet_batches(parquet: Any, path: str, group: int, chunk_records: int, names: list[str]) -> Iterator[Any]:
    """The record batches of the columns ``names`` of row group ``group`` (from 0); a damaged page is a one-line
    error naming the file and the row group."""
    import pyarrow as pa

    batches = parquet.iter_batches(batch_size=chunk_records, row_groups=[group], columns=names)
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except (pa.ArrowException, OSError) as exc:
            raise parquet_error(path, exc, f"row group {group + 1}") from None
        yield batch


def check_value_lengths(batch: Any, path: str, first_row: int) -> None:
    """Every text value of a record batch (string columns, lists of strings) within the line budget
    (:func:`~refscore.io.limits.max_line_bytes`), checked on Arrow's lengths without converting a value; else a
    :class:`~refscore.io.limits.LineTooLongError` naming the row (``first_row`` is the batch's first, from 0) and
    the column."""
    import pyarrow as pa
    import pyarrow.compute as pc

    limit = max_line_bytes()
    for name, column in zip(batch.schema.names, batch.columns):
        kind = column.type
        is_list = pa.types.is_list(kind) or pa.types.is_large_list(kind)
        values = pc.list_flatten(column) if is_list else column
        if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)
                or pa.types.is_binary(values.type) or pa.types.is_large_binary(values.type)):
            continue
        over = pc.indices_nonzero(pc.fill_null(pc.greater(pc.binary_length(values), limit), False))
        if len(over):
            index = over[0].as_py()
            row = pc.list_parent_indices(column)[index].as_py() if is_list else index
            raise LineTooLongError(f"{path}: row {first_row + row + 1}: {name!r} holds a value longer than {limit} "
                                   f"bytes, the longest line read; split it, or raise the limit with "
                                   f"{MAX_LINE_BYTES_VARIABLE}=<bytes>")
