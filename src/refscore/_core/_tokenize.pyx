# cython: language_level=3
"""sacreBLEU's tokenizers, compiled: text in, integer token ids out.

``encode_words(texts, tokenizer, lowercase)`` gives, token for token, what sacreBLEU 2.6's BLEU preprocessing
gives (``tokenizer((s.lower() if lowercase else s).rstrip()).split()``), but as ids interned per call: equal
token strings get equal ids, and ids are dense, in order of first appearance. Segments are tokenized in
parallel (one GIL-free call) straight from the strings' own buffers; ids never depend on the thread count.

>>> ids, offsets = encode_words(["Hello, world!", "hello world"], lowercase=True)
>>> ids.tolist(), offsets.tolist()
([0, 1, 2, 3, 0, 2], [0, 4, 6])
"""
from cython.parallel cimport prange, threadid
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libcpp cimport bool as cbool
from libcpp.vector cimport vector
from refscore._core._strings cimport (CHARS_PER_THREAD, REFSCORE_TABLES_REGEX_VERSION,
                                      REFSCORE_TABLES_UNIDATA_VERSION, StringBuffers, TextBatch, TextPreparation,
                                      append_text, char_class, point_at_strings)
from refscore._core._tokenize_kernel cimport (Interner, ThreadStore, merge_ids, repeated_text_groups,
                                              text_content_hash, tokenize_segment)

import unicodedata

import numpy as np

from refscore._core._parallel import resolve_num_threads
from refscore.errors import InputError, InputTypeError

cdef extern from "Python.h":
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)

TOKENIZERS = ("13a", "intl", "zh", "char", "none")
#: ``13a-unstripped`` (not offered by the metrics): 13a without sacreBLEU's strip of trailing whitespace, as in the
#: copy of the tokenizer in Hugging Face's ``bleu`` and ``google_bleu`` scripts.
_TOKENIZER_CODES = {"none": 0, "char": 1, "13a": 2, "zh": 3, "intl": 4, "13a-unstripped": 5}
_CHARS_PER_THREAD = CHARS_PER_THREAD   # a module global, so that tests can force threads

#: Versions the character tables were generated from (``tools/gen_unicode_tables.py``).
UNICODE_TABLE_VERSIONS = {"unicodedata": REFSCORE_TABLES_UNIDATA_VERSION.decode("ascii"),
                          "regex": REFSCORE_TABLES_REGEX_VERSION.decode("ascii")}
# The kernel lowercases exactly like str.lower of the Python the tables came from; on another Unicode
# version str.lower itself runs before the kernel (exact, a little slower).
_LOWERCASE_IN_KERNEL = unicodedata.unidata_version == UNICODE_TABLE_VERSIONS["unicodedata"]
_UNSUPPORTED = ("ja-mecab", "ko-mecab", "spm", "flores101", "flores200", "spBLEU-1K")


def tokenizer_code(tokenizer, argument="tokenizer"):
    """The kernel's code of a tokenizer name; a clear error for unknown or unsupported names."""
    code = _TOKENIZER_CODES.get(tokenizer) if isinstance(tokenizer, str) else None
    if code is not None:
        return code
    if tokenizer in _UNSUPPORTED or (isinstance(tokenizer, str) and tokenizer.startswith("flores")):
        raise InputError(
            f"{argument}={tokenizer!r} is not supported by refscore (it needs MeCab or SentencePiece models); "
            f"choose one of {', '.join(TOKENIZERS)}, or tokenize the text yourself and pass token ids")
    raise InputError(f"{argument}={tokenizer!r} is not a known tokenizer; choose one of {', '.join(TOKENIZERS)}")


def _check_texts(texts, argument):
    """``texts`` as a new list (its items are checked while the kernel reads them)."""
    if isinstance(texts, (str, bytes)) or not hasattr(texts, "__len__"):
        raise InputTypeError(f"{argument} must be a list of str, got {type(texts).__name__}")
    return list(texts)


def _not_a_string(item, index, argument="texts"):
    hint = "replace None by an empty string ''" if item is None else "convert it to str"
    return InputTypeError(f"{argument}[{index}] is {type(item).__name__}, expected str; {hint}")


cdef void _point_at_texts(list texts, StringBuffers& buffers) except *:
    """point_at_strings, raising the error that names the first item that is not a str."""
    cdef Py_ssize_t i = point_at_strings(texts, buffers)
    if i >= 0:
        raise _not_a_string(texts[i], i)


