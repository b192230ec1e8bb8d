"""Pausing Python's cyclic garbage collector while a batch builds many acyclic objects.

Every few hundred allocations the collector scans the youngest objects, and now and then every object alive; a
batch that builds hundreds of thousands of small objects (test cases, per-case results) that never form cycles
pays for those scans again and again without freeing anything. Reference counting still frees them as usual.

>>> import gc
>>> with collection_paused():
...     gc.isenabled()
False
>>> gc.isenabled()
True
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collection_paused() -> Iterator[None]:
    """Disable the cyclic collector inside the block; restore it afterwards only if it was enabled (so nested
    blocks and callers who disabled it themselves keep their setting)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


__all__ = ["collection_paused"]
