"""ASTs as plain JSON data, for the parse cache.

A cached module must be data that cannot run code when it is read (a pickle
can: a planted one would run as soon as `check` loaded it).  The AST holds
only nodes (attrs classes of ast.py), lists, tuples, string-keyed dicts and
scalars, so it is written as JSON arrays:

* a node: ``[i, field, field, …]`` with ``i`` ≥ 0 its class's place in
  `CLASSES` (fields in their declared order);
* a list ``[-1, item, …]``, a tuple ``[-2, item, …]``, a dict ``[-3, {…}]``;
* None, booleans, numbers and strings as themselves.

Reading builds each node without running its `__init__`, as unpickling did:
nothing but the classes of ast.py is ever made, whatever the file holds; an
index or a shape that does not fit is a `ValueError` (a cache miss).
"""

from __future__ import annotations

import attrs

from . import ast as A

CLASSES: tuple[type, ...] = tuple(
    cls for cls in vars(A).values() if isinstance(cls, type) and attrs.has(cls) and cls.__module__ == A.__name__
)
_INDEX = {cls: i for i, cls in enumerate(CLASSES)}
_FIELDS = tuple(tuple(f.name for f in attrs.fields(cls)) for cls in CLASSES)
_LIST, _TUPLE, _DICT = -1, -2, -3


def to_plain(value):
    """VALUE (a module or any part of one) as plain JSON data.  Raises
    RecursionError for a tree nested too deeply to walk (not cached)."""
    kind = type(value)
    i = _INDEX.get(kind)
    if i is not None:
        return [i, *[to_plain(getattr(value, name)) for name in _FIELDS[i]]]
    if kind is list:
        return [_LIST, *[to_plain(v) for v in value]]
    if kind is tuple:
        return [_TUPLE, *[to_plain(v) for v in value]]
    if kind is dict:
        if not all(type(k) is str for k in value):
            raise TypeError("only dicts keyed by strings can be stored")
        return [_DICT, {k: to_plain(v) for k, v in value.items()}]
    if value is None or kind in (bool, int, str, float):
        return value
    raise TypeError(f"an AST holds no {kind.__name__}")


def from_plain(data):
    """The value `to_plain` gave DATA for; ValueError if DATA is no such value."""
    if type(data) is not list:
        if type(data) is dict:
            raise ValueError("a bare JSON object in a stored AST")
        return data
    return _array(data)


def _array(data: list):
    # (the hot path of a cache load: scalars, most fields, are kept as they
    # are without a call)
    if not data or type(data[0]) is not int:
        raise ValueError("a stored AST array without its tag")
    tag = data[0]
    if tag >= 0:
        try:
            cls, names = CLASSES[tag], _FIELDS[tag]
        except IndexError:
            raise ValueError(f"no AST class {tag}") from None
        if len(data) != len(names) + 1:
            raise ValueError(f"a stored {cls.__name__} with the wrong number of fields")
        node = cls.__new__(cls)
        fields = node.__dict__
        for name, v in zip(names, data[1:]):
            kind = type(v)
            fields[name] = _array(v) if kind is list else v if kind is not dict else from_plain(v)
        return node
    items = [_array(v) if type(v) is list else from_plain(v) if type(v) is dict else v for v in data[1:]] \
        if tag in (_LIST, _TUPLE) else None
    if tag == _LIST:
        return items
    if tag == _TUPLE:
        return tuple(items)
    if tag == _DICT and len(data) == 2 and type(data[1]) is dict:
        return {k: from_plain(v) for k, v in data[1].items()}
    raise ValueError(f"a stored AST array with the unknown tag {tag}")
