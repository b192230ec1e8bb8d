"""Rewards for training loops: per-sample sentence scores of a batch of samples against per-prompt references.

A :class:`Reward` holds one metric and scores ``samples[i]`` against ``references[i]`` in one call, returning a
numpy array whose entry ``i`` is exactly the metric's sentence score of that pair (``metric.sentence_score``
and ``metric.sentence_scores`` give the same numbers). :func:`reward` builds one from a metric name with the
metric's sentence-level defaults (BLEU: effective order, as ``sacrebleu.sentence_bleu``).

>>> import refscore
>>> chrf = refscore.reward("chrf")
>>> prompt_refs = ["the cat sat on the mat", "a dog barked"]
>>> samples = ["the cat sat on a mat", "a cat is on the mat", "a dog barks", ""]
>>> [round(float(x), 4) for x in chrf(samples, [prompt_refs[0], prompt_refs[0], prompt_refs[1], prompt_refs[1]])]
[0.6598, 0.4704, 0.7387, 0.0]

Samples are text or token ids (lists of ints / 1-D integer arrays). **Token ids are words**: on a metric defined
on words (BLEU, GLEU, TER, ROUGE), a token-id sample scores exactly as the text that writes each id in decimal and
joins them with single spaces, scored with that metric and ``tokenize="none"`` (BLEU/GLEU; TER and ROUGE split
those texts into the same words); the text-only settings (``tokenize``, ``lowercase``) do not apply to ids.
References of token-id samples are token ids of the same vocabulary, or text with ``encode=`` (text to ids, e.g.
``lambda text: tokenizer.encode(text, add_special_tokens=False)``). A metric defined on characters (chrF) takes
token-id samples only with ``decode=`` (ids to text, e.g. ``tokenizer.decode``); the decoded text is scored.

References repeat every epoch, so the work done on them is kept across calls in a bounded LRU cache keyed by
the reference text: the ``encode`` of text references (the tokenizer call, the expensive step), and BERTScore's
reference embeddings (kept by its scorer). Text samples against text references go straight to the metric's
compiled kernels, which tokenize and count a reference in one pass faster than a cached copy can be handed back
to them (measured in docs/rewards.md).
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from refscore.checks import check_int, check_num_threads
from refscore.inputs import is_token_id_sequence, per_segment, prepare_batch
from refscore.errors import InputError, InputTypeError
from refscore.metrics import get_metric_class
from refscore.protocol import Metric

#: Distinct reference entries whose encoded ids a Reward keeps by default.
DEFAULT_CACHE_SIZE = 65_536
_DTYPES = {"float64": np.float64, "float32": np.float32}


class Reward:
    """Per-sample sentence scores of one metric for training loops (see the module docstring for the rules).

    ``metric`` is a :class:`refscore.protocol.Metric` instance; ``score`` names one of its ``score_names``
    (default the first, e.g. ROUGE's first type); ``encode`` turns a reference text into token ids (for token-id
    samples against text references); ``decode`` turns token ids into text (token-id samples are then scored as
    text); ``cache_size`` bounds the encoded references kept (distinct reference entries, least recently used
    dropped first); ``dtype`` is ``"float64"`` (default) or ``"float32"`` (the float64 scores rounded once).

    >>> import refscore
    >>> from refscore.metrics.bleu import BLEU
    >>> bleu = Reward(BLEU(effective_order=True))
    >>> ids = bleu([[5, 17, 5, 9]], [[[5, 17, 5, 8], [1, 2]]])   # token ids: one sample, two references
    >>> float(ids[0]) == refscore.sentence_bleu("5 17 5 9", ["5 17 5 8", "1 2"], tokenize="none").score
    True
    """

    def __init__(self, metric: Metric, *, score: str | None = None, encode: Callable[[str], Any] | None = None,
                 decode: Callable[[Any], str] | None = None, cache_size: int = DEFAULT_CACHE_SIZE,
                 dtype: str = "float64", num_threads: int | None = None) -> None:
        if not isinstance(metric, Metric):
            raise InputTypeError(f"Reward: metric must be a refscore metric instance (e.g. refscore.CHRF()) or use "
                                 f"refscore.reward('chrf', ...), got {type(metric).__name__}")
        for name, function in (("encode", encode), ("decode", decode)):
            if function is not None and not callable(function):
                raise InputTypeError(f"Reward: {name} must be a function, got {type(function).__name__}")
        if dtype not in _DTYPES:
            raise InputError(f"Reward: dtype must be 'float64' or 'float32', got {dtype!r}")
        names = metric.score_names
        if score is not None and score not in names:
            raise InputError(f"Reward: score {score!r} is not one of {metric.name}'s scores: {', '.join(names)}")
        self.metric = metric
        self.score_index = names.index(score) if score is not None else 0
        self.encode = encode
        self.decode = decode
        self.cache_size = check_int(cache_size, "cache_size", minimum=0, owner="Reward")
        self.dtype = _DTYPES[dtype]
        self.num_threads = check_num_threads(num_threads)
        #: reference entry (a tuple of texts) -> its references as token ids, least recently used first.
        self._encoded: OrderedDict[tuple[str, ...], list[np.ndarray]] = OrderedDict()
        self.encode_calls = 0   # texts passed to ``encode`` so far: what the cache saves is observable
        self._text_only: bool | None = None

    def __repr__(self) -> str:
        return f"Reward({self.metric!r}, cached_references={len(self._encoded)})"

    def __call__(self, samples: Sequence[Any], references: Sequence[Any]) -> np.ndarray:
        """Scores of ``samples[i]`` against ``references[i]`` (a string, a list of strings, or token ids), one per
        sample, in input order. An empty batch gives an empty array."""
        if isinstance(samples, (list, tuple)) and not samples and isinstance(references, (list, tuple)) \
                and not references:
            return np.zeros(0, dtype=self.dtype)
        if _are_token_ids(samples) and self.decode is not None:
            samples = [self._decoded(ids, index) if is_token_id_sequence(ids) else ids
                       for index, ids in enumerate(samples)]
        elif _are_token_ids(samples):
            samples = [_as_array(ids) for ids in samples]
            references = [self._as_ids(entry, index) for index, entry in enumerate(_entries(references))]
        batch = prepare_batch(samples, per_segment(references), hyp_name="samples", ref_name="references")
        if batch.is_token_ids:
            self._check_token_metric()
        offsets = batch.ref_offsets
        grouped = batch.references if bool(np.all(np.diff(offsets) == 1)) else \
            [batch.references[start:stop] for start, stop in zip(offsets[:-1], offsets[1:])]
        stats = self.metric.statistics(batch.hypotheses, per_segment(grouped), num_threads=self.num_threads)
        scores = self.metric.scores_from_totals(stats.data)[:, self.score_index]
        return scores.astype(self.dtype, copy=False)

    def _as_ids(self, entry: Any, index: int) -> Any:
        """A token-id sample's references as token ids: text is encoded once per distinct entry (cached)."""
        if isinstance(entry, str):
            key: tuple[str, ...] = (entry,)
        elif isinstance(entry, (list, tuple)) and entry and all(isinstance(text, str) for text in entry):
            key = tuple(entry)
        elif isinstance(entry, (list, tuple)) and entry and isinstance(entry[0], (list, tuple, np.ndarray)):
            return [_as_array(ids) for ids in entry]   # several token-id references
        else:
            return _as_array(entry)   # token ids already (or bad input, which prepare_batch reports)
        cached = self._encoded.get(key)
        if cached is not None:
            self._encoded.move_to_end(key)
            return cached
        if self.encode is None:
            raise InputTypeError(f"Reward({self.metric.name}): samples are token ids but references[{index}] is "
                                 f"text; pass encode= (text to token ids of the samples' vocabulary) or decode= "
                                 f"(token ids to text), or give the references as token ids")
        encoded = [self._encoded_text(text, index, position, len(key)) for position, text in enumerate(key)]
        if self.cache_size:
            self._encoded[key] = encoded
            if len(self._encoded) > self.cache_size:
                self._encoded.popitem(last=False)
        return encoded

    def _encoded_text(self, text: str, index: int, position: int, count: int) -> np.ndarray:
        self.encode_calls += 1
        ids = self.encode(text)  # type: ignore[misc]  # a callable attribute
        if hasattr(ids, "tolist") and not isinstance(ids, np.ndarray):   # a tensor
            ids = ids.tolist()
        if isinstance(ids, str) or not is_token_id_sequence(ids):
            where = f"references[{index}]" + (f"[{position}]" if count > 1 else "")
            raise InputTypeError(f"Reward: encode({where}) returned {type(ids).__name__}, expected a list of int "
                                 f"token ids")
        return np.asarray(ids, dtype=np.int64)

    @property
    def cached_references(self) -> int:
        """How many distinct reference entries have their encoded ids kept."""
        return len(self._encoded)

    def clear_cache(self) -> None:
        """Drop the encoded references (BERTScore's embeddings stay with its scorer)."""
        self._encoded.clear()

    def _decoded(self, ids: Any, index: int) -> str:
        text = self.decode(ids.tolist() if isinstance(ids, np.ndarray) else list(ids))  # type: ignore[misc]  # a callable attribute
        if not isinstance(text, str):
            raise InputTypeError(f"Reward: decode(samples[{index}]) returned {type(text).__name__}, expected str")
        return text

    def _check_token_metric(self) -> None:
        """Raise the fix when the metric is defined on text only (learned once, from the metric's own check)."""
        if self._text_only is None:
            try:
                self.metric.statistics([[1]], [[1]], num_threads=1)
                self._text_only = False
            except InputTypeError:
                self._text_only = True
        if self._text_only:
            raise InputTypeError(f"Reward({self.metric.name}): samples are token ids, but {self.metric.name} is "
                                 f"defined on text (characters); pass decode= (token ids to text, e.g. "
                                 f"tokenizer.decode) to score the decoded samples")


