"""Rendering a report as one self-contained HTML page: sections as escaped HTML, data and charts as inline JSON.

Untrusted text (hypotheses, references, system names, metadata) reaches the page in two ways only: escaped by
:func:`html.escape` into markup, or inside ``<script type="application/json">`` blocks written by
:func:`safe_json`, which the page's script reads with ``JSON.parse`` and displays through ``textContent``.

>>> safe_json({"text": "</script><!-- \\u2028"})
'{"text":"\\\\u003c/script\\\\u003e\\\\u003c!-- \\\\u2028"}'
"""
from __future__ import annotations

import html
import json
import math
import re
from importlib import resources
from string import Template
from typing import Any

import numpy as np

from refscore import __version__
from refscore.reporting import analysis, charts, heatmaps, meta_section, mt_analyses, testcases
from refscore.wording import fixed
from refscore.reporting.data import DISPLAY_SCALE, SIGNIFICANCE_LEVEL, ReportData

#: Segment texts embedded by default; larger inputs keep every number but show the texts of an even sample.
DEFAULT_MAX_SEGMENTS = 2000
#: Table rows drawn at first (and per "Show more"): drawing thousands of rows at once delays the page.
PAGE_ROWS = 500
#: Characters of one embedded text (longer texts are cut, with a marker).
MAX_TEXT_CHARS = 4000
_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def safe_json(value: Any) -> str:
    """JSON that is inert inside an HTML ``<script>`` element: ``<``, ``>``, ``&``, U+2028 and U+2029 escaped."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return "".join(_JSON_ESCAPES.get(char, char) for char in text) if any(c in text for c in _JSON_ESCAPES) \
        else text


def inline_script(code: str) -> str:
    """JavaScript safe inside ``<script>``: a ``</script`` (any case) in a string would end the element early.

    >>> inline_script('s = "</SCRIPT>"')
    's = "<\\\\/SCRIPT>"'
    """
    return re.sub(r"</(script)", r"<\\/\1", code, flags=re.IGNORECASE)


def _numbers(values: np.ndarray, digits: int = 4) -> list[float | None]:
    """Rounded floats for JSON; NaN and infinities (undefined scores) become null."""
    return [None if not math.isfinite(v) else round(v, digits) for v in values.tolist()]


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT_CHARS else text[:MAX_TEXT_CHARS] + " […]"


def e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def sample_segments(n_segments: int, max_segments: int, keep: list[int]) -> np.ndarray:
    """Indices of the segments whose texts are embedded: all of them, or an even sample plus ``keep``."""
    if n_segments <= max_segments:
        return np.arange(n_segments)
    sample = np.linspace(0, n_segments - 1, max_segments).round().astype(np.int64)
    return np.unique(np.concatenate([sample, np.asarray(keep, dtype=np.int64)]))


def _signed(value: float) -> str:
    """A difference with its sign, never ``-0.00``: ``+0.25``, ``-1.50``, ``+0.00``."""
    text = fixed(value, 2)
    return text if text.startswith("-") else f"+{text}"


def _format(value: float, scale: float = DISPLAY_SCALE) -> str:
    return "–" if not math.isfinite(value) else fixed(scale * value, 2)


def system_legend(data: ReportData) -> str:
    """The systems' colours, numbers and full names, above the charts (outside them, so that long names wrap
    instead of being cut or covering data); clicking a system hides or shows it in every chart (report.js)."""
    colours = charts.system_colours(data.systems)
    items = "".join(f'<li><button type="button" class="legend-item" data-system="{e(s)}" aria-pressed="true">'
                    f'<span class="swatch" style="background:{colours[s]}"></span>{i}&nbsp;{e(s)}</button></li>'
                    for i, s in enumerate(data.systems, 1))
    return f'<ul class="system-legend" aria-label="Systems (click to hide or show)">{items}</ul>'


def overview_html(data: ReportData) -> str:
    rows = []
    best = {name: analysis.best_systems(data, name) for name in data.score_names}
    for system in data.systems:
        number = data.systems.index(system) + 1
        cells = [f'<th scope="row">{number}&nbsp;{e(system)}'
                 f'{" <span class=tag>baseline</span>" if system == data.baseline else ""}</th>']
        for name in data.score_names:
            lower, upper = data.intervals[system][name]
            marked = system in best[name]
            cells.append(f'<td class="{"best" if marked else ""}">{"★ " if marked else ""}'
                         f'{_format(data.corpus[system][name], data.scale(name))} <span class=ci>['
                         f'{_format(lower, data.scale(name))}, {_format(upper, data.scale(name))}]'
                         f'</span></td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head = "".join(f'<th scope="col">{e(name)}{" ↓" if not data.higher_is_better[name] else ""}</th>'
                   for name in data.score_names)
    signatures = "".join(f"<li><b>{e(name)}</b>: <code>{e(data.bootstrap_signatures.get(name, sig))}</code></li>"
                         for name, sig in data.signatures.items())
    return (f'<table class="scores"><caption>Corpus scores (×100; scores from outside as given) with 95% bootstrap '
            f'intervals ({data.n} resamples); '
            f'★ best per column; ↓ lower is better</caption><thead><tr><th scope="col">system</th>{head}</tr>'
            f'</thead><tbody>{"".join(rows)}</tbody></table><ul class="signatures">{signatures}</ul>')


def _significance_cell(data: ReportData, name: str, first: str, second: str, raw: float, holm: float,
                       correction: str) -> str:
    """One cell: column minus row, its p-values, and (when significant) whether the column system is better or
    worse in the score's direction: blue ▲ better, orange ▼ worse (symbols too, for greyscale and colour-blind)."""
    delta = data.corpus[second][name] - data.corpus[first][name]
    decisive = holm if correction == "holm" else raw
    significant = decisive <= SIGNIFICANCE_LEVEL
    better = (delta > 0) == data.higher_is_better[name]
    kind = ("better" if better else "worse") if significant and delta != 0 else ""
    mark = {"better": "▲", "worse": "▼"}.get(kind, "")
    title = f"p = {raw:.4f}, Holm-adjusted p = {holm:.4f}"
    return (f'<td class="{kind}" title="{title}">{_signed(data.scale(name) * delta)}{mark}{"*" if significant else ""}'
            f'<span class=p>p={raw:.3f}</span><span class=p>Holm {holm:.3f}</span></td>')


