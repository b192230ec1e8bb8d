"""ROUGE-1.5.5's own release tests (sample-test/ + sample-output/): every printed average and 95% interval, for
every peer, of the 12 text-based configurations of runROUGE-test.pl, plus the tiny SPL example.

The 4 remaining configurations (DUC2002-BE-F/BE-L with ``-3 HM``) score Basic Elements triples, not text; they are
out of scope for refscore (see docs/rouge155.md).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from conftest import shared_data_path
from rouge155_perl_output import parse_perl_output

from refscore import per_segment
from refscore.metrics.rouge import perl_averages, read_summary, rouge155

FULL_TYPES = ("ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S*", "ROUGE-SU*")
NGRAM_L_TYPES = ("ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L")

# (config, output, options) exactly as in the release's runROUGE-test.pl
CONFIGURATIONS = [
    ("ROUGE-test.xml", "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a.out", {}),
    ("ROUGE-test.xml", "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m.out", {"stemming": True}),
    ("ROUGE-test.xml", "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m-s.out", {"stemming": True, "remove_stopwords": True}),
    ("ROUGE-test.xml", "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a.out", {"word_limit": 10}),
    ("ROUGE-test.xml", "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m.out", {"word_limit": 10, "stemming": True}),
    ("ROUGE-test.xml", "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m-s.out",
     {"word_limit": 10, "stemming": True, "remove_stopwords": True}),
    ("ROUGE-test.xml", "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a.out", {"byte_limit": 75}),
    ("ROUGE-test.xml", "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m.out", {"byte_limit": 75, "stemming": True}),
    ("ROUGE-test.xml", "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out",
     {"byte_limit": 75, "stemming": True, "remove_stopwords": True}),
    ("verify.xml", "verify-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out",
     {"byte_limit": 75, "stemming": True, "remove_stopwords": True}),
    ("verify-spl.xml", "verify-spl-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out",
     {"byte_limit": 75, "stemming": True, "remove_stopwords": True}),
    ("DUC2002-ROUGE.in.26.spl.xml", "DUC2002-ROUGE.in.26.spl.out", {"types": NGRAM_L_TYPES, "system": "26"}),
    ("DUC2002-ROUGE.in.26.spl.lst", "DUC2002-ROUGE.in.26.spl.lst.out", {"types": NGRAM_L_TYPES, "system": "26"}),
]


def read_config(path: Path) -> dict[str, list[tuple[str, str, list[str]]]]:
    """peer id -> [(eval id, peer text, model texts)] from a ROUGE XML config or an SPL file list (-z SPL)."""
    base = path.parent
    evals: dict[str, list[tuple[str, str, list[str]]]] = {}
    if path.suffix == ".lst":
        lines = [line.split() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
        return {"26": [(str(k + 1), read_summary(base / files[0], "SPL"),
                        [read_summary(base / f, "SPL") for f in files[1:]]) for k, files in enumerate(lines)]}
    for node in ET.parse(path).getroot().iter("EVAL"):
        fmt = node.find("INPUT-FORMAT").get("TYPE")
        peer_root = base / node.find("PEER-ROOT").text.strip()
        model_root = base / node.find("MODEL-ROOT").text.strip()
        models = [read_summary(model_root / m.text.strip(), fmt) for m in node.find("MODELS").iter("M")]
        for p in node.find("PEERS").iter("P"):
            evals.setdefault(p.get("ID"), []).append((node.get("ID"), read_summary(peer_root / p.text.strip(), fmt),
                                                      models))
    return evals


@pytest.mark.parametrize("config_name, output_name, options", CONFIGURATIONS,
                         ids=[c[1].removesuffix(".out") for c in CONFIGURATIONS])
def test_release_sample_averages_and_intervals(config_name, output_name, options):
    config = read_config(shared_data_path("rouge155", "sample-test", config_name))
    expected = parse_perl_output(shared_data_path("rouge155", "sample-output", output_name)).averages
    options = dict(options)
    types = options.pop("types", FULL_TYPES)
    systems = [options.pop("system")] if "system" in options else sorted(config)
    assert sorted(expected) == sorted(systems)
    for system in systems:
        eval_ids, peers, models = zip(*config[system])
        # per_segment: the release's 4 documents x 4 models would otherwise be refused as ambiguous
        result = rouge155(list(peers), per_segment([list(m) for m in models]), types=types, printed_averages=False,
                          num_threads=1, **options)
        for name in types:
            r = result[name]
            printed = perl_averages(np.stack([r.recall, r.precision, r.fmeasure], axis=1), eval_ids=eval_ids)
            for component, value in zip("RPF", printed):
                got = tuple(f"{x:.5f}" for x in (value.average, value.low, value.high))
                assert got == expected[system][name][component], (system, name, component)


def test_tiny_example_per_document_values():
    folder = shared_data_path("rouge155", "tiny_example")
    expected = parse_perl_output(folder / "expected_output.txt")
    result = rouge155([read_summary(folder / "sys1.spl")],
                      [[read_summary(folder / "ref1a.spl"), read_summary(folder / "ref1b.spl")]],
                      types=("ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4",
                             "ROUGE-SU4"), stemming=True)
    for name, values in expected.evals["1"].items():
        r = result[name]
        assert tuple(f"{x:.5f}" for x in (r.recall[0], r.precision[0], r.fmeasure[0])) == values["1.1"]
        for component in "RPF":
            p = r.printed[component]
            assert tuple(f"{x:.5f}" for x in (p.average, p.low, p.high)) == expected.averages["1"][name][component]
    # the acceptance values
    assert [f"{result[t].fmeasure[0]:.5f}" for t in ("ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4",
                                                     "ROUGE-SU4")] == \
        ["0.51429", "0.32258", "0.51429", "0.43098", "0.29565", "0.34246"]
