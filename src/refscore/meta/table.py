"""The meta-evaluation table as text, JSON and LaTeX: one block per level, one row per metric, one column per
statistic; a cell is ``value [lower, upper]`` and the metric's significance rank (``r1`` = tied with the best).

>>> from refscore.meta.evaluate import Entry
>>> entries = [Entry("chrf", "system", "pearson", "none", 0.91, 0.8, 0.95, 1),
...            Entry("bleu", "system", "pearson", "none", 0.62, 0.38, 0.72, 2)]
>>> print(to_text(entries))
system level
metric  pearson
chrf    0.910 [0.800, 0.950] r1
bleu    0.620 [0.380, 0.720] r2
"""
from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from refscore.meta.evaluate import Entry
from refscore.wording import fixed

LEVELS = ("system", "segment")


def _blocks(entries: Sequence[Entry]) -> list[tuple[str, list[str], list[str], dict[tuple[str, str], Entry]]]:
    blocks = []
    for level in LEVELS:
        chosen = [e for e in entries if e.level == level]
        if not chosen:
            continue
        labels = list(dict.fromkeys(e.label for e in chosen))
        metrics = list(dict.fromkeys(e.metric for e in chosen))
        blocks.append((level, labels, metrics, {(e.metric, e.label): e for e in chosen}))
    return blocks


def _number(value: float, digits: int) -> str:
    return "nan" if math.isnan(value) else fixed(value, digits)


def _cell(entry: Entry | None, digits: int) -> str:
    if entry is None:
        return "-"
    text = _number(entry.value, digits)
    if not math.isnan(entry.lower):
        text += f" [{_number(entry.lower, digits)}, {_number(entry.upper, digits)}]"
    if entry.rank is not None:
        text += f" r{entry.rank}"
    if entry.threshold is not None:
        text += f" t={_threshold(entry.threshold)}" + (" =const" if entry.equals_constant else "")
    return text


def _threshold(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:.3g}"


def _constants(cells: Mapping[tuple[str, str], Entry], labels: Sequence[str], digits: int) -> list[tuple[str, str]]:
    """(label, a constant metric's value) of each tie-calibrated column: what ``=const`` compares with."""
    found = []
    for label in labels:
        values = list(dict.fromkeys(_number(e.constant, digits) for (_, name), e in cells.items()
                                    if name == label and e.constant is not None))
        if values:
            found.append((label, " or ".join(values)))
    return found


def ties_notes(cells: Mapping[tuple[str, str], Entry], labels: Sequence[str], digits: int = 3) -> list[str]:
    """The note under a block with a tie-calibrated column: what ``t=`` is and what ``=const`` compares with.

    >>> cell = Entry("chrf", "segment", "kendall_ties_opt", "item", 0.48, math.nan, math.nan, None, 0.02, 0.48)
    >>> _cell(cell, 3)
    '0.480 t=0.02 =const'
    >>> print(ties_notes({("chrf", cell.label): cell}, [cell.label])[0])  # doctest: +NORMALIZE_WHITESPACE
    kendall_ties_opt (item): t= the calibrated tie threshold (metric score differences up to t are ties);
    a constant metric scores 0.480 (=const: equal to it)
    """
    return [f"{label}: t= the calibrated tie threshold (metric score differences up to t are ties); a constant "
            f"metric scores {value} (=const: equal to it)" for label, value in _constants(cells, labels, digits)]


def to_text(entries: Sequence[Entry], digits: int = 3) -> str:
    """Aligned plain-text blocks, one per level."""
    parts = []
    for level, labels, metrics, cells in _blocks(entries):
        rows = [["metric", *labels]] + [[m, *(_cell(cells.get((m, label)), digits) for label in labels)]
                                        for m in metrics]
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
        parts.append(f"{level} level\n" + "\n".join(lines + ties_notes(cells, labels, digits)))
    return "\n\n".join(parts)


def signature_lines(signatures: Mapping[str, Mapping[str, str]]) -> list[str]:
    """One line per metric: its signature, or those of its system and segment level when they differ (BLEU's
    sentence-level effective order).

    >>> signature_lines({"chrf": {"system": "nc:6", "segment": "nc:6"}, "bleu": {"system": "eff:no",
    ...                                                                        "segment": "eff:yes"}})
    ['chrf: nc:6', 'bleu: system eff:no, segment eff:yes']
    """
    return [f"{name}: {levels['system']}" if levels["system"] == levels["segment"] else
            f"{name}: system {levels['system']}, segment {levels['segment']}" for name, levels in signatures.items()]


def _plain(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


def entry_record(entry: Entry) -> dict[str, Any]:
    """One number of the JSON: the entry's fields (NaN as null) and, for the tie-calibrated Kendall, whether it
    equals a constant metric's value (``threshold``, ``constant``, ``equals_constant``; null elsewhere)."""
    return {**{key: _plain(value) for key, value in vars(entry).items()}, "equals_constant": entry.equals_constant}


def to_json(results: Mapping[str, Sequence[Entry]], about: Mapping[str, Any]) -> str:
    """A JSON object: ``about`` (inputs and settings) and ``results``, one object per number with the human score
    it is computed against (NaN as null)."""
    rows = [{"human": human, **entry_record(e)} for human, entries in results.items() for e in entries]
    return json.dumps({**about, "results": rows}, indent=2, ensure_ascii=False)


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "_": r"\_", "&": r"\&", "%": r"\%", "#": r"\#", "$": r"\$",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def _latex_text(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def to_latex(entries: Sequence[Entry], digits: int = 3) -> str:
    """One ``tabular`` per level (booktabs rules); metrics of rank 1 in bold, intervals in small type."""
    parts = []
    for level, labels, metrics, cells in _blocks(entries):
        lines = [f"% {level} level", r"\begin{tabular}{l" + "r" * len(labels) + "}", r"\toprule",
                 " & ".join(["Metric", *(_latex_text(label) for label in labels)]) + r" \\", r"\midrule"]
        for m in metrics:
            row = [_latex_text(m)]
            for label in labels:
                entry = cells.get((m, label))
                if entry is None:
                    row.append("--")
                    continue
                value = _number(entry.value, digits)
                value = rf"\textbf{{{value}}}" if entry.rank == 1 else value
                if not math.isnan(entry.lower):
                    value += rf" {{\small[{_number(entry.lower, digits)}, {_number(entry.upper, digits)}]}}"
                if entry.threshold is not None:
                    value += rf" {{\small $t$={_threshold(entry.threshold)}}}" + \
                        (r"$^{\dagger}$" if entry.equals_constant else "")
                row.append(value)
            lines.append(" & ".join(row) + r" \\")
        lines.append(r"\bottomrule")
        lines += [rf"\multicolumn{{{len(labels) + 1}}}{{l}}{{\footnotesize {_latex_text(label)}: $t$ the calibrated "
                  rf"tie threshold; a constant metric scores {value} ($^{{\dagger}}$: equal to it)}} \\"
                  for label, value in _constants(cells, labels, digits)]
        lines.append(r"\end{tabular}")
        parts.append("\n".join(lines))
    return "\n\n".join(parts)