def significance_html(data: ReportData, correction: str = "none") -> str:
    """Per score, the matrix of column-minus-row differences with paired-bootstrap p-values (uncorrected and
    Holm-adjusted over the score's pairs), and the ranking clusters under the chosen ``correction``."""
    if len(data.systems) < 2:
        return "<p>One system only: nothing to compare.</p>"
    k = len(data.systems)
    pairs = k * (k - 1) // 2
    decided = "Holm-adjusted p" if correction == "holm" else "uncorrected p"
    blocks = [f'<p class="note">{pairs} comparison{"s" if pairs != 1 else ""} per score ({k} systems, every pair '
              f'once). <b>*</b> and shading: {decided} ≤ {SIGNIFICANCE_LEVEL}; <span class="better">▲ blue</span>: '
              f'the column system is better in the score\'s direction (lower for ↓ scores), <span class="worse">▼ '
              f'orange</span>: worse. Each cell shows the uncorrected paired-bootstrap p and the Holm-adjusted p '
              f'(Holm\'s correction over the {pairs} pairs of that score); the ranking uses the {decided} too '
              f'(choose with <code>--correction none|holm</code>).</p>']
    for name in data.score_names:
        raw = analysis.pairwise_p_values(data, name)
        adjusted = analysis.pairwise_p_values(data, name, "holm")
        head = "".join(f'<th scope="col"><abbr title="{e(s)}">{i}</abbr></th>' for i, s in enumerate(data.systems, 1))
        rows = []
        for number, first in enumerate(data.systems, 1):
            cells = ['<td class="diag">—</td>' if first == second else
                     _significance_cell(data, name, first, second, raw[first][second], adjusted[first][second],
                                        correction) for second in data.systems]
            row_class = ' class="baseline"' if first == data.baseline else ""
            rows.append(f'<tr{row_class}><th scope="row">{number}&nbsp;{e(first)}</th>{"".join(cells)}</tr>')
        decisive = adjusted if correction == "holm" else raw
        clusters = analysis.cluster_ranking(data.systems, data.corpus_of(name), data.higher_is_better[name],
                                            decisive)
        ranking = "".join(f"<li>{', '.join(e(s) for s in cluster)}</li>" for cluster in clusters)
        arrow = " ↓" if not data.higher_is_better[name] else ""
        blocks.append(
            f'<div class="matrix"><table class="pvalues"><caption>{e(name)}{arrow}: column system minus row system '
            f'(×100)</caption><thead><tr><th scope="col">row \\ column</th>{head}</tr></thead><tbody>{"".join(rows)}'
            f'</tbody></table><p><b>Ranking</b> (best first; systems in one item are not significantly different '
            f'from the item\'s first):</p><ol class="ranking">{ranking}</ol></div>')
    return "".join(blocks)