cdef class _Encoding:
    """The tokens of one batch: per-thread stores, the call's vocabulary, and the ids/offsets arrays."""
    cdef vector[ThreadStore] stores
    cdef Interner vocabulary
    cdef public object ids
    cdef public object offsets

    def __init__(self, list texts, int tokenizer, cbool lowercase, int num_threads):
        cdef Py_ssize_t n = len(texts)
        cdef Py_ssize_t i
        cdef StringBuffers buffers
        _point_at_texts(texts, buffers)
        cdef const void** data = buffers.data.data()
        cdef const int* kinds = buffers.kinds.data()
        cdef const int64_t* lengths = buffers.lengths.data()
        # Waking threads costs more than tokenizing a small batch; the thread count never changes results.
        num_threads = <int>min(num_threads, 1 + buffers.total_chars // _CHARS_PER_THREAD)

        cdef vector[int32_t] thread_of
        cdef vector[int64_t] first
        cdef vector[int64_t] counts
        thread_of.resize(n)
        first.resize(n)
        counts.resize(n)
        self.stores.resize(num_threads)
        cdef ThreadStore* stores = self.stores.data()
        cdef int tid
        with nogil:
            for i in prange(n, num_threads=num_threads, schedule="dynamic", chunksize=16):
                tid = threadid()
                thread_of[i] = tid
                first[i] = stores[tid].n_tokens
                counts[i] = tokenize_segment(tokenizer, lowercase, kinds[i], data[i], lengths[i], stores[tid])
        for tid in range(num_threads):
            if stores[tid].failed:
                raise MemoryError("out of memory while tokenizing")

        offsets = np.zeros(n + 1, dtype=np.int64)
        cdef int64_t[::1] offsets_view = offsets
        cdef int64_t total = 0
        for i in range(n):
            total += counts[i]
            offsets_view[i + 1] = total
        ids = np.empty(total, dtype=np.uint32)
        cdef uint32_t[::1] ids_view = ids
        cdef cbool ok
        with nogil:
            ok = merge_ids(stores, num_threads, self.vocabulary, n, thread_of.data(), first.data(),
                           &offsets_view[0], &ids_view[0] if total > 0 else <uint32_t*>NULL)
        self.stores.clear()  # the vocabulary keeps its own copy of every distinct token
        self.stores.shrink_to_fit()
        if not ok:
            raise MemoryError("out of memory while interning tokens")
        self.ids = ids
        self.offsets = offsets

    def vocab(self):
        cdef size_t k
        return [PyUnicode_FromKindAndData(4, self.vocabulary.items(k), self.vocabulary.length(k))
                for k in range(self.vocabulary.size())]


def encode_words_with_vocab(texts, tokenizer="13a", lowercase=False, num_threads=None):
    """Tokenize ``texts`` like sacreBLEU and intern the tokens; also return the token strings.

    Returns ``(ids, offsets, vocab)``: ``ids`` (uint32) holds the tokens of all texts, those of text ``i``
    being ``ids[offsets[i]:offsets[i + 1]]`` (``offsets``: int64, ``len(texts) + 1``); ``vocab[id]`` is the
    token string. Ids are dense and numbered in order of first appearance.

    >>> ids, offsets, vocab = encode_words_with_vocab(["It's 3.14, ok?"])
    >>> [vocab[k] for k in ids]
    ["It's", '3.14', ',', 'ok', '?']
    """
    encoding = _encode(texts, tokenizer, lowercase, num_threads)
    return encoding.ids, encoding.offsets, encoding.vocab()


def encode_words(texts, tokenizer="13a", lowercase=False, num_threads=None):
    """Tokenize ``texts`` like sacreBLEU and intern the tokens: ``(ids uint32, offsets int64)``.

    See :func:`encode_words_with_vocab`; equal tokens (within one call) have equal ids.

    >>> ids, offsets = encode_words(["a b a", "", "b"], tokenizer="none")
    >>> ids.tolist(), offsets.tolist()
    ([0, 1, 0, 1], [0, 3, 3, 4])
    """
    encoding = _encode(texts, tokenizer, lowercase, num_threads)
    return encoding.ids, encoding.offsets


def kernel_case(texts, lowercase):
    """``(texts, lowercase)`` for the kernel: it lowercases exactly like ``str.lower`` when its tables match this
    Python's Unicode version; otherwise the texts are lowercased here and the kernel is told not to."""
    lowercase = bool(lowercase)
    if lowercase and not _LOWERCASE_IN_KERNEL:
        return [text.lower() if isinstance(text, str) else text for text in texts], False
    return texts, lowercase


def _encode(texts, tokenizer, lowercase, num_threads):
    code = tokenizer_code(tokenizer)
    items, lowercase = kernel_case(_check_texts(texts, "texts"), lowercase)
    return _Encoding(items, code, lowercase, resolve_num_threads(num_threads))


def _char_classes(code_points):
    """The class flags of the compiled table for each code point (for tests against Python and ``regex``)."""
    cdef const uint32_t[::1] source = np.ascontiguousarray(code_points, dtype=np.uint32)
    result = np.empty(source.shape[0], dtype=np.uint8)
    cdef uint8_t[::1] target = result
    cdef Py_ssize_t i
    for i in range(source.shape[0]):
        target[i] = char_class(source[i])
    return result


def _repeated_text_groups(list texts):
    """The repeat group of each text as the n-gram text kernels number them: -1 for a text met once, else a number
    shared by the equal texts, in order of first appearance (for tests of the table behind it)."""
    cdef StringBuffers buffers
    _point_at_texts(texts, buffers)
    groups = np.full(len(texts), -1, dtype=np.int64)
    cdef int64_t[::1] view = groups
    if len(texts):
        repeated_text_groups(buffers.data.data(), buffers.kinds.data(), buffers.lengths.data(), len(texts), &view[0])
    return groups


def _text_content_digests(list texts):
    """The digest that decides where each text sits in :func:`_repeated_text_groups`' table (this module's
    per-process key; for tests that craft texts whose lookups collide)."""
    cdef StringBuffers buffers
    _point_at_texts(texts, buffers)
    cdef Py_ssize_t i
    digests = np.empty(len(texts), dtype=np.uint64)
    cdef uint64_t[::1] view = digests
    for i in range(len(texts)):
        view[i] = text_content_hash(buffers.kinds[i], buffers.data[i], buffers.lengths[i])
    return digests


def _prepared_text(str text, bint rstrip, bint lowercase):
    """``text`` as every kernel reads it (``_text.hpp``): ``text.rstrip()`` when ``rstrip``, then ``.lower()``
    when ``lowercase`` (for tests against Python's own ``str`` methods)."""
    cdef StringBuffers buffers
    point_at_strings([text], buffers)
    cdef TextPreparation preparation
    preparation.rstrip = rstrip
    preparation.lowercase = lowercase
    cdef vector[uint32_t] out, scratch
    append_text(buffers.batch(), 0, preparation, out, scratch)
    return PyUnicode_FromKindAndData(4, out.data(), out.size())
