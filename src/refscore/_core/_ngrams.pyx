# cython: language_level=3
"""Exact n-gram statistics: BLEU (clipped matches) and Google-BLEU (best reference), bound from
``_ngrams_kernel.hpp`` (the algorithm, the input layout, and why counts are exact).

Each function checks its arguments, hands the token ids (or the strings' buffers, ``_strings.pxd``) over once
and runs the kernel's parallel loop over segments in one ``nogil`` call. Results do not depend on the thread
count. :class:`TextPairCounter` is the single-pair entry point (one sentence per call): the same segment kernel on
the calling thread, with no batch arrays and one reused worker.
"""
from libc.stdint cimport int64_t, uint32_t
from libcpp cimport bool as cbool
from libcpp.vector cimport vector
from refscore._core._ngrams_kernel cimport (KIND_BLEU, KIND_GLEU, STATUS_OK, STATUS_TOO_LARGE, TABLE_SLOTS_LIMIT,
                                            Kind, Scratch, TextFailures, TextInput, TextWorker, bleu_text_segment,
                                            ids_batch, kSlotBytes, max_table_size, text_batch, text_segment)
from cpython.unicode cimport (PyUnicode_1BYTE_KIND, PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND,
                              PyUnicode_READ)
from refscore._core._strings cimport (CHARS_PER_THREAD, StringBuffers, TextBatch, plain_pair_texts,
                                      point_at_strings, refscore_string_ready)
from refscore._core._tokenize_kernel cimport repeated_text_groups

import numpy as np

from refscore._core._parallel import resolve_num_threads
from refscore._core._tokenize import kernel_case, tokenizer_code

#: Largest table a segment may need (slot indices must stay below 2**32).
MAX_TABLE_SLOTS = TABLE_SLOTS_LIMIT


cdef bint non_decreasing(const int64_t[::1] values) noexcept:
    cdef Py_ssize_t k
    for k in range(1, values.shape[0]):
        if values[k] < values[k - 1]:
            return False
    return True


def _check_layout(const uint32_t[::1] ids, const int64_t[::1] offsets, const int64_t[::1] ref_offsets):
    n_segments = ref_offsets.shape[0] - 1
    if n_segments < 0:
        raise ValueError("ref_offsets must have n_segments + 1 entries")
    n_texts = n_segments + ref_offsets[n_segments]
    if offsets.shape[0] != n_texts + 1:
        raise ValueError(f"offsets must have {n_texts + 1} entries (hypotheses + references + 1), "
                         f"got {offsets.shape[0]}")
    if ref_offsets[0] != 0 or not non_decreasing(ref_offsets):
        raise ValueError("ref_offsets must start at 0 and be non-decreasing")
    if offsets[0] != 0 or offsets[n_texts] != ids.shape[0] or not non_decreasing(offsets):
        raise ValueError("offsets must start at 0, be non-decreasing and end at len(ids)")
    return n_segments


cdef object run_segments(Kind kind, const uint32_t[::1] ids, const int64_t[::1] offsets,
                         const int64_t[::1] ref_offsets, int64_t width, int64_t low, int64_t high, num_threads):
    """Validate the layout and fill one output row per segment in one nogil call."""
    cdef int64_t n_segments = _check_layout(ids, offsets, ref_offsets)
    cdef int threads = resolve_num_threads(num_threads)
    result = np.zeros((n_segments, width), dtype=np.int64)
    if n_segments == 0:
        return result
    cdef int64_t[:, ::1] out = result
    # BLEU tables hold the references' n-grams, GLEU tables the hypothesis'
    cdef int64_t largest = max_table_size(&offsets[0], &ref_offsets[0], n_segments, high, kind == KIND_BLEU)
    if largest > MAX_TABLE_SLOTS:
        raise MemoryError(f"a segment has too many n-grams for one table ({largest} slots needed, at most "
                          f"{MAX_TABLE_SLOTS}); split very long segments")
    if threads > n_segments:
        threads = <int>n_segments
    cdef const uint32_t* tokens = &ids[0] if ids.shape[0] > 0 else NULL
    cdef int64_t failures
    with nogil:
        failures = ids_batch(kind, tokens, &offsets[0], &ref_offsets[0], n_segments, width, low, high, threads,
                             &out[0, 0])
    if failures:
        raise MemoryError(f"out of memory for the n-gram tables of {failures} segment(s) (largest table: "
                          f"{largest} slots of {kSlotBytes} bytes per thread)")
    return result


