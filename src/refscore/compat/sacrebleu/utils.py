"""sacreBLEU's ``utils``: ``smart_open``, ``SACREBLEU_DIR``, ``sum_of_lists``, ``my_log`` and the test-set functions.

The listings (``get_available_testsets``, ``get_available_testsets_for_langpair``, ``get_langpairs_for_testset``)
give sacreBLEU's registry: the names and language pairs sacreBLEU 2.6.0 knows (a copy of its data, whatever is
downloaded). The file functions (``download_test_set``, ``get_source_file``, ``get_reference_files``,
``get_files``) read sacreBLEU's local cache only (:mod:`refscore.compat.sacrebleu.dataset`): nothing is downloaded.

>>> my_log(0.0), sum_of_lists([[1, 2], [3, 4]])
(-9999999999, [4, 6])
>>> get_available_testsets()[:3], get_available_testsets_for_langpair("liv-en")
(['wmt24', 'wmt23', 'wmt22'], ['wmt22'])
"""
from __future__ import annotations

import gzip
import math
import os
from typing import IO, Any, cast

from refscore.compat.sacrebleu.dataset import DATASETS, cache_dir, dataset
from refscore.compat.sacrebleu.dataset._registry import REGISTRY
from refscore.errors import InputError

__all__ = ["DATASETS", "SACREBLEU_DIR", "USERHOME", "download_test_set", "get_available_testsets",
           "get_available_testsets_for_langpair", "get_files", "get_langpairs_for_testset", "get_reference_files",
           "get_source_file", "my_log", "smart_open", "sum_of_lists"]

USERHOME = os.path.expanduser("~")
#: sacreBLEU's cache directory when this module was imported (as sacreBLEU); the functions re-read ``$SACREBLEU``.
SACREBLEU_DIR = cache_dir()


def smart_open(file: str, mode: str = "rt", encoding: str = "utf-8") -> IO[Any]:
    """Open ``file`` (gzip when it ends in ``.gz``) as text, UTF-8, ``\\n`` newlines (sacreBLEU's)."""
    if file.endswith(".gz"):
        return cast(IO[Any], gzip.open(file, mode=mode, encoding=encoding, newline="\n"))  # text mode: a TextIOWrapper
    return open(file, mode=mode, encoding=encoding, newline="\n")


def my_log(num: float) -> float:
    """``log(num)``, or sacreBLEU's ``-9999999999`` for 0."""
    if num == 0.0:
        return -9999999999
    return math.log(num)


def sum_of_lists(lists: list[list[Any]]) -> list[Any]:
    """The element-wise sum of equally long lists."""
    if len(lists) == 1:
        return lists[0]
    return [sum(column) for column in zip(*lists)]


def download_test_set(test_set: str, langpair: str | None = None) -> list[str]:
    """The files of a cached test set (all language pairs when ``langpair`` is None); never downloads."""
    data = dataset(test_set)
    langpairs = [langpair] if langpair is not None else list(data.langpairs)
    return [path for pair in langpairs for path in data.get_files(pair)]


def get_source_file(test_set: str, langpair: str) -> str:
    """The path of the cached source file of ``test_set``/``langpair``."""
    return dataset(test_set).get_source_file(langpair)


def get_reference_files(test_set: str, langpair: str) -> list[str]:
    """The paths of the cached reference files of ``test_set``/``langpair``."""
    return dataset(test_set).get_reference_files(langpair)


def get_files(test_set: str, langpair: str) -> list[str]:
    """The cached source, reference and metadata files of ``test_set``/``langpair``."""
    return dataset(test_set).get_files(langpair)


def get_langpairs_for_testset(testset: str) -> list[str]:
    """The language pairs of ``testset`` in sacreBLEU's registry (``[]`` for a name it does not know, as sacreBLEU).
    """
    return list(REGISTRY.get(testset, ()))


def get_available_testsets() -> list[str]:
    """The test sets of sacreBLEU's registry, reverse-sorted as sacreBLEU lists them (cached or not)."""
    return sorted(REGISTRY, reverse=True)


def get_available_testsets_for_langpair(langpair: str) -> list[str]:
    """The registry's test sets that have ``langpair`` in either direction (``en-de`` also finds ``de-en``), in the
    registry's order, as sacreBLEU lists them."""
    if not isinstance(langpair, str) or "-" not in langpair:
        # sacreBLEU fails with an IndexError (or AttributeError) here
        raise InputError(f"get_available_testsets_for_langpair: langpair must be 'SRC-TRG' such as 'en-de', "
                         f"got {langpair!r}")
    source, target = langpair.split("-")[:2]
    pairs = {f"{source}-{target}", f"{target}-{source}"}
    return [name for name, langpairs in REGISTRY.items() if pairs.intersection(langpairs)]
