"""Fuzz targets of the compiled helpers that no metric target reaches on its own, registered in
:data:`targets.TARGETS`; each compares with an oracle outside the compiled core:

* ``mt-coins``: ``_mt_coins.fill_coins`` from a fuzzer-chosen MT19937 state (seeded, or its 624 words taken from
  the fuzzer's bytes) at a fuzzer-chosen position (odd ones too: a double's two outputs straddle a twist), for
  fuzzer-chosen small shapes, equals numpy's ``RandomState.random_sample(shape) > 0.5`` from the same state, and
  leaves numpy's state (words and position) behind; a wrong key length or position is a ``ValueError``.
* ``hash-keys``: ``_hashing``'s hashes, word digests and probe lengths (the kernels' own ``HashTable``) equal a
  pure-Python reimplementation of ``_hash_table.hpp`` under the process's key (recovered from one hash: splitmix64
  is invertible), on fuzzer-chosen keys, words and keys crafted to share one home slot under that key.
* ``batch-text``: ``_batch.text_batch_layout`` and ``_batch.count_endswith`` on fuzzed layouts (lists, tuples, str
  subclasses, other items) equal their rules written in Python.
"""
from __future__ import annotations

import functools

import numpy as np

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
UNKEYED_MULTIPLIER = 0x9E3779B97F4A7C15   # hash_key_from(0).multipliers[0]
STATE_WORDS = 624


# -- mt-coins ----------------------------------------------------------------------------------------------------
def mt_coins(data: bytes) -> None:
    from targets import _source

    from refscore._core._mt_coins import fill_coins

    source = _source(data)
    bits = np.random.MT19937()
    random = np.random.RandomState(bits)
    if source.integer(0, 3):
        random.seed(source.integer(0, 2**32 - 1))
        bits.random_raw(source.integer(0, 1400))   # one output each: lands on any position of the stream
    else:   # a state of the fuzzer's words; numpy accepts any key (an all-zero one included) and position
        key = np.array([source.integer(0, 2**32 - 1) for _ in range(STATE_WORDS)], dtype=np.uint32)
        random.set_state(("MT19937", key, source.integer(0, STATE_WORDS)))
    shape = (source.integer(0, 6), source.integer(0, 700))
    state = random.get_state(legacy=False)["state"]
    key, coins = state["key"].copy(), np.full(shape, -1.0)
    position = fill_coins(key, state["pos"], coins)
    expected = (random.random_sample(shape) > 0.5).astype(np.float64)
    assert np.array_equal(coins, expected), (state["pos"], shape)
    after = random.get_state(legacy=False)["state"]
    assert position == after["pos"] and np.array_equal(key, after["key"]), (state["pos"], shape)
    short_key = np.concatenate([key, key])[:source.integer(0, 2 * STATE_WORDS - 1)]
    if len(short_key) == STATE_WORDS:
        short_key = short_key[:-1]
    outside = source.choice([-(2**31), -1, STATE_WORDS + 1, 2**31 - 1])
    for wrong_key, wrong_position in ((short_key, position), (key, outside)):
        try:
            fill_coins(wrong_key, wrong_position, np.empty((1, 1)))
        except ValueError as error:
            assert "624" in str(error), error
        else:
            raise AssertionError(f"fill_coins took a key of {len(wrong_key)} words at position {wrong_position}")


