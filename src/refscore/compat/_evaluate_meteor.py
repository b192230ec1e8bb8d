"""Hugging Face ``evaluate.load("meteor")`` on refscore's METEOR: the script's arguments and output.

HF's script tokenizes each text with NLTK's ``word_tokenize`` and scores every prediction with NLTK's
``meteor_score`` (a list of references per prediction: the best of them) or ``single_meteor_score`` (one string);
it returns ``{"meteor": np.mean(scores)}``. refscore scores the same tokens with the same numbers
(``METEOR(tokenize="word_tokenize")``, docs/meteor.md) and takes the same mean; it reads WordNet 3.0 from its
database files instead of downloading NLTK's data.

One difference is left and said: the script's ``word_tokenize(text)`` first splits the text into sentences with
NLTK's Punkt model, while refscore tokenizes each text as one line (no model), so a period inside a text stays on
its word (``"Paris. It"``: ``Paris.``, ``It``). A text of one sentence gets the same tokens; for texts of several
sentences :meth:`Meteor.compute` warns, naming the first.

>>> from refscore.compat import evaluate
>>> meteor = evaluate.load("meteor")
>>> predictions = ["It is a guide to action which ensures that the military always obeys the commands of the party"]
>>> references = ["It is a guide to action that ensures that the military will forever heed Party commands"]
>>> round(meteor.compute(predictions=predictions, references=references)["meteor"], 4)  # doctest: +SKIP
0.6944
"""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from refscore.compat._evaluate_base import EvaluateModule
from refscore.errors import InputError, RefscoreWarning
from refscore.inputs import per_segment
from refscore.metrics.meteor.metric import METEOR
from refscore.text.sentences import first_with_several_sentences


class Meteor(EvaluateModule):
    """``evaluate.load("meteor")``: ``compute(predictions, references, alpha=0.9, beta=3, gamma=0.5)`` ->
    ``{"meteor": mean of the per-prediction scores}`` (0–1, a ``np.float64`` as HF's). ``references[i]`` is one
    string per prediction, or a list of strings per prediction (then the best one scores), as decided by the first
    entry, as in HF's script."""

    name = "meteor"

    def _compute(self, predictions: list[Any], references: list[Any], alpha: float = 0.9, beta: float = 3,
                 gamma: float = 0.5) -> dict[str, Any]:
        several = isinstance(references[0], (list, tuple))   # HF: isinstance(references[0], list)
        for index, entry in enumerate(references):
            if isinstance(entry, (list, tuple)) != several:
                layout = "a list of references" if several else "one reference string"
                raise InputError(f"meteor: references[0] is {layout}, so every entry must be, but references[{index}] "
                                 f"is {type(entry).__name__}; give each prediction the same layout")
        per_prediction = [list(entry) if several else [entry] for entry in references]
        metric = METEOR(alpha=alpha, beta=beta, gamma=gamma, tokenize="word_tokenize")
        scores = metric.sentence_scores(list(predictions), per_segment(per_prediction))
        texts = [text for text in predictions if isinstance(text, str)]
        texts += [text for refs in per_prediction for text in refs if isinstance(text, str)]
        first = first_with_several_sentences(texts)
        if first is not None:
            warnings.warn(f"meteor: {texts[first][:60]!r} has several sentences; Hugging Face evaluate's script "
                          f"splits them with NLTK's Punkt model before word_tokenize, refscore tokenizes each text "
                          f"as one line, so a period inside a text stays on its word and the score may differ",
                          RefscoreWarning, stacklevel=3)
        return {"meteor": np.mean(scores)}
