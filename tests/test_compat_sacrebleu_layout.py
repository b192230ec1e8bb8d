"""refscore.compat.sacrebleu has sacreBLEU 2.6's package layout, and its helpers give sacreBLEU's results
(tokenizers, ``compute_bleu``, n-gram helpers, ``PairedTest``, ``estimate_ci``), tested against the real package."""
from __future__ import annotations

import importlib
import logging

import numpy as np
import pytest
import sacrebleu
from hypothesis import example, given, settings
from hypothesis import strategies as st

from refscore.compat import sacrebleu as compat
from refscore.errors import InputError

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

PIECES = ["the", "The", "cat", ".", ",", "3.14", "3-4", "don't", "&amp;", "&quot;", "<skipped>", "-\n", "\n", "猫",
          "坐在", "。", "«", "»", "$", "é", "Привет", "(x)", "'s", "  ", "\t", "ア", "、", "！"]
text = st.one_of(st.lists(st.sampled_from(PIECES), max_size=12).map("".join),
                 st.lists(st.sampled_from(PIECES), max_size=12).map(" ".join), st.text(max_size=20))

MODULES = ["metrics", "metrics.bleu", "metrics.chrf", "metrics.ter", "metrics.base", "metrics.helpers", "compat",
           "significance", "tokenizers", "tokenizers.tokenizer_13a", "tokenizers.tokenizer_intl",
           "tokenizers.tokenizer_zh", "tokenizers.tokenizer_char", "tokenizers.tokenizer_none",
           "tokenizers.tokenizer_re", "tokenizers.tokenizer_ter", "tokenizers.tokenizer_base", "utils", "version",
           "dataset"]
TOKENIZERS = [("tokenizer_13a", "Tokenizer13a", ()), ("tokenizer_intl", "TokenizerV14International", ()),
              ("tokenizer_zh", "TokenizerZh", ()), ("tokenizer_char", "TokenizerChar", ()),
              ("tokenizer_none", "NoneTokenizer", ()), ("tokenizer_re", "TokenizerRegexp", ()),
              ("tokenizer_ter", "TercomTokenizer", ()), ("tokenizer_ter", "TercomTokenizer", (True, True, True, True))]


@pytest.mark.parametrize("module", MODULES)
def test_every_submodule_imports(module: str) -> None:
    importlib.import_module(f"refscore.compat.sacrebleu.{module}")


def test_import_forms_and_attributes() -> None:
    from refscore.compat.sacrebleu.metrics import BLEU, CHRF, TER
    from refscore.compat.sacrebleu.metrics.bleu import BLEU as BLEU2
    from refscore.compat.sacrebleu.significance import PairedTest, Result, estimate_ci  # noqa: F401
    import refscore.compat.sacrebleu.tokenizers.tokenizer_13a as module_13a
    assert BLEU is BLEU2 is compat.BLEU and CHRF is compat.CHRF and TER is compat.TER
    assert compat.__version__ == sacrebleu.__version__
    assert isinstance(BLEU().tokenizer, module_13a.Tokenizer13a)
    assert BLEU(tokenize="intl").tokenizer.signature() == "intl"
    assert list(BLEU.TOKENIZERS) == list(sacrebleu.BLEU.TOKENIZERS)
    assert BLEU(trg_lang="zh").tokenizer.signature() == sacrebleu.BLEU(trg_lang="zh").tokenizer.signature()
    ours, peer = TER(normalized=True, case_sensitive=True), sacrebleu.TER(normalized=True, case_sensitive=True)
    assert ours.tokenizer_signature == peer.tokenizer_signature
    assert ours.tokenizer("Hello, World!") == peer.tokenizer("Hello, World!")


@settings(max_examples=150, deadline=None)
@given(st.lists(text, min_size=1, max_size=8))
@example(["3.14。\n", "in 2014. ", "4.\u3000"])   # intl: trailing whitespace after a digit's '.'
def test_tokenizers_give_sacrebleus_strings(lines: list[str]) -> None:
    for module, name, args in TOKENIZERS:
        ours = getattr(importlib.import_module(f"refscore.compat.sacrebleu.tokenizers.{module}"), name)(*args)
        peer = getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), name)(*args)
        assert ours.signature() == peer.signature()
        for line in lines:
            assert ours(line) == peer(line), (name, line)


counts = st.lists(st.integers(0, 30), min_size=4, max_size=4)


@settings(max_examples=300, deadline=None)
@given(counts, counts, st.integers(0, 40), st.integers(0, 40),
       st.sampled_from([("none", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 2),
                        ("exp", None)]), st.booleans())
def test_compute_bleu_is_sacrebleus(correct: list[int], total: list[int], sys_len: int, ref_len: int,
                                    smoothing: tuple[str, float | None], effective_order: bool) -> None:
    total = [max(c, t) for c, t in zip(correct, total)]
    method, value = smoothing
    arguments = dict(smooth_method=method, smooth_value=value, effective_order=effective_order)
    ours_lists, peer_lists = (list(correct), list(total)), (list(correct), list(total))
    ours = compat.BLEU.compute_bleu(*ours_lists, sys_len, ref_len, **arguments)
    peer = sacrebleu.BLEU.compute_bleu(*peer_lists, sys_len, ref_len, **arguments)
    assert ours.score == pytest.approx(peer.score, rel=1e-12, abs=1e-12)
    assert ours.precisions == pytest.approx(peer.precisions, rel=1e-12, abs=1e-12)
    assert (ours.counts, ours.totals, ours.bp) == (peer.counts, peer.totals, peer.bp)
    assert ours_lists == peer_lists  # add-k mutates the caller's lists the same way
    assert str(ours) == str(peer)


