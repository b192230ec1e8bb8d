"""The embeddings a :class:`~refscore.metrics.bertscore.engine.Embedder` keeps across calls: a least-recently-used
store within a count and a byte budget, with hit and miss counters.

What a key names is the embedder's choice (one text, or one whole batch of texts: see ``Embedder.embed``); the
store only counts, orders and evicts.

>>> cache = EmbeddingCache(max_entries=10, max_bytes=100)
>>> cache.put("a", "A", items=1, nbytes=60); cache.put("b", "B", items=1, nbytes=60)   # "a" is evicted
>>> cache.get("a"), cache.get("b"), cache.info()
(None, 'B', CacheInfo(hits=1, misses=1, entries=1, bytes=60, max_entries=10, max_bytes=100))
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Any, NamedTuple

__all__ = ["CacheInfo", "embedding_bytes", "EmbeddingCache"]


def embedding_bytes(embeddings: list[Any]) -> int:
    """The bytes of a list of tensors' values."""
    return sum(embedding.nelement() * embedding.element_size() for embedding in embeddings)


class CacheInfo(NamedTuple):
    """Counters of a scorer's embedding cache: ``hits``/``misses`` count texts looked up (a text found costs no
    forward pass), ``entries`` the texts held, ``bytes`` their embeddings' size; ``max_entries``/``max_bytes`` are
    the limits (``reference_cache_size``/``reference_cache_bytes``)."""

    hits: int
    misses: int
    entries: int
    bytes: int
    max_entries: int
    max_bytes: int


class EmbeddingCache:
    """An LRU store of embeddings: an entry (``items`` texts, ``nbytes`` bytes) that does not fit the limits on
    its own is not stored; storing one evicts the least recently used entries until both limits hold."""

    def __init__(self, max_entries: int, max_bytes: int) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[Hashable, tuple[Any, int, int]] = OrderedDict()
        self._items = 0
        self._bytes = 0

    def get(self, key: Hashable, items: int = 1) -> Any:
        """The value stored under ``key`` (now the most recently used), or None; counts ``items`` hits or misses."""
        entry = self._entries.get(key)
        if entry is None:
            self.misses += items
            return None
        self._entries.move_to_end(key)
        self.hits += items
        return entry[0]

    def put(self, key: Hashable, value: Any, *, items: int, nbytes: int) -> None:
        if items > self.max_entries or nbytes > self.max_bytes or key in self._entries:
            return
        self._entries[key] = (value, items, nbytes)
        self._items += items
        self._bytes += nbytes
        while self._items > self.max_entries or self._bytes > self.max_bytes:
            _, (_, dropped_items, dropped_bytes) = self._entries.popitem(last=False)
            self._items -= dropped_items
            self._bytes -= dropped_bytes

    def values(self) -> Iterator[Any]:
        """The stored values, least recently used first."""
        return (value for value, _, _ in self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def items(self) -> int:
        """How many texts the stored entries hold."""
        return self._items

    @property
    def nbytes(self) -> int:
        return self._bytes

    def info(self) -> CacheInfo:
        return CacheInfo(self.hits, self.misses, self._items, self._bytes, self.max_entries, self.max_bytes)

    def clear(self) -> None:
        """Drop every entry (the counters stay)."""
        self._entries.clear()
        self._items = self._bytes = 0
