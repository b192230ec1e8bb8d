"""The ROUGE-1.5.5 kernels against plain-Python transcriptions of the Perl subroutines (lcs_inner/wlcs_inner +
markLCS, lcs/wlcs hit counting with unigram clipping, createNGram/createSkipBigram, the -f A/B formulas), on
hypothesis-generated token sequences."""
from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from refscore._core._rouge155 import lcs_hit_mask, perl_bootstrap_means, score_documents, skip_bigram_pairs, wlcs_pairs
from refscore._core._rouge155_text import ScriptText
from rouge155_perl_oracle import tokenize_sentence

# ---- Python references (direct transcriptions of ROUGE-1.5.5.pl) -----------------------------------------------


def ref_mark(model, peer, weight=None):
    """lcs_inner / wlcs_inner + markLCS: the hit mask over the model."""
    m, n = len(model), len(peer)
    mask = [0] * m
    if m == 0:
        return mask
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    run = [[0] * (n + 1) for _ in range(m + 1)]
    b = [[""] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if model[i - 1] == peer[j - 1]:
                k = run[i - 1][j - 1]
                c[i][j] = c[i - 1][j - 1] + 1 if weight is None else c[i - 1][j - 1] + (k + 1) ** weight - k ** weight
                run[i][j] = k + 1
                b[i][j] = "\\"
            elif c[i - 1][j] >= c[i][j - 1]:
                c[i][j], b[i][j] = c[i - 1][j], "^"
            else:
                c[i][j], b[i][j] = c[i][j - 1], "<"
    i, j = m, n
    while i and j:
        if b[i][j] == "\\":
            i, j = i - 1, j - 1
            mask[i] = 1
        elif b[i][j] == "^":
            i -= 1
        else:
            j -= 1
    return mask


def ref_wlcs_value(model, peer, weight):
    m, n = len(model), len(peer)
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    run = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if model[i - 1] == peer[j - 1]:
                k = run[i - 1][j - 1]
                c[i][j] = c[i - 1][j - 1] + (k + 1) ** weight - k ** weight
                run[i][j] = k + 1
            else:
                c[i][j] = c[i - 1][j] if c[i - 1][j] >= c[i][j - 1] else c[i][j - 1]
    return c[m][n]


def ref_ngrams(tokens, n):
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def ref_skip_bigrams(tokens, skip, unigrams, last_unigram=False):
    grams = Counter()
    if unigrams and last_unigram and tokens:
        grams[(tokens[-1],)] += 1
    for i in range(len(tokens) - 1):
        if unigrams:
            grams[(tokens[i],)] += 1
        for j in range(i + 1, len(tokens)):
            if skip >= 0 and j > i + skip + 1:
                break
            grams[(tokens[i], tokens[j])] += 1
    return grams


def round5(x):
    return float(f"{x:.5f}")


def ref_union_lcs(model_units, peer_units, model_flat, peer_flat, weight):
    model_counts, peer_counts = Counter(model_flat), Counter(peer_flat)
    hit, base = 0.0, 0.0
    for sentence in model_units:
        mask = [0] * len(sentence)
        base += len(sentence) if weight is None else len(sentence) ** weight
        for peer_sentence in peer_units:
            for k, v in enumerate(ref_mark(sentence, peer_sentence, weight)):
                mask[k] |= v
        run = 0
        for j, token in enumerate(sentence):
            if mask[j] and model_counts[token] > 0 and peer_counts[token] > 0:
                if weight is None:
                    hit += 1
                else:
                    run += 1
                    if (j + 1 < len(sentence) and not mask[j + 1]) or j + 1 == len(sentence):
                        hit += run ** weight
                        run = 0
                model_counts[token] -= 1
                peer_counts[token] -= 1
    return hit, base


def ref_document(peer_units, models_units, kind, param, weight, unigrams, best, alpha):
    """computeNGramScore / computeLCSScore / computeWLCSScore / computeSkipBigramScore for one peer."""
    peer_flat = [t for s in peer_units for t in s]
    total_hit = total_count = total_peer = 0.0
    best_score = -1.0
    for model_units in models_units:
        model_flat = [t for s in model_units for t in s]
        if kind in (0, 3):
            grams = (lambda t: ref_ngrams(t, param)) if kind == 0 else (lambda t: ref_skip_bigrams(t, param, unigrams))
            p, m = grams(peer_flat), grams(model_flat)
            hit, count, peer_count = sum(min(v, p[g]) for g, v in m.items()), sum(m.values()), sum(p.values())
            score = round5(hit / count) if count else 0.0
        else:
            w = weight if kind == 2 else None
            hit, base = ref_union_lcs(model_units, peer_units, model_flat, peer_flat, w)
            score = 0.0 if base == 0 else (hit / base if w is None else (hit / base) ** (1 / w))
            count = base if w is None else base ** w
            peer_count = len(peer_flat) if w is None else len(peer_flat) ** w
        if best:
            if score > best_score:
                best_score, total_hit, total_count, total_peer = score, hit, count, peer_count
        else:
            total_hit, total_count, total_peer = total_hit + hit, total_count + count, total_peer + peer_count
    inverse = (lambda x: x ** (1 / weight)) if kind == 2 else (lambda x: x)
    r = round5(inverse(total_hit / total_count)) if total_count else 0.0
    p = round5(inverse(total_hit / total_peer)) if total_peer else 0.0
    f = round5(p * r / ((1 - alpha) * p + alpha * r)) if (1 - alpha) * p + alpha * r > 0 else 0.0
    return r, p, f


# ---- strategies ------------------------------------------------------------------------------------------------
tokens = st.lists(st.integers(0, 5), max_size=14)
units = st.lists(tokens, max_size=4)
documents = st.lists(st.tuples(units, st.lists(units, min_size=1, max_size=3)), min_size=1, max_size=4)
rouge_type = st.sampled_from([(0, 1, 0.0, False), (0, 2, 0.0, False), (0, 3, 0.0, False), (1, 0, 0.0, False),
                              (2, 0, 1.2, False), (2, 0, 2.0, False), (3, -1, 0.0, False), (3, -1, 0.0, True),
                              (3, 0, 0.0, True), (3, 2, 0.0, False)])


def as_csr(list_of_lists):
    flat = np.array([t for item in list_of_lists for t in item], dtype=np.uint32)
    offsets = np.zeros(len(list_of_lists) + 1, dtype=np.int64)
    np.cumsum([len(item) for item in list_of_lists], out=offsets[1:])
    return flat, offsets


def run_kernel(docs, types, best, alpha, num_threads=1):
    texts = [peer for peer, _ in docs] + [model for _, models in docs for model in models]
    unit_tokens, unit_offsets = as_csr([u for text in texts for u in text])
    flat_tokens, flat_offsets = as_csr([[t for u in text for t in u] for text in texts])
    text_units = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum([len(text) for text in texts], out=text_units[1:])
    n = len(docs)
    model_offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum([len(models) for _, models in docs], out=model_offsets[1:])
    return score_documents(flat_tokens, flat_offsets, unit_tokens, unit_offsets, text_units,
                           np.arange(n, dtype=np.int64), model_offsets, np.arange(n, len(texts), dtype=np.int64),
                           np.array([t[0] for t in types], dtype=np.int64),
                           np.array([t[1] for t in types], dtype=np.int64),
                           np.array([t[2] for t in types], dtype=np.float64),
                           np.array([t[3] for t in types], dtype=np.int64),
                           best_model=best, alpha=alpha, num_threads=num_threads)


# ---- tests -----------------------------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(tokens, tokens, st.sampled_from([None, 1.2, 2.0, 0.5]), st.integers(1, 40))
def test_hit_mask_equals_the_perl_backtrack_for_any_block_size(model, peer, weight, block_cells):
    expected = ref_mark(model, peer, weight)
    model_ids, peer_ids = np.array(model, dtype=np.uint32), np.array(peer, dtype=np.uint32)
    assert lcs_hit_mask(model_ids, peer_ids, weight).astype(int).tolist() == expected
    # tiny blocks force the linear-memory divide and conquer
    assert lcs_hit_mask(model_ids, peer_ids, weight, block_cells=block_cells).astype(int).tolist() == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(tokens, tokens), min_size=1, max_size=5), st.sampled_from([1.2, 1.5, 2.0]))
