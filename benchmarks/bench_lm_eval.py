"""lm-evaluation-harness's built-in ``bleu`` / ``chrf`` / ``chrf++`` / ``ter`` against refscore's harness adapter
(refscore.integrations.lm_eval) on the same outputs: WMT22 en-de, one system (JDExploreAcademy), the first
``--segments`` segments (2,000), one reference each (a harness document has one target string).

What the harness does after generation, timed for each: per document the metric function (the built-ins pass
``(reference, output)`` through; the adapter computes the document's statistics), then the aggregation (the corpus
score) and the stderr: ``stderr_for_metric(aggregation, iters)(items)``. The harness gives its built-in BLEU/chrF/TER
``min(bootstrap_iters, 100)`` resamples (each one re-scores the whole corpus with sacreBLEU, in a process pool) and
every other metric ``bootstrap_iters`` itself (100,000 by default); the adapter is timed at 100 resamples (same
work) and at 100,000. Printed: both scores (agree: to 1e-9), both stderrs (different resamples, so close, not
equal), the seconds and the ratio at 100 resamples.

    python benchmarks/bench_lm_eval.py [--segments 2000] [--repeat 1]
"""
from __future__ import annotations

import logging

from lm_eval.api import metrics as lm_metrics

from _timing import best_time
from bench_bleu import one_system  # the sibling script (benchmarks/ is on sys.path)
from refscore.integrations import lm_eval as rle

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
# the harness's own stderr_for_metric (the adapter wraps it once registered)
STDERR_FOR_METRIC = getattr(lm_metrics.stderr_for_metric, "__wrapped__", lm_metrics.stderr_for_metric)


def builtin(aggregation, hypotheses: list[str], references: list[str], iters: int) -> tuple[float, float]:
    items = [(reference, hypothesis) for hypothesis, reference in zip(hypotheses, references)]
    return aggregation(items), STDERR_FOR_METRIC(aggregation, iters)(items)


def adapter(function, hypotheses: list[str], references: list[str], iters: int) -> tuple[float, float]:
    items = [function(references=[reference], predictions=[hypothesis])
             for hypothesis, reference in zip(hypotheses, references)]
    return rle.aggregate(items), rle.stderr(items, iters)


def main() -> None:
    args, hypotheses, references = one_system(__doc__.split("\n\n")[0], repeat=1)
    rows = [("BLEU", lm_metrics.bleu, rle.bleu), ("chrF", lm_metrics.chrf, rle.chrf),
            ("chrF++", lm_metrics.chrfpp, rle.chrfpp), ("TER", lm_metrics.ter, rle.ter)]
    print(f"WMT22 en-de JDExploreAcademy, {len(hypotheses)} segments, 1 reference; lm-eval stderr: 100 resamples "
          f"(its cap for these metrics)")
    print(f"{'metric':8} {'lm-eval':>9} {'adapter':>9} {'agree':>5} {'lm-eval se':>10} {'adapter se':>10} "
          f"{'lm-eval s':>9} {'adapter s':>9} {'ratio':>7} {'adapter s @100k':>15} {'se @100k':>8}")
    for name, own, ours in rows:
        own_wall, _, (own_score, own_se) = best_time(lambda: builtin(own, hypotheses, references, 100), args.repeat)
        ref_wall, _, (ref_score, ref_se) = best_time(lambda: adapter(ours, hypotheses, references, 100),
                                                     args.repeat)
        big_wall, _, (_, big_se) = best_time(lambda: adapter(ours, hypotheses, references, 100_000), 1)
        print(f"{name:8} {own_score:9.4f} {ref_score:9.4f} {str(abs(own_score - ref_score) < 1e-9):>5} "
              f"{own_se:10.4f} {ref_se:10.4f} {own_wall:9.2f} {ref_wall:9.3f} {own_wall / ref_wall:6.0f}x "
              f"{big_wall:15.2f} {big_se:8.4f}")


if __name__ == "__main__":
    main()