@settings(max_examples=100, deadline=None)
@given(text, st.integers(1, 6), st.booleans())
def test_ngram_helpers_are_sacrebleus(line: str, n: int, include_whitespace: bool) -> None:
    from refscore.compat.sacrebleu.metrics import helpers
    from sacrebleu.metrics import helpers as peer
    assert compat.extract_word_ngrams(line.split(), n) == sacrebleu.extract_word_ngrams(line.split(), n)
    assert compat.extract_char_ngrams(line, n, include_whitespace) == sacrebleu.extract_char_ngrams(
        line, n, include_whitespace)
    assert helpers.extract_all_word_ngrams(line, 1, n) == peer.extract_all_word_ngrams(line, 1, n)
    assert helpers.extract_all_char_ngrams(line, n, include_whitespace) == peer.extract_all_char_ngrams(
        line, n, include_whitespace)


def test_estimate_ci_is_sacrebleus() -> None:
    from sacrebleu.significance import estimate_ci as peer_estimate_ci
    values = np.random.default_rng(3).normal(size=1000)
    assert compat.significance.estimate_ci(values) == peer_estimate_ci(values)


@pytest.mark.parametrize("test_type, n_ar_confidence", [("bs", -1), ("ar", -1), ("ar", 200)])
def test_paired_test_is_sacrebleus(test_type: str, n_ar_confidence: int) -> None:
    from sacrebleu.significance import PairedTest as PeerPairedTest
    refs = [["the cat sat on the mat", "a dog barked at night", "it rained all day", "we went home early",
             "the sun came out"]]
    systems = [("base", ["the cat sat on mat", "dog barked", "it rained", "we went home", "sun came out"]),
               ("good", ["the cat sat on the mat", "a dog barked", "it rained all day", "we went home early",
                         "the sun came"]),
               ("bad", ["a cat", "the dog", "rain", "home", "sun"])]
    arguments = dict(test_type=test_type, n_samples=300, n_ar_confidence=n_ar_confidence)
    ours_signatures, ours = compat.significance.PairedTest(
        systems, {"BLEU": compat.BLEU(), "chrF": compat.CHRF(), "TER": compat.TER()}, refs, **arguments)()
    peer_signatures, peer = PeerPairedTest(
        systems, {"BLEU": sacrebleu.BLEU(), "chrF": sacrebleu.CHRF(), "TER": sacrebleu.TER()}, refs, **arguments)()
    assert list(ours) == list(peer)
    assert {k: str(v) for k, v in ours_signatures.items()} == {k: str(v) for k, v in peer_signatures.items()}
    for name in peer:
        if name == "System":
            assert ours[name] == peer[name]
            continue
        for mine, theirs in zip(ours[name], peer[name]):
            for field in ("score", "p_value", "mean", "ci"):
                expected = getattr(theirs, field)
                got = getattr(mine, field)
                assert (got is None) == (expected is None), (name, field)
                if expected is not None:
                    # float32 resample sums: sacreBLEU's own arithmetic, equal to the last bits (docs/significance.md)
                    assert got == pytest.approx(float(expected), rel=1e-6, abs=1e-9), (name, field)


def test_dataset_api_reads_the_local_cache(tmp_path, monkeypatch) -> None:
    directory = tmp_path / "wmt22"
    directory.mkdir()
    for field, line in (("src", "Hallo"), ("ref-A", "Hello"), ("ref-B", "Hi"), ("docid", "d1")):
        (directory / f"wmt22.de-en.{field}").write_text(line + "\n", encoding="utf-8")
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    assert "wmt22" in compat.DATASETS and list(compat.DATASETS) == ["wmt22"]
    assert list(compat.DATASETS["wmt22"].langpairs) == ["de-en"]
    assert compat.get_source_file("wmt22", "de-en") == str(directory / "wmt22.de-en.src")
    assert compat.get_reference_files("wmt22", "de-en") == [str(directory / "wmt22.de-en.ref-A"),
                                                            str(directory / "wmt22.de-en.ref-B")]
    assert len(compat.download_test_set("wmt22", "de-en")) == 4
    with pytest.raises(InputError, match=f"wmt19.*{tmp_path}.*does not download"):
        compat.get_source_file("wmt19", "de-en")
    with pytest.raises(InputError, match="No such language pair wmt22/en-de"):
        compat.get_reference_files("wmt22", "en-de")


@pytest.mark.parametrize("lines", [99, 100])
def test_tokenized_period_warning_is_sacrebleus(caplog, lines: int) -> None:
    hyps = ["a ."] * lines + ["b .\nc", "d"]
    refs = [["a ."] * (lines + 2)]
    warnings = []
    for module in (compat, sacrebleu):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="sacrebleu"):
            module.corpus_bleu(hyps, refs)
        warnings.append([r.getMessage() for r in caplog.records if "tokenized period" in r.getMessage()])
    assert warnings[0] == warnings[1] and bool(warnings[0]) == (lines >= 100)
