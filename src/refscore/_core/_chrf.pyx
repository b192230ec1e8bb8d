# cython: language_level=3
"""chrF / chrF++ sufficient statistics, bound from ``_chrf_kernel.hpp`` (the algorithm, and why it is exact).

One call scores a whole batch: the strings' own buffers are handed over once (``_strings.pxd``) and one
``nogil`` call runs the kernel's parallel loop over segments (lowercasing, whitespace removal, n-gram counting
and the choice of the best reference all happen there). Results do not depend on the thread count.
:class:`PairScorer` is the single-pair entry point (one sentence per call): the same segment kernel and formula
on the calling thread, one reused scratch, no arrays.
"""
import numpy as np

from libc.stdint cimport int64_t
from libcpp cimport bool as cbool
from libcpp.vector cimport vector
from refscore._core._chrf_kernel cimport (KEEP_SPACE, REMOVE_PYTHON_SPACE, REMOVE_REGEX_SPACE, Scratch, Settings,
                                          batch_statistics, f_score)
from refscore._core._strings cimport StringBuffers, TextBatch, plain_pair_texts, point_at_strings

from refscore._core._parallel import resolve_num_threads
from refscore._core._tokenize import kernel_case

#: Which whitespace is removed before character n-grams are extracted (argument ``space_mode``).
SPACE_KEEP = KEEP_SPACE              # sacreBLEU whitespace=True: every character counts
SPACE_PYTHON = REMOVE_PYTHON_SPACE   # sacreBLEU default: ''.join(line.split()), Python's str.isspace() set
SPACE_REGEX = REMOVE_REGEX_SPACE     # NLTK: regex r"\s+" (`regex`'s Unicode White_Space: no U+001C..U+001F)


def chrf_f_scores(const int64_t[:, ::1] totals not None, int order, double factor, bint eps_smoothing):
    """sacreBLEU's ``CHRF._compute_f_score`` (0–100) of every row of ``(m, 3 * order)`` integer statistics,
    compiled: each value is the very float sacreBLEU computes.

    >>> chrf_f_scores(np.array([[4, 5, 2]]), 1, 4.0, False).round(4).tolist()
    [41.6667]
    """
    if order < 1 or totals.shape[1] != 3 * order:
        raise ValueError(f"chrF totals must have shape (m, {3 * order}) for order {order}, got "
                         f"({totals.shape[0]}, {totals.shape[1]})")
    cdef Py_ssize_t rows = totals.shape[0], row
    scores = np.empty(rows, dtype=np.float64)
    cdef double[::1] out = scores
    with nogil:
        for row in range(rows):
            out[row] = f_score(&totals[row, 0], order, factor, eps_smoothing)
    return scores


def chrf_statistics(list hypotheses, list references, const int64_t[::1] ref_offsets, int char_order,
                    int word_order, double factor, bint eps_smoothing, int space_mode, num_threads=None, *,
                    bint lowercase=False):
    """Per-segment chrF statistics: an int64 array ``(n, 3 * (char_order + word_order))``.

    Row ``i`` holds ``[hyp, ref, match]`` for character orders ``1..char_order`` then word orders
    ``1..word_order``, taken from the reference of segment ``i`` with the best sentence chrF (``factor`` =
    beta², ``eps_smoothing`` as sacreBLEU; the first reference wins ties). The references of segment ``i`` are
    ``references[ref_offsets[i]:ref_offsets[i + 1]]``; ``lowercase`` lowercases every text as ``str.lower``.

    >>> import numpy as np
    >>> chrf_statistics(["ab"], ["abc"], np.array([0, 1]), 2, 0, 4.0, False, SPACE_PYTHON)[0].tolist()
    [2, 3, 2, 1, 2, 1]
    >>> chrf_statistics(["AB"], ["abc"], np.array([0, 1]), 1, 0, 4.0, False, SPACE_PYTHON, lowercase=True).tolist()
    [[2, 3, 2]]
    """
    cdef int64_t n = len(hypotheses)
    cdef int64_t segment
    if char_order < 0 or word_order < 0 or char_order + word_order < 1:
        raise ValueError(f"chrf_statistics: need char_order >= 0, word_order >= 0 and at least one order, got "
                         f"char_order={char_order}, word_order={word_order}")
    if space_mode not in (SPACE_KEEP, SPACE_PYTHON, SPACE_REGEX):
        raise ValueError(f"chrf_statistics: unknown space_mode {space_mode}")
    if ref_offsets.shape[0] != n + 1 or (n >= 0 and ref_offsets[0] != 0) or ref_offsets[n] != len(references):
        raise ValueError("chrf_statistics: ref_offsets must have n + 1 entries from 0 to len(references)")
    for segment in range(n):
        if ref_offsets[segment + 1] <= ref_offsets[segment]:
            raise ValueError(f"chrf_statistics: segment {segment} has no reference")
    hypotheses, kernel_lowercase = kernel_case(hypotheses, lowercase)
    references, _ = kernel_case(references, lowercase)
    cdef StringBuffers hyp_buffers, ref_buffers
    cdef Py_ssize_t index = point_at_strings(hypotheses, hyp_buffers)
    if index < 0:
        index = point_at_strings(references, ref_buffers)
        if index >= 0:
            raise TypeError(f"chrf_statistics: expected str, got {type(references[index]).__name__}")
    else:
        raise TypeError(f"chrf_statistics: expected str, got {type(hypotheses[index]).__name__}")
    cdef Settings settings
    settings.char_order = char_order
    settings.word_order = word_order
    settings.factor = factor
    settings.eps_smoothing = eps_smoothing
    settings.space_mode = space_mode
    settings.lowercase = kernel_lowercase
    out = np.zeros((n, 3 * (char_order + word_order)), dtype=np.int64)
    if n == 0:
        return out
    cdef int64_t[:, ::1] rows = out
    cdef int threads = resolve_num_threads(num_threads, n)
    cdef int64_t failures
    with nogil:
        failures = batch_statistics(settings, hyp_buffers.batch(), ref_buffers.batch(), &ref_offsets[0], n,
                                    threads, &rows[0, 0])
    if failures:
        raise MemoryError(f"chrf_statistics: out of memory for {failures} segment(s)")
    return out


