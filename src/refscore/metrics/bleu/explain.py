"""BLEU's explanation of one case's score (its :meth:`~refscore.metrics.bleu.BLEU.explain_case`): the n-gram
precisions, the brevity penalty, and the reference words and n-grams the output lacks.

>>> from refscore.metrics.bleu import BLEU
>>> print(explain_bleu(BLEU(effective_order=True), "the cat sat", ["the black cat sat"]))
BLEU 0.451 (n-gram precisions 100/50/50%); brevity penalty 0.717: output 3 tokens, reference 4; reference words missing from the output: 'black'
"""
from __future__ import annotations

from collections.abc import Sequence

from refscore.metrics._explaining import best_reference, missing, quoted, sacrebleu_tokens
from refscore.protocol import Metric

__all__ = ["explain_bleu"]


def explain_bleu(metric: Metric, output: str, references: Sequence[str]) -> str:
    """BLEU's n-gram precisions, brevity penalty and the reference words and n-grams the output lacks."""
    result = metric.score_from_statistics(metric.statistics([output], [list(references)], num_threads=1))
    hyp, *refs = sacrebleu_tokens(metric, [output, *references])
    reference = refs[best_reference(metric, output, references)]
    words = missing(reference, hyp, 1)
    phrases, order = [], 2
    for order in range(2, metric.config.max_order + 1):    # the lowest order with a gap explains the most
        phrases = [gram for gram in missing(reference, hyp, order) if not set(gram.split(" ")) & set(words)]
        if phrases:
            break
    # with effective order, orders longer than the output do not count: show only the orders that do
    values = result.values
    orders = [p for p, total in zip(values["precisions"], values["totals"]) if total > 0] or [0.0]
    precisions = "/".join(f"{100 * p:.0f}" for p in orders)
    parts = [f"BLEU {result.score:.3f} (n-gram precisions {precisions}%)"]
    if values["bp"] < 1.0:
        parts.append(f"brevity penalty {values['bp']:.3f}: output {values['sys_len']} tokens, reference "
                     f"{values['ref_len']}")
    else:
        parts.append("no brevity penalty")
    if words:
        parts.append(f"reference words missing from the output: {quoted(words)}")
    if phrases:
        parts.append(f"reference {order}-grams missing: {quoted(phrases)}")
    return "; ".join(parts)
