# cython: language_level=3
"""ROUGE-1.5.5 kernels on token ids: n-gram hits, skip-bigrams (ROUGE-S/SU), summary-level union LCS (ROUGE-L),
weighted LCS (ROUGE-W), and ROUGE-1.5.5's seeded bootstrap (Perl's ``srand(i)`` / ``rand`` = drand48).

Texts arrive once as CSR arrays of ``uint32`` token ids; the C++ core (``_rouge155_kernel.hpp``) scores each document
inside one ``nogil`` ``prange``, with per-thread scratch, so results never depend on the thread count. The kernels
take any tokenization: ROUGE-1.5.5's own (``_rouge155_text.pyx``) or another flavor's token ids.

>>> import numpy as np
>>> ref, hyp = np.array([1, 2, 3], dtype=np.uint32), np.array([1, 3, 2], dtype=np.uint32)
>>> offsets = np.array([0, 3], dtype=np.int64)
>>> skip_bigram_pairs(ref, offsets, hyp, offsets, max_skip=-1, unigrams=False).tolist()  # hits, ref, hyp
[[2, 3, 3]]
"""
from cython.parallel cimport prange, threadid
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libcpp cimport bool as cbool
from libcpp.vector cimport vector
from refscore._core._interrupt cimport begin as begin_interruptible, raise_if_interrupted
from refscore._core._rouge155_kernel cimport (Corpus, PathMarker, Scratch, Seq, clipped_overlap,
                                              ensure_pow_table, score_document, skip_bigram_keys)

import numpy as np

from refscore._core._parallel import resolve_num_threads

#: kind codes of score_documents' ``kinds`` argument
KIND_NGRAM = 0
KIND_LCS = 1
KIND_WLCS = 2
KIND_SKIP = 3
#: columns of score_documents' result, in ROUGE-1.5.5's ``@results`` order
RESULT_COLUMNS = ("model_count", "hits", "recall", "peer_count", "precision", "fmeasure")

cdef inline Seq _seq(const uint32_t* tokens, const int64_t* offsets, int64_t index) noexcept nogil:
    cdef Seq s
    s.data = tokens + offsets[index]
    s.len = offsets[index + 1] - offsets[index]
    return s


#: the most skip-bigrams one text may produce (the sorted-key path stores them all: 8 bytes each)
MAX_SKIP_BIGRAMS = 1 << 30


def skip_bigram_count(int64_t length, int64_t max_skip, bint unigrams=False):
    """Number of skip-bigrams (plus unigrams) ROUGE-1.5.5 counts in a text of ``length`` tokens."""
    if length < 2:
        return 0
    cdef int64_t pairs
    if max_skip < 0 or max_skip + 1 >= length - 1:
        pairs = length * (length - 1) // 2
    else:
        pairs = (max_skip + 1) * (length - 1) - (max_skip + 1) * max_skip // 2
    return pairs + (length - 1 if unigrams else 0)


def check_skip_bigram_size(const int64_t[::1] offsets, int64_t max_skip, bint unigrams, name):
    """Refuse texts whose skip-bigram count (quadratic in the length for ROUGE-S*) exceeds MAX_SKIP_BIGRAMS."""
    if offsets.shape[0] < 2:
        return
    lengths = np.diff(np.asarray(offsets))
    longest = int(np.argmax(lengths))
    count = skip_bigram_count(int(lengths[longest]), max_skip, unigrams)
    if count > MAX_SKIP_BIGRAMS:
        raise ValueError(
            f"{name} {longest} has {int(lengths[longest])} tokens, i.e. {count} skip-bigrams (quadratic in the length "
            f"without a maximum skip distance); use a maximum skip distance (e.g. ROUGE-S4 / max_skip=4) or "
            f"shorter texts")


def _check_csr(tokens, offsets, name):
    if offsets.shape[0] < 1 or offsets[0] != 0 or offsets[offsets.shape[0] - 1] > tokens.shape[0]:
        raise ValueError(f"{name}: offsets must start at 0 and end within the token array")
    if offsets.shape[0] > 1 and np.any(np.diff(offsets) < 0):
        raise ValueError(f"{name}: offsets must be non-decreasing")


