"""The game's generator (runtime/rng.py, PCG32) draws the numbers PCG32
defines, whether it runs from its source or compiled with its C
declarations (rng.pxd, `pogdsl build-native`): a reference written here in
plain Python, from PCG32's definition, is compared with the module as
imported (compiled in CI, which builds the runtime first)."""

from __future__ import annotations

import random

from pogdsl.runtime import rng

MASK64 = 2**64 - 1


def reference_next32(state: int) -> tuple[int, int]:
    """PCG32's step: an LCG on 64 bits, its output the old state's
    xorshift-high bits rotated right by the old state's top five bits."""
    new = (state * 6364136223846793005 + 1442695040888963407) % 2**64
    xorshifted = (((state >> 18) ^ state) >> 27) % 2**32
    rot = state >> 59
    out = ((xorshifted >> rot) | (xorshifted << (32 - rot))) % 2**32
    return new, out


def states() -> list[int]:
    drawn = random.Random(31)
    return [0, 1, 2**32, 2**59 - 1, 2**59, 2**63, MASK64] + [drawn.getrandbits(64) for _ in range(5000)]


def test_each_step_gives_pcg32s_state_and_output():
    for state in states():
        assert rng.next32(state) == reference_next32(state), state


def test_a_bounded_draw_is_unbiased_by_rejection_and_below_the_bound():
    for state in states()[:2000]:
        for n in (1, 2, 6, 7, 1000, 2**31 + 5, 2**32 - 1):
            got_state, r = rng.below(state, n)
            threshold = 2**32 % n
            expected, out = reference_next32(state)
            while out < threshold:
                expected, out = reference_next32(expected)
            assert (got_state, r) == (expected, out % n)
            assert 0 <= r < n

