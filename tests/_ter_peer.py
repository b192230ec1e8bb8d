"""sacreBLEU's TER run through its public corpus API, with the per-reference edit counts it computes on the way.

sacreBLEU's ``corpus_score`` only returns the corpus total; wrapping ``lib_ter.translation_edit_rate`` (which
``TER._compute_segment_statistics`` calls once per hypothesis/reference pair, segment by segment, references in
order) records each pair's ``(edits, reference length)`` without touching the computation. Shared by the tests
and by ``tests/golden/make_ter_golden.py``.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

import sacrebleu.metrics.ter as sacrebleu_ter
from sacrebleu.metrics import TER


class EditRecorder:
    """Callable stand-in for ``translation_edit_rate`` that keeps every result, in call order."""

    def __init__(self, original) -> None:
        self.original = original
        self.calls: list[tuple[int, int]] = []

    def __call__(self, words_hyp, words_ref):
        result = self.original(words_hyp, words_ref)
        self.calls.append((int(result[0]), int(result[1])))
        return result


@contextlib.contextmanager
def recording_edits() -> Iterator[EditRecorder]:
    recorder = EditRecorder(sacrebleu_ter.translation_edit_rate)
    sacrebleu_ter.translation_edit_rate = recorder
    try:
        yield recorder
    finally:
        sacrebleu_ter.translation_edit_rate = recorder.original


def sacrebleu_ter_with_edits(hypotheses: Sequence[str], streams: Sequence[Sequence[str | None]], **options):
    """(sacreBLEU TERScore, edits per reference, reference lengths), references in per-segment order."""
    with recording_edits() as recorder:
        score = TER(**options).corpus_score(list(hypotheses), streams)
    edits = [e for e, _ in recorder.calls]
    lengths = [n for _, n in recorder.calls]
    return score, edits, lengths


def to_streams(references: Sequence[Sequence[str]]) -> list[list[str | None]]:
    """Per-segment reference lists -> sacreBLEU streams, padded with None."""
    width = max(len(refs) for refs in references)
    return [[refs[k] if k < len(refs) else None for refs in references] for k in range(width)]
