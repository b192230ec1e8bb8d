"""``refscore check --calibrate LABELS``: choose each check's threshold from human labels and write it into
``[tool.refscore.checks.NAME]`` of the configuration (``--config FILE``, else the nearest ``pyproject.toml``).

LABELS is a judgments file (:mod:`refscore.meta.inputs`: JSONL, CSV, TSV or Parquet; a test-case file with a
``label`` field, or rated segments such as the MQM files) with a pass/fail label or a rating per case; ``--pass-if
'>= -1'`` turns ratings into labels. The chosen threshold, its agreement with the labels and the agreement's
bootstrap interval are printed (``--format json``: as JSON); ``--save FILE`` keeps them as JSON for ``refscore
report --calibration FILE``.
"""
from __future__ import annotations

import argparse
import json
import os
import re
from typing import Any

from refscore.cli.exit_codes import ExitCode
from refscore.cli.io import CliError
from refscore.cli.arguments import positive_int
from refscore.errors import InputError
from refscore.wording import fixed

#: Format key and version of a saved calibration (read by the report's calibration section).
FORMAT_KEY = "refscore_calibration"
FORMAT_VERSION = 1
#: Seed of the agreement's bootstrap interval and of the fold shuffle (refscore's default seed elsewhere too).
SEED = 12345
#: The library's argument names in its error messages, and the flags that set them here.
_FLAGS = {r"\btarget_precision\b": "--target-precision", r"\bobjective='(\w+)'": r"--objective \1",
          r"\bfolds\b must": "--system-folds must", r"\bn_bootstrap\b": "--n-bootstrap"}