# -- hash-keys ---------------------------------------------------------------------------------------------------
def _xorshift_right_inverse(value: int, shift: int) -> int:
    result = value
    for _ in range(64 // shift + 1):
        result = value ^ (result >> shift)
    return result


def splitmix64(x: int) -> int:
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & MASK
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def splitmix64_inverse(y: int) -> int:
    y = _xorshift_right_inverse(y, 31)
    y = (y * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    y = _xorshift_right_inverse(y, 27)
    y = (y * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    return _xorshift_right_inverse(y, 30)


@functools.lru_cache(maxsize=1)
def process_key() -> tuple[int, int]:
    """``_hashing``'s key in this process: (seed, multipliers[0]), recovered from mix64(0) = splitmix64(seed) and
    hash_key_from's derivation (seed = splitmix64(key + golden), multipliers[0] = splitmix64(key + 2 golden) | 1)."""
    from refscore._core import _hashing

    seed = splitmix64_inverse(int(_hashing.hashes(np.zeros(1, np.uint64), "mix64")[0]))
    if seed == 0:
        assert _hashing.key_is_fixed()
        return 0, UNKEYED_MULTIPLIER
    key = (splitmix64_inverse(seed) - GOLDEN) & MASK
    return seed, splitmix64((key + 2 * GOLDEN) & MASK) | 1


def oracle_hash(function: str, key: int) -> int:
    seed, multiplier = process_key()
    if function == "mix64":
        return splitmix64(key ^ seed)
    product = (key ^ seed) * multiplier
    return (product & MASK) ^ (product >> 64)


def oracle_digest(word: str) -> int:
    seed, _ = process_key()
    digest = 0xCBF29CE484222325 ^ seed
    for character in word:
        digest = ((digest ^ ord(character)) * 0x100000001B3) & MASK
    return digest ^ len(word)


def oracle_probe_length(keys: list[int], function: str) -> int:
    """HashTable::start(len(keys)) then probe/claim of each key in turn (linear probing), in Python."""
    capacity = 16
    while capacity < 2 * len(keys):
        capacity <<= 1
    slots: dict[int, int] = {}
    passed = 0
    for key in keys:
        home = index = oracle_hash(function, key) & (capacity - 1)
        while index in slots and slots[index] != key:
            index = (index + 1) & (capacity - 1)
        passed += (index - home) & (capacity - 1)
        slots.setdefault(index, key)
    return passed


def hash_keys(data: bytes) -> None:
    from targets import _source

    from refscore._core import _hashing

    source = _source(data)
    function = source.choice(_hashing.FUNCTIONS)
    seed, _ = process_key()
    keys = [source.choice([source.integer(0, 2**32 - 1), source.integer(0, 2**32 - 1) << 32, MASK - source.integer(0, 9),
                           source.integer(0, 40)]) for _ in range(source.integer(0, 40))]
    if function == "mix64" and source.integer(0, 1):   # keys that all start probing at one slot under this key
        home, slots = source.integer(0, 63), 1 << source.integer(4, 8)
        keys += [splitmix64_inverse((draw * slots + home) & MASK) ^ seed
                 for draw in range(1, source.integer(2, 100))]
    array = np.array(keys, dtype=np.uint64)
    assert _hashing.hashes(array, function).tolist() == [oracle_hash(function, k) for k in keys], (function, keys)
    assert _hashing.probe_length(array, function) == oracle_probe_length(keys, function), (function, keys)
    words = source.texts(source.integer(0, 6), 20)
    assert _hashing.word_digests(words).tolist() == [oracle_digest(w) for w in words], words


# -- batch-text --------------------------------------------------------------------------------------------------
class _Text(str):
    """A str subclass: text_batch_layout takes it (isinstance), count_endswith leaves it to Python (type is)."""


def _layout_oracle(hypotheses, references):
    if type(hypotheses) not in (list, tuple) or type(references) not in (list, tuple):
        return None
    if not hypotheses or len(references) != len(hypotheses) or not all(isinstance(h, str) for h in hypotheses):
        return None
    flat, offsets = [], [0]
    for entry in references:
        if isinstance(entry, str):
            flat.append(entry)
        elif type(entry) in (list, tuple) and entry and all(isinstance(r, str) for r in entry):
            flat.extend(entry)
        else:
            return None
        offsets.append(len(flat))
    return list(hypotheses), flat, offsets


def batch_text(data: bytes) -> None:
    from targets import _source

    from refscore._core._batch import count_endswith, text_batch_layout

    source = _source(data)

    def item(depth: int):
        kind = source.integer(0, 15)
        if kind < 10:
            return source.text(8)
        if kind == 10:
            return _Text(source.text(8))
        if kind == 11 and depth:
            return [item(depth - 1) for _ in range(source.integer(0, 3))]
        if kind == 12 and depth:
            return tuple(item(depth - 1) for _ in range(source.integer(0, 3)))
        return source.choice([None, 3, b"x", 2.5, ["a"]])

    def container(depth: int):
        values = [item(depth) for _ in range(source.integer(0, 5))]
        return source.choice([list, list, tuple, iter, lambda _: None])(values)

    hypotheses, references = container(0), container(1)
    layout = text_batch_layout(hypotheses, references)
    expected = _layout_oracle(hypotheses, references)
    if expected is None:
        assert layout is None, (hypotheses, references, layout)
    else:
        assert layout is not None and layout[:2] == expected[:2] and layout[2].tolist() == expected[2], \
            (hypotheses, references, layout, expected)
    texts = [item(0) for _ in range(source.integer(0, 8))]
    suffix = source.text(3) if source.integer(0, 3) else source.choice([" .", "", "😀", "é ."])
    count = count_endswith(texts, suffix)
    expected_count = (sum(text.endswith(suffix) for text in texts) if all(type(t) is str for t in texts) else -1)
    assert count == expected_count, (texts, suffix, count)


KERNEL_TARGETS = {"mt-coins": mt_coins, "hash-keys": hash_keys, "batch-text": batch_text}
