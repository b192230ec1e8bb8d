"""``refscore compare``: paired significance tests of a baseline against other systems, and the interval output of
``refscore score --confidence``.

    refscore compare -r ref.txt -i baseline.txt sysA.txt sysB.txt -m bleu,chrf,ter [--paired-bs | --paired-ar]
                     [--n N] [--seed S] [--format text|json|latex] [--all-scores]

Every output shows scores ×their metric's display scale (see :mod:`refscore.cli.scale`: built-in metrics on the
0–100 scale as sacreBLEU does, scores from outside as given): text and LaTeX
tables ``score (μ ± half-width)`` and ``(p = 0.0010)*``, ``*`` marking p <= 0.05; JSON the same numbers unrounded.
The tables have one column per primary score of a metric (``Metric.primary_score_names``: ROUGE each type's
F-measure, BERTScore F1) unless ``--all-scores`` asks for every score (ROUGE's precisions and recalls too); JSON
always has every score.
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any

from refscore.wording import counted
from refscore.cli.arguments import (add_metrics_argument, add_progress_argument, add_references_argument,
                                    add_seed_argument, positive_int)
from refscore.cli.commands import command_help
from refscore.cli.exit_codes import ExitCode
from refscore.cli.io import (CliError, check_distinct_systems, check_stdin_once, is_record_file,
                             read_record_inputs, read_text_inputs)
from refscore.cli.metric_setup import (add_metric_arguments, add_runtime_arguments, add_width_argument,
                                       keyed_inputs, metrics_from_args)
from refscore.cli.names import add_names_argument, display_names, renamed
from refscore.cli.output import format_table
from refscore.cli.scale import score_scales, to_percent
from refscore.protocol import Metric
from refscore.reporting.latex import latex_escape, latex_table
from refscore.significance import PairedTestResult, paired_test
from refscore.significance.paired import DEFAULT_N, TESTS
from refscore.wording import fixed

SIGNIFICANCE_LEVEL = 0.05


# -- rendering ---------------------------------------------------------------------------------------------------
def _cell(row: Any, digits: int, latex: bool, scale: float = 100.0) -> str:
    text = fixed(scale * row.score, digits)
    if row.mean is not None:
        plus_minus = "$\\pm$" if latex else "±"
        text += f" ({fixed(scale * row.mean, digits)} {plus_minus} {fixed(scale * row.ci, digits)})"
    if row.p_value is not None:
        text += f" (p = {row.p_value:.4f})"
        if row.significant(SIGNIFICANCE_LEVEL):
            text += "$^*$" if latex else "*"
    return text


def _headers(result: PairedTestResult, names: list[str]) -> list[str]:
    suffix = " (μ ± {:g}% CI)".format(100 * result.confidence) if result.confidence_n else ""
    return [name + suffix for name in names]


def _shown(result: PairedTestResult, scores: list[str] | None) -> list[str]:
    """The score names of the table's columns: ``scores`` (in the result's order), or every score."""
    return list(result.results) if scores is None else [name for name in result.results if name in scores]


def _system_label(result: PairedTestResult, index: int) -> str:
    return f"Baseline: {result.systems[0]}" if index == 0 else result.systems[index]


def paired_text(result: PairedTestResult, digits: int = 2, scores: list[str] | None = None,
                scales: Mapping[str, float] | None = None) -> str:
    """The text table of a paired test, with the columns ``scores`` (default: every score of the result), each
    ×its ``scales`` entry (:func:`~refscore.cli.scale.score_scales`; default 100)."""
    names, scales = _shown(result, scores), scales or {}
    rows = [[_system_label(result, i)] + [_cell(result.results[name][i], digits, False, scales.get(name, 100.0))
                                          for name in names]
            for i in range(len(result.systems))]
    test = TESTS[result.test]
    count = counted(result.n, 'resample' if result.test == 'bs' else 'trial')
    lines = [f"{test[0].upper()}{test[1:]} test with {count}, "
             f"seed {result.seed if result.seed is not None else 'none'}; each system is compared to the baseline",
             "", format_table(["System", *_headers(result, names)], rows), "",
             f"p-values: probability of the absolute score difference or a larger one arising by chance; "
             f"* marks p <= {SIGNIFICANCE_LEVEL} (the difference is significant).", ""]
    lines += [f"{metric}: {signature}" for metric, signature in result.signatures.items()]
    return "\n".join(lines)


def paired_latex(result: PairedTestResult, digits: int = 2, scores: list[str] | None = None,
                 scales: Mapping[str, float] | None = None) -> str:
    """A booktabs table (``\\usepackage{booktabs}``), as sacreBLEU's ``--format latex``, with the columns
    ``scores`` (default: every score of the result), each ×its ``scales`` entry (default 100)."""
    names, scales = _shown(result, scores), scales or {}
    headers = ["System", *(latex_escape(h).replace("μ", "$\\mu$").replace("±", "$\\pm$")
                           for h in _headers(result, names))]
    rows = [[latex_escape(_system_label(result, i)), *(_cell(result.results[name][i], digits, True,
                                                             scales.get(name, 100.0)) for name in names)]
            for i in range(len(result.systems))]
    return latex_table(headers, rows, comments=[f"{metric}: {signature}"
                                                for metric, signature in result.signatures.items()])


def paired_json(result: PairedTestResult, scales: Mapping[str, float] | None = None) -> dict[str, Any]:
    """``result.to_dict()`` with every score, mean, half-width and bound ×its ``scales`` entry (default 100: the
    0–100 scale; p-values unchanged)."""
    payload, scales = result.to_dict(), scales or {}
    for system in payload["systems"]:
        system["scores"] = {name: to_percent(fields, scales.get(name, 100.0))
                            for name, fields in system["scores"].items()}
    return payload


# -- commands ----------------------------------------------------------------------------------------------------
def shared_references(systems: dict[str, tuple[list[str], list[list[str]]]]) -> list[list[str]]:
    """The references of record-file systems, which a paired test needs to be the same for every system."""
    names = list(systems)
    references = systems[names[0]][1]
    for name in names[1:]:
        other = systems[name][1]
        if len(other) != len(references):
            raise CliError(f"{name} has {counted(len(other), 'record')} but {names[0]} has {len(references)}; "
                           f"paired tests need the same segments for every system", ExitCode.LINE_COUNT_MISMATCH)
        for index, (mine, theirs) in enumerate(zip(references, other)):
            if mine != theirs:
                raise CliError(f"the references of segment {index} differ between {names[0]} and {name}; paired "
                               f"tests need the same references for every system", ExitCode.BAD_INPUT)
    return references


def compare_inputs(args: argparse.Namespace) -> tuple[dict[str, list[str]], list[list[str]]]:
    """Systems and references of ``compare``: plain-text files with ``-r``, or JSONL/CSV/TSV/Parquet record files whose
    systems (one per file, or one per ``system`` value) share their references."""
    if any(is_record_file(path) for path in args.input):
        systems = read_record_inputs(args.input, args.references, skippable=False)  # no --skip-bad-records here
        references = shared_references(systems)
        return {name: predictions for name, (predictions, _) in systems.items()}, references
    if not args.references:
        raise CliError("compare needs at least one reference file: -r REF.txt (or JSONL/CSV/TSV/Parquet inputs)",
                       ExitCode.USAGE)
    return read_text_inputs(args.references, args.input)


def cmd_compare(args: argparse.Namespace) -> int:
    check_stdin_once(args.references + args.input)
    check_distinct_systems(args.input)
    if args.confidence_n is not None and not args.paired_ar:
        raise CliError("--confidence-n applies to --paired-ar only; the paired bootstrap (--paired-bs, the default) "
                       "gives intervals from its own --n resamples", ExitCode.USAGE)
    metrics = metrics_from_args(args.metrics, args)
    systems, references = compare_inputs(args)
    # -m file:PATH scores join on (system, record id or segment number); then --name, or short names
    systems = renamed(keyed_inputs(metrics, systems, display_names(list(systems), args), args.input), args)
    if len(systems) < 2:
        raise CliError("compare needs a baseline and at least one other system: -i baseline.txt sysA.txt ...",
                       ExitCode.USAGE)
    test = "ar" if args.paired_ar else "bs"
    result = paired_test(metrics, systems, references, test=test, n=args.n, seed=args.seed,
                         confidence_n=args.confidence_n, num_threads=args.num_threads, progress=args.progress)
    shown = None if args.all_scores else [name for metric in metrics for name in metric.primary_score_names]
    scales = score_scales(metrics)
    if args.format == "json":
        print(json.dumps(paired_json(result, scales), indent=2, ensure_ascii=False))
    elif args.format == "latex":
        print(paired_latex(result, args.width, shown, scales))
    else:
        print(paired_text(result, args.width, shown, scales))
    return ExitCode.OK


def register(commands: Any) -> None:
    parser = commands.add_parser("compare", help=command_help("compare"),
                                 description="Compare a baseline (the first -i file) with other systems on the "
                                             "same references: paired bootstrap resampling (default) or "
                                             "approximate randomization, as sacreBLEU 2.6.")
    add_metrics_argument(parser, "bleu")
    add_references_argument(parser)
    parser.add_argument("-i", "--input", nargs="+", required=True, metavar="FILE",
                        help="system outputs, the baseline first; or JSONL/CSV/TSV/Parquet record files (as for score; "
                        "then no -r), whose systems must share their references")
    tests = parser.add_mutually_exclusive_group()
    tests.add_argument("--paired-bs", action="store_true",
                       help="paired bootstrap resampling (the default; gives intervals too)")
    tests.add_argument("--paired-ar", action="store_true", help="paired approximate randomization")
    parser.add_argument("--n", type=positive_int, default=None, metavar="N",
                        help=f"resamples (bs, default {DEFAULT_N['bs']}) or trials (ar, default {DEFAULT_N['ar']})")
    parser.add_argument("--confidence-n", type=positive_int, default=None, metavar="N",
                        help="with --paired-ar: bootstrap resamples for intervals (default: no intervals)")
    add_seed_argument(parser)
    add_names_argument(parser)
    parser.add_argument("--format", choices=("text", "json", "latex"), default="text",
                        help="output format (default: text)")
    parser.add_argument("--all-scores", action="store_true",
                        help="tables show every score of each metric (ROUGE: precision, recall and F-measure of each "
                        "type; BERTScore: P, R, F1); default: the primary ones (ROUGE: each type's F-measure). JSON "
                        "always has every score")
    add_width_argument(parser, 2, "2")
    add_runtime_arguments(parser)
    parser.add_argument("--num-threads", type=positive_int, default=None, help="threads (default: all cores)")
    add_progress_argument(parser)
    add_metric_arguments(parser)
    parser.set_defaults(handler=cmd_compare)
