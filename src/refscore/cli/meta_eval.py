"""``refscore meta-eval FILE... -m METRICS``: how well each metric agrees with the human judgments in the files
(system- and segment-level correlations with bootstrap intervals, significance clusters), as a text, JSON or LaTeX
table. The statistics are :mod:`refscore.meta`'s (mt-metrics-eval's); the rules are in docs/meta-evaluation.md.

Exit codes: 0 done; 2 usage; 3 unknown metric; 4 unreadable file; 7 bad input (a missing field, a rating that is
not a number, systems that rate different segments, fewer than three systems for system-level statistics);
8 a missing optional dependency.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from refscore.cli.arguments import (add_metrics_argument, add_progress_argument, add_seed_argument,
                                    add_system_score_argument, positive_int)
from refscore.cli.commands import command_help
from refscore.cli.exit_codes import ExitCode
from refscore.cli.io import CliError, os_error_text
from refscore.cli.meta_eval_pairs import (add_pair_arguments, cmd_meta_eval_pairs, grid_text, named_pairs,
                                          system_scores)
from refscore.cli.metric_setup import add_metric_arguments, add_runtime_arguments, metrics_from_args

FIELDS = (("system", "system"), ("segment", "seg_id, segment_id or id"),
          ("hypothesis", "prediction, hypothesis, hyp, output or actual_output"),
          ("references", "references, reference or expected_output"))


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {value}")
    return value


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1 (exclusive), got {value}")
    return value


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "meta-eval", help=command_help("meta-eval"),
        description="Meta-evaluate metrics against human judgments: FILE holds one record per (system, segment) "
                    "with the hypothesis, its reference(s) and one or more human scores (JSONL, CSV, TSV, Parquet; "
                    "mqm_ted and SummEval load as they are). Prints system-level Pearson, Spearman, Kendall, "
                    "pairwise and soft pairwise accuracy, and segment-level Pearson (no grouping, item-wise), "
                    "item-wise Kendall and tie-calibrated acc23, with bootstrap intervals over items and "
                    "significance ranks from PERM-BOTH tests (r1: tied with the best).")
    parser.add_argument("files", nargs="+", metavar="FILE", help="judgments file(s) (a glob pattern is expanded); "
                        "LP=FILE for several language pairs (en-de=ende.jsonl zh-en=zhen.jsonl): tables per pair "
                        "and WMT's global pairwise accuracy over all pairs")
    add_metrics_argument(parser, "bleu,chrf")
    parser.add_argument("--human", metavar="NAMES", help="comma-separated human scores to evaluate against "
                        "(default: every human score in the files)")
    parser.add_argument("--level", choices=("both", "system", "segment"), default="both",
                        help="which statistics (default: both levels)")
    parser.add_argument("--format", choices=("text", "json", "latex"), default="text",
                        help="output format (default: text)")
    parser.add_argument("--bootstrap", type=_non_negative, default=1000, metavar="N",
                        help="bootstrap resamples of items for the intervals (default: 1000; 0: no intervals)")
    parser.add_argument("--k", type=_non_negative, default=1000, metavar="N",
                        help="PERM-BOTH resamples per pair of metrics for the ranks (default: 1000; 0: no ranks)")
    parser.add_argument("--alpha", type=_probability, default=0.05,
                        help="p-value at or below which a metric is significantly worse (default: 0.05)")
    parser.add_argument("--confidence", type=_probability, default=0.95, help="interval level (default: 0.95)")
    parser.add_argument("--resampler", choices=("fast", "reference"), default="fast",
                        help="PERM-BOTH coins: fast (default) or mt-metrics-eval's own draws after "
                             "np.random.seed(SEED) (bit for bit, slower)")
    parser.add_argument("--resample-ties", action="store_true",
                        help="intervals and ranks for the tie-calibrated Kendall too (re-calibrated on every "
                             "resample: slow)")
    parser.add_argument("--align", choices=("strict", "intersect"), default="strict",
                        help="systems that rate different segments: refuse with the counts (default) or keep "
                             "the segments every system has")
    for field, default in FIELDS:
        parser.add_argument(f"--{field}-field", metavar="NAME", help=f"the field of the {field} (default: {default})")
    parser.add_argument("--num-threads", type=positive_int, default=None,
                        help="threads for the compiled core (default: all)")
    add_pair_arguments(parser)   # --system-statistics, --segment-statistics (refscore.cli.meta_eval_pairs)
    add_system_score_argument(parser)
    add_seed_argument(parser)
    add_progress_argument(parser)
    add_runtime_arguments(parser)
    add_metric_arguments(parser)
    parser.set_defaults(handler=cmd_meta_eval)


def cmd_meta_eval(args: argparse.Namespace) -> int:
    from refscore.meta.evaluate import MetricScores, meta_evaluate, signatures
    from refscore.meta.inputs import JudgmentFields, load_judgments
    from refscore.meta.table import signature_lines, to_json, to_latex, to_text

    fields = JudgmentFields(**{name: getattr(args, f"{name}_field") for name, _ in FIELDS
                               if getattr(args, f"{name}_field") is not None})
    pairs = named_pairs(args.files)
    if pairs is not None:   # LP=FILE ...: per-pair tables and the global accuracy (refscore.cli.meta_eval_pairs)
        return cmd_meta_eval_pairs(args, pairs, fields)
    metrics = metrics_from_args(args.metrics, args)
    try:
        judgments = load_judgments(args.files, fields, align=args.align)
    except OSError as exc:
        raise CliError(os_error_text(exc), ExitCode.UNREADABLE_FILE) from None
    humans = [name.strip() for name in args.human.split(",") if name.strip()] if args.human else \
        judgments.human_names
    unknown = [name for name in humans if name not in judgments.human_names]
    if unknown or not humans:
        raise CliError(f"--human: no human score {unknown[0]!r} in {judgments.source_file}; its human scores are "
                       f"{', '.join(judgments.human_names) or 'none'}" if unknown else
                       f"{judgments.source_file} has no human scores", ExitCode.BAD_INPUT)
    print(grid_text(judgments, humans), file=sys.stderr)   # the grid and its rated cells (most MQM grids are sparse)
    scores = [MetricScores.from_metric(metric, judgments, num_threads=args.num_threads) for metric in metrics]
    levels = ("system", "segment") if args.level == "both" else (args.level,)
    results = {}
    for human in humans:
        results[human] = meta_evaluate(judgments.human[human], scores, levels=levels,
                                       system_statistics=args.system_statistics,
                                       segment_statistics=args.segment_statistics, n_bootstrap=args.bootstrap,
                                       k=args.k, alpha=args.alpha, confidence=args.confidence, seed=args.seed,
                                       resampler=args.resampler, resample_ties=args.resample_ties,
                                       progress=args.progress, system_score=args.system_score)
    about = {"files": judgments.source_file, "systems": len(judgments.systems),
             "segments": len(judgments.segment_ids), "rated": judgments.rated_cells(humans),
             "bootstrap": args.bootstrap, "k": args.k, "alpha": args.alpha,
             "confidence": args.confidence, "seed": args.seed, "resampler": args.resampler,
             "system_score": args.system_score,
             "signatures": {metric.name: signatures(metric, judgments) for metric in metrics},
             "system_scores": system_scores(judgments, humans, metrics, scores, args.system_score)}
    if args.format == "json":
        print(to_json(results, about))
        return ExitCode.OK
    render = to_latex if args.format == "latex" else to_text
    lines = signature_lines(about["signatures"])
    print("\n\n".join([*(f"human: {human}\n{render(results[human])}" if args.format == "text" else
                         f"% human: {human}\n{render(results[human])}" for human in humans),
                       "signatures\n" + "\n".join(lines) if args.format == "text" else
                       "\n".join(f"% signature {line}" for line in lines)]))
    return ExitCode.OK
