"""Parsing ROUGE-1.5.5.pl's printed output (``-d`` per-evaluation lines and the averages with intervals)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_EVAL = re.compile(r"^(\S+) (ROUGE-\S+) Eval (\S+) R:(\S+) P:(\S+) F:(\S+)$")
_AVERAGE = re.compile(r"^(\S+) (ROUGE-\S+) Average_([RPF]): (\S+) \(\S+-conf\.int\. (\S+) - (\S+)\)$")


@dataclass
class PerlOutput:
    """``evals[system][type][test_id] = (R, P, F)`` and ``averages[system][type][component] = (avg, low, high)``,
    all as the printed strings."""

    evals: dict[str, dict[str, dict[str, tuple[str, str, str]]]] = field(default_factory=dict)
    averages: dict[str, dict[str, dict[str, tuple[str, str, str]]]] = field(default_factory=dict)


def parse_perl_output(path: Path) -> PerlOutput:
    out = PerlOutput()
    for line in path.read_text(encoding="utf-8").splitlines():
        if m := _EVAL.match(line):
            system, rouge_type, test_id, r, p, f = m.groups()
            out.evals.setdefault(system, {}).setdefault(rouge_type, {})[test_id] = (r, p, f)
        elif m := _AVERAGE.match(line):
            system, rouge_type, component, avg, low, high = m.groups()
            out.averages.setdefault(system, {}).setdefault(rouge_type, {})[component] = (avg, low, high)
    return out
