"""The report's meta-evaluation section: how a threshold was calibrated and how the metrics agree with humans.

Two parts, each shown when its input is given to :func:`refscore.report`:

* ``calibration`` (a calibration saved by ``refscore check --calibrate LABELS --save FILE``, or its dict): per
  check, the agreement curve — accuracy, F1 and precision of every candidate threshold — with the chosen threshold
  marked, and the table of the chosen thresholds with their bootstrap intervals;
* ``judgments`` (human judgments, :func:`refscore.meta.inputs.load_judgments`): per metric, the scatter of the
  metric's system score against the human system score (one point per system), the table of correlations with the
  human scores (system level: Pearson, Spearman, Kendall τ-b, pairwise accuracy; segment level: Pearson without
  grouping, Kendall τ-b grouped by item), and the significance clusters of the metrics by the PERM-BOTH test on the
  segment-level Pearson (:func:`refscore.meta.significance.perm_both_matrix`, the WMT ranking rule of
  :func:`refscore.meta.significance.significance_clusters`, alpha 0.05).

The numbers are ``refscore meta-eval``'s, from the same function (:func:`refscore.meta.evaluate.meta_evaluate`):
a metric's system score is its corpus score over all segments (BLEU's corpus BLEU, the mean for averaged metrics
and scores from outside), the human one the mean rating of the rated segments, as WMT and mt-metrics-eval; segment
scores use the metric's sentence-level defaults; lower-is-better metrics are negated. The mean of the sentence
scores over the rated segments is there only by its name, ``system_score="rated_mean"``
(``--system-score rated_mean``). An undefined correlation (constant scores, too few systems) shows as "–". Every
text is escaped.
"""
from __future__ import annotations

import html
import math
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from refscore.errors import InputError, InputTypeError
from refscore.reporting import charts
from refscore.reporting.saved_json import read_saved_json
from refscore.wording import fixed

FORMAT_KEY = "refscore_calibration"
SUPPORTED_FORMATS = (1,)
#: Significance level of the clusters.
ALPHA = 0.05
#: The correlation table's columns, as (statistic, grouping, options) of refscore.meta.evaluate.meta_evaluate.
SYSTEM_COLUMNS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("pearson", "none", {}), ("spearman", "none", {}), ("kendall", "none", {"variant": "b"}),
    ("pairwise_accuracy", "none", {}))
SEGMENT_COLUMNS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("pearson", "none", {}), ("kendall", "item", {"variant": "b"}))
#: How the caption names each system score (refscore.meta.evaluate.SYSTEM_SCORES).
SYSTEM_SCORE_TEXT = {"corpus": "the corpus score over all segments, as WMT and meta-eval",
                     "rated_mean": "rated_mean, the mean sentence score over the rated segments"}
#: The curves of a calibration chart: (field of the saved curve, legend label, colour: Okabe–Ito).
CURVES = (("accuracy", "accuracy", "#0072B2"), ("f1", "F1", "#E69F00"), ("precision", "precision", "#009E73"))


