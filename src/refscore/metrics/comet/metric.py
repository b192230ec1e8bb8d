"""COMET on refscore's protocol: unbabel-comet's scores from a local checkpoint (:mod:`refscore.metrics.comet`).

Statistics per segment: ``score`` (the model's float32 score, as float64) and ``documents`` (1); the corpus score
is their mean, unbabel-comet's ``system_score``. The sources are part of the metric (``sources=``, one per
segment, in the order of the hypotheses): every workflow calls ``statistics(hypotheses, references)``, so the
metric carries what the protocol does not pass. For ``refscore.pairwise``/``mbr`` the sources are one per item.

>>> COMET.name, COMET.higher_is_better, COMET.integer_statistics
('unbabel_comet', True, False)
"""
from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from refscore.errors import InputError, InputTypeError, MissingModelError
from refscore.inputs import prepare_batch
from refscore.metrics.bertscore.config import device_option, positive_int_option, sentences_file_option
from refscore.protocol import CliOption, Metric, Score, Signature, Statistics, metric_with, nrefs_text

__all__ = ["COMET", "comet", "COMETConfig", "unbabel_comet"]

#: The unbabel-comet release whose ``model.predict`` this metric reproduces (in the signature).
COMET_VERSION = "2.2.7"
_RUNTIME = {"runtime": True}
#: The encoder precisions offered (float32: unbabel-comet's numbers).
DTYPES = ("float32", "bfloat16")


@dataclasses.dataclass(frozen=True)
class COMETConfig:
    """Which checkpoint, its encoder folder, the sources, and runtime settings.

    Attributes:
        model: an unbabel-comet model folder (``checkpoints/model.ckpt`` + ``hparams.yaml``) or its ``.ckpt``.
        encoder: the local folder of the encoder's config and tokenizer (default: the hparams'
            ``pretrained_model`` when it is a folder, else ``MODEL/encoder``).
        sources: the source segments, one per hypothesis (one per item for ``pairwise``/``mbr``).
        dtype: the encoder's precision, ``float32`` (unbabel-comet's numbers) or ``bfloat16`` (faster on recent
            CPUs and GPUs, scores off by up to about 1e-2: docs/comet.md).
        device: ``cpu``, ``cuda``, ``cuda:N`` or ``auto`` (runtime: not in the hash).
        batch_tokens: tokens per encoder batch (runtime).
    """

    model: str = ""
    encoder: str | None = None
    sources: tuple[str, ...] | None = None
    dtype: str = "float32"
    device: str = dataclasses.field(default="cpu", metadata=_RUNTIME)
    batch_tokens: int = dataclasses.field(default=4096, metadata=_RUNTIME)

    def __post_init__(self) -> None:
        if not isinstance(self.model, str):
            object.__setattr__(self, "model", str(self.model))
        if self.encoder is not None and not isinstance(self.encoder, str):
            object.__setattr__(self, "encoder", str(self.encoder))
        if self.sources is not None:
            if isinstance(self.sources, str) or not isinstance(self.sources, Sequence):
                raise InputTypeError("COMET: sources must be a list of source strings, one per segment")
            sources = tuple(self.sources)
            bad = next((i for i, text in enumerate(sources) if not isinstance(text, str)), None)
            if bad is not None:
                raise InputTypeError(f"COMET: sources[{bad}] is a {type(sources[bad]).__name__}, not a str")
            object.__setattr__(self, "sources", sources)
        if self.dtype not in DTYPES:
            raise InputError(f"COMET: dtype must be one of {', '.join(DTYPES)}, got {self.dtype!r}")
        device_option(str(self.device))
        if not isinstance(self.batch_tokens, int) or self.batch_tokens < 1:
            raise InputError(f"COMET: batch_tokens must be an integer >= 1, got {self.batch_tokens!r}")


@functools.lru_cache(maxsize=4)
def _loaded(model: str, encoder: str | None, device: str, batch_tokens: int, dtype: str) -> Any:
    """The model of a checkpoint, loaded once per process for every COMET instance with the same settings (a
    test-case check or a workflow builds its own instance; the sentence embeddings they keep are shared)."""
    from refscore.metrics.comet.checkpoint import load_checkpoint
    from refscore.metrics.comet.model import CometModel

    return CometModel(load_checkpoint(model, encoder), device=device, batch_tokens=batch_tokens, dtype=dtype)


