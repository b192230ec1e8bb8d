"""Record files as a Ray Dataset: a Ray Data :class:`Datasource` whose read tasks are the read units of
:mod:`refscore.io.record_files`. Each row carries its position key (``__file``, ``__start``, ``__end``) and, for
a malformed record that is skipped, its error message (``__bad``), so the merge can order, count and report rows
whichever worker read them.

>>> from refscore.distributed.datasource import KEY_COLUMNS
>>> KEY_COLUMNS
('__file', '__start', '__end', '__bad')
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from refscore.distributed._ray import import_ray
from refscore.io.records import RecordLayout
from refscore.io.record_files import (DEFAULT_CHUNK_RECORDS, DEFAULT_UNIT_BYTES, Chunk, Unit, plan_units,
                                      read_unit)

KEY_COLUMNS = ("__file", "__start", "__end", "__bad")
#: The columns every record row has, besides the keys; ``__system`` is None where records name no system.
HYPOTHESIS, REFERENCES, SYSTEM = "__hypothesis", "__references", "__system"


def chunk_table(chunk: Chunk) -> Any:
    """A chunk of records as an Arrow table (references as a list of strings per row)."""
    import pyarrow as pa

    n = len(chunk)
    return pa.table({
        "__file": pa.array([chunk.file_index] * n, pa.int32()),
        "__start": pa.array(chunk.starts, pa.int64()),
        "__end": pa.array(chunk.ends, pa.int64()),
        "__bad": pa.array(chunk.bad, pa.string()),
        HYPOTHESIS: pa.array(chunk.hypotheses, pa.string()),
        REFERENCES: pa.array(chunk.references, pa.list_(pa.string())),
        SYSTEM: pa.array(chunk.systems, pa.string()),
    })


def _read(unit: Unit, layout: RecordLayout, skip_bad_records: bool, chunk_records: int) -> Iterator[Any]:
    for chunk in read_unit(unit, layout, skip_bad_records, chunk_records):
        yield chunk_table(chunk)


def record_datasource(paths: Sequence[str], layout: RecordLayout, skip_bad_records: bool = False,
                      unit_bytes: int = DEFAULT_UNIT_BYTES, chunk_records: int = DEFAULT_CHUNK_RECORDS) -> Any:
    """A Ray Data datasource reading the records of ``paths`` (expanded files, in input order)."""
    import_ray()
    from ray.data.block import BlockMetadata
    from ray.data.datasource import Datasource, ReadTask

    units = plan_units(paths, unit_bytes)

    class RecordDatasource(Datasource):
        """Read tasks over the read units of refscore record files (JSON Lines, CSV/TSV, Parquet)."""

        unit_count = len(units)

        def get_name(self) -> str:
            return "RefscoreRecords"

        def estimate_inmemory_data_size(self) -> int | None:
            return None

        def get_read_tasks(self, parallelism: int, per_task_row_limit: int | None = None,
                           data_context: Any = None) -> list[Any]:
            # one task per unit: the units already have a size that suits one task; ``parallelism`` only says
            # how many Ray would like at least
            return [ReadTask(lambda unit=unit: _read(unit, layout, skip_bad_records,  # type: ignore[misc]  # bound
                                                     chunk_records),
                             BlockMetadata(num_rows=None, size_bytes=None,
                                           input_files=[unit.path],  # type: ignore[arg-type]  # as Ray's own
                                           exec_stats=None), per_task_row_limit=per_task_row_limit)
                    for unit in units]

    return RecordDatasource()


def read_records(paths: Sequence[str], layout: RecordLayout, skip_bad_records: bool = False,
                 unit_bytes: int = DEFAULT_UNIT_BYTES, chunk_records: int = DEFAULT_CHUNK_RECORDS) -> Any:
    """The records of ``paths`` as a Ray Dataset (columns: the keys, ``__hypothesis``, ``__references``,
    ``__system``)."""
    ray = import_ray()
    source = record_datasource(paths, layout, skip_bad_records, unit_bytes, chunk_records)
    # as many blocks as read units: Ray Data would otherwise split the units' output to reach its own block count,
    # which keeps it from fusing the read with the statistics pass into one task
    return ray.data.read_datasource(source, override_num_blocks=source.unit_count)
