"""Count-shared pairwise scoring of the n-gram metrics (chrF/chrF++, BLEU, Google-BLEU): each distinct text cut
into n-gram *units* once, with the metric's own preprocessing, and the metric's statistics row of any
(candidate, reference) pair rebuilt from three per-order counts (the kernel ``refscore._core._pairwise`` counts
the clipped matches; each text's n-gram totals follow from its length).

A metric offers this through two hooks (:class:`refscore._metric_facts.MetricFacts`): ``count_streams(texts)``
returns ``[(units, offsets, max_order), ...]`` and ``statistics_from_counts(hyp, ref, match)`` turns ``(pairs,
orders)`` arrays of the candidate's n-gram count, the reference's and their clipped matches into statistics rows
equal to ``metric.statistics([candidate], [reference])`` of each pair.

>>> units, offsets = character_units(["a b", "A"], lowercase=True, whitespace=False)
>>> units.tolist(), offsets.tolist()
([97, 98, 97], [0, 2, 3])
"""
from __future__ import annotations

import string
from typing import Any

import numpy as np

from refscore._core._tokenize import encode_words
from refscore._offsets import offsets_from_lengths
from refscore.text.external import EXTERNAL_TOKENIZERS

Stream = tuple[np.ndarray, np.ndarray, int]
_PUNCTUATION = frozenset(string.punctuation)   # sacreBLEU's CHRF._PUNCTS


def character_units(texts: list[str], *, lowercase: bool, whitespace: bool) -> tuple[np.ndarray, np.ndarray]:
    """Code points of each text as sacreBLEU's chrF counts them: ``str.lower`` when asked, then whitespace
    removed with ``''.join(s.split())`` unless kept."""
    prepared = [text.lower() for text in texts] if lowercase else texts
    if not whitespace:
        prepared = ["".join(text.split()) for text in prepared]
    data = "".join(prepared).encode("utf-32-le", "surrogatepass")
    return np.frombuffer(data, dtype="<u4").astype(np.uint32, copy=False), offsets_from_lengths([len(t) for t in prepared])


def chrf_words(text: str) -> list[str]:
    """sacreBLEU's ``CHRF._remove_punctuation``: ``str.split()``, then one ASCII punctuation character peeled off
    the end, else off the start, of every word longer than one character.

    >>> chrf_words("(hi) there.")
    ['(hi', ')', 'there', '.']
    """
    words: list[str] = []
    for word in text.split():
        if len(word) == 1:
            words.append(word)
        elif word[-1] in _PUNCTUATION:
            words += [word[:-1], word[-1]]
        elif word[0] in _PUNCTUATION:
            words += [word[0], word[1:]]
        else:
            words.append(word)
    return words


def chrf_word_units(texts: list[str], *, lowercase: bool) -> tuple[np.ndarray, np.ndarray]:
    """chrF++'s word tokens of each text as ids (equal words, equal ids)."""
    vocabulary: dict[str, int] = {}
    ids: list[int] = []
    lengths: list[int] = []
    for text in texts:
        words = chrf_words(text.lower() if lowercase else text)
        ids += [vocabulary.setdefault(word, len(vocabulary)) for word in words]
        lengths.append(len(words))
    return np.asarray(ids, dtype=np.uint32), offsets_from_lengths(lengths)


def chrf_streams(texts: list[str], *, char_order: int, word_order: int, lowercase: bool,
                 whitespace: bool) -> list[Stream]:
    """chrF's streams: characters up to ``char_order``, then chrF++'s words up to ``word_order``."""
    streams: list[Stream] = []
    if char_order:
        streams.append((*character_units(texts, lowercase=lowercase, whitespace=whitespace), char_order))
    if word_order:
        streams.append((*chrf_word_units(texts, lowercase=lowercase), word_order))
    return streams


def chrf_rows(hyp: np.ndarray, ref: np.ndarray, match: np.ndarray) -> np.ndarray:
    """chrF statistics ``[hyp, ref, match]`` per order; sacreBLEU's rule: the hypothesis count is 0 for an order
    where the reference has no n-gram."""
    rows = np.empty((hyp.shape[0], 3 * hyp.shape[1]), dtype=np.int64)
    rows[:, 0::3] = np.where(ref > 0, hyp, 0)
    rows[:, 1::3] = ref
    rows[:, 2::3] = match
    return rows


