"""The game's only source of chance: PCG32, its state one integer kept in the
game state, so a saved game resumes with the same dice in any process."""

from __future__ import annotations

_MULT = 6364136223846793005
_INC = 1442695040888963407
_MASK64 = 0xFFFFFFFFFFFFFFFF  # 2**64 - 1
# (rng.pxd declares these and next32's variables as C integers for `pogdsl
# build-native`: 64-bit unsigned arithmetic wraps as the masks here do.)


def seed_state(seed: int) -> int:
    state = 0
    state = (state * _MULT + _INC) & _MASK64
    state = (state + (seed & _MASK64)) & _MASK64
    state = (state * _MULT + _INC) & _MASK64
    return state


def next32(state: int) -> tuple[int, int]:
    """(new state, a 32-bit output).  Only the state's low 64 bits count,
    which is all a state holds (seed_state and next32 give no other)."""
    old = state & _MASK64
    state = (old * _MULT + _INC) & _MASK64
    xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
    rot = old >> 59
    out = ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF
    return state, out


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a uniform integer in [0, n)), by rejection so no bias."""
    if n <= 0:
        raise ValueError("below() needs a positive bound")
    threshold = (-n) % (1 << 32) % n
    while True:
        state, r = next32(state)
        if r >= threshold:
            return state, r % n
