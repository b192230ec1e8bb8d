"""rougeW / rougeS / rougeSU in the rouge-score flavor (Lin 2004 definitions on rouge-score tokens), and the
rouge155 flavor reached through refscore.rouge()."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import refscore
from refscore.metrics.rouge import ROUGE155


def reference_wlcs(ref: list[int], hyp: list[int], weight: float) -> float:
    """Lin (2004), Fig. 2: weighted LCS with f(k) = k ** weight (reference rows, hypothesis columns)."""
    f = lambda k: k ** weight  # noqa: E731
    c = np.zeros((len(ref) + 1, len(hyp) + 1))
    run = np.zeros((len(ref) + 1, len(hyp) + 1), dtype=int)
    for i in range(1, len(ref) + 1):
        for j in range(1, len(hyp) + 1):
            if ref[i - 1] == hyp[j - 1]:
                k = run[i - 1, j - 1]
                c[i, j] = c[i - 1, j - 1] + f(k + 1) - f(k)
                run[i, j] = k + 1
            elif c[i - 1, j] > c[i, j - 1]:
                c[i, j] = c[i - 1, j]
            else:
                c[i, j] = c[i, j - 1]
    return float(c[-1, -1])


def skip_bigrams(tokens: list[int], distance: int | None, unigrams: bool) -> Counter:
    grams = Counter((tokens[i], tokens[j]) for i in range(len(tokens)) for j in range(i + 1, len(tokens))
                    if distance is None or j - i - 1 <= distance)
    if unigrams:
        grams.update((t,) for t in tokens)
    return grams


def harmonic(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def reference_prf(kind: str, ref: list[int], hyp: list[int], weight: float, distance: int | None):
    if kind == "rougeW":
        value = reference_wlcs(ref, hyp, weight)
        r = (value / len(ref) ** weight) ** (1 / weight) if ref else 0.0
        p = (value / len(hyp) ** weight) ** (1 / weight) if hyp else 0.0
    else:
        a, b = skip_bigrams(ref, distance, kind == "rougeSU"), skip_bigrams(hyp, distance, kind == "rougeSU")
        hits = sum((a & b).values())
        r = hits / sum(a.values()) if a else 0.0
        p = hits / sum(b.values()) if b else 0.0
    return p, r, harmonic(p, r)


token_lists = st.lists(st.integers(0, 5), max_size=12)


@settings(max_examples=120, deadline=None)
@given(hyp=token_lists, refs=st.lists(token_lists, min_size=1, max_size=3),
       weight=st.sampled_from([1.2, 1.5, 2.0]), distance=st.sampled_from([None, 0, 1, 4]))
def test_extended_types_match_the_definitions(hyp, refs, weight, distance):
    result = refscore.rouge([hyp], [refs], types=("rougeW", "rougeS", "rougeSU"), w_weight=weight,
                            skip_distance=distance)
    for kind in ("rougeW", "rougeS", "rougeSU"):
        candidates = [reference_prf(kind, ref, hyp, weight, distance) for ref in refs]
        best = max(range(len(refs)), key=lambda k: (candidates[k][2], -k))
        p, r, f = candidates[best]
        got = result[kind]
        assert got.best_reference[0] == best
        assert got.precision[0] == pytest.approx(p, abs=1e-12)
        assert got.recall[0] == pytest.approx(r, abs=1e-12)
        assert got.fmeasure[0] == pytest.approx(f, abs=1e-12)


def test_extended_types_on_text_use_the_rouge_score_tokens():
    text = refscore.rouge(["The cat, the CAT sat."], ["a cat sat"], types=("rougeSU",), skip_distance=None)
    ids = refscore.rouge([[1, 2, 1, 2, 3]], [[4, 2, 3]], types=("rougeSU",), skip_distance=None)
    assert text["rougeSU"].fmeasure[0] == ids["rougeSU"].fmeasure[0]


def test_mixed_kernel_and_extended_types_keep_the_requested_order():
    result = refscore.rouge(["a b c d"], ["a c b d"], types=("rougeSU", "rouge1", "rougeW", "rougeL"))
    assert list(result) == ["rougeSU", "rouge1", "rougeW", "rougeL"]
    assert result["rouge1"].fmeasure[0] == 1.0
    assert result.values["types"] == ("rougeSU", "rouge1", "rougeW", "rougeL")
    assert "w:1.2" in result.signature and "skip:4" in result.signature


def test_bad_extended_options():
    with pytest.raises(ValueError, match="w_weight"):
        refscore.rouge(["a"], ["a"], types=("rougeW",), w_weight=1.0)
    with pytest.raises(ValueError, match="skip_distance"):
        refscore.rouge(["a"], ["a"], types=("rougeS",), skip_distance=-2)


def test_rouge155_flavor_through_rouge_equals_the_metric():
    predictions = ["the cat sat on the mat\nit was happy", "a dog barked"]
    references = [["the cat was on the mat\nit was happy", "a cat sat"], "the dog barked loudly"]
    result = refscore.rouge(predictions, references, types=("rouge1", "rougeL", "rougeW", "rougeSU"),
                            flavor="rouge155", stemmer=True, skip_distance=None)
    direct = ROUGE155(types=("ROUGE-1", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU*"), stemming=True)
    results = direct.document_results(predictions, references)
    for t, name in enumerate(("rouge1", "rougeL", "rougeW", "rougeSU")):
        assert result[name].recall.tolist() == results[:, t, 2].tolist()
        assert result[name].precision.tolist() == results[:, t, 4].tolist()
        assert result[name].fmeasure.tolist() == results[:, t, 5].tolist()
    assert "impl:ROUGE-1.5.5" in result.signature


def test_rouge155_flavor_refuses_rouge_score_only_options():
    with pytest.raises(ValueError, match="flavor='rouge-score' only"):
        refscore.rouge(["a"], ["a"], flavor="rouge155", tokenizer="unicode")
