# cython: language_level=3
"""ROUGE kernels with rouge-score 0.1.2 semantics (see ``_rouge_kernels.hpp``).

The texts (predictions first, then the flattened references) are handed over once as the strings' buffers
(``_strings.pxd``); :func:`score_batch` runs one ``nogil`` ``prange`` loop that scores every segment with
per-thread workers, which lowercase and tokenize each text themselves. :class:`PairScorer` is the single-pair
entry point (rouge-score's ``RougeScorer.score`` per call): the same segment kernel on the calling thread, one
reused worker, no arrays.
"""
from cython.parallel cimport prange, threadid
from libc.stdint cimport int64_t, uint32_t
from libcpp.memory cimport unique_ptr
from libcpp.string cimport string
from libcpp.string_view cimport string_view
from libcpp.vector cimport vector
from refscore._core._rouge_kernels cimport Config, PorterStemmer, Tokens, Worker
from refscore._core._strings cimport StringBuffers, TextBatch, point_at_named_strings, point_at_strings

import numpy as np

from refscore._core._parallel import resolve_num_threads
from refscore._core._tokenize import kernel_case


cdef void _fill_config(Config* config, bint stem, const int64_t[::1] types):
    config.stem = stem
    config.lowercase = False
    config.n_types = types.shape[0]
    config.types = &types[0] if types.shape[0] > 0 else NULL


cdef int _check_references(const int64_t[::1] ref_offsets, Py_ssize_t n, str caller) except -1:
    """Every segment has at least one reference (the same rule for text and id batches)."""
    cdef Py_ssize_t i
    for i in range(n):
        if ref_offsets[i + 1] <= ref_offsets[i]:
            raise ValueError(f"{caller}: segment {i} has no reference")
    return 0


cdef list _lowered_texts(list texts, StringBuffers& buffers, Config* config):
    """Point ``buffers`` at the texts' buffers (lowercased in Python first where the kernel cannot) and tell the
    kernel whether it lowercases; returns the list the buffers belong to (keep it alive)."""
    texts, lowercase = kernel_case(texts, True)
    config.lowercase = lowercase
    point_at_named_strings(texts, buffers, None, "texts")
    return texts


def score_batch(list texts not None, const int64_t[::1] ref_offsets, const int64_t[::1] types, bint stem,
                num_threads=None):
    """Score every segment (rouge-score's tokenizer, NLTK's Porter stemmer with ``stem``).

    ``texts``: the predictions (texts ``0..n-1``), then the references, segment ``i``'s being texts
    ``n + ref_offsets[i] .. n + ref_offsets[i + 1] - 1``; each is lowercased (``str.lower``) before it is
    tokenized. ``types``: ``n >= 1`` ROUGE-N, ``0`` ROUGE-L, ``-1`` ROUGE-Lsum.

    Returns ``counts`` (int64, ``(n, len(types), 3)``: matches, prediction total, reference total of the best
    reference) and ``best`` (int64, ``(n, len(types))``: index of that reference within the segment).
    """
    cdef Py_ssize_t n = ref_offsets.shape[0] - 1
    cdef Py_ssize_t n_texts = len(texts)
    cdef Py_ssize_t n_types = types.shape[0]
    cdef Py_ssize_t i, t
    if n < 0 or n_texts != n + ref_offsets[n]:
        raise ValueError(f"score_batch: {n_texts} texts do not match {n} predictions and {ref_offsets[n]} references")
    for t in range(n_types):
        if types[t] < -1:
            raise ValueError(f"score_batch: invalid type code {types[t]}")
    _check_references(ref_offsets, n, "score_batch")
    counts_array = np.zeros((n, n_types, 3), dtype=np.int64)
    best_array = np.zeros((n, n_types), dtype=np.int64)
    if n == 0:
        return counts_array, best_array
    cdef int64_t[:, :, ::1] counts = counts_array
    cdef int64_t[:, ::1] best = best_array
    cdef int threads = resolve_num_threads(num_threads, n)
    cdef Config config
    _fill_config(&config, stem, types)
    cdef StringBuffers buffers
    texts = _lowered_texts(texts, buffers, &config)
    cdef TextBatch batch = buffers.batch()
    cdef vector[unique_ptr[Worker]] workers
    for _ in range(threads):
        workers.push_back(unique_ptr[Worker](new Worker(&config)))
    status_array = np.zeros(n, dtype=np.int32)
    cdef int[::1] status = status_array
    with nogil:
        for i in prange(n, num_threads=threads, schedule="dynamic"):
            status[i] = workers[threadid()].get().score_segment(
                batch, i, n + ref_offsets[i], n + ref_offsets[i + 1],
                &counts[i, 0, 0] if n_types > 0 else NULL, &best[i, 0] if n_types > 0 else NULL)
    if status_array.any():
        raise MemoryError("ROUGE kernel ran out of memory")
    return counts_array, best_array


