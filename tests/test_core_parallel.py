"""Thread-count policy of the compiled core."""
from __future__ import annotations

import pytest

import refscore
from refscore._core import openmp_enabled, resolve_num_threads


def test_explicit_thread_count_and_validation():
    assert resolve_num_threads(1) == 1
    with pytest.raises(ValueError, match=">= 1"):
        resolve_num_threads(0)
    with pytest.raises(TypeError):
        resolve_num_threads(1.5)


def test_environment_variable(monkeypatch):
    monkeypatch.setenv("REFSCORE_NUM_THREADS", "2")
    assert resolve_num_threads() == (2 if openmp_enabled() else 1)
    monkeypatch.setenv("REFSCORE_NUM_THREADS", "many")
    with pytest.raises(ValueError, match="REFSCORE_NUM_THREADS"):
        resolve_num_threads()


def test_show_config_reports_build():
    config = refscore.show_config()
    assert config["version"] == refscore.__version__
    assert isinstance(config["openmp"], bool)


# -- issue 40 item 1: a huge thread count, and a system that refuses threads -------------------------------------
import os  # noqa: E402
import resource  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from refscore._core._parallel import MAX_THREADS, THREAD_FAILURE_EXIT, THREADS_PER_CPU, thread_limit, usable_cpus  # noqa: E402
from refscore.cli.exit_codes import ExitCode  # noqa: E402

_SCORE = ("import sys, refscore; metric = getattr(refscore, sys.argv[1]); n = sys.argv[2]; "
          "print(repr(metric(['the cat sat on the mat'] * 64, ['the cat is here'] * 64, "
          "num_threads=None if n == 'env' else int(n)).score))")


def _address_limit(gib: int | None):
    def apply() -> None:
        if gib is not None:
            resource.setrlimit(resource.RLIMIT_AS, (gib << 30, gib << 30))
    return apply


def _run(args: list[str], env: dict[str, str] | None = None, gib: int | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})}, preexec_fn=_address_limit(gib))


def test_thread_limit_caps_every_request(monkeypatch):
    assert thread_limit() == min(THREADS_PER_CPU * usable_cpus(), MAX_THREADS)
    expected = thread_limit() if openmp_enabled() else 1
    assert resolve_num_threads(100_000) == expected
    monkeypatch.setenv("REFSCORE_NUM_THREADS", "100000")
    assert resolve_num_threads() == expected
    assert THREAD_FAILURE_EXIT == ExitCode.THREADS_REFUSED


@pytest.mark.parametrize("metric", ["chrf", "ter", "rouge155"])
@pytest.mark.parametrize("how", ["argument", "environment", "argument under ulimit -v 8G"])
def test_huge_thread_counts_run_in_a_process(metric, how):
    """From ~66,000 threads the OpenMP runtime crashed (SIGSEGV); under ``ulimit -v`` it exited 1."""
    expected = _run(["-c", _SCORE, metric, "1"])
    assert expected.returncode == 0, expected.stderr
    args, env = (["-c", _SCORE, metric, "env"], {"REFSCORE_NUM_THREADS": "100000"}) if how == "environment" \
        else (["-c", _SCORE, metric, "100000"], None)
    result = _run(args, env, gib=8 if "ulimit" in how else None)
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    assert result.stdout == expected.stdout


def test_huge_thread_count_on_the_command_line(tmp_path):
    (tmp_path / "ref.txt").write_text("the cat is here\n" * 50, encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sat on the mat\n" * 50, encoding="utf-8")
    command = ["-c", "import sys; from refscore.cli.main import main; sys.exit(main())", "score", "-m", "chrf,ter",
               "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "--format", "json"]
    one = _run([*command, "--num-threads", "1"])
    many = _run([*command, "--num-threads", "100000"], gib=8)
    environment = _run(command, {"REFSCORE_NUM_THREADS": "100000"})
    assert one.returncode == many.returncode == environment.returncode == 0, (many.stderr, environment.stderr)
    assert many.stdout.replace("nthreads", "") == one.stdout.replace("nthreads", "")
    assert environment.stdout == many.stdout or environment.stdout.replace("nthreads", "") == one.stdout


@pytest.mark.skipif(not openmp_enabled() or not sys.platform.startswith("linux"),
                    reason="the guard is for GNU OpenMP (libgomp) on glibc")
def test_refused_threads_are_one_error_with_their_own_exit_code():
    """Threads with 2 GiB stacks (``OMP_STACKSIZE``) under a 4 GiB address-space limit: libgomp cannot create
    them and used to end the process with status 1, which ``refscore check`` means as "checks failed"."""
    threads = max(2, thread_limit())
    result = _run(["-c", _SCORE, "chrf", str(threads)], {"OMP_STACKSIZE": "2G"}, gib=4)
    assert result.returncode == ExitCode.THREADS_REFUSED == 11, (result.returncode, result.stderr)
    assert result.returncode != -signal.SIGSEGV
    lines = [line for line in result.stderr.splitlines() if line.strip() and not line.startswith("libgomp:")]
    assert len(lines) == 1 and lines[0].startswith("refscore: error: the system refused to start the compiled "
                                                   "core's threads"), result.stderr
    assert "--num-threads" in lines[0] and "REFSCORE_NUM_THREADS" in lines[0]


def test_an_ordinary_exit_status_1_is_kept():
    """The guard changes only libgomp's exit: ``sys.exit(1)`` after kernels ran with many threads stays 1."""
    result = _run(["-c", _SCORE.replace("print(", "sys.exit(1 + 0 * len(") + ")", "chrf", "100000"])
    assert result.returncode == 1, result.stderr


_ONE_SEGMENT = ("import sys, refscore; metric = getattr(refscore, sys.argv[1]); "
                "print(repr(metric(['the cat sat on the mat'], [['the cat is here']], num_threads=int(sys.argv[2]))"
                ".score))")


@pytest.mark.skipif(not openmp_enabled() or not sys.platform.startswith("linux"),
                    reason="the probe is GNU OpenMP's (libgomp) refusal to create threads on glibc")
@pytest.mark.parametrize("metric", ["chrf", "ter", "rouge", "edit_distance", "eed", "wer"])
def test_one_segment_starts_no_team(metric):
    """A kernel's team is capped at its loop's length: one segment runs on the calling thread alone. Before, a
    one-segment ``reward``/inspect_ai call woke a team for nothing and paid tens of milliseconds on a busy machine.
    The probe: threads with 2 GiB stacks under a 4 GiB address-space limit cannot be created (the test above), so
    the call succeeds only if it asks for none."""
    threads = max(2, thread_limit())
    alone = _run(["-c", _ONE_SEGMENT, metric, "1"])
    assert alone.returncode == 0, alone.stderr
    asked = _run(["-c", _ONE_SEGMENT, metric, str(threads)], {"OMP_STACKSIZE": "2G"}, gib=4)
    assert asked.returncode == 0, (asked.returncode, asked.stderr[-2000:])
    assert asked.stdout == alone.stdout
