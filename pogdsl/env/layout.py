"""The observation of one side as fixed-shape numbers, laid out from the
scenario's declarations.

A `Layout` is built once per compiled world (`layout_of`) and shared by every
environment of it: it lists the fields of the observation vector (name,
slice, meaning) and keeps the numpy arrays that turn a state into that
vector without walking the state entity by entity in Python:

* the board: for each space its static marks (terrain, VP, fort, capital,
  supply source), who controls it, whether its fort is destroyed, and, from
  the units' locations, how many full and reduced units of each nation stand
  there and each side's combat factors there;
* the units: each unit on the map or in which box, reduced or not;
* the state the scenario declares (`track`, `counter`, `flag`, `marker`,
  `var`): a number, a one-hot over a kind's members (a `var` holding a side,
  a space, an enum value…), a multi-hot for a list, one per side, nation,
  space or unit when the variable is kept per entity;
* the tracks the `display` blocks declare as a procedure's value
  (`track left "OPS Left" in operations`), while that procedure runs;
* the cards: a one-hot over the deck's card list for each pile the side may
  see the content of, and the size of every pile;
* the turn, the phase, and the pending decision: who decides, which choice,
  and (for the side deciding) how many options.

Nothing here names a game's space, card or variable: a variant with more
spaces, tracks or cards gets a longer vector.  What a side may see is decided
in one place, runtime/hidden.py: a pile is read only as `hidden_from` allows
(another side's hand and every draw pile by their size; its own draw pile as
a set, never in order), and the parts of the state no player sees
(`HIDDEN_STATE`: the generator, forced dice, the log) are never read.
"""

from __future__ import annotations

from itertools import compress, count
from operator import itemgetter, ne

from attrs import define

import numpy as np

from ..board.tracks import declared_tracks
from ..runtime.hidden import HIDDEN_STATE, hidden_from
from ..runtime.values import Entity, copy_data

# A variable kept per entity that holds one of more than this many values is
# given as the value's position (1-based, 0 for none) rather than a one-hot:
# a unit kept per unit would otherwise take units × units numbers.
ONE_HOT_MAX = 32

# Every number of the observation lies within ±BOUND (float32 holds every
# whole number up to it exactly); a larger one, which no real game holds, is
# clipped to it, so an observation is always inside its declared space.
BOUND = float(2 ** 24)

# What the observation reads of the state: never a part hidden.py hides from
# every side (checked when a layout is built).
READS = ("turn", "phase", "loc", "reduced", "control", "fort_destroyed", "vars", "piles", "played",
         "pending", "stack")


@define
class Field:
    """One field of the observation vector: `vector[start:stop]`, `shape` its
    shape there (row-major), and what it means."""

    name: str
    start: int
    stop: int
    shape: tuple
    meaning: str

    def as_row(self) -> dict:
        return {"name": self.name, "slice": f"{self.start}:{self.stop}", "shape": "×".join(map(str, self.shape)),
                "meaning": self.meaning}


@define
class _Var:
    """How one declared state variable is read into the vector."""

    name: str
    start: int
    scope: list | None          # the entities it is kept for (None: one value)
    members: dict | None        # value key → position, for a one-hot or multi-hot
    width: int                  # numbers per entity (1, or the members' count)
    as_list: bool
    default: object


class Layout:
    """The fields of one world's observation vector and what fills them."""

    def __init__(self, world):
        self.world = world
        self.fields: list[Field] = []
        self.size = 0
        self.template: np.ndarray | None = None
        self.vars: list[_Var] = []
        self.frame_tracks: list[tuple[str, str, int]] = []  # (procedure code, local, its position)
        self.markers: list[tuple[str, list, int]] = []  # (value, its spaces or units, its position)
        self._scope_cache: dict[str, dict] = {}
        # What observe() keeps: the last vector of what every side sees and
        # what each part of the state was then; for each side, its view of
        # the piles and the piles then.
        self._public: tuple | None = None
        self._sides: dict[str, tuple] = {}
        self._pile_at: dict[tuple, tuple] = {}  # (side, pile) → (kind's position, owner's, whether side sees its cards)

    def forget(self) -> None:
        """Drop what observe() keeps: the next observation is worked out afresh."""
        self._public = None
        self._sides = {}

    def add(self, name: str, shape: tuple, meaning: str) -> int:
        n = int(np.prod(shape)) if shape else 1
        start = self.size
        self.fields.append(Field(name, start, start + n, tuple(shape), meaning))
        self.size += n
        return start

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def _kind_pos(self, kind: str) -> int | None:
        return self._pile_kind_pos.get(kind)


