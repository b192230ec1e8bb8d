"""``refscore report``: one self-contained HTML page analysing systems with several metrics.

    refscore report -r ref.txt -i baseline.txt sysA.txt sysB.txt -m bleu,chrf,ter -o report.html
    refscore report -i outputs.jsonl -m bleu,chrf -o report.html   # records with 'system' and metadata fields

Inputs are read as by ``compare`` (plain text with ``-r``, or JSONL/CSV/TSV/Parquet records sharing their
references). Extra scalar fields of JSONL records (and extra CSV/TSV columns) become metadata buckets (domain,
document ...); Parquet files give no metadata buckets.
"""
from __future__ import annotations

import argparse
import json
from typing import Any

from refscore._record_files import input_kind, table_rows
from refscore.cli.arguments import positive_int
from refscore.cli.io import CliError, check_distinct_systems, check_stdin_once, is_record_file, read_lines
from refscore.cli.exit_codes import ExitCode

#: Record fields that are not metadata (a "source" field is kept with the metadata, then split off as the sources).
_RESERVED = {"prediction", "references", "system", "id"}


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


def split_sources(metadata: dict[str, list[str]]) -> tuple[dict[str, list[str]], list[str] | None]:
    """The ``source`` field (any case) of the records as the source segments, apart from the metadata."""
    key = next((k for k in metadata if k.lower() == "source"), None)
    if key is None:
        return metadata, None
    return {k: v for k, v in metadata.items() if k != key}, metadata[key]


def cmd_report(args: argparse.Namespace) -> int:
    from refscore._atomic import check_output_paths
    from refscore.cli.compare import compare_inputs
    from refscore.cli.metric_setup import metrics_from_args
    from refscore.reporting import require_extra

    check_output_paths({"-o": args.output, "--latex": args.latex})  # before any work (exit 9)
    if not args.input:
        if args.test_run is None:
            raise CliError("report needs system outputs (-i FILE ...) or a saved test run (--test-run RUN.json)",
                           ExitCode.USAGE)
        if args.references:
            raise CliError("-r references need system outputs: add -i FILE ...", ExitCode.USAGE)
        if args.latex:
            raise CliError("--latex writes the tables of systems: add -i FILE ...", ExitCode.USAGE)
        return _write(args, None, None, [], {}, None)
    require_extra()
    check_stdin_once(args.references + args.input)
    check_distinct_systems(args.input)
    metrics = metrics_from_args(args.metrics, args)
    systems, references = compare_inputs(args)
    metadata, sources = split_sources(record_metadata(args.input, next(iter(systems)))
                                      if is_record_file(args.input[0]) else {})
    if args.source is not None:
        sources = read_lines(args.source)
        if len(sources) != len(references):
            raise CliError(f"{args.source} has {len(sources)} lines but there are {len(references)} segments; the "
                           f"source file needs one line per segment", ExitCode.LINE_COUNT_MISMATCH)
    if args.baseline is not None and args.baseline not in systems:
        raise CliError(f"--baseline {args.baseline!r} is not one of the systems: {', '.join(systems)}",
                       ExitCode.USAGE)
    return _write(args, systems, references, metrics, metadata, sources)


def _write(args: argparse.Namespace, systems: dict[str, list[str]] | None, references: list[list[str]] | None,
           metrics: list[Any], metadata: dict[str, list[str]], sources: list[str] | None) -> int:
    from refscore.reporting import report

    # Ctrl-C is main()'s (one line, exit 130); the page is written atomically, so no partial file remains.
    report(systems, references, metrics, metadata=metadata, sources=sources, baseline=args.baseline,
           test_run=args.test_run, output=args.output, latex=args.latex,
           title=args.title, max_segments=args.max_segments,
           n=args.n, seed=args.seed, num_threads=args.num_threads, progress=args.progress)
    what = [f"{len(systems)} systems, {len(references)} segments, {', '.join(m.name for m in metrics)}"
            if systems is not None and references is not None else "", "test cases" if args.test_run else ""]
    print(f"refscore: wrote {args.output} ({'; '.join(w for w in what if w)})")
    return ExitCode.OK


def register(commands: Any) -> None:
    from refscore.cli.arguments import (add_metrics_argument, add_progress_argument, add_references_argument,
                                        add_seed_argument)
    from refscore.cli.metric_setup import add_metric_arguments

    parser = commands.add_parser("report", help="write a self-contained HTML report comparing systems",
                                 description="Score systems with several metrics and write one HTML page: "
                                             "scores with bootstrap intervals, paired significance, "
                                             "distributions, buckets, differences and a segment browser.")
    add_metrics_argument(parser, "bleu,chrf,ter")
    add_references_argument(parser)
    parser.add_argument("-i", "--input", nargs="+", default=[], metavar="FILE",
                        help="system outputs (the baseline first), or JSONL/CSV/TSV/Parquet record files (then no -r) "
                        "whose systems share their references; extra record fields become metadata buckets")
    parser.add_argument("--source", default=None, metavar="FILE",
                        help="source segments, one per line (shown with the texts; source length and rare-word "
                        "buckets); record files may carry a 'source' field instead")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    parser.add_argument("--test-run", default=None, metavar="RUN.json",
                        help="a refscore.testing run saved as JSON (TestRun.save): adds the test-case view; alone "
                        "(no -i), the page has that view only")
    parser.add_argument("--baseline", default=None, metavar="NAME",
                        help="system compared with the others (default: the first)")
    parser.add_argument("--title", default="refscore report", help="page title")
    parser.add_argument("--latex", default=None, metavar="FILE.tex",
                        help="also write the report's tables as LaTeX (booktabs): corpus scores with intervals, "
                        "length ratio and brevity penalty, word F-measure by frequency, length differences")
    parser.add_argument("--max-segments", type=positive_int, default=None, metavar="N",
                        help="segments whose texts are embedded (default 2000; numbers always use every segment)")
    parser.add_argument("--n", type=positive_int, default=1000, metavar="N",
                        help="bootstrap resamples of intervals and paired tests (default: 1000)")
    add_seed_argument(parser)
    parser.add_argument("--num-threads", type=positive_int, default=None, help="threads (default: all cores)")
    add_progress_argument(parser)
    add_metric_arguments(parser)
    parser.set_defaults(handler=cmd_report)


__all__ = ["cmd_report", "record_metadata", "register"]
