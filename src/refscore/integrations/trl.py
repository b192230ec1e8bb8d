"""refscore metrics as TRL reward functions: ``GRPOTrainer(reward_funcs=[reward("chrf",
reference_column="solution")], ...)``.

TRL calls a reward function as ``f(prompts=..., completions=..., completion_ids=..., **dataset_columns)``, with
one entry of each dataset column per completion, and logs it under ``f.__name__``. :func:`reward` builds such a
function from one metric or several combined with weights; each completion's reward is exactly the metric's
sentence score (:class:`refscore.Reward`, the metric's sentence-level defaults: BLEU with effective order, as
``sacrebleu.sentence_bleu``) against the references in the column named by ``reference_column`` (a string or a
list of strings per row). Completions are text, or conversational (a list of message dicts: the last message's
``content`` is scored). With ``token_ids=True`` the completion's token ids are scored instead (metrics defined on
words: BLEU, GLEU, TER, ROUGE) against references encoded by ``encode`` once and cached across steps (the
:class:`refscore.Reward` cache). Scores are on the 0-1 scale. Needs nothing beyond refscore (TRL calls it); the
``trl`` extra installs TRL.

>>> from refscore.integrations.trl import reward
>>> chrf = reward("chrf", reference_column="solution")
>>> chrf.__name__
'refscore_chrf'
>>> [round(x, 4) for x in chrf(prompts=["p", "p"], completions=["a cat", [{"role": "assistant", "content": "x"}]],
...                             solution=["the cat", "the cat"])]
[0.3125, 0.0]
>>> mixed = reward(["chrf", "bleu"], weights=[0.5, 0.5], reference_column="solution")
>>> mixed.__name__, round(mixed(completions=["the cat"], solution=["the cat"])[0], 4)
('refscore_chrf_bleu', 1.0)
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from refscore.errors import InputError, InputTypeError
# from the facade, not the module: importing ``refscore.reward`` directly would bind the module over the
# facade's lazy function ``refscore.reward``
from refscore import Reward
from refscore import reward as metric_reward

__all__ = ["RewardFunction", "completion_text", "reward"]

_OWNER = "refscore.integrations.trl"


def completion_text(completion: Any, index: int) -> str:
    """The text of one TRL completion: a string as it is; a conversational one (a list of ``{"role": ...,
    "content": ...}`` dicts, TRL's format for chat datasets) by its last message's ``content``.

    >>> completion_text([{"role": "assistant", "content": "hi"}], 0)
    'hi'
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if isinstance(completion, (list, tuple)) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):   # multimodal messages: the text parts, in order
            return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    raise InputTypeError(f"{_OWNER}: completions[{index}] must be a string or a list of message dicts with a "
                         f"'content' string (TRL's conversational format), got {type(completion).__name__}")


class RewardFunction:
    """A TRL reward function: ``sum(weight * reward)`` over its :class:`refscore.Reward` objects (see the module
    docstring); ``__name__`` is what TRL logs the reward under."""

    def __init__(self, rewards: Sequence[Reward], weights: Sequence[float], *, reference_column: str,
                 token_ids: bool, name: str) -> None:
        self.rewards, self.weights = list(rewards), [float(weight) for weight in weights]
        self.reference_column, self.token_ids = reference_column, token_ids
        self.__name__ = name

    def __repr__(self) -> str:
        parts = ", ".join(f"{weight:g}*{item.metric.name}" for item, weight in zip(self.rewards, self.weights))
        return f"RewardFunction({self.__name__!r}: {parts}, reference_column={self.reference_column!r})"

    def __call__(self, prompts: Any = None, completions: Any = None, completion_ids: Any = None,
                 **columns: Any) -> list[float]:
        if completions is None:
            raise InputError(f"{_OWNER}: {self.__name__} needs completions= (TRL passes them)")
        if self.reference_column not in columns:
            raise InputError(f"{_OWNER}: {self.__name__} reads the references from the dataset column "
                             f"{self.reference_column!r}, which this batch lacks (columns: "
                             f"{', '.join(sorted(columns)) or 'none'}); add it to the dataset or pass "
                             f"reference_column= the name of the column that holds the references")
        references = list(columns[self.reference_column])
        if len(references) != len(completions):
            raise InputError(f"{_OWNER}: {len(completions)} completions but {len(references)} rows of column "
                             f"{self.reference_column!r}; give one reference entry per completion")
        if self.token_ids:
            if completion_ids is None:
                raise InputError(f"{_OWNER}: {self.__name__} scores token ids (token_ids=True) but got no "
                                 f"completion_ids")
            samples: list[Any] = [np.asarray(ids, dtype=np.int64) for ids in completion_ids]
        else:
            samples = [completion_text(completion, index) for index, completion in enumerate(completions)]
        total = np.zeros(len(samples), dtype=np.float64)
        for item, weight in zip(self.rewards, self.weights):
            total += weight * item(samples, references)
        return total.tolist()


def reward(metrics: str | Reward | Sequence[str | Reward], *, reference_column: str = "reference",
           weights: Sequence[float] | None = None, name: str | None = None, token_ids: bool = False,
           encode: Callable[[str], Any] | None = None, score: str | None = None, **options: Any) -> RewardFunction:
    """A TRL reward function of one metric (a registry name with ``options`` and ``score``, as
    :func:`refscore.reward`) or several (names or :class:`refscore.Reward` objects) summed with ``weights``
    (default equal weights summing to 1). ``name``: the ``__name__`` TRL logs (default ``refscore_`` and the
    metric names). ``token_ids=True`` scores ``completion_ids`` against the references encoded by ``encode``.

    >>> bleu = reward("bleu", reference_column="answer")
    >>> [round(x, 4) for x in bleu(completions=["the cat sat"], answer=[["the cat sat"]])]
    [1.0]
    """
    items = [metrics] if isinstance(metrics, (str, Reward)) else list(metrics)
    if not items:
        raise InputError(f"{_OWNER}: reward() needs at least one metric name or refscore.Reward")
    if (options or score is not None) and len(items) > 1:
        raise InputError(f"{_OWNER}: metric options ({', '.join([*options, *(['score'] if score else [])])}) "
                         f"apply to one metric; for several, pass refscore.reward(name, ...) objects")
    if token_ids and encode is None:
        raise InputError(f"{_OWNER}: token_ids=True needs encode= (reference text to the policy's token ids, "
                         f"e.g. lambda text: tokenizer.encode(text, add_special_tokens=False))")
    rewards: list[Reward] = []
    for position, item in enumerate(items):
        if isinstance(item, str):
            rewards.append(metric_reward(item, score=score, encode=encode, **options))  # type: ignore[operator]  # the facade's function, read by mypy as the module of that name
        elif isinstance(item, Reward):
            rewards.append(item)
        else:
            raise InputTypeError(f"{_OWNER}: metrics[{position}] must be a metric name or a refscore.Reward, got "
                                 f"{type(item).__name__}")
    if weights is None:
        weights = [1.0 / len(rewards)] * len(rewards)
    weights = [float(weight) for weight in weights]
    if len(weights) != len(rewards) or not all(np.isfinite(weights)):
        raise InputError(f"{_OWNER}: weights must be {len(rewards)} finite numbers, one per metric; got {weights}")
    if not isinstance(reference_column, str) or not reference_column:
        raise InputTypeError(f"{_OWNER}: reference_column must be the name of a dataset column, got "
                             f"{reference_column!r}")
    label = name or "refscore_" + "_".join(item.metric.name for item in rewards)
    return RewardFunction(rewards, weights, reference_column=reference_column, token_ids=token_ids, name=label)