_LAYOUTS: dict[tuple, Layout] = {}


def layout_of(world, markers: bool = False) -> Layout:
    """The layout of WORLD's observations, built on first use.  MARKERS:
    with the values the display declares as markers (below)."""
    found = _LAYOUTS.get((id(world), markers))
    if found is None or found.world is not world:
        found = _LAYOUTS[(id(world), markers)] = _build(world, markers)
    return found


def _kind_members(world, kind: str) -> list | None:
    """The entities of KIND in a fixed order (None when it is no kind)."""
    if kind == "space":
        return list(world.spaces)
    if kind == "unit":
        return list(world.units)
    if kind == "card":
        return list(world.cards)
    if kind == "side":
        return list(world.sides) + list(world.hostile_sides)
    if kind == "nation":
        return list(world.nations)
    if kind == "box":
        return list(world.boxes)
    found = world.by_kind.get(kind)
    return list(found.values()) if found else None


def _member_key(value) -> object:
    if isinstance(value, Entity):
        return (value.kind, value.index) if value.kind in ("unit", "card", "space") else (value.kind, value.key)
    return value


def _build(world, markers: bool = False) -> Layout:
    assert not set(READS) & set(HIDDEN_STATE), "the observation must not read what no side sees"
    w = world
    lay = Layout(w)
    sides = list(w.sides) + list(w.hostile_sides)
    lay._S, lay._U, lay._C, lay._N = len(w.spaces), len(w.units), len(w.cards), len(w.nations)
    lay._side_pos = {s.key: i for i, s in enumerate(sides)}
    lay._nsides = len(sides)
    marks_at, marks = _lay_out_board(lay, w, sides)
    _lay_out_units(lay, w)
    _lay_out_state(lay, w)
    if markers:
        _lay_out_markers(lay, w)
    _lay_out_cards(lay, w, sides)
    _lay_out_play(lay, w, sides)
    lay.template = np.zeros(lay.size, np.float32)
    lay.template[marks_at:marks_at + marks.size] = marks.ravel()
    for v in lay.vars:
        _fill_default(lay.template, v)
    _group_vars(lay)
    lay._template_cells = memoryview(lay.template)
    widest = max([3 + lay._B, lay._nsides] + [v.width for v in lay.vars])
    lay._zeros = memoryview(np.zeros(widest, np.float32))
    return lay


def _lay_out_board(lay: Layout, w, sides: list) -> tuple[int, np.ndarray]:
    """The spaces' fields; returns where their printed marks go and the marks."""
    S, N = lay._S, lay._N
    terrains = _kind_members(w, "terrain") or []
    terrain_pos = {t.key: i for i, t in enumerate(terrains)}
    marks = np.zeros((S, 5 + len(terrains)), np.float32)
    for sp in w.spaces:
        d = sp.data
        marks[sp.index, :5] = (bool(d.vp), d.fort or 0, bool(d.capital), bool(d.supply),
                               any(p is not None for p in d.ports))
        if d.terrain is not None and d.terrain.key in terrain_pos:
            marks[sp.index, 5 + terrain_pos[d.terrain.key]] = 1
    start = lay.add("space_marks", marks.shape,
                    "per space (in the order of the world's spaces): VP space, fort strength, capital, supply "
                    "source, port, then a one-hot of its terrain (" + ", ".join(terrain_pos) + "); printed on "
                    "the map, the same in every state")
    lay._control = lay.add("space_control", (S, len(sides)),
                           "per space: a one-hot of the side that controls it (" +
                           ", ".join(s.key for s in sides) + "), all zero for none")
    lay._fort = lay.add("space_fort_destroyed", (S,), "per space: 1 when its fort is destroyed")
    nation_of = np.array([w.nations.index(u.data.nation) if u.data.nation in w.nations else 0 for u in w.units],
                         np.int64)
    side_of = np.array([lay._side_pos.get(u.data.side.key, 0) if u.data.side is not None else 0
                        for u in w.units], np.int64)
    lay._nation_of, lay._side_of = nation_of, side_of
    lay._cf_full = np.array([u.data.full[0] if u.data.full else 0 for u in w.units], np.float32)
    lay._cf_reduced = np.array([(u.data.reduced or u.data.full or (0,))[0] for u in w.units], np.float32)
    # (the same as Python numbers, for a unit or two at a time: numpy's scalars are slow)
    lay._unit_facts = [(int(n), int(s), float(full), float(red)) for n, s, full, red in
                       zip(nation_of, side_of, lay._cf_full, lay._cf_reduced)]
    lay._full = lay.add("space_full_units", (S, N),
                        "per space and nation (" + ", ".join(n.key for n in w.nations) + "): its full-strength "
                        "units there")
    lay._reduced = lay.add("space_reduced_units", (S, N), "per space and nation: its reduced units there")
    lay._cf = lay.add("space_combat_factors", (S, len(sides)),
                      "per space and side: the combat factors of that side's units there (reduced ones at their "
                      "reduced factor)")
    return start, marks


