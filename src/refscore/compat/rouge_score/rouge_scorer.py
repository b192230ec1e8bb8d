"""rouge-score's ``rouge_scorer`` module: ``RougeScorer(rouge_types, use_stemmer, split_summaries, tokenizer)``
with ``score(target, prediction)``, ``score_multi(targets, prediction)`` and, for speed, ``score_batch``."""
from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from refscore.inputs import per_segment, prepare_batch
from refscore.compat.rouge_score import scoring, tokenizers
from refscore.errors import RefscoreWarning
from refscore.text.sentences import nltk_sentences
from refscore.protocol import metric_with
from refscore.metrics.rouge import ROUGE, ROUGEScore, lcs_positions
from refscore.metrics.rouge.pair import RougePair

#: The token id between sentences in the ids given to ROUGE for a custom tokenizer (tokens get ids >= 0).
_SENTENCE_END = -1


def _check_types(rouge_types: Sequence[str]) -> None:
    """rouge-score's type rules: 'rougeL', 'rougeLsum' and 'rouge<digit>' with a positive digit (a scorer checks
    its types on every call, as rouge-score does; a valid list is remembered)."""
    key = tuple(rouge_types)
    try:
        hash(key)
    except TypeError:   # an unhashable entry: checked (and rejected) without the memo
        _check_type_list(key)
        return
    _checked_type_list(key)


@functools.lru_cache(maxsize=64)
def _checked_type_list(rouge_types: tuple[str, ...]) -> None:
    _check_type_list(rouge_types)


def _check_type_list(rouge_types: tuple[str, ...]) -> None:
    for rouge_type in rouge_types:
        if rouge_type in ("rougeL", "rougeLsum"):
            continue
        if re.match(r"rouge[0-9]$", str(rouge_type)):
            if int(rouge_type[5:]) <= 0:
                raise ValueError("rougen requires positive n: %s" % rouge_type)
            continue
        raise ValueError("Invalid rouge type: %s" % rouge_type)


