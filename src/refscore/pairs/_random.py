"""The random draws of mbrs' pruning and centroid decoders, in numpy, equal to those of a torch CPU generator.

mbrs (0.1.8) draws with ``torch.Generator(device).manual_seed(seed)``: on the CPU that is a Mersenne Twister
(MT19937) seeded by the reference ``init_genrand(seed)``, which is numpy's legacy seeding of its ``MT19937`` bit
generator. torch turns the 32-bit outputs into the draws mbrs makes as follows (checked against torch 2.13 in
tests/test_mbr_decoders.py, draw for draw):

- ``torch.randint(high, size)`` (``high < 2**28``; larger ranges go another way): one output per value,
  ``output % high``, in row-major order;
- ``torch.randperm(n)``: Fisher-Yates from the front, position ``i < n - 1`` swapped with ``i + output % (n - i)``;
- ``torch.multinomial(weights, 1)`` (float32 weights): argmax of ``weights / q`` (float32), where ``q`` is
  ``tensor.exponential_()``: per element two outputs make a 64-bit word, whose low 53 bits ``u / 2**53`` give
  ``-log1p(-u)`` (float64, rounded to float32).

A CUDA generator (Philox) draws other numbers: mbrs on a GPU is not reproduced.

>>> draws = TorchCPUDraws(0)
>>> draws.randint(10, (2, 3)).tolist()
[[4, 9, 3], [0, 3, 9]]
"""
from __future__ import annotations

import numpy as np

_LOW_53 = np.uint64((1 << 53) - 1)


class TorchCPUDraws:
    """A stream of draws equal to ``torch.Generator().manual_seed(seed)``'s for the calls mbrs makes."""

    def __init__(self, seed: int) -> None:
        self._bits = np.random.MT19937(0)
        self._bits._legacy_seeding(seed)    # init_genrand(seed): torch's CPU seeding, not numpy's SeedSequence

    def _outputs(self, count: int) -> np.ndarray:
        return np.asarray(self._bits.random_raw(count), dtype=np.uint64)

    def randint(self, high: int, size: tuple[int, ...]) -> np.ndarray:
        """``torch.randint(high, size, generator=...)``: int64 values in ``[0, high)``."""
        if not 0 < high < 2**28:   # larger ranges are drawn otherwise by torch 2.13 (checked: 2**28 differs)
            raise ValueError(f"randint: high must be in [1, 2**28), got {high}")
        count = int(np.prod(size, dtype=np.int64))
        return (self._outputs(count) % np.uint64(high)).astype(np.int64).reshape(size)

    def randperm(self, n: int) -> np.ndarray:
        """``torch.randperm(n, generator=...)``."""
        outputs = self._outputs(max(n - 1, 0)).tolist()   # n - 1 swaps, one output each
        order = list(range(n))
        for i in range(n - 1):
            j = i + outputs[i] % (n - i)
            order[i], order[j] = order[j], order[i]
        return np.array(order, dtype=np.int64)

    def exponential(self, count: int) -> np.ndarray:
        """``torch.empty(count).exponential_(generator=...)`` (float32, rate 1)."""
        words = self._outputs(2 * count)
        uniform = (((words[0::2] << np.uint64(32)) | words[1::2]) & _LOW_53).astype(np.float64) / 2.0**53
        return (-np.log1p(-uniform)).astype(np.float32)

    def multinomial_one(self, weights: np.ndarray) -> int:
        """``torch.multinomial(weights, 1, generator=...)`` of a 1-D float32 ``weights``: one index."""
        weights = np.asarray(weights, dtype=np.float32)
        return int(np.argmax(weights / self.exponential(len(weights))))