def _lay_out_units(lay: Layout, w) -> None:
    U, B = lay._U, len(w.boxes)
    lay._B = B
    lay._units = lay.add("unit_state", (U, 3 + B),
                         "per unit (in the order of the world's units): on the map, reduced, its space's position "
                         "(1-based, over the space count; 0 off the map), then a one-hot of the box it is in (" +
                         ", ".join(b.key for b in w.boxes) + ")")


def _lay_out_state(lay: Layout, w) -> None:
    """The declared state, in four groups (each filled its own way):
    numbers, numbers kept per entity, one-hots kept per entity, the rest;
    then the display's tracks that are a procedure's value."""
    specs = []
    for name, decl in w.state_decls.items():
        scope = _kind_members(w, decl.scope.text) if decl.scope is not None else None
        typ = decl.type
        kind = typ.type.text if typ is not None and typ.type is not None else None
        members = _kind_members(w, kind) if kind not in (None, "int", "bool") else None
        as_list = bool(typ is not None and typ.is_list)
        default = w.state_start.get(name)
        what = f"{decl.state_kind} {name}" + (f" per {decl.scope.text}" if scope is not None else "")
        if members is not None and (scope is None or len(members) <= ONE_HOT_MAX) and not (scope and as_list):
            pos = {_member_key(m): i for i, m in enumerate(members)}
            shape = (len(scope), len(members)) if scope is not None else (len(members),)
            meaning = (f"{what}: " + ("a multi-hot of the " if as_list else "a one-hot of the ") +
                       f"{kind} it holds" + (f" ({', '.join(str(m.key) for m in members)})"
                                             if len(members) <= ONE_HOT_MAX else f" (in the world's {kind} order)"))
            width = len(members)
        else:
            if members is not None and not as_list:
                pos = {_member_key(m): i + 1 for i, m in enumerate(members)}
                meaning = f"{what}: the position (1-based, 0 for none) of the {kind} it holds"
            else:
                pos = None
                meaning = (f"{what}: how many items it holds" if as_list else
                           f"{what}: 1 when it is set" if decl.state_kind == "flag" else f"{what}: its value")
            shape = (len(scope),) if scope is not None else (1,)
            width = 1
        v = _Var(name, 0, scope, pos, width, as_list, default)
        specs.append((_group(v), len(specs), shape, meaning, v))
    for group, _, shape, meaning, v in sorted(specs, key=lambda spec: spec[:2]):
        v.start = lay.add(f"var:{v.name}", shape, meaning)
        lay.vars.append(v)

    for line in declared_tracks(w.program):
        if line.within is not None:
            start = lay.add(f"track:{line.name}", (2,),
                            f"the display's track '{line.label}' ({line.name} in {line.within}): 1 while "
                            f"{line.within} runs, then its value")
            lay.frame_tracks.append((f"procedure:{line.within}", line.name, start))



def _lay_out_markers(lay: Layout, w) -> None:
    """The display's markers that are values worked out for each space or
    unit (`marker out_of_supply "OOS"`): costly, so only when asked."""
    for name, kind in _value_markers(w):
        entities = list(w.spaces) if kind == "space" else list(w.units)
        start = lay.add(f"marker:{name}", (len(entities),),
                        f"per {kind}: the value {name} the display marks it with (yes 1, no 0, or the number)")
        lay.markers.append((name, entities, start))


def _lay_out_cards(lay: Layout, w, sides: list) -> None:
    from ..runtime.interpreter import new_state

    C = lay._C
    kinds = sorted({name.partition(":")[0] for name in new_state(w, 0, [])["piles"]})  # piles are KIND:SIDE
    lay._pile_kinds = kinds
    lay._pile_kind_pos = {k: i for i, k in enumerate(kinds)}
    lay._cards = lay.add("cards", (C, len(kinds), len(sides)),
                         "per card (in the deck's order: " + ", ".join(str(c.key) for c in w.cards[:3]) +
                         ", …), pile kind (" + ", ".join(kinds) + ") and side (" +
                         ", ".join(s.key for s in sides) + "): 1 when the card is in that pile and the side "
                         "observing may see it there (its own hand, its own draw pile as a set, every discard, "
                         "removed and in-play pile), else 0")
    lay._sizes = lay.add("pile_sizes", (len(kinds), len(sides)), "per pile kind and side: how many cards it holds")
    lay._played = lay.add("cards_played", (C,), "per card: 1 once its event has been played")
    lay._cards_span = (lay._cards, lay._played + C)


