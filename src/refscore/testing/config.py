"""``[tool.refscore]`` in ``pyproject.toml``: the checks, thresholds, bands and gates of ``refscore check`` and the
pytest plugin.

.. code-block:: toml

    [tool.refscore]
    cases = "tests/cases.jsonl"     # optional: the default cases file
    alpha = 0.05                    # significance level of the baseline gate

    [tool.refscore.checks.bleu]
    threshold = 0.3
    bands = { "very strong overlap" = 0.6, "moderate overlap" = 0.3, "low overlap" = 0.0 }

    [tool.refscore.checks.rougeL]
    threshold = 0.5
    min_mean = 0.55
    min_pass_rate = 0.9

    [tool.refscore.checks.chrfpp]
    metric = "chrf"                 # the table name is the check's name; metric defaults to it
    options = { word_order = 2 }

    [tool.refscore.checks.comet]    # scores computed elsewhere, joined to the cases by case id
    metric = "file:scores/comet.jsonl"   # relative to this pyproject.toml
    threshold = 0.8
    options = { range = [0, 1] }    # higher_is_better = true unless declared otherwise

>>> settings = settings_from_mapping({"checks": {"rougeL": {"threshold": 0.4}}}, "pyproject.toml")
>>> settings.checks
[Check('rougeL', threshold=0.4)]
"""
from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from refscore.errors import InputError
from refscore.io.limits import parse_bounded, read_file_within_budget
from refscore.metrics.external import spec_in_folder
from refscore.testing.checks import Check

SETTINGS_KEYS = ("cases", "checks", "alpha", "explain", "no_output_is_error")
CHECK_KEYS = ("metric", "threshold", "bands", "min_mean", "min_pass_rate", "options")


class ConfigError(InputError):
    """``[tool.refscore]`` cannot be read or holds a wrong value; the message names the file and the key."""


@dataclass
class Settings:
    """What ``[tool.refscore]`` sets (defaults where it is absent)."""

    checks: list[Check] = field(default_factory=list)
    cases: str | None = None
    alpha: float = 0.05
    explain: str = "failing"
    no_output_is_error: bool = False
    source: str | None = None


def _toml() -> Any:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10 has the tomli backport (a dependency there)
        import tomli as tomllib
    return tomllib


def _reject_unknown_keys(table: Mapping[str, Any], valid_keys: tuple[str, ...], where: str, hint: str = "") -> None:
    """A :class:`ConfigError` naming the first key of ``table`` (in sorted order) that is not a valid key."""
    unknown = sorted(set(table) - set(valid_keys))
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r}; valid keys: {', '.join(valid_keys)}{hint}")


def check_from_mapping(name: str, table: Any, source: str) -> Check:
    """One ``[tool.refscore.checks.NAME]`` table as a :class:`Check`."""
    where = f"{source}: [tool.refscore.checks.{name}]"
    if not isinstance(table, Mapping):
        if isinstance(table, (int, float)) and not isinstance(table, bool):   # `bleu = 0.3` shorthand
            table = {"threshold": table}
        else:
            raise ConfigError(f"{where} must be a table (threshold = ..., bands = {{...}}) or a threshold number")
    _reject_unknown_keys(table, CHECK_KEYS, where, " (metric options go in options = {...})")
    options = table.get("options", {})
    if not isinstance(options, Mapping):
        raise ConfigError(f"{where}: options must be a table, e.g. options = {{ tokenize = \"intl\" }}")
    arguments = {key: table[key] for key in ("threshold", "bands", "min_mean", "min_pass_rate") if key in table}
    metric = spec_in_folder(table.get("metric", name), Path(source).parent)   # file:PATH: from the file's folder
    try:
        return Check(metric, name=name, **arguments, **options)
    except (InputError, TypeError) as exc:
        raise type(exc)(f"{where}: {exc}") from None


def settings_from_mapping(table: Any, source: str) -> Settings:
    """:class:`Settings` from the contents of ``[tool.refscore]``."""
    if not isinstance(table, Mapping):
        raise ConfigError(f"{source}: [tool.refscore] must be a table")
    _reject_unknown_keys(table, SETTINGS_KEYS, f"{source}: [tool.refscore]")
    checks_table = table.get("checks", {})
    if not isinstance(checks_table, Mapping):
        raise ConfigError(f"{source}: [tool.refscore.checks] must be a table of checks, e.g. "
                          f"[tool.refscore.checks.bleu] threshold = 0.3")
    settings = Settings(checks=[check_from_mapping(name, value, source) for name, value in checks_table.items()],
                        source=source)
    if "cases" in table:
        if not isinstance(table["cases"], str):
            raise ConfigError(f"{source}: [tool.refscore] cases must be a path string")
        settings.cases = str((Path(source).parent / table["cases"]))
    if "alpha" in table:
        alpha = table["alpha"]
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
            raise ConfigError(f"{source}: [tool.refscore] alpha must be a number between 0 and 1, got {alpha!r}")
        settings.alpha = float(alpha)
    if "explain" in table:
        if table["explain"] not in ("failing", "all", "none"):
            raise ConfigError(f"{source}: [tool.refscore] explain must be 'failing', 'all' or 'none'")
        settings.explain = table["explain"]
    if "no_output_is_error" in table:
        if not isinstance(table["no_output_is_error"], bool):
            raise ConfigError(f"{source}: [tool.refscore] no_output_is_error must be true or false")
        settings.no_output_is_error = table["no_output_is_error"]
    return settings


def load_settings(path: Any) -> Settings:
    """:class:`Settings` from a ``pyproject.toml`` (empty settings when it has no ``[tool.refscore]``)."""
    source = str(path)
    try:
        data = read_file_within_budget(path)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot read the configuration {source}: {exc.strerror}") from None
    toml = _toml()
    try:
        document = parse_bounded(toml.loads, data.decode("utf-8"), source)
    except (toml.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{source} is not valid TOML ({exc}); fix the file or pass --config") from None
    table = document.get("tool", {}).get("refscore")
    return Settings(source=source) if table is None else settings_from_mapping(table, source)


def find_pyproject(start: Any = ".") -> Path | None:
    """The nearest ``pyproject.toml`` in ``start`` or a parent folder."""
    folder = Path(start).resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / "pyproject.toml").is_file():
            return candidate / "pyproject.toml"
    return None


__all__ = ["ConfigError", "Settings", "check_from_mapping", "find_pyproject", "load_settings",
           "settings_from_mapping"]
