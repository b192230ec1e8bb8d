"""A metric's reproducibility record (:class:`Signature`, sacreBLEU's ``key:value|...`` format); re-exported by
:mod:`refscore.protocol`, where metrics and plug-ins import it."""
from __future__ import annotations

from collections.abc import Mapping

from refscore._version import __version__

__all__ = ["Signature", "nrefs_text"]


def nrefs_text(nrefs: int) -> str:
    """A signature's ``nrefs`` field: the count, or sacreBLEU's ``var`` when it varies (``nrefs`` -1).

    >>> nrefs_text(2), nrefs_text(-1)
    ('2', 'var')
    """
    return "var" if nrefs < 0 else str(nrefs)


class Signature:
    """A reproducibility record in sacreBLEU's ``key:value|key:value`` format, ending with refscore's version.

    >>> str(Signature({"nrefs": "1", "tok": "13a"})).startswith("nrefs:1|tok:13a|refscore:")
    True
    """

    def __init__(self, fields: Mapping[str, str], short_names: Mapping[str, str] | None = None) -> None:
        self.fields = dict(fields)
        self.fields.setdefault("refscore", __version__)
        self.short_names = dict(short_names or {})

    def format(self, short: bool = False) -> str:
        if short:
            return "|".join(f"{self.short_names.get(k, k)}:{v}" for k, v in self.fields.items())
        return "|".join(f"{k}:{v}" for k, v in self.fields.items())

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Signature({self.format()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Signature) and other.fields == self.fields
