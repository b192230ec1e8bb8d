"""``refscore`` command line: ``score`` a system (or several) and run the bundled ``example``."""
from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from refscore.io.atomic import UnwritableOutputError
from refscore import __version__
from refscore.cli.arguments import (add_metrics_argument, add_progress_argument, add_references_argument,
                                    add_seed_argument, positive_int, reference_files)
from refscore.cli.exit_codes import ExitCode, input_error_code
from refscore.cli.engines import add_engine_arguments, score_on_engine, takes_over
from refscore.cli.io import (STDIN, CliError, check_distinct_systems, check_stdin_once, is_record_file,
                             read_record_inputs, read_text_inputs)
from refscore.cli.metric_setup import (add_metric_arguments, add_runtime_arguments, add_width_argument,
                                       flag_hint, keyed_inputs, metrics_from_args, refuse_external,
                                       result_row, selected_options)
from refscore.cli.names import display_names
from refscore.cli.output import score_table, segment_rows, to_json
from refscore.cli.process import guarded
from refscore.checks import hash_key_problem
from refscore.errors import InputError, MissingExtraError, RefscoreWarning
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


def cmd_example(args: argparse.Namespace) -> int:
    from refscore.example import example_sets

    results = []
    for example, metrics, skipped in example_sets():
        if not metrics:
            continue
        scored = score_systems(metrics, example.systems, example.references, False, args.num_threads)
        if args.format == "json":
            results += scored
        else:
            print(f"Bundled example: {example.description}\n")
            emit(scored, args.format, False)
            print()
        for name, reason in skipped.items():
            print(f"\n{name}: skipped ({reason})", file=sys.stderr)
    if args.format == "json":
        emit(results, args.format, False)
    return ExitCode.OK


#: Modules adding further subcommands; each has ``register(commands)`` taking the argparse subparsers object and
#: setting ``handler`` (a function of the parsed args returning an exit code) on its parser.
COMMAND_MODULES: list[str] = [
    "refscore.cli.compare",
    "refscore.cli.bertscore_baseline",
    "refscore.cli.check",
    "refscore.cli.report",
    "refscore.cli.meta_eval",
    "refscore.cli.pairs",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="refscore", description="Fast, exact reference-based text metrics.")
    parser.add_argument("--version", action="version", version=f"refscore {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    score = commands.add_parser("score", help="score one or more systems against references")
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

    example = commands.add_parser(
        "example", help="score the bundled example systems with every metric",
        description="Score the bundled examples with every registered metric and print the tables (0-100, as "
                    "score prints them) with their signatures: WMT17 en-de (3 systems x 300 segments) with the "
                    "translation metrics, XSum summaries (4 systems x 75 documents) with ROUGE. A metric whose "
                    "optional dependencies are missing is skipped, with the install command on stderr.")
    example.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    example.add_argument("--num-threads", type=positive_int, default=None,
                         help="threads for the compiled core (default: all)")
    example.set_defaults(handler=cmd_example)

    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(commands)
    return parser


def warning_printer() -> Callable[..., None]:
    """A ``warnings.showwarning`` for one command: refscore's own warnings as one ``refscore: warning: ...`` line
    on stderr without the source line; a warning with a category of its own (``TokenizedInputWarning``,
    ``RougeLsumWarning``) once per command (the metrics and systems that follow give the same advice), plain
    ``RefscoreWarning`` once per message; other warnings as Python shows them."""
    default, shown = warnings.showwarning, set()

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int, file: Any = None,
             line: str | None = None) -> None:
        if not issubclass(category, RefscoreWarning):
            default(message, category, filename, lineno, file, line)
            return
        key = (category, str(message)) if category is RefscoreWarning else category
        if key not in shown:
            shown.add(key)
            print(f"refscore: warning: {message}", file=sys.stderr)
    return show


@guarded  # Ctrl-C, broken pipes, closed stdout: refscore.cli.process
def main(argv: Sequence[str] | None = None) -> int:
    key_problem = hash_key_problem()
    if key_problem is not None:    # before parsing: a random key is in use (refscore._core), refuse any work
        print(f"refscore: error: {key_problem}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    show_warning = warning_printer()
    with warnings.catch_warnings():   # the parser's own warnings (a plug-in that cannot be loaded) as one line too
        warnings.showwarning = show_warning
        parser = build_parser()
        args = parser.parse_args(argv)
    try:
        if getattr(args, "command", None) == "score":
            args.references = reference_files(args)  # -r REF.txt, or sacreBLEU's order: score REF.txt -i HYP.txt
        if getattr(args, "command", None) == "score" and not args.references and not (
                args.input and any(is_record_file(path) for path in args.input)):
            raise CliError("score needs at least one reference file: -r REF.txt (or REF.txt before -i, as in "
                           "sacreBLEU)", ExitCode.USAGE)
        with warnings.catch_warnings():
            warnings.showwarning = show_warning
            return int(args.handler(args))
    except CliError as exc:
        print(f"refscore: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except MissingExtraError as exc:
        print(f"refscore: error: {exc}", file=sys.stderr)
        return ExitCode.MISSING_EXTRA
    except UnwritableOutputError as exc:  # an output file, checked before any work (refscore.io.atomic)
        print(f"refscore: error: {exc}", file=sys.stderr)
        return ExitCode.UNWRITABLE_OUTPUT
    except (InputError, ValueError, TypeError) as exc:
        print(f"refscore: error: {exc}{flag_hint(str(exc), selected_options(args))}", file=sys.stderr)
        return input_error_code(exc)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
