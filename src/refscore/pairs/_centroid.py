"""Centroid-based MBR (Deguchi et al., 2024, "Centroid-Based Efficient Minimum Bayes Risk Decoding"), as mbrs
0.1.8's ``DecoderCentroidMBR`` defines it (docs/mbr.md).

Per item, the pseudo-references' embeddings are clustered by k-means (mbrs' ``Kmeans``: k-means++ or a random
permutation for the initial centroids, drawn as a torch CPU generator seeded with ``seed`` draws them, reproduced in
numpy by :mod:`refscore.pairs._random`; at most ``niter`` Lloyd iterations, stopping when no assignment changes; an
empty cluster keeps its centroid). Each candidate is then scored against the centroids only (``ncentroids`` pairs
instead of one per pseudo-reference) by a utility that works on embeddings (COMET's estimator, a cosine
similarity), and the expected utility is the mean over the centroids, weighted by the clusters' sizes with
``count_weight=True`` or by their sample weights' sums.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from refscore.checks import check_bool, check_int
from refscore.errors import InputError, InputTypeError
from refscore.pairs._items import check_items
from refscore.pairs._mbr import MBRResult, select
from refscore.pairs._random import TorchCPUDraws
from refscore.pairs._utilities import sample_weights as check_sample_weights

Utility = Callable[[int, np.ndarray], Any]


def _distances(x: np.ndarray, centroids: np.ndarray, x_squared: np.ndarray | None = None) -> np.ndarray:
    """Euclidean distances (rows of ``x`` x centroids), as ``torch.cdist(x, centroids, p=2)`` computes them for
    more than 25 rows: through the product ``x @ centroids.T`` (here in float64, where torch works in the
    embeddings' float32)."""
    x_squared = np.einsum("ij,ij->i", x, x) if x_squared is None else x_squared
    squared = x_squared[:, None] + np.einsum("ij,ij->i", centroids, centroids)[None, :] - 2.0 * (x @ centroids.T)
    return np.sqrt(np.maximum(squared, 0.0))


def kmeans(x: np.ndarray, ncentroids: int = 8, niter: int = 5, kmeanspp: bool = True,
           seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """mbrs' ``Kmeans.train``: the centroids ``(ncentroids, dim)`` and each row's cluster. With at most
    ``ncentroids`` rows every row is its own centroid.

    >>> centroids, assigns = kmeans(np.array([[0.0], [0.1], [5.0], [5.2]]), ncentroids=2)
    >>> sorted(centroids.ravel().round(2).tolist()), assigns.tolist()
    ([0.05, 5.1], [0, 0, 1, 1])
    """
    x = np.asarray(x, dtype=np.float64)
    if ncentroids == 1:
        centroids = x.mean(axis=0, keepdims=True)
        return centroids, np.argmin(_distances(x, centroids), axis=1)
    if x.shape[0] <= ncentroids:
        return x.copy(), np.arange(x.shape[0])
    draws = TorchCPUDraws(seed)
    norms = np.einsum("ij,ij->i", x, x)
    if kmeanspp:
        centroids = x[draws.randint(x.shape[0], (1,))]
        nearest_squared = _distances(x, centroids, norms)[:, 0] ** 2
        for _ in range(ncentroids - 1):
            # mbrs recomputes every centroid's distances each step; their minimum is the same kept up to date
            nearest = np.maximum(nearest_squared.astype(np.float32), np.float32(1e-5))
            chosen = draws.multinomial_one(nearest / nearest.sum(dtype=np.float32))
            centroids = np.concatenate([centroids, x[chosen][None, :]])
            nearest_squared = np.minimum(nearest_squared, _distances(x, centroids[-1:], norms)[:, 0] ** 2)
    else:
        centroids = x[draws.randperm(x.shape[0])[:ncentroids]]
    assigns = np.full(x.shape[0], -1)
    for _ in range(niter):
        new_assigns = np.argmin(_distances(x, centroids, norms), axis=1)
        if np.array_equal(new_assigns, assigns):
            break
        assigns = new_assigns
        for k in range(ncentroids):
            members = assigns == k
            if members.any():
                centroids[k] = x[members].mean(axis=0)
    return centroids, assigns


def cosine_utility(embeddings: Sequence[np.ndarray]) -> Utility:
    """A utility on embeddings: the cosine similarity of each candidate's embedding with each centroid (0 for a
    zero vector). ``embeddings[k]`` is item ``k``'s ``(candidates, dim)`` array."""
    def utility(k: int, centroids: np.ndarray) -> np.ndarray:
        a = np.asarray(embeddings[k], dtype=np.float64)
        norms = np.linalg.norm(a, axis=1)[:, None] * np.linalg.norm(centroids, axis=1)[None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(norms > 0, (a @ centroids.T) / np.where(norms > 0, norms, 1.0), 0.0)
    return utility


def _embedding_items(value: Any, counts: Sequence[int | None], argument: str) -> list[np.ndarray]:
    """One float64 (rows x dim) array per item; ``counts[k]``: item k's row count (None: any)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)) or len(value) != len(counts):
        raise InputTypeError(f"{argument} must be a list of {len(counts)} 2-D array(s), one (rows x dim) per item")
    arrays = []
    for k, (array, count) in enumerate(zip(value, counts)):
        array = np.asarray(array, dtype=np.float64)
        if array.ndim != 2 or (count is not None and array.shape[0] != count):
            raise InputError(f"{argument}[{k}] has shape {array.shape}; expected ({count} x dim): one row per "
                             f"{'candidate' if argument == 'embeddings' else 'pseudo-reference'} of item {k}")
        if not np.all(np.isfinite(array)):
            raise InputError(f"{argument}[{k}] holds NaN or infinite values")
        arrays.append(array)
    return arrays


def centroid_mbr(candidates: Any, embeddings: Any, utility: Utility | str = "cosine",
                 pseudo_reference_embeddings: Any = None, *, ncentroids: int = 8, niter: int = 5,
                 kmeanspp: bool = True, seed: int = 0, count_weight: bool = False, sample_weights: Any = None,
                 sample_log_probs: Any = None) -> MBRResult:
    """MBR against k-means centroids of the pseudo-references' embeddings, as mbrs' ``centroid_mbr`` decoder: the
    same clusters (initial draws, iterations) for the same embeddings and seed.

    ``embeddings[k]`` is item ``k``'s ``(candidates, dim)`` array, ``pseudo_reference_embeddings[k]`` its
    pseudo-references' (None: the candidates', as mbrs is called with the samples as references).
    ``utility(k, centroids)`` returns item ``k``'s ``(candidates, ncentroids)`` utilities against the centroids
    (e.g. COMET's estimator on the candidates' and the centroids' embeddings); ``"cosine"`` is the cosine
    similarity of the embeddings (:func:`cosine_utility`). ``ncentroids``, ``niter``, ``kmeanspp`` and ``seed``
    are mbrs' ``Kmeans.Config``; ``count_weight=True`` weighs each centroid by its cluster's size, sample weights
    by the sum of its members' weights. The result's utilities are each candidate's expected utility over the
    centroids.

    >>> vectors = [np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [1.0, 0.05]])]
    >>> centroid_mbr([["a", "b", "c", "d"]], vectors, ncentroids=2).best
    ['b']
    """
    items = check_items(candidates, "candidates")
    ncentroids = check_int(ncentroids, "ncentroids", minimum=1)
    niter = check_int(niter, "niter", minimum=0)
    kmeanspp = check_bool(kmeanspp, "kmeanspp")
    count_weight = check_bool(count_weight, "count_weight")
    seed = check_int(seed, "seed", minimum=0, maximum=2**32 - 1, hint="torch's CPU generator seeds with 32 bits")
    hypotheses = _embedding_items(embeddings, [len(item) for item in items], "embeddings")
    references = hypotheses if pseudo_reference_embeddings is None else _embedding_items(
        pseudo_reference_embeddings, [None] * len(items), "pseudo_reference_embeddings")
    for k, (h, r) in enumerate(zip(hypotheses, references)):
        if h.shape[1] != r.shape[1]:
            raise InputError(f"item {k}: the candidates' embeddings have {h.shape[1]} dimensions but the "
                             f"pseudo-references' {r.shape[1]}")
    if count_weight and (sample_weights is not None or sample_log_probs is not None):
        raise InputError("centroid_mbr: count_weight=True weighs the centroids by cluster size; give it or "
                         "sample_weights / sample_log_probs, not both")
    weights = check_sample_weights(sample_weights, sample_log_probs, [r.shape[0] for r in references])
    if isinstance(utility, str):
        if utility != "cosine":
            raise InputError(f"utility must be a function (item, centroids) -> (candidates, centroids) utilities, "
                             f"or 'cosine', got {utility!r}")
        utility = cosine_utility(hypotheses)
    elif not callable(utility):
        raise InputTypeError(f"utility must be a function (item, centroids) -> utilities, or 'cosine', got "
                             f"{type(utility).__name__}")
    out = np.full((len(items), max((len(item) for item in items), default=0)), np.nan)
    for k, item in enumerate(items):
        if not item or references[k].shape[0] == 0:
            continue
        centroids, assigns = kmeans(references[k], ncentroids, niter, kmeanspp, seed)
        scores = np.asarray(utility(k, centroids), dtype=np.float64)
        if scores.shape != (len(item), len(centroids)):
            raise InputError(f"utility({k}, centroids) returned shape {scores.shape}; expected ({len(item)}, "
                             f"{len(centroids)}): item {k}'s candidates x centroids")
        if count_weight or weights is not None:
            mass = np.bincount(assigns, weights=None if weights is None else weights[k], minlength=len(centroids))
            out[k, :len(item)] = (scores @ mass) / mass.sum()
        else:
            out[k, :len(item)] = scores.mean(axis=1)
    chosen, best = select(out, items)
    return MBRResult(out, chosen, best)
