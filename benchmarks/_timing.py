"""The timing every benchmark script shares (imported as ``_timing``: scripts run from this folder).

>>> wall, cpu, result = best_time(lambda: sum(range(1000)), repeat=3)
>>> result, wall >= 0, cpu >= 0
(499500, True, True)
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_time(function: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """Best wall-clock and best CPU time (this process, all threads) of ``repeat`` calls, each the minimum over
    the calls on its own, and the last call's result."""
    best_wall, best_cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = function()
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return best_wall, best_cpu, result
