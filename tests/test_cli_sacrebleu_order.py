"""sacreBLEU's argument order on ``refscore score``: reference files as positional arguments before ``-i``
(``sacrebleu REF... -i HYP``, hypotheses from standard input without ``-i``), scored as sacreBLEU's own command
line scores them; both orders at once are refused."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from refscore.cli.exit_codes import ExitCode
from test_cli_process import refscore_command

METRICS = ("bleu", "chrf", "ter")


@pytest.fixture(scope="module")
def wmt17(tmp_path_factory) -> Path:
    """The bundled WMT17 en-de sample (300 segments): a reference, two systems; the second system serves as a
    second reference."""
    folder = tmp_path_factory.mktemp("wmt17")
    data = resources.files("refscore").joinpath("data", "wmt17_en_de")
    for name in ("ref.txt", "uedin-nmt.txt", "online-B.txt"):
        shutil.copyfile(str(data.joinpath(name)), folder / name)
    return folder


def sacrebleu_scores(arguments: list[str], cwd: Path, stdin: bytes | None = None) -> list[float]:
    result = subprocess.run([sys.executable, "-m", "sacrebleu", *arguments, "-m", *METRICS, "-f", "json", "-w", "16"],
                            cwd=cwd, input=stdin, capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return [entry["score"] for entry in json.loads(result.stdout)]


def refscore_scores(arguments: list[str], cwd: Path, stdin: bytes | None = None) -> list[float]:
    result = subprocess.run(refscore_command("score", *arguments, "-m", ",".join(METRICS), "--format", "json"),
                            cwd=cwd, input=stdin, capture_output=True, timeout=300)
    assert result.returncode == ExitCode.OK, result.stderr
    [system] = json.loads(result.stdout)
    return [system["scores"][metric]["score"] for metric in METRICS]


@pytest.mark.parametrize("arguments", [
    ["ref.txt", "-i", "uedin-nmt.txt"],
    ["ref.txt", "online-B.txt", "-i", "uedin-nmt.txt"],  # two references, as sacreBLEU reads them
])
def test_positional_references_score_as_sacrebleu(wmt17, arguments):
    expected = sacrebleu_scores(arguments, wmt17)
    assert refscore_scores(arguments, wmt17) == expected
    references = arguments[:arguments.index("-i")]
    with_flags = [part for reference in references for part in ("-r", reference)] + arguments[len(references):]
    assert refscore_scores(with_flags, wmt17) == expected


def test_positional_reference_with_hypotheses_on_stdin(wmt17):
    system = (wmt17 / "uedin-nmt.txt").read_bytes()
    assert refscore_scores(["ref.txt"], wmt17, stdin=system) == sacrebleu_scores(["ref.txt"], wmt17, stdin=system)


def test_both_orders_at_once_are_refused(wmt17):
    result = subprocess.run(refscore_command("score", "ref.txt", "-r", "online-B.txt", "-i", "uedin-nmt.txt"),
                            cwd=wmt17, capture_output=True, text=True, timeout=300)
    assert result.returncode == ExitCode.USAGE, result.stderr
    assert result.stderr.splitlines() == [
        "refscore: error: references given both with -r (online-B.txt) and as positional arguments (ref.txt); give "
        "them one way: -r REF.txt, or REF.txt before -i as in sacreBLEU"]


def test_no_reference_names_both_orders(wmt17):
    result = subprocess.run(refscore_command("score", "-i", "uedin-nmt.txt"), cwd=wmt17, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == ExitCode.USAGE
    assert result.stderr == ("refscore: error: score needs at least one reference file: -r REF.txt (or REF.txt before "
                             "-i, as in sacreBLEU)\n")
