"""The static world of one scenario: every entity, the map as integer-indexed
adjacency, tables, and the compiled code of every procedure, phase, trigger,
card event and set-up block, read from the rule graph.

Built once per scenario and shared by every game of it; nothing in here
changes during play (that is `state`).
"""

from __future__ import annotations

from attrs import define, field

from ..errors import UsageError
from ..semantics.model import Program
from ..syntax import ast as A
from .compile import Code, Compiler, Hooked  # noqa: F401  (Hooked: where it was)
from .errors import LimitExceeded
from .limits import limits_of
from .tables import Table
from .values import Entity, Pool


class WorldError(Exception):
    """The sources compile but cannot be played (e.g. a scenario with no sequence)."""


@define
class Unit:
    name: str
    nation: Entity
    side: Entity | None
    type: Entity | None
    full: tuple[int, int, int]
    reduced: tuple[int, int, int] | None
    rp: Entity | None
    never_replaced: bool
    near_east: bool


@define
class Space:
    name: str
    nation: Entity | None
    terrain: Entity | None
    map: Entity | None
    vp: bool
    fort: int
    capital: bool
    supply: bool
    supply_for: Entity | None
    ports: list
    control: Entity | None
    at: tuple | None


@define(frozen=True)
class Term:
    """One term of the evaluation: its name, its weight, the value that
    works it out and the rules it cites."""

    name: str
    weight: int
    value: str
    cites: tuple[str, ...]
    note: str | None


def _with_term_values(program: Program) -> tuple[Program, list[Term]]:
    """The program with each term's expression as a value of its own (a
    name no source can clash with: the first free one of `term_NAME`,
    `term_NAME_`, …), so terms are compiled, and remembered across
    decisions, like any value; and the terms."""
    decls = program.all("term")
    if not decls:
        return program, []
    program = program.derived()
    values = program.decls["value"]
    terms = []
    for t in decls:
        name = f"term_{t.key}"
        while name in values:
            name += "_"
        values[name] = A.ValueDecl(t.span, A.Name(name, t.name.span), params=list(t.params), expr=t.expr,
                                   cites=list(t.cites), note=t.note)
        terms.append(Term(t.key, t.weight, name, tuple(c.number for c in t.cites), t.note))
    return program, terms