def _chart(items: list[dict[str, Any]], fig: Any, score: str | None = None, hidden: bool = False) -> str:
    """A chart's placeholder (report.js draws it when it is shown); ``score`` marks a bucket chart of that score."""
    target = f"chart-{len(items)}"
    items.append({"target": target, "item": charts.chart_item(fig)})
    extra = (f' data-score="{e(score)}"' if score is not None else "") + (" hidden" if hidden else "")
    # for screen readers: what the chart shows (its numbers are in the tables beside it)
    return (f'<div class="chart" id="{target}" role="figure" aria-label="Chart: {e(fig.title.text)}"{extra}>'
            f'</div>')


def distributions_html(data: ReportData, items: list[dict[str, Any]]) -> str:
    parts = [_chart(items, charts.distribution_chart(data, name)) for name in data.score_names]
    primary = data.primary_names
    parts += [_chart(items, charts.scatter_chart(data, primary[0], other)) for other in primary[1:]]
    return f'{system_legend(data)}<div class="grid">{"".join(parts)}</div>'


def buckets_html(data: ReportData, buckets: list[analysis.BucketScores], items: list[dict[str, Any]]) -> str:
    """Per bucketing, a chart per score (only the chosen score's are shown; report.js switches them) and a table
    of every score with the segment counts."""
    choices = "".join(f'<option value="{e(name)}">{e(name)}</option>' for name in data.score_names)
    parts = [f'<label class="bucket-score">Score of the charts <select id="bucket-score">{choices}</select></label>'
             f'{system_legend(data)}']
    for bucket in buckets:
        head = "".join(f'<th scope="col">{e(s)}</th>' for s in data.systems)
        rows = []
        for label in bucket.labels:
            for name in data.score_names:
                cells = "".join(f"<td>{_format(bucket.scores[label][s].get(name, math.nan))}</td>"
                                for s in data.systems)
                rows.append(f'<tr><th scope="row">{e(label)}</th><td>{e(name)}</td><td>{bucket.counts[label]}</td>'
                            f'{cells}</tr>')
        charts_html = "".join(_chart(items, charts.bucket_chart(bucket, data, name), score=name,
                                     hidden=name != data.score_names[0]) for name in data.score_names)
        parts.append(f'<h3>By {e(bucket.name)}</h3><div class="grid">{charts_html}</div><details><summary>Table'
                     f'</summary><table class="buckets"><thead><tr><th scope="col">bucket</th><th scope="col">score'
                     f'</th><th scope="col">segments</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
                     f'</details>')
    return "".join(parts)


def _segment_button(data: ReportData, index: int) -> str:
    """A button that opens segment ``index``: its number, and its own id when the segments have ids."""
    label = f"#{index}" + (f" · {data.ids[index]}" if data.ids is not None else "")
    return f'<button type="button" class="open" data-segment="{index}">{e(label)}</button>'


