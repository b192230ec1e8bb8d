"""``refscore score``: its flags, and every way it runs (in memory, streamed, on Ray, with ``--confidence``) ending
in the same result rows (:func:`refscore.cli.metric_setup.result_row`) printed by :func:`emit`.

    refscore score -m bleu,chrf -r ref.de -i hyp1.de hyp2.de
    refscore score ref.de -i hyp.de --confidence          # sacreBLEU's order, bootstrap intervals
    refscore score -m bleu -i 'runs/*.jsonl' --engine ray  # where it runs: refscore.cli.engines
"""
from __future__ import annotations

import argparse
from typing import Any

from refscore.cli.arguments import (add_metrics_argument, add_progress_argument, add_references_argument,
                                    add_seed_argument, positive_int, reference_files)
from refscore.cli.commands import command_help
from refscore.cli.engines import add_engine_arguments, score_on_engine, takes_over
from refscore.cli.exit_codes import CliError, ExitCode
from refscore.cli.io import (STDIN, check_distinct_systems, check_stdin_once, is_record_file, read_record_inputs,
                             read_text_inputs)
from refscore.cli.metric_setup import (add_metric_arguments, add_runtime_arguments, add_width_argument,
                                       keyed_inputs, metrics_from_args, refuse_external, result_row)
from refscore.cli.names import display_names
from refscore.cli.output import score_table, segment_rows, to_json
from refscore.metrics.systems import statistics_by_system
from refscore.protocol import Metric


def score_systems(metrics: list[Metric], systems: dict[str, list[str]], references: list[list[str]],
                  with_segments: bool, num_threads: int | None = None) -> list[dict[str, Any]]:
    """Score each system with each metric; the result rows feed every output format (see ``command_line_result``
    for the values: ``percent`` and ``segments`` are on the 0–100 scale)."""
    by_metric = [statistics_by_system(metric, systems, references, num_threads=num_threads) for metric in metrics]
    return [result_row(system, metrics, [statistics[system] for statistics in by_metric], num_threads, with_segments)
            for system in systems]


def emit(results: list[dict[str, Any]], fmt: str, with_segments: bool, width: int | None = None) -> None:
    """Print results (0–100) as JSON, per-segment rows or the table of corpus scores, with signatures."""
    if fmt == "json":
        print(to_json(results, with_segments))
    elif with_segments:
        print(segment_rows(results, width))
    else:
        print(score_table(results, width))


def cmd_score(args: argparse.Namespace) -> int:
    args.references = reference_files(args)  # -r REF.txt, or sacreBLEU's order: score REF.txt -i HYP.txt
    if not args.references and not (args.input and any(is_record_file(path) for path in args.input)):
        raise CliError("score needs at least one reference file: -r REF.txt (or REF.txt before -i, as in "
                       "sacreBLEU)", ExitCode.USAGE)
    metrics = metrics_from_args(args.metrics, args)
    if takes_over(args):  # --engine ray, --skip-bad-records, large record files: refscore.cli.engines
        refuse_external(metrics, "--engine ray, --skip-bad-records and record files over 64 MiB (streamed)")
        return score_on_engine(metrics, args, emit)
    inputs = args.input or [STDIN]
    check_stdin_once(args.references + inputs)
    check_distinct_systems(inputs)
    if any(is_record_file(path) for path in inputs):
        jobs = [(name, predictions, references)
                for name, (predictions, references) in read_record_inputs(inputs, args.references).items()]
    else:
        systems, references = read_text_inputs(args.references, inputs)
        jobs = [(name, hypotheses, references) for name, hypotheses in systems.items()]
    keyed = keyed_inputs(metrics, {name: hypotheses for name, hypotheses, _ in jobs},  # -m file:PATH (join keys)
                         display_names([name for name, _, _ in jobs], argparse.Namespace(input=inputs)), inputs)
    jobs = [(name, keyed[name], references) for name, _, references in jobs]
    if args.confidence:
        from refscore.cli.compare import score_with_confidence

        return score_with_confidence(metrics, jobs, args)
    results = []
    if all(references is jobs[0][2] for _, _, references in jobs):   # text files: one test set, scored at once
        results = score_systems(metrics, {system: hypotheses for system, hypotheses, _ in jobs}, jobs[0][2],
                                args.segments, args.num_threads)
    else:
        for system, hypotheses, references in jobs:
            results += score_systems(metrics, {system: hypotheses}, references, args.segments, args.num_threads)
    emit(results, args.format, args.segments, args.width)
    return ExitCode.OK


def register(commands: Any) -> None:
    score = commands.add_parser("score", help=command_help("score"))
    add_metrics_argument(score, "bleu")
    add_references_argument(score, positional=True)
    score.add_argument("-i", "--input", nargs="+", metavar="FILE",
                       help="hypothesis file(s), one system each (default: standard input); a .jsonl file holds "
                       "objects with 'prediction' and 'references' fields, a .csv/.tsv file a header with "
                       "'prediction' and 'reference...' columns (then no -r; an optional 'system' field groups "
                       "records into systems)")
    score.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    score.add_argument("--segments", action="store_true", help="per-segment scores in input order")
    score.add_argument("--num-threads", type=positive_int, default=None,
                       help="threads for the compiled core (default: all)")
    score.add_argument("--confidence", action="store_true", help="bootstrap confidence intervals (as sacreBLEU)")
    score.add_argument("--confidence-n", type=positive_int, default=1000, metavar="N",
                       help="bootstrap resamples (1000)")
    add_seed_argument(score)
    add_progress_argument(score)
    add_width_argument(score, None, "2; 4 with --segments")
    add_runtime_arguments(score)
    add_engine_arguments(score)
    add_metric_arguments(score)
    score.set_defaults(handler=cmd_score)
