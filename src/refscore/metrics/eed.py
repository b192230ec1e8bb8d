"""Extended edit distance (EED, Stanchev, Wang and Ney, WMT 2019) equal to torchmetrics' ``extended_edit_distance``.

A character-level edit distance with a jump operation at the reference's spaces (cost ``alpha``), deletions
(``deletion``), insertions and substitutions (``insertion``, 1 for a substitution) and a coverage penalty
(``rho`` per repeated or unvisited hypothesis position), normalised by the reference's length plus the coverage
and capped at 1; lower is better. Texts are preprocessed as torchmetrics (RWTH's ``util.py``) does for
``language="en"`` (spaces around punctuation, abbreviations kept, a space at both ends) or ``"ja"`` (NFKC). With
several references a segment takes its lowest score. Per segment torchmetrics returns a float32 tensor: refscore's
sentence scores are those float32 values; the corpus score is their mean accumulated in float32 in segment order,
torchmetrics' ``sum(scores) / len(scores)`` to the bit (merged totals without rows: the float64 mean).

>>> import refscore
>>> round(refscore.eed(["this is the prediction", "here is an other sample"],
...                    ["this is the reference", "here is another one"]).score, 4)
0.3078
"""
from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from refscore._core._edit_distance import eed_pairs
from refscore.checks import check_choice, check_num_threads, check_number
from refscore.errors import InputError
from refscore.inputs import prepare_batch
from refscore.protocol import CliOption, ColumnRules, Metric, Score, Signature, Statistics, metric_with, nrefs_text

#: The torchmetrics release whose ``extended_edit_distance`` this metric reproduces (in the signature).
TORCHMETRICS_VERSION = "1.9"
LANGUAGES = ("en", "ja")

_SPACE_BEFORE = ((".", " ."), ("!", " !"), ("?", " ?"), (",", " ,"))
_EN_RULES = ((re.compile(r"\s+"), r" "), (re.compile(r"(\d) ([.,]) (\d)"), r"\1\2\3"),
             (re.compile(r"(Dr|Jr|Prof|Rev|Gen|Mr|Mt|Mrs|Ms) ."), r"\1."))
_ABBREVIATIONS = (("e . g .", "e.g."), ("i . e .", "i.e."), ("U . S .", "U.S."))


def preprocess_en(sentence: str) -> str:
    """torchmetrics' (RWTH's) English preprocessing.

    >>> preprocess_en("Mr. Smith paid 3.50, e.g. cash!")   # its rules as written: "3 .50", "e .g ." stay split
    ' Mr. Smith paid 3 .50 , e .g . cash ! '
    >>> preprocess_en("Dr. Who left.")
    ' Dr. Who left . '
    """
    sentence = sentence.rstrip()
    for pattern, replacement in _SPACE_BEFORE:
        sentence = sentence.replace(pattern, replacement)
    for regex, replacement in _EN_RULES:
        sentence = regex.sub(replacement, sentence)
    for pattern, replacement in _ABBREVIATIONS:
        sentence = sentence.replace(pattern, replacement)
    return " " + sentence + " "


def preprocess_ja(sentence: str) -> str:
    """torchmetrics' Japanese preprocessing: trailing whitespace removed, then NFKC.

    >>> preprocess_ja("ｶﾀｶﾅ１ ")
    'カタカナ1'
    """
    return unicodedata.normalize("NFKC", sentence.rstrip())


_PREPROCESS = {"en": preprocess_en, "ja": preprocess_ja}


@dataclasses.dataclass(frozen=True)
class EEDConfig:
    """torchmetrics' ``extended_edit_distance`` options, with its defaults.

    Attributes:
        language: ``"en"`` or ``"ja"``: the preprocessing.
        alpha: the cost of a jump (at a space of the reference).
        rho: the coverage cost per repeated or unvisited hypothesis position.
        deletion: the cost of a deletion.
        insertion: the cost of an insertion (a substitution costs 1).
    """

    language: str = "en"
    alpha: float = 2.0
    rho: float = 0.3
    deletion: float = 0.2
    insertion: float = 1.0

    def __post_init__(self) -> None:
        check_choice(self.language, "language", LANGUAGES, owner="EED")
        for name in ("alpha", "rho", "deletion", "insertion"):
            object.__setattr__(self, name, check_number(getattr(self, name), name, minimum=0.0, owner="EED"))


