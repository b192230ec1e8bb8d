"""Fuzz targets of the edit-distance kernels (the one bit-parallel Levenshtein kernel, ``_bitparallel.hpp``, behind
``refscore._core._levenshtein`` and ``refscore._core._edit_distance``), registered in :data:`targets.TARGETS`;
each compares with RapidFuzz (or torchmetrics) on the same fuzzed input:

* ``levenshtein``: the WER family's kernel: ``distance_text`` / ``distance_ids`` equal ``Levenshtein.distance``
  and ``align_text`` / ``align_ids`` (with chunks) equal ``Levenshtein.opcodes`` (the alignment jiwer 4 counts),
  ``align_words_text`` equals the same over ``str.split()`` words; 1 and 3 threads give the same arrays.
* ``edit-distance``: the metric's kernels: ``text_pair_distances`` (characters and words, Levenshtein and Indel,
  each hypothesis against several references) equal RapidFuzz's ``distance`` and its lengths, the metric's
  normalized similarity equals ``normalized_similarity`` of the best reference, ``similarity_matrix`` (symmetric
  or not, corpus-wide symbols) equals ``process.cdist``; 1 and 3 threads agree.
* ``eed``: ``refscore.eed`` equals torchmetrics' ``extended_edit_distance`` (segments and corpus) on short texts,
  and stays in [0, 1] with the same values on 1 and 3 threads.

The texts are what the kernels must survive: NUL bytes, lone surrogates (RapidFuzz and Python index them as code
points), Unicode spaces, astral code points, long runs of a few symbols (patterns of many 64-bit words, past the
kernel's register variants) and texts of many distinct code points (the memory-linear mask table).
"""
from __future__ import annotations

import functools

import numpy as np

#: Symbols of the fuzzed texts: few enough that texts share many, with the hostile ones among them.
SYMBOLS = ("a", "b", "c", " ", "  ", "\t", "\x00", "\ud800", "\udfff", "\u3000", "\u00a0", "é", "e\u0301", "猫",
           "😀", "\U0010FFFF", "x y", "\n")