def bleu_statistics(const uint32_t[::1] ids not None, const int64_t[::1] offsets not None,
                    const int64_t[::1] ref_offsets not None, int max_order, num_threads=None):
    """BLEU statistics per segment: int64 array ``(n, 2 + 2 * max_order)``.

    Columns: ``hyp_len, ref_len`` (closest reference length, ties to the shorter), ``match_1..N`` (hypothesis
    n-gram counts clipped by the maximum count in any one reference), ``total_1..N`` (hypothesis n-grams).
    """
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    return run_segments(KIND_BLEU, ids, offsets, ref_offsets, 2 + 2 * max_order, 1, max_order, num_threads)


def gleu_statistics(const uint32_t[::1] ids not None, const int64_t[::1] offsets not None,
                    const int64_t[::1] ref_offsets not None, int min_len, int max_len, num_threads=None):
    """Google-BLEU statistics per segment: int64 array ``(n, 2)`` of ``(n_match, n_all)``.

    NLTK ``corpus_gleu`` semantics: n-grams of orders ``min_len..max_len``; per segment the reference with the
    highest ``tp / max(tpfp, tpfn)`` (the first on ties) gives ``(tp, max(tpfp, tpfn))``; ``(0, 0)`` when every
    reference has ``max(tpfp, tpfn) == 0`` (NLTK skips such pairs).
    """
    if min_len < 1 or max_len < min_len:
        raise ValueError(f"need 1 <= min_len <= max_len, got min_len={min_len}, max_len={max_len}")
    return run_segments(KIND_GLEU, ids, offsets, ref_offsets, 2, min_len, max_len, num_threads)


cdef object run_text_segments(Kind kind, list hypotheses, list references, const int64_t[::1] ref_offsets,
                              tokenizer, bint lowercase, int64_t width, int64_t low, int64_t high, num_threads,
                              bint shortest_ref=False):
    """Check the layout, hand the strings' buffers over, and fill one output row per segment in one nogil call."""
    cdef int code = tokenizer_code(tokenizer)
    cdef int64_t n_segments = len(hypotheses)
    cdef int64_t t
    cdef bint ordered = ref_offsets.shape[0] == n_segments + 1 and non_decreasing(ref_offsets)
    if not ordered or ref_offsets[0] != 0 or ref_offsets[n_segments] != len(references):
        raise ValueError(f"ref_offsets must have len(hypotheses) + 1 = {n_segments + 1} non-decreasing entries "
                         f"from 0 to len(references) = {len(references)}")
    hypothesis_texts, kernel_lowercase = kernel_case(hypotheses, lowercase)
    reference_texts, _ = kernel_case(references, lowercase)
    cdef StringBuffers buffers   # the hypotheses' buffers, then the references'
    for name, texts in (("hypotheses", hypothesis_texts), ("references", reference_texts)):
        t = point_at_strings(texts, buffers)
        if t >= 0:
            where = f"hypotheses[{t}]" if name == "hypotheses" else f"references[{t}] (flattened)"
            raise TypeError(f"{where} is {type(texts[t]).__name__}, expected str")

    result = np.zeros((n_segments, width), dtype=np.int64)
    if n_segments == 0:
        return result
    cdef int64_t[:, ::1] out = result
    cdef int threads = <int>min(resolve_num_threads(num_threads), 1 + buffers.total_chars // CHARS_PER_THREAD,
                                n_segments)
    cdef vector[int64_t] groups
    groups.resize(buffers.data.size())
    cdef int64_t n_groups = repeated_text_groups(buffers.data.data(), buffers.kinds.data(), buffers.lengths.data(),
                                                 <int64_t>buffers.data.size(), groups.data())
    cdef TextInput text_input
    text_input.texts = buffers.batch()
    text_input.groups = groups.data()
    text_input.n_segments = n_segments
    text_input.ref_offsets = &ref_offsets[0]
    text_input.tokenizer = code
    text_input.lowercase = kernel_lowercase
    text_input.shortest_ref = shortest_ref
    cdef TextFailures failures
    with nogil:
        failures = text_batch(kind, text_input, n_groups, width, low, high, threads, &out[0, 0])
    if failures.too_large:
        raise MemoryError(f"{failures.too_large} segment(s) have too many n-grams for one table (at most "
                          f"{MAX_TABLE_SLOTS} slots); split very long segments")
    if failures.no_memory:
        raise MemoryError(f"out of memory while tokenizing and counting the n-grams of {failures.no_memory} "
                          f"segment(s) (or a segment of more than 2**32 characters in all; split very long segments)")
    return result


