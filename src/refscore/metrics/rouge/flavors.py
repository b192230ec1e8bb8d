"""``refscore.rouge``: one function for every ROUGE flavor, chosen by name from :data:`FLAVORS`.

>>> r = rouge(["to make people trustworthy you need to trust them"],
...           ["the way to make people trustworthy is to trust them"])
>>> float(r["rouge1"].recall[0]), round(float(r["rougeL"].fmeasure[0]), 5)
(0.7, 0.73684)
>>> list(rouge(["a b c"], ["a b d"], ["rouge1", "rougeL"], flavor="rouge155"))
['rouge1', 'rougeL']
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, cast

from refscore.lazy import import_entry
from refscore.errors import InputError
from refscore.protocol import Metric, metric_with
from refscore.metrics.rouge.score import ROUGE155Score, ROUGEScore
from refscore.metrics.rouge.types import parse_type, rouge155_measure

#: flavor -> "module:Class" of the metric whose numbers it reproduces.
FLAVORS: dict[str, str] = {
    "rouge-score": "refscore.metrics.rouge.metric:ROUGE",
    "rouge155": "refscore.metrics.rouge.rouge155_metric:ROUGE155",
}


def rouge_flavor(flavor: str) -> type[Metric]:
    """The metric class implementing a ROUGE flavor."""
    if flavor not in FLAVORS:
        raise InputError(f"unknown ROUGE flavor {flavor!r}; available: {', '.join(FLAVORS)}")
    return import_entry(FLAVORS[flavor])


def rouge(predictions: Any, references: Any, types: Sequence[str] | str | None = None, *,
          flavor: str = "rouge-score", stemmer: bool = False, tokenizer: str | None = None,
          split_summaries: bool | str | None = None, num_threads: int | None = None,
          **options: Any) -> ROUGEScore | ROUGE155Score:
    """ROUGE of a batch: the corpus score, and per type the per-document ``precision``/``recall``/``fmeasure``
    arrays (``result[type]``, input order), their means and the best reference's index.

    ``references[i]`` is a string or a list of strings; with several, each type takes the reference with the best
    F (the first on ties), as rouge-score's ``score_multi``. ``flavor`` selects the implementation whose numbers
    are reproduced (see :data:`FLAVORS`): a :class:`ROUGEScore` for ``"rouge-score"``, a :class:`ROUGE155Score`
    for ``"rouge155"``. ``types=None`` means the flavor's defaults: ``rouge1, rouge2, rougeL, rougeLsum`` for
    ``"rouge-score"``, ``ROUGE-1, ROUGE-2, ROUGE-L`` for ``"rouge155"`` (whose ROUGE-L is already summary-level,
    as rouge-score's rougeLsum; results are keyed by the names given, or by the flavor's names for its defaults).
    ``tokenizer``: ``"rouge-score"`` (the default: ASCII letters and digits only, as rouge-score), ``"unicode"``
    (letters, marks and digits of every script, Unicode 14.0.0) or one of sacreBLEU's ``"ja-mecab"``,
    ``"ko-mecab"``, ``"flores101"``/``"spm"``, ``"flores200"``, ``"spBLEU-1K"`` (``spm_model=PATH`` for the
    SentencePiece model file); see docs/rouge.md, "ROUGE in every language". ``split_summaries``
    (``False``/``"newline"``, ``"builtin"``, ``True``/``"nltk"``) defaults to the flavor's default; further
    ``options`` go to the flavor's configuration.
    """
    cls = rouge_flavor(flavor)
    if types is None:  # the flavor's own defaults, so switching the flavor works without naming types
        types = cls.config_class().types
    if flavor == "rouge155":
        names, settings = _rouge155_settings(types, stemmer, tokenizer, split_summaries, options)
        result = metric_with(cls, settings).corpus_score(predictions, references, num_threads=num_threads)
        # Report under the names the caller used (result["rouge1"], not only "ROUGE-1").
        return dataclasses.replace(cast(ROUGE155Score, result), labels=tuple(names))
    settings = dict(types=tuple(types) if isinstance(types, list) else types, stemmer=stemmer, **options)
    if tokenizer is not None:
        settings["tokenizer"] = tokenizer
    if split_summaries is not None:
        settings["split_summaries"] = split_summaries
    result = metric_with(cls, settings).corpus_score(predictions, references, num_threads=num_threads)
    return cast("ROUGEScore | ROUGE155Score", result)


def _rouge155_settings(types: Sequence[str] | str, stemmer: bool, tokenizer: str | None,
                       split_summaries: bool | str | None,
                       options: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """rouge()'s arguments as ROUGE155Config settings: rouge-score names (rouge1, rougeL, rougeW with
    ``w_weight``, rougeS/rougeSU with ``skip_distance``) become ROUGE-1.5.5 measures; returns caller name ->
    measure name, and the settings."""
    if tokenizer is not None or split_summaries is not None:
        raise InputError("flavor='rouge155' tokenizes and splits sentences as the Perl script does (newlines); "
                         "tokenizer= and split_summaries= apply to flavor='rouge-score' only")
    options = dict(options)
    w_weight = options.pop("w_weight", 1.2)
    skip_distance = options.pop("skip_distance", 4)
    requested = [t.strip() for t in types.split(",")] if isinstance(types, str) else list(types)
    names = {name: parse_type(rouge155_measure(name, w_weight=w_weight, skip_distance=skip_distance),
                              where=f"types[{index}]").name
             for index, name in enumerate(requested)}
    return names, dict(types=tuple(names.values()), stemming=stemmer, **options)
