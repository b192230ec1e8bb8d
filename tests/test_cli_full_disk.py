"""Output files on a full disk (issue 40, items 2 and 9): one ``refscore: error:`` line naming the flag and the
file, exit status 9 (``check`` said 4, the unreadable-input code, with a bare "No space left on device"), no
signal, no file and no temporary file left; and ``check --calibrate`` checks its configuration file is writable
before the work. A real full disk where the tests run as root (a
1 MiB tmpfs, filled up to its last pages); everywhere, a file size limit (``ulimit -f``: Python ignores SIGXFSZ,
so a write past it fails with EFBIG)."""
from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from refscore.cli.exit_codes import ExitCode
from test_cli_process import lines, refscore_command, write_cases

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="tmpfs and rlimits: Linux")

#: Bytes left free on the full disk: a few pages, less than any output below.
FREE_BYTES = 8192


def write_items(path: Path, count: int = 40, width: int = 30) -> None:
    rng = random.Random(1)
    words = "the cat sat on a mat dog ran fast".split()
    text = lambda: " ".join(rng.choice(words) for _ in range(5))  # noqa: E731
    path.write_text("".join(json.dumps({"candidates": [text() for _ in range(width)],
                                        "references": [text() for _ in range(width)]}) + "\n"
                            for _ in range(count)), encoding="utf-8")


@contextlib.contextmanager
def mounted_full_disk(folder: Path) -> Iterator[Path]:
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1M", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {mounted.stderr.decode().strip()}")
    try:
        with open(folder / "filler", "wb") as handle:
            handle.write(b"\0" * (shutil.disk_usage(folder).free - FREE_BYTES))
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


@pytest.fixture
def workdir(tmp_path) -> Path:
    write_items(tmp_path / "items.jsonl")
    (tmp_path / "ref.txt").write_text(lines(300, 1), encoding="utf-8")
    (tmp_path / "a.txt").write_text(lines(300, 2), encoding="utf-8")
    write_cases(tmp_path / "cases.jsonl", 200)
    return tmp_path


#: Each command with an output, ``{out}`` where the path on the full disk goes.
COMMANDS = {
    "pairwise -o .npy": ["pairwise", "-i", "items.jsonl", "-o", "{out}/m.npy"],
    "pairwise -o .npy (stdin)": ["pairwise", "-o", "{out}/m.npy"],
    "pairwise -o .jsonl": ["pairwise", "-i", "items.jsonl", "-o", "{out}/m.jsonl"],
    "mbr -o": ["mbr", "-i", "items.jsonl", "-o", "{out}/sel.jsonl"],
    "mbr --matrices": ["mbr", "-i", "items.jsonl", "-o", "sel.jsonl", "--matrices", "{out}/m.npz"],
    "check --save": ["check", "cases.jsonl", "-c", "bleu=0.0", "--save", "{out}/run.json"],
    "check --junit-xml": ["check", "cases.jsonl", "-c", "bleu=0.0", "--junit-xml", "{out}/j.xml"],
    "report -o": ["report", "-r", "ref.txt", "-i", "a.txt", "ref.txt", "-m", "bleu", "--n", "20",
                  "-o", "{out}/r.html"],
}


def run(arguments: list[str], out: Path, cwd: Path, preexec_fn=None) -> subprocess.CompletedProcess:
    command = refscore_command(*[part.replace("{out}", str(out)) for part in arguments])
    stdin = (cwd / "items.jsonl").read_bytes() if "-i" not in arguments else b""
    return subprocess.run(command, cwd=cwd, input=stdin, capture_output=True, timeout=300, preexec_fn=preexec_fn)


def assert_full(result: subprocess.CompletedProcess, arguments: list[str], out: Path, reason: str) -> None:
    stderr = result.stderr.decode()
    assert result.returncode == ExitCode.UNWRITABLE_OUTPUT == 9, (result.returncode, stderr)
    flag = next(part for part in arguments if "{out}" in part)
    flag = ("" if arguments[0] == "report" else arguments[arguments.index(flag) - 1] + " ") + flag.replace(
        "{out}", str(out))   # report() writes its page in the library, which names the file only
    assert stderr.splitlines() == [f"refscore: error: {flag}: cannot write it ({reason}); free some space or "
                                   f"write elsewhere"], stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs (a real full disk) needs root")
@pytest.mark.parametrize("command", COMMANDS)
def test_a_full_disk_is_exit_9_naming_the_file(workdir, command):
    arguments = COMMANDS[command]
    with mounted_full_disk(workdir / "disk") as disk:
        result = run(arguments, disk, workdir)
        assert_full(result, arguments, disk, "No space left on device")
        assert sorted(os.listdir(disk)) == ["filler"]   # no output, no temporary file
    assert not (workdir / "sel.jsonl").exists() or command != "mbr --matrices"


def _file_size_limit() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


@pytest.mark.parametrize("command", COMMANDS)
def test_a_file_size_limit_is_exit_9_naming_the_file(workdir, command):
    arguments = COMMANDS[command]
    (workdir / "out").mkdir()
    result = run(arguments, workdir / "out", workdir, preexec_fn=_file_size_limit)
    assert_full(result, arguments, workdir / "out", "File too large")
    assert os.listdir(workdir / "out") == []


def test_the_npy_written_without_a_map_is_the_same_array(workdir):
    import numpy as np

    done = run(["pairwise", "-i", "items.jsonl", "-o", "{out}/m.npy"], workdir, workdir)
    assert done.returncode == 0, done.stderr
    rows = subprocess.run(refscore_command("pairwise", "-i", "items.jsonl"), cwd=workdir, capture_output=True,
                          text=True, timeout=300)
    expected = np.array([json.loads(line)["scores"] for line in rows.stdout.splitlines()])
    np.testing.assert_array_equal(np.load(workdir / "m.npy"), expected)


@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[Path]:
    """A folder where no file can be created: a read-only tmpfs as root (root may write in any folder), else a
    folder without write permission."""
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a read-only tmpfs: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_calibrate_checks_the_configuration_is_writable_before_the_work(workdir, monkeypatch, capsys):
    """``check --calibrate --config ro/cal.toml`` did all the work, then failed on the temporary file."""
    from refscore.cli import calibrate
    from refscore.cli.main import main

    labelled = [dict(json.loads(line), label="pass" if k % 2 else "fail")
                for k, line in enumerate((workdir / "cases.jsonl").read_text(encoding="utf-8").splitlines())]
    (workdir / "labels.jsonl").write_text("".join(json.dumps(c) + "\n" for c in labelled), encoding="utf-8")

    def no_work(*args, **kwargs):
        raise AssertionError("calibrated before checking the output")

    monkeypatch.setattr(calibrate, "calibrations", no_work)
    monkeypatch.chdir(workdir)
    with read_only_folder(workdir / "ro"):
        code = main(["check", "--calibrate", "labels.jsonl", "-c", "chrf", "--config", "ro/cal.toml"])
    captured = capsys.readouterr()
    assert code == ExitCode.UNWRITABLE_OUTPUT, captured.err
    assert captured.out == ""
    assert captured.err.startswith("refscore: error: --config ro/cal.toml: cannot create a file in "), captured.err
    assert len(captured.err.splitlines()) == 1
