"""``refscore.compat.jiwer`` against jiwer 4.0: same outputs (measures, counts, alignments, pictures) on random
and real text, custom transforms, errors; a program prints the same under ``compat.install()``; jiwer's own test
files, where a copy of them is given, pass on the drop-in wherever they pass on jiwer."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from conftest import read_segments, shared_data_path
from refscore.compat import jiwer as drop_in

jiwer = pytest.importorskip("jiwer")

ALPHABET = st.sampled_from(list("abcab  X") + ["猫", "\u0301", "é", "😀", "\t", "\n", "\u3000", "<", ">", "'"])
TEXT = st.text(ALPHABET, max_size=25)
PROGRAMS = Path(__file__).parent / "compat_programs"


def same_output(ours, theirs):
    assert type(ours).__name__ == type(theirs).__name__
    assert repr(ours).replace("refscore.compat.jiwer", "jiwer") == repr(theirs)


@settings(max_examples=250, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=0, max_size=5), st.booleans())
def test_process_functions_equal_jiwer(pairs, standardize):
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    words = (jiwer.wer_standardize, drop_in.wer_standardize) if standardize else (jiwer.wer_default,
                                                                                  drop_in.wer_default)
    same_output(drop_in.process_words(refs, hyps, words[1], words[1]),
                jiwer.process_words(refs, hyps, words[0], words[0]))
    same_output(drop_in.process_characters(refs, hyps), jiwer.process_characters(refs, hyps))
    for name in ("wer", "mer", "wil", "wip", "cer"):
        assert getattr(drop_in, name)(refs, hyps) == getattr(jiwer, name)(refs, hyps)
    out, expected = drop_in.process_words(refs, hyps), jiwer.process_words(refs, hyps)
    assert drop_in.visualize_alignment(out, skip_correct=False) == jiwer.visualize_alignment(expected,
                                                                                            skip_correct=False)
    assert drop_in.visualize_error_counts(out) == jiwer.visualize_error_counts(expected)


def test_wmt22_texts_and_pictures_equal_jiwer():
    directory = shared_data_path("wmt22", "en-de")
    refs = read_segments(directory / "ref.txt")[:400]
    hyps = read_segments(sorted((directory / "sys").iterdir())[0])[:400]
    same_output(drop_in.process_words(refs, hyps), jiwer.process_words(refs, hyps))
    chars, expected = drop_in.process_characters(refs, hyps), jiwer.process_characters(refs, hyps)
    same_output(chars, expected)
    assert drop_in.visualize_alignment(chars, line_width=80) == jiwer.visualize_alignment(expected, line_width=80)


def test_transforms_and_errors_equal_jiwer():
    text = ["  I can't  <unk> go\tthere, [noise] ok!  ", "", "won't you'll"]
    for name in ["RemoveMultipleSpaces", "Strip", "ToLowerCase", "ToUpperCase", "RemoveKaldiNonWords",
                 "ExpandCommonEnglishContractions", "RemoveEmptyStrings", "ReduceToListOfListOfWords",
                 "ReduceToListOfListOfChars", "ReduceToSingleSentence", "RemovePunctuation"]:
        assert getattr(drop_in, name)()(text) == getattr(jiwer, name)()(text), name
        assert getattr(drop_in, name)()([]) == getattr(jiwer, name)()([]), name
    assert drop_in.SubstituteWords({"ok": "fine"})(text) == jiwer.SubstituteWords({"ok": "fine"})(text)
    assert drop_in.SubstituteRegexes({r"\s+": "_"})(text) == jiwer.SubstituteRegexes({r"\s+": "_"})(text)
    assert drop_in.RemoveSpecificWords(["go"])(text) == jiwer.RemoveSpecificWords(["go"])(text)
    assert drop_in.RemoveWhiteSpace(True)(text) == jiwer.RemoveWhiteSpace(True)(text)
    for call in (lambda m: m.wer(["a", "b"], ["a"]), lambda m: m.process_words(("a",), ["a"]),
                 lambda m: m.cer(["a"], ["a", "b"]),
                 lambda m: m.process_words(["a"], ["a"], m.Compose([m.Strip()]), m.wer_default)):
        with pytest.raises(ValueError) as ours:
            call(drop_in)
        with pytest.raises(ValueError) as theirs:
            call(jiwer)
        assert str(ours.value) == str(theirs.value)
    with pytest.raises(ValueError):
        drop_in.AlignmentChunk("swap", 0, 1, 0, 1)


def test_program_prints_the_same_under_the_switch():
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    peer = subprocess.run([sys.executable, "uses_jiwer.py"], capture_output=True, text=True, cwd=PROGRAMS, env=env,
                          timeout=300)
    ours = subprocess.run([sys.executable, "-m", "refscore.compat", "run", "uses_jiwer.py"], capture_output=True,
                          text=True, cwd=PROGRAMS, env=env, timeout=300)
    assert peer.returncode == 0, peer.stderr
    assert ours.returncode == 0, ours.stderr
    assert ours.stderr.splitlines()[-1].startswith("refscore.compat.jiwer")   # the drop-in really ran
    assert ours.stdout.replace("refscore.compat.jiwer", "jiwer") == peer.stdout


#: A folder holding a copy of jiwer's own tests/ (not part of this repository: the peer's code stays its own).
PEER_TESTS = os.environ.get("REFSCORE_JIWER_TESTS")


def _outcomes(folder: Path, drop_in_switch: bool) -> dict[str, str]:
    plugin = ["-p", "refscore_jiwer_switch"] if drop_in_switch else []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent / "compat_programs"),
                                                        *sys.path])}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", *plugin,
                          str(folder)], capture_output=True, text=True, env=env, timeout=600, cwd=folder.parent)
    return {name: outcome for outcome, name in re.findall(r"^(PASSED|FAILED|ERROR) (\S+)", run.stdout, re.M)}


@pytest.mark.skipif(not PEER_TESTS, reason="set REFSCORE_JIWER_TESTS to a copy of jiwer's tests/ folder")
def test_jiwer_own_tests_pass_on_the_drop_in():
    folder = Path(PEER_TESTS)
    on_jiwer, on_drop_in = _outcomes(folder, False), _outcomes(folder, True)
    passing = sorted(name for name, outcome in on_jiwer.items() if outcome == "PASSED")
    assert passing, "no test of the copy passes on jiwer"
    assert set(on_drop_in) == set(on_jiwer)   # the same tests ran both times
    assert [name for name in passing if on_drop_in.get(name) != "PASSED"] == []