def bleu_text_statistics(list hypotheses not None, list references not None, const int64_t[::1] ref_offsets not None,
                         tokenizer, bint lowercase, int max_order, num_threads=None, bint shortest_ref=False):
    """BLEU statistics per segment straight from text (see :func:`bleu_statistics` for the columns).

    ``references`` is the flat list of every segment's references; segment ``i`` owns
    ``references[ref_offsets[i]:ref_offsets[i + 1]]``. ``tokenizer`` and ``lowercase`` are sacreBLEU's;
    ``shortest_ref`` puts the shortest reference's length in ``ref_len`` instead of the closest (tensorflow/nmt's
    rule, HF evaluate's ``bleu``).

    >>> bleu_text_statistics(["The cat sat."], ["the cat sat ."], np.array([0, 1]), "13a", True, 2).tolist()
    [[4, 4, 4, 3, 4, 3]]
    """
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    return run_text_segments(KIND_BLEU, hypotheses, references, ref_offsets, tokenizer, lowercase,
                             2 + 2 * max_order, 1, max_order, num_threads, shortest_ref)


def gleu_text_statistics(list hypotheses not None, list references not None, const int64_t[::1] ref_offsets not None,
                         tokenizer, bint lowercase, int min_len, int max_len, num_threads=None):
    """Google-BLEU statistics per segment straight from text (see :func:`gleu_statistics`).

    >>> gleu_text_statistics(["a b c"], ["a b d", "a b c"], np.array([0, 2]), "none", False, 1, 2).tolist()
    [[5, 5]]
    """
    if min_len < 1 or max_len < min_len:
        raise ValueError(f"need 1 <= min_len <= max_len, got min_len={min_len}, max_len={max_len}")
    return run_text_segments(KIND_GLEU, hypotheses, references, ref_offsets, tokenizer, lowercase, 2, min_len,
                             max_len, num_threads)