class RougeScorer(scoring.BaseScorer):
    """Calculate rouge scores between two blobs of text, with rouge-score 0.1.2's numbers.

    ``tokenizer``: an object with ``tokenize(text) -> list[str]`` (then ``use_stemmer`` is ignored, as in
    rouge-score); ``None`` or a :class:`~refscore.compat.rouge_score.tokenizers.DefaultTokenizer` runs the
    compiled tokenizer. ``split_summaries=True`` splits ROUGE-Lsum sentences with ``nltk.sent_tokenize``.
    """

    def __init__(self, rouge_types: Sequence[str], use_stemmer: bool = False, split_summaries: bool = False,
                 tokenizer: Any = None) -> None:
        self.rouge_types = rouge_types
        self._split_summaries = split_summaries
        self._use_stemmer = bool(use_stemmer)
        if isinstance(tokenizer, tokenizers.DefaultTokenizer):
            self._use_stemmer, tokenizer = tokenizer.use_stemmer, None
        self._tokenizer = tokenizer
        self._pair: tuple[tuple[Any, ...], RougePair | None] = ((), None)

    def score(self, target: str, prediction: str) -> dict[str, scoring.Score]:
        """Scores of ``prediction`` against ``target`` (note the order: target first, as rouge-score).

        Plain ``str`` texts with the default tokenizer and no ``split_summaries`` take the per-call fast path
        (:class:`refscore.metrics.rouge.pair.RougePair`: one compiled call), with :meth:`score_batch`'s numbers.

        >>> RougeScorer(["rouge1"]).score("the cat sat down", "the cat sat")["rouge1"].recall
        0.75
        """
        types = self.rouge_types
        key = tuple(types)   # rouge_types may be reassigned: the pair scorer is kept for the types it was made for
        pair = self._pair[1] if self._pair[0] == key else self._pair_for(key)
        scores = None if pair is None else pair.scores(prediction, target)
        if scores is None:
            return self.score_batch([target], [prediction])[0]
        if len(scores) == len(key):
            return {t: scoring.Score(*s) for t, s in zip(key, scores)}
        by_type = dict(zip(dict.fromkeys(key), scores))
        return {t: scoring.Score(*by_type[t]) for t in key}

    def _pair_for(self, key: tuple[Any, ...]) -> RougePair | None:
        """The fast path's pair scorer of these types (checked as rouge-score checks them: errors as it gives
        them), or None when the scorer's settings take the batch path."""
        _check_types(key)
        pair = None
        if self._tokenizer is None and not self._split_summaries and key:
            pair = RougePair(tuple(dict.fromkeys(key)), stemmer=self._use_stemmer)
        self._pair = (key, pair)
        return pair

    def score_multi(self, targets: Sequence[str], prediction: str) -> dict[str, scoring.Score]:
        """Per type, the score against the target with the highest F (the first on ties)."""
        return self.score_batch([list(targets)], [prediction])[0]

    def score_batch(self, targets: Sequence[str | Sequence[str]], predictions: Sequence[str], *,
                    num_threads: int | None = None) -> list[dict[str, scoring.Score]]:
        """``score`` (or ``score_multi`` where ``targets[i]`` is a list) for every pair, in one compiled call."""
        columns = {t: (c.precision.tolist(), c.recall.tolist(), c.fmeasure.tolist())
                   for t, c in self.score_columns(targets, predictions, num_threads=num_threads).items()}
        return [{t: scoring.Score(c[0][i], c[1][i], c[2][i]) for t, c in columns.items()}
                for i in range(len(predictions))]

    def score_columns(self, targets: Sequence[str | Sequence[str]], predictions: Sequence[str], *,
                      num_threads: int | None = None) -> dict[str, scoring.Score]:
        """refscore extension: :meth:`score_batch` by columns, per type a ``Score`` of three float64 arrays
        (precision, recall, fmeasure; element ``i`` is pair ``i``'s), without a tuple per pair.

        >>> scorer = RougeScorer(["rouge1"])
        >>> scorer.score_columns(["a b", "c"], ["a", "c"])["rouge1"].recall
        array([0.5, 1. ])
        """
        _check_types(self.rouge_types)
        types = tuple(self.rouge_types)
        if not types:
            return {}
        settings = {"types": tuple(dict.fromkeys(types)), "stemmer": self._use_stemmer,
                    "split_summaries": "nltk" if self._split_summaries else "newline"}
        if self._tokenizer is None:
            with warnings.catch_warnings():  # rouge-score scores non-Latin text 0 silently; so does its drop-in
                warnings.simplefilter("ignore", RefscoreWarning)
                result = cast(ROUGEScore, metric_with(ROUGE, settings).corpus_score(
                    list(predictions), per_segment(targets), num_threads=num_threads))
            by_type = {t: result[t] for t in types}
        else:
            by_type = self._score_with_tokenizer(settings, predictions, targets, num_threads)
        return {t: scoring.Score(*(np.asarray(getattr(by_type[t], field), dtype=np.float64)
                                   for field in scoring.Score._fields)) for t in types}

    def _score_with_tokenizer(self, settings: dict[str, Any], predictions: Sequence[str], targets: Sequence[Any],
                              num_threads: int | None) -> dict[str, Any]:
        """Per type the scores of texts tokenized by the custom tokenizer, given to ROUGE as token ids. As
        rouge-score, ROUGE-Lsum tokenizes each sentence on its own: its ids carry the sentence breaks, and when those
        sentences' tokens differ from the whole text's, the other types are scored on the whole text's tokens."""
        batch = prepare_batch(list(predictions), per_segment(targets), allow_token_ids=False, hyp_name="predictions",
                              ref_name="targets")
        vocabulary: dict[Any, int] = {}
        tokenize = self._tokenizer.tokenize

        def ids(tokens: list[Any]) -> np.ndarray:
            return np.array([vocabulary.setdefault(token, len(vocabulary)) for token in tokens], dtype=np.int64)

        def as_batch(texts: list[np.ndarray]) -> tuple[list[np.ndarray], list[list[np.ndarray]]]:
            n = len(batch)
            bounds = batch.ref_offsets.tolist()
            return texts[:n], per_segment([texts[n + a:n + b] for a, b in zip(bounds[:-1], bounds[1:])])

        texts = batch.hypotheses + batch.references
        whole = [ids(tokenize(text)) for text in texts]
        types = settings["types"]
        if "rougeLsum" not in types:
            return self._scores(settings, *as_batch(whole), num_threads)
        sentences = [[ids(tokenize(s)) for s in self._sentences(text)] for text in texts]
        marked = [np.concatenate([part for k, sentence in enumerate(text)
                                  for part in ((sentence,) if k == 0 else ([_SENTENCE_END], sentence))])
                  if text else np.zeros(0, dtype=np.int64) for text in sentences]
        lsum = {**settings, "sentence_separator": _SENTENCE_END}
        same = all(np.array_equal(w, m[m != _SENTENCE_END]) for w, m in zip(whole, marked))
        if same:
            return self._scores(lsum, *as_batch(marked), num_threads)
        others = tuple(t for t in types if t != "rougeLsum")
        by_type = self._scores({**lsum, "types": ("rougeLsum",)}, *as_batch(marked), num_threads)
        if others:
            by_type.update(self._scores({**settings, "types": others}, *as_batch(whole), num_threads))
        return by_type

    @staticmethod
    def _scores(settings: dict[str, Any], predictions: list[np.ndarray], references: list[Any],
                num_threads: int | None) -> dict[str, Any]:
        result = cast(ROUGEScore, metric_with(ROUGE, settings).corpus_score(predictions, references,
                                                                            num_threads=num_threads))
        return {t: result[t] for t in result}

    def _sentences(self, text: str) -> list[str]:
        sentences = nltk_sentences(text) if self._split_summaries else text.split("\n")
        return [s for s in sentences if len(s)]


def lcs_ind(ref: Sequence[Any], can: Sequence[Any]) -> list[int]:
    """rouge-score's ``lcs_ind``: the indices in ``ref`` of one longest common subsequence of the token lists
    ``ref`` and ``can`` (rouge-score's backtrack: up on ties), from the compiled LCS kernel.

    >>> lcs_ind(["a", "b", "c", "b"], ["b", "c", "a"])
    [1, 2]
    """
    vocabulary: dict[Any, int] = {}
    ref_ids = [vocabulary.setdefault(token, len(vocabulary)) for token in ref]
    can_ids = [vocabulary.setdefault(token, len(vocabulary)) for token in can]
    return list(lcs_positions(ref_ids, can_ids, up_on_tie=True))
