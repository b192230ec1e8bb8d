"""Drop-in for ``bert_score`` 0.3.13: ``score``, ``plot_example`` and ``BERTScorer`` with the same arguments,
returning torch tensors ``(P, R, F)`` (shape ``(N,)``, or ``(layers + 1, N)`` with ``all_layers``) with
bert-score's values, computed by refscore.

>>> from refscore.compat import bert_score
>>> P, R, F = bert_score.score(["the cat sat"], ["a cat sat"], model_type="path/to/model",
...                            num_layers=4)  # doctest: +SKIP

Differences (see docs/bertscore.md): ``batch_size`` and ``nthreads`` are accepted and do not change anything
(refscore batches by token count); a missing baseline file is an error instead of a printed warning;
``plot_example`` returns the matplotlib figure instead of calling ``plt.show()``.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from refscore.io.atomic import atomic_path
from refscore.metrics.bertscore.config import BERTScoreConfig
from refscore.metrics.bertscore.deps import require, torch_and_transformers
from refscore.metrics.bertscore.scorer import BERTScorer as _BERTScorer
from refscore.metrics.bertscore.scorer import PairScores
from refscore.inputs import per_segment
from refscore.errors import InputError, InputTypeError

__all__ = ["score", "plot_example", "BERTScorer"]


def peer_config(*, model_type: str | None = None, num_layers: int | None = None, all_layers: bool = False,
                idf: Any = False, idf_sents: Any = None, device: Any = None, lang: str | None = None,
                rescale_with_baseline: bool = False, baseline_path: str | None = None,
                use_fast_tokenizer: bool = False, verbose: bool = False) -> BERTScoreConfig:
    """refscore's settings for bert-score's arguments (the one place they are translated; ``batch_size`` and
    ``nthreads`` change nothing in refscore). ``idf_sents`` is used only with ``idf=True``, as in bert-score."""
    if rescale_with_baseline and lang is None and baseline_path is None:
        raise InputError("rescale_with_baseline=True needs lang (for bert-score's built-in baselines) or "
                         "baseline_path")
    return BERTScoreConfig(model_type=model_type, num_layers=num_layers, lang=lang, idf=idf,
                           idf_sentences=idf_sents if idf is True else None,
                           rescale_with_baseline=rescale_with_baseline, baseline_path=baseline_path,
                           all_layers=all_layers, device=device, use_fast_tokenizer=use_fast_tokenizer,
                           progress=True if verbose else None)


def _as_tensors(pairs: PairScores) -> tuple[Any, Any, Any]:
    torch, _ = torch_and_transformers()
    return tuple(torch.from_numpy(np.ascontiguousarray(values))
                 for values in (pairs.precision, pairs.recall, pairs.f1))


class BERTScorer(_BERTScorer):
    """bert-score's ``BERTScorer``: ``score`` returns tensors; ``idf=True`` needs ``idf_sents`` or
    :meth:`compute_idf` first, as in bert-score."""

    def __init__(self, model_type: str | None = None, num_layers: int | None = None, batch_size: int = 64,
                 nthreads: int = 4, all_layers: bool = False, idf: bool = False, idf_sents: Any = None,
                 device: Any = None, lang: str | None = None, rescale_with_baseline: bool = False,
                 baseline_path: str | None = None, use_fast_tokenizer: bool = False) -> None:
        self.batch_size = batch_size
        self.nthreads = nthreads
        super().__init__(config=peer_config(model_type=model_type, num_layers=num_layers, all_layers=all_layers,
                                            idf=bool(idf), idf_sents=idf_sents, device=device, lang=lang,
                                            rescale_with_baseline=rescale_with_baseline,
                                            baseline_path=baseline_path, use_fast_tokenizer=use_fast_tokenizer))

    @property
    def use_custom_baseline(self) -> bool:
        """Whether a ``baseline_path`` was given (bert-score's attribute; it marks the hash ``-custom-rescaled``)."""
        return self.baseline_path is not None

    def compute_idf(self, sents: Any) -> None:
        """Compute IDF weights from ``sents``; as in bert-score they are used only when the scorer has
        ``idf=True``."""
        idf = self.idf
        super().compute_idf(sents)
        self.idf = idf

    @property
    def baseline_vals(self) -> Any:
        """The baseline row(s) used for rescaling, as a float32 tensor (bert-score's property)."""
        torch, _ = torch_and_transformers()
        if self._baseline is None:
            self._baseline = self._read_baseline()
        table = torch.from_numpy(self._baseline)
        return table.unsqueeze(1) if self.all_layers else table[self.num_layers]

    def score(self, cands: Any, refs: Any, verbose: bool = False, batch_size: int = 64,
              return_hash: bool = False) -> Any:
        if self.idf and self._frozen_idf is None:
            raise InputError("IDF weights are not computed: pass idf_sents=... to BERTScorer or call "
                             "compute_idf(sentences) first (bert-score raises an AssertionError here)")
        out = _as_tensors(self.score_pairs(cands, per_segment(refs), hyp_name="cands", ref_name="refs"))
        return (out, self.hash) if return_hash else out

    def plot_example(self, candidate: str, reference: str, fname: str = "") -> Any:
        """Draw the token-similarity heatmap; saved to ``fname`` when given. Returns the matplotlib figure."""
        sim, hyp_tokens, ref_tokens = self.similarity_matrix(candidate, reference)
        return _draw_heatmap(sim, hyp_tokens, ref_tokens, self.rescale_with_baseline, fname)


def score(cands: Any, refs: Any, model_type: str | None = None, num_layers: int | None = None,
          verbose: bool = False, idf: Any = False, device: Any = None, batch_size: int = 64, nthreads: int = 4,
          all_layers: bool = False, lang: str | None = None, return_hash: bool = False,
          rescale_with_baseline: bool = False, baseline_path: str | None = None,
          use_fast_tokenizer: bool = False) -> Any:
    """bert-score's ``score``: ``(P, R, F)`` tensors (``((P, R, F), hash)`` with ``return_hash``).
    ``idf`` is a bool (IDF from ``refs``) or a precomputed ``{token_id: weight}`` dict."""
    if not isinstance(idf, (bool, dict)):
        raise InputTypeError(f"idf must be a bool or a {{token_id: weight}} dict, got {type(idf).__name__}")
    scorer = _BERTScorer(config=peer_config(model_type=model_type, num_layers=num_layers, all_layers=all_layers,
                                            idf=idf, device=device, lang=lang,
                                            rescale_with_baseline=rescale_with_baseline,
                                            baseline_path=baseline_path, use_fast_tokenizer=use_fast_tokenizer,
                                            verbose=verbose))
    out = _as_tensors(scorer.score_pairs(cands, per_segment(refs), hyp_name="cands", ref_name="refs"))
    return (out, scorer.hash) if return_hash else out


def plot_example(candidate: str, reference: str, model_type: str | None = None, num_layers: int | None = None,
                 lang: str | None = None, rescale_with_baseline: bool = False, baseline_path: str | None = None,
                 use_fast_tokenizer: bool = False, fname: str = "") -> Any:
    """bert-score's ``plot_example``: the similarity heatmap of one pair (saved to ``fname`` when given)."""
    scorer = _BERTScorer(config=peer_config(model_type=model_type, num_layers=num_layers, device="auto", lang=lang,
                                            rescale_with_baseline=rescale_with_baseline,
                                            baseline_path=baseline_path, use_fast_tokenizer=use_fast_tokenizer))
    sim, hyp_tokens, ref_tokens = scorer.similarity_matrix(candidate, reference)
    return _draw_heatmap(sim, hyp_tokens, ref_tokens, rescale_with_baseline, fname)


def _draw_heatmap(sim: np.ndarray, hyp_tokens: list[str], ref_tokens: list[str], rescaled: bool,
                  fname: str | os.PathLike[str]) -> Any:
    """bert-score's heatmap layout, drawn on a non-interactive figure (no global pyplot state)."""
    figure_module = require("matplotlib.figure", "BERTScore plot_example", "plot")
    figure = figure_module.Figure(figsize=(max(len(ref_tokens), 1), max(len(hyp_tokens), 1)))
    ax = figure.add_subplot()
    image = ax.imshow(sim, cmap="Blues", vmin=0, vmax=1)
    ax.set_xticks(np.arange(len(ref_tokens)))
    ax.set_yticks(np.arange(len(hyp_tokens)))
    ax.set_xticklabels(ref_tokens, fontsize=10, rotation=45, ha="right", rotation_mode="anchor")
    ax.set_yticklabels(hyp_tokens, fontsize=10)
    ax.grid(False)
    ax.set_xlabel("Reference (tokenized)", fontsize=14)
    ax.set_ylabel("Candidate (tokenized)", fontsize=14)
    ax.set_title("Similarity Matrix" + (" (after Rescaling)" if rescaled else ""), fontsize=14)
    figure.colorbar(image, ax=ax, fraction=0.02, pad=0.02)
    for i in range(len(hyp_tokens)):
        for j in range(len(ref_tokens)):
            ax.text(j, i, f"{sim[i, j]:.3f}", ha="center", va="center", color="k" if sim[i, j] < 0.5 else "w")
    figure.tight_layout()
    if fname:
        _save_figure(figure, str(fname))
    return figure


def _save_figure(figure: Any, fname: str) -> None:
    """``figure.savefig(fname, dpi=100)`` as matplotlib does it (the format from the suffix, else
    ``savefig.format`` appended to the name), written atomically: an interrupted save leaves no partial file."""
    matplotlib = require("matplotlib", "BERTScore plot_example", "plot")
    suffix = os.path.splitext(fname)[1][1:]
    file_format = suffix or matplotlib.rcParams["savefig.format"]
    target = fname if suffix else f"{fname}.{file_format}"
    with atomic_path(target) as temporary:
        figure.savefig(temporary, dpi=100, format=file_format)
