"""A former attribute of a result that moved into a mapping of it, kept readable with a warning (re-exported by
:mod:`refscore.protocol`).

>>> import warnings
>>> class Result:
...     bp = DeprecatedValue()
...     def __init__(self):
...         self.values = {"bp": 0.9}
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     Result().bp, str(caught[0].message)
(0.9, "Result.bp is deprecated; use score.values['bp']")
"""
from __future__ import annotations

import warnings
from typing import Any

__all__ = ["DeprecatedValue"]


class DeprecatedValue:
    """A former attribute of a :class:`Score` that now lives in :attr:`Score.values` (or ``details``): reading it
    returns ``values[key]`` with a :class:`DeprecationWarning` naming the new spelling."""

    def __init__(self, key: str | None = None, *, source: str = "values") -> None:
        self.key, self.source = key, source

    def __set_name__(self, owner: type, name: str) -> None:
        self.name, self.key = name, self.key or name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        warnings.warn(f"{type(instance).__name__}.{self.name} is deprecated; use score.{self.source}[{self.key!r}]",
                      DeprecationWarning, stacklevel=2)
        return getattr(instance, self.source)[self.key]
