# Declarations for rng.py when `pogdsl build-native` compiles it (the source
# runs unchanged without them): the generator's arithmetic in C integers.
# Unsigned 64-bit arithmetic wraps modulo 2**64 and 32-bit shifts drop the
# bits above 32, as the source's masks do, so the numbers drawn are the same
# (tests/runtime/test_rng.py compares them with the source's).
import cython

cdef unsigned long long _MULT, _INC, _MASK64

@cython.locals(old=cython.ulonglong, xorshifted=cython.uint, rot=cython.uint, out=cython.uint)
cpdef tuple next32(state)