def score_documents(const uint32_t[::1] flat_tokens, const int64_t[::1] flat_offsets,
                    const uint32_t[::1] unit_tokens, const int64_t[::1] unit_offsets,
                    const int64_t[::1] text_units, const int64_t[::1] peer_text,
                    const int64_t[::1] model_offsets, const int64_t[::1] model_texts,
                    const int64_t[::1] kinds, const int64_t[::1] int_params, const double[::1] weights,
                    const int64_t[::1] unigram_flags, bint best_model=False, double alpha=0.5,
                    num_threads=None):
    """ROUGE-1.5.5 results of every document (peer) against its models, for every requested type.

    Texts are CSR: text ``t``'s *flat* tokens (ROUGE-1.5.5's ``readText``: n-grams, skip-bigrams and clipping
    counts) are ``flat_tokens[flat_offsets[t]:flat_offsets[t+1]]``; its sentence *units* (``readText_LCS``:
    ROUGE-L/W) are units ``text_units[t]..text_units[t+1]`` of ``unit_offsets``. Document ``d`` scores text
    ``peer_text[d]`` against texts ``model_texts[model_offsets[d]:model_offsets[d+1]]``. Type ``k`` is
    ``kinds[k]`` (0 n-gram of order ``int_params[k]``, 1 LCS, 2 WLCS with ``weights[k]``, 3 skip-bigram with
    maximum skip ``int_params[k]`` (< 0: unlimited) and unigrams if ``unigram_flags[k]``).
    ``best_model``: ROUGE-1.5.5's ``-f B``; ``alpha``: its ``-p``.

    Returns float64 ``(documents, types, 6)``: :data:`RESULT_COLUMNS` (R, P, F rounded as ROUGE-1.5.5 does).
    Token ids must be below 2**32 - 1.
    """
    cdef int64_t n_docs = peer_text.shape[0]
    cdef int64_t n_types = kinds.shape[0]
    if model_offsets.shape[0] != n_docs + 1:
        raise ValueError("model_offsets must have one entry per document plus one")
    if not (int_params.shape[0] == weights.shape[0] == unigram_flags.shape[0] == n_types):
        raise ValueError("kinds, int_params, weights and unigram_flags must have the same length")
    _check_csr(flat_tokens, flat_offsets, "flat")
    _check_csr(unit_tokens, unit_offsets, "unit")
    n_texts = flat_offsets.shape[0] - 1
    if text_units.shape[0] != n_texts + 1 or text_units[n_texts] > unit_offsets.shape[0] - 1:
        raise ValueError("text_units must have one entry per text plus one, within the units")
    if n_docs and (min(np.min(peer_text), np.min(model_texts) if model_texts.shape[0] else 0) < 0
                   or max(np.max(peer_text), np.max(model_texts) if model_texts.shape[0] else 0) >= n_texts):
        raise ValueError("peer_text / model_texts refer to texts that do not exist")
    if n_docs and np.any(np.diff(model_offsets) < 1):
        raise ValueError("every document needs at least one model")
    for k in range(n_types):
        if kinds[k] not in (KIND_NGRAM, KIND_LCS, KIND_WLCS, KIND_SKIP):
            raise ValueError(f"kinds[{k}] = {kinds[k]} is not a ROUGE kind (0 n-gram, 1 LCS, 2 WLCS, 3 skip-bigram)")
        if kinds[k] == KIND_NGRAM and int_params[k] < 1:
            raise ValueError(f"int_params[{k}] = {int_params[k]}: the n-gram order must be >= 1")
        if kinds[k] == KIND_WLCS and not weights[k] > 0:
            raise ValueError(f"weights[{k}] = {weights[k]}: the WLCS weight must be > 0")
        if kinds[k] == KIND_SKIP:
            check_skip_bigram_size(flat_offsets, int_params[k], unigram_flags[k] != 0, "text")
    out = np.zeros((n_docs, n_types, 6), dtype=np.float64)
    if n_docs == 0 or n_types == 0:
        return out
    cdef double[:, :, ::1] out_view = out
    cdef int threads = resolve_num_threads(num_threads, n_docs)
    cdef vector[Scratch] scratch = vector[Scratch](threads)
    cdef Scratch* scratch_data = scratch.data()
    cdef uint32_t empty_token = 0
    cdef Corpus corpus
    corpus.flat_tokens = &flat_tokens[0] if flat_tokens.shape[0] else &empty_token
    corpus.flat_offsets = &flat_offsets[0]
    corpus.unit_tokens = &unit_tokens[0] if unit_tokens.shape[0] else &empty_token
    corpus.unit_offsets = &unit_offsets[0]
    corpus.text_units = &text_units[0]
    corpus.peer_text = &peer_text[0]
    corpus.model_offsets = &model_offsets[0]
    corpus.model_texts = &model_texts[0]
    corpus.n_types = n_types
    corpus.kinds = &kinds[0]
    corpus.int_params = &int_params[0]
    corpus.weights = &weights[0]
    corpus.unigram_flags = &unigram_flags[0]
    corpus.best_model = best_model
    corpus.alpha = alpha
    cdef int64_t doc
    begin_interruptible()   # Ctrl-C stops the LCS tables within a row (_rouge155_lcs.hpp)
    with nogil:
        for doc in prange(n_docs, num_threads=threads, schedule="dynamic"):
            score_document(corpus, doc, scratch_data[threadid()], &out_view[doc, 0, 0])
    raise_if_interrupted()
    return out


