"""``refscore compare``: paired significance tests of a baseline against other systems, and the interval output of
``refscore score --confidence``.

    refscore compare -r ref.txt -i baseline.txt sysA.txt sysB.txt -m bleu,chrf,ter [--paired-bs | --paired-ar]
                     [--n N] [--seed S] [--format text|json|latex]

Text and LaTeX tables show scores on the 0–100 scale as sacreBLEU does: ``score (μ ± half-width)`` and
``(p = 0.0010)*``, ``*`` marking p <= 0.05; JSON gives every number on the metrics' 0–1 scale.
"""
from __future__ import annotations

import argparse
import json
from typing import Any

from refscore._inputs import from_streams
from refscore.cli.io import CliError, check_same_length, read_lines
from refscore.cli.output import format_table
from refscore.errors import ExitCode
from refscore.metrics.base import Metric
from refscore.significance import BootstrapCI, PairedTestResult, bootstrap_ci_from_statistics, paired_test
from refscore.significance.paired import DEFAULT_N, TESTS

SIGNIFICANCE_LEVEL = 0.05


def parse_seed(text: str) -> int | None:
    """``--seed``: a non-negative integer, or ``none`` for fresh randomness."""
    if text.strip().lower() == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid seed {text!r}: give an integer >= 0 or 'none'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"invalid seed {value}: give an integer >= 0 or 'none'")
    return value


def add_seed_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=parse_seed, default=12345, metavar="S",
                        help="random seed (default: 12345, as sacreBLEU); 'none' for fresh randomness")


# -- rendering ---------------------------------------------------------------------------------------------------
def _cell(row: Any, digits: int, latex: bool) -> str:
    text = f"{100 * row.score:.{digits}f}"
    if row.mean is not None:
        plus_minus = "$\\pm$" if latex else "±"
        text += f" ({100 * row.mean:.{digits}f} {plus_minus} {100 * row.ci:.{digits}f})"
    if row.p_value is not None:
        text += f" (p = {row.p_value:.4f})"
        if row.significant(SIGNIFICANCE_LEVEL):
            text += "$^*$" if latex else "*"
    return text


def _headers(result: PairedTestResult) -> list[str]:
    suffix = " (μ ± {:g}% CI)".format(100 * result.confidence) if result.confidence_n else ""
    return [name + suffix for name in result.results]


def _system_label(result: PairedTestResult, index: int) -> str:
    return f"Baseline: {result.systems[0]}" if index == 0 else result.systems[index]


def paired_text(result: PairedTestResult, digits: int = 2) -> str:
    rows = [[_system_label(result, i)] + [_cell(rows[i], digits, False) for rows in result.results.values()]
            for i in range(len(result.systems))]
    test = TESTS[result.test]
    lines = [f"{test[0].upper()}{test[1:]} test with {result.n} {'resamples' if result.test == 'bs' else 'trials'}, "
             f"seed {result.seed if result.seed is not None else 'none'}; each system is compared to the baseline",
             "", format_table(["System", *_headers(result)], rows), "",
             f"p-values: probability of the absolute score difference or a larger one arising by chance; "
             f"* marks p <= {SIGNIFICANCE_LEVEL} (the difference is significant).", ""]
    lines += [f"{metric}: {signature}" for metric, signature in result.signatures.items()]
    return "\n".join(lines)


def _latex_escape(text: str) -> str:
    for char, escaped in (("\\", "\\textbackslash{}"), ("&", "\\&"), ("%", "\\%"), ("$", "\\$"), ("#", "\\#"),
                          ("_", "\\_"), ("{", "\\{"), ("}", "\\}"), ("~", "\\textasciitilde{}"),
                          ("^", "\\textasciicircum{}")):
        text = text.replace(char, escaped)
    return text


def paired_latex(result: PairedTestResult, digits: int = 2) -> str:
    """A booktabs table (``\\usepackage{booktabs}``), as sacreBLEU's ``--format latex``."""
    headers = ["System", *(_latex_escape(h).replace("μ", "$\\mu$").replace("±", "$\\pm$")
                           for h in _headers(result))]
    lines = ["\\begin{tabular}{l" + "c" * len(result.results) + "}", "\\toprule", " & ".join(headers) + " \\\\",
             "\\midrule"]
    for i in range(len(result.systems)):
        cells = [_latex_escape(_system_label(result, i))]
        cells += [_cell(rows[i], digits, True) for rows in result.results.values()]
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    lines += [f"% {metric}: {signature}" for metric, signature in result.signatures.items()]
    return "\n".join(lines)


