"""fuzz/run.py's verdict (issue 40 item 15): a target that cannot run here (WordNet, an optional package missing)
is reported as unavailable with its reason, and is no finding, so a run without atheris where nothing failed exits
0 and says why coverage was not measured; a finding still exits 1."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
sys.path.insert(0, str(FUZZ))
from run import markdown_table, verdict  # noqa: E402

WORDNET = Path("/usr/share/wordnet/index.sense")


def row(target, returncode=0, **extra):
    return {"target": target, "seconds": 1, "executions": 5, "coverage": 0, "features": 0, "crashes": 0,
            "returncode": returncode, **extra}


def test_the_verdict_names_findings_unavailable_targets_and_what_was_not_measured():
    assert verdict([row("chrf"), row("meteor", unavailable="TargetUnavailable: no WordNet")], measured=True) == \
        "fuzz/run.py: no finding in 1 target; 1 unavailable here (meteor: TargetUnavailable: no WordNet)"
    assert verdict([row("chrf", 1, crashes=1), row("ter")], measured=False) == (
        "fuzz/run.py: 1 target(s) found something or failed: chrf; random bytes, coverage not measured (atheris is "
        "not installed or --random)")
    assert markdown_table([row("meteor", unavailable="TargetUnavailable: no WordNet")]).splitlines()[-1] == \
        "| `meteor` | 1 | 5 | 0 / 0 | unavailable here: TargetUnavailable: no WordNet |"


@pytest.mark.skipif(WORDNET.is_file(), reason="WordNet is installed: the meteor target runs here")
def test_a_run_without_atheris_and_without_wordnet_exits_0_saying_why(tmp_path):
    done = subprocess.run([sys.executable, str(FUZZ / "run.py"), "--random", "--seconds", "1", "--target", "meteor",
                           "--target", "records-jsonl", "--artifacts", str(tmp_path / "artifacts")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("fuzz/run.py: no finding in 1 target; 1 unavailable here (meteor: TargetUnavailable: "
                           "METEOR's tests need WordNet 3.0")
    assert last.endswith("random bytes, coverage not measured (atheris is not installed or --random)")
    assert not (tmp_path / "artifacts").exists() or not list((tmp_path / "artifacts").iterdir())
