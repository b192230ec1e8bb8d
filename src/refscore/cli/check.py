"""``refscore check CASES``: score test cases against thresholds, print a report, exit 0 / 1 for CI.

Thresholds and printed scores are on the 0–1 scale of the Python API (test cases; ``score``, ``compare`` and
``report`` print them 0–100), scores from outside as given (everywhere). Exit codes: 0 every gate passed; 1
(``ExitCode.CHECKS_FAILED``) a gate failed (by default any case under its threshold); 2 usage (no checks, ``--check NAME=`` without a threshold, ``--check file:`` without
a path); 3 unknown metric; 4 unreadable file (a cases, configuration or scores file); 7 bad input (a missing field,
a threshold out of range, duplicate case ids, a bad configuration, a scores file whose rows do not join the cases); 8 a missing optional dependency; 9 an output file that cannot be written
(checked before any work); 130 interrupted, 143 terminated (SIGTERM; no output file written).
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from refscore.cli import calibrate
from refscore.cli.arguments import grouped_options, option_assignment, positive_int
from refscore.cli.commands import command_help
from refscore.cli.exit_codes import ExitCode, input_error_code
from refscore.cli.io import CliError, os_error_text
from refscore.cli.process import stopped
from refscore.errors import InputError, MissingExtraError
from refscore.metrics.external import external_path


def _check_flag(text: str) -> tuple[str, float | None]:
    """``NAME`` or ``NAME=THRESHOLD`` of ``--check``."""
    name, equals, threshold = text.partition("=")
    if not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME or NAME=THRESHOLD, got {text!r}")
    if external_path(name) == "":
        raise argparse.ArgumentTypeError(f"{text!r} has no path after 'file:'; give the scores file (file:comet.jsonl"
                                         f"=0.8: .tsv, .csv or .jsonl with the columns id and score)")
    if not equals:
        return name.strip(), None
    if not threshold.strip():
        raise argparse.ArgumentTypeError(f"{text!r} has no threshold after '='; give one ({name.strip()}=0.3, on the "
                                         f"0–1 scale) or leave out '=' for the default 0.5")
    try:
        return name.strip(), float(threshold)
    except ValueError:
        raise argparse.ArgumentTypeError(f"threshold of {name!r} must be a number, got {threshold!r}") from None


#: ``--check-option CHECK.OPTION=VALUE``: the parser every command's ``NAME.OPTION=VALUE`` flag shares.
_check_option_flag = option_assignment("CHECK", "bertscore.lang=en or chrf.word_order=2")


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "check", help=command_help("check"),
        description="Score test cases (JSONL, JSON, CSV or YAML with actual_output and expected_output) with each "
                    "check on the 0-1 scale, print failing cases first, and exit 1 when a gate fails (by default: "
                    "any case under its threshold; 0 when all pass; 2, 3, 4, 7, 8, 9 for bad input, see "
                    "docs/testing.md).")
    parser.add_argument("cases", nargs="?", help="cases file (default: [tool.refscore] cases)")
    parser.add_argument("-c", "--check", action="append", type=_check_flag, default=[], metavar="NAME[=THRESHOLD]",
                        help="a check with its threshold on the 0-1 scale, e.g. bleu=0.3, rougeL, ter=0.4 (default "
                             "0.5; repeat; replaces the configured checks, keeping a configured check's options and "
                             "bands); file:PATH=T gates on scores computed elsewhere (COMET, human ratings), rows "
                             "joined to the cases by id, on the scores' own scale")
    parser.add_argument("--check-option", action="append", type=_check_option_flag, default=[],
                        metavar="CHECK.OPTION=VALUE", help="a metric option of one check, e.g. bertscore.lang=en, "
                        "bertscore.model_type=roberta-large, chrf.word_order=2 (repeat; VALUE is JSON or text)")
    parser.add_argument("--config", metavar="FILE", help="pyproject.toml with [tool.refscore] (default: the "
                        "nearest pyproject.toml)")
    parser.add_argument("--min-pass-rate", type=float, metavar="R", help="gate: every check's minimum pass rate "
                        "(0-1; default 1: every case must pass)")
    parser.add_argument("--baseline", metavar="FILE", help="gate: fail a check that is significantly worse than "
                        "this saved run (paired bootstrap)")
    parser.add_argument("--alpha", type=float, default=None, help="significance level of the baseline gate (0.05)")
    parser.add_argument("--save", metavar="FILE", help="save this run as JSON (a later --baseline)")
    parser.add_argument("--junit-xml", metavar="FILE", help="write JUnit XML (one test per case and check)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="report format (default: text)")
    parser.add_argument("--explain", choices=("failing", "all", "none"), default=None,
                        help="explain failing cases (default), all or none")
    parser.add_argument("--no-output-is-error", action="store_true", default=None,
                        help="a case without actual_output is an input error (default: a failed case)")
    parser.add_argument("--n-bootstrap", type=positive_int, default=1000, metavar="N",
                        help="resamples of the means' bootstrap intervals and of the baseline's paired bootstrap "
                             "(default 1000; the cost grows with N x cases)")
    parser.add_argument("--num-threads", type=positive_int, default=None, help="threads (default: all)")
    calibrate.add_arguments(parser)
    parser.set_defaults(handler=cmd_check)


def _settings(args: argparse.Namespace) -> Any:
    from refscore.testing.config import Settings, find_pyproject, load_settings

    path = args.config or find_pyproject()
    return load_settings(path) if path is not None else Settings()


def _checks(args: argparse.Namespace, settings: Any) -> list[Any]:
    from refscore.testing.checks import DEFAULT_THRESHOLD, Check, external_check_name

    configured = {check.name: check for check in settings.checks}
    chosen = args.check or [(name, None) for name in configured]
    options = grouped_options(args.check_option)

    def option_key(name: str) -> str:   # --check file:scores/comet.jsonl takes --check-option comet.OPTION=...
        return external_check_name(name) or name

    unknown = [name for name in options if name not in {option_key(name) for name, _ in chosen}]
    if unknown:
        raise CliError(f"--check-option {unknown[0]}.{next(iter(options[unknown[0]]))}: no check named "
                       f"{unknown[0]!r}; give --check {unknown[0]} too (the checks: "
                       f"{', '.join(name for name, _ in chosen) or 'none'})", ExitCode.USAGE)
    checks = []
    for name, threshold in chosen:
        if name in configured:
            check = configured[name].replace(threshold=threshold)
            checks.append(check.with_options(**options[name]) if name in options else check)
        else:
            checks.append(Check(name, DEFAULT_THRESHOLD if threshold is None else threshold,
                                **options.get(option_key(name), {})))
    if not checks:
        raise CliError("no checks: give --check NAME[=THRESHOLD] (e.g. --check bleu=0.3) or configure "
                       "[tool.refscore.checks] in pyproject.toml", ExitCode.USAGE)
    if args.min_pass_rate is not None:
        checks = [check.replace(min_pass_rate=args.min_pass_rate) for check in checks]
    return checks


def _run(args: argparse.Namespace) -> int:
    from refscore.testing.formats import json_report, junit_xml, text_report
    from refscore.testing.run import evaluate
    from refscore.testing.saved import json_text
    from refscore.io.atomic import check_distinct_outputs, encoded, output_transaction
    from refscore.cli.process import check_printable

    if args.calibrate:
        return calibrate.run_calibration(args, _checks(args, calibrate.settings(args, _settings)))
    settings = _settings(args)
    cases = args.cases or settings.cases
    if cases is None:
        raise CliError("no cases file: give one (refscore check cases.jsonl) or set [tool.refscore] cases",
                       ExitCode.USAGE)
    check_distinct_outputs(_outputs(args), [("the cases file", cases)])   # the configured one, too
    run = evaluate(cases, _checks(args, settings), baseline=args.baseline,
                   alpha=settings.alpha if args.alpha is None else args.alpha,
                   explain=args.explain or settings.explain,
                   no_output_is_error=bool(args.no_output_is_error or settings.no_output_is_error),
                   n_bootstrap=args.n_bootstrap, num_threads=args.num_threads)
    # every output rendered and encoded first, then the files committed together (all or none), then the report
    files = [(flag, path, encoded(render(), f"{flag} {path}")) for flag, path, render in (
        ("--junit-xml", args.junit_xml, lambda: junit_xml(run)), ("--save", args.save, lambda: json_text(run.to_dict())))
        if path]
    report = json_report(run) if args.format == "json" else text_report(run)
    check_printable(report)
    with output_transaction() as outputs:
        for flag, path, text in files:
            outputs.write_text(path, text, flag)
    print(report)
    return ExitCode.OK if run.ok else ExitCode.CHECKS_FAILED


def _outputs(args: argparse.Namespace) -> dict[str, Any]:
    return {"--junit-xml": args.junit_xml, "--save": args.save}


def _inputs(args: argparse.Namespace) -> list[tuple[str, Any]]:
    """The files the command reads, which no output may be (``--calibrate`` edits ``--config`` in place)."""
    scores = [("the scores file of --check", path) for name, _ in args.check if (path := external_path(name))]
    return [("the cases file", args.cases), ("--baseline", args.baseline), ("--calibrate", args.calibrate),
            *([] if args.calibrate else [("--config", args.config)]), *scores]


def cmd_check(args: argparse.Namespace) -> int:
    from refscore.io.atomic import UnwritableOutputError, check_output_paths
    from refscore.testing.checks import UnknownCheckError

    check_output_paths(_outputs(args), _inputs(args))  # before any work (exit 9)
    try:
        return _run(args)
    except KeyboardInterrupt as interrupt:   # Ctrl-C or SIGTERM: the outputs are committed together, at the end
        line, code = stopped(interrupt)
        print(f"{line}; no report file was written", file=sys.stderr)
        return code
    except UnknownCheckError as exc:
        raise CliError(str(exc), ExitCode.UNKNOWN_METRIC) from None
    except (MissingExtraError, UnwritableOutputError):   # exit 8; exit 9, naming the file (a full disk)
        raise
    except OSError as exc:
        raise CliError(os_error_text(exc), ExitCode.UNREADABLE_FILE) from None  # no "[Errno 2]" prefix
    except (InputError, ValueError, TypeError) as exc:
        raise CliError(str(exc), input_error_code(exc)) from None
