"""Inventory: every public name of the installed peers' modules exists in the drop-in, with the same parameters
and defaults (``inspect.signature``; classes: the constructor and every public method). A peer release that adds
or changes public API makes this fail.

Public names: a module's own ``__all__`` where it has one, else the classes and functions it defines and its
UPPER_CASE constants (imports from elsewhere are not its API). Names that are deliberately not provided are listed
in ``NOT_PROVIDED`` with the reason; the test also checks that they are really absent, so the list stays true.
"""
from __future__ import annotations

import importlib
import inspect
import re
from types import ModuleType
from typing import Any

import pytest

#: peer module -> drop-in module.
MODULES = {
    **{f"sacrebleu{suffix}": f"refscore.compat.sacrebleu{suffix}" for suffix in (
        "", ".compat", ".metrics", ".metrics.base", ".metrics.bleu", ".metrics.chrf", ".metrics.ter",
        ".metrics.helpers", ".significance", ".utils", ".dataset", ".version", ".tokenizers",
        ".tokenizers.tokenizer_base", ".tokenizers.tokenizer_13a", ".tokenizers.tokenizer_intl",
        ".tokenizers.tokenizer_zh", ".tokenizers.tokenizer_char", ".tokenizers.tokenizer_none",
        ".tokenizers.tokenizer_re", ".tokenizers.tokenizer_ter", ".tokenizers.tokenizer_ja_mecab",
        ".tokenizers.tokenizer_ko_mecab", ".tokenizers.tokenizer_spm")},
    **{f"rouge_score.{name}": f"refscore.compat.rouge_score.{name}" for name in (
        "rouge_scorer", "scoring", "tokenize", "tokenizers", "io")},
    "rouge": "refscore.compat.rouge", "rouge.rouge": "refscore.compat.rouge.rouge",
    "rouge.rouge_score": "refscore.compat.rouge.rouge_score",
    "bert_score": "refscore.compat.bert_score", "bert_score.scorer": "refscore.compat.bert_score.scorer",
    "bert_score.score": "refscore.compat.bert_score.score",
    **{f"nltk.translate.{name}": f"refscore.compat.nltk.translate.{name}" for name in (
        "bleu_score", "gleu_score", "chrf_score")},
    **{f"jiwer{suffix}": f"refscore.compat.jiwer{suffix}" for suffix in (
        "", ".process", ".measures", ".transforms", ".transformations", ".alignment")},
}

#: (peer module, name) -> why the drop-in does not have it.
NOT_PROVIDED = {
    **{("sacrebleu.utils", name): "sacreBLEU's command-line and download internals" for name in (
        "Color", "print_results_table", "print_single_results", "sanity_check_lengths", "args_to_dict",
        "print_test_set", "extract_tarball", "get_md5sum", "download_file", "filter_subset",
        "print_subset_results", "get_available_origlangs", "get_available_subsets")},
    **{("sacrebleu.dataset", name): "sacreBLEU's dataset classes and download tables; refscore reads the "
       "local cache only (DATASETS)" for name in ("COUNTRIES", "DOMAINS", "SUBSETS")},
    ("sacrebleu.version", "TYPE_CHECKING"): "setuptools-scm boilerplate",
    ("sacrebleu.utils", "SUBSETS"): "sacreBLEU's dataset subset table (downloads)",
    ("bert_score", "cache_scibert"): "downloads SciBERT archives; refscore does not download models itself",
    **{("sacrebleu.dataset", name): "sacreBLEU's dataset readers for downloaded archives; refscore reads the "
       "processed files in the local cache" for name in ("FakeSGMLDataset", "WMTAdditionDataset", "IWSLTXMLDataset",
                                                          "PlainTextDataset", "TSVDataset", "WMTXMLDataset")},
}

#: "peer module.name" -> why the drop-in's parameters differ (checked: they really do).
SIGNATURE_DIFFERS = {
    **{f"sacrebleu.metrics.{module}.{name}Signature": "built from refscore's signature fields, not from the metric's "
       "attribute dict (get_signature() returns them, as sacreBLEU)" for module, name in (
           ("bleu", "BLEU"), ("chrf", "CHRF"), ("ter", "TER"))},
    "sacrebleu.metrics.base.Signature": "as the metric signatures",
    "sacrebleu.metrics.base.Metric": "the base wraps a refscore metric; subclass BLEU/CHRF/TER instead",
}

