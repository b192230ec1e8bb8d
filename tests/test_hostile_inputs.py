"""Hostile and pathological input (docs/reliability.md): each gets the peer's number or a clear error naming the
limit, never a crash, a silent NaN or quadratic work. Sizes are scaled down where the bound is linear; the full
sizes are measured by benchmarks/bench_pathological.py."""
from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pytest
from sacrebleu.metrics.bleu import BLEU as SacreBLEU
from sacrebleu.metrics.chrf import CHRF as SacreCHRF
from sacrebleu.metrics.ter import TER as SacreTER

import refscore
from refscore.errors import InputError, MemoryBudgetError
from refscore.io.record_files import MAX_LINE_BYTES_VARIABLE, read_file
from refscore.io.records import MalformedRecordError, RecordFormatError, RecordLayout
from refscore.protocol import Statistics


def _records(path):
    return [h for chunk in read_file(str(path), RecordLayout()) for h in chunk.hypotheses]


# -- record files --------------------------------------------------------------------------------------------------
def test_a_jsonl_line_over_the_line_limit_is_refused_with_the_setting(tmp_path, monkeypatch):
    path = tmp_path / "long.jsonl"
    short = b'{"prediction": "a", "references": "a"}'
    path.write_bytes(short + b"\n" + b'{"prediction": "' + b"x" * 100 + b'", "references": "a"}\n')
    monkeypatch.setenv(MAX_LINE_BYTES_VARIABLE, str(len(short)))
    with pytest.raises(RecordFormatError, match=rf"long.jsonl: line 2 is longer than {len(short)} bytes.*"
                                                rf"{MAX_LINE_BYTES_VARIABLE}=<bytes>"):
        _records(path)
    path.write_bytes(short + b"\n" + short)   # exactly at the limit, with and without the final line break
    assert _records(path) == ["a", "a"]
    monkeypatch.setenv(MAX_LINE_BYTES_VARIABLE, "lots")
    with pytest.raises(RecordFormatError, match="positive integer"):
        _records(path)


def test_a_csv_quote_that_never_closes_names_the_line(tmp_path):
    path = tmp_path / "open.csv"
    path.write_text('prediction,references\na,b\n"never closed,c\nd,e\n', encoding="utf-8")
    with pytest.raises(RecordFormatError, match=r"open.csv: line 3: malformed CSV \(unexpected end of data\)"):
        _records(path)


@pytest.mark.parametrize(("columns", "message"), [
    ({"prediction": [1, 2], "references": ["a", "b"]}, r"row 1: 'prediction' must be a string, got a int"),
    ({"prediction": ["a", "b"], "references": [[1], [2]]}, r"row 1: references\[0\] is a int"),
    ({"prediction": [b"a", b"b"], "references": ["a", "b"]}, r"row 1: 'prediction' must be a string, got a bytes"),
])
def test_a_parquet_column_of_the_wrong_type_names_the_row_and_field(tmp_path, columns, message):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "typed.parquet"
    pq.write_table(pa.table(columns), path)
    with pytest.raises(MalformedRecordError, match=message):
        _records(path)


# -- statistics ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [np.inf, -np.inf])
def test_infinite_statistics_never_reach_a_formula(value):
    metric = refscore.ROUGE(types=("rouge1",))
    stats = metric.statistics(["a b"], ["a c"])
    data = stats.data.copy()
    data[0, 0] = value
    with pytest.raises(InputError, match=rf"must be finite or NaN: segment 0, column 0 is {value}"):
        Statistics(stats.metric, stats.config_hash, stats.columns, data, stats.nrefs)


def test_nan_statistics_stay_visible_nan():
    # NaN is a per-segment value a peer may define (bert-score's recall with idf when all weights are 0): kept, and
    # a total over it is NaN (as the peer's mean is), never a number
    metric = refscore.ROUGE(types=("rouge1",))
    stats = metric.statistics(["a b", "c d"], ["a c", "c d"])
    data = stats.data.astype(np.float64)
    data[0, 0] = np.nan
    kept = Statistics(stats.metric, stats.config_hash, stats.columns, data, stats.nrefs)
    assert np.isnan(kept.totals()[0]) and not np.isnan(kept.totals()[1:]).any()


# -- text that stresses the kernels -------------------------------------------------------------------------------
PATHOLOGICAL = {
    "one-character": "a" * 3000,
    "one-character-spaced": "a " * 1500,
    "combining-marks": "\u0301" * 2000,
    "combining-after-space": " \u0308" * 800,
    "one-cjk-character": "語" * 1500,
}


