"""Metadata values that look numeric but are not numbers (issue 40 item 12): ``1.2.3`` as a bucket is a category,
never "could not convert string to float"; a field whose every value is a number keeps numeric order."""
from __future__ import annotations

import json
import re

import pytest

from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main

pytest.importorskip("bokeh", reason="the report needs the 'report' extra: pip install 'refscore[report]'")

from refscore.reporting import analysis  # noqa: E402


def embedded(page: str, element_id: str):
    match = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>', page, re.S)
    return json.loads(match.group(1))


@pytest.mark.parametrize("values, order", [
    (["1.2.3", "1.10.0", "1.2.3"], ["1.2.3", "1.10.0"]),
    (["2.0", "1.."], ["2.0", "1.."]),
    (["3rd", "1st"], ["3rd", "1st"]),
    (["v2", "10"], ["v2", "10"]),
    (["", "5"], ["", "5"]),
    (["< b", "≥ a"], ["< b", "≥ a"]),
    (["10", "9", "-1", "2.5", "1e3"], ["-1", "2.5", "9", "10", "1e3"]),
    (["≥ 30", "5–9", "< 5", "10–29"], ["< 5", "5–9", "10–29", "≥ 30"]),
    (["22%–29%", "< 22%", "≥ 29%"], ["< 22%", "22%–29%", "≥ 29%"]),
])
def test_bucket_order_numbers_only_when_every_label_is_one(values, order):
    assert analysis.bucket_order(values) == order


def test_report_of_version_like_metadata(tmp_path) -> None:
    versions = ["1.2.3", "1.10.0", "1.2.3", "2.0.0.1"]
    records = [{"system": s, "prediction": h, "references": [r], "version": v}
               for s in ("A", "B") for h, r, v in zip(["a b", "c", "e f", "g h"], ["a b", "c d", "e", "g h i"],
                                                       versions)]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", "-i", str(path), "-m", "bleu", "-o", str(out), "--n", "20"]) == ExitCode.OK
    buckets = embedded(out.read_text(encoding="utf-8"), "refscore-data")["segments"]["buckets"]
    assert buckets["version"]["labels"] == ["1.2.3", "1.10.0", "2.0.0.1"]
    assert buckets["version"]["index"] == [0, 1, 0, 2]
