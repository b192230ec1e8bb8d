"""The Hugging Face ``evaluate`` module protocol shared by refscore's ``evaluate.load(...)`` objects: ``add``,
``add_batch`` and ``compute(predictions=..., references=..., **options)`` (queued examples are scored with the
given batch, then cleared). Subclasses implement ``_compute(predictions, references, **options)``.

Loaded modules carry the HF metric script's metadata: ``description``, ``citation``, ``inputs_description``,
``features`` and ``info`` (the texts of ``evaluate_metadata.json``).

>>> from refscore.compat import evaluate
>>> bleu = evaluate.load("bleu")
>>> bleu.citation.startswith("@INPROCEEDINGS{Papineni02bleu:a"), bleu.info.module_name
(True, 'bleu')
>>> bleu.features[0]
{'predictions': 'string', 'references': ['string']}
"""
from __future__ import annotations

import dataclasses
import functools
import json
from importlib import resources
from typing import Any

from refscore.errors import InputError, InputTypeError

#: HF's two accepted input layouts (``datasets.Features`` there): several references or one per prediction.
FEATURES = ({"predictions": "string", "references": ["string"]}, {"predictions": "string", "references": "string"})


@functools.cache
def metadata_texts() -> dict[str, dict[str, Any]]:
    """HF evaluate's metadata texts per metric (``evaluate_metadata.json``: copied from HF's metric scripts,
    Apache-2.0; read once, on first use)."""
    text = resources.files("refscore.compat").joinpath("evaluate_metadata.json").read_text(encoding="utf-8")
    return json.loads(text)["texts"]


@dataclasses.dataclass(frozen=True)
class ModuleInfo:
    """HF's ``EvaluationModuleInfo`` fields that describe a metric (``features`` as plain type names)."""

    module_name: str
    description: str
    citation: str
    inputs_description: str
    features: list[dict[str, Any]]
    homepage: str = ""
    license: str = ""
    codebase_urls: list[str] = dataclasses.field(default_factory=list)
    reference_urls: list[str] = dataclasses.field(default_factory=list)
    module_type: str = "metric"


def module_info(name: str, features: tuple[dict[str, Any], ...] = FEATURES) -> ModuleInfo:
    """The metadata of HF metric ``name`` (``features``: its input layouts, HF's two text layouts by default)."""
    texts: dict[str, Any] = metadata_texts()[name]
    return ModuleInfo(module_name=name, description=texts["description"], citation=texts["citation"],
                      inputs_description=texts["inputs_description"], features=[dict(f) for f in features],
                      homepage=texts["homepage"], codebase_urls=list(texts["codebase_urls"]),
                      reference_urls=list(texts["reference_urls"]))


class ModuleMetadata:
    """``description``, ``citation``, ``inputs_description``, ``features``, ``info`` of the HF metric ``name``."""

    name = "metric"
    #: the input layouts of HF's script (``datasets.Features`` there, as plain type names)
    input_layouts: tuple[dict[str, Any], ...] = FEATURES

    @property
    def info(self) -> ModuleInfo:
        return module_info(self.name, self.input_layouts)

    @property
    def description(self) -> str:
        return self.info.description

    @property
    def citation(self) -> str:
        return self.info.citation

    @property
    def inputs_description(self) -> str:
        return self.info.inputs_description

    @property
    def features(self) -> list[dict[str, Any]]:
        return self.info.features


class EvaluateModule(ModuleMetadata):
    """Base of the HF-compatible metric objects; ``name`` is the HF metric name (used in error messages)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # HF's config_name, cache_dir... do not apply
        self._predictions: list[Any] = []
        self._references: list[Any] = []

    def _feature_names(self) -> list[str]:
        """The input names (HF's ``_feature_names``: those of the first feature layout), which
        ``evaluate.combine`` reads to hand each module its inputs."""
        return list(self.features[0])

    def add(self, *, prediction: Any = None, reference: Any = None, **inputs: Any) -> None:
        """Queue one example for the next ``compute()`` (HF's ``add``; as there, an input may also be given under
        its feature name, ``predictions=``/``references=``, which is how ``evaluate.combine`` calls it)."""
        unknown = [name for name in inputs if name not in self._feature_names()]
        if unknown:
            raise InputError(f"{self.name}.add: unknown inputs {unknown}; the inputs are prediction=... and "
                             f"reference=... (or {' and '.join(f'{n}=...' for n in self._feature_names())})")
        self._predictions.append(inputs.get("predictions", prediction))
        self._references.append(inputs.get("references", reference))

    def add_batch(self, *, predictions: Any = None, references: Any = None) -> None:
        """Queue a batch for the next ``compute()`` (HF's ``add_batch``)."""
        if predictions is None or references is None:
            raise InputError(f"{self.name} needs both predictions=[...] and references=[...]")
        for name, value in (("predictions", predictions), ("references", references)):
            if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
                raise InputTypeError(f"{self.name}: {name} must be a list with one entry per example, got "
                                     f"{type(value).__name__}")
        if len(predictions) != len(references):
            raise InputError(f"{self.name}: {len(predictions)} predictions but {len(references)} references; give "
                             f"one reference entry (a string or a list of strings) per prediction")
        self._predictions.extend(predictions)
        self._references.extend(references)

    def compute(self, *, predictions: Any = None, references: Any = None, **options: Any) -> dict[str, Any]:
        """The metric on the given batch plus everything queued by ``add``/``add_batch`` (then cleared)."""
        if predictions is not None or references is not None:
            self.add_batch(predictions=predictions, references=references)
        predictions, references = self._predictions, self._references
        self._predictions, self._references = [], []
        if not predictions:
            raise InputError(f"{self.name}.compute needs predictions=[...] and references=[...] (or add_batch "
                             f"first)")
        return self._compute(predictions, references, **options)

    def _compute(self, *args: Any, **options: Any) -> dict[str, Any]:  # (predictions, references, options)
        raise NotImplementedError


def same_count_references(references: list[Any], owner: str) -> list[Any]:
    """HF's sacreBLEU-based scripts: a string reference becomes ``[reference]`` and every prediction must have the
    same number of references (``owner`` names the metric as HF's message does)."""
    per_prediction = [[ref] if isinstance(ref, str) else ref for ref in references]
    counts = {len(refs) for refs in per_prediction if hasattr(refs, "__len__")}
    if len(counts) > 1:
        raise InputError(f"{owner} requires the same number of references for each prediction (got counts "
                         f"{sorted(counts)}); give every prediction the same number of references")
    return per_prediction
