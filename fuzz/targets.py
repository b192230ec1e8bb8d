"""Fuzz targets of the compiled core and the readers: each turns fuzzer bytes into inputs and checks properties.

A target is ``TARGETS[name](data: bytes) -> None``; it raises ``AssertionError`` (a finding) when a property fails:
equality with the peer (sacreBLEU, rouge-score, NLTK) or a pure-Python oracle on the same input, the same
statistics with 1 and 3 threads, scores inside the metric's range, and statistics of two parts that merge into
those of the whole. Inputs refscore refuses must be refused with refscore's own errors (``RefscoreError``), never
another exception. ``fuzz/run.py`` runs them under atheris (coverage-guided) or on random bytes.
"""
from __future__ import annotations

import functools
import io
import json
import os
import tempfile
from collections import Counter
from collections.abc import Callable

import numpy as np

import refscore
from refscore.errors import RefscoreError

#: Characters the text generators mix: ASCII words and punctuation, Latin-1, CJK, Hangul, combining marks,
#: Unicode spaces, symbols and astral code points (where tokenizers differ if they get categories wrong).
ALPHABET = ("abc xyz ABC 019 ,.;:!?-'\"()[]$%&/\\@#*\t\n" "éßØ ñ" "日本語文字中国" "한국어" "\u0301\u0308\u20dd"
            "\u00a0\u2003\u3000\u200b" "€£¥©®™" "\U0001F600\U00020000")


class TargetUnavailable(Exception):
    """A target cannot run here (an optional dependency or data file is missing): the runner reports it as
    unavailable, with this reason, not as a finding."""