cdef class TextPairCounter:
    """The statistics row of one text pair per call, for loops of single-sentence calls: the batch functions'
    segment kernel run on the calling thread with the GIL held (no thread pool, no numpy arrays, no batch
    checks), in one worker (tokenizer state and n-gram tables) kept from call to call. The GIL held for the
    whole call is what keeps two threads from sharing the worker at once. Build it with
    :func:`bleu_text_pair` or :func:`gleu_text_pair`.
    """
    cdef TextWorker* worker
    cdef vector[int64_t] groups   # -1 for every text: a pair has no repeated texts to share
    cdef vector[int64_t] row
    cdef int64_t ref_offsets[2]
    cdef Kind kind
    cdef int tokenizer
    cdef bint lowercase, python_lowercase, shortest_ref
    cdef int64_t low, high
    cdef tuple arguments   # the constructor's: a pickled counter is made anew (its worker is scratch)

    def __cinit__(self):
        self.worker = new TextWorker()

    def __dealloc__(self):
        del self.worker

    def __init__(self, kind, tokenizer, bint lowercase, int low, int high, bint shortest_ref=False):
        if kind not in ("bleu", "gleu"):
            raise ValueError(f"kind must be 'bleu' or 'gleu', got {kind!r}")
        if low < 1 or high < low:
            raise ValueError(f"need 1 <= low <= high, got low={low}, high={high}")
        self.arguments = (kind, tokenizer, lowercase, low, high, shortest_ref)
        self.kind = KIND_BLEU if kind == "bleu" else KIND_GLEU
        self.tokenizer = tokenizer_code(tokenizer)
        _, kernel_lowercase = kernel_case((), lowercase)
        self.lowercase = kernel_lowercase
        self.python_lowercase = lowercase and not kernel_lowercase   # this Python's str.lower, not the tables'
        self.shortest_ref = shortest_ref
        self.low, self.high = low, high
        self.row.resize(2 + 2 * high if self.kind == KIND_BLEU else 2)

    def __reduce__(self):
        return TextPairCounter, self.arguments

    def counts(self, hypothesis, references):
        """The statistics row (a list of ints, the columns of the batch function) of ``hypothesis`` against
        ``references`` (a ``str``, or a non-empty list or tuple of ``str``); None when the pair is not plain
        text (``str`` subclasses, token ids, other containers, an empty list: the batch path checks those).

        >>> bleu_text_pair("13a", False, 2).counts("The cat sat.", ["the cat sat .", "A cat."])
        [4, 4, 3, 2, 4, 3]
        >>> bleu_text_pair("13a", False, 2).counts("a", []) is None
        True
        """
        cdef list texts = plain_pair_texts(hypothesis, references, self.python_lowercase)
        if texts is None:
            return None
        cdef Py_ssize_t n_texts = len(texts)
        cdef StringBuffers buffers
        point_at_strings(texts, buffers)
        if <Py_ssize_t>self.groups.size() < n_texts:
            self.groups.resize(n_texts, -1)
        self.ref_offsets[0] = 0
        self.ref_offsets[1] = n_texts - 1
        cdef TextInput text_input
        text_input.texts = buffers.batch()
        text_input.groups = self.groups.data()
        text_input.n_segments = 1
        text_input.ref_offsets = self.ref_offsets
        text_input.tokenizer = self.tokenizer
        text_input.lowercase = self.lowercase
        text_input.shortest_ref = self.shortest_ref
        cdef int status = text_segment(self.kind, self.worker[0], text_input, 0, self.low, self.high,
                                       self.row.data())
        if status != STATUS_OK:
            if status == STATUS_TOO_LARGE:
                raise MemoryError(f"this segment has too many n-grams for one table (at most {MAX_TABLE_SLOTS} "
                                  f"slots); split very long segments")
            raise MemoryError("out of memory while tokenizing and counting the n-grams of this segment (or a "
                              "segment of more than 2**32 characters in all; split very long segments)")
        return self.row