def confidence_rows(results: list[tuple[str, list[BootstrapCI]]], fmt: str, digits: int = 2) -> str:
    """Output of ``refscore score --confidence``: systems × scores as ``score (μ = mean ± half-width)``."""
    if fmt == "json":
        return json.dumps([{"system": system, "scores": {
            name: {**interval.to_dict(), "n": ci.n, "seed": ci.seed, "signature": str(ci.signature)}
            for ci in cis for name, interval in ci.intervals.items()}} for system, cis in results],
            indent=2, ensure_ascii=False)
    names = [name for ci in results[0][1] for name in ci.intervals]
    rows = [[system] + [interval.format(digits) for ci in cis for interval in ci.intervals.values()]
            for system, cis in results]
    lines = [format_table(["system", *names], rows), ""]
    lines += [f"{ci.metric}: {ci.signature}" for ci in results[0][1]]
    return "\n".join(lines)


# -- commands ----------------------------------------------------------------------------------------------------
def score_with_confidence(metrics: list[Metric], systems: dict[str, list[str]], references: list[list[str]],
                          args: argparse.Namespace) -> int:
    """``refscore score --confidence``: a bootstrap interval for every system and metric."""
    if args.segments:
        raise CliError("--confidence gives corpus-level intervals; it cannot be combined with --segments",
                       ExitCode.USAGE)
    results = []
    for system, hypotheses in systems.items():
        cis = [bootstrap_ci_from_statistics(metric, metric.statistics(hypotheses, references,
                                                                      num_threads=args.num_threads),
                                            n=args.confidence_n, seed=args.seed, num_threads=args.num_threads)
               for metric in metrics]
        results.append((system, cis))
    print(confidence_rows(results, args.format))
    return ExitCode.OK


def cmd_compare(args: argparse.Namespace) -> int:
    from refscore.cli.main import metrics_from_args

    if not args.references:
        raise CliError("compare needs at least one reference file: -r REF.txt", ExitCode.USAGE)
    if len(args.input) < 2:
        raise CliError("compare needs a baseline and at least one other system: -i baseline.txt sysA.txt ...",
                       ExitCode.USAGE)
    repeated = sorted({path for path in args.input if args.input.count(path) > 1})
    if repeated:
        raise CliError(f"system file(s) given more than once: {', '.join(repeated)}", ExitCode.USAGE)
    metrics = metrics_from_args(args.metrics, args)
    reference_files = {path: read_lines(path) for path in args.references}
    systems = {path: read_lines(path) for path in args.input}
    check_same_length({**reference_files, **systems})
    test = "ar" if args.paired_ar else "bs"
    result = paired_test(metrics, systems, from_streams(list(reference_files.values())), test=test,
                         n=args.n, seed=args.seed, confidence_n=args.confidence_n,
                         num_threads=args.num_threads)
    if args.format == "json":
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    elif args.format == "latex":
        print(paired_latex(result, args.width))
    else:
        print(paired_text(result, args.width))
    return ExitCode.OK


def register(commands: Any) -> None:
    from refscore.cli.main import add_metric_arguments
    from refscore.metrics import REGISTRY

    parser = commands.add_parser("compare", help="paired significance tests of a baseline against other systems",
                                 description="Compare a baseline (the first -i file) with other systems on the "
                                             "same references: paired bootstrap resampling (default) or "
                                             "approximate randomization, as sacreBLEU 2.6.")
    parser.add_argument("-m", "--metrics", default="bleu", help="comma-separated metrics (default: bleu); known: "
                        + ", ".join(REGISTRY))
    parser.add_argument("-r", "--references", action="append", default=[], metavar="FILE",
                        help="reference file, one segment per line; repeat for several references")
    parser.add_argument("-i", "--input", nargs="+", required=True, metavar="FILE",
                        help="system outputs, the baseline first")
    tests = parser.add_mutually_exclusive_group()
    tests.add_argument("--paired-bs", action="store_true",
                       help="paired bootstrap resampling (the default; gives intervals too)")
    tests.add_argument("--paired-ar", action="store_true", help="paired approximate randomization")
    parser.add_argument("--n", type=int, default=None, metavar="N",
                        help=f"resamples (bs, default {DEFAULT_N['bs']}) or trials (ar, default {DEFAULT_N['ar']})")
    parser.add_argument("--confidence-n", type=int, default=None, metavar="N",
                        help="with --paired-ar: bootstrap resamples for intervals (default: no intervals)")
    add_seed_argument(parser)
    parser.add_argument("--format", choices=("text", "json", "latex"), default="text",
                        help="output format (default: text)")
    parser.add_argument("--width", "-w", type=int, default=2, help="decimals in text and LaTeX tables (default: 2)")
    parser.add_argument("--num-threads", type=int, default=None, help="threads (default: all cores)")
    add_metric_arguments(parser)
    parser.set_defaults(handler=cmd_compare)