@pytest.mark.parametrize("name", PATHOLOGICAL)
def test_degenerate_texts_score_as_sacrebleu_does(name):
    text = PATHOLOGICAL[name]
    hypotheses, references = [text, text[: len(text) // 2]], [[text[: len(text) // 3], text]]
    assert abs(100 * refscore.bleu(hypotheses, refscore.from_streams(references)).score
               - SacreBLEU().corpus_score(hypotheses, references).score) <= 1e-9
    assert abs(100 * refscore.chrf(hypotheses, refscore.from_streams(references), word_order=2).score
               - SacreCHRF(word_order=2).corpus_score(hypotheses, references).score) <= 1e-9
    short = [h[:300] for h in hypotheses], [[r[:300] for r in references[0]]]   # TER's shift search: kept small
    assert abs(100 * refscore.ter(short[0], refscore.from_streams(short[1])).score
               - SacreTER().corpus_score(*short).score) <= 1e-9


@pytest.mark.parametrize("name", PATHOLOGICAL)
def test_degenerate_texts_score_as_rouge_score_does(name):
    from rouge_score.rouge_scorer import RougeScorer

    text = PATHOLOGICAL[name][:600]   # rouge-score's LCS is pure Python
    ours = refscore.ROUGE(types=("rouge1", "rouge2", "rougeL")).segment_table(
        refscore.ROUGE(types=("rouge1", "rouge2", "rougeL")).statistics([text], [text[: len(text) // 2]]))
    peer = RougeScorer(["rouge1", "rouge2", "rougeL"]).score(text[: len(text) // 2], text)
    for kind in ("rouge1", "rouge2", "rougeL"):
        assert abs(ours[kind][0] - peer[kind].fmeasure) <= 1e-12


def _same_shape_tokens(count: int) -> str:
    """Distinct tokens with one first character, one last character and one length: they share the short-segment
    table's shape hash (_tokenize_hash.hpp SegmentHash), the collision anyone can craft without knowing a key."""
    middles = ("".join(letters) for letters in itertools.product("bcdefghijklmnopqrstuvwxy", repeat=4))
    return " ".join(f"a{middle}z" for middle in itertools.islice(middles, count))


def test_tokens_sharing_a_shape_hash_score_as_the_peer_does():
    hypothesis, reference = _same_shape_tokens(20_000), _same_shape_tokens(15_000)
    assert abs(100 * refscore.bleu([hypothesis], [reference]).score
               - SacreBLEU().corpus_score([hypothesis], [[reference]]).score) <= 1e-9
    assert abs(100 * refscore.chrf([hypothesis], [reference], word_order=2).score
               - SacreCHRF(word_order=2).corpus_score([hypothesis], [[reference]]).score) <= 1e-9


def test_colliding_tokens_do_not_make_scoring_quadratic():
    # 100,000 same-shape tokens in one segment: linear work is well under a second per metric; one probe per earlier
    # colliding token would be 5e9 probes (minutes). The bound is generous against a loaded machine.
    program = ("import sys; sys.path.insert(0, {tests!r}); from test_hostile_inputs import _same_shape_tokens; "
               "import refscore; text = _same_shape_tokens(100_000); "
               "refscore.bleu([text], [text[::-1]]); refscore.chrf([text], [text], word_order=2); "
               "refscore.rouge([text], [text], ('rouge1',))")
    from pathlib import Path

    done = subprocess.run([sys.executable, "-c", program.format(tests=str(Path(__file__).parent))],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_many_references_for_one_segment_score_as_sacrebleu_does():
    # the bound is linear in the references (docs/reliability.md: 100,000 measured); 3,000 here
    references = [[f"reference {k} of the cat on mat {k % 7}"] for k in range(3000)]
    hypotheses = ["the cat sat on the mat"]
    streams = [[r[0]] for r in references]
    assert abs(100 * refscore.bleu(hypotheses, [[r[0] for r in references]]).score
               - SacreBLEU().corpus_score(hypotheses, streams).score) <= 1e-9
    assert abs(100 * refscore.chrf(hypotheses, [[r[0] for r in references]]).score
               - SacreCHRF().corpus_score(hypotheses, streams).score) <= 1e-9


def test_a_long_hypothesis_scores_as_the_peers_do_for_ter_and_rouge_l():
    from rouge_score.rouge_scorer import RougeScorer

    words = [f"w{(k * 7919) % 500}" for k in range(3000)]
    hypothesis, reference = " ".join(words), " ".join(words[::13][:200])
    peer = RougeScorer(["rougeL"]).score(reference, hypothesis)["rougeL"].fmeasure
    assert abs(refscore.rouge([hypothesis], [reference], ("rougeL",)).score - peer) <= 1e-12
    short, reference = " ".join(words[:120]), " ".join(words[::13][:80])   # sacreBLEU's TER is pure Python
    assert abs(100 * refscore.ter([short], [reference]).score
               - SacreTER().corpus_score([short], [[reference]]).score) <= 1e-9


# -- third-party tokenizers: guarded calls ----------------------------------------------------------------------
def test_mecab_input_is_guarded(monkeypatch):
    pytest.importorskip("MeCab")
    pytest.importorskip("ipadic")
    from refscore.text import _mecab

    with pytest.raises(InputError, match=r"segment 1: ja-mecab: a segment holds a NUL character \(position 1\)"):
        refscore.bleu(["猫です", "猫\x00犬"], ["猫です", "猫犬"], tokenize="ja-mecab")
    monkeypatch.setattr(_mecab, "MECAB_MAX_LINE_CHARS", 5)
    with pytest.raises(InputError, match=r"segment 0: ja-mecab: a segment of 6 characters is longer than MeCab "
                                         r"is given \(5"):
        refscore.bleu(["東京大学の猫"], ["猫"], tokenize="ja-mecab")
    assert refscore.bleu(["東京の猫"], ["猫"], tokenize="ja-mecab").score >= 0   # at the limit: read


@pytest.fixture(scope="module")
def spm_model_file(tmp_path_factory):
    """A small SentencePiece model trained on the bundled WMT17 example (no download)."""
    import io
    from importlib import resources

    sentencepiece = pytest.importorskip("sentencepiece")
    data = resources.files("refscore") / "data" / "wmt17_en_de"
    lines = (data / "ref.txt").read_text(encoding="utf-8").splitlines()[:200]
    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=model, vocab_size=200,
                                             character_coverage=1.0, minloglevel=2)
    path = tmp_path_factory.mktemp("spm") / "small.model"
    path.write_bytes(model.getvalue())
    return path


def test_a_sentencepiece_model_that_cannot_load_is_an_error_naming_the_file(spm_model_file, tmp_path):
    good = spm_model_file.read_bytes()
    damaged = bytearray(good)
    damaged[len(good) // 3: len(good) // 3 + 64] = bytes(64)
    for name, content in [("empty", b""), ("text", b"not a model\n"), ("truncated", good[: len(good) // 2]),
                          ("damaged", bytes(damaged))]:
        path = tmp_path / f"{name}.model"
        path.write_bytes(content)
        with pytest.raises(InputError, match=rf"tokenize='flores200': {path} is not a SentencePiece model "
                                             r"SentencePiece can load \(.+\); the file may be damaged"):
            refscore.bleu(["a b"], ["a b"], tokenize="flores200", spm_model=path)


def test_sentencepiece_lines_are_guarded(spm_model_file, monkeypatch):
    import sentencepiece

    from refscore.text import _spm

    processor = sentencepiece.SentencePieceProcessor()
    processor.Load(str(spm_model_file))
    line = "Der Hund ist sehr schön. " * 40
    expected = " ".join(processor.EncodeAsPieces(line.rstrip()))
    from refscore.text.external import tokenize_texts

    assert tokenize_texts("flores200", ["a", line], spm_model=spm_model_file)[1] == expected
    monkeypatch.setenv("REFSCORE_MEMORY_BUDGET", str(len(line.rstrip().encode()) * _spm.SPM_BYTES_PER_INPUT_BYTE - 1))
    with pytest.raises(MemoryBudgetError, match=r"tokenize='flores200' of hypotheses\[1\] \(1,039 bytes\) needs "
                                                r"about .*REFSCORE_MEMORY_BUDGET.*split it into sentences"):
        refscore.bleu(["a", line], ["a", "b"], tokenize="flores200", spm_model=spm_model_file, num_threads=1)
    monkeypatch.delenv("REFSCORE_MEMORY_BUDGET")
    monkeypatch.setattr(_spm, "SPM_MAX_LINE_BYTES", 10)
    with pytest.raises(InputError, match=r"references \(flattened\)\[0\]: tokenize='flores200': a line of 11 bytes "
                                         r"is longer than SentencePiece reads \(10 bytes"):
        refscore.bleu(["schön"], ["x" * 11], tokenize="flores200", spm_model=spm_model_file)
    assert refscore.bleu(["schön"], ["x" * 10], tokenize="flores200", spm_model=spm_model_file).score >= 0


def test_the_dropped_text_check_holds_no_object_per_character():
    # ROUGE's warning that rouge-score's tokenizer drops most characters counted them with re.findall, one new str
    # per non-Latin-1 character (~80 bytes): 740 MB for 5 M combining marks (benchmarks/bench_pathological.py)
    import tracemalloc

    from refscore.metrics.rouge.words import dropped_share

    text = "\u0301" * 200_000
    tracemalloc.start()
    try:
        share = dropped_share([text, "abc"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert share == pytest.approx(200_000 / 200_003) and peak < 20 * len(text)   # findall: 84 bytes a character
