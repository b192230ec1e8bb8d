"""``refscore report``: one self-contained HTML page analysing systems with several metrics.

    refscore report -r ref.txt -i baseline.txt sysA.txt sysB.txt -m bleu,chrf,ter -o report.html
    refscore report -i outputs.jsonl -m bleu,chrf -o report.html   # records with 'system' and metadata fields

Inputs are read as by ``compare`` (plain text with ``-r``, or JSONL/CSV/TSV/Parquet records sharing their
references). Extra scalar fields of JSONL records (and extra CSV/TSV columns) become metadata buckets (domain,
document ...), an ``id`` field gives the segment ids and a ``source`` field the sources; Parquet files give no
metadata buckets. Systems are named as :mod:`refscore.cli.names` says (``--name``, or short names from the inputs).
"""
from __future__ import annotations

import argparse
from typing import Any

from refscore.wording import counted
from refscore.cli.arguments import positive_int
from refscore.cli.io import CliError, check_distinct_systems, check_stdin_once, is_record_file, read_lines
from refscore.cli.commands import command_help
from refscore.cli.exit_codes import ExitCode
from refscore.cli.names import add_names_argument, display_names
from refscore.cli.record_fields import record_metadata, split_field

def check_output(path: str) -> None:
    """``-o`` must name an HTML file (checked before any input is read)."""
    from refscore.errors import InputError
    from refscore.reporting import check_output_name

    try:
        check_output_name(path)
    except InputError as exc:
        raise CliError(f"-o/--output: {exc}", ExitCode.USAGE) from None


def cmd_report(args: argparse.Namespace) -> int:
    from refscore.io.atomic import check_output_paths
    from refscore.cli.compare import compare_inputs
    from refscore.cli.metric_setup import keyed_inputs, metrics_from_args
    from refscore.reporting import require_extra

    check_output_paths({"-o": args.output, "--latex": args.latex}, [  # before any work (exit 9)
        *(("-i", path) for path in args.input), *(("-r", path) for path in args.references),
        ("--source", args.source), ("--test-run", args.test_run), ("--judgments", args.judgments),
        ("--calibration", args.calibration)])
    check_output(args.output)
    if not args.input and args.judgments is not None:   # the judgments' systems, texts and references
        require_extra()
        return _write(args, None, None, metrics_from_args(args.metrics, args), {}, None, None)
    if args.calibration is not None and not args.input and args.judgments is None:
        raise CliError("--calibration needs the systems beside it: add --judgments FILE or -i FILE ...",
                       ExitCode.USAGE)
    if not args.input:
        if args.test_run is None:
            raise CliError("report needs system outputs (-i FILE ...), human judgments (--judgments FILE) or a "
                           "saved test run (--test-run RUN.json)", ExitCode.USAGE)
        if args.references:
            raise CliError("-r references need system outputs: add -i FILE ...", ExitCode.USAGE)
        if args.latex:
            raise CliError("--latex writes the tables of systems: add -i FILE ...", ExitCode.USAGE)
        return _write(args, None, None, [], {}, None, None)
    require_extra()
    check_stdin_once(args.references + args.input)
    check_distinct_systems(args.input)
    metrics = metrics_from_args(args.metrics, args)
    systems, references = compare_inputs(args)
    metadata, sources = split_field(record_metadata(args.input, next(iter(systems)))
                                    if is_record_file(args.input[0]) else {}, "source")
    metadata, ids = split_field(metadata, "id")
    names = display_names(list(systems), args)
    systems = {names[system]: hypotheses for system, hypotheses in keyed_inputs(metrics, systems, names,
                                                                                 args.input).items()}
    if args.source is not None:
        sources = read_lines(args.source, "--source")
        if len(sources) != len(references):
            raise CliError(f"{args.source} has {counted(len(sources), 'line')} but there are "
                           f"{counted(len(references), 'segment')}; the source file needs one line per segment", ExitCode.LINE_COUNT_MISMATCH)
    baseline = names.get(args.baseline, args.baseline)  # a system's display name, or its file name
    if baseline is not None and baseline not in systems:
        raise CliError(f"--baseline {args.baseline!r} is not one of the systems: {', '.join(systems)}",
                       ExitCode.USAGE)
    return _write(args, systems, references, metrics, metadata, sources, ids, baseline)