def _lay_out_play(lay: Layout, w, sides: list) -> None:
    """The turn, the phase and the pending decision."""
    lay._turn = lay.add("turn", (3,), "the turn, the first turn and the last turn of the scenario")
    lay._phases = list(dict.fromkeys(w.sequence))
    lay._phase_pos = {p: i for i, p in enumerate(lay._phases)}
    lay._phase = lay.add("phase", (len(lay._phases),),
                         "a one-hot of the phase under way (" + ", ".join(lay._phases) + ")")
    lay._choices = list(w.choices)
    lay._choice_pos = {c: i for i, c in enumerate(lay._choices)}
    lay._by = lay.add("decision_by", (len(sides),), "a one-hot of the side whose decision is pending")
    lay._choice = lay.add("decision_choice", (len(lay._choices),),
                          "a one-hot of the kind of choice pending (" + ", ".join(lay._choices) + ")")
    lay._own = lay.add("decision_own", (3,),
                       "for the side observing: 1 when the pending decision is its own, then (its own only) the "
                       "number of options and the page shown (see the action encoding)")


def _value_markers(w) -> list[tuple[str, str]]:
    """(value, kind) of each `marker` line of the display blocks naming a
    declared value of one space or one unit."""
    from ..board.svg import Display

    found = []
    for name in Display(w.program).markers:
        decl = w.program.decls["value"].get(name)
        if name in w.state_decls or decl is None or len(decl.params) != 1 or decl.params[0].type is None:
            continue
        kind = decl.params[0].type.text
        if kind in ("space", "unit"):
            found.append((name, kind))
    return found


def _write(vec: np.ndarray, v: _Var, at: int, value) -> None:
    """Write VALUE of variable V for the entity at position AT of its scope
    (a count, a position, a one-hot or a multi-hot: within ±BOUND, as a
    list holds fewer items than BOUND)."""
    base = v.start + at * v.width
    if v.members is None:
        if v.as_list:
            vec[base] = min(len(value), BOUND) if value else 0
        else:
            vec[base] = float(value) if isinstance(value, (int, float)) else (0.0 if value is None else 1.0)
        return
    if v.width == 1:  # a position
        if v.as_list:
            vec[base] = min(len(value), BOUND) if value else 0
        else:
            vec[base] = v.members.get(_member_key(value), 0) if value is not None else 0
        return
    vec[base:base + v.width] = 0
    if v.as_list:
        for item in value or ():
            p = v.members.get(_member_key(item))
            if p is not None:
                vec[base + p] = 1
    elif value is not None:
        p = v.members.get(_member_key(value))
        if p is not None:
            vec[base + p] = 1


def _fill_default(vec: np.ndarray, v: _Var) -> None:
    for at in range(len(v.scope) if v.scope is not None else 1):
        _write(vec, v, at, v.default)


def observe(lay: Layout, game, side: str, page: int = 0) -> np.ndarray:
    """SIDE's observation of GAME as a float32 vector of `lay.size` (a new
    array, the caller's to keep).

    It is worked out incrementally: the layout keeps the last vector of what
    every side sees (the board, the declared state, where play stands), and
    for each side its view of the piles, with what each part of the state
    was then, and writes again only the parts that differ now (most
    decisions change a few variables and move a unit or two): the spaces and
    units whose entries differ, the variables that differ (of one kept per
    entity, the entities whose entry differs), the piles that differ.  What
    differs is found by comparing the state with the kept copies (list
    against list, in C), never by trusting the caller: two games of one
    scenario observed in turn are each observed right."""
    s = game.s
    if lay._public is None:
        public = lay.template.copy()
        # (single numbers are written through a memoryview: a numpy item
        # assignment costs about three times as much)
        lay._public = (public, {}, memoryview(public))
    public, seen, cells = lay._public
    _observe_board(lay, s, public, seen, cells)
    _observe_vars(lay, s["vars"], public, seen, cells)
    if lay.frame_tracks:
        _observe_frame_tracks(lay, s["stack"], cells, seen)
    _observe_play(lay, s, cells, seen)
    if lay.markers:
        _observe_markers(lay, game, public)
    out = public.copy()
    a, b = lay._cards_span
    out[a:b] = _observe_cards(lay, s, side)
    p = s["pending"]
    if p is not None and p["by"] == side:
        out[lay._own:lay._own + 3] = (1, len(p["options"]), page)
    return out


