"""Runtime values.

Numbers, booleans, text and None are themselves.  Every named thing of the
game (a space, a unit, a card, a nation, a side, an enumeration member, a box,
a pile) is one `Entity`, built once per world, so comparing two is an identity
test.  In saved games an entity is written as ``{"$": kind, "k": key}``.
"""

from __future__ import annotations


class Entity:
    __slots__ = ("kind", "key", "index", "data", "scope")

    def __init__(self, kind: str, key: str, index: int = -1, data=None):
        self.kind = kind
        self.key = key
        self.index = index
        self.data = data  # the static facts (a decl, or a small record)
        # Its key in state kept per entity: units by number (identical pieces
        # share a name), everything else by name.
        self.scope = str(index) if kind == "unit" else key

    def __repr__(self) -> str:
        return f"<{self.kind} {self.key}>"

    def __str__(self) -> str:
        return self.key



class Pool(Entity):
    """A unit name shared by several identical pieces (a corps pool): placing
    it takes any piece not yet in play."""

    __slots__ = ("members",)

    def __init__(self, key: str, members: list[Entity]):
        super().__init__("unit", key, members[0].index, members[0].data)
        self.members = members


class Found(list):
    """The spaces a search found (`reach`, `reach_along`): a list whose
    membership test is a set lookup.  Supply asks `t in region` of regions of
    a hundred spaces and more, many times for each region; entities hash and
    compare by identity, so the set holds the spaces themselves.  Built once,
    on the first test: a search's result is a value and never changes
    afterwards.  Generated code tests membership on `as_set()` directly.
    A list of spaces searched through (`reach_along`'s `within`) also keeps
    the regions found through it (`_regions`, builtins.closed_prefix)."""

    __slots__ = ("_indexes", "_set", "_regions")

    def as_set(self) -> frozenset:
        try:
            return self._set
        except AttributeError:
            found = self._set = frozenset(self)
            return found

    def __contains__(self, item) -> bool:
        try:
            return item in self.as_set()
        except TypeError:  # an unhashable item: no space
            return False


class ScopedState:
    """A state variable kept per side/nation/space/unit, before it is indexed."""

    __slots__ = ("name",)
    kind = "scoped"

    def __init__(self, name: str):
        self.name = name


def scope_key(value) -> str:
    """The key of a value in state kept per entity (see Entity.scope)."""
    if isinstance(value, Entity):
        return value.scope
    return str(value)


def text_of(value) -> str:
    """How a value reads in an option or a log line."""
    if type(value) is Entity:  # the common case first: option texts are mostly entities
        return value.key
    if value is None:
        return "none"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, list):
        return ", ".join(text_of(v) for v in value)
    return str(value)


# How deep plain data may nest before encode or copy_data refuses it: far
# more than a state holds (a value's lists are bounded by limits.MAX_NESTING
# when stored), and far less than a C stack takes.
DATA_DEPTH = 400


def _too_deep():
    from .errors import LimitExceeded

    return LimitExceeded(f"the state holds data nested more than {DATA_DEPTH} deep", limit="nesting")


def encode(value, depth: int = 0):
    """A value (or a whole state) → plain JSON data."""
    if isinstance(value, Entity):
        if value.kind == "unit" and type(value) is Entity:  # one piece; a Pool is read back by its name
            return {"$": "unit", "k": value.key, "i": value.index}
        return {"$": value.kind, "k": value.key}
    if isinstance(value, (list, tuple)):
        if depth > DATA_DEPTH:
            raise _too_deep()
        return [encode(v, depth + 1) for v in value]
    if isinstance(value, dict):
        if depth > DATA_DEPTH:
            raise _too_deep()
        return {k: encode(v, depth + 1) for k, v in value.items()}
    return value


def decode(data, world, depth: int = 0):
    """Plain JSON data → a value, resolving entities against the world.  Data
    nested deeper than DATA_DEPTH is refused (LimitExceeded): a state handed
    to the Python API may come from anywhere, and the compiled runtime would
    recurse through it until the C stack overflowed."""
    if isinstance(data, list):
        if depth > DATA_DEPTH:
            raise _too_deep()
        return [decode(v, world, depth + 1) for v in data]
    if isinstance(data, dict):
        if depth > DATA_DEPTH:
            raise _too_deep()
        if "$" in data:
            return world.entity(data["$"], data["k"], data.get("i"))
        return {k: decode(v, world, depth + 1) for k, v in data.items()}
    return data


def copy_data(value, depth: int = 0):
    """A deep copy of plain data; entities are shared (they never change)."""
    if depth > DATA_DEPTH:
        raise _too_deep()
    if isinstance(value, list):
        return [copy_data(v, depth + 1) if isinstance(v, (list, dict)) else v for v in value]
    if isinstance(value, dict):
        return {k: copy_data(v, depth + 1) if isinstance(v, (list, dict)) else v for k, v in value.items()}
    return value
