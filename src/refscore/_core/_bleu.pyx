# cython: language_level=3
"""sacreBLEU's ``BLEU.compute_bleu`` for many rows of statistics in one compiled loop.

The statements are sacreBLEU 2.6's, in its order and in C doubles; ``log`` and ``exp`` are the C library's, which
Python's ``math.log`` and ``math.exp`` call, so every row equals sacreBLEU's scalar result to the last bit.

sacreBLEU adds the logs of the precisions with Python's ``sum()``, which CPython 3.12 made compensated (Neumaier's
algorithm, gh-100425): the same statements give a last-bit different score on Python >= 3.12 for about one sentence
in five. The loop adds the logs the way the running interpreter's ``sum()`` does (``python_sum``), so the rows
equal sacreBLEU's on every Python.

Sentence statistics repeat the same small counts over and over, so :func:`bleu_scores` remembers the ``log`` of
each precision ``100 * correct / total`` and the brevity penalty of each ``(sys_len, ref_len)`` with small integer
counts (:class:`Remembered`): the same C expression on the same doubles, computed once.
"""
cimport cython
import sys
from math import fsum as _fsum

from libc.math cimport NAN, exp, fabs, isfinite, log
from libc.stdint cimport int64_t
from libcpp.vector cimport vector

import numpy as np

cdef double LOG_ZERO = -9999999999.0
#: Counts below this are remembered (two tables of SMALL * SMALL doubles: 128 KiB each).
cdef int SMALL = 128
#: Whether this interpreter's ``sum()`` of floats is compensated (CPython >= 3.12).
PYTHON_SUM_COMPENSATED = sys.version_info >= (3, 12)


cdef inline void sum_like_python(double x, double* total, double* compensation, bint compensated) noexcept nogil:
    """``total += x`` as ``sum()`` adds a float: plainly, or (``compensated``) by CPython 3.12's Neumaier step, whose
    ``compensation`` is added once at the end (:func:`sum_result`)."""
    cdef double t
    if not compensated:
        total[0] = total[0] + x
        return
    t = total[0] + x
    if fabs(total[0]) >= fabs(x):
        compensation[0] += (total[0] - t) + x
    else:
        compensation[0] += (x - t) + total[0]
    total[0] = t


cdef inline double sum_result(double total, double compensation) noexcept nogil:
    """CPython's last step: the compensation joins unless it is zero or not finite."""
    if compensation != 0 and isfinite(compensation):
        return total + compensation
    return total


# Results of log and exp already computed in one bleu_scores call, by small integer counts; NaN: not yet.
cdef struct Remembered:
    double* logs    # [total * SMALL + correct]: log(100. * correct / total)
    double* bps     # [sys_len * SMALL + ref_len]: exp(1 - ref_len / sys_len)


cdef inline int small_index(double first, double second) noexcept nogil:
    """``first * SMALL + second`` when both are integers in 0 .. SMALL - 1, else -1."""
    if 0 <= first < SMALL and 0 <= second < SMALL and first == <double>(<int>first) \
            and second == <double>(<int>second):
        return <int>first * SMALL + <int>second
    return -1

