"""Where ``refscore score`` runs: ``--engine local`` (the default: in memory, or streamed in bounded memory for
large record files and ``--skip-bad-records``) or ``--engine ray [--address ADDR]`` (Ray Data, exact: the same
output as the local run, signatures included).

    refscore score -m bleu,chrf -i 'runs/*.jsonl' --engine ray --address auto
    refscore score -m bleu -i huge.jsonl --skip-bad-records
"""
from __future__ import annotations

import argparse
import glob
import os
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from refscore.wording import counted
from refscore.cli.exit_codes import CliError, ExitCode, input_error_code
from refscore.errors import InputError

if TYPE_CHECKING:   # `refscore score --help` adds this module's flags without the inputs' and metrics' modules
    from refscore.protocol import Metric

#: Record files larger than this are streamed by the local engine (statistics accumulate per chunk); for Parquet
#: the uncompressed size of its row groups counts.
STREAM_BYTES = 64 << 20
#: Skipped malformed records listed on stderr one per line; the rest are counted.
LISTED_BAD_RECORDS = 20



@dataclass
class EngineRun:
    """What an engine computed, for :mod:`refscore.cli.score` to turn into result rows and print: either every
    segment's ``statistics`` (system -> one :class:`~refscore.protocol.Statistics` per metric, in ``-m`` order) or
    the ``totals`` of a run that kept only column totals (system -> metric name -> the :class:`Score` of the
    merged totals), with ``segments`` (system -> metric name -> score name -> per-segment values, 0–100) where they
    were collected, and ``segments_printed`` when ``--segments`` text rows went to stdout as each chunk was done
    (only the signatures remain to print)."""

    statistics: dict[str, list[Any]] | None = None
    totals: dict[str, dict[str, Any]] | None = None
    segments: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    segments_printed: bool = False


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", choices=("local", "ray"), default="local",
                        help="local: this process (default); ray: Ray Data on the cluster at --address (exact: "
                        "the same result as local)")
    parser.add_argument("--address", default=None, metavar="ADDR",
                        help="Ray cluster address for --engine ray (default: start or join a local Ray)")
    parser.add_argument("--skip-bad-records", action="store_true",
                        help="JSONL/CSV/TSV/Parquet inputs: leave out malformed records, count them and list them "
                        "on stderr (default: stop at the first, naming its file and line)")


def _record_paths(args: argparse.Namespace) -> list[str]:
    from refscore.cli.io import is_record_file

    paths = []
    for pattern in args.input or []:
        matches = sorted(glob.glob(pattern)) if glob.has_magic(pattern) and is_record_file(pattern) else []
        paths += matches or [pattern]  # a pattern that matches nothing stays, to be reported as unreadable
    return paths


def takes_over(args: argparse.Namespace) -> bool:
    """Whether this module runs the command (otherwise ``refscore score`` reads everything into memory)."""
    if getattr(args, "engine", "local") == "ray" or getattr(args, "skip_bad_records", False):
        return True
    from refscore.cli.io import is_record_file
    from refscore.io.record_files import record_bytes

    paths = _record_paths(args)
    return bool(paths) and all(is_record_file(p) for p in paths) and any(
        os.path.isfile(p) and record_bytes(p) > STREAM_BYTES for p in paths)


def _report_bad(bad: list[str]) -> None:
    if not bad:
        return
    print(f"refscore: skipped {counted(len(bad), 'malformed record')}:", file=sys.stderr)
    for message in bad[:LISTED_BAD_RECORDS]:
        print(f"  {message}", file=sys.stderr)
    if len(bad) > LISTED_BAD_RECORDS:
        print(f"  ... and {len(bad) - LISTED_BAD_RECORDS} more", file=sys.stderr)


def score_on_engine(metrics: list[Metric], args: argparse.Namespace) -> EngineRun:
    """``refscore score`` on the selected engine: what it computed, printed by refscore.cli.score as the in-memory
    run is."""
    from refscore.cli.io import STDIN, check_distinct_systems, check_readable, check_stdin_once, is_record_file

    paths = _record_paths(args)
    check_stdin_once(args.references + (args.input or [STDIN]))
    check_distinct_systems(paths or [STDIN])
    record_inputs = bool(paths) and all(is_record_file(p) for p in paths)
    if paths and any(is_record_file(p) for p in paths) and (not record_inputs or args.references):
        raise CliError("JSONL/CSV/TSV/Parquet inputs carry their own references: give only such files to -i and "
                       "no -r", ExitCode.USAGE)
    if args.skip_bad_records and not record_inputs:
        raise CliError("--skip-bad-records applies to record files (JSONL/CSV/TSV/Parquet) given with -i",
                       ExitCode.USAGE)
    for path in paths if record_inputs else []:
        check_readable(path, "-i")
    try:
        if args.engine == "ray":
            return _score_on_ray(metrics, args, paths if record_inputs else None)
        return _score_streamed(metrics, args, paths)
    except Exception as error:   # a Ray task's error: one line with its cause, not the task's traceback
        raise _ray_error(error) from None


