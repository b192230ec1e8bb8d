"""The ``refscore`` process stopped early, in real subprocesses: Ctrl-C (exit 130, one line on stderr), a closed
standard input or output (a clear error), a reader that goes away (``| head -1``: no noise), and files that are
never left half-written; plus ``--progress/--no-progress``."""
from __future__ import annotations

import io
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from refscore.io.atomic import atomic_path, atomic_write
from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main
from refscore.cli.process import INTERRUPTED_MESSAGE, TERMINATED_MESSAGE

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and shell redirections")

WORDS = ("the cat sat on a mat dog ran fast slow big small red blue window yesterday government price order "
         "goods euros package number weather").split()
#: More than a pipe's buffer (64 KiB on Linux): once a write of this much to the child's stdin has returned, the
#: child is reading it, so it is inside ``main()`` (past Python's start-up, where Ctrl-C is Python's business).
PAST_PIPE_BUFFER = 150_000


def lines(count: int, seed: int, words_per_line: int = 8) -> str:
    rng = random.Random(seed)
    return "".join(" ".join(rng.choice(WORDS) for _ in range(words_per_line)) + "\n" for _ in range(count))


def write_cases(path: Path, count: int) -> None:
    """A JSONL test-case file of ``count`` cases, ``lines(count, 2)`` against ``lines(count, 1)``."""
    cases = [{"actual_output": hyp, "expected_output": ref}
             for hyp, ref in zip(lines(count, 2).splitlines(), lines(count, 1).splitlines())]
    path.write_text("".join(json.dumps(case) + "\n" for case in cases), encoding="utf-8")