cdef class TokenPairCounter:
    """The BLEU row of one pair of token lists per call (NLTK's ``sentence_bleu`` layout: a hypothesis token list,
    a list of reference token lists), on the calling thread with the GIL held, in one reused n-gram scratch. Tokens
    are any hashable values, interned as :func:`refscore.metrics.bleu.flavors.encode_token_lists` interns them
    (equal as dict keys: equal tokens); the row is :func:`bleu_statistics`'s.
    """
    cdef Scratch* scratch
    cdef vector[int64_t] row
    cdef int64_t max_order

    def __cinit__(self):
        self.scratch = new Scratch()

    def __dealloc__(self):
        del self.scratch

    def __init__(self, int max_order):
        if max_order < 1:
            raise ValueError(f"max_order must be >= 1, got {max_order}")
        self.max_order = max_order
        self.row.resize(2 + 2 * max_order)

    def __reduce__(self):
        return TokenPairCounter, (self.max_order,)   # made anew: the scratch holds nothing between calls

    @staticmethod
    cdef bint add(dict vocabulary, tokens, vector[uint32_t]& ids, vector[int64_t]& offsets) except -1:
        """Append one text's ids (new tokens numbered on); False when ``tokens`` is not a list or tuple."""
        kind = type(tokens)
        if kind is not list and kind is not tuple:
            return False
        cdef Py_ssize_t next_id
        for token in tokens:
            found = vocabulary.get(token)
            if found is None:
                next_id = len(vocabulary)
                vocabulary[token] = next_id
                ids.push_back(<uint32_t>next_id)
            else:
                ids.push_back(<uint32_t>(<Py_ssize_t>found))
        offsets.push_back(<int64_t>ids.size())
        return True

    def counts(self, hypothesis, references):
        """The BLEU row (a list of ints) of ``hypothesis`` (a list or tuple of tokens) against ``references`` (a
        non-empty list or tuple of such); None for any other layout or an unhashable token (the batch path
        reports those).

        >>> TokenPairCounter(2).counts(["a", "b", "c"], [["a", "b", "d"], ["c"]])
        [3, 3, 3, 1, 3, 2]
        """
        kind = type(references)
        if (kind is not list and kind is not tuple) or not references:
            return None
        # the ids are this call's own: interning may run tokens' own __hash__ / __eq__, during which another
        # thread may call this counter; only the kernel, which runs no Python, uses the shared scratch
        cdef dict vocabulary = {}
        cdef vector[uint32_t] ids
        cdef vector[int64_t] offsets
        offsets.push_back(0)
        try:
            if not TokenPairCounter.add(vocabulary, hypothesis, ids, offsets):
                return None
            hyp_vocabulary = len(vocabulary)
            for reference in references:
                if not TokenPairCounter.add(vocabulary, reference, ids, offsets):
                    return None
        except TypeError:   # an unhashable token
            return None
        if len(vocabulary) >= 0x80000000:
            return None   # ids past the kernel's dense range: the batch path counts them
        ids.push_back(0)   # the kernel reads ids[offsets[t]]; keeps the pointer valid when every text is empty
        cdef int status = bleu_text_segment(ids.data(), offsets.data(), len(references), self.max_order,
                                            self.scratch[0], self.row.data(), <uint32_t>hyp_vocabulary, False)
        if status != STATUS_OK:
            raise MemoryError("out of memory while counting the n-grams of this segment; split very long segments")
        return self.row


def bleu_text_pair(tokenizer, bint lowercase, int max_order, bint shortest_ref=False):
    """A :class:`TextPairCounter` of BLEU rows (the columns of :func:`bleu_text_statistics`).

    >>> bleu_text_pair("none", False, 2).counts("a b c", "a b d")
    [3, 3, 2, 1, 3, 2]
    """
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    return TextPairCounter("bleu", tokenizer, lowercase, 1, max_order, shortest_ref)


def gleu_text_pair(tokenizer, bint lowercase, int min_len, int max_len):
    """A :class:`TextPairCounter` of Google-BLEU rows (the columns of :func:`gleu_text_statistics`).

    >>> gleu_text_pair("none", False, 1, 2).counts("a b c", ["a b d", "a b c"])
    [5, 5]
    """
    if min_len < 1 or max_len < min_len:
        raise ValueError(f"need 1 <= min_len <= max_len, got min_len={min_len}, max_len={max_len}")
    return TextPairCounter("gleu", tokenizer, lowercase, min_len, max_len)


def has_cjk(str text not None):
    """Whether ``text`` has a Han, kana or Hangul code point (refscore.text.languages' classes; tests check them
    against its regex): the CJK advice's first test, one-byte strings at once, no regex scan.

    >>> has_cjk("Die Katze „schläft“."), has_cjk("猫が寝ている"), has_cjk("")
    (False, True, False)
    """
    refscore_string_ready(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t i
    cdef Py_UCS4 c
    for i in range(PyUnicode_GET_LENGTH(text) if kind != PyUnicode_1BYTE_KIND else 0):
        c = PyUnicode_READ(kind, data, i)
        if ((0x3400 <= c <= 0x4DBF) or (0x4E00 <= c <= 0x9FFF) or (0xF900 <= c <= 0xFAFF) or (0x20000 <= c <= 0x3134F)
                or (0x3040 <= c <= 0x30FF) or (0x31F0 <= c <= 0x31FF) or (0xFF66 <= c <= 0xFF9F)
                or (0x1100 <= c <= 0x11FF) or (0x3130 <= c <= 0x318F) or (0xA960 <= c <= 0xA97F)
                or (0xAC00 <= c <= 0xD7FF)):
            return True
    return False