@define
class World:
    program: Program
    scenario: A.ScenarioDecl
    sides: list[Entity] = field(factory=list)  # the playing sides
    hostile_sides: list[Entity] = field(factory=list)  # sides no player plays, enemies of all (`hostile`)
    nations: list[Entity] = field(factory=list)
    spaces: list[Entity] = field(factory=list)
    units: list[Entity] = field(factory=list)
    cards: list[Entity] = field(factory=list)
    boxes: list[Entity] = field(factory=list)  # box instances: one per box, or one per side
    by_kind: dict[str, dict[str, Entity]] = field(factory=dict)
    names: dict[str, object] = field(factory=dict)  # global name → runtime value
    adjacency: list[list[tuple[int, frozenset | None]]] = field(factory=list)
    neighbours: list[tuple[Entity, ...]] = field(factory=list)  # each space's adjacency, as the spaces
    tables: dict[str, Table] = field(factory=dict)
    state_decls: dict[str, A.StateDecl] = field(factory=dict)
    values: dict[str, tuple] = field(factory=dict)       # name → (param names, compiled base)
    modifiers: dict[str, list] = field(factory=dict)     # value name → [(Hooked, contribution, fn, when)]
    restrictions: dict[str, list] = field(factory=dict)  # choice → [(Hooked, var names, when, unless, guard)]
    triggers: dict[str, list[Hooked]] = field(factory=dict)
    choices: dict[str, A.ChoiceDecl] = field(factory=dict)
    codes: dict[str, Code] = field(factory=dict)
    playable: dict[int, object] = field(factory=dict)
    sequence: list[str] = field(factory=list)
    first_turn: int = 1
    last_turn: int = 1
    setup: list[str] = field(factory=list)
    # side key → the location of the box that `receives eliminated` (where `eliminate` puts units)
    eliminated_box: dict[str, int] = field(factory=dict)
    options: dict[str, object] = field(factory=dict)  # option name → on/off, a number or a name (or None)
    limits: dict[str, int] = field(factory=dict)  # limit name → its value for this scenario (limits.py)
    state_start: dict[str, object] = field(factory=dict)
    value_deps: dict[str, tuple | None] = field(factory=dict)  # None: never cached across decisions
    # Every area some remembered value reads: a write elsewhere expires nothing.
    read_areas: frozenset = frozenset()
    value_costly: set = field(factory=set)  # values worth remembering at all
    # Values that read no state at all (`sr_port_spaces(p)`): worked out once
    # per world and shared by all its games (builtins.static_value).
    static_values: set = field(factory=set)
    static_results: dict = field(factory=dict)
    # A box declared per side or nation, by its declaration's key and the
    # entity (`reserve[u.side]`: builtins.index), once asked.
    boxes_by_entity: dict = field(factory=dict)
    # A nation's or side's units, in play or not (builtins.units_of).
    pieces_by_owner: dict = field(factory=dict)
    # A nation → the indexes of its spaces (builtins._war_spaces), once asked.
    spaces_by_nation: dict = field(factory=dict)
    # A nation's or side's units with their numbers (builtins.units_of), and
    # each unit's side by its number (builtins.has_enemy_units_at), once
    # asked: read in a loop, a unit's attributes cost the compiled runtime a
    # lookup each.
    numbered_pieces: dict = field(factory=dict)
    unit_sides: tuple = ()
    # The units by name, in the map's order of units (builtins.pool), once asked.
    units_by_key: dict = field(factory=dict)
    # The units each card lists (`c.reinforcements`), by card index, once asked.
    card_units: dict = field(factory=dict)
    # The playing sides' in-play piles (Game.card_in_play), named once they are asked.
    in_play_piles: tuple | None = None
    # Values kept up to date one space at a time: name → (areas of the space
    # its test reads, the other areas it reads, the test).
    space_filters: dict = field(factory=dict)
    # Space filters whose test reads the neighbours of its space: name → the
    # areas of the neighbours it reads; and, for each space, the spaces it
    # is a neighbour of (the ones to test again when it changes).
    filter_neighbours: dict = field(factory=dict)
    neighbour_of: tuple = ()
    # Of those, the ones testing `any(P for x in adjacent(t))`: name → P as a
    # test of one space (Compiler.neighbour_test), kept for every space.
    filter_inner: dict = field(factory=dict)
    # Remembered values: name → [calls, calls answered from memory]; the ones
    # no longer remembered (builtins._stop_remembering), and the hook that
    # rebinds their generated name.
    cache_stats: dict = field(factory=dict)
    uncached: set = field(factory=set)
    rebind_uncached: object = None
    # (area, entity) → the name of the entity's own area (deps.entity_area).
    area_names: dict = field(factory=dict)
    # Choice → f(g, *values): does any restriction forbid this option (generated code).
    forbid_any: dict = field(factory=dict)
    # Cached values → the areas they read themselves (not through another cached
    # value): (whole areas, (argument position, area) for an argument's own area).
    value_areas: dict[str, tuple] = field(factory=dict)
    # The evaluation's terms (`term`), in source order: each worked out as a
    # value of its own (so it is remembered like one), under `value` here.
    terms: list["Term"] = field(factory=list)

    # ------------------------------------------------------------ lookups
    def entity(self, kind: str, key: str, index: int | None = None) -> Entity:
        if kind == "unit" and index is not None:
            return self.units[index]
        found = self.by_kind.get(kind, {}).get(key)
        if found is None and kind == "pile" and key.partition(":")[2] in self.by_kind.get("side", {}):
            found = self.by_kind.setdefault("pile", {})[key] = Entity("pile", key)  # made on first use
        if found is None:
            raise KeyError(f"no {kind} named {key!r} in this scenario")
        return found

    @property
    def location_count(self) -> int:
        return len(self.spaces) + len(self.boxes)

    def location(self, entity: Entity) -> int:
        """The location id of a space or box instance."""
        if entity.kind == "space":
            return entity.index
        if entity.kind == "box":
            return len(self.spaces) + entity.index
        raise TypeError(f"{entity.key} is not a place")

    def place_entity(self, loc: int | None) -> Entity | None:
        if loc is None or loc < 0:
            return None
        if loc < len(self.spaces):
            return self.spaces[loc]
        return self.boxes[loc - len(self.spaces)]


def _side_of_nation(program: Program, nation: A.NationDecl, sides: dict[str, Entity]) -> Entity | None:
    return sides.get(nation.side.text) if nation.side else None


class OptionError(UsageError):
    """An option a user set that the scenario does not declare, or a value it
    does not take (a usage error: exit status 2)."""