def _write(args: argparse.Namespace, systems: dict[str, list[str]] | None, references: list[list[str]] | None,
           metrics: list[Any], metadata: dict[str, list[str]], sources: list[str] | None, ids: list[str] | None,
           baseline: str | None = None) -> int:
    from refscore.cli.process import note
    from refscore.reporting import report

    # Ctrl-C is main()'s (one line, exit 130); the page is written atomically, so no partial file remains.
    report(systems, references, metrics, metadata=metadata, sources=sources, ids=ids, baseline=baseline,
           correction=args.correction,
           test_run=args.test_run, judgments=args.judgments, human=args.human, calibration=args.calibration,
           output=args.output, latex=args.latex,
           title=args.title, max_segments=args.max_segments,
           n=args.n, seed=args.seed, num_threads=args.num_threads, progress=args.progress,
           system_score=args.system_score)
    what = [f"{counted(len(systems), 'system')}, {counted(len(references), 'segment')}, "
            f"{', '.join(m.name for m in metrics)}"
            if systems is not None and references is not None else "", "test cases" if args.test_run else "",
            "human judgments" if args.judgments else "", "calibration" if args.calibration else ""]
    note(f"refscore: wrote {args.output} ({'; '.join(w for w in what if w)})")   # skipped for >&-
    if args.latex:
        note(f"refscore: wrote {args.latex} (LaTeX tables)")
    return ExitCode.OK


def register(commands: Any) -> None:
    from refscore.cli.arguments import (add_metrics_argument, add_progress_argument, add_references_argument,
                                        add_seed_argument, add_system_score_argument)
    from refscore.cli.metric_setup import add_metric_arguments, add_runtime_arguments

    parser = commands.add_parser("report", help=command_help("report"),
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
    parser.add_argument("-o", "--output", required=True, metavar="FILE.html",
                        help="the HTML file to write (its name must end in .html or .htm)")
    parser.add_argument("--test-run", default=None, metavar="RUN.json",
                        help="a refscore.testing run saved as JSON (TestRun.save): adds the test-case view; alone "
                        "(no -i), the page has that view only")
    parser.add_argument("--judgments", default=None, metavar="FILE", help="human judgments per (system, segment) "
                        "(JSONL/CSV/TSV/Parquet, docs/meta-evaluation.md): adds the metrics' correlations with "
                        "them, per-system scatters and significance clusters; alone (no -i), its systems are the "
                        "report's")
    parser.add_argument("--human", default=None, metavar="FIELD", help="the human score of --judgments (default: "
                        "its first)")
    add_system_score_argument(parser)   # of --judgments' correlations
    parser.add_argument("--calibration", default=None, metavar="FILE.json", help="a threshold calibration saved by "
                        "refscore check --calibrate LABELS --save FILE: adds its agreement curves")
    add_names_argument(parser)
    parser.add_argument("--baseline", default=None, metavar="NAME",
                        help="system compared with the others, by its name or file (default: the first)")
    parser.add_argument("--correction", choices=("none", "holm"), default="none",
                        help="which p-values decide the significance marks and the ranking: uncorrected (none, as "
                        "sacreBLEU and compare-mt) or Holm-adjusted over each score's pairs of systems; the page "
                        "shows both (default: none)")
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
    add_runtime_arguments(parser)
    add_metric_arguments(parser)
    parser.set_defaults(handler=cmd_report)


__all__ = ["check_output", "cmd_report", "record_metadata", "register", "split_field"]