def _ray_error(error: Exception) -> Exception:
    """A Ray task's failure as one error line: its cause (a bad record: exit 7), or what Ray says went wrong
    (a lost worker, an out-of-memory kill: one line of it, exit 7 as for other failures of a run's input)."""
    from refscore.distributed import task_cause

    cause = task_cause(error)
    first_line = str(cause).split("\n", 1)[0].strip()   # Ray appends its retry advice on further lines
    if isinstance(cause, InputError):
        return CliError(first_line, input_error_code(cause))
    if cause is error and not (type(error).__module__ or "").startswith("ray."):
        return error   # not Ray's: main() reports it as any other error
    return CliError(f"the Ray engine failed: {type(cause).__name__}: {first_line or 'no message'}",
                    ExitCode.BAD_INPUT)


def _score_on_ray(metrics: list[Metric], args: argparse.Namespace, record_paths: list[str] | None) -> EngineRun:
    import refscore.distributed as rd
    from refscore.distributed import ensure_ray, quiet_task_failures
    from refscore.distributed.api import file_totals, integer_statistics
    from refscore.io.records import RecordLayout

    ray = ensure_ray(args.address, quiet=args.progress is False)
    quiet_task_failures()   # a failed task is reported once, as one line (_ray_error)
    statistics: dict[str, list[Any]] = {}
    bad: list[str] = []
    if record_paths is not None and not (args.segments or args.confidence) and integer_statistics(metrics):
        merged_totals: dict[str, dict[str, Any]] = {}
        for path in record_paths:  # only column totals travel: the corpus is not bounded by this process's memory
            totals = file_totals(path, metrics, RecordLayout(), args.skip_bad_records)
            bad += totals.bad_records
            merged_totals.update({system if system == path else f"{path}:{system}": scores
                                  for system, scores in totals.scores.items()})
        _report_bad(bad)
        return EngineRun(totals=merged_totals)
    if record_paths is not None:
        for path in record_paths:  # each file is one system, or one per 'system' value, as in the local run
            merged = rd.statistics(path, metrics, skip_bad_records=args.skip_bad_records)
            bad += merged.bad_records
            for system, stats in merged.statistics.items():
                statistics[system if system == path else f"{path}:{system}"] = stats
    else:
        import pyarrow as pa

        from refscore.cli.io import read_text_inputs

        systems, references = read_text_inputs(args.references, args.input or ["-"])
        names = list(systems)
        table = pa.table({
            "__index": pa.array(range(len(names) * len(references)), pa.int64()),
            "system": [name for name in names for _ in references],
            "prediction": [h for name in names for h in systems[name]],
            "references": [r for _ in names for r in references]})
        merged = rd.statistics(ray.data.from_arrow(table), metrics, index_column="__index")
        statistics = {name: merged.statistics[name] for name in names}
    _report_bad(bad)
    return EngineRun(statistics=statistics)


def _score_streamed(metrics: list[Metric], args: argparse.Namespace, paths: list[str]) -> EngineRun:
    """The local engine in bounded memory: statistics accumulate per chunk; ``--segments`` text rows are printed
    as each chunk is done (JSON needs the whole document, so its segment columns are collected)."""
    from refscore.cli.output import segment_header, segment_lines
    from refscore.streaming import stream_scores

    if args.confidence:  # intervals resample segments: keep every segment's statistics
        from refscore.streaming import stream_statistics

        statistics, bad = stream_statistics(paths, metrics, skip_bad_records=args.skip_bad_records,
                                            num_threads=args.num_threads)
        _report_bad(bad)
        return EngineRun(statistics=statistics)
    streamed_text = args.segments and args.format != "json"
    collected: dict[str, dict[str, list[Any]]] = {}
    header_written = False

    def on_segments(system: str, first: int, tables: dict[str, Any]) -> None:
        nonlocal header_written
        if streamed_text:
            if not header_written:
                print(segment_header(list(tables)))
                header_written = True
            lines = segment_lines(system, first, list(tables.values()), args.width)
            if lines:
                print("\n".join(lines))
        else:
            for name, values in tables.items():
                collected.setdefault(system, {}).setdefault(name, []).extend(values.tolist())

    result = stream_scores(paths, metrics, skip_bad_records=args.skip_bad_records, num_threads=args.num_threads,
                           on_segments=on_segments if args.segments else None, percent=True)
    _report_bad(result.bad_records)
    if args.segments and not streamed_text:
        import numpy as np

        segments = {system: {metric.name: {name: np.asarray(collected.get(system, {}).get(name, []), dtype=np.float64)
                                           for name in metric.score_names} for metric in metrics}
                    for system in result.scores}
        return EngineRun(totals=result.scores, segments=segments)
    return EngineRun(totals=result.scores, segments_printed=streamed_text)
