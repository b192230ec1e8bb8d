"""The report's charts, drawn by Bokeh (its browser code, BokehJS, ships inside the Python package and is inlined).

Charts carry numbers, segment indices and system/score names only, never segment text; the page embeds each chart
as a JSON item (see :mod:`refscore.reporting.render`). Colours: the Okabe–Ito colour-blind-safe palette for systems
(Bokeh's ``Colorblind``, without its yellow), viridis beyond seven systems.
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


def _legend(fig: Any) -> None:
    fig.legend.click_policy = "hide"
    fig.legend.location = "top_left"
    fig.legend.label_text_font_size = "9pt"
    fig.legend.background_fill_alpha = 0.7


def distribution_chart(data: ReportData, name: str) -> Any:
    """Histogram (as steps) of one score's per-segment values, one line per system."""
    colours = system_colours(data.systems)
    values = np.concatenate([data.segment_scores[s][name] for s in data.systems])
    finite = values[np.isfinite(values)]
    low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    edges = np.linspace(low, high if high > low else low + 1.0, 26)
    fig = _figure(f"{name}: per-segment scores", name, "segments")
    for system in data.systems:
        counts, _ = np.histogram(data.segment_scores[system][name], bins=edges)
        fig.step(x=edges, y=np.append(counts, counts[-1]), mode="after", line_width=2, color=colours[system],
                 legend_label=system)
    _legend(fig)
    return fig


def scatter_chart(data: ReportData, x_name: str, y_name: str) -> Any:
    """Per-segment ``x_name`` against ``y_name``, one colour per system; clicking a point opens its segment."""
    bokeh = bokeh_modules()
    colours = system_colours(data.systems)
    fig = _figure(f"{y_name} vs {x_name} per segment (click a point to open it)", x_name, y_name)
    hover = bokeh.models.HoverTool(tooltips=[("segment", "@segment"), (x_name, "@x{0.000}"), (y_name, "@y{0.000}")])
    fig.add_tools(hover, bokeh.models.TapTool())
    step = max(1, int(np.ceil(data.n_segments / MAX_SCATTER_POINTS)))
    segments = np.arange(0, data.n_segments, step)
    for system in data.systems:
        source = bokeh.models.ColumnDataSource({
            "x": np.round(data.segment_scores[system][x_name][segments], 4),
            "y": np.round(data.segment_scores[system][y_name][segments], 4),
            "segment": segments})
        fig.scatter("x", "y", source=source, size=5, alpha=0.55, color=colours[system], legend_label=system,
                    selection_color=colours[system], nonselection_alpha=0.3)
        source.selected.js_on_change("indices", bokeh.models.CustomJS(args={"source": source}, code=_OPEN_SEGMENT))
    _legend(fig)
    return fig


def bucket_chart(buckets: BucketScores, data: ReportData, name: str) -> Any:
    """Grouped bars: the corpus score of ``name`` on each bucket's segments, one bar per system."""
    bokeh = bokeh_modules()
    colours = system_colours(data.systems)
    factors = [(label, system) for label in buckets.labels for system in data.systems]
    fig = _figure(f"{name} by {buckets.name}", "", name, x_range=bokeh.models.FactorRange(*factors))
    values = [buckets.scores[label][system].get(name, float("nan")) for label, system in factors]
    source = bokeh.models.ColumnDataSource({"x": factors, "score": values,
                                            "colour": [colours[system] for _, system in factors],
                                            "system": [system for _, system in factors],
                                            "segments": [buckets.counts[label] for label, _ in factors]})
    fig.vbar(x="x", top="score", width=0.85, source=source, fill_color="colour", line_color="colour",
             legend_field="system")
    _legend(fig)
    fig.legend.click_policy = "none"  # one renderer: hiding would hide every bar
    fig.legend.orientation = "horizontal"
    fig.add_layout(fig.legend[0], "above")  # above the plot: bars reach every corner
    fig.add_tools(bokeh.models.HoverTool(tooltips=[("bucket, system", "@x"), (name, "@score{0.0000}"),
                                                   ("segments", "@segments")]))
    fig.xaxis.major_label_text_font_size = "0pt"  # system names are in the colours and the legend table
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
