"""What each `value` reads, worked out once from the source, so its results
can be reused across decisions until something it reads is written.

State is split into areas: ``board`` (where units are, their strength,
control, destroyed forts, nations at war), ``cards`` (every pile),
``in_play`` (the piles of cards lying in play), ``played`` (events played
so far), ``turn``, and one area per declared state variable (``var:NAME``).
Effects bump the version of the areas they write; a cached value is valid
while the versions of all its areas are unchanged.  A value that draws on
chance (``random_pick``) is never cached.
"""

from __future__ import annotations

from ..syntax import ast as A

BOARD, CARDS, TURN, UNCACHEABLE = "board", "cards", "turn", "*"
PLAYED, IN_PLAY = "played", "in_play"  # events played so far; cards lying in play

# Built-in functions → the areas they read.
FUNCTION_AREAS = {
    "units_in": {BOARD}, "units_of": {BOARD}, "units_at": {BOARD}, "stack_size": {BOARD},
    "at_war": {BOARD}, "pool": set(), "available": {BOARD},
    # A pile is read when it is searched or walked: count naming it as reading it.
    "hand": {CARDS}, "draw_pile": {CARDS}, "discard_pile": {CARDS}, "removed_pile": {CARDS},
    "in_play": {CARDS},
    "cards_in": {CARDS}, "played": {PLAYED}, "playable": {UNCACHEABLE}, "len": {CARDS},
    "random_pick": {UNCACHEABLE},
}
# Attributes read from the changing state rather than from static facts.
DYNAMIC_ATTRIBUTES = {
    "cf", "lf", "mf", "reduced", "location", "space", "on_map", "steps", "control", "fort_destroyed",
    "units", "at_war", "cards", "size",
}
CONSTANT_AREAS = {"units": {BOARD}, "turn": {TURN}}


# Built-ins that walk many things: a value calling one is worth caching.
COSTLY_FUNCTIONS = {"units_of", "units_in", "units_at", "adjacent", "adjacent_for", "distance", "reach_along",
                    "adjacent_open", "solid_adjacent", "cards_in", "distinct", "subsets", "pool", "available"}


class Dependencies:
    def __init__(self, world):
        self.w = world
        self.areas: dict[str, frozenset] = {}
        self._visiting: set[str] = set()
        self._costly: dict[str, bool] = {}

    def costly(self, name: str) -> bool:
        """Whether a value does enough work (loops, searches, or calls to such
        values) that remembering its result beats working it out again.  A
        one-line test is cheaper to recompute than to look up."""
        if name in self._costly:
            return self._costly[name]
        self._costly[name] = False  # recursion: assume cheap while looking
        decl = self.w.program.decls["value"][name]
        found = bool(self.w.modifiers.get(name))
        for node in A.walk_exprs(decl.expr):
            if isinstance(node, (A.ListComp, A.Aggregate, A.Reach)):
                found = True
            elif isinstance(node, A.Call):
                fn = node.func.text
                if fn in COSTLY_FUNCTIONS or (fn in self.w.values and self.costly(fn)):
                    found = True
            elif isinstance(node, A.Ref) and node.name.text in self.w.values and node.name.text != name:
                found = found or self.costly(node.name.text)
            if found:
                break
        self._costly[name] = found
        return found

    def of_value(self, name: str) -> frozenset:
        if name in self.areas:
            return self.areas[name]
        if name in self._visiting:  # recursion: the other frames add what they read
            return frozenset()
        self._visiting.add(name)
        decl = self.w.program.decls["value"][name]
        found: set[str] = set()
        local = {p.name.text for p in decl.params}
        self._expr(decl.expr, local, found)
        for hooked, contribution, _, _ in self.w.modifiers.get(name, ()):
            if hooked.owner is not None:
                found.add(IN_PLAY)  # active only while its card is in play
            names = {v.text for v in contribution.vars}
            self._expr(contribution.expr, names, found)
            self._expr(contribution.when, names, found)
        self._visiting.discard(name)
        result = frozenset(found)
        self.areas[name] = result
        return result

    def _expr(self, e, local: set[str], found: set[str]) -> None:
        if e is None:
            return
        for node in A.walk_exprs(e):
            if isinstance(node, A.Ref):
                self._name(node.name.text, local, found)
            elif isinstance(node, A.Attr):
                attr = node.attr.text
                if attr in self.w.state_decls:
                    found.add(f"var:{attr}")
                elif attr in DYNAMIC_ATTRIBUTES:
                    found.add(BOARD if attr not in ("cards", "size") else CARDS)
            elif isinstance(node, A.Call):
                fn = node.func.text
                if fn in self.w.values:
                    found.update(self.of_value(fn))
                else:
                    found.update(FUNCTION_AREAS.get(fn, ()))
            elif isinstance(node, (A.ListComp, A.Aggregate, A.Reach)):
                local = local | {node.var.text}

    def _name(self, name: str, local: set[str], found: set[str]) -> None:
        if name in local:
            return
        if name in self.w.state_decls:
            found.add(f"var:{name}")
        elif name in self.w.values:
            found.update(self.of_value(name))
        elif name in CONSTANT_AREAS:
            found.update(CONSTANT_AREAS[name])