class Source:
    """Inputs drawn from fuzzer bytes, read front to back (a mutated byte changes the input near it only, which
    is what lets a coverage-guided fuzzer's mutations mean something); past the end every draw is its minimum."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.position = 0

    def integer(self, low: int, high: int) -> int:
        span = high - low + 1
        width = 1 if span <= 256 else 2 if span <= 65536 else 4
        chunk = self.data[self.position:self.position + width]
        self.position += width
        return low + int.from_bytes(chunk, "little") % span if chunk else low

    def choice(self, items):
        return items[self.integer(0, len(items) - 1)]

    def text(self, max_length: int = 40) -> str:
        length = self.integer(0, max_length)
        if self.integer(0, 3) == 0:  # raw code points now and then (no surrogates: they are refused up front)
            return "".join(chr(c) for c in (self.integer(1, 0x10FFFF) for _ in range(length))
                           if not 0xD800 <= c <= 0xDFFF)
        return "".join(self.choice(ALPHABET) for _ in range(length))

    def texts(self, count: int, max_length: int = 40) -> list[str]:
        return [self.text(max_length) for _ in range(count)]


def _source(data: bytes) -> Source:
    return Source(data)


def _same_with_threads(compute: Callable[[int], np.ndarray]) -> np.ndarray:
    one = compute(1)
    many = compute(3)
    np.testing.assert_array_equal(one, many, err_msg="1 and 3 threads differ")
    return one


def _check_merge(metric: refscore.protocol.Metric, hypotheses: list, references: list, whole) -> None:
    if len(hypotheses) < 2:
        return
    cut = len(hypotheses) // 2
    parts = metric.statistics(hypotheses[:cut], references[:cut]) + metric.statistics(hypotheses[cut:],
                                                                                     references[cut:])
    np.testing.assert_array_equal(parts.data, whole.data, err_msg="merged parts differ from the whole")


def _check_range(metric, stats) -> None:
    low, high = metric.threshold_range
    scores = metric.scores_from_totals(np.vstack([stats.data, stats.totals()[None]]))
    assert np.isfinite(scores).all(), scores
    assert (scores >= low - 1e-12).all() and (scores <= max(high, 1e9 if metric.name == "ter" else high) + 1e-12).all()


def _corpus(source: Source, max_segments: int = 4, max_length: int = 40) -> tuple[list[str], list[list[str]]]:
    n = source.integer(1, max_segments)
    nrefs = source.integer(1, 2)
    hypotheses = source.texts(n, max_length)
    references = [source.texts(n, max_length) for _ in range(nrefs)]
    return hypotheses, references


# -- tokenizers ------------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _sacrebleu_bleu(tokenize: str, lowercase: bool):
    from sacrebleu.metrics.bleu import BLEU

    return BLEU(tokenize=tokenize, lowercase=lowercase)


def tokenizer_target(name: str) -> Callable[[bytes], None]:
    def target(data: bytes) -> None:
        from refscore._core._tokenize import encode_words_with_vocab

        source = _source(data)
        texts, lowercase = source.texts(3, 60), bool(source.integer(0, 1))
        ids, offsets, vocab = encode_words_with_vocab(texts, name, lowercase)
        ours = [" ".join(vocab[i] for i in ids[offsets[k]:offsets[k + 1]]) for k in range(len(texts))]
        peer = [_sacrebleu_bleu(name, lowercase)._preprocess_segment(text) for text in texts]
        assert ours == [" ".join(p.split()) for p in peer], (texts, ours, peer)
    return target


def mecab_target(name: str) -> Callable[[bytes], None]:
    def target(data: bytes) -> None:
        source = _source(data)
        hypotheses, references = _corpus(source, 3, 30)
        metric = refscore.BLEU(tokenize=name)
        ours = metric.statistics(hypotheses, refscore.from_streams(references))
        peer = _sacrebleu_bleu(name, False).corpus_score(hypotheses, references)
        totals = ours.totals()
        assert list(totals[2:6]) == peer.counts and list(totals[6:10]) == peer.totals, (hypotheses, references)
    return target


def rouge_tokenizer(data: bytes) -> None:
    from rouge_score import tokenize

    from refscore._core._rouge import tokenize_texts

    source = _source(data)
    texts, stem = source.texts(3, 60), bool(source.integer(0, 1))
    stemmer = _rouge_score_stemmer()  # made on the first call, stemming or not: the runner's warm-up call imports NLTK
    assert tokenize_texts(texts, stem) == [tokenize.tokenize(t, stemmer if stem else None) for t in texts], \
        (texts, stem)


@functools.lru_cache(maxsize=None)
def _rouge_score_stemmer():
    """The stemmer rouge-score itself uses (NLTK's PorterStemmer in its default NLTK_EXTENSIONS mode), taken
    from its tokenizer rather than built here, so that the oracle cannot pick another mode."""
    from rouge_score import tokenizers

    return tokenizers.DefaultTokenizer(use_stemmer=True)._stemmer


# -- metrics against their peers ---------------------------------------------------------------------------------
def bleu_text(data: bytes) -> None:
    source = _source(data)
    hypotheses, references = _corpus(source)
    tokenize = source.choice(["13a", "intl", "zh", "char", "none"])
    metric = refscore.BLEU(tokenize=tokenize)
    refs = refscore.from_streams(references)
    whole = metric.statistics(hypotheses, refs, num_threads=1)
    _same_with_threads(lambda t: metric.statistics(hypotheses, refs, num_threads=t).data)
    peer = _sacrebleu_bleu(tokenize, False).corpus_score(hypotheses, references)
    totals = whole.totals()
    assert (list(totals[2:6]), list(totals[6:10])) == (peer.counts, peer.totals), (hypotheses, references)
    assert abs(100 * metric.score_from_statistics(whole).score - peer.score) <= 1e-9
    _check_merge(metric, hypotheses, refs, whole)
    _check_range(metric, whole)


def _ngram_oracle(hypothesis: list[int], references: list[list[int]], max_order: int = 4) -> list[int]:
    """sacreBLEU's statistics of one segment of token ids (closest reference length), in pure Python."""
    def grams(tokens, n):
        return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))
    lengths = [len(r) for r in references]
    ref_len = min(lengths, key=lambda length: (abs(length - len(hypothesis)), length))
    matches, totals = [], []
    for n in range(1, max_order + 1):
        best = Counter()
        for reference in references:
            best |= grams(reference, n)
        hyp = grams(hypothesis, n)
        matches.append(sum(min(c, best[g]) for g, c in hyp.items()))
        totals.append(max(0, len(hypothesis) - n + 1))
    return [len(hypothesis), ref_len, *matches, *totals]


