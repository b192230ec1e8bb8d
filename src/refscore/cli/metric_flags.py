"""Every metric's command-line flags without importing the metrics: the first phase of the command line.

The flags are declared once, by each metric class (:attr:`~refscore.protocol.Metric.cli_options` and
``runtime_cli_options``). Importing every metric class to build a parser would load BERTScore's, METEOR's and
ROUGE-1.5.5's modules for ``refscore --help``, and a broken plug-in would take every command down. So the parser is
built from :data:`refscore.metrics.flag_table.BUILT_IN`, a copy of the built-in metrics' declarations that
``tests/test_cli_startup.py`` compares with the classes (regenerate it with ``python -m refscore.cli.metric_flags
> src/refscore/metrics/flag_table.py``); plug-ins are read from their classes, and one that cannot be loaded is
left out with one warning line. The second phase is the value: a flag's converter (``--rouge-types``'s parser,
``--chrf-beta``'s number) is the metric's own, imported when the flag is given (:class:`LazyConverter`), and the
metrics ``-m`` selects are built from their classes (:func:`refscore.cli.metric_setup.metrics_from_args`).

>>> spec = declared_flags()["chrf_beta"]
>>> spec.flags, spec.metrics, spec.is_bool
(('--chrf-beta',), ('chrf',), False)
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from refscore.metrics.flag_table import BUILT_IN


@dataclass(frozen=True)
class FlagSpec:
    """One flag as the parser needs it: ``dest`` (the argparse destination), ``flags``, ``field`` (the config
    field it sets), ``help``, whether it is an on/off switch, its ``choices`` (None: any value), the ``metrics``
    that have it (the first one's converter reads the value) and whether it is a runtime setting (no effect on the
    scores, not in the config hash)."""

    dest: str
    flags: tuple[str, ...]
    field: str
    help: str
    is_bool: bool
    choices: tuple[Any, ...] | None
    metrics: tuple[str, ...]
    runtime: bool = False


def _spec_rows(metric: str, options: Iterable[Any], runtime: bool) -> list[FlagSpec]:
    """FlagSpecs of a metric class's :class:`~refscore.protocol.CliOption` objects."""
    return [FlagSpec(option.dest, tuple(option.flags), option.field, option.help, option.type is bool,
                     tuple(option.choices) if option.choices is not None else None, (metric,), runtime)
            for option in options]


def class_flags(metric: str, cls: type) -> list[FlagSpec]:
    """The flags metric class ``cls`` (registered as ``metric``) declares: its config flags, then its runtime ones."""
    options, runtime = cls.cli_options, cls.runtime_cli_options  # type: ignore[attr-defined]  # a Metric class attribute
    return _spec_rows(metric, options, False) + _spec_rows(metric, runtime, True)


def built_in_flags() -> dict[str, list[FlagSpec]]:
    """The built-in metrics' flags from the declared table (no metric imported), by metric."""
    return {name: [FlagSpec(*row[:6], (name,), row[6]) for row in table]  # type: ignore[call-arg]  # rows of the table
            for name, table in BUILT_IN.items()}


def _plugin_flags() -> list[FlagSpec]:
    """The flags of the installed plug-ins (importing them); one that cannot be loaded is left out with one
    warning (refscore.metrics.metric_classes)."""
    from refscore.metrics import REGISTRY, metric_classes

    plugins = [name for name in REGISTRY if name not in BUILT_IN]
    rows: list[FlagSpec] = []
    for name, cls in metric_classes(plugins) if plugins else ():
        rows += class_flags(name, cls)
    return rows


def _merged(rows: Iterable[FlagSpec]) -> dict[str, FlagSpec]:
    """Flags by destination; a flag several metrics share (``--tokenize``, ``--lowercase``) sets all of them and
    accepts the choices of every metric that has it (each selected metric's configuration then refuses a value it
    does not know, naming the flag)."""
    merged: dict[str, FlagSpec] = {}
    for row in rows:
        first = merged.setdefault(row.dest, row)
        if first is row:
            continue
        choices = first.choices
        if first.choices is not None and row.choices is not None:
            choices = first.choices + tuple(c for c in row.choices if c not in first.choices)
        helps = first.help if row.help in first.help or first.choices is None or row.choices is None \
            else f"{first.help}; {row.help}"
        merged[row.dest] = replace(first, choices=choices, help=helps, metrics=first.metrics + row.metrics)
    return merged