def lcs_hit_mask(const uint32_t[::1] model, const uint32_t[::1] peer, weight=None, int64_t block_cells=1 << 21):
    """The model positions that ROUGE-1.5.5's LCS (``weight=None``) or WLCS backtrack marks against ``peer``.

    ``block_cells`` bounds the direct DP table; larger problems use the linear-memory divide and conquer.
    """
    cdef Scratch scratch
    cdef uint32_t empty_token = 0
    cdef Seq a, b
    a.data = &model[0] if model.shape[0] else &empty_token
    a.len = model.shape[0]
    b.data = &peer[0] if peer.shape[0] else &empty_token
    b.len = peer.shape[0]
    mask = np.zeros(model.shape[0], dtype=np.uint8)
    cdef uint8_t[::1] mask_view = mask
    cdef uint8_t dummy = 0
    scratch.marker.block_cells = max(block_cells, 1)
    if weight is not None:
        ensure_pow_table(scratch, float(weight), max(a.len, b.len))
        scratch.marker.weighted = True
        scratch.marker.fpow = scratch.fpow.data()
    with nogil:
        scratch.marker.mark(a, b, &mask_view[0] if a.len else &dummy)
    return mask.astype(bool)


def wlcs_pairs(const uint32_t[::1] ref_tokens, const int64_t[::1] ref_offsets,
               const uint32_t[::1] hyp_tokens, const int64_t[::1] hyp_offsets, double weight,
               num_threads=None):
    """Weighted LCS value (Lin 2004: ``f(k) = k ** weight`` per run of consecutive matches) of every
    (reference, hypothesis) pair, in memory linear in the hypothesis length; ties as in ROUGE-1.5.5's DP.

    ROUGE-W of a pair is then ``R = (wlcs / f(len(ref))) ** (1/weight)``, ``P = (wlcs / f(len(hyp))) ** (1/weight)``.
    """
    _check_csr(ref_tokens, ref_offsets, "ref")
    _check_csr(hyp_tokens, hyp_offsets, "hyp")
    if weight <= 0:
        raise ValueError(f"weight must be > 0, got {weight}")
    cdef int64_t n = ref_offsets.shape[0] - 1
    if hyp_offsets.shape[0] - 1 != n:
        raise ValueError("ref_offsets and hyp_offsets must describe the same number of pairs")
    out = np.zeros(n, dtype=np.float64)
    if n == 0:
        return out
    cdef double[::1] out_view = out
    cdef int threads = resolve_num_threads(num_threads, n)
    cdef vector[Scratch] scratch = vector[Scratch](threads)
    cdef Scratch* scratch_data = scratch.data()
    cdef int64_t longest = max(int(np.max(np.diff(ref_offsets))), int(np.max(np.diff(hyp_offsets))))
    cdef int t
    for t in range(threads):
        ensure_pow_table(scratch_data[t], weight, longest)
        scratch_data[t].marker.weighted = True
        scratch_data[t].marker.fpow = scratch_data[t].fpow.data()
    cdef uint32_t empty_token = 0
    cdef const uint32_t* ref_data = &ref_tokens[0] if ref_tokens.shape[0] else &empty_token
    cdef const uint32_t* hyp_data = &hyp_tokens[0] if hyp_tokens.shape[0] else &empty_token
    cdef int64_t i
    begin_interruptible()
    with nogil:
        for i in prange(n, num_threads=threads, schedule="dynamic"):
            out_view[i] = scratch_data[threadid()].marker.wlcs_value(
                _seq(ref_data, &ref_offsets[0], i), _seq(hyp_data, &hyp_offsets[0], i))
    raise_if_interrupted()
    return out


