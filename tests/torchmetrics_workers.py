"""The worker of tests/test_integrations_torchmetrics.py's distributed test: one process of a gloo group that
scores its shard with refscore's torchmetrics adapter and writes the synced compute() of each metric (a module of
its own, so that torch.multiprocessing's spawned processes import it without the test module)."""
from __future__ import annotations

import json
import os
from pathlib import Path


def shard_worker(rank: int, world_size: int, port: int, shards: list, metrics: list, out_dir: str) -> None:
    import torch.distributed as dist

    from refscore.integrations.torchmetrics import metric

    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    try:
        hypotheses, references = shards[rank]
        results = {}
        for name, options in metrics:
            adapter = metric(name, **options)
            for start in range(0, len(hypotheses), 37):   # several update() calls per process
                adapter.update(hypotheses[start:start + 37], references[start:start + 37])
            results[name] = {"score": float(adapter.compute()), "totals": adapter.totals().tolist(),
                             "segments": int(adapter.segments)}
        Path(out_dir, f"rank{rank}.json").write_text(json.dumps(results), encoding="utf-8")
    finally:
        dist.destroy_process_group()