#: Smoothing method codes of :func:`bleu_scores`.
SMOOTHING_CODES = {"none": 0, "floor": 1, "add-k": 2, "exp": 3}
cdef enum Smoothing:
    SMOOTH_NONE = 0
    SMOOTH_FLOOR = 1
    SMOOTH_ADD_K = 2
    SMOOTH_EXP = 3


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void bleu_row(const double* correct_counts, const double* total_counts, int max_order, double sys_len,
                   double ref_len, int smoothing, double value, bint effective_order, double* score,
                   double* precisions, double* bp, Remembered* remembered, bint compensated) noexcept nogil:
    """One row of sacreBLEU's compute_bleu; `remembered` (or NULL) holds log and exp results of earlier rows."""
    cdef int n, index, eff_order = max_order
    cdef double smooth_mteval = 1.0, log_sum = 0.0, compensation = 0.0, correct, total
    cdef bint any_match = False
    bp[0] = 1.0
    if sys_len < ref_len:
        index = small_index(sys_len, ref_len) if remembered != NULL and sys_len > 0 else -1
        if index < 0:
            bp[0] = exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
        else:
            if remembered.bps[index] != remembered.bps[index]:
                remembered.bps[index] = exp(1 - ref_len / sys_len)
            bp[0] = remembered.bps[index]
    for n in range(max_order):
        precisions[n] = 0.0
        any_match = any_match or correct_counts[n] != 0
    score[0] = 0.0
    if not any_match:       # the early zero (sacreBLEU #141)
        return
    for n in range(max_order):
        correct = correct_counts[n]
        total = total_counts[n]
        if smoothing == SMOOTH_ADD_K and n > 0:
            correct = correct + value
            total = total + value
        if total == 0:
            break
        if effective_order:
            eff_order = n + 1
        if correct == 0:
            if smoothing == SMOOTH_EXP:
                smooth_mteval *= 2
                precisions[n] = 100. / (smooth_mteval * total)
            elif smoothing == SMOOTH_FLOOR:
                precisions[n] = 100. * value / total
        else:
            precisions[n] = 100. * correct / total
    for n in range(eff_order):
        if precisions[n] == 0.0:     # sacreBLEU's int my_log(0): sum() adds ints plainly
            log_sum = log_sum + LOG_ZERO
            continue
        index = -1
        if remembered != NULL:
            correct = correct_counts[n]
            total = total_counts[n]
            if smoothing == SMOOTH_ADD_K and n > 0:
                correct = correct + value
                total = total + value
            if correct != 0:    # then precisions[n] is 100. * correct / total (smoothing only sets the others)
                index = small_index(total, correct)
        if index < 0:
            sum_like_python(log(precisions[n]), &log_sum, &compensation, compensated)
        else:
            if remembered.logs[index] != remembered.logs[index]:
                remembered.logs[index] = log(precisions[n])
            sum_like_python(remembered.logs[index], &log_sum, &compensation, compensated)
    log_sum = sum_result(log_sum, compensation)
    score[0] = bp[0] * exp(log_sum / eff_order)


cdef int smoothing_code(str smooth_method) except -1:
    if smooth_method not in SMOOTHING_CODES:
        raise ValueError(f"smooth_method must be one of {', '.join(SMOOTHING_CODES)}, got {smooth_method!r}")
    return SMOOTHING_CODES[smooth_method]


def bleu_score_one(correct, total, double sys_len, double ref_len, str smooth_method, double smooth_value,
                   bint effective_order, python_sum=None):
    """``(score, precisions, bp)`` of one row as Python floats (a list of precisions), 0–100 scale: what
    :func:`bleu_scores` gives for that row, without numpy (a single sentence or corpus score). ``python_sum``: add
    the logs as Python 3.12's compensated ``sum()`` (True) or as earlier Pythons' (False); None: as this Python's.

    >>> score, precisions, bp = bleu_score_one([2, 1, 0], [3, 2, 1], 3, 3, "add-k", 1.0, False)
    >>> round(score, 2), [round(p, 2) for p in precisions], bp
    (60.57, [66.67, 66.67, 50.0], 1.0)
    """
    cdef int smoothing = smoothing_code(smooth_method)
    cdef vector[double] counts = correct, totals = total
    cdef int max_order = <int>counts.size()
    if max_order < 1 or <int>totals.size() != max_order:
        raise ValueError(f"correct ({max_order}) and total ({totals.size()}) need the same number (>= 1) of orders")
    cdef vector[double] precisions = vector[double](max_order)
    cdef double score, bp
    bleu_row(counts.data(), totals.data(), max_order, sys_len, ref_len, smoothing, smooth_value, effective_order,
             &score, precisions.data(), &bp, NULL, _compensated(python_sum))
    return score, list(precisions), bp


