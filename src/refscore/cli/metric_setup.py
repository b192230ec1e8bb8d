"""Metrics from the command line, for ``score`` and ``compare`` alike: the metrics' own flags (generated from their
:attr:`~refscore.protocol.Metric.cli_options`), the shared options (table width), the metrics' runtime settings
(BERTScore's device and batch size), the command line's metric defaults (each metric's
``command_line_defaults``), and the checks that run before any input is read or model loaded.

``--segments`` scores BLEU as ``sacrebleu -sl`` does: sacreBLEU's command line turns on effective order for
sentence-level BLEU, so ``refscore score --segments`` does too unless ``--no-effective-order`` is given (the
signature says ``eff:yes``). The Python API keeps ``BLEU``'s documented default (``effective_order=False``).
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from refscore.cli.arguments import apply_progress, argument_type, grouped_options, non_negative_int, option_assignment
from refscore.cli.exit_codes import ExitCode
from refscore.cli.exit_codes import CliError
from refscore.cli.metric_flags import add_flag, declared_flags
from refscore.errors import InputError
from refscore.metrics import REGISTRY, get_metric_class
from refscore.metrics.external_names import EXTERNAL_PREFIX, PAIR_FIELD, external_name, external_path

if TYPE_CHECKING:   # a command's parser is built without the metrics' protocol (numpy): docs/cli.md, start-up
    from refscore.protocol import CliOption, Metric


def add_width_argument(parser: argparse.ArgumentParser, default: int | None, default_text: str) -> None:
    parser.add_argument("--width", "-w", type=non_negative_int, default=default, metavar="W",
                        help=f"decimals of the 0–100 scores in text output (default: {default_text})")


def add_runtime_arguments(parser: argparse.ArgumentParser) -> None:
    """The metrics' settings that do not change their numbers (:attr:`~refscore.protocol.Metric.runtime_cli_options`:
    BERTScore's device and batch size), so they are not part of a metric's config hash; declared without importing
    the metrics (refscore.cli.metric_flags)."""
    group = parser.add_argument_group("runtime settings (no effect on the scores)")
    for spec in declared_flags().values():
        if spec.runtime:
            add_flag(group, spec)


def runtime_options(cls: type[Metric], args: argparse.Namespace) -> dict[str, Any]:
    """Constructor arguments of metric class ``cls`` that come from the runtime flags given."""
    return {option.field: getattr(args, option.dest) for option in cls.runtime_cli_options
            if getattr(args, option.dest, None) is not None}


def check_before_loading(metrics: list[Metric]) -> None:
    """Checks that would otherwise fail only after a model has loaded, each metric's own
    (``Metric.check_runtime_settings``: BERTScore's device; its model and layer were checked when it was built)."""
    for metric in metrics:
        try:
            metric.check_runtime_settings()
        except InputError as exc:
            raise CliError(f"{metric.name}: {exc}", ExitCode.BAD_INPUT) from None


def add_metric_arguments(parser: argparse.ArgumentParser) -> None:
    """Every metric's flags, from their declarations (refscore.cli.metric_flags: no metric module is imported to
    build the parser; a flag's value is converted by its metric when given), deduplicated by destination: a shared
    flag such as --lowercase sets all selected metrics that have it."""
    group = parser.add_argument_group("metric options (each applies to the selected metrics that have it)")
    group.add_argument("--language-pair", "-l", dest="language_pair", metavar="SRC-TGT",
                       type=argument_type(_language_pair),
                       help="source and target language, as sacreBLEU's -l: BLEU's tokenizer is the one sacreBLEU "
                            "picks for the target (zh: zh, ja: ja-mecab, ko: ko-mecab, else 13a) unless "
                            "--tokenize is given")
    add_metric_option_argument(group)
    for spec in declared_flags().values():
        if not spec.runtime:
            add_flag(group, spec)


def _language_pair(text: str) -> Any:
    from refscore.text.languages import parse_language_pair

    return parse_language_pair(text, "-l/--language-pair")


def flag_hint(message: str, options: Sequence[CliOption]) -> str:
    """The command-line flags of the Python argument names an error message mentions.

    >>> from refscore.protocol import CliOption
    >>> flag_hint("give model_type or lang", [CliOption(("--bertscore-model",), "model_type", "")])
    ' (on the command line: model_type is --bertscore-model)'
    """
    named = [f"{option.field} is {option.flags[0]}" for option in options
             if re.search(rf"\b{re.escape(option.field)}\b", message)]
    return f" (on the command line: {', '.join(named)})" if named else ""


def is_external(spec: str) -> bool:
    """Whether ``-m``'s ``spec`` is ``file:PATH`` (scores computed elsewhere; docs/external-scores.md)."""
    return external_path(spec) is not None


def metric_name(spec: str) -> str:
    """The name ``-m``'s ``spec`` is printed under, and that ``--metric-option NAME.OPTION=VALUE`` names: the
    scores' name for ``file:PATH`` (:func:`refscore.metrics.external.external_name`), else the registered metric's.

    >>> metric_name("file:runs/comet.{pair}.tsv"), metric_name("file:mqm.jsonl"), metric_name("chrF")
    ('comet', 'mqm', 'chrf')
    """
    name = external_name(spec)
    return metric_class(spec).name if name is None else name


def metric_class(spec: str) -> type[Metric]:
    """The registered metric class of ``-m``'s ``spec``; an unknown name is exit 3, with a hint when it looks like
    a scores file."""
    try:
        return get_metric_class(spec)
    except InputError as exc:
        from refscore.metrics.external import FORMATS

        hint = (f"; for scores computed elsewhere in a file, write -m {EXTERNAL_PREFIX}{spec.strip()}"
                if spec.strip().lower().endswith(tuple(FORMATS)) else "")
        raise CliError(f"{exc}{hint}", ExitCode.UNKNOWN_METRIC) from None


def external_metric(spec: str, declared: dict[str, Any] | None = None, name: str | None = None) -> Metric:
    """The metric of ``-m file:PATH``: the scores of a TSV/CSV/JSONL file, named ``name`` (default: the file's
    stem), with the options of ``--metric-option`` (``higher_is_better``, ``range``, ``scale``)."""
    from refscore.cli.io import check_readable
    from refscore.metrics.external import external_scores

    path = external_path(spec)
    if not path:
        raise CliError("-m file:PATH needs the path of a scores file (.tsv, .csv or .jsonl with the columns system, "
                       "id, score)", ExitCode.USAGE)
    check_readable(path, "-m file:")
    try:
        return external_scores(path, name=name, **(declared or {}))
    except (InputError, TypeError) as exc:   # InputTypeError too: a declared value of the wrong type
        where = ", ".join(f"--metric-option {name or metric_name(spec)}.{option}" for option in declared or {})
        raise CliError(f"-m {spec.strip()}{f' ({where})' if where else ''}: {exc}", ExitCode.BAD_INPUT) from None


def add_metric_option_argument(group: Any) -> None:
    """``--metric-option NAME.OPTION=VALUE`` (in the parser or argument group ``group``), parsed by the parser of
    ``check``'s ``--check-option``."""
    from refscore.metrics.external_names import OPTIONS

    group.add_argument("--metric-option", action="append", default=[], metavar="NAME.OPTION=VALUE",
                        type=option_assignment("NAME", "comet.higher_is_better=false or chrf.word_order=2"),
                        help=f"an option of one metric of -m, NAME as printed (a file: metric's file stem): "
                             f"{', '.join(OPTIONS)} of a file: metric (metricx.higher_is_better=false), a "
                             f"registered metric's own options (chrf.word_order=2); repeat; VALUE is JSON or text")


def metric_options(args: argparse.Namespace, specs: list[str]) -> list[dict[str, Any]]:
    """The ``--metric-option`` values of each of ``specs`` (``-m``'s metrics, in order); a NAME that is none of
    them, or an OPTION the metric does not take, is a usage error that names the valid ones."""
    from refscore.metrics.external_names import OPTIONS

    given = grouped_options(getattr(args, "metric_option", None) or [])
    names = [metric_name(spec) for spec in specs]
    for name, options in given.items():
        if name not in names:
            raise CliError(f"--metric-option {name}.{next(iter(options))}: no metric named {name!r} in -m; the "
                           f"metrics: {', '.join(names)} (a file: metric is named by its file's stem)",
                           ExitCode.USAGE)
        spec = specs[names.index(name)]
        valid = list(OPTIONS) if is_external(spec) else [
            field.name for field in dataclasses.fields(metric_class(spec).config_class)]
        unknown = [option for option in options if option not in valid]
        if unknown:
            what = ("a file: metric" if is_external(spec) else
                    f"{name} (a built-in metric's direction and scale are its own)")
            raise CliError(f"--metric-option {name}.{unknown[0]}: {what} has no option {unknown[0]!r}; its options: "
                           f"{', '.join(valid)}", ExitCode.USAGE)
    return [given.get(name, {}) for name in names]


def keyed_inputs(metrics: list[Metric], systems: dict[str, Any], names: dict[str, str] | None = None,
                 inputs: list[str] | None = None) -> dict[str, Any]:
    """``systems`` (name -> hypotheses) with each system's hypotheses as ``SystemSegments`` named ``names[name]``
    (default: its own name) when a metric reads its scores by key (:attr:`~refscore.protocol.Metric.keyed_scores`:
    ``-m file:PATH``); unchanged otherwise.

    The join key of a segment is (system, id): the ``id`` field of its record when ``inputs`` (the ``-i`` paths)
    are JSONL/CSV/TSV record files whose records carry one, else its 1-based segment number. A system's records
    either all carry an id or none does (Parquet records: segment numbers); an id given twice is an error."""
    if not any(metric.keyed_scores for metric in metrics):
        return systems
    from refscore.cli.io import is_record_file
    from refscore.metrics.external import SystemSegments

    names = names or {}
    keyed = {}
    for name, hypotheses in systems.items():
        ids = _record_ids(inputs, name) if inputs and is_record_file(inputs[0]) else None
        try:
            keyed[name] = SystemSegments(hypotheses, system=names.get(name, name), ids=ids)
        except InputError as exc:
            raise CliError(f"-m file:...: system {name}: {exc}", ExitCode.BAD_INPUT) from None
    return keyed


def _record_ids(inputs: list[str], system: str) -> list[str] | None:
    """The ``id`` fields of the records of ``system`` (a record system's name, ``path`` or ``path:system``); None
    when its records carry none."""
    from refscore.cli.record_fields import record_metadata, split_field

    _, ids = split_field(record_metadata(inputs, system), "id")
    if ids is None:
        return None
    if "" in ids:
        raise CliError(f"-m file:...: record {ids.index('') + 1} of {system} has no 'id' field but others have one; "
                       f"give every record of a system an id (the join key of its scores), or none (segment "
                       f"numbers)", ExitCode.BAD_INPUT)
    return ids


def refuse_external(metrics: list[Metric], where: str) -> None:
    """Scores from outside join on whole systems read into memory; ``where`` (a streamed or distributed run) does
    not keep a system's segments together, so it refuses them before any input is read."""
    names = [metric.name for metric in metrics if metric.keyed_scores]
    if names:
        raise CliError(f"-m file:...: scores from outside ({', '.join(names)}) are joined to whole systems in memory; "
                       f"{where} cannot use them: score them in a run of their own without that option",
                       ExitCode.USAGE)


def metrics_from_args(names: str, args: argparse.Namespace, pair: str | None = None) -> list[Metric]:
    """The metrics of ``-m`` with their flags and ``--metric-option`` values; ``pair``: a ``meta-eval LP=FILE``
    run's language pair, filled in for ``{pair}`` in the names (a ``file:`` metric keeps the name without it)."""
    specs = [spec.strip() for spec in names.split(",") if spec.strip()]
    metrics = []
    for spec, own in zip(specs, metric_options(args, specs)):
        filled = spec if pair is None else spec.replace(PAIR_FIELD, pair)
        if is_external(spec):
            metrics.append(external_metric(filled, own, metric_name(spec)))
            continue
        cls = metric_class(filled)
        options = {o.field: getattr(args, o.dest) for o in cls.cli_options if getattr(args, o.dest, None) is not None}
        options = cls.command_line_defaults({**options, **own}, segments=bool(getattr(args, "segments", False)))
        if getattr(args, "language_pair", None) is not None:   # -l SRC-TGT: sacreBLEU's tokenizer for the target
            options = cls.language_defaults(options, args.language_pair.target)
        try:
            metrics.append(cls(**options, **runtime_options(cls, args)))
        except (InputError, ValueError, TypeError) as exc:
            raise CliError(f"{spec}: {exc}{flag_hint(str(exc), cls.cli_options)}", ExitCode.BAD_INPUT) from None
    if not metrics:
        raise CliError("no metric selected; use -m with one or more of: " + ", ".join(REGISTRY),
                       ExitCode.UNKNOWN_METRIC)
    apply_progress(metrics, getattr(args, "progress", None))
    check_before_loading(metrics)
    return metrics


def selected_options(args: argparse.Namespace) -> list[CliOption]:
    """The command-line options of the metrics named by ``-m`` (none when the names are not metrics)."""
    options: list[CliOption] = []
    for name in str(getattr(args, "metrics", "") or "").split(","):
        try:
            options += get_metric_class(name.strip()).cli_options
        except InputError:
            continue
    return options
