"""Control characters from the data never reach the terminal raw (issue 40 item 15): a ``system`` value holding an
escape sequence (recolour, retitle, clipboard), a C1 CSI or a bidirectional override is written escaped in
``score``'s table and segment rows, and everything written to standard output on a terminal is escaped."""
from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

import refscore
from refscore.cli.main import main
from refscore.cli.output import format_table, shown

SRC = str(Path(refscore.__file__).resolve().parent.parent)
HOSTILE = ["\x1b[31mred\x1b[0m", "\x1b]0;title\x07", "\x1b]52;c;cHduZWQ=\x07", "a\x9b2Jb", "\u202eevil", "x\ry",
           "tab\there", "line\nbreak", "bell\x07", "del\x7f"]
RAW = ["\x1b", "\x9b", "\u202e", "\x07", "\r", "\x7f"]


def records(path: Path) -> None:
    path.write_text("".join(json.dumps({"system": system, "prediction": "the cat sat", "references": ["the cat"]})
                            + "\n" for system in HOSTILE), encoding="utf-8")


@pytest.mark.parametrize("flags", [[], ["--segments"]])
def test_system_names_are_escaped_in_the_table(tmp_path, capsys, flags):
    records(tmp_path / "in.jsonl")
    assert main(["score", "-i", str(tmp_path / "in.jsonl"), "-m", "bleu", *flags]) == 0
    out = capsys.readouterr().out
    assert not any(raw in out for raw in RAW)
    assert "\\x1b[31mred\\x1b[0m" in out and "\\u202eevil" in out and "\\u009b2J" in out
    rows = [line.split("\t") if flags else line.split() for line in out.splitlines() if line.strip()]
    assert ["tab\\there" in row[0] for row in rows].count(True) == 1   # one cell, on its own line


def test_json_output_keeps_the_exact_names(tmp_path, capsys):
    records(tmp_path / "in.jsonl")
    assert main(["score", "-i", str(tmp_path / "in.jsonl"), "-m", "bleu", "--format", "json"]) == 0
    names = [entry["system"] for entry in json.loads(capsys.readouterr().out)]
    assert [name.split("in.jsonl:", 1)[1] for name in names] == HOSTILE


def test_shown_escapes_each_control_once_and_keeps_ordinary_text():
    assert shown("naïve ünïcode — 日本語\ttab") == "naïve ünïcode — 日本語\ttab"
    assert shown("\x00\x1b\x9b\u2066", cell=True) == "\\x00\\x1b\\u009b\\u2066"
    table = format_table(["system", "bleu"], [["\x1b[2J", "1.00"]])
    assert "\x1b" not in table and "\\x1b[2J" in table


def _on_a_terminal(args: list[str]) -> bytes:
    """The command's standard output as a terminal sees it (a pseudo-terminal)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(args, stdout=follower, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": SRC})
    os.close(follower)
    output = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:   # the other side closed
            break
        if not chunk:
            break
        output += chunk
    process.wait(timeout=60)
    os.close(leader)
    assert process.returncode == 0, process.stderr.read()
    return output


def test_on_a_terminal_every_output_is_escaped(tmp_path):
    records(tmp_path / "in.jsonl")
    for fmt in ("text", "json"):
        out = _on_a_terminal([sys.executable, "-m", "refscore.cli", "score", "-i", str(tmp_path / "in.jsonl"),
                              "-m", "bleu", "--format", fmt, "--segments"])
        assert b"\x1b" not in out and "\u202e".encode() not in out and "\x9b".encode() not in out
        assert (b"\\x1b[31mred" if fmt == "text" else b"\\u001b[31mred") in out
