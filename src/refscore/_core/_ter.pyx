# cython: language_level=3
# distutils: language = c++
"""TER kernels: sacreBLEU's Tercom tokenizer and edit distance with shifts, one nogil ``prange`` over segments.

The algorithm is in ``_ter_kernel.hpp`` (a port of sacreBLEU 2.6's ``lib_ter.py`` and ``tokenizer_ter.py``);
this module hands the strings' buffers over once (``_strings.pxd``), runs every segment (its hypothesis against
each of its references, one reference at a time) on a thread with its own workspace, and returns per-reference
edit counts and reference lengths.
Results do not depend on the number of threads: every hypothesis/reference pair is computed independently.
:class:`PairScorer` is the single-pair entry point (one sentence per call): the same segment kernel on the
calling thread, one reused workspace, no arrays.
"""
from cython.parallel cimport prange, threadid
from libc.stdint cimport int64_t
from libcpp.vector cimport vector
from refscore._core._strings cimport (StringBuffers, TextBatch, TextPreparation, plain_pair_texts,
                                      point_at_named_strings, point_at_strings)
from refscore._core._ter_kernel cimport (Workspace, ids_segment, kAsianSupport, kNoPunct, kNormalized,
                                         text_segment)

import numpy as np

from refscore._core._parallel import resolve_num_threads
from refscore._core._tokenize import kernel_case

NORMALIZED = kNormalized
NO_PUNCT = kNoPunct
ASIAN_SUPPORT = kAsianSupport


def _check_layout(const int64_t[::1] ref_offsets, Py_ssize_t n_segments):
    if ref_offsets.shape[0] != n_segments + 1:
        raise ValueError(f"ref_offsets must have n_segments + 1 = {n_segments + 1} entries, "
                         f"got {ref_offsets.shape[0]}")
    return ref_offsets[n_segments]


cdef _run(const TextBatch* texts, TextPreparation preparation, const int64_t* ids, const int64_t* offsets,
          const int64_t[::1] ref_offsets, Py_ssize_t n_segments, int64_t n_refs, int flags, num_threads):
    """The parallel loop shared by both entry points: text when ``texts`` is given, else token ids."""
    cdef int threads = resolve_num_threads(num_threads, n_segments)
    edits_array = np.zeros(n_refs, dtype=np.int64)
    lengths_array = np.zeros(n_refs, dtype=np.int64)
    status_array = np.zeros(n_segments, dtype=np.intc)
    cdef int64_t[::1] edits = edits_array
    cdef int64_t[::1] lengths = lengths_array
    cdef int[::1] status = status_array
    cdef vector[Workspace] workspaces = vector[Workspace](threads)
    cdef Workspace* ws = workspaces.data()
    cdef bint is_text = texts != NULL
    cdef Py_ssize_t i
    if n_refs == 0:
        return edits_array, lengths_array
    with nogil:
        for i in prange(n_segments, num_threads=threads, schedule="dynamic"):
            if is_text:
                status[i] = text_segment(ws + threadid(), texts[0], preparation, i, n_segments + ref_offsets[i],
                                         n_segments + ref_offsets[i + 1], flags, &edits[0] + ref_offsets[i],
                                         &lengths[0] + ref_offsets[i])
            else:
                status[i] = ids_segment(ws + threadid(), ids, offsets, i, n_segments + ref_offsets[i],
                                        n_segments + ref_offsets[i + 1], &edits[0] + ref_offsets[i],
                                        &lengths[0] + ref_offsets[i])
    failed = np.flatnonzero(status_array)
    if failed.size:
        raise RuntimeError(f"TER backtracking reached an unset cell of the beam for segment {int(failed[0])} "
                           f"(sacreBLEU raises 'unknown operation' here too)")
    return edits_array, lengths_array


