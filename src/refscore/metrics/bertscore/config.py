"""``BERTScoreConfig``: the one list of BERTScore's settings, and what follows from it without loading a model.

Every entry point (``refscore.bertscore``, ``refscore.BERTScorer``, the ``bertscore`` metric, the bert-score and
``evaluate`` drop-ins) builds one of these; the scorer reads its settings from it. Fields marked
:data:`RUNTIME` do not change the numbers (device, batch size, progress bar, cache), so they are left out of
the statistics' config hash.

>>> config = BERTScoreConfig(model_type="roberta-large", idf=["a b", "c"])
>>> config.idf, config.uses_idf, config.numbers()["model_type"]
(('a b', 'c'), True, 'roberta-large')
>>> bert_score_hash(config, 17, "4.40.0")
'roberta-large_L17_idf_version=0.3.12(hug_trans=4.40.0)'
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from refscore.metrics.bertscore.idf import TokenWeights
from refscore.metrics.bertscore.tables import BERT_SCORE_HASH_VERSION
from refscore.checks import check_int
from refscore.errors import InputError, InputTypeError
from refscore.io.text_files import read_text_lines

__all__ = [
    "bert_score_hash", "BERTScoreConfig", "positive_int_option", "RUNTIME", "sentences_file_option",
    "sentences_fingerprint",
]

#: Field metadata of the settings that do not change BERTScore's numbers.
RUNTIME = {"runtime": True}


@dataclasses.dataclass(frozen=True)
class BERTScoreConfig:
    """BERTScore's settings (bert-score 0.3.13 semantics); see docs/bertscore.md for each one.

    ``idf``: ``False``, ``True`` (IDF from each call's references), a ``{token_id: weight}`` dict, or sentences to
    compute IDF from once. ``idf_sentences``: sentences to compute IDF from once (bert-score's ``idf_sents``;
    turns IDF on). ``device``, ``batch_tokens``, ``progress``, ``reference_cache_size`` and
    ``reference_cache_bytes`` only change how the scores are computed.
    """

    model_type: str | None = None
    num_layers: int | None = None
    lang: str | None = None
    idf: Any = False
    idf_sentences: tuple[str, ...] | None = None
    rescale_with_baseline: bool = False
    baseline_path: str | None = None
    all_layers: bool = False
    dtype: str = "float32"
    use_fast_tokenizer: bool = False
    trust_remote_code: bool = False
    device: Any = dataclasses.field(default="auto", metadata=RUNTIME)
    batch_tokens: int | None = dataclasses.field(default=None, metadata=RUNTIME)
    progress: bool | None = dataclasses.field(default=None, metadata=RUNTIME)
    reference_cache_size: int = dataclasses.field(default=20_000, metadata=RUNTIME)
    reference_cache_bytes: int = dataclasses.field(default=1 << 30, metadata=RUNTIME)

    def __post_init__(self) -> None:
        if self.lang is not None and not isinstance(self.lang, str):
            raise InputTypeError(f"lang must be a language code (str) such as 'en', got {type(self.lang).__name__}")
        if self.lang is not None:  # built-in baselines are stored under lower-case codes
            object.__setattr__(self, "lang", self.lang.lower())
        if isinstance(self.idf, (list, tuple)):
            object.__setattr__(self, "idf", _sentences(self.idf, "idf", "a list given as idf must hold the "
                                                                        "sentences (str) to compute IDF from"))
        elif not isinstance(self.idf, (bool, Mapping)):
            raise InputTypeError(f"idf must be True/False, a {{token_id: weight}} dict or a list of sentences, "
                                 f"got {type(self.idf).__name__}")
        if self.idf_sentences is not None:
            if isinstance(self.idf_sentences, str) or not isinstance(self.idf_sentences, Sequence):
                raise InputTypeError("idf_sentences must be a sequence of sentences (str)")
            object.__setattr__(self, "idf_sentences", _sentences(self.idf_sentences, "idf_sentences", "expected str"))
        if self.baseline_path is not None:
            object.__setattr__(self, "baseline_path", str(os.fspath(self.baseline_path)))
        for name in ("reference_cache_size", "reference_cache_bytes"):
            check_int(getattr(self, name), name, minimum=0, owner="BERTScore")
        for name in ("rescale_with_baseline", "all_layers", "use_fast_tokenizer"):
            object.__setattr__(self, name, bool(getattr(self, name)))

    @property
    def uses_idf(self) -> bool:
        """Whether the scores are IDF-weighted (an empty dict means no IDF, as bert-score's ``if not idf:``)."""
        return self.idf_sentences is not None or isinstance(self.idf, tuple) or bool(self.idf)

    def idf_label(self) -> str:
        """How a signature names the IDF weights: ``no``, ``refs`` (each call's references) or ``fixed-<hash>``."""
        if not self.uses_idf:
            return "no"
        if self.idf_sentences is not None or isinstance(self.idf, tuple):
            return f"fixed-{sentences_fingerprint(self.idf_sentences or self.idf)}"
        if isinstance(self.idf, Mapping):
            return f"fixed-{TokenWeights.from_mapping(self.idf).fingerprint()}"
        return "refs"

    def numbers(self) -> dict[str, Any]:
        """The settings that determine the numbers (IDF weights as their label), for config hashes."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if not f.metadata.get("runtime")}
        values["idf"] = self.idf_label()
        values.pop("idf_sentences")
        return values


def _sentences(items: Sequence[Any], name: str, fix: str) -> tuple[str, ...]:
    for index, sentence in enumerate(items):
        if not isinstance(sentence, str):
            raise InputTypeError(f"{name}[{index}] is {type(sentence).__name__}; {fix}")
    return tuple(items)


def sentences_fingerprint(sentences: Sequence[str]) -> str:
    """A short hash of the sentences IDF weights are computed from (for signatures; no model needed).

    >>> sentences_fingerprint(["a"]) == sentences_fingerprint(("a",)) != sentences_fingerprint(["b"])
    True
    """
    digest = hashlib.sha256()
    for sentence in sentences:
        digest.update(sentence.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()[:12]


def bert_score_hash(config: BERTScoreConfig, num_layers: int, transformers_version: str,
                    model_type: str | None = None, uses_idf: bool | None = None) -> str:
    """bert-score's hash string (``utils.get_hash`` of bert-score 0.3.13) of these settings; ``model_type`` and
    ``num_layers`` as resolved (a language's default model, bert-score's default layer)."""
    idf = config.uses_idf if uses_idf is None else uses_idf
    text = (f"{model_type or config.model_type}_L{num_layers}{'_idf' if idf else '_no-idf'}"
            f"_version={BERT_SCORE_HASH_VERSION}(hug_trans={transformers_version})")
    if config.rescale_with_baseline:
        text += "-custom-rescaled" if config.baseline_path is not None else "-rescaled"
    if config.use_fast_tokenizer:
        text += "_fast-tokenizer"
    return text


#: What ``--device`` accepts (checked before torch is imported; whether the device exists: ``check_runtime_settings``).
DEVICE_PATTERN = re.compile(r"auto|cpu|mps|cuda(:\d+)?", re.IGNORECASE)


def device_option(text: str) -> str:
    """CLI type of ``--device``: ``auto``, ``cpu``, ``mps``, ``cuda`` or ``cuda:N``.

    >>> device_option("cuda:1")
    'cuda:1'
    """
    if not DEVICE_PATTERN.fullmatch(text.strip()):
        raise ValueError(f"{text!r} is not a device; use auto, cpu, cuda, cuda:N or mps")
    return text


def positive_int_option(text: str) -> int:
    """CLI type of ``--bertscore-batch-tokens``: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"invalid value {text!r}: give an integer >= 1") from None
    if value < 1:
        raise ValueError(f"invalid value {value}: give an integer >= 1")
    return value


def sentences_file_option(path: str) -> tuple[str, ...]:
    """CLI type of ``--bertscore-idf FILE``: the file's lines, the sentences IDF is computed from."""
    try:
        return tuple(read_text_lines(path))
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
