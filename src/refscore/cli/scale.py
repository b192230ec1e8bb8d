"""The command line's one scale rule: every score is printed ×its metric's
:attr:`~refscore.protocol.Metric.display_scale`, in every output format (text table, ``--segments``,
``--format json``, ``--confidence``, ``compare``): the built-in metrics' 0–1 scores on the 0–100 scale, as
sacreBLEU prints them; scores from outside (``-m file:``: COMET, MQM ratings) as given, unless declared
(``--metric-option NAME.scale=100``). A value that rounds to zero prints without a sign (never ``-0.000``).

The Python API keeps its 0–1 scale; this module is the only place that converts. A value is a fraction when its
field is one of :data:`FRACTION_FIELDS` (scores, precisions, recalls, F-measures, bootstrap means, half-widths and
bounds); counts, lengths, the brevity penalty, length ratios, p-values and the confidence level are not scores and
keep their values, as in sacreBLEU's JSON. BLEU, chrF and TER JSON also carry sacreBLEU's ``name`` (and BLEU its
``verbose_score``), so ``score`` and these fields equal ``sacrebleu -f json``'s.

>>> to_percent({"score": 0.5, "bp": 0.9, "counts": [3, 1], "precisions": [0.75, 0.25]})
{'score': 50.0, 'bp': 0.9, 'counts': [3, 1], 'precisions': [75.0, 25.0]}
"""
from __future__ import annotations

from typing import Any

#: JSON keys whose (possibly nested) numbers are on the API's 0–1 scale and are multiplied by 100.
FRACTION_FIELDS = frozenset({"score", "precisions", "precision", "recall", "fmeasure", "f1", "averages", "mean",
                             "ci", "lower", "upper", "low", "mid", "high", "average", "intervals"})


def _peer_json_name(metric: str) -> str | None:
    """The registered metric's :attr:`peer_json_name` (None for a metric that is not registered by that name)."""
    from refscore.errors import InputError
    from refscore.metrics import get_metric_class

    try:
        return get_metric_class(metric).peer_json_name
    except InputError:
        return None


def percent(value: Any, scale: float = 100.0) -> Any:
    """``value`` × ``scale`` for a float (or every float in a list / dict); ints and booleans are counts and flags.

    >>> percent([0.25, {"F": 0.5}, 3]), percent(-1.052, 1.0)
    ([25.0, {'F': 50.0}, 3], -1.052)
    """
    if isinstance(value, bool) or isinstance(value, int):
        return value
    if isinstance(value, float):
        return scale * value + 0.0   # + 0.0: never a -0.0 (an MQM score of 0)
    if isinstance(value, dict):
        return {key: percent(item, scale) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [percent(item, scale) for item in value]
    return value


def to_percent(fields: dict[str, Any], scale: float = 100.0) -> dict[str, Any]:
    """A JSON dict of 0–1 results with its :data:`FRACTION_FIELDS` × ``scale`` (other keys unchanged)."""
    return {key: percent(value, scale) if key in FRACTION_FIELDS else value for key, value in fields.items()}


def score_scales(metrics: Any) -> dict[str, float]:
    """Every score name of ``metrics`` -> its metric's :attr:`~refscore.protocol.Metric.display_scale`.

    >>> from refscore.metrics.external import external_scores
    >>> score_scales([external_scores([-1.0], name="mqm")])
    {'mqm': 1.0}
    """
    return {name: float(metric.display_scale) for metric in metrics for name in metric.score_names}


def score_json(score: Any, exact_percent: float | None = None, scale: float = 100.0) -> dict[str, Any]:
    """A :class:`~refscore.protocol.Score` as command-line JSON: ×``scale`` (its metric's display scale), with
    sacreBLEU's ``name`` and BLEU's ``verbose_score``; ``exact_percent`` is the score as the peer computes it on
    that scale, when known (:meth:`~refscore.protocol.Metric.percent_scores_from_totals`).

    >>> from refscore.metrics.bleu import bleu
    >>> fields = score_json(bleu(["a b c d"], ["a b c d"], tokenize="none"))
    >>> fields["name"], round(fields["score"], 6), fields["verbose_score"][:23]
    ('BLEU', 100.0, '100.0/100.0/100.0/100.0')
    """
    fields = to_percent(score.to_dict(), scale)
    if exact_percent is not None:
        fields["score"] = exact_percent + 0.0
    name = _peer_json_name(score.metric)
    if name is not None:
        fields = {"metric": fields.pop("metric"), "name": name, **fields}
    if hasattr(score, "verbose"):
        fields["verbose_score"] = score.verbose()
    return fields