def bleu_ids(data: bytes) -> None:
    """Token ids the fuzzer picks from a few values that share low bits (hash-table collisions), large ids included."""
    source = _source(data)
    shift = source.integer(0, 31)
    pool = [(k << shift) & 0xFFFFFFFF for k in range(source.integer(1, 40))] + [0xFFFFFFFF, 0xFFFFFFFE]
    n = source.integer(1, 4)
    hypotheses = [[source.choice(pool) for _ in range(source.integer(0, 60))] for _ in range(n)]
    references = [[[source.choice(pool) for _ in range(source.integer(0, 60))]] for _ in range(n)]
    metric = refscore.BLEU()
    whole = metric.statistics(hypotheses, references, num_threads=1)
    _same_with_threads(lambda t: metric.statistics(hypotheses, references, num_threads=t).data)
    for k in range(n):
        assert whole.data[k].tolist() == _ngram_oracle(hypotheses[k], references[k]), (hypotheses[k], references[k])
    _check_merge(metric, hypotheses, references, whole)


def gleu(data: bytes) -> None:
    from nltk.translate.gleu_score import sentence_gleu

    source = _source(data)
    hypotheses, references = _corpus(source)
    metric = refscore.GLEU(tokenize="none")
    refs = refscore.from_streams(references)
    whole = metric.statistics(hypotheses, refs, num_threads=1)
    _same_with_threads(lambda t: metric.statistics(hypotheses, refs, num_threads=t).data)
    ours = metric.sentence_scores(hypotheses, refs)
    for k, hypothesis in enumerate(hypotheses):
        peer = sentence_gleu([r[k].split() for r in references], hypothesis.split())
        assert abs(ours[k] - peer) <= 1e-12, (hypothesis, [r[k] for r in references], ours[k], peer)
    _check_merge(metric, hypotheses, refs, whole)
    _check_range(metric, whole)


def chrf(data: bytes) -> None:
    from sacrebleu.metrics.chrf import CHRF

    source = _source(data)
    hypotheses, references = _corpus(source)
    word_order, lowercase = source.integer(0, 2), bool(source.integer(0, 1))
    metric = refscore.CHRF(word_order=word_order, lowercase=lowercase)
    refs = refscore.from_streams(references)
    whole = metric.statistics(hypotheses, refs, num_threads=1)
    _same_with_threads(lambda t: metric.statistics(hypotheses, refs, num_threads=t).data)
    peer = CHRF(word_order=word_order, lowercase=lowercase).corpus_score(hypotheses, references)
    assert abs(100 * metric.score_from_statistics(whole).score - peer.score) <= 1e-9, (hypotheses, references)
    _check_merge(metric, hypotheses, refs, whole)
    _check_range(metric, whole)


def ter(data: bytes) -> None:
    from sacrebleu.metrics.ter import TER

    source = _source(data)
    hypotheses, references = _corpus(source, 3, 50)
    options = {"normalized": bool(source.integer(0, 1)), "case_sensitive": bool(source.integer(0, 1)),
               "no_punct": bool(source.integer(0, 1)), "asian_support": bool(source.integer(0, 1))}
    metric = refscore.TER(**options)
    refs = refscore.from_streams(references)
    whole = metric.statistics(hypotheses, refs, num_threads=1)
    _same_with_threads(lambda t: metric.statistics(hypotheses, refs, num_threads=t).data)
    peer = TER(**options).corpus_score(hypotheses, references)
    assert abs(100 * metric.score_from_statistics(whole).score - peer.score) <= 1e-9, (hypotheses, references)
    _check_merge(metric, hypotheses, refs, whole)


@functools.lru_cache(maxsize=None)
def _rouge_scorer(stem: bool):
    from rouge_score.rouge_scorer import RougeScorer

    return RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=stem)