def prf_from_counts(const int64_t[:, :, ::1] counts not None):
    """rouge-score's scores from ``(documents, types, 3)`` counts (matches, prediction total, reference total):
    ``P = matches / max(prediction total, 1)``, ``R`` likewise, ``F = 2PR / (P + R)`` (0 when ``P + R`` is 0), as
    three float64 ``(documents, types)`` arrays.

    >>> [a.tolist() for a in prf_from_counts(np.array([[[2, 4, 3], [0, 0, 5]]]))]
    [[[0.5, 0.0]], [[0.6666666666666666, 0.0]], [[0.5714285714285715, 0.0]]]
    """
    cdef Py_ssize_t documents = counts.shape[0], types = counts.shape[1], d, t
    if counts.shape[2] != 3:
        raise ValueError(f"counts must have shape (documents, types, 3), got ({counts.shape[0]}, {counts.shape[1]}, {counts.shape[2]})")
    precision = np.empty((documents, types))
    recall = np.empty((documents, types))
    fmeasure = np.empty((documents, types))
    cdef double[:, ::1] p = precision, r = recall, f = fmeasure
    cdef double matches
    with nogil:
        for d in range(documents):
            for t in range(types):
                matches = <double>counts[d, t, 0]
                p[d, t] = matches / <double>(counts[d, t, 1] if counts[d, t, 1] > 1 else 1)
                r[d, t] = matches / <double>(counts[d, t, 2] if counts[d, t, 2] > 1 else 1)
                f[d, t] = 2 * p[d, t] * r[d, t] / (p[d, t] + r[d, t]) if p[d, t] + r[d, t] > 0 else 0.0
    return precision, recall, fmeasure


def score_batch_ids(const uint32_t[::1] ids, const int64_t[::1] token_offsets, const uint32_t[::1] sentence_ids,
                    const int64_t[::1] sentence_token_offsets, const int64_t[::1] bounds,
                    const int64_t[::1] bound_offsets, const int64_t[::1] ref_offsets, const int64_t[::1] types,
                    uint32_t n_terms, num_threads=None):
    """:func:`score_batch` for pre-tokenized texts given as dense term ids (``< n_terms``).

    Text ``k``'s tokens are ``ids[token_offsets[k]:token_offsets[k + 1]]`` (ROUGE-N and ROUGE-L); ROUGE-Lsum uses
    ``sentence_ids[sentence_token_offsets[k]:...]`` cut into sentences at ``bounds[bound_offsets[k]:
    bound_offsets[k + 1]]`` (token indices relative to the text: first 0, last the token count).
    Returns ``counts`` and ``best`` as :func:`score_batch`.
    """
    cdef Py_ssize_t n = ref_offsets.shape[0] - 1
    cdef Py_ssize_t n_texts = token_offsets.shape[0] - 1
    cdef Py_ssize_t n_types = types.shape[0]
    cdef Py_ssize_t i, k
    if n < 0 or n_texts != n + ref_offsets[n] or sentence_token_offsets.shape[0] != n_texts + 1 \
            or bound_offsets.shape[0] != n_texts + 1:
        raise ValueError("score_batch_ids: offsets do not match the number of texts")
    if token_offsets[n_texts] > ids.shape[0] or sentence_token_offsets[n_texts] > sentence_ids.shape[0] \
            or bound_offsets[n_texts] > bounds.shape[0]:
        raise ValueError("score_batch_ids: offsets point past the end of their arrays")
    for k in range(n_texts):
        if bound_offsets[k + 1] - bound_offsets[k] < 2 or bounds[bound_offsets[k]] != 0 or \
                bounds[bound_offsets[k + 1] - 1] != sentence_token_offsets[k + 1] - sentence_token_offsets[k]:
            raise ValueError(f"score_batch_ids: sentence bounds of text {k} must start at 0 and end at its length")
        for i in range(bound_offsets[k] + 1, bound_offsets[k + 1]):
            if bounds[i] < bounds[i - 1]:
                raise ValueError(f"score_batch_ids: sentence bounds of text {k} decrease")
    for k in range(ids.shape[0]):
        if ids[k] >= n_terms:
            raise ValueError(f"score_batch_ids: id {ids[k]} >= n_terms {n_terms}")
    for k in range(sentence_ids.shape[0]):
        if sentence_ids[k] >= n_terms:
            raise ValueError(f"score_batch_ids: id {sentence_ids[k]} >= n_terms {n_terms}")
    _check_references(ref_offsets, n, "score_batch_ids")
    counts_array = np.zeros((n, n_types, 3), dtype=np.int64)
    best_array = np.zeros((n, n_types), dtype=np.int64)
    if n == 0 or n_types == 0:
        return counts_array, best_array
    cdef int64_t[:, :, ::1] counts = counts_array
    cdef int64_t[:, ::1] best = best_array
    cdef int threads = resolve_num_threads(num_threads, n)
    cdef Config config
    _fill_config(&config, False, types)
    cdef vector[unique_ptr[Worker]] workers
    for _ in range(threads):
        workers.push_back(unique_ptr[Worker](new Worker(&config)))
        workers.back().get().reserve_terms(n_terms)
    cdef const uint32_t* id_data = &ids[0] if ids.shape[0] > 0 else NULL
    cdef const uint32_t* sentence_data = &sentence_ids[0] if sentence_ids.shape[0] > 0 else NULL
    status_array = np.zeros(n, dtype=np.int32)
    cdef int[::1] status = status_array
    with nogil:
        for i in prange(n, num_threads=threads, schedule="dynamic"):
            status[i] = workers[threadid()].get().score_segment_ids(
                id_data, &token_offsets[0], sentence_data, &sentence_token_offsets[0], &bounds[0],
                &bound_offsets[0], i, n + ref_offsets[i], n + ref_offsets[i + 1], &counts[i, 0, 0], &best[i, 0])
    if status_array.any():
        raise MemoryError("ROUGE kernel ran out of memory")
    return counts_array, best_array


