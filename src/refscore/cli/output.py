"""Rendering command-line results as a text table, JSON or per-segment rows."""
from __future__ import annotations

import json
import re
from typing import Any

from refscore.cli.scale import score_json
from refscore.wording import fixed

#: Decimals of the text table and of ``--segments`` rows when ``-w`` is not given (0–100 scale).
TABLE_DIGITS = 2
SEGMENT_DIGITS = 4

#: What a terminal acts on instead of showing: C0 controls (ESC starts the sequences that recolour, move the
#: cursor, retitle the window or set the clipboard; CR and BS overwrite), DEL, C1 controls (U+009B is a CSI), and
#: the bidirectional overrides and isolates, which reorder what is shown. Tab and line feed are kept in running
#: text; a table cell escapes them too.
_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_IN_TEXT = re.compile(f"[{_CONTROLS}]")
_IN_CELL = re.compile(f"[{_CONTROLS}\t\n]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    # \u above ASCII: in a JSON string (json.dumps leaves C1 and bidi controls raw) it is still valid JSON
    return {9: "\\t", 10: "\\n", 13: "\\r"}.get(code) or (f"\\x{code:02x}" if code < 0x7f else f"\\u{code:04x}")


def shown(text: str, *, cell: bool = False) -> str:
    r"""``text`` with every character a terminal would act on written as an escape (``\x1b``, ``\u202e``), so
    that data (a system name, a case id) cannot recolour, move or rewrite the terminal; ``cell``: tabs and line
    breaks too (a table cell stays on its line).

    >>> shown("sys\x1b[31mA\u202e"), shown("a\tb\nc", cell=True), shown("a\tb")
    ('sys\\x1b[31mA\\u202e', 'a\\tb\\nc', 'a\tb')
    """
    return (_IN_CELL if cell else _IN_TEXT).sub(_escape, text)


def format_table(header: list[str], rows: list[list[str]]) -> str:
    """A plain aligned table: first column left-aligned, the rest right-aligned; cells are :func:`shown`."""
    header = [shown(str(cell), cell=True) for cell in header]
    rows = [[shown(str(cell), cell=True) for cell in row] for row in rows]
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    lines = []
    for index, row in enumerate([header, *rows]):
        cells = [str(cell).ljust(widths[0]) if i == 0 else str(cell).rjust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def score_table(results: list[dict[str, Any]], digits: int | None = None) -> str:
    """Systems × metric headline numbers (×each metric's display scale: 0–100 for built-in metrics, scores from
    outside as given), then one signature line per metric; a score with an interval (ROUGE-1.5.5's printed
    averages) shows it in brackets, as ``31.33 [31.12, 31.55]``."""
    digits = TABLE_DIGITS if digits is None else digits
    columns: list[str] = []
    for result in results:
        for summary in result["summaries"].values():
            for key in summary:
                if key not in columns:
                    columns.append(key)
    rows, with_interval = [], set()
    for result in results:
        merged = {k: v for summary in result["summaries"].values() for k, v in summary.items()}
        scales = {k: result["scales"][metric] for metric, summary in result["summaries"].items() for k in summary}
        intervals = {k: v for score in result["scores"].values()
                     for k, v in getattr(score, "summary_intervals", dict)().items()}
        row = [result["system"]]
        for column in columns:
            scale = scales.get(column, 100.0)
            cell = fixed(scale * merged[column], digits) if column in merged else "-"
            if column in intervals:
                low, high = intervals[column]
                cell += f" [{fixed(scale * low, digits)}, {fixed(scale * high, digits)}]"
                with_interval.add(column)
            row.append(cell)
        rows.append(row)
    header = [f"{c} [CI]" if c in with_interval else c for c in columns]
    lines = [format_table(["system", *header], rows), ""]
    lines += [f"{metric}: {signature}" for metric, signature in signatures(results).items()]
    return "\n".join(lines)


def signatures(results: list[dict[str, Any]]) -> dict[str, str]:
    """Each metric's signature (of the first system that has it)."""
    found: dict[str, str] = {}
    for result in results:
        for metric, score in result["scores"].items():
            found.setdefault(metric, str(score.signature))
    return found


def segment_rows(results: list[dict[str, Any]], digits: int | None = None) -> str:
    """Tab-separated per-segment scores (0–100) in input order: system, segment index (0-based), one column per
    score; then one ``# metric: signature`` line per metric (``comment="#"`` in pandas' ``read_csv`` skips them)."""
    digits = SEGMENT_DIGITS if digits is None else digits
    lines: list[str] = []
    for result in results:
        tables = result["segments"]
        if not lines:
            lines.append(segment_header([name for table in tables.values() for name in table]))
        columns = [column for table in tables.values() for column in table.values()]
        lines += segment_lines(result["system"], 0, columns, digits)
    lines += [f"# {metric}: {signature}" for metric, signature in signatures(results).items()]
    return "\n".join(lines)


def segment_header(names: list[str]) -> str:
    """The header line of per-segment rows."""
    return "\t".join(["system", "segment", *names])


def segment_lines(system: str, first_index: int, columns: list[Any], digits: int | None = None) -> list[str]:
    """Per-segment rows of one system, numbered from ``first_index`` (a streamed chunk starts where the last ended).

    >>> [line.split() for line in segment_lines("sys", 2, [[0.5, 0.25]])]
    [['sys', '2', '0.5000'], ['sys', '3', '0.2500']]
    """
    digits = SEGMENT_DIGITS if digits is None else digits
    system = shown(system, cell=True)   # a tab or line break in a name would shift the columns
    return ["\t".join([system, str(first_index + index), *(fixed(c[index], digits) for c in columns)])
            for index in range(len(columns[0]) if columns else 0)]


def to_json(results: list[dict[str, Any]], with_segments: bool) -> str:
    """Every score (×its metric's display scale; sacreBLEU's fields for BLEU/chrF/TER) with its signature, per
    system."""
    payload = []
    for result in results:
        entry: dict[str, Any] = {"system": result["system"],
                                 "scores": {m: score_json(s, result["percents"][m], result["scales"][m])
                                            for m, s in result["scores"].items()}}
        if with_segments:
            entry["segments"] = {m: {k: v.tolist() for k, v in table.items()}
                                 for m, table in result["segments"].items()}
        payload.append(entry)
    return json.dumps(payload, indent=2, ensure_ascii=False)