def ter_text(list hypotheses not None, list references not None, const int64_t[::1] ref_offsets, int flags,
             bint lowercase, num_threads=None):
    """Edits and reference lengths of text segments, each text prepared as sacreBLEU's TER does
    (``text.rstrip()``, then ``.lower()`` when ``lowercase``).

    Segment ``i`` is ``hypotheses[i]`` against ``references[ref_offsets[i]:ref_offsets[i + 1]]``. ``flags``
    combines ``NORMALIZED``, ``NO_PUNCT``, ``ASIAN_SUPPORT``. Returns two int64 arrays with one entry per
    reference: the edits of its hypothesis against it, its length in words.

    >>> edits, lengths = ter_text(["The cat sat "], ["the cat sat down"], np.array([0, 1]), 0, True)
    >>> edits.tolist(), lengths.tolist()
    ([1], [4])
    """
    cdef Py_ssize_t n_segments = len(hypotheses)
    cdef int64_t n_refs = _check_layout(ref_offsets, n_segments)
    if n_refs != len(references):
        raise ValueError(f"ref_offsets end at {n_refs}, for {len(references)} references")
    hypotheses, kernel_lowercase = kernel_case(hypotheses, lowercase)
    references, _ = kernel_case(references, lowercase)
    cdef StringBuffers buffers   # the hypotheses, then the references
    point_at_named_strings(hypotheses, buffers, "ter_text", "hypotheses")
    point_at_named_strings(references, buffers, "ter_text", "references")
    cdef TextBatch texts = buffers.batch()
    cdef TextPreparation preparation
    preparation.rstrip = True
    preparation.lowercase = kernel_lowercase
    return _run(&texts, preparation, NULL, NULL, ref_offsets, n_segments, n_refs, flags, num_threads)


def ter_ids(const int64_t[::1] ids, const int64_t[::1] offsets, const int64_t[::1] ref_offsets,
            Py_ssize_t n_segments, num_threads=None):
    """Like :func:`ter_text` for texts given as token ids (``ids[offsets[t]:offsets[t + 1]]``, the hypotheses
    then the references), no tokenizer."""
    cdef int64_t n_refs = _check_layout(ref_offsets, n_segments)
    if offsets.shape[0] != n_segments + n_refs + 1:
        raise ValueError(f"offsets must have one entry per text plus one ({n_segments + n_refs + 1}), "
                         f"got {offsets.shape[0]}")
    if offsets[offsets.shape[0] - 1] > ids.shape[0]:
        raise ValueError("offsets point past the end of ids")
    cdef int64_t empty = 0
    cdef TextPreparation unused
    return _run(NULL, unused, &ids[0] if ids.shape[0] > 0 else &empty, &offsets[0], ref_offsets, n_segments,
                n_refs, 0, num_threads)


cdef class PairScorer:
    """The edits against each reference and the references' lengths in words (two lists of ints, as
    :func:`ter_text` gives them) of one hypothesis against a ``str`` reference or a non-empty list or tuple of
    them per call: :func:`ter_text`'s segment kernel on the calling thread with the GIL held (which keeps two
    threads from sharing the workspace at once), in one workspace kept from call to call.

    >>> PairScorer(0, True).edits("The cat sat ", ["the cat sat down", "a cat"])
    ([1, 2], [4, 2])
    """
    cdef Workspace* workspace
    cdef int flags
    cdef bint lowercase, python_lowercase
    cdef vector[int64_t] ref_edits, ref_lengths
    cdef tuple arguments   # the constructor's: a pickled scorer is made anew (its workspace is scratch)

    def __cinit__(self):
        self.workspace = new Workspace()

    def __dealloc__(self):
        del self.workspace

    def __init__(self, int flags, bint lowercase):
        self.arguments = (flags, lowercase)
        self.flags = flags
        _, kernel_lowercase = kernel_case((), lowercase)
        self.lowercase = kernel_lowercase
        self.python_lowercase = lowercase and not kernel_lowercase

    def __reduce__(self):
        return PairScorer, self.arguments

    def edits(self, hypothesis, references):
        """``(edits per reference, length per reference)``, or None unless the hypothesis is a plain ``str`` and
        the references a plain ``str`` or a non-empty list or tuple of them (the batch path checks the rest)."""
        cdef list texts = plain_pair_texts(hypothesis, references, self.python_lowercase)
        if texts is None:
            return None
        cdef StringBuffers buffers
        point_at_strings(texts, buffers)
        cdef int64_t n_refs = len(texts) - 1
        self.ref_edits.assign(n_refs, 0)
        self.ref_lengths.assign(n_refs, 0)
        cdef TextPreparation preparation
        preparation.rstrip = True
        preparation.lowercase = self.lowercase
        if text_segment(self.workspace, buffers.batch(), preparation, 0, 1, 1 + n_refs, self.flags,
                        self.ref_edits.data(), self.ref_lengths.data()):
            raise RuntimeError("TER backtracking reached an unset cell of the beam for this segment (sacreBLEU "
                               "raises 'unknown operation' here too)")
        return self.ref_edits, self.ref_lengths
