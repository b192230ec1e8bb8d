"""sacreBLEU's ``dataset`` package without the network: ``DATASETS`` lists the test sets already in sacreBLEU's
local cache (``$SACREBLEU``, default ``~/.sacrebleu``: the ``NAME/NAME.LANGPAIR.FIELD`` text files sacreBLEU
writes when it downloads a test set). refscore never downloads; a test set that is not there is a clear error.

>>> import os, tempfile
>>> cache = tempfile.mkdtemp()
>>> os.makedirs(os.path.join(cache, "wmt22"))
>>> for field in ("src", "ref"):
...     _ = open(os.path.join(cache, "wmt22", f"wmt22.en-de.{field}"), "w").write("x\\n")
>>> os.environ["SACREBLEU"] = cache
>>> sorted(DATASETS), list(DATASETS["wmt22"].langpairs)
(['wmt22'], ['en-de'])
>>> del os.environ["SACREBLEU"]
"""
from __future__ import annotations

import os
from collections.abc import Iterator, Mapping

from refscore.errors import InputError

__all__ = ["DATASETS", "LocalDataset", "cache_dir"]

#: sacreBLEU writes a reference field "ref:A" as "ref-A" in file names; these fields come first, in this order.
_FIRST_FIELDS = ("src", "ref")


def cache_dir() -> str:
    """sacreBLEU's cache directory: ``$SACREBLEU`` or ``~/.sacrebleu`` (read on every call)."""
    return os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))


def _download_hint(name: str) -> str:
    return (f"refscore does not download test sets; fetch it once with sacreBLEU (`sacrebleu -t {name} -l LANGPAIR "
            f"--echo src`), or point $SACREBLEU at a directory that holds it")


class LocalDataset:
    """A test set found in the cache: ``name``, ``langpairs`` (langpair -> field names), ``get_files``,
    ``get_source_file``, ``get_reference_files``, ``fieldnames``, ``source``, ``references``."""

    def __init__(self, name: str, directory: str, langpairs: dict[str, list[str]]) -> None:
        self.name = name
        self.description = f"{name} (from sacreBLEU's local cache {directory})"
        self._outdir = directory
        self.langpairs = langpairs

    def fieldnames(self, langpair: str) -> list[str]:
        self._check_langpair(langpair)
        return list(self.langpairs[langpair])

    def _check_langpair(self, langpair: str | None) -> None:
        if langpair not in self.langpairs:
            raise InputError(f"No such language pair {self.name}/{langpair} in sacreBLEU's local cache "
                             f"{self._outdir}; cached: {', '.join(self.langpairs) or 'none'}. "
                             f"{_download_hint(self.name)}")

    def _path(self, langpair: str, field: str) -> str:
        return os.path.join(self._outdir, f"{self.name.replace('/', '_')}.{langpair}.{field.replace(':', '-')}")

    def get_files(self, langpair: str) -> list[str]:
        return [self._path(langpair, field) for field in self.fieldnames(langpair)]

    def get_source_file(self, langpair: str) -> str:
        return self._path(langpair, "src") if "src" in self.fieldnames(langpair) else self._missing(langpair, "src")

    def get_reference_files(self, langpair: str) -> list[str]:
        refs = [self._path(langpair, f) for f in self.fieldnames(langpair) if f.startswith("ref")]
        return refs or [self._missing(langpair, "ref")]

    def _missing(self, langpair: str, field: str) -> str:
        raise InputError(f"{self.name}/{langpair}: no {field!r} file in sacreBLEU's local cache {self._outdir}. "
                         f"{_download_hint(self.name)}")

    def source(self, langpair: str) -> Iterator[str]:
        with open(self.get_source_file(langpair), encoding="utf-8") as lines:
            for line in lines:
                yield line.strip()

    def references(self, langpair: str) -> Iterator[tuple[str, ...]]:
        files = [open(path, encoding="utf-8") for path in self.get_reference_files(langpair)]
        try:
            yield from zip(*files)
        finally:
            for file in files:
                file.close()


def _scan(root: str) -> dict[str, LocalDataset]:
    """The test sets under ``root``: directories ``NAME`` (or ``NAME/SUBSET``) holding ``NAME.LANGPAIR.FIELD``."""
    found: dict[str, LocalDataset] = {}
    if not os.path.isdir(root):
        return found
    for directory, _, files in os.walk(root):
        relative = os.path.relpath(directory, root)
        if relative == "." or os.path.basename(directory) == "raw":
            continue
        name = relative.replace(os.sep, "/")
        prefix = name.replace("/", "_") + "."
        langpairs: dict[str, list[str]] = {}
        for file in sorted(files):
            if file.startswith(prefix) and file.count(".") >= 2:
                langpair, field = file[len(prefix):].split(".", 1)
                langpairs.setdefault(langpair, []).append(field)
        for langpair, fields in langpairs.items():
            fields.sort(key=lambda f: (f not in _FIRST_FIELDS, not f.startswith("ref"), f))
        if langpairs:
            found[name] = LocalDataset(name, directory, langpairs)
    return found


class _CachedDatasets(Mapping):
    """``DATASETS``: a read-only mapping name -> :class:`LocalDataset`, rescanned on every access (so a test set
    fetched meanwhile, or a changed ``$SACREBLEU``, is seen)."""

    def __getitem__(self, name: str) -> LocalDataset:
        datasets = _scan(cache_dir())
        if name not in datasets:
            raise KeyError(name)
        return datasets[name]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(_scan(cache_dir())))

    def __len__(self) -> int:
        return len(_scan(cache_dir()))

    def __repr__(self) -> str:
        return f"DATASETS({sorted(self)} in {cache_dir()})"


DATASETS: Mapping[str, LocalDataset] = _CachedDatasets()


def dataset(name: str) -> LocalDataset:
    """The cached test set ``name``, or an :class:`InputError` naming the cache directory."""
    datasets = _scan(cache_dir())
    if name not in datasets:
        raise InputError(f"No such test set {name!r} in sacreBLEU's local cache {cache_dir()}; cached: "
                         f"{', '.join(sorted(datasets)) or 'none'}. {_download_hint(name)}")
    return datasets[name]
