"""ROUGE-1.5.5 options that no stored output covers (-f B, -p, -l, -b, -s, -m with ROUGE-1..3, L, W-1.2, S4, SU4)
against values printed by the Perl script itself on random multi-sentence, multi-model documents
(tests/golden/rouge155_options.json, made by tests/golden/make_rouge155_options_golden.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from refscore.metrics.rouge import rouge155

GOLDEN = json.loads((Path(__file__).parent / "golden" / "rouge155_options.json").read_text(encoding="utf-8"))
TYPES = ("ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4", "ROUGE-SU4")


@pytest.mark.parametrize("config", sorted(GOLDEN["configs"]))
def test_per_document_values_and_averages_equal_the_script(config):
    expected = GOLDEN["configs"][config]
    docs = GOLDEN["documents"]
    result = rouge155([d["peer"] for d in docs], [d["models"] for d in docs], types=TYPES, **expected["options"])
    for name in TYPES:
        r = result[name]
        for i in range(len(docs)):
            got = [f"{r.recall[i]:.5f}", f"{r.precision[i]:.5f}", f"{r.fmeasure[i]:.5f}"]
            assert got == expected["evals"][name][f"{i + 1}.X"], (config, name, i, docs[i])
        for component in "RPF":
            p = r.printed[component]
            assert [f"{p.average:.5f}", f"{p.low:.5f}", f"{p.high:.5f}"] == expected["averages"][name][component]
