"""``refscore score``: its flags, and every way it runs (in memory; streamed or on Ray: refscore.cli.engines; with
``--confidence``) ending in the same result rows, built by one :func:`result_row` and printed by :func:`emit`.

    refscore score -m bleu,chrf -r ref.de -i hyp1.de hyp2.de
    refscore score ref.de -i hyp.de --confidence          # sacreBLEU's order, bootstrap intervals
    refscore score -m bleu -i 'runs/*.jsonl' --engine ray  # where it runs: refscore.cli.engines
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from refscore.cli.arguments import (add_metrics_argument, add_progress_argument, add_references_argument,
                                    add_seed_argument, positive_int, reference_files)
from refscore.cli.commands import command_help
from refscore.cli.engines import EngineRun, add_engine_arguments, score_on_engine, takes_over
from refscore.cli.exit_codes import CliError, ExitCode
from refscore.cli.metric_setup import (add_metric_arguments, add_runtime_arguments, add_width_argument,
                                       keyed_inputs, metrics_from_args, refuse_external)
from refscore.cli.scale import score_scales, to_percent
from refscore.cli.output import format_table, score_table, segment_rows, signatures, to_json

if TYPE_CHECKING:   # `refscore score --help` builds the parser without the inputs', metrics' and numpy's modules
    from refscore.protocol import Metric, Score, Statistics
    from refscore.significance import BootstrapCI


def result_row(system: str, metrics: list[Metric], statistics: list[Statistics] | None = None,
               num_threads: int | None = None, with_segments: bool = False, totals: dict[str, Score] | None = None,
               segments: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """One system's row of results, the form every output format reads, from each metric's ``statistics`` (every
    segment's: in memory, on Ray) or the Scores of its merged column ``totals`` (``score.statistics`` their one
    row: streamed, Ray totals) with the ``segments`` collected on the way.

    The row holds ``scores`` (the 0–1 :class:`Score` of each metric; for ROUGE-1.5.5 the Perl script's printed
    bootstrap averages with their intervals), ``summaries``, ``percents`` (the headline score on the printed scale,
    ×``display_scale``, as the peer computes it: BLEU's is sacreBLEU's own value, not × 100 of the 0–1 one),
    ``segments`` (with ``with_segments``: each headline score per segment on that scale) and ``scales``. The printed
    scale's formula runs once per metric and row: on the corpus totals and every segment's row stacked.
    """
    import numpy as np

    row: dict[str, Any] = {"system": system, "scores": {}, "summaries": {}, "percents": {},
                           "segments": dict(segments or {}),
                           "scales": {metric.name: float(metric.display_scale) for metric in metrics}}
    for index, metric in enumerate(metrics):
        reported = None
        if totals is not None:
            score = totals[metric.name]
            rows = score.statistics.data  # type: ignore[union-attr]  # a Score of totals keeps their row
        else:
            stats = statistics[index]  # type: ignore[index]  # given when totals is not
            reported = metric.reported_score(stats, num_threads=num_threads)
            score = reported if reported is not None else metric.score_from_statistics(stats)
            rows = stats.totals()[None, :]
            if with_segments:
                metric.check_statistics(stats)
                rows = np.concatenate([rows, stats.data])
        table = metric.percent_scores_from_totals(rows)
        row["scores"][metric.name], row["summaries"][metric.name] = score, score.summary()
        row["percents"][metric.name] = (metric.display_scale * score.score if reported is not None
                                        else float(table[0, 0]))
        if with_segments and totals is None:
            row["segments"][metric.name] = {name: table[1:, i] for i, name in enumerate(metric.score_names)}
    return row


def score_systems(metrics: list[Metric], systems: dict[str, list[str]], references: list[list[str]],
                  with_segments: bool, num_threads: int | None = None) -> list[dict[str, Any]]:
    """Score each system with each metric; the result rows feed every output format (see ``command_line_result``
    for the values: ``percent`` and ``segments`` are on the 0–100 scale)."""
    from refscore.metrics.systems import statistics_by_system

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


def confidence_rows(results: list[tuple[str, list[BootstrapCI]]], fmt: str, digits: int = 2,
                    scales: Mapping[str, float] | None = None) -> str:
    """Output of ``refscore score --confidence``: systems × scores as ``score (μ = mean ± half-width)``, each
    ×its ``scales`` entry (default 100)."""
    scales = scales or {}
    if fmt == "json":
        return json.dumps([{"system": system, "scores": {
            name: {**to_percent(interval.to_dict(), scales.get(name, 100.0)), "n": ci.n, "seed": ci.seed,
                   "signature": str(ci.signature)}
            for ci in cis for name, interval in ci.intervals.items()}} for system, cis in results],
            indent=2, ensure_ascii=False)
    names = [name for ci in results[0][1] for name in ci.intervals]
    rows = [[system] + [interval.format(digits, scales.get(name, 100.0)) for ci in cis
                        for name, interval in ci.intervals.items()]
            for system, cis in results]
    lines = [format_table(["system", *names], rows), ""]
    lines += [f"{ci.metric}: {ci.signature}" for ci in results[0][1]]
    return "\n".join(lines)


def print_confidence(metrics: list[Metric], statistics: dict[str, list[Statistics]],
                     args: argparse.Namespace) -> int:
    """``--confidence``: a bootstrap interval of every metric for every system (system -> one Statistics per
    metric), in every engine."""
    from refscore.significance import bootstrap_ci_from_statistics

    results = [(system, [bootstrap_ci_from_statistics(metric, stats, n=args.confidence_n, seed=args.seed,
                                                      num_threads=args.num_threads, progress=args.progress)
                         for metric, stats in zip(metrics, by_metric)]) for system, by_metric in statistics.items()]
    print(confidence_rows(results, args.format, 2 if args.width is None else args.width, score_scales(metrics)))
    return ExitCode.OK


def print_run(metrics: list[Metric], run: EngineRun, args: argparse.Namespace) -> int:
    """Print what an engine computed (refscore.cli.engines) as the in-memory run prints it."""
    if run.statistics is not None and args.confidence:
        return print_confidence(metrics, run.statistics, args)
    if run.statistics is not None:
        rows = [result_row(system, metrics, stats, args.num_threads, args.segments)
                for system, stats in run.statistics.items()]
    else:
        rows = [result_row(system, metrics, totals=scores, segments=run.segments.get(system))
                for system, scores in (run.totals or {}).items()]
    if run.segments_printed:   # the rows went out chunk by chunk: the signatures close the output
        print("\n".join(f"# {metric}: {signature}" for metric, signature in signatures(rows).items()))
        return ExitCode.OK
    emit(rows, args.format, args.segments, args.width)
    return ExitCode.OK


def cmd_score(args: argparse.Namespace) -> int:
    from refscore.cli.io import (STDIN, check_distinct_systems, check_stdin_once, is_record_file, read_record_inputs,
                                 read_text_inputs)
    from refscore.cli.names import display_names

    args.references = reference_files(args)  # -r REF.txt, or sacreBLEU's order: score REF.txt -i HYP.txt
    if not args.references and not (args.input and any(is_record_file(path) for path in args.input)):
        raise CliError("score needs at least one reference file: -r REF.txt (or REF.txt before -i, as in "
                       "sacreBLEU)", ExitCode.USAGE)
    metrics = metrics_from_args(args.metrics, args)
    if takes_over(args):  # --engine ray, --skip-bad-records, large record files: refscore.cli.engines
        refuse_external(metrics, "--engine ray, --skip-bad-records and record files over 64 MiB (streamed)")
        if args.confidence and args.segments:
            raise CliError("--confidence gives corpus-level intervals; it cannot be combined with --segments",
                           ExitCode.USAGE)
        return print_run(metrics, score_on_engine(metrics, args), args)
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
        if args.segments:
            raise CliError("--confidence gives corpus-level intervals; it cannot be combined with --segments",
                           ExitCode.USAGE)
        return print_confidence(metrics, {system: [metric.statistics(hypotheses, references,
                                                                     num_threads=args.num_threads)
                                                   for metric in metrics]
                                          for system, hypotheses, references in jobs}, args)
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
