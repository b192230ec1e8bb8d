"""docs/meta-evaluation.md's worked example on WMT21 TED prints the values ``refscore meta-eval`` computes now:
every statistic's value, the tie threshold and the ``=const`` mark of each metric (intervals and ranks need the
1,000 resamples of ``benchmarks/meta_worked_example.py``, which reruns the whole example; they are not checked
here). The segment-level BLEU figures went stale once when BLEU took effective order at the segment level."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from conftest import shared_data_path
from test_cli_process import refscore_command

PAGE = Path(__file__).resolve().parent.parent / "docs" / "meta-evaluation.md"
CELL = re.compile(r"(-?\d+\.\d+|nan)(?: \[[^]]*\])?(?: r\d+)?(?: t=(\S+))?( =const)?")


def documented(pair: str) -> dict[tuple[str, str, str], tuple[str, str | None, bool]]:
    """(level, metric, column) -> (value, threshold, =const) of the page's table for ``mqm_ted/PAIR.jsonl``."""
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"$ refscore meta-eval ../shared/data/mqm_ted/{pair}.jsonl -m bleu,chrf,ter --format text")
    block = text[start:text.index("signatures", start)]
    found = {}
    for level in ("system", "segment"):
        lines = block[block.index(f"{level} level"):].splitlines()[1:5]
        columns = re.split(r"\s{2,}", lines[0].strip())[1:]
        for line in lines[1:]:
            metric, rest = line.split(None, 1)
            cells = CELL.findall(rest)
            assert len(cells) == len(columns), line
            for column, (value, threshold, const) in zip(columns, cells):
                found[(level, metric, column)] = (value, threshold or None, bool(const))
    return found


@pytest.mark.parametrize("pair", ["ende", "zhen"])
def test_worked_example_values_are_current(pair, tmp_path):
    path = shared_data_path("mqm_ted", f"{pair}.jsonl")
    done = subprocess.run(refscore_command("meta-eval", str(path), "-m", "bleu,chrf,ter", "--bootstrap", "0", "--k",
                                           "0", "--format", "json"), cwd=tmp_path, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    page = documented(pair)
    computed = {}
    for row in json.loads(done.stdout)["results"]:
        column = row["statistic"] if row["level"] == "system" or row["grouping"] == "none" else \
            f"{row['statistic']} ({row['grouping']})"
        threshold = None if row["threshold"] is None else f"{row['threshold']:.3g}"
        computed[(row["level"], row["metric"], column)] = (f"{row['value']:.3f}", threshold,
                                                           bool(row["equals_constant"]))
    assert page == computed
