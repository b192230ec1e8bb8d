"""Parquet record files opened within the read budget (:mod:`refscore.io.limits`: the file's size on disk and its
row groups' uncompressed size against ``REFSCORE_MAX_INPUT_BYTES``), pyarrow's errors for a damaged file as one
line naming the file (and the row group). pyarrow is imported on first use (the ``parquet`` extra)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from refscore.errors import MissingExtraError
from refscore.io.limits import check_file_size
from refscore.io.records import RecordFormatError

__all__ = ["parquet_batches", "parquet_error", "parquet_file", "parquet_module"]


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

    >>> print(parquet_error("r.parquet", OSError("Couldn't deserialize thrift: \\nDeserializing page header failed.\\n"), "row group 1"))
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