def option_values(program: Program, given: dict[str, str] | None = None) -> dict[str, object]:
    """The value of every option for a game of `program.scenario`: what
    `given` sets (NAME → the text a user typed), else the scenario's default.
    An option only another scenario declares (a shared rule file may read it)
    stays at that declaration's default.  Raises OptionError for a name the
    scenario does not declare or a value its declaration does not take."""
    scenario = program.scenario
    values: dict[str, object] = {}
    for other in sorted(program.all("scenario") + program.all("ruleset"), key=lambda sc: sc.key):
        for o in other.options:
            values.setdefault(o.name.text, o.default)
    own = {o.name.text: o for o in scenario.options}
    for name, o in own.items():
        values[name] = o.default
    for name, text in (given or {}).items():
        o = own.get(name)
        if o is None:
            from ..diagnostics import did_you_mean

            hint = did_you_mean(name, own)
            known = f"its options: {', '.join(sorted(own))}" if own else "it declares no options"
            raise OptionError(f"scenario '{scenario.key}' has no option '{name}'"
                              + (f" ({hint})" if hint else "") + f"; {known}")
        try:
            values[name] = o.parse_value(str(text))
        except ValueError as err:
            raise OptionError(str(err)) from None
    return values


def build_world(program: Program, graph, options: dict[str, object] | None = None) -> World:
    """The world of `program.scenario`; `options` are the values of its
    options (option_values), the declared defaults when not given."""
    scenario = program.scenario
    if scenario is None:
        raise WorldError("no scenario chosen")
    program, terms = _with_term_values(program)
    w = World(program, scenario, terms=terms)
    first, last = scenario.turns or (1, 1)
    w.limits = limits_of(scenario, last - first + 1)
    kinds: dict[str, dict[str, Entity]] = {}

    def add(kind: str, key: str, index: int, data=None) -> Entity:
        e = Entity(kind, key, index, data)
        kinds.setdefault(kind, {})[key] = e
        return e

    for i, d in enumerate(program.all("side")):
        # A hostile side (`side x hostile`) has no player: it is not among the
        # playing sides (`sides`, the agents, the piles), only an enemy of them.
        (w.hostile_sides if d.hostile else w.sides).append(add("side", d.key, i, d))
    for i, d in enumerate(program.all("map")):
        add("map", d.key, i, d)
    for enum in program.all("enum"):
        for i, m in enumerate(enum.members):
            add(enum.key, m.text, i, enum)
    sides = kinds.get("side", {})
    for i, d in enumerate(program.all("nation")):
        e = add("nation", d.key, i, d)
        e.data = (d, _side_of_nation(program, d, sides))
        w.nations.append(e)
    nations = kinds.get("nation", {})

    def named(kind: str, name: A.Name | None):
        if name is None or name.text == "none":
            return None
        return kinds.get(kind, {}).get(name.text)

    for i, d in enumerate(program.all("space")):
        data = Space(d.key, named("nation", d.nation), named("terrain", d.terrain), named("map", d.map), d.vp,
                     d.fort, d.capital, d.supply, named("side", d.supply_for) or named("nation", d.supply_for),
                     [named("side", p) for p in d.ports], named("side", d.control), d.at)
        w.spaces.append(add("space", d.key, i, data))
    for d in program.all("box"):
        if d.per is not None and d.per.text == "side":
            for s in w.sides + w.hostile_sides:
                e = add("box", f"{d.key}[{s.key}]", len(w.boxes), (d, s))
                w.boxes.append(e)
                if d.receives is not None and d.receives.text == "eliminated":
                    w.eliminated_box[s.key] = len(w.spaces) + e.index
        else:
            w.boxes.append(add("box", d.key, len(w.boxes), (d, None)))
    # Units: every piece is its own entity; a name with several pieces is a pool.
    pools: dict[str, list[Entity]] = {}
    for d in program.all("unit"):
        nation = nations.get(d.nation.text) if d.nation else None
        side = nation.data[1] if nation is not None else None
        data = Unit(d.key, nation, side, named("unit_type", d.unit_type), d.full, d.reduced,
                    named("nation", d.rp) or named("rp_pool", d.rp) or nation, d.never_replaced, d.near_east)
        if d.count > w.limits["units"]:
            raise LimitExceeded(f"unit '{d.key}' has count {d.count}, more than the limit of {w.limits['units']} "
                                "pieces (`limit units N` in the scenario raises it)", d.name.span, limit="units")
        if len(w.units) + d.count > w.limits["units"]:
            # (the bound is on the world's pieces, not one declaration's:
            # fifty declarations of 200,000 took 82 s and 2.4 GB to build)
            raise LimitExceeded(f"unit '{d.key}' brings the pieces of the world to {len(w.units) + d.count}, more "
                                f"than the limit of {w.limits['units']} (`limit units N` in the scenario raises "
                                "it)", d.name.span, limit="units")
        for _ in range(d.count):
            e = Entity("unit", d.key, len(w.units), data)
            w.units.append(e)
            pools.setdefault(d.key, []).append(e)
    units_by_name = {}
    for name, members in pools.items():
        units_by_name[name] = members[0] if len(members) == 1 else Pool(name, members)
    kinds["unit"] = units_by_name
    cards = sorted(program.all("card"), key=lambda c: (c.side.text if c.side else "", c.number))
    for i, d in enumerate(cards):
        e = add("card", d.key, i, d)
        w.cards.append(e)
        kinds.setdefault("card_name", {})[d.name.text] = e
    w.by_kind = kinds
    w.adjacency = [[] for _ in w.spaces]
    index = kinds.get("space", {})
    for c in program.connections:
        a, b = index[c.a.text].index, index[c.b.text].index
        only = frozenset(n.text for n in c.only) if c.dotted else None
        w.adjacency[a].append((b, only))
        w.adjacency[b].append((a, only))
    w.neighbours = [tuple(w.spaces[j] for j, _ in lines) for lines in w.adjacency]
    for d in program.all("table"):
        w.tables[d.key] = Table.from_decl(d, w)
    w.state_decls = dict(program.decls["state"])
    w.choices = dict(program.decls["choice"])
    w.first_turn, w.last_turn = scenario.turns or (1, 1)
    w.options = dict(options) if options is not None else option_values(program)
    if scenario.sequence is None:
        raise WorldError(f"scenario '{scenario.key}' names no `sequence`: the interpreter would not know "
                         "which phases make a turn")
    seq = program.decls["sequence"].get(scenario.sequence.text)
    w.sequence = [n.text for n in seq.phases]
    _global_names(w, program)
    compiler = Compiler(w, graph)
    try:
        compiler.compile_all()
        _value_dependencies(w)
        compiler.bind_values()
        compiler.forbid_functions()
        compiler.space_filters()
        _start_values(w, compiler)
    except RecursionError:
        # Values defined through hundreds of values inside one another: the
        # world cannot be worked out (nor could the game work them out).
        raise LimitExceeded("values are defined through one another too deeply (hundreds of values inside one "
                            "another) for the world to be built", scenario.name.span, limit="value_depth") from None
    return w


