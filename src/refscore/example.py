"""The bundled example: a few hundred segments of real system outputs, scored by ``refscore example``.

>>> from refscore.example import load_example
>>> example = load_example()
>>> sorted(example.systems)[:1], len(example.references) == len(next(iter(example.systems.values())))
(['PROMT-Rule-based'], True)
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from refscore.errors import MissingExtraError, MissingModelError
from refscore.metrics import REGISTRY, get_metric_class
from refscore.protocol import Metric


@dataclass(frozen=True)
class Example:
    description: str
    systems: dict[str, list[str]]
    references: list[list[str]]


def _read(name: str) -> list[str]:
    text = (resources.files("refscore") / "data" / "wmt17_en_de" / name).read_text(encoding="utf-8")
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def load_example() -> Example:
    """The WMT17 en→de sample: 3 systems × 300 segments, one reference (see refscore/data/CREDITS.md)."""
    systems = {name: _read(f"{name}.txt") for name in ("uedin-nmt", "online-B", "PROMT-Rule-based")}
    references = [[line] for line in _read("ref.txt")]
    return Example("WMT17 newstest2017 en-de, first 300 segments, 3 systems, 1 reference "
                   "(sacreBLEU test data, Apache-2.0)", systems, references)


def load_summarization_example() -> Example:
    """The XSum sample: 4 systems x 75 documents (300 summaries), one reference (see refscore/data/CREDITS.md)."""
    text = (resources.files("refscore") / "data" / "xsum_maynez2020" / "summaries.jsonl").read_text("utf-8")
    systems: dict[str, list[str]] = {}
    references: dict[str, list[str]] = {}
    for line in text.splitlines():
        record = json.loads(line)
        systems.setdefault(record["system"], []).append(record["prediction"])
        references.setdefault(record["id"], record["references"])
    return Example("XSum summaries of Maynez et al. 2020, first 75 documents, 4 systems, 1 reference (CC BY 4.0)",
                   systems, list(references.values()))


def example_sets() -> list[tuple[Example, list[Metric], dict[str, str]]]:
    """Each bundled example with the metrics scored on it (and those skipped for a missing extra)."""
    translation, translation_skipped = example_metrics("translation")
    summarization, summarization_skipped = example_metrics("summarization")
    return [(load_example(), translation, translation_skipped),
            (load_summarization_example(), summarization, summarization_skipped)]


def example_metrics(task: str) -> tuple[list[Metric], dict[str, str]]:
    """The registered metrics the example of ``task`` scores (their :attr:`~refscore.protocol.Metric.example_task`),
    as :meth:`~refscore.protocol.Metric.for_example` makes them; those whose extra is missing are reported, not
    fatal."""
    metrics: list[Metric] = []
    skipped: dict[str, str] = {}
    for name in REGISTRY:
        cls = get_metric_class(name)
        if cls.example_task != task:
            continue
        try:
            metrics.append(cls.for_example())
        except (MissingExtraError, MissingModelError) as exc:  # BERTScore's extra, METEOR's WordNet
            skipped[name] = str(exc)
    return metrics, skipped
