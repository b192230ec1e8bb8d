"""Rendering command-line results as a text table, JSON or per-segment rows."""
from __future__ import annotations

import json
from typing import Any


def format_table(header: list[str], rows: list[list[str]]) -> str:
    """A plain aligned table: first column left-aligned, the rest right-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    lines = []
    for index, row in enumerate([header, *rows]):
        cells = [str(cell).ljust(widths[0]) if i == 0 else str(cell).rjust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def score_table(results: list[dict[str, Any]]) -> str:
    """Systems × metric headline numbers (0–100 scale), then one signature line per metric."""
    columns: list[str] = []
    for result in results:
        for summary in result["summaries"].values():
            for key in summary:
                if key not in columns:
                    columns.append(key)
    rows = []
    for result in results:
        merged = {k: v for summary in result["summaries"].values() for k, v in summary.items()}
        rows.append([result["system"]] + [f"{100 * merged[c]:.2f}" if c in merged else "-" for c in columns])
    lines = [format_table(["system", *columns], rows), ""]
    lines += [f"{metric}: {signature}" for metric, signature in signatures(results).items()]
    return "\n".join(lines)


def signatures(results: list[dict[str, Any]]) -> dict[str, str]:
    """Each metric's signature (of the first system that has it)."""
    found: dict[str, str] = {}
    for result in results:
        for metric, score in result["scores"].items():
            found.setdefault(metric, str(score.signature))
    return found


def segment_rows(results: list[dict[str, Any]]) -> str:
    """Tab-separated per-segment scores in input order: system, segment index (0-based), one column per score;
    then one ``# metric: signature`` line per metric (``comment="#"`` in pandas' ``read_csv`` skips them)."""
    lines = []
    for result in results:
        tables = result["segments"]
        if not lines:
            lines.append(segment_header([name for table in tables.values() for name in table]))
        columns = [column for table in tables.values() for column in table.values()]
        lines += segment_lines(result["system"], 0, columns)
    lines += [f"# {metric}: {signature}" for metric, signature in signatures(results).items()]
    return "\n".join(lines)


def segment_header(names: list[str]) -> str:
    """The header line of per-segment rows."""
    return "\t".join(["system", "segment", *names])


def segment_lines(system: str, first_index: int, columns: list[Any]) -> list[str]:
    """Per-segment rows of one system, numbered from ``first_index`` (a streamed chunk starts where the last ended).

    >>> [line.split() for line in segment_lines("sys", 2, [[0.5, 0.25]])]
    [['sys', '2', '0.500000'], ['sys', '3', '0.250000']]
    """
    return ["\t".join([system, str(first_index + index), *(f"{c[index]:.6f}" for c in columns)])
            for index in range(len(columns[0]) if columns else 0)]


def to_json(results: list[dict[str, Any]], with_segments: bool) -> str:
    payload = []
    for result in results:
        entry: dict[str, Any] = {"system": result["system"],
                                 "scores": {m: s.to_dict() for m, s in result["scores"].items()}}
        if with_segments:
            entry["segments"] = {m: {k: v.tolist() for k, v in table.items()}
                                 for m, table in result["segments"].items()}
        payload.append(entry)
    return json.dumps(payload, indent=2, ensure_ascii=False)
