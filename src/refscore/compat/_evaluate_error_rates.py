"""Hugging Face ``evaluate.load("wer")`` / ``evaluate.load("cer")`` on refscore's Levenshtein kernel: the metric
scripts' arguments (``concatenate_texts``) and outputs (``wer``: a float; ``cer``: ``{"cer": float}``).

Both scripts align each prediction with its reference through jiwer and divide the summed errors S + D + I by the
summed reference lengths S + D + H. ``wer`` uses jiwer's default words; ``cer`` its own transform: runs of
whitespace collapsed to one space, the ends stripped, then characters. Empty references add their insertions and
no length (jiwer 4's counts); when no reference has a word or character at all the scripts divide by zero, and so
does this module (``ZeroDivisionError``, with a message saying why); with ``concatenate_texts`` they return jiwer's
value, whose rule for no reference words is the insertion count.

>>> from refscore.compat import evaluate
>>> evaluate.load("wer").compute(predictions=["this is the prediction", "there is an other sample"],
...                              references=["this is the reference", "there is another one"])
0.5
>>> evaluate.load("cer").compute(predictions=["this is the prediction", "there is an other sample"],
...                              references=["this is the reference", "there is another one"])
{'cer': 0.34146341463414637}
"""
from __future__ import annotations

import re
from typing import Any

from refscore.compat._evaluate_base import EvaluateModule
from refscore.compat._evaluate_exact_match import check_texts
from refscore.metrics.edit_alignment import align_characters, align_words, jiwer_words

_MULTIPLE_SPACES = re.compile(r"\s\s+")
LAYOUTS = ({"predictions": "string", "references": "string"},)


def _cer_text(text: str) -> str:
    """The cer script's transform of one text (RemoveMultipleSpaces, Strip; its characters are then compared)."""
    return _MULTIPLE_SPACES.sub(" ", text).strip()


def _ratio(counts: Any, name: str) -> float:
    incorrect = int(counts[:, 1].sum() + counts[:, 2].sum() + counts[:, 3].sum())
    total = int(counts[:, 0].sum() + counts[:, 1].sum() + counts[:, 2].sum())
    if total == 0:
        raise ZeroDivisionError(f"{name}: the references have no {'words' if name == 'wer' else 'characters'} at "
                                f"all (evaluate's script divides by their count, zero here)")
    return incorrect / total


class WER(EvaluateModule):
    """``compute(predictions, references, concatenate_texts=False)`` -> the word error rate (a float)."""

    name = "wer"
    input_layouts = LAYOUTS

    def _compute(self, predictions: list[Any], references: list[Any], concatenate_texts: bool = False) -> Any:
        check_texts(predictions, "predictions", self.name)
        check_texts(references, "references", self.name)
        if concatenate_texts:   # jiwer.process_words(references, predictions).wer: the corpus value of jiwer
            from refscore.compat.jiwer import process_words

            return process_words(references, predictions).wer
        counts = align_words([jiwer_words(r) for r in references], [jiwer_words(p) for p in predictions])
        return _ratio(counts, self.name)


class CER(EvaluateModule):
    """``compute(predictions, references, concatenate_texts=False)`` -> ``{"cer": rate}``."""

    name = "cer"
    input_layouts = LAYOUTS

    def _compute(self, predictions: list[Any], references: list[Any],
                 concatenate_texts: bool = False) -> dict[str, Any]:
        check_texts(predictions, "predictions", self.name)
        check_texts(references, "references", self.name)
        refs, preds = [_cer_text(r) for r in references], [_cer_text(p) for p in predictions]
        if concatenate_texts:
            # the script's ReduceToSingleSentence(""): the texts joined, no separator; jiwer's WER of that one
            # pair (its rule for an empty reference: the insertion count)
            counts = align_characters(["".join(refs)], ["".join(preds)])
            h, s, d, i = (int(v) for v in counts[0])
            return {"cer": i if h + s + d == 0 else float(s + d + i) / float(h + s + d)}
        return {"cer": _ratio(align_characters(refs, preds), self.name)}