class EED(Metric):
    """torchmetrics' extended edit distance per segment (its lowest over the references) and its mean.

    Statistics per segment (float64): ``eed`` (torchmetrics' float32 score) and ``segments`` (1). The dynamic
    programme runs in the compiled core, multi-core over pairs; the thread count never changes a number.

    >>> EED().sentence_scores(["a cat", ""], ["a cat", "a dog"]).round(4).tolist()   # coverage: never 0
    [0.0411, 0.7727]
    """

    name: ClassVar[str] = "eed"
    config_class: ClassVar[type] = EEDConfig
    higher_is_better: ClassVar[bool] = False
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    check_label: ClassVar[str | None] = "EED"
    check_bands: ClassVar[tuple[tuple[str, float], ...]] = (("excellent", 0.1), ("good", 0.25), ("fair", 0.4))
    exact_to: ClassVar[str | None] = f"torchmetrics extended_edit_distance ({TORCHMETRICS_VERSION})"
    columns: ClassVar[tuple[str, ...]] = ("eed", "segments")
    integer_statistics = False
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--eed-language",), "language", "EED: preprocessing of English (en) or Japanese (ja)", str,
                  LANGUAGES),
        CliOption(("--eed-alpha",), "alpha", "EED: jump cost (default 2.0)", float),
        CliOption(("--eed-rho",), "rho", "EED: coverage cost (default 0.3)", float),
        CliOption(("--eed-deletion",), "deletion", "EED: deletion cost (default 0.2)", float),
        CliOption(("--eed-insertion",), "insertion", "EED: insertion cost (default 1.0)", float),
    )

    config: EEDConfig

    def pair_scores(self, hypotheses: Sequence[str], references: Sequence[str], *,
                    num_threads: int | None = None) -> np.ndarray:
        """torchmetrics' float32 EED of each hypothesis against the reference at the same position (float64)."""
        cfg = self.config
        prepare = _PREPROCESS[cfg.language]
        texts = [prepare(text) for text in hypotheses] + [prepare(text) for text in references]
        if cfg.rho == 0.0:   # 0 / 0: torchmetrics raises ZeroDivisionError
            for index, text in enumerate(texts[len(hypotheses):]):
                if not text:
                    raise InputError(f"EED: reference {index} is empty after preprocessing and rho=0 divides 0 "
                                     f"by 0; give rho > 0 or a non-empty reference")
        symbols = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        offsets = np.zeros(len(texts) + 1, dtype=np.int64)
        np.cumsum([len(text) for text in texts], out=offsets[1:])
        n = len(hypotheses)
        scores = eed_pairs(symbols, offsets, np.arange(n, dtype=np.int64), np.arange(n, 2 * n, dtype=np.int64),
                           cfg.alpha, cfg.rho, cfg.deletion, cfg.insertion, num_threads)
        return scores.astype(np.float32).astype(np.float64)

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per segment: the lowest EED over its references (torchmetrics' float32 value) and a 1."""
        check_num_threads(num_threads)
        batch = prepare_batch(hypotheses, references, allow_token_ids=False)
        owner = np.repeat(np.arange(len(batch)), batch.refs_per_segment)
        scores = self.pair_scores([batch.hypotheses[i] for i in owner], list(batch.references),
                                  num_threads=num_threads)
        data = np.ones((len(batch), 2), dtype=np.float64)
        if len(batch):
            data[:, 0] = np.minimum.reduceat(scores, batch.ref_offsets[:-1])
        return self.new_statistics(self.columns, data, batch.nrefs)

    def statistics_rules(self) -> ColumnRules:
        return ColumnRules(self.columns, at_most=(("eed", "segments"),))

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """``eed / segments`` per row (0 without segments): ``(m, 1)`` float64."""
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        segments = totals[:, 1:2]
        return np.where(segments > 0, totals[:, 0:1] / np.where(segments > 0, segments, 1), 0.0)

    def score_from_statistics(self, stats: Statistics) -> Score:
        """torchmetrics' corpus value: the float32 sum of the segments' scores in order over their count."""
        self.check_statistics(stats)
        segments = stats.column("segments")
        if len(segments) and bool(np.all(segments == 1)):
            total = np.cumsum(stats.column("eed").astype(np.float32))[-1]
            return self.new_score(stats, score=float(total / np.float32(len(segments))))
        return self.new_score(stats)

    def reported_score(self, stats: Any, *, num_threads: int | None = None) -> Any:
        """``refscore score`` prints torchmetrics' float32 corpus mean too, not the float64 mean of the totals."""
        return self.score_from_statistics(stats)

    def corpus_values(self, stats: Statistics) -> dict[str, Any]:
        eed, segments = (float(v) for v in stats.totals())
        return {"eed": eed / segments if segments else 0.0, "segments": segments}

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        scores = self.pair_scores([output] * len(references), list(references), num_threads=1)
        best = int(np.argmin(scores)) if len(scores) else 0
        return f"EED {float(scores[best]):.3f} (lower is better; best of {len(references)} reference(s): {best})"

    def signature(self, nrefs: int = 1) -> Signature:
        cfg = self.config
        return Signature({"nrefs": nrefs_text(nrefs), "lang": cfg.language, "alpha": f"{cfg.alpha:g}",
                          "rho": f"{cfg.rho:g}", "del": f"{cfg.deletion:g}", "ins": f"{cfg.insertion:g}",
                          "torchmetrics": TORCHMETRICS_VERSION},
                         short_names={"nrefs": "#", "lang": "l", "alpha": "a", "rho": "r", "del": "d", "ins": "i",
                                      "torchmetrics": "tm"})


def eed(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> Score:
    """torchmetrics' extended edit distance of a corpus; ``options`` are :class:`EEDConfig` fields.

    >>> round(eed(["a cat"], [["a dog", "a cat"]]).score, 4)
    0.0411
    """
    return metric_with(EED, options).corpus_score(hypotheses, references, num_threads=num_threads)


def sentence_eed(hypothesis: str, references: str | list[str], **options: Any) -> Score:
    """One segment's extended edit distance (its lowest over the references).

    >>> round(sentence_eed("here is an other sample", "here is another one").score, 4)
    0.2321
    """
    return metric_with(EED, options).sentence_score(hypothesis, references)
