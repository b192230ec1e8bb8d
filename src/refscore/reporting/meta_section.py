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

A system score is the mean over the segments that have a human rating (the human one: the mean rating), as
mt-metrics-eval averages system scores. An undefined correlation (constant scores, too few systems) shows as "–".
Every text is escaped.
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

FORMAT_KEY = "refscore_calibration"
SUPPORTED_FORMATS = (1,)
#: Significance level of the clusters.
ALPHA = 0.05
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


def calibration_html(calibration: Mapping[str, Any], items: list[dict[str, Any]], chart: Any) -> str:
    cut = f" (pass if {e(calibration.get('human'))} {e(calibration.get('pass_if'))})" if calibration.get("pass_if") \
        else ""
    rows = []
    for item in calibration["checks"]:
        low, high = item["interval"]
        rows.append(f"<tr><th scope=row>{e(item['name'])}</th><td>{'≥' if item.get('higher_is_better', True) else '≤'}"
                    f" {item['threshold']:.4f}</td><td>{item['agreement']:.3f} <span class=ci>[{low:.3f}, "
                    f"{high:.3f}]</span></td><td>{item['accuracy']:.3f}</td><td>{item['precision']:.3f}</td>"
                    f"<td>{item['recall']:.3f}</td><td>{item['f1']:.3f}</td><td>{item['cases']} "
                    f"({item['human_passes']} human passes, {item['missing']} unlabelled)</td></tr>")
    table = (f'<table class="calibration"><caption>Thresholds chosen on {e(calibration.get("labels"))}, human score '
             f'{e(calibration.get("human"))}{cut}, objective {e(calibration.get("objective"))}; 95% bootstrap '
             f'interval of the agreement at the threshold (in-sample: optimistic)</caption><thead><tr><th scope=col>'
             f'check</th><th scope=col>threshold</th><th scope=col>agreement</th><th scope=col>accuracy</th>'
             f'<th scope=col>precision</th><th scope=col>recall</th><th scope=col>F1</th><th scope=col>cases</th>'
             f'</tr></thead><tbody>{"".join(rows)}</tbody></table>')
    figures = "".join(chart(items, calibration_chart(item)) for item in calibration["checks"])
    return f'<h3>Threshold calibration</h3>{table}<div class="grid">{figures}</div>'


def system_scores(values: np.ndarray, rated: np.ndarray) -> np.ndarray:
    """Each system's mean over its rated segments (NaN for a system without any).

    >>> system_scores(np.array([[1.0, 3.0], [2.0, 4.0]]), np.array([[True, False], [True, True]])).tolist()
    [1.0, 3.0]
    """
    counts = rated.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, np.where(rated, values, 0.0).sum(axis=1) / counts, math.nan)


def _quiet(function: Any, *args: Any, **options: Any) -> float:
    """A correlation, NaN when it is undefined (constant scores, too few systems)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return float(function(*args, **options))
        except InputError:
            return math.nan


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


def judgments_html(meta: MetaInputs, items: list[dict[str, Any]], chart: Any) -> str:
    from refscore.meta import correlations

    judgments = meta.judgments
    human_name = meta.human or judgments.human_names[0]
    human = judgments.human[human_name]
    rated = ~np.isnan(human)
    human_system = system_scores(np.nan_to_num(human), rated)
    scores = {metric.name: judgments.metric_scores(metric.sentence_metric()) for metric in meta.metrics}
    scales = {metric.name: float(metric.display_scale) for metric in meta.metrics}
    rows, figures = [], []
    for name, matrix in scores.items():
        metric_system = system_scores(matrix, rated)
        values = [_quiet(correlations.pearson, human_system, metric_system),
                  _quiet(correlations.spearman, human_system, metric_system),
                  _quiet(correlations.kendall, human_system, metric_system),
                  _quiet(correlations.pairwise_accuracy, human_system, metric_system),
                  _quiet(correlations.pearson, human, matrix),
                  _quiet(correlations.kendall, human, matrix, grouping="item")]
        rows.append(f"<tr><th scope=row>{e(name)}</th>{''.join(_cell(v) for v in values)}</tr>")
        figures.append(chart(items, system_scatter(judgments.systems, human_system, metric_system, name,
                                                   human_name, scales[name])))
    table = (f'<table class="correlations"><caption>Correlation with the human score {e(human_name)} '
             f'({len(judgments.systems)} systems × {len(judgments.segment_ids)} segments, '
             f'{int(rated.sum())} rated)</caption><thead><tr><th scope=col>metric</th><th scope=col>system Pearson'
             f'</th><th scope=col>system Spearman</th><th scope=col>system Kendall τ-b</th><th scope=col>pairwise '
             f'accuracy</th><th scope=col>segment Pearson</th><th scope=col>segment Kendall τ-b (by item)</th>'
             f'</tr></thead><tbody>{"".join(rows)}</tbody></table>')
    return (f'<h3>Agreement with human judgments</h3>{table}'
            f'<div class="grid">{"".join(figures)}</div>{clusters_html(meta, human, scores)}')


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


__all__ = ["MetaInputs", "load_calibration", "section_html", "system_scores"]