def _changed(now: list, before: list) -> list[int]:
    """The positions where two lists of one length differ (compared in C)."""
    return list(compress(count(), map(ne, now, before)))


# The board's lists (a unit's place and strength, a space's control) are
# compared a stretch of this many at a time.
STRETCH = 16


def _changed_few(now: list, before: list) -> list[int]:
    """`_changed` for long lists of which a step changes a few items (the
    units' places, the spaces' control), the unchanged items being the very
    objects kept (`list(now)` earlier): each stretch of STRETCH items is
    compared as a whole, which tests each item by identity first, and only
    a stretch that differs is compared item by item.  Comparing every item
    with `!=` cost the observation a fifth of its instructions."""
    n = len(now)
    out: list[int] = []
    for a in range(0, n, STRETCH):
        b = a + STRETCH
        mine, theirs = now[a:b], before[a:b]
        if mine != theirs:
            out += compress(count(a), map(ne, mine, theirs))
    return out


def _observe_markers(lay: Layout, game, vec: np.ndarray) -> None:
    """The display's value markers, worked out by the interpreter (which
    remembers what it can from one decision to the next)."""
    from ..runtime import builtins as B
    from ..runtime.errors import GameError

    for name, entities, start in lay.markers:
        for i, e in enumerate(entities):
            try:
                vec[start + i] = _number(B.value_of(game, name, (e,)))
            except GameError:  # (a unit out of play has no supply to speak of, say)
                vec[start + i] = 0


def _observe_board(lay: Layout, s: dict, vec: np.ndarray, seen: dict, cells: memoryview) -> None:
    """Control, destroyed forts, and where the units are and how strong:
    only the spaces and units that changed since the last observation are
    written again (all of them at the first, or when many changed)."""
    S, nsides = lay._S, lay._nsides
    control, last = s["control"], seen.get("control")
    if control != last:
        block = vec[lay._control:lay._control + S * nsides].reshape(S, nsides)
        changed = range(S) if last is None else _changed_few(control, last)
        if len(changed) > MANY:
            array = np.array(control, dtype=object)
            for key, i in lay._side_pos.items():
                block[:, i] = array == key
        else:
            zeros = lay._zeros
            for i in changed:
                at = lay._control + i * nsides
                cells[at:at + nsides] = zeros[:nsides]
                held = lay._side_pos.get(control[i])
                if held is not None:
                    cells[at + held] = 1.0
        seen["control"] = list(control)
    if s["fort_destroyed"] != seen.get("fort"):
        vec[lay._fort:lay._fort + S] = np.array(s["fort_destroyed"], np.float32)
        seen["fort"] = list(s["fort_destroyed"])
    loc, red = s["loc"], s["reduced"]
    last_loc, last_red = seen.get("loc"), seen.get("reduced")
    if loc == last_loc and red == last_red:
        return
    if last_loc is not None:
        changed = _changed_few(loc, last_loc)
        if red != last_red:
            changed = sorted(set(changed).union(_changed_few(red, last_red)))
    if last_loc is None or len(changed) > MANY:
        _all_units(lay, loc, red, vec)
    else:
        for i in changed:
            _unit(lay, cells, i, last_loc[i], last_red[i], -1)
            _unit(lay, cells, i, loc[i], red[i], 1)
    seen["loc"], seen["reduced"] = list(loc), list(red)


# Past this many spaces or units changed, the board is written again whole.
MANY = 24


def _unit(lay: Layout, cells: memoryview, i: int, loc, reduced: bool, sign: int) -> None:
    """Add (SIGN 1) or take away (-1) unit I, at LOC and REDUCED, from the
    board's counts, and write (or clear) its own row (CELLS: the vector's)."""
    S = lay._S
    width = 3 + lay._B
    row = lay._units + i * width
    if sign < 0:
        cells[row:row + width] = lay._zeros[:width]
    else:
        cells[row + 1] = 1.0 if reduced else 0.0
    if loc is None or loc < 0:
        return
    if loc < S:
        nation, side, cf_full, cf_reduced = lay._unit_facts[i]
        at = (lay._reduced if reduced else lay._full) + loc * lay._N + nation
        cells[at] += sign
        at = lay._cf + loc * lay._nsides + side
        cells[at] += sign * (cf_reduced if reduced else cf_full)
        if sign > 0:
            cells[row] = 1.0
            cells[row + 2] = (loc + 1) / S
    elif sign > 0:
        cells[row + 3 + loc - S] = 1.0


