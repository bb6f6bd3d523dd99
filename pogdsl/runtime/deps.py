"""What each `value` reads, worked out once from the source, so its results
can be reused across decisions until something it reads is written.

State is split into areas: ``board`` (where units are, their strength,
control, destroyed forts), ``war`` (which nations are at war), ``cards`` (every pile),
``in_play`` (the piles of cards lying in play), ``played`` (events played
so far), ``turn``, and one area per declared state variable (``var:NAME``).
Each entity also has an area of its own: ``unit:I`` (where unit I is, its
strength), ``loc:I`` (who controls space I, which units stand in space or
box I, its fort), ``var:NAME:KEY`` (one entry of a state variable kept per
entity), ``played:CARD`` (whether that card's event was played).  A write bumps the whole area and the entity's own; a value reading
only its arguments' own state lists their areas (see `Dependencies.direct`).
Effects bump the version of the areas they write; a cached value is valid
while the versions of all its areas are unchanged.  A value that draws on
chance (``random_pick``) is never cached.
"""

from __future__ import annotations

from ..syntax import ast as A
from .values import scope_key

BOARD, CARDS, TURN, UNCACHEABLE, WAR = "board", "cards", "turn", "*", "war"
PLAYED, IN_PLAY = "played", "in_play"  # events played so far; cards lying in play