def sacrebleu_sentence(list row not None, int max_order, str smooth_method, double smooth_value,
                       bint effective_order):
    """``(score, values)`` of one row ``[sys_len, ref_len, correct_1..N, total_1..N]`` (ints) on the 0–1 scale,
    as refscore's BLEU result holds them: the score :func:`bleu_score_one` gives, divided by 100, and the named
    values ``counts``, ``totals``, ``precisions`` (0–1), ``bp``, ``sys_len``, ``ref_len``, ``ratio``, in that
    order. One call per sentence score (the per-call fast path), the same floats as the two-step Python.

    >>> score, values = sacrebleu_sentence([3, 3, 2, 1, 0, 3, 2, 1], 3, "add-k", 1.0, False)
    >>> round(score, 4), values["counts"], [round(p, 4) for p in values["precisions"]], values["ratio"]
    (0.6057, (2, 1, 0), [0.6667, 0.6667, 0.5], 1.0)
    """
    if max_order < 1 or len(row) != 2 + 2 * max_order:
        raise ValueError(f"row must have {2 + 2 * max_order} entries for max_order {max_order}, got {len(row)}")
    cdef int smoothing = smoothing_code(smooth_method)
    cdef vector[double] counts = vector[double](2 * max_order)   # the matches, then the totals
    cdef int n
    for n in range(2 * max_order):
        counts[n] = row[2 + n]
    sys_len, ref_len = row[0], row[1]
    cdef vector[double] precisions = vector[double](max_order)
    cdef double score, bp
    bleu_row(counts.data(), counts.data() + max_order, max_order, sys_len, ref_len, smoothing, smooth_value,
             effective_order, &score, precisions.data(), &bp, NULL, PYTHON_SUM_COMPENSATED)
    values = {"counts": tuple(row[2:2 + max_order]), "totals": tuple(row[2 + max_order:]),
              "precisions": tuple([precisions[n] / 100.0 for n in range(max_order)]), "bp": bp,
              "sys_len": sys_len, "ref_len": ref_len, "ratio": sys_len / ref_len if ref_len else 0.0}
    return score / 100.0, values


cdef bint _compensated(python_sum) except -1:
    return PYTHON_SUM_COMPENSATED if python_sum is None else bool(python_sum)


ctypedef fused count_t:
    double
    int64_t


@cython.boundscheck(False)
@cython.wraparound(False)
def bleu_scores(const count_t[:, :] correct not None, const count_t[:, :] total not None,
                const count_t[:] sys_len not None, const count_t[:] ref_len not None, smooth_method: str,
                double smooth_value, bint effective_order, python_sum=None):
    """``(score, precisions, bp)`` arrays on sacreBLEU's 0–100 scale, one row per row of statistics.

    ``correct`` and ``total`` are ``(rows, max_order)`` n-gram matches and totals, ``sys_len`` and ``ref_len``
    ``(rows,)``, all float64 or all int64 (strided views, such as columns of a statistics table, are read in
    place); ``smooth_value`` is used by ``floor`` and ``add-k``; ``python_sum`` as in :func:`bleu_score_one`.

    >>> score, precisions, bp = bleu_scores(np.array([[2., 1., 0.]]), np.array([[3., 2., 1.]]), np.array([3.]),
    ...                                     np.array([3.]), "add-k", 1.0, False)
    >>> round(float(score[0]), 2), [round(float(p), 2) for p in precisions[0]], float(bp[0])
    (60.57, [66.67, 66.67, 50.0], 1.0)
    """
    cdef int smoothing = smoothing_code(smooth_method)
    cdef bint compensated = _compensated(python_sum)
    cdef Py_ssize_t rows = correct.shape[0], row
    cdef int max_order = <int>correct.shape[1], n
    if (total.shape[0] != rows or total.shape[1] != max_order or sys_len.shape[0] != rows
            or ref_len.shape[0] != rows):
        raise ValueError(f"correct {(rows, max_order)} and total {(total.shape[0], total.shape[1])} must have the "
                         f"same shape, sys_len ({sys_len.shape[0]}) and ref_len ({ref_len.shape[0]}) one entry "
                         f"per row")
    if max_order < 1:
        raise ValueError("need at least one n-gram order")
    scores = np.empty(rows, dtype=np.float64)
    precisions = np.empty((rows, max_order), dtype=np.float64)
    bps = np.empty(rows, dtype=np.float64)
    cdef double[::1] score_view = scores, bp_view = bps
    cdef double[:, ::1] precision_view = precisions
    if rows == 0:
        return scores, precisions, bps
    cdef vector[double] logs, brevity
    cdef vector[double] counts = vector[double](2 * max_order)   # one row's matches, then its totals, as doubles
    cdef Remembered remembered
    cdef Remembered* memory = NULL
    if rows >= SMALL:   # worth the tables
        logs.assign(SMALL * SMALL, NAN)
        brevity.assign(SMALL * SMALL, NAN)
        remembered.logs = logs.data()
        remembered.bps = brevity.data()
        memory = &remembered
    with nogil:
        for row in range(rows):
            for n in range(max_order):
                counts[n] = <double>correct[row, n]
                counts[max_order + n] = <double>total[row, n]
            bleu_row(counts.data(), counts.data() + max_order, max_order, <double>sys_len[row],
                     <double>ref_len[row], smoothing, smooth_value, effective_order, &score_view[row],
                     &precision_view[row, 0], &bp_view[row], memory, compensated)
    return scores, precisions, bps


