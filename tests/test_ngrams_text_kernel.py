"""The fused tokenize-and-count kernels (text in, statistics out) against the two-step path: sacreBLEU-exact
tokens interned for the whole call (``encode_words``) and then counted (``bleu_statistics`` / ``gleu_statistics``)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refscore._core._ngrams import bleu_statistics, bleu_text_statistics, gleu_statistics, gleu_text_statistics
from refscore._core._tokenize import TOKENIZERS, _repeated_text_groups, _text_content_digests, encode_words

WORDS = ["the", "The", "cat", "3.14", "1,000", "a.", "...", "-", "5-6", "猫", "。", "Σ", "ΑΣ", "&amp;", "x,y",
         "don't", "\u3000", "\t", "e-mail", "İ", "١٢", "$"]
text = st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=4)), max_size=12).map(" ".join)
segments = st.lists(st.tuples(text, st.lists(text, min_size=1, max_size=3)), min_size=1, max_size=8)


def two_step(kind: str, data, tokenizer: str, lowercase: bool, orders: tuple[int, ...]) -> np.ndarray:
    hyps = [h for h, _ in data]
    refs = [r for _, group in data for r in group]
    ref_offsets = np.cumsum([0] + [len(group) for _, group in data]).astype(np.int64)
    ids, offsets = encode_words(hyps + refs, tokenizer=tokenizer, lowercase=lowercase)
    kernel = bleu_statistics if kind == "bleu" else gleu_statistics
    return kernel(ids, offsets, ref_offsets, *orders)


def fused(kind: str, data, tokenizer: str, lowercase: bool, orders: tuple[int, ...], threads: int = 1) -> np.ndarray:
    hyps = [h for h, _ in data]
    refs = [r for _, group in data for r in group]
    ref_offsets = np.cumsum([0] + [len(group) for _, group in data]).astype(np.int64)
    kernel = bleu_text_statistics if kind == "bleu" else gleu_text_statistics
    return kernel(hyps, refs, ref_offsets, tokenizer, lowercase, *orders, num_threads=threads)


@settings(max_examples=60, deadline=None)
@given(data=segments, tokenizer=st.sampled_from(TOKENIZERS), lowercase=st.booleans(), order=st.integers(1, 5))
def test_fused_bleu_equals_two_step(data, tokenizer, lowercase, order):
    np.testing.assert_array_equal(fused("bleu", data, tokenizer, lowercase, (order,)),
                                  two_step("bleu", data, tokenizer, lowercase, (order,)))


@settings(max_examples=60, deadline=None)
@given(data=segments, tokenizer=st.sampled_from(TOKENIZERS), lowercase=st.booleans(), low=st.integers(1, 3),
       extra=st.integers(0, 2))
def test_fused_gleu_equals_two_step(data, tokenizer, lowercase, low, extra):
    orders = (low, low + extra)
    np.testing.assert_array_equal(fused("gleu", data, tokenizer, lowercase, orders),
                                  two_step("gleu", data, tokenizer, lowercase, orders))


def test_thread_count_never_changes_results():
    rng = np.random.default_rng(7)
    vocabulary = np.array(WORDS + [f"w{k}" for k in range(300)])
    data = [(" ".join(rng.choice(vocabulary, rng.integers(0, 40))),
             [" ".join(rng.choice(vocabulary, rng.integers(0, 40))) for _ in range(rng.integers(1, 4))])
            for _ in range(3000)]
    one = fused("bleu", data, "13a", False, (4,), threads=1)
    np.testing.assert_array_equal(one, two_step("bleu", data, "13a", False, (4,)))
    for threads in (2, 3, 8):
        np.testing.assert_array_equal(fused("bleu", data, "13a", False, (4,), threads=threads), one)
        np.testing.assert_array_equal(fused("gleu", data, "intl", True, (1, 4), threads=threads),
                                      fused("gleu", data, "intl", True, (1, 4), threads=1))


@settings(max_examples=60, deadline=None)
@given(data=segments, tokenizer=st.sampled_from(TOKENIZERS), lowercase=st.booleans(), order=st.integers(1, 5),
       picks=st.lists(st.integers(0, 63), min_size=1, max_size=24))
def test_repeated_text_objects_equal_two_step(data, tokenizer, lowercase, order, picks):
    """A str object met several times in a call (a reference list repeated for each system scored, a hypothesis
    that is also a reference) is tokenized once and its tokens copied afterwards: the statistics stay those of the
    two-step path."""
    texts = [h for h, _ in data] + [r for _, group in data for r in group]
    repeated = [(texts[p % len(texts)], [texts[(p + k) % len(texts)] for k in range(1 + p % 3)]) for p in picks]
    for kind, orders in (("bleu", (order,)), ("gleu", (1, order))):
        np.testing.assert_array_equal(fused(kind, repeated, tokenizer, lowercase, orders),
                                      two_step(kind, repeated, tokenizer, lowercase, orders))


def assert_bleu_equals_two_step_on_threads(data, settings) -> None:
    """BLEU statistics (order 4) of the fused path on 1-3 threads equal the two-step path's, for each
    (tokenizer, lowercase) of `settings`."""
    for tokenizer, lowercase in settings:
        expected = two_step("bleu", data, tokenizer, lowercase, (4,))
        for threads in (1, 2, 3):
            np.testing.assert_array_equal(fused("bleu", data, tokenizer, lowercase, (4,), threads=threads), expected)


def test_references_repeated_for_several_systems_on_several_threads():
    rng = np.random.default_rng(11)
    vocabulary = np.array(WORDS + ["<b>", "&lt;", "x\ny"] + [f"w{k}" for k in range(300)])
    references = [[" ".join(rng.choice(vocabulary, rng.integers(0, 40))) for _ in range(rng.integers(1, 3))]
                  for _ in range(1500)]
    data = [(" ".join(rng.choice(vocabulary, rng.integers(0, 40))), group)
            for _system in range(3) for group in references]   # the same reference objects for every system
    assert_bleu_equals_two_step_on_threads(data, (("13a", False), ("13a", True), ("intl", False), ("zh", True)))


def test_segments_sharing_one_reference_are_scored_from_it_once():
    """Segments whose lone reference is one text (the same object, or an equal str) are scored in runs against one
    count of that reference. Hypotheses repeat words (clipping must restart for each of them), runs longer than
    RUN_LIMIT are split, and segments with two references or more than 2,048 characters go the usual way."""
    rng = np.random.default_rng(5)
    vocabulary = np.array(WORDS[:12] + ["<b>", "&amp;", "Ab", "ab", "AB", "语言", "模型"])
    references = [" ".join(rng.choice(vocabulary, rng.integers(0, 30))) for _ in range(40)]
    references += ["the the the cat", "", " ".join(["w"] * 1500)]   # repeats, empty, over 2,048 characters
    data = []
    for system in range(30):
        for index, reference in enumerate(references):
            hypothesis = " ".join(rng.choice(vocabulary[: 4 + system % 15], rng.integers(0, 25)))
            if index % 7 == 3:
                group = [reference, references[(index + 1) % len(references)]]
            else:
                group = [reference if system % 2 else (reference + "\n")[:-1]]   # an equal str, another object
            data.append((hypothesis, group))
    data += [("the the cat the", ["the the the cat"])] * 2_100   # one reference in runs of at most 1,024
    assert_bleu_equals_two_step_on_threads(data, (("13a", False), ("13a", True), ("zh", False), ("char", True)))


def test_long_segment_with_many_distinct_tokens():
    hyp = " ".join(f"t{k}" for k in range(50_000))
    ref = " ".join(f"t{k}" for k in range(0, 100_000, 2))
    data = [(hyp, [ref, hyp])]
    np.testing.assert_array_equal(fused("bleu", data, "13a", False, (4,)), two_step("bleu", data, "13a", False, (4,)))


def test_layout_and_type_errors():
    with pytest.raises(ValueError, match="ref_offsets must have"):
        bleu_text_statistics(["a"], ["a"], np.array([0, 2]), "13a", False, 4)
    with pytest.raises(TypeError, match=r"references\[0\] \(flattened\) is NoneType"):
        bleu_text_statistics(["a"], [None], np.array([0, 1]), "13a", False, 4)
    with pytest.raises(ValueError, match="max_order"):
        bleu_text_statistics(["a"], ["a"], np.array([0, 1]), "13a", False, 0)
    with pytest.raises(ValueError, match="min_len"):
        gleu_text_statistics(["a"], ["a"], np.array([0, 1]), "13a", False, 3, 2)
    with pytest.raises(ValueError, match="not a known tokenizer"):
        gleu_text_statistics(["a"], ["a"], np.array([0, 1]), "nope", False, 1, 4)


@pytest.mark.parametrize("tokens", [40, 300, 5000])
def test_many_distinct_tokens_of_one_shape(tokens):
    # short segments hash tokens by first and last character and length: these all share one such hash (and
    # segments above 2,048 characters hash every character)
    words = [f"1{k:04d}1" for k in range(tokens)]
    rng = np.random.default_rng(tokens)
    data = [(" ".join(rng.choice(words, tokens)), [" ".join(rng.choice(words, tokens)), " ".join(words[::-1])])]
    for kind, orders in (("bleu", (4,)), ("gleu", (1, 4))):
        np.testing.assert_array_equal(fused(kind, data, "13a", False, orders),
                                      two_step(kind, data, "13a", False, orders))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["", "a", "a b", "a b c d", "x y z"]),
                          st.lists(st.sampled_from(["", "a", "a b", "b c d e f", "a b c"]), min_size=1, max_size=4)),
                min_size=1, max_size=6))
def test_shortest_ref_gives_the_shortest_reference_length(segments) -> None:
    """``shortest_ref=True`` (HF evaluate's tensorflow/nmt BLEU): only the ref_len column changes, to the minimum."""
    hypotheses = [hyp for hyp, _ in segments]
    references = [ref for _, refs in segments for ref in refs]
    ref_offsets = np.cumsum([0] + [len(refs) for _, refs in segments]).astype(np.int64)
    closest = bleu_text_statistics(hypotheses, references, ref_offsets, "none", False, 3)
    shortest = bleu_text_statistics(hypotheses, references, ref_offsets, "none", False, 3, shortest_ref=True)
    assert shortest[:, 1].tolist() == [min(len(ref.split()) for ref in refs) for _, refs in segments]
    assert np.array_equal(np.delete(shortest, 1, axis=1), np.delete(closest, 1, axis=1))


# The digest that finds texts repeated within a call (text_content_hash, _tokenize_segments.hpp) is not keyed:
# replicated here, it crafts texts with colliding digests.
MASK64 = 2**64 - 1
GOLDEN = 0x9E3779B97F4A7C15


def _mix(x: int) -> int:
    h = (x * GOLDEN) & MASK64
    return h ^ (h >> 29)


def _unmix(y: int) -> int:
    h = y ^ (y >> 29) ^ (y >> 58)
    return (h * pow(GOLDEN, -1, 2**64)) & MASK64


def text_with_digest(digest: int, second_word: int) -> str:
    """A 16-character Latin-1 text (16 bytes in its PEP 393 buffer) whose content digest is ``digest``;
    ``second_word`` picks one of the 2**64 such texts."""
    second = _mix(0x243F6A8885A308D3 ^ second_word)
    first = _unmix(_unmix(digest) ^ second)
    first_word = _unmix(first) ^ _mix(16 ^ (1 << 56))
    return (first_word.to_bytes(8, "little") + second_word.to_bytes(8, "little")).decode("latin-1")


def copy(text: str) -> str:
    return (text + "x")[:-1]   # an equal str, another object


def test_texts_with_equal_digests_are_told_apart_by_their_contents():
    a, b = text_with_digest(0x0123456789ABCDEF, 1), text_with_digest(0x0123456789ABCDEF, 2)
    assert a != b and len(a) == len(b) == 16
    assert _repeated_text_groups([a, b, copy(a), copy(b), b]).tolist() == [0, 1, 0, 1, 1]
    data = [(text, [reference]) for text, reference in [(a, a), (b, b), (copy(a), copy(b)), (b, copy(a))]]
    np.testing.assert_array_equal(fused("bleu", data, "none", False, (2,)), two_step("bleu", data, "none", False, (2,)))


def test_digests_crafted_to_collide_without_the_key_are_grouped_under_it():
    """300 texts whose digests, under the unkeyed hash of the previous release, shared their low 40 bits (each met
    twice): they all started probing at one slot, and a lookup gave up after 256 others (REPEAT_MAX_PROBES). The
    digest is keyed per process now (docs/reliability.md, hash collisions), so the same texts land apart and every
    one is grouped with its copy, and scores equal the two-step path."""
    texts = [text_with_digest((k << 40) | 0x123456789, 7) for k in range(1, 301)]
    groups = _repeated_text_groups(texts + [copy(text) for text in texts]).tolist()
    assert groups == list(range(300)) * 2
    data = [(copy(text), [text]) for text in texts] * 2
    np.testing.assert_array_equal(fused("bleu", data, "none", False, (4,)), two_step("bleu", data, "none", False, (4,)))



def texts_whose_lookups_start_at_slot_zero(count: int, low_bits: int = 12) -> list[str]:
    """``count`` distinct 16-character texts whose digests under this process's key end in ``low_bits`` zero bits:
    in any table of at most 2**low_bits slots their lookups all start at slot 0 (searched for, not inverted: the
    keyed digest has no inverse the tests know)."""
    rng = np.random.default_rng(7)
    found: list[str] = []
    while len(found) < count:
        letters = rng.integers(ord("a"), ord("z") + 1, size=(200_000, 16), dtype=np.uint8)
        candidates = [row.tobytes().decode("ascii") for row in letters]
        digests = _text_content_digests(candidates)
        found += [candidates[k] for k in np.flatnonzero(digests % (1 << low_bits) == 0)]
    return list(dict.fromkeys(found))[:count]


def test_a_lookup_past_repeat_max_probes_gives_up_and_leaves_the_text_ungrouped():
    """The bound behind the keyed digest: 300 texts (each met twice) whose lookups start at one slot of the
    repeat table (2,048 slots for 600 texts) fill slots 0, 1, 2, ...; a lookup gives up after passing
    REPEAT_MAX_PROBES = 256 occupied slots, so the first 256 texts and their copies are grouped and the other 44 are
    left ungrouped (tokenized each time they are met: repeats are only a shortcut). Scores equal the two-step path
    all the same."""
    texts = texts_whose_lookups_start_at_slot_zero(300)
    copies = [copy(text) for text in texts]
    assert len(set(texts)) == 300 and set((_text_content_digests(texts) % 4096).tolist()) == {0}
    assert _repeated_text_groups(texts + copies).tolist() == (list(range(256)) + [-1] * 44) * 2
    data = [(text, [reference]) for text, reference in zip(texts + copies, copies + texts)]
    np.testing.assert_array_equal(fused("bleu", data, "none", False, (4,)), two_step("bleu", data, "none", False, (4,)))
