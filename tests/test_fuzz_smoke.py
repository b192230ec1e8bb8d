"""A short run of every fuzz target (fuzz/targets.py), and of the runner itself (fuzz/run.py); the long runs are
documented in docs/reliability.md."""
from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
sys.path.insert(0, str(FUZZ))
from targets import TARGETS  # noqa: E402

#: Inputs per target: a few random byte strings of every length class (empty, short, the runner's largest).
INPUTS = [b"", b"\xff" * 64] + [random.Random(seed).randbytes(length) for seed, length in enumerate([40, 600, 2048])]
SLOW = {"tokenize-ja-mecab", "tokenize-ko-mecab", "ter"}


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_fuzz_target_holds_its_properties_on_random_inputs(target):
    if target.endswith("mecab") and importlib.util.find_spec("MeCab" if "ja" in target else "mecab_ko") is None:
        pytest.skip("MeCab is not installed")
    if target == "meteor":
        from _meteor_peer import require_wordnet
        require_wordnet()   # NLTK's oracle reads Debian's WordNet files (skips without them, fails under CI)
    for data in INPUTS[:3] if target in SLOW else INPUTS:
        TARGETS[target](data)


def test_the_runner_runs_a_target_and_writes_its_summary(tmp_path):
    summary = tmp_path / "summary.json"
    command = [sys.executable, str(FUZZ / "run.py"), "--seconds", "3", "--target", "records-jsonl", "--summary",
               str(summary), "--artifacts", str(tmp_path / "artifacts")]
    if importlib.util.find_spec("atheris") is None:
        command.append("--random")
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    [result] = json.loads(summary.read_text())
    assert result["target"] == "records-jsonl" and result["executions"] > 0 and result["crashes"] == 0
    table = subprocess.run([sys.executable, str(FUZZ / "run.py"), "--markdown", str(summary)], capture_output=True,
                           text=True, timeout=120, check=True).stdout
    assert "| `records-jsonl` | " in table and f"| {result['executions']:,} |" in table



@pytest.mark.parametrize("edit", range(6), ids=["permute", "rename", "field", "value", "raw", "npy"])
def test_the_statistics_header_target_runs_each_of_its_edits(edit):
    # fuzz/statistics_targets.py: the first byte picks the edit, the second the metric (BLEU, TER, ROUGE, chrF++)
    for seed in range(8):
        TARGETS["statistics-header"](bytes([edit, seed % 4]) + random.Random(seed).randbytes(200))


# -- findings, kept as regression tests --------------------------------------------------------------------------
@pytest.mark.parametrize("tokenize", ["ja-mecab", "ko-mecab"])
def test_mecab_bleu_keeps_square_reference_streams_per_segment(tokenize):
    # tokenize-ko-mecab found it: two segments with two references each were re-checked for their layout after
    # MeCab tokenized them, so refscore.from_streams(...) input raised "references can be read two ways"
    pytest.importorskip("MeCab" if tokenize == "ja-mecab" else "mecab_ko")
    import refscore
    from sacrebleu.metrics.bleu import BLEU as SacreBLEU

    hypotheses, streams = ["猫が 好き です", "犬 です"], [["猫 が 好き", "犬 だ"], ["猫 です", "犬 です"]]
    ours = refscore.bleu(hypotheses, refscore.from_streams(streams), tokenize=tokenize)
    peer = SacreBLEU(tokenize=tokenize).corpus_score(hypotheses, streams)
    assert list(ours.values["counts"]) == peer.counts and abs(100 * ours.score - peer.score) <= 1e-9


def test_a_statistics_file_whose_zip_claims_an_unknown_version_is_refused():
    # statistics-file found it: a valid file with bytes overwritten so that zipfile reads "version 18.8" raised
    # NotImplementedError, not refscore's InputError; the input is the fuzzer's (base64 KQC8vLzdLQ==)
    TARGETS["statistics-file"](bytes([0x29, 0x00, 0xBC, 0xBC, 0xBC, 0xDD, 0x2D]))


def _saved_statistics(tmp_path) -> bytearray:
    import refscore
    from refscore.io.statistics import save_statistics

    path = tmp_path / "saved.npz"
    save_statistics(path, refscore.BLEU().statistics(["a b c"], [["a b d"]]))
    return bytearray(path.read_bytes())


