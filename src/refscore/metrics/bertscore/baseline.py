"""Baseline rescaling files in bert-score's format: a header ``LAYER,P,R,F`` and one row per hidden state
(layer 0 = embeddings ... layer L), comma-separated despite the ``.tsv`` name.

Rescaling is ``(x - b) / (1 - b)`` per component with ``b`` from the row of the layer used (float32, as bert-score).
"""
from __future__ import annotations

import csv
import importlib.util
import os
from pathlib import Path
from typing import Any

import numpy as np

from refscore.io.atomic import atomic_write
from refscore.checks import check_count
from refscore.errors import InputError

__all__ = [
    "builtin_baseline_path", "compute_baseline", "format_baseline", "HEADER", "random_pairs", "read_baseline",
    "rescale", "resolve_baseline_path", "write_baseline",
]

HEADER = ("LAYER", "P", "R", "F")


def builtin_baseline_path(lang: str | None, model_type: str) -> Path | None:
    """bert-score's shipped baseline file for (lang, model), when bert-score is installed (not imported)."""
    if lang is None:
        return None
    lang = lang.lower()  # bert-score's files are under lower-case codes
    spec = importlib.util.find_spec("bert_score")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "rescale_baseline" / lang / f"{model_type}.tsv"
    return path if path.is_file() else None


def resolve_baseline_path(baseline_path: str | os.PathLike[str] | None, lang: str | None, model_type: str) -> Path:
    """The file to rescale with: ``baseline_path`` if given, else bert-score's built-in file for ``lang``."""
    if baseline_path is not None:
        path = Path(baseline_path)
        if not path.is_file():
            raise InputError(f"baseline_path {str(path)!r} is not a file; give a baseline TSV in bert-score's format "
                             f"(create one with `refscore bertscore-baseline --model MODEL --corpus FILE`)")
        return path
    builtin = builtin_baseline_path(lang, model_type)
    if builtin is None:
        where = "lang is not set" if lang is None else f"bert-score has no built-in baseline for {model_type!r} " \
                                                        f"in language {lang!r} (or bert-score is not installed)"
        raise InputError(f"rescale_with_baseline=True needs a baseline: {where}; pass baseline_path=FILE (create one "
                         f"with `refscore bertscore-baseline --model {model_type} --corpus FILE`)")
    return builtin


def read_baseline(path: str | os.PathLike[str], total_layers: int | None) -> np.ndarray:
    """The ``(layers + 1, 3)`` float32 table of P/R/F baselines, checked against the model's layer count."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            rows = [row for row in csv.reader(handle) if row]
    except OSError as exc:
        raise InputError(f"cannot read baseline file {str(path)!r}: {exc.strerror or exc}") from None
    if not rows or len(rows[0]) != 4:
        raise InputError(f"baseline file {str(path)!r} must start with the header LAYER,P,R,F (comma-separated, "
                         f"bert-score's format)")
    if _numeric(rows[0]):
        raise InputError(f"baseline file {str(path)!r} has no header: line 1 is {','.join(rows[0])!r}, a row of "
                         f"numbers (bert-score would read it as the header and shift every layer by one); add the "
                         f"line LAYER,P,R,F at the top")
    values = []
    for line_number, row in enumerate(rows[1:], start=2):
        if len(row) != 4:
            raise InputError(f"baseline file {str(path)!r} line {line_number}: expected 4 comma-separated fields "
                             f"(LAYER,P,R,F), got {len(row)}")
        try:
            values.append([float(field) for field in row[1:]])
        except ValueError:
            raise InputError(f"baseline file {str(path)!r} line {line_number}: {row!r} is not numeric") from None
    table = np.asarray(values, dtype=np.float64).reshape(-1, 3).astype(np.float32)
    if total_layers is not None and len(table) != total_layers + 1:
        raise InputError(f"baseline file {str(path)!r} has {len(table)} layer rows but the model has {total_layers} "
                         f"layers (expected {total_layers + 1} rows: layer 0 = embeddings to layer {total_layers}); "
                         f"it was made for another model — create one with `refscore bertscore-baseline`")
    return table


def _numeric(row: list[str]) -> bool:
    try:
        [float(field) for field in row]
    except ValueError:
        return False
    return True


def rescale(values: np.ndarray, baseline: np.ndarray) -> np.ndarray:
    """``(x - b) / (1 - b)`` in float32; ``values`` is ``(..., 3)`` (P, R, F), ``baseline`` broadcasts to it."""
    values = values.astype(np.float32, copy=False)
    baseline = baseline.astype(np.float32, copy=False)
    return (values - baseline) / (np.float32(1) - baseline)


def format_baseline(table: np.ndarray) -> str:
    """A ``(layers + 1, 3)`` P/R/F table as the text of a bert-score baseline file."""
    lines = [",".join(HEADER)]
    for layer, row in enumerate(np.asarray(table, dtype=np.float64)):
        lines.append(",".join([str(layer)] + [repr(float(np.float32(value))) for value in row]))
    return "\n".join(lines) + "\n"


def write_baseline(path: str | os.PathLike[str], table: np.ndarray) -> None:
    """Write a ``(layers + 1, 3)`` P/R/F table in bert-score's baseline format (atomically: an interrupted write
    leaves no partial file)."""
    with atomic_write(path) as handle:
        handle.write(format_baseline(table))

def random_pairs(count: int, pairs: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``pairs`` random (i, j) index pairs with ``i != j`` over ``count`` sentences (reproducible from ``seed``)."""
    if count < 2:
        raise InputError(f"a baseline needs at least 2 distinct sentences in the corpus, got {count}")
    rng = np.random.default_rng(seed)
    first = rng.integers(count, size=pairs)
    second = rng.integers(count - 1, size=pairs)
    second += second >= first
    return first, second


def compute_baseline(scorer: Any, sentences: list[str], pairs: int = 2000, seed: int = 0) -> np.ndarray:
    """A rescaling baseline as the bert-score authors made theirs: the mean P/R/F of every layer over random
    pairs of unrelated corpus sentences. ``scorer`` must be a ``BERTScorer`` with ``all_layers=True`` and no
    IDF or rescaling. Returns the ``(layers + 1, 3)`` table for :func:`write_baseline`."""
    if not scorer.all_layers or scorer.idf or scorer.rescale_with_baseline:
        raise InputError("compute_baseline needs a BERTScorer with all_layers=True, idf=False and no rescaling")
    check_count(pairs, "pairs")
    unique = list(dict.fromkeys(s for s in sentences if s.strip()))
    first, second = random_pairs(len(unique), pairs, seed)
    result = scorer.score_pairs([unique[i] for i in first], [unique[j] for j in second])
    return np.stack([np.mean(values, axis=1, dtype=np.float64) for values in (result.precision, result.recall,
                                                                             result.f1)], axis=1)