def refscore_command(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from refscore.cli.main import main; sys.exit(main())", *args]


def default_sigint() -> None:
    """Give the child the default SIGINT disposition: a shell starts background jobs with SIGINT ignored, the
    child would inherit that across exec, and Python then installs no KeyboardInterrupt handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(refscore_command(*args), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=default_sigint)


def shell(script: str, cwd: Path) -> subprocess.CompletedProcess:
    """``script`` in bash, with ``refscore`` running this interpreter's refscore."""
    if shutil.which("bash") is None:
        pytest.skip("needs bash for the redirections <&- and >&-")
    command = " ".join(f"'{part}'" for part in refscore_command())
    return subprocess.run(["bash", "-c", f"refscore() {{ {command} \"$@\"; }}\n{script}"], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def read_stderr_until(process: subprocess.Popen, marker: bytes, timeout: float) -> bytes:
    """The child's stderr up to (and including) the first ``marker``."""
    seen = b""
    deadline = time.monotonic() + timeout
    while marker not in seen:
        remaining = deadline - time.monotonic()
        assert remaining > 0 and process.poll() is None, f"{marker!r} never appeared; stderr: {seen[-2000:]!r}"
        if select.select([process.stderr], [], [], remaining)[0]:
            seen += os.read(process.stderr.fileno(), 65536)
    return seen


def other_stderr_lines(stderr: bytes, bar: str | None = None) -> list[str]:
    """The lines of stderr that are not renderings of a progress bar named ``bar`` (tqdm redraws with ``\\r``)."""
    pieces = stderr.decode("utf-8", "replace").replace("\r", "\n").split("\n")
    return [piece for piece in pieces if piece.strip() and not (bar and bar in piece)]


def assert_interrupted(process: subprocess.Popen, stderr_so_far: bytes = b"", bar: str | None = None) -> None:
    process.send_signal(signal.SIGINT)
    if process.stdin is not None and process.stdin.closed:
        process.stdin = None  # communicate() would flush it
    out, err = process.communicate(timeout=120)
    stderr = stderr_so_far + err
    assert process.returncode == ExitCode.INTERRUPTED == 130, stderr.decode()
    assert other_stderr_lines(stderr, bar) == [INTERRUPTED_MESSAGE], stderr.decode()
    assert out == b""


# -- Ctrl-C ------------------------------------------------------------------------------------------------------
def test_ctrl_c_during_bertscore_exits_130_with_one_line(tiny_bert, tmp_path):
    (tmp_path / "ref.txt").write_text(lines(8_000, 1, 5), encoding="utf-8")
    (tmp_path / "hyp.txt").write_text(lines(8_000, 2, 5), encoding="utf-8")
    process = start("score", "-m", "bertscore", "--bertscore-model", tiny_bert, "--bertscore-layers", "2",
                    "-r", "ref.txt", "-i", "hyp.txt", "--progress", "--num-threads", "1", cwd=tmp_path)
    stderr = read_stderr_until(process, b"BERTScore embedding", timeout=240)  # the bar: embedding has begun
    assert_interrupted(process, stderr, bar="BERTScore embedding")


def test_ctrl_c_during_paired_bootstrap_exits_130_with_one_line(tmp_path):
    (tmp_path / "ref.txt").write_text(lines(2_500, 1, 16), encoding="utf-8")
    (tmp_path / "base.txt").write_text(lines(2_500, 2, 16), encoding="utf-8")
    # 20,000 resamples of 2,500 segments: several seconds of resampling
    process = start("compare", "-r", "ref.txt", "-i", "base.txt", "-", "--paired-bs", "--n", "20000", cwd=tmp_path)
    system = lines(2_500, 3, 16).encode()
    assert len(system) > PAST_PIPE_BUFFER
    try:
        process.stdin.write(system)
        process.stdin.close()
    except BaseException:
        process.kill()
        raise
    time.sleep(0.5)  # into the resampling (a signal before it, while reading or scoring, must end the same way)
    assert_interrupted(process)


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_signal_inside_a_long_kernel_call_stops_it(tmp_path, how):
    """EED of two 120,000-character lines is minutes of one nogil dynamic programme: the kernel polls for the
    signal once per row (_core/_interrupt.hpp), so the process ends at once with its status and one line."""
    (tmp_path / "ref.txt").write_text("x " * 59_999 + "y\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("x " * 60_000 + "\n", encoding="utf-8")
    process = start("score", "-m", "eed", "-r", "ref.txt", "-i", "hyp.txt", cwd=tmp_path)
    process.stdin.close()
    process.stdin = None
    time.sleep(3)   # reading and preprocessing take well under a second: the kernel is running
    assert process.poll() is None
    process.send_signal(getattr(signal, how))
    sent = time.perf_counter()
    out, err = process.communicate(timeout=120)
    assert time.perf_counter() - sent < 10   # without the poll: minutes
    code, message = ((ExitCode.INTERRUPTED, INTERRUPTED_MESSAGE) if how == "SIGINT"
                     else (ExitCode.TERMINATED, TERMINATED_MESSAGE))
    assert process.returncode == code, err.decode()
    assert other_stderr_lines(err) == [message], err.decode()
    assert out == b""


def test_ctrl_c_while_reading_stdin(tmp_path):
    (tmp_path / "ref.txt").write_text(lines(10, 1), encoding="utf-8")
    process = start("score", "-r", "ref.txt", "-i", "-", cwd=tmp_path)
    process.stdin.write(b"x" * PAST_PIPE_BUFFER)  # stdin stays open: refscore waits for the rest
    process.stdin.flush()
    assert_interrupted(process)


# -- closed and broken streams -----------------------------------------------------------------------------------
def test_closed_stdin_is_a_clear_error(tmp_path):
    (tmp_path / "ref.txt").write_text(lines(5, 1), encoding="utf-8")
    result = shell("refscore score -r ref.txt <&-", tmp_path)
    assert result.returncode == ExitCode.UNREADABLE_FILE, result.stderr
    assert result.stderr.strip().splitlines() == [
        "refscore: error: standard input is closed; give the input as a file (-i FILE, -r FILE) or pipe it in "
        "(... | refscore ...)"]


@pytest.mark.parametrize("stdin", [None, "closed file"])
def test_missing_or_closed_stdin_object(tmp_path, monkeypatch, capsys, stdin):
    (tmp_path / "ref.txt").write_text(lines(5, 1), encoding="utf-8")
    if stdin == "closed file":
        stdin = io.TextIOWrapper(io.BytesIO(b"a\n"))
        stdin.close()
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["score", "-r", str(tmp_path / "ref.txt")]) == ExitCode.UNREADABLE_FILE
    err = capsys.readouterr().err
    assert err.startswith("refscore: error:") and "standard input" in err and "-i FILE" in err
    assert len(err.strip().splitlines()) == 1


def test_closed_stdout_is_a_clear_error(tmp_path):
    (tmp_path / "ref.txt").write_text(lines(5, 1), encoding="utf-8")
    result = shell("refscore score -r ref.txt -i ref.txt >&-", tmp_path)
    assert result.returncode == ExitCode.UNWRITABLE_OUTPUT, result.stderr
    assert result.stderr.strip().splitlines() == [
        "refscore: error: standard output is closed; redirect it to a file (> FILE) or to /dev/null"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_full_disk_is_a_clear_error(tmp_path):
    (tmp_path / "ref.txt").write_text(lines(5, 1), encoding="utf-8")
    result = shell("refscore score -r ref.txt -i ref.txt --segments > /dev/full", tmp_path)
    assert result.returncode == ExitCode.UNWRITABLE_OUTPUT, result.stderr
    assert result.stderr.strip().splitlines() == [
        "refscore: error: cannot write the output: No space left on device; free some space or write elsewhere"]


def test_broken_pipe_is_quiet(tmp_path):
    (tmp_path / "ref.txt").write_text(lines(20_000, 1), encoding="utf-8")
    (tmp_path / "hyp.txt").write_text(lines(20_000, 2), encoding="utf-8")
    result = shell("refscore score -m bleu,chrf -r ref.txt -i hyp.txt --segments | head -1\n"
                   "echo \"status ${PIPESTATUS[0]}\"", tmp_path)
    assert result.stdout.splitlines() == ["system\tsegment\tbleu\tchrf", f"status {ExitCode.BROKEN_PIPE}"]
    assert result.stderr == ""


# -- files are complete or absent --------------------------------------------------------------------------------
@pytest.mark.parametrize("existing", [False, True])
def test_interrupted_write_leaves_no_partial_file(tmp_path, existing):
    target = tmp_path / "baseline.tsv"
    if existing:
        target.write_text("the old file\n", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt), atomic_write(target) as handle:
        handle.write("LAYER,P,R,F\n0,0.5,")
        handle.flush()
        raise KeyboardInterrupt
    assert sorted(p.name for p in tmp_path.iterdir()) == (["baseline.tsv"] if existing else [])
    if existing:
        assert target.read_text(encoding="utf-8") == "the old file\n"


def test_atomic_write_replaces_and_keeps_permissions(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    with atomic_write(target) as handle:
        handle.write("new")
    assert target.read_text(encoding="utf-8") == "new" and (target.stat().st_mode & 0o777) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    with atomic_path(tmp_path / "plot.png") as temporary:
        assert temporary.endswith(".png") and Path(temporary).parent == tmp_path


def test_ctrl_c_during_bertscore_baseline_keeps_the_old_output(tiny_bert, tmp_path):
    (tmp_path / "corpus.txt").write_text(lines(400, 5, 5), encoding="utf-8")
    (tmp_path / "base.tsv").write_text("the old file\n", encoding="utf-8")
    process = start("bertscore-baseline", "--model", tiny_bert, "--corpus", "corpus.txt", "--pairs", "2000000",
                    "-o", "base.tsv", "--progress", "--num-threads", "1", cwd=tmp_path)
    stderr = read_stderr_until(process, b"BERTScore embedding", timeout=240)
    assert_interrupted(process, stderr, bar="BERTScore embedding")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.tsv", "corpus.txt"]
    assert (tmp_path / "base.tsv").read_text(encoding="utf-8") == "the old file\n"


def test_bertscore_baseline_writes_its_file(tiny_bert, tmp_path):
    (tmp_path / "corpus.txt").write_text(lines(50, 5, 5), encoding="utf-8")
    result = subprocess.run(refscore_command("bertscore-baseline", "--model", tiny_bert, "--corpus", "corpus.txt",
                                             "--pairs", "40", "-o", "base.tsv"), cwd=tmp_path, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "base.tsv").read_text(encoding="utf-8").startswith("LAYER,P,R,F\n0,")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.tsv", "corpus.txt"]


# -- progress bars -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("flag, shown", [("--progress", True), ("--no-progress", False), (None, False)])
def test_progress_flag(tiny_bert, tmp_path, capsys, flag, shown):
    """--progress forces the bar on stderr, --no-progress keeps it off; by default it is off when stderr is not a
    terminal (here: pytest's capture). stdout holds only the results."""
    (tmp_path / "ref.txt").write_text(lines(30, 1, 5), encoding="utf-8")
    (tmp_path / "hyp.txt").write_text(lines(30, 2, 5), encoding="utf-8")
    args = ["score", "-m", "bertscore", "--bertscore-model", tiny_bert, "--bertscore-layers", "2",
            "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "--format", "json"]
    assert main(args + ([flag] if flag else [])) == ExitCode.OK
    captured = capsys.readouterr()
    assert ("BERTScore embedding" in captured.err) == shown, captured.err
    assert other_stderr_lines(captured.err.encode(), "BERTScore embedding") == []
    assert captured.out.lstrip().startswith("[")


def test_compare_accepts_progress_flags(tmp_path, capsys):
    (tmp_path / "ref.txt").write_text(lines(20, 1), encoding="utf-8")
    (tmp_path / "a.txt").write_text(lines(20, 2), encoding="utf-8")
    (tmp_path / "b.txt").write_text(lines(20, 3), encoding="utf-8")
    for flag in ("--progress", "--no-progress"):
        assert main(["compare", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "a.txt"),
                     str(tmp_path / "b.txt"), "--n", "20", flag]) == ExitCode.OK
    assert "Paired bootstrap" in capsys.readouterr().out



def test_only_a_bar_of_the_interrupted_command_moves_the_message_to_a_fresh_line(capsys) -> None:
    """A bar that an earlier command in the same process drew and closed (it cleared its line) must not put an
    empty line before the message; a bar of the interrupted command itself does."""
    import signal

    from refscore.progress import progress_bar
    from refscore.cli.process import guarded

    def interrupted() -> int:
        raise KeyboardInterrupt

    def interrupted_during_a_bar() -> int:
        progress_bar(3, "now", enabled=True).update(1)
        raise KeyboardInterrupt

    handler = signal.getsignal(signal.SIGINT)
    try:
        with progress_bar(3, "earlier", enabled=True) as bar:
            bar.update(3)
        capsys.readouterr()
        assert guarded(interrupted)() == 130
        assert capsys.readouterr().err == "refscore: interrupted\n"
        assert guarded(interrupted_during_a_bar)() == 130
        assert capsys.readouterr().err.endswith("\nrefscore: interrupted\n")
    finally:
        signal.signal(signal.SIGINT, handler)


# -- SIGTERM (issue 40, item 8): handled as Ctrl-C -------------------------------------------------------------------
def write_items(path: Path, count: int, width: int) -> None:
    rng = random.Random(5)
    path.write_text("".join(json.dumps({"candidates": [" ".join(rng.choice(WORDS) for _ in range(12))
                                                       for _ in range(width)]}) + "\n" for _ in range(count)),
                    encoding="utf-8")


def wait_for(condition, process: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.02)


def catches_sigterm(process: subprocess.Popen) -> bool:
    """Whether the process has a handler for SIGTERM (Linux: the SigCgt mask of /proc/PID/status)."""
    with open(f"/proc/{process.pid}/status", encoding="ascii") as status:
        caught = next(line for line in status if line.startswith("SigCgt:")).split()[1]
    return bool(int(caught, 16) & (1 << (signal.SIGTERM - 1)))


def assert_terminated(process: subprocess.Popen, line: str = TERMINATED_MESSAGE) -> None:
    process.send_signal(signal.SIGTERM)
    if process.stdin is not None and process.stdin.closed:
        process.stdin = None
    out, err = process.communicate(timeout=120)
    assert process.returncode == ExitCode.TERMINATED == 143, err.decode()
    assert other_stderr_lines(err) == [line], err.decode()
    assert out == b""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the signal mask from /proc (Linux)")
@pytest.mark.parametrize("command", [["mbr", "-o", "out/sel.jsonl"], ["pairwise", "-o", "out/m.npy"],
                                     ["mbr", "-o", "out/sel.jsonl", "--matrices", "out/m.npz"]])
def test_sigterm_while_writing_exits_143_and_leaves_no_file(tmp_path, command):
    """SIGTERM (timeout, CI, Kubernetes) used to kill the process silently, leaving hidden temporary files."""
    write_items(tmp_path / "items.jsonl", 3_000, 20)
    (tmp_path / "out").mkdir()
    process = start(*command, "-i", "items.jsonl", "--no-progress", cwd=tmp_path)
    if "--matrices" in command:   # every item is read and scored before the files are begun
        wait_for(lambda: catches_sigterm(process), process)
        time.sleep(0.5)
    else:
        wait_for(lambda: any(name.endswith(".tmp.jsonl") or name.endswith(".tmp.npy")
                             for name in os.listdir(tmp_path / "out")), process)
    assert_terminated(process)
    assert os.listdir(tmp_path / "out") == []


def test_sigterm_while_reading_stdin(tmp_path):
    (tmp_path / "ref.txt").write_text(lines(10, 1), encoding="utf-8")
    process = start("score", "-r", "ref.txt", "-i", "-", cwd=tmp_path)
    process.stdin.write(b"x" * PAST_PIPE_BUFFER)   # past start-up: inside main()
    process.stdin.flush()
    assert_terminated(process)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the signal mask from /proc (Linux)")
def test_sigterm_during_check_says_no_report_file_was_written(tmp_path):
    cases = [{"actual_output": hyp, "expected_output": ref}
             for hyp, ref in zip(lines(20_000, 2, 30).splitlines(), lines(20_000, 1, 30).splitlines())]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    process = start("check", "cases.jsonl", "-c", "ter=0.1", "--n-bootstrap", "100000", "--save", "run.json",
                    "--junit-xml", "j.xml", cwd=tmp_path)
    wait_for(lambda: catches_sigterm(process), process)   # inside main()
    time.sleep(0.5)
    assert_terminated(process, f"{TERMINATED_MESSAGE}; no report file was written")
    assert os.listdir(tmp_path) == ["cases.jsonl"]


def test_a_sigterm_the_parent_ignores_stays_ignored():
    """``nohup``-style parents set SIGTERM to be ignored: the command must not install a handler over that."""
    code = ("import signal, sys; signal.signal(signal.SIGTERM, signal.SIG_IGN); from refscore.cli.process import "
            "guarded; sys.exit(guarded(lambda: int(signal.getsignal(signal.SIGTERM) == signal.SIG_IGN))())")
    assert subprocess.run([sys.executable, "-c", code], timeout=120).returncode == 1