def differences_html(data: ReportData, pairs: list[tuple[str, str]], top: list[int]) -> str:
    parts = []
    matched = analysis.matched_ngrams(data) if pairs else {}
    for first, second in pairs:
        diff = analysis.ngram_differences(matched, first, second)

        def ngram_table(rows: list[tuple[str, int, int]], who: str) -> str:
            body = "".join(f"<tr><td class=text>{e(g)}</td><td>{a}</td><td>{b}</td></tr>" for g, a, b in rows)
            return (f'<table class="ngrams"><caption>{e(who)} matches more often</caption><thead><tr>'
                    f'<th scope="col">n-gram</th><th scope="col">{e(first)}</th><th scope="col">{e(second)}</th>'
                    f'</tr></thead><tbody>{body or "<tr><td colspan=3>none</td></tr>"}</tbody></table>')

        tables = []
        for name in data.score_names:
            indices = analysis.largest_differences(data, first, second, name)
            top.extend(indices)
            body = "".join(f"<tr><td>{_segment_button(data, i)}</td>"
                           f"<td>{_format(data.segment_scores[first][name][i])}</td>"
                           f"<td>{_format(data.segment_scores[second][name][i])}</td></tr>" for i in indices)
            tables.append(f'<table class="largest"><caption>{e(name)}: largest differences</caption><thead><tr>'
                          f'<th scope="col">segment</th><th scope="col">{e(first)}</th><th scope="col">{e(second)}'
                          f'</th></tr></thead><tbody>{body}</tbody></table>')
        parts.append(f'<h3>{e(first)} vs {e(second)}</h3><p>Reference n-grams (1–4 tokens) matched by one system and '
                     f'missed by the other, over the corpus (clipped counts, ranked by (a+1)/(a+b+2) as compare-mt).'
                     f'</p><div class="grid">{ngram_table(diff.first_better, first)}'
                     f'{ngram_table(diff.second_better, second)}</div><div class="grid">{"".join(tables)}</div>')
    return "".join(parts) or "<p>One system only: nothing to compare.</p>"


def segment_payload(data: ReportData, shown: np.ndarray, buckets: dict[str, list[str]]) -> dict[str, Any]:
    """The segment browser's data: texts of the ``shown`` segments, their scores and bucket labels."""
    bucket_data = {}
    for name, labels in buckets.items():
        order = analysis.bucket_order(labels)
        position = {label: i for i, label in enumerate(order)}
        bucket_data[name] = {"labels": order, "index": [position[labels[i]] for i in shown.tolist()]}
    return {
        "ids": shown.tolist(),
        "references": [[_cut(r) for r in data.references[i]] for i in shown.tolist()],
        "hypotheses": {s: [_cut(data.hypotheses[s][i]) for i in shown.tolist()] for s in data.systems},
        "sources": None if data.sources is None else [_cut(data.sources[i]) for i in shown.tolist()],
        "recordIds": None if data.ids is None else [data.ids[i] for i in shown.tolist()],
        "scores": {name: {s: _numbers(data.segment_scores[s][name][shown]) for s in data.systems}
                   for name in data.score_names},
        "buckets": bucket_data,
    }


def _asset(name: str) -> str:
    return (resources.files("refscore.reporting") / "assets" / name).read_text(encoding="utf-8")


#: The report's Content-Security-Policy: its inline scripts (BokehJS needs ``eval``), no network at all.
REPORT_POLICY = ("default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; "
                 "img-src data: blob:; font-src data:; connect-src 'none'")
#: The test-run page's Content-Security-Policy: static HTML, so no script at all.
TEST_RUN_POLICY = "default-src 'none'; style-src 'unsafe-inline'"


def page_head(title: str, content_security_policy: str) -> str:
    """The ``<!DOCTYPE>`` and ``<head>`` of every page (escaped ``title``, inline stylesheet), the ``$head`` of the
    page templates.

    >>> head = page_head("a < b", TEST_RUN_POLICY)
    >>> "<title>a &lt; b</title>" in head and head.endswith("</head>")
    True
    """
    return Template(_asset("head.html")).substitute(
        title=e(title), version=e(__version__), css=_asset("report.css"),
        content_security_policy=content_security_policy).rstrip("\n")