_NUMBERS = (float, int)


def nltk_sentence_score(list row not None, weights, int method, epsilon, auto_reweigh, default_weights):
    """NLTK 3.10's ``sentence_bleu`` of one BLEU row ``[hyp_len, ref_len, match_1..N, total_1..N]`` (N =
    ``len(weights)``, a tuple or list of int / float weights): ``p_n = match_n / max(1, total_n)`` (the float of
    NLTK's ``Fraction``: the correctly rounded quotient either way), the int ``0`` without unigram matches, then
    smoothing ``method`` 0 (none), 1 (``epsilon / denominator`` where nothing matches) or 2 (add one to orders
    >= 2), ``auto_reweigh`` as NLTK (``weights == default_weights``, fewer than 4 tokens), and ``bp *
    exp(math.fsum(w_n * log(p_n) for p_n > 0))``. Returns None for what NLTK computes otherwise (method 0 with an
    order without matches: its warning; weights or ``epsilon`` of other types): the caller's general path.

    >>> nltk_sentence_score([4, 4, 3, 2, 4, 3], (0.5, 0.5), 1, 0.1, False, (0.25,) * 4)   # NLTK: the same float
    0.7071067811865475
    """
    cdef Py_ssize_t order = len(weights), n
    if order < 1 or len(row) != 2 + 2 * order:
        return None
    cdef vector[double] w = vector[double](order)
    for n in range(order):
        value = weights[n]
        if type(value) not in _NUMBERS:
            return None
        w[n] = value
    if row[2] == 0:
        return 0
    cdef double eps = 0.0
    if method == 1:
        if type(epsilon) not in _NUMBERS:
            return None
        eps = epsilon
    cdef int64_t hyp_len = row[0], ref_len = row[1], match, total
    cdef vector[double] p = vector[double](order)
    for n in range(order):
        match, total = row[2 + n], row[2 + order + n]
        if total < 1:
            total = 1   # NLTK's max(1, ·)
        if method == 0 and match == 0:
            return None
        if method == 1 and match == 0:
            p[n] = (0 + eps) / <double>total
        elif method == 2 and n > 0:
            p[n] = <double>(match + 1) / <double>(total + 1)
        else:
            p[n] = <double>match / <double>total
    if auto_reweigh and hyp_len < 4 and weights == default_weights:
        order = hyp_len   # NLTK: weights = (1 / hyp_len,) * hyp_len, zipped with p_n
        for n in range(order):
            w[n] = 1.0 / <double>hyp_len
    terms = [w[n] * log(p[n]) for n in range(order) if p[n] > 0]
    cdef double log_sum = _fsum(terms)
    if hyp_len > ref_len:
        return exp(log_sum)   # NLTK's bp is the int 1
    return exp(1.0 - <double>ref_len / <double>hyp_len) * exp(log_sum)