cdef class PairScorer:
    """sacreBLEU's sentence chrF (0–100) of one hypothesis against a ``str`` reference or a non-empty list or
    tuple of them per call: :func:`chrf_statistics`' segment kernel and :func:`chrf_f_scores`' formula on the
    calling thread with the GIL held (which keeps two threads from sharing the scratch at once), in one scratch
    kept from call to call. Arguments as :func:`chrf_statistics`'.

    >>> round(PairScorer(6, 0, 4.0, False, SPACE_PYTHON).score("The cat sat.", ["The cat sat on the mat."]), 4)
    49.2607
    """
    cdef Scratch* scratch
    cdef Settings settings
    cdef vector[int64_t] row
    cdef bint python_lowercase
    cdef tuple arguments   # the constructor's: a pickled scorer is made anew (its scratch holds nothing)

    def __cinit__(self):
        self.scratch = new Scratch()

    def __dealloc__(self):
        del self.scratch

    def __init__(self, int char_order, int word_order, double factor, bint eps_smoothing, int space_mode,
                 bint lowercase=False):
        if char_order < 0 or word_order < 0 or char_order + word_order < 1:
            raise ValueError(f"PairScorer: need char_order >= 0, word_order >= 0 and at least one order, got "
                             f"char_order={char_order}, word_order={word_order}")
        if space_mode not in (SPACE_KEEP, SPACE_PYTHON, SPACE_REGEX):
            raise ValueError(f"PairScorer: unknown space_mode {space_mode}")
        _, kernel_lowercase = kernel_case((), lowercase)
        self.arguments = (char_order, word_order, factor, eps_smoothing, space_mode, lowercase)
        self.python_lowercase = lowercase and not kernel_lowercase
        self.settings.char_order = char_order
        self.settings.word_order = word_order
        self.settings.factor = factor
        self.settings.eps_smoothing = eps_smoothing
        self.settings.space_mode = space_mode
        self.settings.lowercase = kernel_lowercase
        self.row.resize(3 * (char_order + word_order))

    def __reduce__(self):
        return PairScorer, self.arguments

    def score(self, hypothesis, references):
        """The sentence chrF (0–100), or None unless the hypothesis is a plain ``str`` and the references a plain
        ``str`` or a non-empty list or tuple of them (the batch path checks and reports the rest)."""
        cdef list texts = plain_pair_texts(hypothesis, references, self.python_lowercase)
        if texts is None:
            return None
        cdef list hyps = texts[:1], refs = texts[1:]
        cdef StringBuffers hyp_buffers, ref_buffers
        point_at_strings(hyps, hyp_buffers)
        point_at_strings(refs, ref_buffers)
        self.scratch.segment_statistics(self.settings, hyp_buffers.batch(), 0, ref_buffers.batch(), 0, len(refs),
                                        self.row.data())
        return f_score(self.row.data(), self.settings.char_order + self.settings.word_order, self.settings.factor,
                       self.settings.eps_smoothing)