def tokenize_texts(list texts not None, bint stem, bint with_sentences=False):
    """The tokens of each text by rouge-score's tokenizer (as strings, stemmed with ``stem``), lowercased first;
    with ``with_sentences`` a list of sentences (lines) of tokens per text, empty lines included.

    >>> tokenize_texts(["The cat-flap."], False)
    [['the', 'cat', 'flap']]
    """
    cdef Config config
    cdef int64_t[::1] no_types = np.zeros(0, dtype=np.int64)
    _fill_config(&config, stem, no_types)
    cdef StringBuffers buffers
    texts = _lowered_texts(texts, buffers, &config)
    cdef TextBatch batch = buffers.batch()
    cdef unique_ptr[Worker] worker = unique_ptr[Worker](new Worker(&config))
    cdef Tokens tokens
    cdef Py_ssize_t k, s, j
    cdef string_view view
    result = []
    for k in range(len(texts)):
        worker.get().tokenize_text(batch, k, tokens)
        words = []
        for j in range(<Py_ssize_t>tokens.ids.size()):
            view = worker.get().term_string(tokens.ids[j])
            words.append(view.data()[:view.size()].decode("utf-8", "surrogatepass"))
        if with_sentences:
            result.append([words[tokens.sentences[s]:tokens.sentences[s + 1]]
                           for s in range(<Py_ssize_t>tokens.sentences.size() - 1)])
        else:
            result.append(words)
    return result


def porter_stem(str word):
    """NLTK's ``PorterStemmer().stem(word)`` (NLTK_EXTENSIONS mode) for a lowercase ASCII word, in C++."""
    cdef bytes data = word.encode("ascii")
    cdef PorterStemmer stemmer
    return stemmer.stem(string_view(data, len(data))).decode("ascii")


cdef Worker* _id_worker(Config* config, const uint32_t[::1] a, const uint32_t[::1] b) except NULL:
    cdef int64_t[::1] no_types = np.zeros(0, dtype=np.int64)
    _fill_config(config, False, no_types)
    cdef Worker* worker = new Worker(config)
    cdef uint32_t top = 0
    cdef Py_ssize_t k
    for k in range(a.shape[0]):
        top = max(top, a[k] + 1)
    for k in range(b.shape[0]):
        top = max(top, b[k] + 1)
    worker.reserve_terms(top)
    return worker


def _dense_ids(a, b):
    """Dense uint32 ids of two integer sequences (equal values get equal ids)."""
    a = np.asarray(a, dtype=np.int64).ravel()
    b = np.asarray(b, dtype=np.int64).ravel()
    _, inverse = np.unique(np.concatenate([a, b]), return_inverse=True)
    inverse = np.ascontiguousarray(inverse.astype(np.uint32).ravel())
    return inverse[:a.shape[0]].copy(), inverse[a.shape[0]:].copy()


def lcs_length(a, b):
    """Length of the longest common subsequence of two integer sequences (bit-parallel kernel)."""
    cdef const uint32_t[::1] x
    cdef const uint32_t[::1] y
    x, y = _dense_ids(a, b)
    cdef Config config
    cdef unique_ptr[Worker] worker = unique_ptr[Worker](_id_worker(&config, x, y))
    if x.shape[0] == 0 or y.shape[0] == 0:
        return 0
    return worker.get().lcs_length(&x[0], x.shape[0], &y[0], y.shape[0])


