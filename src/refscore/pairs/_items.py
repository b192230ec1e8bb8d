"""Many-against-many input: items of candidate lists (and of reference lists), checked once, and every distinct
text of a call numbered once (so that it is tokenized and counted once)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore.errors import InputError, InputTypeError
from refscore.protocol import Metric


def resolve_metric(metric: Any, argument: str = "metric") -> Metric:
    """A :class:`~refscore.protocol.Metric` instance, or a registry name (``"chrf"``) built with its sentence-level
    defaults (the class's ``check_defaults``: BLEU's effective order, as ``sacrebleu.sentence_bleu``)."""
    if isinstance(metric, Metric):
        return metric
    if isinstance(metric, str):
        from refscore.metrics import get_metric_class

        metric_class = get_metric_class(metric)
        return metric_class(**dict(metric_class.check_defaults))
    raise InputTypeError(f"{argument} must be a refscore metric (e.g. refscore.CHRF()) or a metric name such as "
                         f"'chrf', got {type(metric).__name__}")


def check_items(items: Any, argument: str) -> list[list[str]]:
    """``items`` as a list of lists of strings; errors name the item and the position."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        raise InputTypeError(f"{argument} must be a list of items, each a list of strings, got "
                             f"{type(items).__name__}")
    checked: list[list[str]] = []
    for k, item in enumerate(items):
        if isinstance(item, str):
            raise InputTypeError(f"{argument}[{k}] is a string; each item is a list of strings (wrap a single text "
                                 f"as [{item[:20]!r}])")
        if not isinstance(item, Sequence):
            raise InputTypeError(f"{argument}[{k}] must be a list of strings, got {type(item).__name__}")
        for j, text in enumerate(item):
            if not isinstance(text, str):
                raise InputTypeError(f"{argument}[{k}][{j}] must be a string, got {type(text).__name__}")
        checked.append(list(item))
    return checked


@dataclass(frozen=True)
class PairItems:
    """A call's items over one table of distinct texts: ``texts``, and per item the candidates' and references'
    indices into it (``references`` is None when the candidates are scored against each other)."""

    texts: list[str]
    candidates: list[np.ndarray]
    references: list[np.ndarray] | None

    def __len__(self) -> int:
        return len(self.candidates)

    def reference_indices(self, k: int) -> np.ndarray:
        return self.candidates[k] if self.references is None else self.references[k]

    @property
    def max_candidates(self) -> int:
        return max((len(c) for c in self.candidates), default=0)

    @property
    def max_references(self) -> int:
        return max((len(self.reference_indices(k)) for k in range(len(self))), default=0)


def check_item_lists(candidates: Any, references: Any, *, candidates_name: str = "candidates",
                     references_name: str = "references",
                     without: str = "references=None to score candidates against each other",
                     ) -> tuple[list[list[str]], list[list[str]] | None]:
    """The checked candidate lists and reference lists (None when ``references`` is None), one of each per item;
    ``without`` says in the error what leaving the references out means.

    >>> check_item_lists([["a", "b"]], None)
    ([['a', 'b']], None)
    """
    cands = check_items(candidates, candidates_name)
    refs = None if references is None else check_items(references, references_name)
    if refs is not None and len(refs) != len(cands):
        raise InputError(f"{references_name} has {len(refs)} item(s) but {candidates_name} has {len(cands)}; give "
                         f"one list of {references_name.replace('_', '-')} per item (or {without})")
    return cands, refs


def pair_items(candidates: Any, references: Any = None, *, candidates_name: str = "candidates",
               references_name: str = "references") -> PairItems:
    """Check the items and number every distinct text once.

    >>> items = pair_items([["a", "b"], ["b"]], [["a"], ["c", "a"]])
    >>> items.texts, [c.tolist() for c in items.candidates], [r.tolist() for r in items.references]
    (['a', 'b', 'c'], [[0, 1], [1]], [[0], [2, 0]])
    """
    cands, refs = check_item_lists(candidates, references, candidates_name=candidates_name,
                                   references_name=references_name)
    numbers: dict[str, int] = {}

    def index(item: list[str]) -> np.ndarray:
        return np.fromiter((numbers.setdefault(text, len(numbers)) for text in item), dtype=np.int64,
                           count=len(item))

    cand_indices = [index(item) for item in cands]
    ref_indices = None if refs is None else [index(item) for item in refs]
    return PairItems(list(numbers), cand_indices, ref_indices)