META_QUESTION = "Which threshold agrees best with human labels, and which metric agrees best with human ratings?"
TEST_CASES_QUESTION = "Which cases fail, on which check, by how much, and why?"


def test_cases_section(test_run: dict[str, Any] | None) -> str:
    """The test-case section (empty without a test run)."""
    if test_run is None:
        return ""
    return (f'<section id="test-cases" aria-labelledby="test-cases-title"><h2 id="test-cases-title">Test cases</h2>'
            f'<p class="question">{TEST_CASES_QUESTION}</p>{testcases.test_cases_html(test_run)}</section>')


def render_test_run(test_run: dict[str, Any], *, title: str = "refscore report") -> str:
    """A page with the test-case view only (no systems to compare): static HTML, no script."""
    return Template(_asset("test_run.html")).substitute(
        head=page_head(title, TEST_RUN_POLICY), title=e(title), version=e(__version__),
        test_cases_section=test_cases_section(test_run))


def render(data: ReportData, *, title: str = "refscore report", max_segments: int = DEFAULT_MAX_SEGMENTS,
           test_run: dict[str, Any] | None = None, correction: str = "none",
           meta: meta_section.MetaInputs | None = None) -> str:
    """The complete HTML page of a report (with the test-case view when ``test_run`` is given, the
    meta-evaluation section when ``meta`` is)."""
    items: list[dict[str, Any]] = []
    segment_buckets = analysis.segment_buckets(data)
    bucket_results = [analysis.bucket_scores(data, name, labels) for name, labels in segment_buckets.items()]
    pairs = [(data.baseline, other) for other in data.systems[1:]]
    keep: list[int] = []
    sections = {
        "overview": overview_html(data),
        "significance": significance_html(data, correction),
        "distributions": distributions_html(data, items),
        "buckets": buckets_html(data, bucket_results, items),
        "mt_analyses": mt_analyses.section_html(mt_analyses.analyse(data)),
        "differences": differences_html(data, pairs, keep),
    }
    meta_html = meta_section.section_html(meta, items, _chart) if meta is not None else ""
    shown = sample_segments(data.n_segments, max_segments, keep)
    heatmap_segments = heatmaps.choose_segments(keep, shown.tolist())
    payload = {
        "systems": data.systems, "scoreNames": data.score_names, "metricOf": data.metric_of,
        "higherIsBetter": data.higher_is_better, "scales": {name: data.scale(name) for name in data.score_names},
        "colours": charts.system_colours(data.systems),
        "nSegments": data.n_segments, "pageRows": PAGE_ROWS, "segments": segment_payload(data, shown, segment_buckets),
        "heatmaps": heatmaps.heatmaps(data, heatmap_segments), "viridis": charts.viridis(),
    }
    sample_note = ("" if len(shown) == data.n_segments else
                   f"<p class=note>Texts of {len(shown)} of {data.n_segments} segments are embedded (an even sample "
                   f"plus the segments listed under Differences); every number above uses all segments.</p>")
    fields = {name: html_text for name, html_text in sections.items()}
    fields.update(head=page_head(title, REPORT_POLICY), title=e(title), version=e(__version__),
                  systems=e(", ".join(data.systems)), n_segments=str(data.n_segments), sample_note=sample_note,
                  bokeh_js=inline_script(charts.bokeh_script()), report_js=inline_script(_asset("report.js")),
                  data_json=safe_json(payload), charts_json=safe_json(items),
                  metrics=e(", ".join(m.name for m in data.metrics)), test_cases_section=test_cases_section(test_run),
                  test_cases_nav=' <a href="#test-cases">Test cases</a>' if test_run is not None else "",
                  meta_section=(f'<section id="meta" aria-labelledby="meta-title"><h2 id="meta-title">Human '
                                f'judgments</h2><p class="question">{META_QUESTION}</p>{meta_html}</section>'
                                if meta_html else ""),
                  meta_nav=' <a href="#meta">Human judgments</a>' if meta_html else "")
    return Template(_asset("template.html")).substitute(fields)