def word_streams(texts: list[str], *, tokenize: str, lowercase: bool, max_order: int) -> list[Stream]:
    """One stream of sacreBLEU-tokenized word ids (the compiled tokenizers of BLEU and Google-BLEU)."""
    ids, offsets = encode_words(texts, tokenizer=tokenize, lowercase=lowercase)
    return [(ids, offsets, max_order)]


def bleu_streams(config: Any, texts: list[str]) -> list[Stream] | None:
    """BLEU's word stream (a ``BLEUConfig``); None where its words are not the compiled tokenizers' (MeCab /
    SentencePiece) or its counts are not sacreBLEU's (the ``nltk`` / ``evaluate`` flavors): scored pair by pair."""
    if config.tokenize in EXTERNAL_TOKENIZERS or config.flavor != "sacrebleu":
        return None
    return word_streams(texts, tokenize=config.tokenize, lowercase=config.lowercase, max_order=config.max_order)


def bleu_rows(hyp: np.ndarray, ref: np.ndarray, match: np.ndarray) -> np.ndarray:
    """BLEU statistics ``hyp_len, ref_len, match_1..N, total_1..N`` (the lengths are the unigram counts)."""
    return np.concatenate([hyp[:, :1], ref[:, :1], match, hyp], axis=1).astype(np.int64, copy=False)


def gleu_rows(hyp: np.ndarray, ref: np.ndarray, match: np.ndarray, min_len: int) -> np.ndarray:
    """Google-BLEU statistics ``matches, n_all`` over orders ``min_len..``: NLTK's ``sentence_gleu`` (the clipped
    matches, and the larger of the two sides' n-gram counts)."""
    orders = slice(min_len - 1, None)
    matches = match[:, orders].sum(axis=1, dtype=np.int64)
    n_all = np.maximum(hyp[:, orders].sum(axis=1, dtype=np.int64), ref[:, orders].sum(axis=1, dtype=np.int64))
    return np.stack([matches, n_all], axis=1)


# The hooks each metric takes from here, mixed in ahead of Metric (``class BLEU(BLEUPairCounts, Metric)``); see
# the module docstring and MetricFacts.count_streams / statistics_from_counts.
class CHRFPairCounts:
    """chrF/chrF++: characters (and words) of each text; its statistics rows from pair counts."""

    def count_streams(self, texts: list[str]) -> list[Stream]:
        config = self.config  # type: ignore[attr-defined]  # a Metric mixin
        return chrf_streams(texts, char_order=config.char_order, word_order=config.word_order,
                            lowercase=config.lowercase, whitespace=config.whitespace)

    def statistics_from_counts(self, hyp: np.ndarray, ref: np.ndarray, match: np.ndarray) -> np.ndarray:
        return chrf_rows(hyp, ref, match)


class BLEUPairCounts:
    """BLEU: sacreBLEU-tokenized words (None for MeCab / SentencePiece and the nltk / evaluate flavors)."""

    def count_streams(self, texts: list[str]) -> list[Stream] | None:
        return bleu_streams(self.config, texts)  # type: ignore[attr-defined]  # a Metric mixin

    def statistics_from_counts(self, hyp: np.ndarray, ref: np.ndarray, match: np.ndarray) -> np.ndarray:
        return bleu_rows(hyp, ref, match)


class GLEUPairCounts:
    """Google-BLEU: sacreBLEU-tokenized words, orders ``min_len..max_len``."""

    def count_streams(self, texts: list[str]) -> list[Stream]:
        config = self.config  # type: ignore[attr-defined]  # a Metric mixin
        return word_streams(texts, tokenize=config.tokenize, lowercase=config.lowercase, max_order=config.max_len)

    def statistics_from_counts(self, hyp: np.ndarray, ref: np.ndarray, match: np.ndarray) -> np.ndarray:
        return gleu_rows(hyp, ref, match, self.config.min_len)  # type: ignore[attr-defined]  # a Metric mixin
