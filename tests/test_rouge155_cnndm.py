"""ROUGE-1.5.5 parity on CNN/DailyMail (See et al. 2017, 3 systems x 11,490 documents): every document's printed
R/P/F of ROUGE-1..4, L, W-1.2, S* and SU*, and the printed averages with their 95% bootstrap intervals, equal the
Perl script's output (``-e data -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m -d -z SPL``)."""
from __future__ import annotations

import json

import pytest
from conftest import shared_data_path
from rouge155_perl_output import parse_perl_output

from refscore.metrics.rouge import rouge155

TYPES = ("ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S*", "ROUGE-SU*")


@pytest.mark.parametrize("system", ["baseline", "pointer-gen", "pointer-gen-cov"])
def test_every_document_and_the_printed_averages(system):
    rows = [json.loads(line) for line in
            shared_data_path("summ_cnndm_see2017", f"{system}.jsonl").read_text(encoding="utf-8").splitlines()]
    perl = parse_perl_output(shared_data_path("summ_cnndm_see2017", "rouge155",
                                              f"{system}.rouge155_pyrouge_default_m.out"))
    (peer_id,) = perl.evals
    result = rouge155([r["prediction"] for r in rows], [r["references"] for r in rows], types=TYPES, stemming=True)
    for name in TYPES:
        expected = perl.evals[peer_id][name]
        r = result[name]
        got = {f"{int(row['id']) + 1}.{peer_id}": (f"{r.recall[i]:.5f}", f"{r.precision[i]:.5f}",
                                                    f"{r.fmeasure[i]:.5f}")
               for i, row in enumerate(rows)}
        mismatches = [(k, expected[k], v) for k, v in got.items() if expected[k] != v]
        assert len(got) == len(expected) == 11490
        assert not mismatches, f"{name}: {len(mismatches)} documents differ, e.g. {mismatches[:3]}"
        for component in "RPF":
            printed = r.printed[component]
            assert (f"{printed.average:.5f}", f"{printed.low:.5f}", f"{printed.high:.5f}") == \
                perl.averages[peer_id][name][component], (name, component)


CLI_TYPES = ("ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU*")


def test_command_line_prints_the_scripts_averages_and_intervals(capsys):
    """``refscore score -m rouge155``: the Perl script's ``Average_X`` and 95% interval (not the plain mean of
    the documents), in JSON (0–100) and in the text table (``-w 3`` shows all of the script's 5 decimals)."""
    from refscore.cli.main import main

    path = shared_data_path("summ_cnndm_see2017", "baseline.jsonl")
    perl = parse_perl_output(shared_data_path("summ_cnndm_see2017", "rouge155",
                                              "baseline.rouge155_pyrouge_default_m.out")).averages["baseline"]
    args = ["score", "-m", "rouge155", "-i", str(path), "--rouge155-types", ",".join(CLI_TYPES), "--rouge155-stem"]
    assert main([*args, "--format", "json"]) == 0
    score = json.loads(capsys.readouterr().out)[0]["scores"]["rouge155"]
    for name in CLI_TYPES:
        for component in "RPF":
            average = score["averages"][name][component]
            low, high = score["intervals"][name][component]
            assert tuple(f"{value / 100:.5f}" for value in (average, low, high)) == perl[name][component]
    assert f"{score['score'] / 100:.5f}" == perl["ROUGE-1"]["F"][0] == "0.31333"
    assert main([*args, "-w", "3"]) == 0
    header, _, row = capsys.readouterr().out.splitlines()[:3]
    assert header.split()[1:3] == ["ROUGE-1-F", "[CI]"]
    average, low, high = (f"{100 * float(value):.3f}" for value in perl["ROUGE-1"]["F"])
    assert f"{average} [{low}, {high}]" in row