def _all_units(lay: Layout, loc_list: list, red_list: list, vec: np.ndarray) -> None:
    S, U, N, nsides = lay._S, lay._U, lay._N, lay._nsides
    loc = np.array([-1 if x is None else x for x in loc_list], np.int64)
    red = np.array(red_list, bool)
    on_map = (loc >= 0) & (loc < S)
    full_here = on_map & ~red
    red_here = on_map & red
    vec[lay._full:lay._full + S * N] = np.bincount(loc[full_here] * N + lay._nation_of[full_here], minlength=S * N)
    vec[lay._reduced:lay._reduced + S * N] = np.bincount(loc[red_here] * N + lay._nation_of[red_here],
                                                         minlength=S * N)
    cf = np.where(red, lay._cf_reduced, lay._cf_full)
    vec[lay._cf:lay._cf + S * nsides] = np.bincount(loc[on_map] * nsides + lay._side_of[on_map],
                                                    weights=cf[on_map], minlength=S * nsides)
    width = 3 + lay._B
    units = vec[lay._units:lay._units + U * width].reshape(U, width)
    units[:] = 0
    units[:, 0] = on_map
    units[:, 1] = red
    units[on_map, 2] = (loc[on_map] + 1) / max(S, 1)
    in_box = loc >= S
    units[np.nonzero(in_box)[0], 3 + loc[in_box] - S] = 1


_NOTHING = object()  # what `seen` holds for a part never observed


def _observe_vars(lay: Layout, values: dict, vec: np.ndarray, seen: dict, cells: memoryview) -> None:
    """The declared state: each variable written again only when it changed
    (of one kept per entity, only the entities whose entry changed)."""
    a, b = lay._plain_span
    if b > a:
        got = _read(values, lay._plain_names, lay._plain_getter)
        last = seen.get("plain")
        if last is None:
            _plain_numbers(vec, a, b, got)
        elif got != last:
            for i in _changed(got, last):
                cells[a + i] = _clipped(got[i])
        seen["plain"] = got  # (numbers, yes/no, none: nothing in it changes in place)
    # The other variables: found changed in one pass (map and compare run in
    # C), each changed one written again.
    last = seen.get("vars")
    if last is None:
        last = seen["vars"] = [_NOTHING] * len(lay._tracked)
    now_all = _read(values, lay._tracked_names, lay._tracked_getter)
    for i in _changed(now_all, last):  # (one pass: a dict kept per entity is long to compare)
        now, before = now_all[i], last[i]
        v, stop, how, positions = lay._tracked[i]
        if positions is not None and _rewrite_entries(lay, v, how, positions, now, before, vec, cells):
            last[i] = dict(now) if now is not None else None
            continue
        cells[v.start:stop] = lay._template_cells[v.start:stop]
        if how == SCOPED_NUMBERS:
            if now:
                _scoped_numbers(v, positions, now, vec)
        elif how == SCOPED_ONE_HOT:
            if now:
                _scoped_one_hot(v, positions, now, vec)
        elif v.scope is None:
            _write(vec, v, 0, now)
        elif now:
            for key, item in now.items():
                at = positions.get(key)
                if at is not None:
                    _write(vec, v, at, item)
        last[i] = copy_data(now)  # (kept apart from the state, whose lists change in place)


def _read(values: dict, names: list, getter) -> list:
    """The values of the variables NAMES, read at once by GETTER (their
    itemgetter); none for one the state lacks."""
    try:
        got = getter(values)
    except KeyError:
        return list(map(values.get, names))
    return list(got) if len(names) != 1 else [got]


def _getter(names: list):
    return itemgetter(*names) if names else (lambda values: ())


def _plain_numbers(vec: np.ndarray, a: int, b: int, got: list) -> None:
    """The variables holding one number, written at once."""
    numbers = [0 if x is None else x for x in got]  # (numpy would read a none as nan)
    try:
        vec[a:b] = np.clip(np.array(numbers, np.float64), -BOUND, BOUND)
    except (TypeError, ValueError, OverflowError):  # an odd value among them
        vec[a:b] = [_clipped(x) for x in numbers]