def _value_dependencies(w: World) -> None:
    from .deps import UNCACHEABLE, Dependencies

    deps = Dependencies(w)
    for name in w.values:
        areas = deps.of_value(name)
        costly = deps.costly(name)
        if costly:
            w.value_costly.add(name)
        w.value_deps[name] = tuple(sorted(areas)) if costly and UNCACHEABLE not in areas else None
        if costly and not areas and not w.modifiers.get(name):
            w.static_values.add(name)
    cached = {name for name, areas in w.value_deps.items() if areas is not None}
    w.read_areas = frozenset(a for name in cached for a in w.value_deps[name])
    for name in cached:
        areas = deps.direct(name, cached)
        w.value_areas[name] = (tuple(sorted(a for a in areas if isinstance(a, str))),
                               tuple(sorted(a for a in areas if isinstance(a, tuple))))


class _Probe:
    """Enough of a game to evaluate constant start values."""

    def __init__(self, w):
        self.w = w
        self.s = {"vars": {}, "turn": w.first_turn}
        self.trace = None
        self.memo = None
        self.cache_values = False


def _start_values(w: World, compiler) -> None:
    from .errors import GameError

    probe = _Probe(w)
    for name, decl in w.state_decls.items():
        if decl.start is not None:
            try:
                value = compiler.expr(decl.start, set())(probe, {})
            except (GameError, KeyError, TypeError) as err:
                raise WorldError(f"{decl.start.span}: the start value of '{name}' must not depend on the "
                                 f"game ({err})") from None
        elif decl.state_kind in ("track", "counter"):
            value = decl.low if decl.low is not None else 0
        elif decl.state_kind == "flag":
            value = False
        elif decl.state_kind == "marker":
            value = decl.low if decl.low is not None else False
        else:
            value = None
        w.state_start[name] = value


def _global_names(w: World, program: Program) -> None:
    """What each global name means at run time (entities and tables; state,
    values and constants are read by compiled closures)."""
    names: dict[str, object] = {}
    for kind in ("side", "nation", "map", "space"):
        names.update(w.by_kind.get(kind, {}))
    for enum in program.all("enum"):
        names.update(w.by_kind.get(enum.key, {}))
    names.update(w.by_kind.get("unit", {}))
    for d in program.all("box"):
        names[d.key] = d
    for key, table in w.tables.items():
        names[key] = table
    for key in program.decls["phase"]:
        names[key] = Entity("phase", key)
    for card_name, e in w.by_kind.get("card_name", {}).items():
        names.setdefault(card_name, e)
    w.names = names