# Built-in functions → the areas they read.
FUNCTION_AREAS = {
    "units_in": {BOARD}, "units_of": {BOARD}, "units_at": {BOARD}, "stack_size": {BOARD},
    "enemy_units_at": {BOARD},
    "at_war": {WAR}, "pool": set(), "available": {BOARD},
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
COSTLY_FUNCTIONS = {"units_of", "units_in", "units_at", "enemy_units_at", "adjacent", "adjacent_for", "distance",
                    "reach_along", "reach_within",
                    "adjacent_open", "solid_adjacent", "cards_in", "distinct", "subsets", "pool", "available"}


# Past this many calls of other values (calls), a value is remembered
# however cheap each step of it is.
CALLS_MOST = 10_000


class Dependencies:
    def __init__(self, world):
        self.w = world
        self.areas: dict[str, frozenset] = {}
        self._visiting: set[str] = set()
        self._costly: dict[str, bool] = {}
        self._direct: dict = {}
        self._modified: set[str] | None = None

    def costly(self, name: str) -> bool:
        """Whether a value does enough work (loops, searches, or calls to such
        values) that remembering its result beats working it out again.  A
        one-line test is cheaper to recompute than to look up."""
        if name in self._costly:
            return self._costly[name]
        self._costly[name] = False  # recursion: assume cheap while looking
        values = self.w.program.decls["value"]
        decl = values[name]
        found = name in self.modified() or self.calls(name) > CALLS_MOST
        for node in A.walk_exprs(decl.expr):
            if isinstance(node, (A.ListComp, A.Aggregate, A.Reach)):
                found = True
            elif isinstance(node, A.Call):
                fn = node.func.text
                if fn in COSTLY_FUNCTIONS or (fn in values and self.costly(fn)):
                    found = True
            elif isinstance(node, A.Ref) and node.name.text in values and node.name.text != name:
                found = found or self.costly(node.name.text)
            if found:
                break
        self._costly[name] = found
        return found

    def calls(self, name: str) -> int:
        """How many calls of values working out NAME once may make, each
        counted every time it is made (every branch taken): forty values each
        naming the one before twice make 2^40 calls, a hang if each is worked
        out anew — remembered, each is worked out once."""
        memo = self.__dict__.setdefault("_calls", {})
        if name in memo:
            return memo[name]
        memo[name] = 0  # recursion: counted once
        values = self.w.program.decls["value"]
        total = 0
        for node in A.walk_exprs(values[name].expr):
            called = node.func.text if isinstance(node, A.Call) else node.name.text if isinstance(node, A.Ref) else None
            if called in values and called != name:
                total = min(total + 1 + self.calls(called), CALLS_MOST + 1)
        memo[name] = total
        return total

    def modified(self) -> set[str]:
        """The values some modifier adds to (read off the program, so it is
        known before the modifiers are compiled)."""
        if self._modified is None:
            self._modified = {c.value.text for decl in self.w.program.all("modifier") for c in decl.contributions}
        return self._modified

    def named_card(self, e, params, local):
        """The card an argument names outright (`played('Salonika')`), or None."""
        if isinstance(e, A.Ref) and e.name.text not in params and e.name.text not in local:
            return self.w.by_kind.get("card_name", {}).get(e.name.text)
        return None

    def of_value(self, name: str) -> frozenset:
        if name in self.areas:
            return self.areas[name]
        if name in self._visiting:  # recursion: the other frames add what they read
            return frozenset()
        self._visiting.add(name)
        decl = self.w.program.decls["value"][name]
        found: set[str] = set()
        local = {p.name.text for p in decl.params}
        card_at = {i for i, p in enumerate(decl.params) if p.type is not None and p.type.text == "card"
                   and not p.is_list}
        cards = frozenset(decl.params[i].name.text for i in card_at)
        walkable = {p.name.text for p in decl.params if not p.is_list} - cards
        self._expr(decl.expr, local, found, walkable, cards)
        for hooked, contribution, _, _ in self.w.modifiers.get(name, ()):
            if hooked.owner is not None:
                found.add(IN_PLAY)  # active only while its card is in play
            names = {v.text for v in contribution.vars}
            modifier_cards = frozenset(v.text for i, v in enumerate(contribution.vars) if i in card_at)
            self._expr(contribution.expr, names, found, names - modifier_cards, modifier_cards)
            self._expr(contribution.when, names, found, names - modifier_cards, modifier_cards)
        self._visiting.discard(name)
        result = frozenset(found)
        self.areas[name] = result
        return result

    def of_expression(self, e, local: set[str], cards: frozenset = frozenset()) -> frozenset:
        """The areas an expression reads, `local` naming what it is given
        (a choice's parameters, say): none when its result depends on those
        alone.  `cards` names the parameters that are cards: what is printed
        on a card (`c.war_status`, `c.ops`) is no state, even where a state
        of that name is kept for sides."""
        found: set[str] = set()
        self._expr(e, set(local), found, cards=cards)
        return frozenset(found)

    def direct(self, name: str, cached: set[str], war_by_space: bool = False) -> frozenset:
        """The areas a value reads itself or through values that are not
        remembered (`cached`: the values that are).  What it reads through a
        remembered value is not included: that value is recorded as a
        dependency when it is called (see builtins.value_of), so a change that
        leaves its result the same does not reach the caller.

        A read of one argument's own state (`u.space` of a unit parameter,
        `units_in(s)` or `s.control` of a space parameter, `besieged[s]`) is
        an entry ``(i, area)``: at run time it becomes the area of that one
        entity (`entity_area`), so moving another unit does not expire it.

        `war_by_space` (for a space filter's test, see `space_filter`): a
        read of whether the nation of a space parameter, or of a unit
        standing in it, is at war is an entry ``(i, WAR)``, and one of a
        nation named outright its own area (`war:tu`).  Never for a
        remembered value's areas: no write names a space's war area."""
        key = ("direct", name, bool(cached), war_by_space)
        if key in self._direct:
            return self._direct[key]
        self._direct[key] = frozenset()  # recursion: the other frames add what they read
        decl = self.w.program.decls["value"][name]
        params = {p.name.text: i for i, p in enumerate(decl.params)}
        found: set = set()
        lists = frozenset(i for i, p in enumerate(decl.params) if p.is_list)
        kinds = {i: p.type.text for i, p in enumerate(decl.params) if p.type is not None and not p.is_list}
        _Reads(self, cached, found, lists, kinds, war_by_space=war_by_space).visit(decl.expr, params)
        for hooked, contribution, _, _ in self.w.modifiers.get(name, ()):
            if hooked.owner is not None:
                found.add(IN_PLAY)  # active only while its card is in play
            names = {v.text: i for i, v in enumerate(contribution.vars)}
            _Reads(self, cached, found, war_by_space=war_by_space).visit(contribution.expr, names)
            _Reads(self, cached, found, war_by_space=war_by_space).visit(contribution.when, names)
        result = frozenset(found)
        self._direct[key] = result
        return result

    def _expr(self, e, local: set[str], found: set[str], walkable: set[str] = frozenset(),
              cards: frozenset = frozenset()) -> None:
        """`walkable`: the parameters that may be a space, box or pile, whose
        walking (`x in s`, `for u in s`) reads units or cards; `cards`: the
        parameters that are cards (see of_expression)."""
        if e is None:
            return
        for node in A.walk_exprs(e):
            walked = node.container if isinstance(node, A.Member) else \
                node.source if isinstance(node, (A.ListComp, A.Aggregate, A.Reach)) else None
            if isinstance(walked, A.Ref) and walked.name.text in walkable:
                found.update({BOARD, CARDS})
            if isinstance(node, A.Ref):
                self._name(node.name.text, local, found)
            elif isinstance(node, A.Attr):
                attr = node.attr.text
                if isinstance(node.obj, A.Ref) and node.obj.name.text in cards and attr in PRINTED_ON_CARDS \
                        and not _kept_per_card(self.w.state_decls.get(attr)):
                    continue
                if _read_through_entity(self.w.state_decls.get(attr)):
                    found.add(f"var:{attr}")
                elif attr in DYNAMIC_ATTRIBUTES:
                    found.add(CARDS if attr in ("cards", "size") else WAR if attr == "at_war" else BOARD)
            elif isinstance(node, A.Call):
                fn = node.func.text
                card = self.named_card(node.args[0], {}, local) if fn == "played" and node.args else None
                if fn in self.w.values:
                    found.update(self.of_value(fn))
                elif card is not None:
                    found.add(f"{PLAYED}:{card.key}")
                elif not (fn == "len" and counts_a_list(self.w, node.args)):
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


# What a card carries printed on it (its values, never changed by play).
PRINTED_ON_CARDS = {"name", "number", "deck", "ops", "sr", "war_status", "removed", "combat", "optional",
                    "rp_nations", "reinforcements"}


def _read_through_entity(decl, kind: str | None = None) -> bool:
    """Whether `x.NAME` may read the state NAME: only a state kept per entity
    is read that way (a state of the whole game is read by its bare name, so
    `s.vp` of a space is its print, not the VP counter), and only for an
    entity of that kind when `x` is a parameter of a known kind (`c.war_status`
    of a card is its print, not the War Status kept per side)."""
    if decl is None or getattr(decl, "scope", None) is None:
        return False
    return kind is None or kind == decl.scope.text


def _kept_per_card(decl) -> bool:
    """A state declared `per card` (then `c.NAME` reads it, not the print)."""
    return decl is not None and getattr(decl, "scope", None) is not None and decl.scope.text == "card"


# Attributes that read one entity's own changing state (its `board` area).
ENTITY_ATTRIBUTES = {"cf", "lf", "mf", "reduced", "location", "space", "on_map", "steps", "control",
                     "fort_destroyed", "units"}
# Built-ins whose first argument is the one space or box whose state they read.
ENTITY_FUNCTIONS = {"units_in", "units_at", "enemy_units_at", "stack_size"}


class _Reads:
    """Walks one expression for `Dependencies.direct`, with its scopes: a
    parameter shadowed by a comprehension's variable is not that parameter."""

    def __init__(self, deps: Dependencies, cached: set[str], found: set, lists: frozenset = frozenset(),
                 kinds: dict[int, str] | None = None, neighbours: bool = False, war_by_space: bool = False,
                 space_params: frozenset | None = None):
        self.deps, self.cached, self.found = deps, cached, found
        self.lists = lists  # the parameters declared as lists: walking one reads no state
        self.kinds = kinds or {}  # the declared kind of each parameter that has one
        # A space filter's test may walk the neighbours of its space
        # (`for x in adjacent(t)`): their own state is then read as NEIGHBOUR's.
        self.neighbours = neighbours
        self.w = deps.w
        # (deps.direct's `war_by_space`) The comprehension variables walking
        # the units standing in a space parameter (`for u in units_in(t)`):
        # variable → the parameter's index.
        self.war_by_space = war_by_space
        self.space_params = space_params if space_params is not None else \
            frozenset(i for i, kind in self.kinds.items() if kind == "space")
        self.units_in_param: dict[str, int] = {}

    def visit(self, e, params: dict[str, int], local: frozenset = frozenset()) -> None:
        if e is None:
            return
        if isinstance(e, (A.ListComp, A.Aggregate, A.Reach)):
            self.walked(e.source, params, local)
            self.visit(e.source, params, local)
            if self.walks_neighbours(e, params, local):
                inner_params = {**params, e.var.text: NEIGHBOUR}
                for child in (getattr(e, "item", None), e.where):
                    self.visit(child, inner_params, local - {e.var.text})
                return
            inner = local | {e.var.text}
            held = self.units_standing_in(e.source, params, local)
            outer = self.units_in_param.pop(e.var.text, None)
            if held is not None:
                self.units_in_param[e.var.text] = held
            try:
                for child in (getattr(e, "item", None), e.where):
                    self.visit(child, params, inner)
            finally:
                self.units_in_param.pop(e.var.text, None)
                if outer is not None:
                    self.units_in_param[e.var.text] = outer
            return
        if isinstance(e, A.Ref):
            self.name(e.name.text, params, local)
            return
        if isinstance(e, A.Attr):
            self.attr(e, params, local)
            return
        if isinstance(e, A.Index) and self.scoped_index(e, params, local):
            return
        if isinstance(e, A.Call):
            self.call(e, params, local)
            return
        if isinstance(e, A.Member):
            self.walked(e.container, params, local)
        if isinstance(e, A.TextLit):
            if e.raw is not None:  # a text that shows values reads what they read
                from ..syntax.template import template_parts

                for p in template_parts(e)[0]:
                    if not isinstance(p, str):
                        self.visit(p, params, local)
            return
        for f in attrs_fields(e):
            if isinstance(f, A.Expr):
                self.visit(f, params, local)
            elif isinstance(f, list):
                for item in f:
                    if isinstance(item, A.Expr):
                        self.visit(item, params, local)

    def walks_neighbours(self, e, params, local) -> bool:
        """`... for x in adjacent(t)` in a space filter's test, `t` its space."""
        src = e.source
        return (self.neighbours and not isinstance(e, A.Reach) and isinstance(src, A.Call)
                and src.func.text == "adjacent" and src.func.text not in self.w.values and len(src.args) == 1
                and self.param(src.args[0], params, local) == 0)

    def units_standing_in(self, src, params, local) -> int | None:
        """The index of the space parameter whose units a comprehension
        walks (`units_in(t)`, `units_at(t, p)`, `enemy_units_at(t, p)`),
        when at-war reads are told apart by space."""
        if not (self.war_by_space and isinstance(src, A.Call) and src.func.text in ENTITY_FUNCTIONS
                and src.func.text != "stack_size" and src.func.text not in self.w.values and src.args):
            return None
        i = self.param(src.args[0], params, local)
        return i if i is not None and i >= 0 else None

    def war_read(self, e, params, local) -> tuple | str:
        """What `at_war(E)` reads: with `war_by_space`, ``(i, WAR)`` for the
        nation of space parameter i (`t.nation`) or of a unit standing in it
        (`u.nation`, u walking `units_in(t)`), the nation's own area for one
        named outright (`tu`); else the whole of WAR."""
        if not self.war_by_space:
            return WAR
        if isinstance(e, A.Attr) and e.attr.text == "nation" and isinstance(e.obj, A.Ref):
            name = e.obj.name.text
            if name in local and name in self.units_in_param:
                return (self.units_in_param[name], WAR)
            i = self.param(e.obj, params, local)
            if i is not None and i in self.space_params:
                return (i, WAR)
            return WAR
        if isinstance(e, A.Ref) and e.name.text not in local and e.name.text not in params \
                and e.name.text not in self.w.state_decls and e.name.text not in self.w.values:
            nation = self.w.names.get(e.name.text)
            if getattr(nation, "kind", None) == "nation":
                return entity_area(self.w, WAR, nation)
        return WAR

    def walked(self, e, params, local) -> None:
        """Walking a parameter itself (`for u in s`, `x in s`): a space or box
        yields its units, a pile its cards."""
        i = self.param(e, params, local)
        if i is not None and i not in self.lists:
            self.found.update({(i, BOARD), CARDS})

    def param(self, e, params, local) -> int | None:
        if isinstance(e, A.Ref) and e.name.text in params and e.name.text not in local:
            return params[e.name.text]
        return None

    def name(self, name: str, params, local) -> None:
        if name in local or name in params:
            return
        w = self.w
        if name in w.state_decls:
            self.found.add(f"var:{name}")
        elif name in w.values:
            self.value(name, [])
        elif name in CONSTANT_AREAS:
            self.found.update(CONSTANT_AREAS[name])

    def named(self, e, params, local):
        """The space or unit an expression names outright (`Gallipoli`,
        `'BR NE'`), or None: its own state is an area of its own, read by
        `Gallipoli.control` as a parameter's is."""
        if not isinstance(e, A.Ref):
            return None
        name = e.name.text
        if name in local or name in params or name in self.w.state_decls or name in self.w.values:
            return None
        entity = self.w.names.get(name)
        return entity if getattr(entity, "kind", None) in ("space", "unit") else None

    def attr(self, e: A.Attr, params, local) -> None:
        attr = e.attr.text
        i = self.param(e.obj, params, local)
        named = self.named(e.obj, params, local) if i is None else None
        if _read_through_entity(self.w.state_decls.get(attr), self.kinds.get(i) if named is None else named.kind):
            area = f"var:{attr}"
            self.found.add((i, area) if i is not None else entity_area(self.w, area, named) if named else area)
        elif attr in DYNAMIC_ATTRIBUTES:
            if attr in ("cards", "size"):
                self.found.add(CARDS)
            elif attr == "at_war":
                self.found.add(WAR)
            elif attr in ENTITY_ATTRIBUTES and (i is not None or named is not None):
                self.found.add((i, BOARD) if i is not None else entity_area(self.w, BOARD, named))
            else:
                self.found.add(BOARD)
        if i is None:
            self.visit(e.obj, params, local)

    def scoped_index(self, e: A.Index, params, local) -> bool:
        if not (isinstance(e.obj, A.Ref) and e.obj.name.text not in local and e.obj.name.text not in params):
            return False
        decl = self.w.state_decls.get(e.obj.name.text)
        if decl is None or decl.scope is None or len(e.args) != 1:
            return False
        area = f"var:{decl.key}"
        i = self.param(e.args[0], params, local)
        named = self.named(e.args[0], params, local) if i is None else None
        if i is not None:
            self.found.add((i, area))
        elif named is not None and decl.scope.text == named.kind:
            self.found.add(entity_area(self.w, area, named))
        else:
            self.found.add(area)
            self.visit(e.args[0], params, local)
        return True

    def call(self, e: A.Call, params, local) -> None:
        fn = e.func.text
        args = [self.param(a, params, local) for a in e.args]
        for a, i in zip(e.args, args):
            if i is None:
                self.visit(a, params, local)
        if fn in self.w.values:
            self.value(fn, args)
        elif fn in ENTITY_FUNCTIONS and args and args[0] is not None:
            self.found.add((args[0], BOARD))
        elif fn in ENTITY_FUNCTIONS and args and self.named(e.args[0], params, local) is not None:
            self.found.add(entity_area(self.w, BOARD, self.named(e.args[0], params, local)))
        elif fn == "played":
            card = self.deps.named_card(e.args[0] if e.args else None, params, local)
            if args and args[0] is not None:
                self.found.add((args[0], PLAYED))
            else:
                self.found.add(f"{PLAYED}:{card.key}" if card is not None else PLAYED)
        elif fn == "at_war":
            self.found.add(self.war_read(e.args[0], params, local) if len(e.args) == 1 else WAR)
        elif not (fn == "len" and counts_a_list(self.w, e.args)):
            self.found.update(FUNCTION_AREAS.get(fn, ()))

    def value(self, fn: str, args: list) -> None:
        """A call of another value: a remembered one is a dependency recorded
        at run time; what a value that is not remembered reads is read here,
        its parameters' own areas becoming the caller's where the argument is
        one of the caller's parameters (else the whole area)."""
        if fn in self.cached:
            return
        for area in self.deps.direct(fn, self.cached, self.war_by_space):
            if isinstance(area, tuple):
                j, whole = area
                i = args[j] if j < len(args) else None
                self.found.add((i, whole) if i is not None else whole)
            else:
                self.found.add(area)


def counts_a_list(world, args: list) -> bool:
    """Whether `len(ARG)` counts the items of a list (reading nothing but
    what builds the list) rather than a pile's cards: ARG is a list written
    in place or the result of a built-in declared to give a list
    (`len(enemy_units_at(t, p))`).  Else `len` is taken to read the cards
    (a pile's size), so a value counting units does not expire whenever a
    card is drawn."""
    if len(args) != 1:
        return False
    arg = args[0]
    if isinstance(arg, (A.ListComp, A.ListLit)):
        return True
    if isinstance(arg, A.Call) and arg.func.text not in world.values:
        from ..semantics.vocabulary import FUNCTIONS

        declared = FUNCTIONS.get(arg.func.text)
        return declared is not None and declared.returns.startswith("list:")
    return False


def attrs_fields(node) -> list:
    import attrs

    return [getattr(node, f.name) for f in attrs.fields(type(node))]


# The parameter index standing, in a space filter's test, for a neighbour of
# its space (deps._Reads.walks_neighbours).
NEIGHBOUR = -1


def space_filter(deps: Dependencies, decl) -> tuple | None:
    """A value that picks spaces of the map, `[t for t in spaces where C]`,
    can be kept up to date one space at a time when C reads only (1) the
    state of t itself, (2) the state of t's neighbours (walked as
    `for x in adjacent(t)`) and (3) areas that change seldom: after units
    move, only the spaces they left and entered are tested again (and, for a
    test reading the neighbours, the spaces next to those).  Whether the
    nation of t, or of a unit standing in t, is at war is part of t's own
    state (WAR among the areas of t): when a nation enters the war, the
    spaces of that nation and those its units stand in are tested again
    (builtins._patch_filter), not the whole map.  Returns (the
    areas of t that C reads, the other areas C reads, the areas of t's
    neighbours that C reads), or None when the value is not such a filter
    (or C reads the whole board: no gain)."""
    e = decl.expr
    if not (isinstance(e, A.ListComp) and isinstance(e.source, A.Ref) and e.source.name.text == "spaces"
            and isinstance(e.item, A.Ref) and e.item.name.text == e.var.text and e.where is not None):
        return None
    params = {p.name.text: i + 1 for i, p in enumerate(decl.params)}
    if e.var.text in params:
        return None
    params[e.var.text] = 0
    found: set = set()
    _Reads(deps, set(), found, neighbours=True, war_by_space=True, space_params=frozenset({0})).visit(e.where, params)
    # (whether a neighbour's nation is at war: the whole of WAR, as before)
    found = {WAR if area == (NEIGHBOUR, WAR) else area for area in found}
    own = {area[1] for area in found if isinstance(area, tuple) and area[0] == 0}
    near = {area[1] for area in found if isinstance(area, tuple) and area[0] == NEIGHBOUR}
    others = {area if isinstance(area, str) else area[1] for area in found
              if not (isinstance(area, tuple) and area[0] in (0, NEIGHBOUR))}
    if UNCACHEABLE in others or BOARD in others \
            or any(not (w == BOARD or w.startswith("var:")) for w in near) \
            or any(not (w in (BOARD, WAR) or w.startswith("var:")) for w in own):
        return None
    return frozenset(own), tuple(sorted(others)), frozenset(near)


def entity_area(world, whole: str, entity) -> str | None:
    """The area of one entity within a whole area: `unit:3`, `loc:17`,
    `var:trench:Sedan`.  None when the argument is not an entity."""
    try:
        return world.area_names[(whole, entity)]
    except KeyError:
        pass
    except TypeError:  # not hashable: not an entity
        return None
    area = _entity_area(world, whole, entity)
    world.area_names[(whole, entity)] = area
    return area


def _entity_area(world, whole: str, entity) -> str | None:
    kind = getattr(entity, "kind", None)
    if kind is None:
        return None
    if whole == BOARD:
        if kind == "unit":
            return f"unit:{entity.index}"
        if kind in ("space", "box"):
            return f"loc:{world.location(entity)}"
        return BOARD
    return f"{whole}:{scope_key(entity)}"
