"""The float32 floor of a BERTScore run on the CPU: the time the encoder's matrix products alone take at the rate
this machine reaches at the moment of measuring, for exactly the tokens refscore embeds.

No scorer can run the same float32 encoder on the same tokens faster than the products it must compute, so
``bert-score's time / floor`` is the largest speed-up reachable against bert-score on this machine in float32.
The count is refscore's minimum work: each distinct token sequence once, no padding, attention products (QKᵀ and
AV, within each sentence) counted as if they ran at the matrix-product rate.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

#: Rows of the activation matrix in the rate measurement: refscore's default CPU token budget per batch.
BATCH_ROWS = 2048


def linear_flops(lengths: Sequence[int], hidden: int, intermediate: int, layers: int) -> int:
    """Multiply-adds x 2 of the position-wise products (Q/K/V, attention output, the two feed-forward products) of
    ``layers`` BERT layers on sequences of ``lengths`` tokens.

    >>> linear_flops([3], hidden=4, intermediate=8, layers=2)  # 2 x 3 tokens x 2 layers x 128
    1536
    """
    tokens = sum(lengths)
    return 2 * layers * tokens * (3 * hidden * hidden + hidden * hidden + 2 * hidden * intermediate)


def attention_flops(lengths: Sequence[int], hidden: int, layers: int) -> int:
    """Multiply-adds x 2 of QKᵀ and AV within each sequence, over all heads, for ``layers`` layers.

    >>> attention_flops([2, 3], hidden=4, layers=1)  # 2 products x 2 x (2² + 3²) x 4
    208
    """
    return layers * 4 * hidden * sum(length * length for length in lengths)


@dataclass(frozen=True)
class ProductRate:
    """Float32 matrix-product throughput of ``workers`` threads at once, one torch thread each."""

    gflops: float
    workers: int


def measure_product_rate(hidden: int, intermediate: int, workers: int, seconds: float = 2.0) -> ProductRate:
    """Runs one BERT layer's four products on a :data:`BATCH_ROWS`-token batch in ``workers`` threads at once
    (each with one torch thread, as refscore's CPU workers run) for about ``seconds``; the combined rate."""
    import torch

    shapes = [(hidden, 3 * hidden), (hidden, hidden), (hidden, intermediate), (intermediate, hidden)]
    flops_per_pass = sum(2 * BATCH_ROWS * inner * outer for inner, outer in shapes)
    done = [0] * workers
    barrier = threading.Barrier(workers + 1)

    def work(index: int) -> None:
        torch.set_num_threads(1)
        generator = torch.Generator().manual_seed(index)
        operands = [(torch.randn(BATCH_ROWS, inner, generator=generator),
                     torch.randn(outer, inner, generator=generator) * 0.05, torch.empty(BATCH_ROWS, outer))
                    for inner, outer in shapes]
        for inputs, weight, out in operands:  # warm-up, outside the timed part
            torch.mm(inputs, weight.t(), out=out)
        barrier.wait()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for inputs, weight, out in operands:
                torch.mm(inputs, weight.t(), out=out)
            done[index] += 1

    previous = torch.get_num_threads()
    threads = [threading.Thread(target=work, args=(index,)) for index in range(workers)]
    try:
        for thread in threads:
            thread.start()
        barrier.wait()
        start = time.perf_counter()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - start
    finally:
        torch.set_num_threads(previous)
    return ProductRate(sum(done) * flops_per_pass / elapsed / 1e9, workers)


def distinct_token_lengths(scorer: object, sentences: Sequence[str]) -> list[int]:
    """Token counts of the distinct token sequences a ``refscore.BERTScorer`` embeds for ``sentences`` (its own
    encoding: stripped, special tokens added, truncated to the model's maximum)."""
    encoded = scorer._encoder.encode_texts(list(dict.fromkeys(sentences)))  # type: ignore[attr-defined]
    return [len(ids) for ids in {ids.tobytes(): ids for ids in encoded}.values()]


def products_floor(model_config: object, layers: int, lengths: Sequence[int], workers: int) -> dict[str, float]:
    """The floor of embedding ``lengths``-token sequences with the first ``layers`` layers of a BERT-family
    model: ``gflop`` to compute, the ``gflops`` rate measured now with ``workers`` threads, ``seconds``."""
    hidden = int(model_config.hidden_size)  # type: ignore[attr-defined]
    intermediate = int(model_config.intermediate_size)  # type: ignore[attr-defined]
    flops = linear_flops(lengths, hidden, intermediate, layers) + attention_flops(lengths, hidden, layers)
    rate = measure_product_rate(hidden, intermediate, workers)
    return {"gflop": flops / 1e9, "gflops": rate.gflops, "seconds": flops / 1e9 / rate.gflops}
