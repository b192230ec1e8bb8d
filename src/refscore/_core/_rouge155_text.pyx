# cython: language_level=3
"""ROUGE-1.5.5.pl's text reading in one crossing: Python strings go to ``_rouge155_text.hpp`` through their own
buffers (``_strings.pxd``), which splits sentence lines, cuts the script's tokens and applies ``-s`` (stopwords)
and ``-m`` (WordNet exceptions, then the script's Porter stemmer) in one ``nogil`` call, returning the CSR token
ids that the scoring kernels of ``_rouge155.pyx`` take.

>>> ScriptText([], {}).tokenize(["U.S. state-of-the-art", "caf\u00e9s 3.14"], False, False, False)[0].tolist()
[0, 1, 2, 3, 4, 5, 6, 1, 7, 8]
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.stdint cimport int64_t, uint32_t
from libc.string cimport memcpy
from libcpp cimport bool as cbool
from libcpp.string cimport string
from libcpp.vector cimport vector

from refscore._core._rouge155_kernel cimport ScriptRules, ScriptTokens, porter_stem, read_script_texts
from refscore._core._strings cimport StringBuffers, TextBatch, point_at_named_strings

import numpy as np

class LoneSurrogate(ValueError):
    """A lone surrogate with no UTF-8 form (not a byte kept by ``surrogateescape``): the first one is character
    ``position`` of ``texts[text_index]``."""

    def __init__(self, text_index, position):
        super().__init__(f"texts[{text_index}] has a lone surrogate at character {position}")
        self.text_index = text_index
        self.position = position


cdef object _copy_out(const void* data, size_t count, dtype):
    out = np.empty(count, dtype=dtype)
    cdef unsigned char[::1] raw = out.view(np.uint8)
    if count:
        memcpy(&raw[0], data, raw.shape[0])
    return out


cdef class ScriptText:
    r"""ROUGE-1.5.5.pl's ``-s`` stopwords and ``-m`` WordNet exception table (inflected -> base form), lowercase
    ASCII ``bytes``, compiled once.

    ``tokenize(texts, split_lines, stemming, remove_stopwords)`` reads a list of ``str`` in one ``nogil`` call:
    the script's tokens (runs of ``[a-z0-9]`` after ASCII lowercasing; any other character separates, as every
    byte >= 0x80 does in the script), then ``-s``, then ``-m`` for tokens longer than 3 characters (the WordNet
    base form, else the script's Porter stem). With ``split_lines`` each non-empty line is a unit (an SPL
    sentence), else each text is one. Returns ``(ids uint32, unit_lengths int64, units_per_text int64)``, ids in
    order of first appearance; raises :class:`LoneSurrogate`.

    >>> rules = ScriptText([b"the"], {b"geese": b"goose"})
    >>> ids, lengths, units = rules.tokenize(["The geese run\n\nRUNNING geese\xe92"], True, True, True)
    >>> ids.tolist(), lengths.tolist(), units.tolist()
    ([0, 1, 1, 0, 2], [2, 3], [2])
    """
    cdef ScriptRules rules

    def __init__(self, stopwords, dict exceptions):
        for word in stopwords:
            self.rules.add_stopword(word)
        for inflected, base in exceptions.items():
            self.rules.add_exception(inflected, base)

    def tokenize(self, list texts, bint split_lines, bint stemming, bint remove_stopwords):
        cdef StringBuffers buffers
        point_at_named_strings(texts, buffers, None, "texts")
        return self._read(buffers, split_lines, stemming, remove_stopwords)

    def tokenize_bytes(self, list chunks, bint split_lines, bint stemming, bint remove_stopwords):
        """:meth:`tokenize` of ``bytes`` (the script's own reading: every byte >= 0x80 separates tokens), for
        texts cut at UTF-8 byte counts by ``-b``/``-l``."""
        cdef StringBuffers buffers
        buffers.data.reserve(len(chunks))
        for index, chunk in enumerate(chunks):
            if not isinstance(chunk, bytes):
                raise TypeError(f"chunks[{index}] is {type(chunk).__name__}, expected bytes")
            buffers.data.push_back(PyBytes_AS_STRING(chunk))
            buffers.kinds.push_back(1)  # one byte per code point: the bytes are read as they are
            buffers.lengths.push_back(PyBytes_GET_SIZE(chunk))
        return self._read(buffers, split_lines, stemming, remove_stopwords)

    cdef tuple _read(self, StringBuffers& buffers, bint split_lines, bint stemming, bint remove_stopwords):
        cdef TextBatch batch = buffers.batch()
        cdef int64_t n_texts = buffers.lengths.size()
        cdef ScriptTokens out
        with nogil:
            read_script_texts(batch, n_texts, split_lines, self.rules, stemming, remove_stopwords, out)
        if out.bad_text >= 0:
            raise LoneSurrogate(out.bad_text, out.bad_position)
        return (_copy_out(out.ids.data(), out.ids.size(), np.uint32),
                _copy_out(out.unit_lengths.data(), out.unit_lengths.size(), np.int64),
                _copy_out(out.units_per_text.data(), out.units_per_text.size(), np.int64))


def porter_stem_words(list words):
    """ROUGE-1.5.5's Porter stemmer alone (the Perl ``stem`` sub, with its step-4 change) of lowercase ASCII words
    (``bytes``): :class:`ScriptText` stems with it; this binding checks it against the script's on word lists.

    >>> porter_stem_words([b"relational", b"ponies", b"agreement", b"yelling"])
    [b'relat', b'poni', b'agreem', b'yell']
    """
    cdef vector[string] items = words
    cdef size_t i
    with nogil:
        for i in range(items.size()):
            items[i] = porter_stem(items[i])
    return list(items)