#: bert-score's package re-exports its utils helpers by accident of ``from .scorer import *``; the public ones
#: real code imports (the issue's list) plus its own API.
BERT_SCORE_TOP = ["score", "plot_example", "BERTScorer", "model2layers", "lang2model", "get_hash", "get_model",
                  "get_tokenizer", "get_idf_dict", "get_bert_embedding", "bert_cos_score_idf", "sent_encode",
                  "cache_scibert", "__version__"]


def public_names(module: ModuleType) -> list[str]:
    if module.__name__ == "bert_score":
        return BERT_SCORE_TOP
    if hasattr(module, "__all__") and (module.__all__ or module.__name__ == "bert_score.utils"):
        return [name for name in module.__all__ if not name.startswith("_") or name == "__version__"]
    names = []
    for name, value in vars(module).items():
        if name.startswith("_"):
            continue
        if inspect.isclass(value) or inspect.isfunction(value):
            home = getattr(value, "__module__", "")
            # defined here, or (for a package) re-exported from its own submodules
            if home == module.__name__ or (hasattr(module, "__path__") and home.startswith(module.__name__ + ".")):
                names.append(name)
        elif name.isupper() and not inspect.ismodule(value):
            names.append(name)
    return names


def instance_attributes(cls: type) -> set[str]:
    """The ``self.NAME = ...`` assignments in the source of ``cls`` and its bases (attributes set per instance)."""
    names: set[str] = set()
    for klass in cls.__mro__:
        try:
            names |= set(re.findall(r"self\.(\w+)\s*(?::[^=]*)?=", inspect.getsource(klass)))
        except (OSError, TypeError):
            continue
    return names


def compatible(got: list[tuple[str, Any, Any]], expected: list[tuple[str, Any, Any]]) -> bool:
    """The peer's parameters, in order, with its defaults; the drop-in may add parameters after them when they
    have defaults (calls written for the peer still work)."""
    extra = got[len(expected):]
    return got[:len(expected)] == expected and all(default is not inspect.Parameter.empty
                                                   or kind == inspect.Parameter.VAR_KEYWORD
                                                   for _, kind, default in extra)


def signature_of(value: Any) -> list[tuple[str, Any, Any]] | None:
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):
        return None
    return [(p.name, p.kind, _default(p.default)) for p in signature.parameters.values()]


def _default(value: Any) -> Any:
    """Defaults compared by value; objects without value equality (a tokenizer instance) by type name."""
    if value is inspect.Parameter.empty or isinstance(value, (int, float, str, bool, type(None), tuple, list)):
        return value
    if isinstance(value, dict):
        return dict(value)
    return type(value).__name__


def differences(peer: Any, ours: Any, where: str) -> list[str]:
    problems = []
    if callable(peer) and callable(ours):
        expected, got = signature_of(peer), signature_of(ours)
        if expected is not None and (got is None or not compatible(got, expected)) and where not in SIGNATURE_DIFFERS:
            problems.append(f"{where}: signature {got} != peer's {expected}")
    if inspect.isclass(peer):
        for name, member in vars(peer).items():
            if name.startswith("_") or not (inspect.isfunction(member) or isinstance(member, (staticmethod,
                                                                                                   property))):
                continue
            if not hasattr(ours, name) and not (isinstance(member, property) and name in instance_attributes(ours)):
                problems.append(f"{where}.{name}: missing")
            elif inspect.isfunction(member) or isinstance(member, staticmethod):
                problems += differences(getattr(peer, name), getattr(ours, name), f"{where}.{name}")
    return problems


@pytest.mark.parametrize("peer_name", sorted(MODULES))
def test_drop_in_has_the_peers_public_api(peer_name: str) -> None:
    peer = importlib.import_module(peer_name)
    ours = importlib.import_module(MODULES[peer_name])
    problems = []
    for name in public_names(peer):
        reason = NOT_PROVIDED.get((peer_name, name))
        if reason is not None:
            assert not hasattr(ours, name), f"{peer_name}.{name} is provided now: remove it from NOT_PROVIDED"
            continue
        if not hasattr(ours, name):
            problems.append(f"{peer_name}.{name}: missing")
            continue
        problems += differences(getattr(peer, name), getattr(ours, name), f"{peer_name}.{name}")
    for where in SIGNATURE_DIFFERS:
        if where.rpartition(".")[0] == peer_name:
            name = where.rpartition(".")[2]
            assert not compatible(signature_of(getattr(ours, name)), signature_of(getattr(peer, name))), where
    assert not problems, "\n".join(problems)