def e(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def load_calibration(calibration: Any) -> dict[str, Any]:
    """A saved calibration as its dict: the path ``refscore check --calibrate ... --save FILE`` wrote, or the dict."""
    if isinstance(calibration, (str, os.PathLike)):
        value = read_saved_json(calibration, "calibration", "refscore check --calibrate LABELS --save FILE")
    elif isinstance(calibration, Mapping):
        value = dict(calibration)
    else:
        raise InputTypeError(f"calibration must be the path of a saved calibration or its dict, got "
                             f"{type(calibration).__name__}")
    if value.get(FORMAT_KEY) not in SUPPORTED_FORMATS or not isinstance(value.get("checks"), list):
        raise InputError(f"calibration is not a refscore calibration (format {FORMAT_KEY!r} 1 with a 'checks' list); "
                         f"give the file refscore check --calibrate LABELS --save FILE wrote")
    return value


@dataclass
class MetaInputs:
    """What the section shows: a calibration, and/or human judgments with the metrics to compare with them."""

    calibration: dict[str, Any] | None = None
    judgments: Any = None
    human: str | None = None
    metrics: Sequence[Any] = field(default_factory=list)
    n: int = 1000
    seed: int | None = 12345
    #: A metric's system score (refscore.meta.evaluate.SYSTEM_SCORES): "corpus" (WMT's, meta-eval's) or
    #: "rated_mean" (the mean sentence score over the rated segments, by name only).
    system_score: str = "corpus"


def calibration_chart(item: Mapping[str, Any]) -> Any:
    """Accuracy, F1 and precision against the threshold (0–1 scale), the chosen threshold as a dashed line."""
    bokeh = charts.bokeh_modules()
    curve = item["curve"]
    direction = ">=" if item.get("higher_is_better", True) else "<="
    fig = charts._figure(f"{item['name']}: agreement with the human labels by threshold (pass: score {direction} "
                         f"threshold)", "threshold (0–1 test-case scale)", "agreement", y_range=(0, 1.02))
    for key, label, colour in CURVES:
        values = [math.nan if v is None else v for v in curve[key]]
        source = bokeh.models.ColumnDataSource({"threshold": curve["thresholds"], "value": values,
                                                "passed": curve["passed"]})
        fig.step("threshold", "value", source=source, mode="after", line_width=2, color=colour, legend_label=label)
    fig.add_layout(bokeh.models.Span(location=item["threshold"], dimension="height", line_dash="dashed",
                                     line_color="#000000", line_width=1))
    fig.add_tools(bokeh.models.HoverTool(tooltips=[("threshold", "@threshold{0.0000}"), ("value", "@value{0.000}"),
                                                   ("check passes", "@passed")]))
    fig.legend.location = "bottom_left"
    return fig


#: How an objective is named in the calibration table's header.
_OBJECTIVE_NAMES = {"accuracy": "accuracy", "f1": "F1", "precision": "precision"}


def calibration_html(calibration: Mapping[str, Any], items: list[dict[str, Any]], chart: Any) -> str:
    cut = f" (pass if {e(calibration.get('human'))} {e(calibration.get('pass_if'))})" if calibration.get("pass_if") \
        else ""
    objective = _OBJECTIVE_NAMES.get(str(calibration.get("objective")), "agreement")
    held = any(item.get("held_out") for item in calibration["checks"])
    folds = calibration.get("system_folds")

    def number(value: Any) -> str:
        return "—" if value is None else f"{value:.3f}"

    rows = []
    for item in calibration["checks"]:
        low, high = item["interval"]
        held_cell = f"<td>{number((item.get('held_out') or {}).get('agreement'))}</td>" if held else ""
        rows.append(f"<tr><th scope=row>{e(item['name'])}</th><td>{'≥' if item.get('higher_is_better', True) else '≤'}"
                    f" {fixed(item['threshold'], 4)}</td><td>{item['agreement']:.3f} <span class=ci>[{low:.3f}, "
                    f"{high:.3f}]</span></td>{held_cell}<td>{number(item.get('baseline'))}</td>"
                    f"<td>{item['accuracy']:.3f}</td><td>{item['precision']:.3f}</td>"
                    f"<td>{item['recall']:.3f}</td><td>{item['f1']:.3f}</td><td>{item['cases']} "
                    f"({item['human_passes']} human passes, {item['missing']} unlabelled)</td></tr>")
    held_header = f"<th scope=col>held-out ({e(folds)} folds by system)</th>" if held else ""
    table = (f'<table class="calibration"><caption>Thresholds chosen on {e(calibration.get("labels"))}, human score '
             f'{e(calibration.get("human"))}{cut}, objective {e(calibration.get("objective"))}; 95% bootstrap '
             f'interval of the {e(objective)} at the threshold (in-sample: optimistic); baseline: the {e(objective)} '
             f'of passing or failing everything, the better</caption><thead><tr><th scope=col>check</th>'
             f'<th scope=col>threshold</th><th scope=col>{e(objective)}</th>{held_header}'
             f'<th scope=col>baseline</th><th scope=col>accuracy</th>'
             f'<th scope=col>precision</th><th scope=col>recall</th><th scope=col>F1</th><th scope=col>cases</th>'
             f'</tr></thead><tbody>{"".join(rows)}</tbody></table>')
    figures = "".join(chart(items, calibration_chart(item)) for item in calibration["checks"])
    return f'<h3>Threshold calibration</h3>{table}<div class="grid">{figures}</div>'


def _cell(value: float) -> str:
    return "<td>–</td>" if not math.isfinite(value) else f"<td>{value:.3f}</td>"


def system_scatter(systems: list[str], human: np.ndarray, metric: np.ndarray, metric_name: str,
                   human_name: str, scale: float = 100.0) -> Any:
    """One point per system: the metric's system score (×``scale``, its display scale) against the human system
    score (as given)."""
    bokeh = charts.bokeh_modules()
    colours = charts.system_colours(systems)
    label = metric_name if scale == 1 else f"{metric_name} (×{scale:g})"
    fig = charts._figure(f"{human_name} vs {metric_name} per system", label, human_name)
    for index, system in enumerate(systems):
        source = bokeh.models.ColumnDataSource({"x": [scale * metric[index]], "y": [human[index]], "system": [system]})
        fig.scatter("x", "y", source=source, size=9, color=colours[system], name=system)
    fig.add_tools(bokeh.models.HoverTool(tooltips=[("system", "@system"), (metric_name, "@x{0.00}"),
                                                   (human_name, "@y{0.000}")]))
    return fig


def correlation_entries(human: np.ndarray, scores: Sequence[Any], system_score: str = "corpus") -> dict[
        tuple[str, str, str, str], float]:
    """The table's numbers, from :func:`refscore.meta.evaluate.meta_evaluate` (as ``refscore meta-eval`` computes
    them; no intervals or ranks), keyed by (metric, level, statistic, grouping); NaN where undefined (constant
    scores; the system level with fewer than three systems).

    >>> from refscore.meta.evaluate import MetricScores
    >>> human = np.array([[-1.0, 0.0], [-3.0, np.nan], [-5.0, -2.0]])
    >>> scores = MetricScores.from_segments("m", [[0.9, 0.8], [0.5, 0.9], [0.1, 0.3]])
    >>> values = correlation_entries(human, [scores])
    >>> values[("m", "system", "pairwise_accuracy", "none")], values[("m", "segment", "kendall", "item")]
    (1.0, 1.0)
    """
    from refscore.meta.evaluate import meta_evaluate

    levels = ("system", "segment") if human.shape[0] >= 3 else ("segment",)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        entries = meta_evaluate(human, scores, levels=levels, system_statistics=SYSTEM_COLUMNS,
                                segment_statistics=SEGMENT_COLUMNS, n_bootstrap=0, k=0, system_score=system_score)
    return {(entry.metric, entry.level, entry.statistic, entry.grouping): entry.value for entry in entries}


def judgments_html(meta: MetaInputs, items: list[dict[str, Any]], chart: Any) -> str:
    from refscore.meta.evaluate import MetricScores, human_system_scores

    judgments = meta.judgments
    human_name = meta.human or judgments.human_names[0]
    human = judgments.human[human_name]
    rated = ~np.isnan(human)
    human_system = human_system_scores(human)[0]
    scores = [MetricScores.from_metric(metric, judgments).system_scores(human, meta.system_score)
              for metric in meta.metrics]
    values = correlation_entries(human, scores)   # system_score is applied above (the scatter shows it too)
    rows, figures = [], []
    for metric, s in zip(meta.metrics, scores):
        cells = [values.get((s.name, "system", statistic, grouping), math.nan)
                 for statistic, grouping, _ in SYSTEM_COLUMNS] + \
            [values[(s.name, "segment", statistic, grouping)] for statistic, grouping, _ in SEGMENT_COLUMNS]
        rows.append(f"<tr><th scope=row>{e(s.name)}</th>{''.join(_cell(v) for v in cells)}</tr>")
        figures.append(chart(items, system_scatter(judgments.systems, human_system, s.sign * s.systems, s.name,
                                                   human_name, float(metric.display_scale))))
    table = (f'<table class="correlations"><caption>Correlation with the human score {e(human_name)} '
             f'({len(judgments.systems)} systems × {len(judgments.segment_ids)} segments, '
             f'{int(rated.sum())} rated; system score: {SYSTEM_SCORE_TEXT[meta.system_score]}; lower-is-better '
             f'metrics negated, as refscore meta-eval)</caption><thead><tr><th scope=col>metric</th>'
             f'<th scope=col>system Pearson'
             f'</th><th scope=col>system Spearman</th><th scope=col>system Kendall τ-b</th><th scope=col>pairwise '
             f'accuracy</th><th scope=col>segment Pearson</th><th scope=col>segment Kendall τ-b (by item)</th>'
             f'</tr></thead><tbody>{"".join(rows)}</tbody></table>')
    return (f'<h3>Agreement with human judgments</h3>{table}'
            f'<div class="grid">{"".join(figures)}</div>'
            f'{clusters_html(meta, human, {s.name: s.segments for s in scores})}')


def clusters_html(meta: MetaInputs, human: np.ndarray, scores: Mapping[str, np.ndarray]) -> str:
    """The metrics ranked by segment-level Pearson, with the clusters of metrics not significantly worse."""
    from refscore.meta import significance

    if len(scores) < 2:
        return "<p class=note>One metric only: no significance clusters.</p>"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        order, values, p = significance.perm_both_matrix(human, dict(scores), k=meta.n, seed=meta.seed)
    ranks = significance.significance_clusters(p, ALPHA)
    rows = "".join(f"<tr><td>{rank}</td><th scope=row>{e(name)}</th>{_cell(value)}<td>"
                   f"{'' if i == 0 else f'{p[i - 1, i]:.3f}'}</td></tr>"
                   for i, (rank, name, value) in enumerate(zip(ranks, order, values)))
    return (f'<table class="clusters"><caption>Significance clusters (segment-level Pearson, PERM-BOTH, {meta.n} '
            f'resamples, seed {e(meta.seed)}; a metric starts a new cluster when a metric of the current cluster is '
            f'significantly better, p ≤ {ALPHA})</caption><thead><tr><th scope=col>cluster</th><th scope=col>metric'
            f'</th><th scope=col>Pearson</th><th scope=col>p vs the one above</th></tr></thead><tbody>{rows}</tbody>'
            f'</table>')


def section_html(meta: MetaInputs, items: list[dict[str, Any]], chart: Any) -> str:
    """The section's inner HTML; ``chart(items, fig)`` places a chart (the report's placeholder function)."""
    parts = []
    if meta.calibration is not None:
        parts.append(calibration_html(meta.calibration, items, chart))
    if meta.judgments is not None:
        parts.append(judgments_html(meta, items, chart))
    return "".join(parts)


__all__ = ["MetaInputs", "correlation_entries", "load_calibration", "section_html"]