def rouge(data: bytes) -> None:
    source = _source(data)
    hypotheses, references = _corpus(source, 3, 60)
    references = references[:1]
    stem = bool(source.integer(0, 1))
    metric = refscore.ROUGE(types=("rouge1", "rouge2", "rougeL"), stemmer=stem)
    refs = refscore.from_streams(references)
    whole = metric.statistics(hypotheses, refs, num_threads=1)
    _same_with_threads(lambda t: metric.statistics(hypotheses, refs, num_threads=t).data)
    table = metric.segment_table(whole)
    for k, hypothesis in enumerate(hypotheses):
        peer = _rouge_scorer(stem).score(references[0][k], hypothesis)
        for name in ("rouge1", "rouge2", "rougeL"):
            assert abs(table[name][k] - peer[name].fmeasure) <= 1e-12, (hypothesis, references[0][k], name)
    _check_merge(metric, hypotheses, refs, whole)
    _check_range(metric, whole)


def rouge155_text(data: bytes) -> None:
    """ROUGE-1.5.5's reader: text and UTF-8 bytes read alike; the stemmer is a function of the word alone."""
    from refscore._core._rouge155_text import porter_stem_words
    from refscore.metrics.rouge.rouge155_text import script_text

    source = _source(data)
    texts = [t.replace("\x00", "") for t in source.texts(3, 80)]
    split_lines, stemming, stopwords = (bool(source.integer(0, 1)) for _ in range(3))
    reader = script_text()
    from_text = reader.tokenize(texts, split_lines, stemming, stopwords)
    from_bytes = reader.tokenize_bytes([t.encode("utf-8") for t in texts], split_lines, stemming, stopwords)
    for a, b in zip(from_text, from_bytes, strict=True):
        np.testing.assert_array_equal(a, b)
    words = [w.encode("utf-8") for t in texts for w in t.split()]
    assert porter_stem_words(words) == [porter_stem_words([w])[0] for w in words]
    metric = refscore.ROUGE155()
    hypotheses = [t or "x" for t in texts]
    whole = metric.statistics(hypotheses, refscore.from_streams([hypotheses[::-1]]), num_threads=1)
    _same_with_threads(lambda t: metric.statistics(hypotheses, refscore.from_streams([hypotheses[::-1]]),
                                                   num_threads=t).data)
    _check_range(metric, whole)


# -- readers -------------------------------------------------------------------------------------------------------
def _with_file(suffix: str, content: bytes, read: Callable[[str], object]) -> object:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "input" + suffix)
        with open(path, "wb") as handle:
            handle.write(content)
        try:
            return read(path)
        except RefscoreError:
            return None


def _read_records(path: str) -> list:
    from refscore.io.record_files import read_file
    from refscore.io.records import RecordLayout

    return [(c.hypotheses, c.references) for c in read_file(path, RecordLayout())]


def records_target(suffix: str) -> Callable[[bytes], None]:
    def target(data: bytes) -> None:
        source = _source(data)
        if source.integer(0, 1):  # structured: valid-looking records with fuzzed text
            texts = source.texts(6, 20)
            if suffix == ".jsonl":
                content = "\n".join(json.dumps({"prediction": a, "references": [b]}) for a, b in
                                    zip(texts[::2], texts[1::2])).encode()
            else:
                separator = "\t" if suffix == ".tsv" else ","
                content = ("prediction" + separator + "reference\n" + "\n".join(
                    a + separator + b for a, b in zip(texts[::2], texts[1::2]))).encode()
        else:
            content = data
        result = _with_file(suffix, content, _read_records)
        if result is not None and suffix == ".jsonl":
            lines = [line for line in content.split(b"\n") if line.strip()]
            hypotheses = [h for chunk in result for h in chunk[0]]
            assert hypotheses == [_json_prediction(line) for line in lines]
    return target


def _json_prediction(line: bytes) -> str:
    value = json.loads(line)
    return value.get("prediction", value.get("hypothesis", value.get("hyp")))


