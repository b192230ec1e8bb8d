"""What every metric's explanation of one case's score shares (the bodies of the metrics'
:meth:`~refscore.protocol.Metric.explain_case` hooks live beside each metric): lists of what the output lacks, the
reference a case is explained against, sacreBLEU's tokens of a few texts.

Computed in Python for the one case being explained, from the metric's own tokenization where refscore exposes it.

>>> missing("the black cat sat".split(), "the cat sat".split(), 1), quoted(["a", "b"])
(['black'], "'a', 'b'")
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from refscore._core._tokenize import encode_words_with_vocab
from refscore.protocol import Metric

__all__ = ["MAX_ITEMS", "best_reference", "missing", "ngrams", "quoted", "sacrebleu_tokens"]

#: At most this many words or n-grams are listed.
MAX_ITEMS = 8


def quoted(items: Sequence[str]) -> str:
    shown = ", ".join(f"'{item}'" for item in items[:MAX_ITEMS])
    return shown + (f" and {len(items) - MAX_ITEMS} more" if len(items) > MAX_ITEMS else "")


def ngrams(tokens: Sequence[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def missing(reference: Sequence[str], output: Sequence[str], n: int) -> list[str]:
    """Reference n-grams (in reference order, counted with multiplicity) the output does not cover."""
    available = Counter(ngrams(output, n))
    missing = []
    for gram in ngrams(reference, n):
        if available[gram] > 0:
            available[gram] -= 1
        else:
            missing.append(" ".join(gram))
    return list(dict.fromkeys(missing))


def best_reference(metric: Metric, output: str, references: Sequence[str]) -> int:
    """The reference this output scores best against (one batch call; ties to the first)."""
    if len(references) == 1:
        return 0
    scores = metric.sentence_scores([output] * len(references), list(references))
    return int(np.argmax(scores) if metric.higher_is_better else np.argmin(scores))


def sacrebleu_tokens(metric: Metric, texts: list[str]) -> list[list[str]]:
    config = metric.config
    ids, offsets, vocab = encode_words_with_vocab(texts, config.tokenize, config.lowercase)
    return [[vocab[k] for k in ids[offsets[i]:offsets[i + 1]]] for i in range(len(texts))]
