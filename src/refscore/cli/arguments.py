"""argparse value types of the command line, whose errors name the flag and the accepted values, and the flags
commands share (--progress, --seed, -m/--metrics, -r/--references)."""
from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from refscore.cli.exit_codes import ExitCode
from refscore.cli.exit_codes import CliError


def int_argument(minimum: int, what: str = "value", allow_none: bool = False) -> Callable[[str], int | None]:
    """An argparse type: an integer >= ``minimum`` (or ``none`` when ``allow_none``).

    >>> int_argument(1)("4"), int_argument(0, "seed", allow_none=True)("none")
    (4, None)
    """
    accepted = f"give an integer >= {minimum}" + (" or 'none'" if allow_none else "")

    def parse(text: str) -> int | None:
        if allow_none and text.strip().lower() == "none":
            return None
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid {what} {text!r}: {accepted}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"invalid {what} {value}: {accepted}")
        return value

    return parse


#: Counts (threads, resamples, trials): integers >= 1.
positive_int = int_argument(1)
#: Decimals of a table: integers >= 0.
non_negative_int = int_argument(0)
#: ``--seed``: a non-negative integer, or ``none`` for fresh randomness.
parse_seed = int_argument(0, "seed", allow_none=True)


def argument_type(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    """``convert`` for argparse, whose own message for a failed conversion would name the Python function
    (``invalid _parse_types value``): the converter's error message is shown instead."""
    if convert in (str, int, float):
        return convert

    def parse(text: str) -> Any:
        try:
            return convert(text)
        except (ValueError, TypeError) as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def option_assignment(owner: str, examples: str) -> Callable[[str], tuple[str, str, Any]]:
    """The one parser of ``OWNER.OPTION=VALUE`` flags (``check --check-option``, ``--metric-option`` of the other
    commands): VALUE is read as JSON when it parses (``2``, ``true``, ``0.5``, ``[0, 1]``), else taken as text
    (``roberta-large``); ``owner`` and ``examples`` only word the error.

    >>> option_assignment("NAME", "comet.higher_is_better=false")("comet.range=[0, 1]")
    ('comet', 'range', [0, 1])
    >>> option_assignment("NAME", "comet.scale=100")("comet")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: expected NAME.OPTION=VALUE (e.g. comet.scale=100), got 'comet'
    """
    def parse(text: str) -> tuple[str, str, Any]:
        target, equals, raw = text.partition("=")
        name, dot, option = target.partition(".")
        if not (equals and dot and name.strip() and option.strip()):
            raise argparse.ArgumentTypeError(f"expected {owner}.OPTION=VALUE (e.g. {examples}), got {text!r}")
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        return name.strip(), option.strip(), value

    return parse


def grouped_options(assignments: list[tuple[str, str, Any]]) -> dict[str, dict[str, Any]]:
    """``OWNER.OPTION=VALUE`` flags (parsed by :func:`option_assignment`) as owner -> {option: value}; a later
    flag for the same option wins.

    >>> grouped_options([("comet", "scale", 100), ("comet", "higher_is_better", False)])
    {'comet': {'scale': 100, 'higher_is_better': False}}
    """
    grouped: dict[str, dict[str, Any]] = {}
    for name, option, value in assignments:
        grouped.setdefault(name, {})[option] = value
    return grouped


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    """``--progress/--no-progress``: force progress bars (on stderr) on or off; by default (None) a bar shows for
    a run expected to take more than about two seconds when stderr is a terminal (refscore.progress)."""
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress bars on stderr (default: for long runs when stderr is a terminal)")


def apply_progress(metrics: list[Any], progress: bool | None) -> None:
    """Give ``--progress/--no-progress`` to the metrics (those that draw bars take it: ``Metric.set_progress``)."""
    for metric in metrics:
        metric.set_progress(progress)


def add_seed_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=parse_seed, default=12345, metavar="S",
                        help="random seed (default: 12345, as sacreBLEU); 'none' for fresh randomness")


