"""The report's charts, drawn by Bokeh (its browser code, BokehJS, ships inside the Python package and is inlined).

Charts carry numbers, segment indices and system/score names only, never segment text; the page embeds each chart
as a JSON item (see :mod:`refscore.reporting.render`). Colours: the Okabe–Ito colour-blind-safe palette for systems
(Bokeh's ``Colorblind``, without its yellow), viridis beyond seven systems. Scores are drawn ×their metric's
display scale (:meth:`~refscore.reporting.data.ReportData.scale`: ×100, scores from outside as given), as the tables
show them, and the axes say so. The charts have no legends of their own:
the page shows one list of the systems above them (long names wrap there instead of being cut or covering data), and
each system's glyphs are named after it, so that the list can hide and show them.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from refscore.reporting.analysis import BucketScores
from refscore.reporting.data import ReportData

#: Plot height in pixels; widths follow the page.
HEIGHT = 260
#: Points drawn per system in a scatter plot; larger corpora are subsampled evenly (every segment stays in the
#: numbers, tables and distributions).
MAX_SCATTER_POINTS = 5000
#: What clicking a point does: open its segment in the browser section (a function defined by report.js).
_OPEN_SEGMENT = """
const i = source.selected.indices;
if (i.length > 0 && window.refscoreOpenSegment) { window.refscoreOpenSegment(source.data.segment[i[0]]); }
"""


def bokeh_modules() -> Any:
    """Bokeh's plotting, models, embedding and palettes (imported only when a report is drawn)."""
    import bokeh.embed
    import bokeh.models
    import bokeh.palettes
    import bokeh.plotting

    return bokeh


def system_colours(systems: list[str]) -> dict[str, str]:
    """One colour per system.

    >>> system_colours(["a", "b", "c"])
    {'a': '#0072B2', 'b': '#E69F00', 'c': '#009E73'}
    """
    bokeh = bokeh_modules()
    okabe_ito = bokeh.palettes.Colorblind[8]
    palette = [colour for colour in okabe_ito if colour.upper() != "#F0E442"]  # yellow: unreadable on white
    if len(systems) > len(palette):
        palette = bokeh.palettes.viridis(len(systems))
    return {system: palette[i] for i, system in enumerate(systems)}


def viridis() -> list[str]:
    """The viridis scale (256 colours, perceptually uniform and colour-blind safe) for heatmap cells."""
    return list(bokeh_modules().palettes.Viridis256)


def _figure(title: str, x_label: str, y_label: str, **options: Any) -> Any:
    bokeh = bokeh_modules()
    fig = bokeh.plotting.figure(title=title, height=HEIGHT, sizing_mode="stretch_width",
                                tools="pan,box_zoom,wheel_zoom,reset,save", toolbar_location="right", **options)
    fig.xaxis.axis_label = x_label
    fig.yaxis.axis_label = y_label
    fig.title.text_font_size = "12pt"
    return fig


def distribution_chart(data: ReportData, name: str) -> Any:
    """Histogram (as steps) of one score's per-segment values, one line per system."""
    colours = system_colours(data.systems)
    values = data.scale(name) * np.concatenate([data.segment_scores[s][name] for s in data.systems])
    finite = values[np.isfinite(values)]
    low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    edges = np.linspace(low, high if high > low else low + 1.0, 26)
    fig = _figure(f"{data.scaled(name)}: per-segment scores", data.scaled(name), "segments")
    for system in data.systems:
        counts, _ = np.histogram(data.scale(name) * data.segment_scores[system][name], bins=edges)
        fig.step(x=edges, y=np.append(counts, counts[-1]), mode="after", line_width=2, color=colours[system],
                 name=system)
    return fig


def scatter_chart(data: ReportData, x_name: str, y_name: str) -> Any:
    """Per-segment ``x_name`` against ``y_name``, one colour per system; clicking a point opens its segment."""
    bokeh = bokeh_modules()
    colours = system_colours(data.systems)
    fig = _figure(f"{data.scaled(y_name)} vs {data.scaled(x_name)} per segment (click a point to open it)",
                  data.scaled(x_name), data.scaled(y_name))
    hover = bokeh.models.HoverTool(tooltips=[("system", "@system"), ("segment", "@segment"), (x_name, "@x{0.00}"),
                                             (y_name, "@y{0.00}")])
    fig.add_tools(hover, bokeh.models.TapTool())
    step = max(1, int(np.ceil(data.n_segments / MAX_SCATTER_POINTS)))
    segments = np.arange(0, data.n_segments, step)
    for system in data.systems:
        source = bokeh.models.ColumnDataSource({
            "x": np.round(data.scale(x_name) * data.segment_scores[system][x_name][segments], 2),
            "y": np.round(data.scale(y_name) * data.segment_scores[system][y_name][segments], 2),
            "segment": segments, "system": [system] * len(segments)})
        fig.scatter("x", "y", source=source, size=5, alpha=0.55, color=colours[system], name=system,
                    selection_color=colours[system], nonselection_alpha=0.3)
        source.selected.js_on_change("indices", bokeh.models.CustomJS(args={"source": source}, code=_OPEN_SEGMENT))
    return fig


def bucket_label(buckets: BucketScores, label: str) -> str:
    """A bucket's axis label with its number of segments.

    >>> bucket_label(BucketScores("length", ["< 10"], {"< 10": 42}, {}), "< 10")
    '< 10 (n = 42)'
    """
    return f"{label} (n = {buckets.counts[label]})"


def bucket_chart(buckets: BucketScores, data: ReportData, name: str) -> Any:
    """Grouped bars: the corpus score of ``name`` (×100) on each bucket's segments, one bar per system; each bucket's
    label and each bar's tooltip give the bucket's number of segments."""
    bokeh = bokeh_modules()
    colours = system_colours(data.systems)
    factors = [(bucket_label(buckets, label), system) for label in buckets.labels for system in data.systems]
    fig = _figure(f"{data.scaled(name)} by {buckets.name}", "", data.scaled(name),
                  x_range=bokeh.models.FactorRange(*factors))
    for system in data.systems:  # one renderer per system, named after it, so the page's system list can hide it
        source = bokeh.models.ColumnDataSource({
            "x": [(bucket_label(buckets, label), system) for label in buckets.labels],
            "score": [data.scale(name) * buckets.scores[label][system].get(name, float("nan"))
                      for label in buckets.labels],
            "bucket": list(buckets.labels), "system": [system] * len(buckets.labels),
            "segments": [buckets.counts[label] for label in buckets.labels]})
        fig.vbar(x="x", top="score", width=0.85, source=source, fill_color=colours[system],
                 line_color=colours[system], name=system)
    fig.add_tools(bokeh.models.HoverTool(tooltips=[("bucket", "@bucket"), ("segments", "@segments"),
                                                   ("system", "@system"), (data.scaled(name), "@score{0.00}")]))
    fig.xaxis.major_label_text_font_size = "0pt"  # system names are in the colours and the system list
    fig.xaxis.group_text_font_size = "9pt"
    fig.xgrid.grid_line_color = None
    return fig


def chart_item(fig: Any) -> dict[str, Any]:
    """A chart as a JSON-ready Bokeh item for ``Bokeh.embed.embed_item``."""
    return bokeh_modules().embed.json_item(fig)


def bokeh_script() -> str:
    """BokehJS (the core bundle only: no widgets are used), as the text of an inline script."""
    from bokeh.resources import Resources

    return "\n".join(Resources(mode="inline", components=["bokeh"]).js_raw)