def declared_flags(with_plugins: bool = True) -> dict[str, FlagSpec]:
    """Every registered metric's flags by destination, in registry order, the built-in ones from the declared
    table (no metric module imported) and, with ``with_plugins``, the plug-ins' from their classes."""
    rows = [row for table in built_in_flags().values() for row in table]
    return _merged([*rows, *(_plugin_flags() if with_plugins else [])])


class LazyConverter:
    """An argparse ``type`` that converts a flag's value with its metric's own converter, importing the metric only
    when the flag is given; argparse shows the converter's error message (:func:`refscore.cli.arguments
    .argument_type`)."""

    def __init__(self, spec: FlagSpec) -> None:
        self.spec = spec
        self.__name__ = spec.dest   # argparse names a type by it in some messages

    def __call__(self, text: str) -> Any:
        from refscore.cli.arguments import argument_type
        from refscore.metrics import get_metric_class

        cls = get_metric_class(self.spec.metrics[0])
        options = cls.runtime_cli_options if self.spec.runtime else cls.cli_options
        convert = next(option.type for option in options if option.dest == self.spec.dest)
        return argument_type(convert)(text)


def add_flag(group: Any, spec: FlagSpec) -> None:
    """Add one declared flag to an argparse parser or group (default None: "not given")."""
    if spec.is_bool:
        group.add_argument(*spec.flags, dest=spec.dest, action=argparse.BooleanOptionalAction, default=None,
                           help=spec.help)
    else:
        group.add_argument(*spec.flags, dest=spec.dest, type=LazyConverter(spec), choices=spec.choices,
                           default=None, help=spec.help)


def flags_by_metric(with_plugins: bool = True) -> dict[str, list[str]]:
    """metric name -> its flags (the first spelling of each), for the help's list of metrics.

    >>> flags_by_metric(False)["ter"][:2]
    ['--ter-normalized', '--ter-no-punct']
    """
    by_metric: dict[str, list[str]] = {}
    for name, table in built_in_flags().items():
        by_metric[name] = [row.flags[0] for row in table]
    for row in _plugin_flags() if with_plugins else []:
        by_metric.setdefault(row.metrics[0], []).append(row.flags[0])
    return by_metric


def render_table() -> str:
    """The source of :mod:`refscore.metrics.flag_table` as the built-in metric classes declare their flags now
    (imports every built-in metric)."""
    from refscore.metrics import built_in_names, get_metric_class

    lines = ['"""The built-in metrics\' command-line flags, as their classes declare them, generated by',
             "``python -m refscore.cli.metric_flags`` (``tests/test_cli_startup.py`` checks it against the classes):",
             "what the parser is built from without importing a metric (refscore.cli.metric_flags). A row: dest,",
             "flags, config field, help, on/off switch, choices (None: any), runtime setting. Beside the registry:",
             'the metrics\' own facts, in a copy that imports nothing."""',
             "from __future__ import annotations", "", "from typing import Any", "", '__all__ = ["BUILT_IN"]', "",
             "#: metric name -> its flags (config flags, then runtime settings), in registry order.",
             "BUILT_IN: dict[str, tuple[tuple[Any, ...], ...]] = {"]
    for name in built_in_names():
        lines.append(f"    {name!r}: (")
        for row in class_flags(name, get_metric_class(name)):
            lines.append(f"        ({row.dest!r}, {row.flags!r}, {row.field!r},")
            lines.append(f"         {row.help!r},")
            lines.append(f"         {row.is_bool!r}, {row.choices!r}, {row.runtime!r}),")
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover - regenerates metrics/flag_table.py
    sys.stdout.write(render_table())
