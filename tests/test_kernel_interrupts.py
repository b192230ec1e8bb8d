"""Ctrl-C inside a long nogil kernel call (``_core/_interrupt.hpp``), in a real subprocess: EED's quadratic
programme and ROUGE-1.5.5's LCS tables poll once per row, so ``KeyboardInterrupt`` arrives within a row, Python's own handler is back in place
afterwards (the next Ctrl-C is an ordinary ``KeyboardInterrupt``; the next call scores as usual), and an ignored
SIGINT stops nothing. The command line's exit statuses are in test_cli_process.py."""
from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

SCRIPT = textwrap.dedent("""
    import sys, time, refscore
    metric = getattr(refscore, sys.argv[1])
    long_hyp, long_ref = "x " * 60_000, "x " * 59_999 + "y"
    print("ready", flush=True)
    try:
        metric([long_hyp], [[long_ref]])
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    print(round(metric(["a b c", "x"], [["a b d"], ["y"]]).score, 6), flush=True)
    try:
        time.sleep(30)   # Python's handler again: the next SIGINT interrupts the sleep
    except KeyboardInterrupt:
        print("python handler", flush=True)
""")


def _start(metric: str, sigint) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", SCRIPT, metric], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, sigint))


@pytest.mark.parametrize("metric", ["eed", "rouge155"])
def test_ctrl_c_stops_a_long_call_and_restores_pythons_handler(metric):
    process = _start(metric, signal.SIG_DFL)
    assert process.stdout.readline().strip() == "ready"
    time.sleep(1.5)
    assert process.poll() is None
    process.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    assert process.stdout.readline().strip() == "interrupted"
    assert time.perf_counter() - sent < 5   # a row takes well under a millisecond; the whole call minutes
    expected = round(getattr(__import__("refscore"), metric)(["a b c", "x"], [["a b d"], ["y"]]).score, 6)
    assert float(process.stdout.readline()) == expected
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert out.strip() == "python handler", err


def test_an_ignored_sigint_stops_nothing():
    """SIGINT ignored (a background job of a shell): the kernel's handler passes it by; the call completes."""
    process = subprocess.Popen([sys.executable, "-c", SCRIPT.replace("60_000", "20_000").replace("59_999", "19_999")
                                .replace("time.sleep(30)", "pass"), "eed"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert process.stdout.readline().strip() == "ready"
    time.sleep(1)   # inside the call (seconds long)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=300)
    assert out.splitlines()[0] == "finished", err