def _are_token_ids(samples: Any) -> bool:
    return isinstance(samples, (list, tuple)) and bool(samples) and not isinstance(samples[0], str) \
        and is_token_id_sequence(samples[0])


def _as_array(ids: Any) -> Any:
    """A list of ints as an integer array (checked by numpy in one pass instead of item by item in Python);
    anything else as given, for ``prepare_batch`` to check and name."""
    if isinstance(ids, (list, tuple)):
        try:
            array = np.asarray(ids)
        except ValueError:   # ragged nesting
            return ids
        if array.ndim == 1 and (array.dtype.kind in "iu" or array.size == 0):
            return array
    return ids


def _entries(references: Any) -> Sequence[Any]:
    if not isinstance(references, (list, tuple)):
        raise InputTypeError(f"references must be a list with one entry per sample, got {type(references).__name__}")
    return references


def reward(metric: str, *, score: str | None = None, encode: Callable[[str], Any] | None = None,
           decode: Callable[[Any], str] | None = None, cache_size: int = DEFAULT_CACHE_SIZE, dtype: str = "float64",
           num_threads: int | None = None, **options: Any) -> Reward:
    """A :class:`Reward` of the metric registered as ``metric``, with ``options`` as its settings over its
    sentence-level defaults (the ``check_defaults`` of the metric class, e.g. BLEU's effective order).

    >>> import refscore
    >>> bleu = refscore.reward("bleu")
    >>> float(bleu(["the cat sat"], ["the dog sat"])[0]) == refscore.sentence_bleu("the cat sat", "the dog sat").score
    True
    """
    metric_class = get_metric_class(metric)
    settings = {**dict(metric_class.check_defaults), **options}
    return Reward(metric_class(**settings), score=score, encode=encode, decode=decode, cache_size=cache_size,
                  dtype=dtype, num_threads=num_threads)