def _text(source, max_length: int = 30) -> str:
    mode = source.integer(0, 7)
    if mode == 0:   # raw code points, lone surrogates included
        return "".join(chr(source.integer(0, 0x10FFFF)) for _ in range(source.integer(0, max_length)))
    text = "".join(source.choice(SYMBOLS) for _ in range(source.integer(0, max_length)))
    if mode == 1 and text:   # long: a text repeated past eight 64-bit words, one symbol changed
        text = text * (600 // len(text) + 1)
        at = source.integer(0, len(text) - 1)
        text = text[:at] + source.choice(SYMBOLS) + text[at + 1:]
    if mode == 2:   # many distinct code points
        start = source.integer(0x100, 0x2F000)
        text += "".join(chr(start + k) for k in range(source.integer(0, 400)))
    return text


def _texts(source, count: int) -> list[str]:
    return [_text(source) for _ in range(count)]


def _same(compute):
    one, many = compute(1), compute(3)
    if isinstance(one, tuple):
        for a, b in zip(one, many):
            np.testing.assert_array_equal(a, b, err_msg="1 and 3 threads differ")
    else:
        np.testing.assert_array_equal(one, many, err_msg="1 and 3 threads differ")
    return one


def _ids(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.array([ord(c) * 7919 - 2**40 for t in texts for c in t], dtype=np.int64)   # large and negative ids
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum([len(t) for t in texts], out=offsets[1:])
    return ids, offsets


def levenshtein(data: bytes) -> None:
    from rapidfuzz.distance import Levenshtein
    from targets import _source

    from refscore._core import _levenshtein as kernel

    source = _source(data)
    n = source.integer(1, 6)
    refs, hyps = _texts(source, n), _texts(source, n)
    assert _same(lambda t: kernel.distance_text(refs, hyps, num_threads=t)).tolist() == [
        Levenshtein.distance(r, h) for r, h in zip(refs, hyps)]
    ref_ids, ref_offsets = _ids(refs)
    hyp_ids, hyp_offsets = _ids(hyps)
    assert _same(lambda t: kernel.distance_ids(ref_ids, ref_offsets, hyp_ids, hyp_offsets, num_threads=t)).tolist() \
        == [Levenshtein.distance(r, h) for r, h in zip(refs, hyps)]
    names = kernel.OPCODE_NAMES
    for counts, chunks, offsets in (
            _same(lambda t: kernel.align_text(refs, hyps, chunks=True, num_threads=t)),
            _same(lambda t: kernel.align_ids(ref_ids, ref_offsets, hyp_ids, hyp_offsets, chunks=True, num_threads=t))):
        for p, (r, h) in enumerate(zip(refs, hyps)):
            expected = [(op.tag, op.src_start, op.src_end, op.dest_start, op.dest_end)
                        for op in Levenshtein.opcodes(r, h)]
            found = [(names[c[0]], *map(int, c[1:])) for c in chunks[offsets[p]:offsets[p + 1]]]
            assert found == expected, (r, h)
            hits = sum(e[2] - e[1] for e in expected if e[0] == "equal")
            assert counts[p, 0] == hits, (r, h)
    words = _same(lambda t: kernel.align_words_text(refs, hyps, split=kernel.SPLIT_WHITESPACE, num_threads=t))
    for p, (r, h) in enumerate(zip(refs, hyps)):
        ops = Levenshtein.editops(r.split(), h.split())
        assert words[p, 1:4].tolist() == [sum(op.tag == tag for op in ops) for tag in ("replace", "delete", "insert")]
        assert words[p, 4:].tolist() == [len(r.split()), len(h.split())]


def edit_distance(data: bytes) -> None:
    from rapidfuzz import process
    from rapidfuzz.distance import Indel, Levenshtein
    from targets import _source

    import refscore
    from refscore._core import _edit_distance as kernel
    from refscore.metrics._edit_symbols import text_symbols
    from refscore.metrics.edit_distance import EditDistance

    source = _source(data)
    n = source.integer(1, 4)
    hyps = _texts(source, n)
    refs = [_texts(source, source.integer(1, 4)) for _ in range(n)]
    flat = [r for segment in refs for r in segment]
    owner = np.repeat(np.arange(n, dtype=np.int64), [len(segment) for segment in refs])
    peers = {kernel.LEVENSHTEIN: Levenshtein, kernel.INDEL: Indel}
    for unit, name in ((kernel.CHARACTERS, "characters"), (kernel.WORDS, "words")):
        split = (lambda t: t) if unit == kernel.CHARACTERS else str.split
        for kind, peer in peers.items():
            distance, hyp_length, ref_length = _same(
                lambda t: kernel.text_pair_distances(hyps, flat, owner, kind, unit, num_threads=t))
            assert distance.tolist() == [peer.distance(split(hyps[o]), split(r)) for o, r in zip(owner, flat)]
            assert hyp_length.tolist() == [len(split(hyps[o])) for o in owner]
            assert ref_length.tolist() == [len(split(r)) for r in flat]
            measure = "levenshtein" if kind == kernel.LEVENSHTEIN else "indel"
            similarity = EditDistance(measure=measure, unit=name).sentence_scores(hyps, refscore.per_segment(refs))
            assert similarity.tolist() == [max(peer.normalized_similarity(split(h), split(r)) for r in segment)
                                           for h, segment in zip(hyps, refs)]
            texts = hyps + flat
            symbols, offsets, alphabet = text_symbols(texts, name)
            rows = np.arange(len(texts), dtype=np.int64)
            expected = process.cdist([split(t) for t in texts], [split(t) for t in texts],
                                     scorer=peer.normalized_similarity, dtype=np.float64)
            for symmetric in (False, True):
                found = _same(lambda t: kernel.similarity_matrix(symbols, offsets, rows, rows, kind, alphabet,
                                                                 num_threads=t, symmetric=symmetric))
                np.testing.assert_array_equal(found, expected)


@functools.lru_cache(maxsize=1)
def _torchmetrics_eed():
    try:
        from torchmetrics.functional.text import extended_edit_distance
    except ImportError as error:
        from targets import TargetUnavailable
        raise TargetUnavailable(f"torchmetrics is not installed ({error})") from error
    return extended_edit_distance


def eed(data: bytes) -> None:
    import refscore
    from targets import _source

    peer = _torchmetrics_eed()
    source = _source(data)
    n = source.integer(1, 3)
    # torchmetrics is pure Python (a quadratic loop per pair): short texts for it, without NUL (its preprocessing
    # is a chain of regexes, refscore's the same rules), surrogates included
    hyps = [_text(source, 12)[:40] for _ in range(n)]
    refs = [_text(source, 12)[:40] for _ in range(n)]
    score = _same(lambda t: np.array([refscore.eed(hyps, refs, num_threads=t).score]))[0]
    segments = _same(lambda t: np.asarray(refscore.eed(hyps, refs, num_threads=t).segments["eed"], dtype=np.float64))
    assert np.all((segments >= 0) & (segments <= 1)), segments
    corpus, sentences = peer(hyps, refs, return_sentence_level_score=True)
    assert float(score) == float(corpus), (hyps, refs)
    assert segments.tolist() == sentences.numpy().astype(np.float64).tolist(), (hyps, refs)


EDIT_TARGETS = {"levenshtein": levenshtein, "edit-distance": edit_distance, "eed": eed}