def records_parquet(data: bytes) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    source = _source(data)
    if source.integer(0, 1):
        buffer = io.BytesIO()
        kinds = [pa.string(), pa.int64(), pa.float64(), pa.binary(), pa.list_(pa.string()), pa.list_(pa.int64())]
        columns = {}
        for name in ("prediction", "references"):
            kind = source.choice(kinds)
            values = [source.text(10) for _ in range(3)]
            columns[name] = pa.array([_as(kind, v, source) for v in values], type=kind)
        pq.write_table(pa.table(columns), buffer)
        content = buffer.getvalue()
    else:
        content = data
    _with_file(".parquet", content, _read_records)


def _as(kind, text: str, source: Source):
    import pyarrow as pa

    if source.integer(0, 5) == 0:
        return None
    return {pa.string(): text, pa.int64(): len(text), pa.float64(): float(len(text)),
            pa.binary(): text.encode()}.get(kind, [text] if str(kind) == "list<item: string>" else [len(text)])


def records_text(data: bytes) -> None:
    from refscore.io.text_files import read_text_lines

    lines = _with_file(".txt", data, read_text_lines)
    if lines is not None:  # sacreBLEU's reading: split at \n, a final newline ends the last line, rstrip
        expected = data.decode("utf-8").removeprefix("\ufeff").split("\n")
        expected = expected[:-1] if expected[-1] == "" else expected
        assert lines == [line.rstrip() for line in expected]


def statistics_file(data: bytes) -> None:
    from refscore.io.statistics import load_statistics, save_statistics

    source = _source(data)
    if source.integer(0, 1):  # a valid file with fuzzer-chosen bytes overwritten
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "s.npz")
            save_statistics(path, refscore.BLEU().statistics(["a b c"], [["a b d"]]))
            content = bytearray(open(path, "rb").read())
        for _ in range(source.integer(1, 8)):
            content[source.integer(0, len(content) - 1)] = source.integer(0, 255)
        data = bytes(content)
    stats = _with_file(".npz", data, load_statistics)
    if stats is not None:
        assert stats.data.shape[1] == len(stats.columns) and stats.data.dtype.name in ("int64", "float64")


TARGETS: dict[str, Callable[[bytes], None]] = {
    **{f"tokenize-{name}": tokenizer_target(name) for name in ("13a", "intl", "zh", "char")},
    "tokenize-ja-mecab": mecab_target("ja-mecab"), "tokenize-ko-mecab": mecab_target("ko-mecab"),
    "tokenize-rouge": rouge_tokenizer, "bleu-text": bleu_text, "bleu-ids": bleu_ids, "gleu": gleu, "chrf": chrf,
    "ter": ter, "rouge": rouge, "rouge155-text": rouge155_text,
    "records-jsonl": records_target(".jsonl"), "records-csv": records_target(".csv"),
    "records-tsv": records_target(".tsv"), "records-parquet": records_parquet, "records-text": records_text,
    "statistics-file": statistics_file,
}

# The targets of the other modules import this module's helpers (Source, _corpus, _same_with_threads).
from edit_targets import EDIT_TARGETS  # noqa: E402  (levenshtein, edit-distance, eed)
from kernel_targets import KERNEL_TARGETS  # noqa: E402  (mt-coins, hash-keys, batch-text)
from meteor_targets import METEOR_TARGETS  # noqa: E402
from pair_targets import PAIR_TARGETS  # noqa: E402  (pairwise, mbr)
from reader_targets import READER_TARGETS  # noqa: E402  (text-budget, case-file-budget)
from spm_targets import SPM_TARGETS  # noqa: E402  (the SentencePiece targets)
from statistics_targets import STATISTICS_TARGETS  # noqa: E402  (statistics-header)

TARGETS.update(SPM_TARGETS)
TARGETS.update(PAIR_TARGETS)
TARGETS.update(KERNEL_TARGETS)
TARGETS.update(EDIT_TARGETS)
TARGETS.update(METEOR_TARGETS)
TARGETS.update(STATISTICS_TARGETS)
TARGETS.update(READER_TARGETS)