def test_a_statistics_file_whose_member_is_marked_encrypted_is_refused(tmp_path):
    # statistics-file found it (clang build): bytes overwritten so that the zip directory marks data.npy encrypted
    # made zipfile raise RuntimeError ("password required for extraction"), not refscore's InputError
    from refscore.errors import InputError
    from refscore.io.statistics import load_statistics

    content = _saved_statistics(tmp_path)
    central = content.rindex(b"PK\x01\x02")  # the last central directory entry: data.npy
    assert content[central + 46:central + 54] == b"data.npy"
    content[central + 8] |= 0x1  # general purpose flag bit 0: encrypted
    damaged = tmp_path / "encrypted.npz"
    damaged.write_bytes(content)
    with pytest.raises(InputError, match=r"encrypted.npz.*'data.npy' is marked encrypted"):
        load_statistics(damaged)


@pytest.mark.parametrize("rows", [99_999, 2**40])
def test_a_statistics_file_whose_array_claims_more_bytes_than_it_holds_is_refused(tmp_path, rows):
    # a .npy header claiming 2**40 rows made numpy allocate before reading (MemoryError, not InputError)
    import zipfile

    from refscore.errors import InputError
    from refscore.io.statistics import load_statistics

    (tmp_path / "saved.npz").write_bytes(_saved_statistics(tmp_path))
    with zipfile.ZipFile(tmp_path / "saved.npz") as archive:
        header, data = archive.read("header.npy"), archive.read("data.npy")
    data = data.replace(b"(1, 10)", f"({rows}, 10)".encode())
    with zipfile.ZipFile(tmp_path / "claims.npz", "w") as archive:
        archive.writestr("header.npy", header)
        archive.writestr("data.npy", data)
    with pytest.raises(InputError, match=r"claims.npz.*'data.npy' claims an array of shape"):
        load_statistics(tmp_path / "claims.npz")


def test_rouge_tokens_with_stemming_are_rouge_scores_own():
    # tokenize-rouge "found" it (clang build): the harness compared with PorterStemmer("ORIGINAL_ALGORITHM"),
    # rouge-score uses NLTK_EXTENSIONS (a final y after a vowel stays): the oracle was wrong, refscore was right
    from rouge_score import rouge_scorer

    from refscore._core._rouge import tokenize_texts
    texts = ["字字字字字字字字字字字", "字abaaaaaay字", "字字字字)字字字字zx"]
    peer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)._tokenizer
    assert tokenize_texts(texts, True) == [peer.tokenize(text) for text in texts] == [[], ["abaaaaaay"], ["zx"]]
    from targets import _rouge_score_stemmer
    assert _rouge_score_stemmer().stem("abaaaaaay") == "abaaaaaay"  # the harness's oracle is rouge-score's now
    # the local clang run's input (texts [' aaaay字a', '', '©©©©'], stemming on): the old oracle failed on it
    TARGETS["tokenize-rouge"](bytes.fromhex("bffd0f000000004aff0000ff04bf8585858585"))


def test_rouge_explanations_stem_as_rouge_score():
    # the same wrong stemmer mode was in the explanations of failing ROUGE cases ('skies' explained as 'ski')
    from rouge_score import rouge_scorer

    from refscore.metrics.rouge.explain import rouge_tokens
    text = "Abaaaaaay skies, dying cats"
    peer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)._tokenizer
    assert rouge_tokens(text, stemmer=True) == peer.tokenize(text) == ["abaaaaaay", "sky", "die", "cat"]


