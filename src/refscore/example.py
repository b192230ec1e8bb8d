"""The bundled example: a few hundred segments of real system outputs, scored by ``refscore example``.

>>> from refscore.example import load_example
>>> example = load_example()
>>> sorted(example.systems)[:1], len(example.references) == len(next(iter(example.systems.values())))
(['PROMT-Rule-based'], True)
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from refscore.errors import MissingExtraError
from refscore.metrics import REGISTRY, get_metric_class
from refscore.metrics.base import Metric


@dataclass(frozen=True)
class Example:
    description: str
    systems: dict[str, list[str]]
    references: list[list[str]]


def _read(name: str) -> list[str]:
    text = resources.files("refscore").joinpath("data", "wmt17_en_de", name).read_text(encoding="utf-8")
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def load_example() -> Example:
    """The WMT17 en→de sample: 3 systems × 300 segments, one reference (see refscore/data/CREDITS.md)."""
    systems = {name: _read(f"{name}.txt") for name in ("uedin-nmt", "online-B", "PROMT-Rule-based")}
    references = [[line] for line in _read("ref.txt")]
    return Example("WMT17 newstest2017 en-de, first 300 segments, 3 systems, 1 reference "
                   "(sacreBLEU test data, Apache-2.0)", systems, references)


def example_metrics() -> tuple[list[Metric], dict[str, str]]:
    """Every registered metric with default settings; those whose extra is missing are reported, not fatal."""
    metrics: list[Metric] = []
    skipped: dict[str, str] = {}
    for name in REGISTRY:
        cls = get_metric_class(name)
        try:
            metrics.append(cls.for_example() if hasattr(cls, "for_example") else cls())
        except MissingExtraError as exc:
            skipped[name] = str(exc)
    return metrics, skipped