def add_metrics_argument(parser: argparse.ArgumentParser, default: str) -> None:
    """``-m/--metrics``: comma-separated metric names (``default`` when absent); the help lists the registered
    ones.

    >>> parser = argparse.ArgumentParser()
    >>> add_metrics_argument(parser, "bleu,chrf")
    >>> parser.parse_args([]).metrics, parser.parse_args(["-m", "ter"]).metrics
    ('bleu,chrf', 'ter')
    >>> parser.parse_args(["-m", "ter", "-m", "chrf,bleu"]).metrics
    'ter,chrf,bleu'
    """
    from refscore.metrics import REGISTRY

    parser.add_argument("-m", "--metrics", default=default, action=_MetricNames,
                        help=f"comma-separated metrics, or -m repeated (default: {default}); known: "
                        + ", ".join(REGISTRY))


class _MetricNames(argparse.Action):
    """``-m`` given again adds its names (``-m bleu -m chrf`` is ``-m bleu,chrf``), where argparse's plain store
    would silently keep only the last."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        given = f"_{self.dest}_given"   # the default is replaced, a given -m extended (equal text is no sign)
        previous = getattr(namespace, self.dest, None) if getattr(namespace, given, False) else None
        setattr(namespace, self.dest, values if previous is None else f"{previous},{values}")
        setattr(namespace, given, True)


def add_references_argument(parser: argparse.ArgumentParser, positional: bool = False) -> None:
    """``-r/--references``: a reference file, one segment per line; repeated for several references. With
    ``positional``, reference files may also be given as sacreBLEU takes them, before the options
    (``sacrebleu REF... -i HYP``); :func:`reference_files` reads either form.

    >>> parser = argparse.ArgumentParser()
    >>> add_references_argument(parser, positional=True)
    >>> parser.parse_args(["-r", "ref.en", "-r", "ref2.en"]).references
    ['ref.en', 'ref2.en']
    >>> reference_files(parser.parse_args(["ref.en", "ref2.en"]))
    ['ref.en', 'ref2.en']
    """
    parser.add_argument("-r", "--references", action="append", default=[], metavar="FILE",
                        help="reference file, one segment per line; repeat for several references")
    if positional:
        parser.add_argument("positional_references", nargs="*", default=[], metavar="REF",
                            help="reference file(s) in sacreBLEU's order, before -i (refscore score REF.txt -i "
                            "HYP.txt, as sacrebleu REF.txt -i HYP.txt): the same as -r REF.txt")


def reference_files(args: argparse.Namespace) -> list[str]:
    """The reference files of ``-r`` or, in sacreBLEU's order, of the positional ``REF...`` arguments; both
    at once is a usage error (which of them would be meant is not clear)."""
    positional = getattr(args, "positional_references", [])
    if positional and args.references:
        raise CliError(f"references given both with -r ({' '.join(args.references)}) and as positional arguments "
                       f"({' '.join(positional)}); give them one way: -r REF.txt, or REF.txt before -i as in "
                       f"sacreBLEU", ExitCode.USAGE)
    return list(positional or args.references)


def add_system_score_argument(parser: argparse.ArgumentParser) -> None:
    """``--system-score corpus|rated_mean``: a metric's system score against human judgments (``meta-eval``,
    ``report --judgments``; :data:`refscore.meta.evaluate.SYSTEM_SCORES`).

    >>> parser = argparse.ArgumentParser()
    >>> add_system_score_argument(parser)
    >>> parser.parse_args([]).system_score, parser.parse_args(["--system-score", "rated_mean"]).system_score
    ('corpus', 'rated_mean')
    """
    from refscore.meta.evaluate import SYSTEM_SCORES

    parser.add_argument("--system-score", choices=SYSTEM_SCORES, default="corpus",
                        help="a metric's system score: its corpus score over all segments (corpus, the default: "
                        "WMT's and mt-metrics-eval's) or the mean of its sentence scores over the rated segments "
                        "(rated_mean)")