def test_wlcs_value_equals_the_dp(pairs, weight):
    refs, hyps = as_csr([p[0] for p in pairs]), as_csr([p[1] for p in pairs])
    got = wlcs_pairs(*refs, *hyps, weight)
    assert got.tolist() == [ref_wlcs_value(r, h, weight) for r, h in pairs]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(tokens, tokens), min_size=1, max_size=5), st.integers(-1, 4), st.booleans(), st.booleans())
def test_skip_bigram_pairs_equal_the_reference(pairs, skip, unigrams, last_unigram):
    got = skip_bigram_pairs(*as_csr([p[0] for p in pairs]), *as_csr([p[1] for p in pairs]), max_skip=skip,
                            unigrams=unigrams, last_unigram=last_unigram)
    for (ref, hyp), row in zip(pairs, got.tolist()):
        r = ref_skip_bigrams(ref, skip, unigrams, last_unigram)
        h = ref_skip_bigrams(hyp, skip, unigrams, last_unigram)
        assert row == [sum(min(v, h[g]) for g, v in r.items()), sum(r.values()), sum(h.values())]


@settings(max_examples=150, deadline=None)
@given(documents, st.lists(rouge_type, min_size=1, max_size=3, unique=True), st.booleans(),
       st.sampled_from([0.5, 0.0, 1.0, 0.8]))