def _rewrite_entries(lay: Layout, v: _Var, how: int, positions: dict, now, before, vec: np.ndarray,
                     cells: memoryview) -> bool:
    """Write again the entries of variable V (kept per entity) that differ
    between BEFORE, what the vector holds, and NOW; False when that cannot
    be told entry by entry (an entry holds a list), and V must be written
    whole.  A variable not yet observed, or holding none, is the template
    in the vector: no entry at all."""
    if now is None:
        now = {}
    if before is _NOTHING or before is None:
        before = {}
    if type(now) is not dict or type(before) is not dict:
        return False
    try:
        differ = {key for key, _ in now.items() ^ before.items()}
    except TypeError:  # (an entry that is a list)
        return False
    width, template = v.width, lay._template_cells
    for key in differ:
        at = positions.get(key)
        if at is None:
            continue
        base = v.start + at * width
        if key not in now:
            cells[base:base + width] = template[base:base + width]
        elif how == SCOPED_NUMBERS:
            cells[base] = _clipped(now[key])
        elif how == SCOPED_ONE_HOT:
            cells[base:base + width] = lay._zeros[:width]
            item = now[key]
            p = v.members.get(_member_key(item)) if item is not None else None
            if p is not None:
                cells[base + p] = 1.0
        else:
            cells[base:base + width] = template[base:base + width]
            _write(vec, v, at, now[key])
    return True


def _observe_frame_tracks(lay: Layout, stack: list, cells: memoryview, seen: dict) -> None:
    """The display's tracks that are a procedure's value, while it runs."""
    now = []
    for code, local, _ in lay.frame_tracks:
        shown = (0.0, 0.0)
        for frame in reversed(stack):
            if frame["code"] == code:
                if local in frame["l"]:
                    x = frame["l"][local]
                    shown = (1.0, min(max(float(x), -BOUND), BOUND) if isinstance(x, (int, float)) else 0.0)
                break
        now.append(shown)
    if now != seen.get("frames"):
        for (_, _, start), (held, x) in zip(lay.frame_tracks, now):
            cells[start] = held
            cells[start + 1] = x
        seen["frames"] = now


def _observe_cards(lay: Layout, s: dict, side: str) -> np.ndarray:
    """The piles as SIDE may see them (runtime/hidden.py decides), and the
    events played: the part of the vector from `cards` to `cards_played`
    (kept for SIDE, and written again only where a pile or the events
    played changed since its last observation)."""
    piles, played = s["piles"], s["played"]
    kept = lay._sides.get(side)
    if kept is None:
        a, b = lay._cards_span
        kept = lay._sides[side] = (np.zeros(b - a, np.float32), {}, [])
    block, last_piles, last_played = kept
    if piles == last_piles and played == last_played:
        return block
    kinds, C, nsides = lay._pile_kinds, lay._C, lay._nsides
    a = lay._cards_span[0]
    cards = block[lay._cards - a:lay._cards - a + C * len(kinds) * nsides].reshape(C, len(kinds), nsides)
    sizes = block[lay._sizes - a:lay._sizes - a + len(kinds) * nsides].reshape(len(kinds), nsides)
    for name in last_piles.keys() - piles.keys():  # (a pile gone: no state the interpreter makes)
        _observe_pile(lay, side, name, [], cards, sizes)
        del last_piles[name]
    for name, pile in piles.items():
        if pile != last_piles.get(name):
            _observe_pile(lay, side, name, pile, cards, sizes)
            last_piles[name] = list(pile)
    if played != last_played:
        at = lay._played - a
        block[at:at + C] = 0
        idx = [c for c in played if isinstance(c, int)]
        block[at + np.array(idx, np.int64)] = 1
        last_played[:] = played
    return block


def _observe_pile(lay: Layout, side: str, name: str, pile: list, cards: np.ndarray, sizes: np.ndarray) -> None:
    """Pile NAME (KIND:SIDE) as SIDE may see it: its size, and its cards
    (as a set, never their order) unless they are hidden from SIDE."""
    where = lay._pile_at.get((side, name))
    if where is None:
        kind, _, owner = name.partition(":")
        k, o = lay._kind_pos(kind), lay._side_pos.get(owner)
        where = lay._pile_at[(side, name)] = (k, o, hidden_from(side, name) != "cards") if k is not None \
            and o is not None else ()
    if not where:
        return
    k, o, visible = where
    sizes[k, o] = len(pile)
    if visible:
        cards[:, k, o] = 0
        if pile:
            cards[pile, k, o] = 1


