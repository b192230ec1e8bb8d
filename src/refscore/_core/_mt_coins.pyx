# cython: language_level=3
"""Fair coins from numpy's MT19937 stream, the ones ``RandomState.random_sample(shape) > 0.5`` gives.

mt-metrics-eval's PERM-BOTH test draws ``np.random.binomial(1, 0.5, n)`` per resample: one double per coin, true
when it is above 0.5, each double made from two 32-bit outputs. numpy fills doubles one function call at a time;
this kernel twists and tempers the same state (numpy's ``mt19937_gen`` and ``mt19937_next``, copied below) and
turns each pair of outputs into its coin in one loop, so that the reference-seeded test is not bound by numpy's
generator (docs/meta-evaluation.md, "Speed").
"""
from libc.stdint cimport uint32_t

cdef enum:
    STATE_LENGTH = 624
    SHIFT = 397


cdef inline void twist(uint32_t* key) noexcept nogil:
    # numpy's mt19937_gen (the reference implementation's recurrence)
    cdef int i
    cdef uint32_t y
    for i in range(STATE_LENGTH - SHIFT):
        y = (key[i] & 0x80000000u) | (key[i + 1] & 0x7fffffffu)
        key[i] = key[i + SHIFT] ^ (y >> 1) ^ ((-(y & 1u)) & 0x9908b0dfu)
    for i in range(STATE_LENGTH - SHIFT, STATE_LENGTH - 1):
        y = (key[i] & 0x80000000u) | (key[i + 1] & 0x7fffffffu)
        key[i] = key[i + SHIFT - STATE_LENGTH] ^ (y >> 1) ^ ((-(y & 1u)) & 0x9908b0dfu)
    y = (key[STATE_LENGTH - 1] & 0x80000000u) | (key[0] & 0x7fffffffu)
    key[STATE_LENGTH - 1] = key[SHIFT - 1] ^ (y >> 1) ^ ((-(y & 1u)) & 0x9908b0dfu)


cdef inline uint32_t temper(uint32_t y) noexcept nogil:
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680u
    y ^= (y << 15) & 0xefc60000u
    return y ^ (y >> 18)


cdef inline double coin(uint32_t first, uint32_t second) noexcept nogil:
    # numpy's mt19937_next_double of the two outputs, compared with 0.5
    return 1.0 if ((first >> 5) * 67108864.0 + (second >> 6)) / 9007199254740992.0 > 0.5 else 0.0


def fill_coins(uint32_t[::1] key, int position, double[:, ::1] out):
    """Fill ``out`` with ``random_sample(out.shape) > 0.5`` as 1.0 / 0.0, drawn from the MT19937 state ``key``
    (624 words, updated in place) at ``position`` (0 to 624, numpy's ``state["state"]["pos"]``); returns the new
    position. ``key`` and ``position`` are ``MT19937.state``'s: set them back there to go on with the stream."""
    if key.shape[0] != STATE_LENGTH:
        raise ValueError(f"key must hold the {STATE_LENGTH} words of an MT19937 state, got {key.shape[0]}")
    if not 0 <= position <= STATE_LENGTH:
        raise ValueError(f"position must be 0 to {STATE_LENGTH} (MT19937's pos), got {position}")
    cdef Py_ssize_t count = out.shape[0] * out.shape[1], done = 0, pairs, j
    if count == 0:
        return position
    cdef double* target = &out[0, 0]
    cdef uint32_t* state = &key[0]
    cdef uint32_t first = 0
    cdef bint carried = False  # a double's first output was the last word before a twist
    with nogil:
        while done < count:
            if position == STATE_LENGTH:
                twist(state)
                position = 0
            if carried:
                target[done] = coin(first, temper(state[position]))
                position += 1
                done += 1
                carried = False
                continue
            pairs = min((STATE_LENGTH - position) // 2, count - done)
            for j in range(pairs):
                target[done + j] = coin(temper(state[position + 2 * j]), temper(state[position + 2 * j + 1]))
            done += pairs
            position += 2 * pairs
            if done < count and position == STATE_LENGTH - 1:
                first = temper(state[position])
                position += 1
                carried = True
    return position