class COMET(Metric):
    """unbabel-comet's regression estimators (``wmt20-comet-da``, ``wmt22-comet-da``, reference-free regression)
    and unified models (``wmt22-cometkiwi-da``) from a local checkpoint, per segment within float32 rounding of
    ``model.predict``.

    >>> COMET(model="/nonexistent").warm_up()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    refscore.errors.MissingModelError: COMET: no checkpoint at '/nonexistent'; ...
    """

    name: ClassVar[str] = "unbabel_comet"
    config_class: ClassVar[type] = COMETConfig
    higher_is_better: ClassVar[bool] = True
    threshold_range: ClassVar[tuple[float, float]] = (-2.0, 2.0)
    #: a regression head without a final activation is unbounded
    score_range: ClassVar[tuple[float, float] | None] = (-math.inf, math.inf)
    check_label: ClassVar[str | None] = "COMET"
    check_bands: ClassVar[tuple[tuple[str, float], ...]] = (("good", 0.85), ("fair", 0.75))
    exact_to: ClassVar[str | None] = f"unbabel-comet {COMET_VERSION} model.predict"
    display_scale: ClassVar[float] = 1.0
    columns: ClassVar[tuple[str, ...]] = ("score", "documents")
    integer_statistics = False
    loads_model: ClassVar[bool] = True
    #: sources and references are embedded once and kept for the next system's call (refscore.metrics.systems)
    independent_segments: ClassVar[bool] = False
    runtime_fields: ClassVar[frozenset[str]] = frozenset({"device", "batch_tokens"})
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--comet-model",), "model", "COMET: unbabel-comet model folder (checkpoints/model.ckpt, "
                  "hparams.yaml) or its model.ckpt"),
        CliOption(("--comet-encoder",), "encoder", "COMET: local folder of the encoder's config and tokenizer"),
        CliOption(("--comet-sources",), "sources", "COMET: the source segments, one per line of FILE",
                  sentences_file_option),
        CliOption(("--comet-dtype",), "dtype", "COMET encoder precision (default float32, unbabel-comet's numbers)",
                  str, DTYPES),
    )
    runtime_cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--comet-device",), "device", "COMET device: cpu, cuda, cuda:N or auto", device_option),
        CliOption(("--comet-batch-tokens",), "batch_tokens", "COMET tokens per encoder batch (default 4096)",
                  positive_int_option),
    )

    config: COMETConfig

    def __init__(self, config: Any = None, **options: Any) -> None:
        super().__init__(config, **options)
        self._model: Any = None
        self._explained: dict[tuple[str, str], tuple[str, float]] = {}

    def __repr__(self) -> str:
        sources = "None" if self.config.sources is None else f"<{len(self.config.sources)} sources>"
        return f"COMET(model={self.config.model!r}, encoder={self.config.encoder!r}, sources={sources})"

    @classmethod
    def for_example(cls) -> COMET:
        """``refscore example`` has no COMET checkpoint to load: reported as skipped."""
        raise MissingModelError("COMET needs a local unbabel-comet checkpoint (model=PATH, --comet-model PATH)")

    @property
    def model(self) -> Any:
        """The loaded :class:`~refscore.metrics.comet.model.CometModel` (created on first use and kept)."""
        if self._model is None:
            from refscore.metrics.comet.deps import require

            if not self.config.model:
                raise MissingModelError("COMET: no checkpoint given; pass model=PATH (--comet-model PATH), an "
                                        "unbabel-comet model folder with checkpoints/model.ckpt and hparams.yaml")
            device = self.config.device
            if device == "auto":
                device = "cuda" if require("torch").cuda.is_available() else "cpu"
            self._model = _loaded(self.config.model, self.config.encoder, device, self.config.batch_tokens,
                                  self.config.dtype)
        return self._model

    def warm_up(self) -> None:
        """Load the checkpoint now (once per distributed worker)."""
        self.model  # noqa: B018 -- the property loads the model

    def _sources(self, count: int, what: str) -> tuple[str, ...]:
        sources = self.config.sources
        if sources is None:
            raise InputError(f"COMET: no sources; COMET scores a hypothesis against its source (and reference): "
                             f"pass sources=[...] with one source per {what} (--comet-sources FILE)")
        if len(sources) != count:
            raise InputError(f"COMET: {len(sources)} sources for {count} {what}s; give one source per {what}")
        return sources

    def inputs(self) -> tuple[bool, bool]:
        """Whether the loaded model reads (sources, references): its family's inputs, the unified family's
        ``input_segments``."""
        model = self.model
        if model.family == "unified_metric":
            from refscore.metrics.comet.unified import input_segments

            segments = input_segments(model)
            return "src" in segments, "ref" in segments
        return True, model.family == "regression_metric"

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per segment: the model's score of (source, hypothesis, reference) and a 1 (``documents``)."""
        batch = prepare_batch(hypotheses, references, allow_token_ids=False)
        takes_sources, takes_references = self.inputs()
        sources = list(self._sources(len(batch), "segment")) if takes_sources else None
        refs: list[str] | None = None
        if takes_references:
            counts = batch.refs_per_segment
            bad = np.flatnonzero(counts != 1)
            if len(bad):
                raise InputError(f"COMET: segment {int(bad[0])} has {int(counts[bad[0]])} references; "
                                 f"unbabel-comet's models take exactly one reference per segment")
            refs = list(batch.references)
        scores = self._scores(list(batch.hypotheses), sources, refs, num_threads)
        # what a failed test case's explanation reads back (the protocol's explain_case gets no source)
        self._explained = {(hyp, "" if refs is None else refs[i]): ("" if sources is None else sources[i],
                                                                   float(scores[i]))
                           for i, hyp in enumerate(batch.hypotheses)}
        data = np.ones((len(batch), 2), dtype=np.float64)
        data[:, 0] = scores
        return self.new_statistics(self.columns, data, batch.nrefs)

    def _scores(self, hyps: list[str], sources: list[str] | None, refs: list[str] | None,
                num_threads: int | None) -> np.ndarray:
        if not hyps:
            return np.zeros(0)
        model = self.model
        if model.family == "unified_metric":
            from refscore.metrics.comet.unified import unified_scores

            return unified_scores(model, hyps, sources, refs, num_threads)
        assert sources is not None   # the regression families read the source
        mt = model.embed(hyps, num_threads)
        src = model.embed(sources, num_threads)
        ref = None if refs is None else model.embed(refs, num_threads)
        return model.estimate(mt, src, ref)

    def pair_matrices(self, texts: list[str], items: Sequence[tuple[np.ndarray, np.ndarray]], *,
                      num_threads: int | None = None, memory_budget: int | None = None) -> list[np.ndarray]:
        """``refscore.pairwise``/``mbr``'s hook: item ``k``'s candidates x references scores with source
        ``sources[k]``, every distinct text embedded once per call (not once per pair)."""
        takes_sources, takes_references = self.inputs()
        sources: Sequence[str | None] = self._sources(len(items), "item") if takes_sources else [None] * len(items)
        model = self.model
        if model.family != "unified_metric":   # each distinct text once; the pairs below read the kept vectors
            model.embed(list(texts), num_threads)
        matrices = []
        for (cand, ref), source in zip(items, sources):
            hyps = [texts[i] for i in cand for _ in ref]
            refs = [texts[j] for _ in cand for j in ref]
            scores = self._scores(hyps, None if source is None else [source] * len(hyps),
                                  refs if takes_references else None, num_threads)
            matrices.append(scores.reshape(len(cand), len(ref)))
        return matrices

    def pair_scoring(self, texts: list[str]) -> Any:
        """The native matrices of :meth:`pair_matrices` (the source of item ``k`` is ``sources[k]``)."""
        from refscore._pair_scoring import NativePairs

        return NativePairs(self, texts, self.pair_matrices)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """``score / documents`` per row (0 without documents): the mean segment score."""
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        documents = totals[:, 1:2]
        return np.where(documents > 0, totals[:, 0:1] / np.where(documents > 0, documents, 1), 0.0)

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        """The case's score and source from the last :meth:`statistics` call (COMET needs the source, which a
        case's explanation is not given)."""
        reference = references[0] if references else ""
        seen = self._explained.get((output, reference)) or self._explained.get((output, ""))
        if seen is None:
            return "COMET: this case was not scored in the last call (its source is unknown here)"
        return f"COMET {seen[1]:.4f} against the source {seen[0][:60]!r} and the reference {reference[:60]!r}"

    def signature(self, nrefs: int = 1) -> Signature:
        from pathlib import Path

        return Signature({"nrefs": nrefs_text(nrefs), "model": Path(self.config.model).name or "none",
                          "dtype": self.config.dtype, "comet": COMET_VERSION},
                         short_names={"nrefs": "#", "model": "m"})


def comet(hypotheses: Any, references: Any, *, sources: Sequence[str], model: str, num_threads: int | None = None,
          **options: Any) -> Score:
    """COMET of ``hypotheses`` against ``references`` and ``sources`` with the checkpoint at ``model``.

    >>> comet(["Hallo"], ["Hello"], sources=["Hi"], model="/nonexistent")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    refscore.errors.MissingModelError: COMET: no checkpoint at '/nonexistent'; ...
    """
    return metric_with(COMET, {"model": str(model), "sources": tuple(sources), **options}).corpus_score(
        hypotheses, references, num_threads=num_threads)


#: :func:`comet` under the metric's registry name (``-m unbabel_comet``; ``comet`` names scores read from a file).
unbabel_comet = comet