def test_the_runner_lists_targets_without_importing_refscore():
    # under the clang build's LD_PRELOAD, refscore's kernels load only once atheris brought libFuzzer's symbols
    # (as in the workers): `run.py --list` in a parent that imported refscore failed with an undefined symbol
    script = ("import runpy, sys\n"
              f"sys.argv = [{str(FUZZ / 'run.py')!r}, '--list']\n"
              "try:\n    runpy.run_path(sys.argv[0], run_name='__main__')\nexcept SystemExit:\n    pass\n"
              "print('refscore imported:', any(m.split('.')[0] == 'refscore' for m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "refscore imported: False" and lines[:-1] == list(TARGETS)


FUZZED_INTL = "\U000e05d2\U0001d27a\U00090881\U00010010\xd3\x01\x01\x01\x01"


def test_intl_tokens_of_the_fuzzed_input_are_sacrebleus_with_the_tables_regex():
    # tokenize-intl (clang build, regex 2026.11.19 installed): sacreBLEU split around U+1D27A, newly a symbol in
    # that regex's Unicode; with the regex the tables were generated from, both agree
    import regex
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

    from refscore.text import get_tokenizer
    from refscore.text.unicode_tables import TABLE_VERSIONS
    if regex.__version__ != TABLE_VERSIONS["regex"]:
        pytest.skip(f"regex {regex.__version__} is not the tables' {TABLE_VERSIONS['regex']}")
    assert get_tokenizer("intl")(FUZZED_INTL) == TokenizerV14International()(FUZZED_INTL).split()
    # the local clang run's input (U+1F7FD, also a symbol only from regex 2026.11.19 on), through the harness
    TARGETS["tokenize-intl"](bytes.fromhex("c4ec2ac4b701000000ff69ecc4c401000000ff69c43d3d"))


def test_intl_warns_once_when_the_installed_regex_is_not_the_tables(monkeypatch):
    import warnings

    import refscore
    from refscore.errors import RefscoreWarning
    from refscore.text import unicode_tables
    monkeypatch.setattr(unicode_tables, "_WARNED", set())
    monkeypatch.setattr(unicode_tables, "installed_regex_version", lambda: "2026.11.19")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        refscore.BLEU(tokenize="13a")
        refscore.BLEU(tokenize="intl")
        refscore.BLEU(tokenize="intl")
        refscore.text.get_tokenizer("intl")
    [warning] = [w for w in caught if issubclass(w.category, RefscoreWarning)]
    assert warning.filename == __file__  # the user's line, not refscore's or the config dataclass's
    assert f"generated with regex {unicode_tables.TABLE_VERSIONS['regex']}, but regex 2026.11.19" in \
        str(warning.message)
    monkeypatch.setattr(unicode_tables, "installed_regex_version", lambda: unicode_tables.TABLE_VERSIONS["regex"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        unicode_tables.check_intl_tables("intl")  # the tables' own regex: no warning


def test_the_markdown_table_says_when_a_target_did_not_run():
    # the clang-build run's MeCab targets exited at start (no MeCab there): "0 findings" would have hidden that
    from run import markdown_table
    row = {"target": "tokenize-ja-mecab", "seconds": 3, "executions": 0, "coverage": 0, "features": 0,
           "crashes": 0, "returncode": 1, "error": "Traceback (most recent call last):\nModuleNotFoundError: MeCab"}
    assert markdown_table([row]).splitlines()[-1] == \
        "| `tokenize-ja-mecab` | 3 | 0 | 0 / 0 | did not run: ModuleNotFoundError: MeCab |"


def test_a_single_npy_array_claiming_2_to_the_40_rows_is_refused_unread(tmp_path):
    # np.load of a .npy allocates what its header claims before reading (MemoryError): refused from its magic
    import io

    import numpy as np

    from refscore.errors import InputError
    from refscore.io.statistics import load_statistics
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<i8", "fortran_order": False, "shape": (2**40,)})
    (tmp_path / "array.npz").write_bytes(header.getvalue() + bytes(16))
    with pytest.raises(InputError, match=r"array.npz' is a single .npy array"):
        load_statistics(tmp_path / "array.npz")


@pytest.mark.parametrize("options", [{}, {"word_order": 1, "lowercase": True, "whitespace": True},
                                     {"word_order": 2}])
def test_chrf_of_empty_strings_takes_no_pointer_past_a_null_array(options):
    # pairwise found it (clang build, UBSan): with every string of a segment empty the chrF kernel formed
    # `units + n - 1` from units_.data() == nullptr ("applying non-zero offset 4 to null pointer"), undefined
    # behaviour though never dereferenced; it now indexes units[p + n - 1]. Under the sanitizer build
    # (docs/reliability.md) the old kernel aborts here; on any build the scores are sacreBLEU's.
    import refscore
    from sacrebleu.metrics.chrf import CHRF as SacreCHRF

    hypotheses, references = ["", "", "a"], [[""], ["", ""], [""]]
    ours = refscore.CHRF(**options).sentence_scores(hypotheses, refscore.per_segment(references))
    peer = SacreCHRF(**options)
    assert ours.tolist() == [peer.sentence_score(h, r).score / 100 for h, r in zip(hypotheses, references)]
    TARGETS["pairwise"](bytes.fromhex("020002000202000f"))   # the fuzzer's input: [['', ''], []] against itself
