# Declarations for builtins.py when `pogdsl build-native` compiles it (the
# source runs unchanged without them).
import cython

@cython.locals(checked=object, ver=dict)
cpdef bint _still_good(g, list entry) except -1

@cython.locals(log=list, i=cython.Py_ssize_t)
cpdef bint _spaces_written(dict changed, wholes, checked, note) except -1

@cython.locals(spaces=list, adjacency=list, left=set)
cpdef object _spread(g, order, seen, allowed=*, keys=*, admit=*, closed=*)

@cython.locals(stats=list)
cpdef object remembered(g, key, entry, str name, tuple args)

@cython.locals(ver=dict, touched=set, written=set, changed=dict, member=bytearray, spaces=list, flipped=list)
cpdef bint _patch_filter(g, space_filter, list entry, tuple args, near=*, inner=*) except -1