def lcs_positions(ref, can, table_limit_words=None, bint up_on_tie=True):
    """rouge-score's ``lcs_ind(ref, can)``: positions in ``ref`` of the LCS its backtrack selects.

    ``up_on_tie=False`` breaks ties the other way, as the ``rouge`` package's ``_recon_lcs(ref, can)``.
    ``table_limit_words`` (tests only) lowers the table size above which the backtrack uses checkpoints."""
    cdef const uint32_t[::1] x
    cdef const uint32_t[::1] y
    x, y = _dense_ids(ref, can)
    cdef Config config
    cdef unique_ptr[Worker] worker = unique_ptr[Worker](_id_worker(&config, x, y))
    cdef vector[uint32_t] positions
    if table_limit_words is not None:
        worker.get().set_table_limit(table_limit_words)
    if x.shape[0] == 0 or y.shape[0] == 0:
        return []
    worker.get().lcs_positions(&x[0], x.shape[0], &y[0], y.shape[0], positions, up_on_tie)
    return [int(p) for p in positions]


# Characters a PairScorer's worker reads before it is made anew: its term table grows with every distinct word met,
# and a scorer may live for a whole run of single calls (term ids never show in the results).
cdef enum:
    PAIR_WORKER_CHARS = 1 << 24


cdef class PairScorer:
    """rouge-score's scores of one (prediction, target) pair of texts per call, for loops of single calls:
    :func:`score_batch`'s segment kernel and :func:`prf_from_counts`' arithmetic on the calling thread with the
    GIL held (which keeps two threads from sharing the worker at once), in one worker kept from call to call.
    ``types`` are :func:`score_batch`'s codes.

    >>> PairScorer(np.array([1, 0]), False).scores("The cat sat", "the cat")
    [(0.6666666666666666, 1.0, 0.8), (0.6666666666666666, 1.0, 0.8)]
    """
    cdef Worker* worker
    cdef Config config
    cdef vector[int64_t] types, counts, best
    cdef bint python_lowercase, stem
    cdef int64_t chars_read
    cdef tuple arguments   # the constructor's: a pickled scorer is made anew (its worker is scratch)

    def __cinit__(self):
        self.worker = NULL

    def __dealloc__(self):
        del self.worker

    def __init__(self, const int64_t[::1] types not None, bint stem):
        cdef Py_ssize_t t
        self.arguments = (np.array(types, dtype=np.int64), stem)
        for t in range(types.shape[0]):
            if types[t] < -1:
                raise ValueError(f"PairScorer: invalid type code {types[t]}")
            self.types.push_back(types[t])
        self.counts.resize(3 * self.types.size())
        self.best.resize(self.types.size())
        self.config.stem = stem
        _, kernel_lowercase = kernel_case((), True)
        self.config.lowercase = kernel_lowercase
        self.python_lowercase = not kernel_lowercase
        self.config.n_types = <int64_t>self.types.size()
        self.config.types = self.types.data()
        self.worker = new Worker(&self.config)

    def __reduce__(self):
        return PairScorer, self.arguments

    def scores(self, prediction, target):
        """``(precision, recall, fmeasure)`` per type of ``prediction`` against ``target``, or None unless both
        are plain ``str`` (the batch path checks and reports the rest)."""
        if type(prediction) is not str or type(target) is not str:
            return None
        cdef list texts = [prediction, target]
        if self.python_lowercase:
            texts = [prediction.lower(), target.lower()]
        cdef StringBuffers buffers
        point_at_strings(texts, buffers)
        self.chars_read += buffers.total_chars
        if self.chars_read > PAIR_WORKER_CHARS:
            del self.worker
            self.worker = NULL
            self.worker = new Worker(&self.config)
            self.chars_read = buffers.total_chars
        cdef Py_ssize_t n_types = self.types.size(), t
        if n_types == 0:
            return []
        if self.worker.score_segment(buffers.batch(), 0, 1, 2, self.counts.data(), self.best.data()):
            raise MemoryError("ROUGE kernel ran out of memory")
        cdef list result = []
        cdef double matches, p, r
        for t in range(n_types):   # prf_from_counts, operation by operation
            matches = <double>self.counts[3 * t]
            p = matches / <double>(self.counts[3 * t + 1] if self.counts[3 * t + 1] > 1 else 1)
            r = matches / <double>(self.counts[3 * t + 2] if self.counts[3 * t + 2] > 1 else 1)
            result.append((p, r, 2 * p * r / (p + r) if p + r > 0 else 0.0))
        return result