def _observe_play(lay: Layout, s: dict, cells: memoryview, seen: dict) -> None:
    """The turn, the phase and the pending decision (whose it is and which
    choice: how many options it has is for the side deciding, observe()).
    Each one-hot is moved from where it was at the last observation."""
    p = s["pending"]
    turn = s["turn"]
    now = (lay._phase_pos.get(s["phase"]), None, None) if p is None else \
        (lay._phase_pos.get(s["phase"]), lay._side_pos.get(p["by"]), lay._choice_pos.get(p["choice"]))
    last_turn, last = seen.get("play", (_NOTHING, (None, None, None)))
    if turn != last_turn:
        w = lay.world
        for at, x in enumerate((turn, w.first_turn, w.last_turn), lay._turn):
            cells[at] = float(x)
    if now != last:
        for start, before, after in zip((lay._phase, lay._by, lay._choice), last, now):
            if before != after:
                if before is not None:
                    cells[start + before] = 0.0
                if after is not None:
                    cells[start + after] = 1.0
    seen["play"] = (turn, now)


def _scope_positions(lay: Layout, v: _Var) -> dict:
    found = lay._scope_cache.get(v.name)
    if found is None:
        found = lay._scope_cache[v.name] = {e.scope: i for i, e in enumerate(v.scope)}
    return found


PLAIN, SCOPED_NUMBERS, SCOPED_ONE_HOT, OTHER = range(4)


def _group(v: _Var) -> int:
    if v.as_list or (v.members is not None and v.scope is None):
        return OTHER
    if v.scope is None:
        return PLAIN
    if v.members is None:
        return SCOPED_NUMBERS
    return SCOPED_ONE_HOT if v.width > 1 else OTHER


def _group_vars(lay: Layout) -> None:
    """The variables by group (laid out one group after the other), so that
    the numbers are written by numpy in one go."""
    groups = {g: [v for v in lay.vars if _group(v) == g] for g in range(4)}
    lay._plain_names = [v.name for v in groups[PLAIN]]
    lay._plain_span = (groups[PLAIN][0].start, groups[PLAIN][-1].start + 1) if groups[PLAIN] else (0, 0)
    # (variable, end of its block, its group, its scope's positions)
    lay._tracked = [(v, v.start + v.width * (len(v.scope) if v.scope is not None else 1), g,
                     _scope_positions(lay, v) if v.scope is not None else None)
                    for g in (SCOPED_NUMBERS, SCOPED_ONE_HOT, OTHER) for v in groups[g]]
    lay._tracked_names = [v.name for v, _, _, _ in lay._tracked]
    lay._plain_getter, lay._tracked_getter = _getter(lay._plain_names), _getter(lay._tracked_names)


def _number(x) -> float:
    if x is None:
        return 0.0
    if isinstance(x, (int, float)):  # (a yes/no too)
        return float(x)
    return 1.0  # a value of another kind where a number was declared: present


def _clipped(x) -> float:
    """One number of the declared state as the vector holds it, what numpy
    makes of it in a list of them: none 0, yes/no 1 or 0, a number within
    ±BOUND, a value of another kind 1 (present)."""
    if x is None:
        return 0.0
    try:
        x = float(x)
    except (TypeError, ValueError):
        return 1.0
    except OverflowError:  # (a whole number beyond any float)
        return BOUND if x > 0 else -BOUND
    return min(max(x, -BOUND), BOUND)


def _scoped_numbers(v: _Var, positions: dict, kept: dict, vec: np.ndarray) -> None:
    at = [positions.get(k, -1) for k in kept]
    got = [0 if x is None else x for x in kept.values()]
    try:
        numbers = np.clip(np.array(got, np.float64), -BOUND, BOUND)
    except (TypeError, ValueError, OverflowError):  # an odd value among them
        numbers = np.array([_clipped(x) for x in got], np.float64)
    where = np.array(at, np.int64)
    known = where >= 0
    vec[v.start + where[known]] = numbers[known]


def _scoped_one_hot(v: _Var, positions: dict, kept: dict, vec: np.ndarray) -> None:
    members = v.members
    rows, cols, held = [], [], []
    for key, item in kept.items():
        at = positions.get(key)
        if at is None:
            continue
        held.append(at)
        if item is not None:
            p = members.get(_member_key(item))
            if p is not None:
                rows.append(at)
                cols.append(p)
    block = vec[v.start:v.start + len(v.scope) * v.width].reshape(len(v.scope), v.width)
    block[held] = 0  # (the default the template holds for them, replaced)
    block[rows, cols] = 1