#: How the objective is named in the table.
_OBJECTIVE_NAMES = {"accuracy": "accuracy", "f1": "F1", "precision": "precision"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The calibration flags of ``refscore check``."""
    group = parser.add_argument_group("threshold calibration (--calibrate LABELS)")
    group.add_argument("--calibrate", metavar="LABELS", help="choose each check's threshold from the human labels "
                       "or ratings of LABELS and write it into [tool.refscore.checks.NAME] of the configuration")
    group.add_argument("--label", metavar="FIELD", help="the human score to calibrate on (default: the file's only "
                       "one: label, mqm, da, rating, human ...)")
    group.add_argument("--pass-if", metavar="CUTOFF", help="a rating that satisfies this passes, e.g. '>= -1' "
                       "(MQM: at most one minor error); without it the labels must be pass/fail, true/false or 1/0")
    group.add_argument("--objective", choices=("accuracy", "f1", "precision"), default="accuracy",
                       help="what the threshold maximises (precision: the most passes at --target-precision)")
    group.add_argument("--target-precision", type=float, metavar="P", help="with --objective precision: the share "
                       "of human passes among the cases the check passes that the threshold must keep")
    group.add_argument("--system-folds", type=positive_int, metavar="K", help="also evaluate on held-out systems: "
                       "k-fold cross-validation by system (the systems shuffled with seed 12345, dealt into K "
                       "folds; each fold's cases decided by the threshold calibrated on the other folds; K = the "
                       "number of systems is leave-one-system-out)")
    group.add_argument("--no-write", action="store_true", help="print the thresholds, leave the configuration")
    group.add_argument("--align", choices=("strict", "intersect"), default="strict", help="systems that rate "
                       "different segments: refuse (default) or keep the segments every system rates")
    for field, default in (("system", "system"), ("segment", "seg_id, segment_id or id"),
                           ("hypothesis", "prediction, hypothesis, hyp, output or actual_output"),
                           ("references", "references, reference or expected_output"), ("source", "source, src")):
        group.add_argument(f"--{field}-field", metavar="NAME", help=f"the field of the {field} (default: {default})")


def fields_from_args(args: argparse.Namespace) -> Any:
    """:class:`refscore.meta.inputs.JudgmentFields` of the ``--*-field`` flags and ``--label``."""
    from refscore.meta.inputs import JudgmentFields

    given = {name: getattr(args, f"{name}_field") for name in ("system", "segment", "hypothesis", "references",
                                                                "source")}
    fields = {name: value for name, value in given.items() if value is not None}
    if args.label is not None:
        fields["human"] = (args.label,)
    return JudgmentFields(**fields)


def _human_name(judgments: Any, label: str | None) -> str:
    if label is not None:
        return label
    if len(judgments.human_names) != 1:
        raise CliError(f"{judgments.source_file} has {len(judgments.human_names)} human scores "
                       f"({', '.join(judgments.human_names)}); choose one with --label FIELD", ExitCode.USAGE)
    return judgments.human_names[0]


def _flags(message: str) -> str:
    """A library error in the command line's words (``target_precision`` -> ``--target-precision``)."""
    for pattern, flag in _FLAGS.items():
        message = re.sub(pattern, flag, message)
    return message


def calibrations(args: argparse.Namespace, checks: list[Any]) -> dict[str, Any]:
    """Each check's calibration on the labels of ``args.calibrate``, as a JSON-ready document."""
    from refscore.meta.calibration import calibrate, labels_from_ratings
    from refscore.meta.holdout import held_out
    from refscore.meta.inputs import load_judgments

    judgments = load_judgments(args.calibrate, fields_from_args(args), align=args.align)
    human = _human_name(judgments, args.label)
    folds = getattr(args, "system_folds", None)
    results = []
    try:
        labels = labels_from_ratings(judgments.human[human].ravel(), args.pass_if)
        systems = [system for system in judgments.systems for _ in judgments.segment_ids]   # system-major cells
        for check in checks:
            scores = judgments.metric_scores(check.metric, num_threads=args.num_threads).ravel()
            options = {"higher_is_better": check.higher_is_better,
                       "threshold_range": check.metric_class.threshold_range, "objective": args.objective,
                       "target_precision": args.target_precision}
            result = calibrate(scores, labels, **options, n_bootstrap=args.n_bootstrap, seed=SEED)
            held = held_out(scores, labels, systems, folds, **options, seed=SEED) if folds else None
            results.append({"name": check.name, "label": check.label, "metric": check.canonical, **result.to_dict(),
                            "held_out": held and held.to_dict()})
    except InputError as exc:
        raise InputError(_flags(str(exc))) from None
    return {FORMAT_KEY: FORMAT_VERSION, "labels": os.fspath(args.calibrate), "human": human,
            "pass_if": args.pass_if, "objective": args.objective, "seed": SEED, "n_bootstrap": args.n_bootstrap,
            "system_folds": folds, "systems": judgments.systems, "checks": results}


def text_report(document: dict[str, Any], written: str | None) -> str:
    """The calibration as a table: per check the threshold, the objective's value with its interval, the held-out
    value (``--system-folds``), the baseline and the counts."""
    cut = f" (pass if {document['human']} {document['pass_if']})" if document["pass_if"] else ""
    objective = _OBJECTIVE_NAMES[document["objective"]]
    folds = document.get("system_folds")
    held = f"held-out ({folds} folds)" if folds else ""
    lines = [f"refscore check --calibrate: {document['labels']}, human score {document['human']!r}{cut}; "
             f"thresholds on the 0–1 scale (scores from outside on their own scale); objective "
             f"{document['objective']}, 95% bootstrap interval ({document['n_bootstrap']} resamples, seed "
             f"{document['seed']}) at the chosen threshold, in-sample"
             + (f"; held-out: {folds}-fold cross-validation by system (each system's cases decided by the "
                f"threshold calibrated without it)" if folds else "")
             + "; baseline: the better of passing and failing everything",
             f"{'check':<12} {'threshold':>10}  {objective:<22}  {held:>{len(held)}}{'  ' if held else ''}"
             f"{'baseline':>8}  {'accuracy':>8} {'precision':>9} {'recall':>6} {'F1':>6}  "
             f"cases (human passes, check passes, unlabelled)"]
    for item in document["checks"]:
        low, high = item["interval"]
        direction = ">=" if item["higher_is_better"] else "<="
        value = f"{item['agreement']:.3f} [{low:.3f}, {high:.3f}]"
        held_value = f"{item['held_out']['agreement']:>{len(held)}.3f}  " if held else ""
        lines.append(f"{item['name']:<12} {direction} {fixed(item['threshold'], 4):<7}  {value:<22}  {held_value}"
                     f"{item['baseline']:8.3f}  {item['accuracy']:8.3f} {item['precision']:9.3f} "
                     f"{item['recall']:6.3f} {item['f1']:6.3f}  {item['cases']} ({item['human_passes']}, "
                     f"{item['check_passes']}, {item['missing']})")
    rules = sorted({item["baseline_rule"] for item in document["checks"]})
    lines.append(f"baseline rule: {', '.join(rules)}")
    lines.append(f"thresholds written to {written}" if written else
                 "thresholds not written (--no-write, or no configuration: pass --config FILE)")
    return "\n".join(lines)


def settings(args: argparse.Namespace, load: Any) -> Any:
    """The configuration's settings (``load(args)``), or empty ones when ``--config FILE`` does not exist yet: the
    calibration creates it."""
    from refscore.testing.config import Settings

    if args.config is not None and not os.path.exists(args.config):
        return Settings()
    return load(args)


def run_calibration(args: argparse.Namespace, checks: list[Any]) -> int:
    """``refscore check --calibrate``: calibrate, write the thresholds back, print, optionally save."""
    from refscore.io.atomic import check_output_paths, write_text_atomically
    from refscore.meta.calibration import write_threshold
    from refscore.testing.config import find_pyproject

    path = os.fspath(args.calibrate)
    if not any(char in path for char in "*?[") and not os.path.isfile(path):
        raise CliError(f"cannot read the labels file {path} (--calibrate): No such file or directory",
                       ExitCode.UNREADABLE_FILE)
    target = None if args.no_write else (args.config or find_pyproject())
    check_output_paths({"--config": target, "--save": args.save}, [("--calibrate", path)])   # before the work
    document = calibrations(args, checks)
    if target is not None:
        for item in document["checks"]:
            write_threshold(target, item["name"], item["threshold"])
    if args.save:
        write_text_atomically(args.save, json.dumps(document, indent=1) + "\n", "--save")
    print(json.dumps(document) if args.format == "json" else text_report(document, target and os.fspath(target)))
    return ExitCode.OK


__all__ = ["FORMAT_KEY", "FORMAT_VERSION", "add_arguments", "calibrations", "run_calibration", "settings"]