def test_documents_equal_the_perl_formulas(docs, types, best, alpha):
    got = run_kernel(docs, types, best, alpha)
    for d, (peer, models) in enumerate(docs):
        for t, (kind, param, weight, unigrams) in enumerate(types):
            expected = ref_document(peer, models, kind, param, weight, unigrams, best, alpha)
            assert tuple(got[d, t, [2, 4, 5]].tolist()) == expected, (d, t)


@settings(max_examples=30, deadline=None)
@given(documents)
def test_thread_count_never_changes_results(docs):
    types = [(0, 2, 0.0, False), (1, 0, 0.0, False), (2, 0, 1.2, False), (3, -1, 0.0, True)]
    assert np.array_equal(run_kernel(docs, types, False, 0.5, 1), run_kernel(docs, types, False, 0.5, 2))


def test_many_distinct_tokens_use_the_sorted_skip_bigram_path():
    peer = [list(range(0, 2500))]
    model = [list(range(1000, 3500, 2))]
    got = run_kernel([(peer, [model])], [(3, 3, 0.0, True)], False, 0.5)
    assert tuple(got[0, 0, [2, 4, 5]].tolist()) == ref_document(peer, [model], 3, 3, 0.0, True, False, 0.5)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from("aZ9-. \t\n\r\x0béé中.'$_\udce9\udc80😀"), max_size=40))
def test_tokenizer_equals_the_script_cleanup(text):
    ids, lengths, units = ScriptText([], {}).tokenize([text], True, False, False)
    data = text.encode("utf-8", errors="surrogateescape")  # the bytes the script reads
    lines = [line for line in data.split(b"\n") if line]
    assert units.tolist() == [len(lines)]
    expected = [tokenize_sentence(line) for line in lines]
    assert lengths.tolist() == [len(e) for e in expected]
    first_seen = list(dict.fromkeys(token for e in expected for token in e))  # ids in order of first appearance
    assert ids.tolist() == [first_seen.index(token) for e in expected for token in e]


def test_perl_bootstrap_draws_are_perls_drand48():
    # srand(0); int(rand(11490)) x 5 in perl 5.36 gives 1962 8616 1107 10001 6633
    values = np.zeros((11490, 1))
    values[[1962, 8616, 1107, 10001, 6633], 0] = 1.0

    def reference(seed, n):
        state = (seed << 16) + 0x330E
        for _ in range(n):
            state = (0x5DEECE66D * state + 0xB) & ((1 << 48) - 1)
            yield int(state / 2**48 * n)

    assert list(reference(0, 11490))[:5] == [1962, 8616, 1107, 10001, 6633]
    data = np.random.default_rng(1).random((37, 2))
    got = perl_bootstrap_means(data, 4)
    for seed in range(4):
        draws = list(reference(seed, 37))
        expected = [sum(data[i, k] for i in draws) / 37 for k in range(2)]
        assert got[seed].tolist() == expected


def test_bad_kernel_arguments_raise():
    docs = [([[1, 2]], [[[1, 2]]])]
    for types, message in (([(0, 0, 0.0, False)], "order must be >= 1"), ([(2, 0, 0.0, False)], "weight must be > 0"),
                           ([(7, 0, 0.0, False)], "not a ROUGE kind")):
        try:
            run_kernel(docs, types, False, 0.5)
        except ValueError as exc:
            assert message in str(exc)
        else:
            raise AssertionError(f"{types} accepted")
