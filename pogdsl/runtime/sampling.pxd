# Declarations for sampling.py when `pogdsl build-native` compiles it (the
# source runs unchanged without them): the pools of groups drawn from are
# lists, indexed without the general item lookup.
import cython

@cython.locals(k=cython.Py_ssize_t)
cpdef tuple _draw_until_legal(list pool, weights, legal, state)

@cython.locals(i=cython.Py_ssize_t)
cpdef tuple sample(count, weights, legal, state, sure=*)