def skip_bigram_pairs(const uint32_t[::1] ref_tokens, const int64_t[::1] ref_offsets,
                      const uint32_t[::1] hyp_tokens, const int64_t[::1] hyp_offsets, int64_t max_skip=-1,
                      bint unigrams=False, bint last_unigram=False, num_threads=None):
    """Skip-bigram statistics of every (reference, hypothesis) pair: int64 ``(n, 3)`` = clipped hits,
    reference count, hypothesis count.

    Pairs ``(t_i, t_j)`` with ``i < j <= i + max_skip + 1`` (``max_skip < 0``: unlimited); with ``unigrams``
    (ROUGE-SU) the unigrams of positions ``0 .. len-2`` are added (ROUGE-1.5.5 skips the last token's unigram;
    ``last_unigram=True`` counts it too, e.g. for a rouge-score-style ROUGE-SU).
    """
    _check_csr(ref_tokens, ref_offsets, "ref")
    _check_csr(hyp_tokens, hyp_offsets, "hyp")
    cdef int64_t n = ref_offsets.shape[0] - 1
    if hyp_offsets.shape[0] - 1 != n:
        raise ValueError("ref_offsets and hyp_offsets must describe the same number of pairs")
    check_skip_bigram_size(ref_offsets, max_skip, unigrams, "reference")
    check_skip_bigram_size(hyp_offsets, max_skip, unigrams, "hypothesis")
    last_unigram = last_unigram and unigrams
    out = np.zeros((n, 3), dtype=np.int64)
    if n == 0:
        return out
    cdef int64_t[:, ::1] out_view = out
    cdef int threads = resolve_num_threads(num_threads)
    cdef vector[vector[uint64_t]] ref_keys = vector[vector[uint64_t]](threads)
    cdef vector[vector[uint64_t]] hyp_keys = vector[vector[uint64_t]](threads)
    cdef uint32_t empty_token = 0
    cdef const uint32_t* ref_data = &ref_tokens[0] if ref_tokens.shape[0] else &empty_token
    cdef const uint32_t* hyp_data = &hyp_tokens[0] if hyp_tokens.shape[0] else &empty_token
    cdef int64_t i
    cdef int tid
    with nogil:
        for i in prange(n, num_threads=threads, schedule="dynamic"):
            tid = threadid()
            skip_bigram_keys(_seq(ref_data, &ref_offsets[0], i), max_skip, unigrams, ref_keys[tid], last_unigram)
            skip_bigram_keys(_seq(hyp_data, &hyp_offsets[0], i), max_skip, unigrams, hyp_keys[tid], last_unigram)
            out_view[i, 0] = clipped_overlap(ref_keys[tid], hyp_keys[tid])
            out_view[i, 1] = ref_keys[tid].size()
            out_view[i, 2] = hyp_keys[tid].size()
    return out


cdef uint64_t DRAND48_MASK = 0xFFFFFFFFFFFFULL
cdef uint64_t DRAND48_A = 0x5DEECE66DULL


cdef inline uint64_t _drand48_step(uint64_t state) noexcept nogil:
    return (state * DRAND48_A + 0xB) & DRAND48_MASK


def perl_bootstrap_means(const double[:, ::1] values, int64_t resamples, num_threads=None):
    """ROUGE-1.5.5's ``bootstrapResampling``: resample ``i`` seeds Perl's generator with ``srand(i)`` (drand48,
    as in Perl >= 5.20) and draws ``int(rand(n))`` n times; returns the float64 ``(resamples, k)`` means of the
    drawn rows, summed in draw order exactly as the script does. ``values`` rows must be in the script's
    instance order (test ids sorted as strings).
    """
    cdef int64_t n = values.shape[0]
    cdef int64_t k = values.shape[1]
    if resamples < 1:
        raise ValueError(f"resamples must be >= 1, got {resamples}")
    out = np.zeros((resamples, k), dtype=np.float64)
    if n == 0:
        return out
    cdef double[:, ::1] out_view = out
    cdef int threads = resolve_num_threads(num_threads)
    cdef int64_t i, draw, col, row
    cdef uint64_t state
    with nogil:
        for i in prange(resamples, num_threads=threads, schedule="static"):
            state = ((<uint64_t>i << 16) + 0x330E) & DRAND48_MASK
            for draw in range(n):
                state = _drand48_step(state)
                row = <int64_t>((<double>state * (1.0 / 281474976710656.0)) * <double>n)
                if draw == 0:
                    for col in range(k):
                        out_view[i, col] = values[row, col]
                else:
                    for col in range(k):
                        out_view[i, col] = out_view[i, col] + values[row, col]
            for col in range(k):
                out_view[i, col] = out_view[i, col] / <double>n
    return out
