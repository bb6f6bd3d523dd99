"""The closed vocabulary of the language: effects, built-in queries, attributes
and engine events.

This table is the single source of truth for three consumers: the checker
(argument kinds and arity), the interpreter (which implements each entry), and
the docs (the vocabulary page is generated from `doc` and `example`).  Adding a
card never needs a new entry here; adding an entry is a language change and is
documented as one.

Kinds are strings: ``int bool text side nation space unit card box map table
pile phase`` an enumeration's name, ``list:KIND`` or ``any``.
"""

from __future__ import annotations

from attrs import define, field

ANY = "any"
ENTITY_KINDS = ("side", "nation", "map", "space", "box", "unit", "card", "table", "pile", "phase")
SCALAR_KINDS = ("int", "bool", "text")


def list_of(kind: str) -> str:
    return f"list:{kind}"


def element_kind(kind: str) -> str:
    return kind[5:] if kind.startswith("list:") else ANY


@define(frozen=True)
class Slot:
    kinds: tuple[str, ...]
    required: bool = True
    doc: str = ""


@define(frozen=True)
class Verb:
    name: str
    obj: Slot | None
    preps: dict[str, Slot]
    doc: str
    example: str
    writes: str = ""  # which part of the state it changes, for the graph


@define(frozen=True)
class Function:
    name: str
    params: tuple[tuple[str, tuple[str, ...]], ...]
    returns: str
    doc: str
    example: str
    optional_from: int | None = None  # params from this index on may be left out


@define(frozen=True)
class Event:
    name: str
    params: tuple[tuple[str, str], ...]
    doc: str


@define(frozen=True)
class Constant:
    name: str
    kind: str
    doc: str


UNIT_OR_LIST = ("unit", list_of("unit"))
WHERE = ("space", "box", "pile")

VERBS: dict[str, Verb] = {v.name: v for v in [
    Verb("set", Slot((ANY,)), {"to": Slot((ANY,))},
         "Give a state variable (or one entry of a scoped one, or a local) a new value.",
         "set race_to_the_sea_played to true\nset trench[Verdun] to 1", writes="state"),
    Verb("shift", Slot(("int",)), {"by": Slot(("int",))},
         "Add to a numeric state variable, keeping it inside its declared range.",
         "shift vp by -1\nshift war_status[ap] by card.war_status", writes="state"),
    Verb("move", Slot(UNIT_OR_LIST), {"to": Slot(WHERE)},
         "Move units to a space or box (no movement rules apply: those are procedures).",
         "move u to dest", writes="board"),
    Verb("place", Slot(UNIT_OR_LIST), {"at": Slot(WHERE), "with": Slot(("strength",), required=False)},
         "Bring units into play at a space or box; a corps name takes a free piece of that pool.",
         "place 'GE 1' at Aachen\nplace 'AH 4' at Lemberg with reduced", writes="board"),
    Verb("reduce", Slot(UNIT_OR_LIST), {"by": Slot(("int",), required=False)},
         "Take step losses: a full unit flips to reduced, a reduced one is eliminated.",
         "reduce u by 1", writes="board"),
    Verb("restore", Slot(UNIT_OR_LIST), {"by": Slot(("int",), required=False)},
         "Give back step losses: a reduced unit flips to full strength.",
         "restore u", writes="board"),
    Verb("eliminate", Slot(UNIT_OR_LIST), {"to": Slot(("box",), required=False)},
         "Eliminate units; they go to their side's eliminated box unless another box is named.",
         "eliminate u\neliminate u to removed[ap]", writes="board"),
    Verb("remove_unit", Slot(UNIT_OR_LIST), {},
         "Take units out of the game for good.", "remove_unit u", writes="board"),
    Verb("put", Slot(("card", list_of("card"))), {"into": Slot(("pile",))},
         "Move cards into a pile (hand, draw pile, discard pile, removed, in play).",
         "put c into discard_pile(ap)", writes="cards"),
    Verb("discard", Slot(("card", list_of("card"))), {},
         "Put cards on their owner's discard pile.", "discard c", writes="cards"),
    Verb("draw", Slot(("side",)), {"to": Slot(("int",))},
         "Deal cards from a side's draw pile until its hand holds the given number, reshuffling the "
         "discards into the draw pile when it runs out.",
         "draw ap to 7", writes="cards"),
    Verb("deal", Slot(("card", list_of("card"))), {"to": Slot(("side",))},
         "Put named cards straight into a side's hand.", "deal 'Guns of August' to cp", writes="cards"),
    Verb("shuffle", Slot(("pile",)), {"into": Slot(("pile",), required=False)},
         "Shuffle a pile, or shuffle it into another pile.",
         "shuffle discard_pile(ap) into draw_pile(ap)", writes="cards"),
    Verb("destroy", Slot(("space",)), {},
         "Destroy the fort in a space.", "destroy Liege", writes="board"),
    Verb("emit", Slot((ANY,)), {},
         "Raise a declared signal so its triggers run.", "emit capital_fell(Paris)", writes="events"),
    Verb("play", Slot(("card",)), {},
         "Run a card's event: its `event` block, with `this_card` naming the card. The card is then "
         "counted as played (see played()).",
         "play c", writes="cards"),
    Verb("log", Slot(("text",)), {},
         "Write a line to the game log; {expression} inside the text shows its value ({{ and }} write braces).",
         "log \"{u} is out of supply\"", writes="log"),
    Verb("end_game", Slot(("side", "none")), {"because": Slot(("text",), required=False),
                                               "as": Slot(("result",), required=False)},
         "End the game with a winner (or none, a draw); `as NAME`: as a result the scenario declares "
         "(`result both_lose`, a graded victory), counted apart by simulate.",
         "end_game cp because \"automatic victory\"\nend_game none as both_lose because \"peace accepted\"",
         writes="game"),
]}

FUNCTIONS: dict[str, Function] = {f.name: f for f in [
    Function("units_in", (("where", WHERE),), list_of("unit"),
             "The units in a space or box.", "units_in(Verdun)"),
    Function("units_of", (("owner", ("nation", "side")),), list_of("unit"),
             "Every unit in play of a nation or side.", "units_of(ge)"),
    Function("adjacent", (("s", ("space",)),), list_of("space"),
             "The spaces connected to a space by any line.", "adjacent(Sedan)"),
    Function("adjacent_for", (("s", ("space",)), ("u", ("unit",))), list_of("space"),
             "The spaces a unit may reach from a space in one step (dotted lines only for their nations).",
             "adjacent_for(s, u)"),
    Function("connected", (("a", ("space",)), ("b", ("space",))), "bool",
             "Whether two spaces share a line.", "connected(Paris, Chateau_Thierry)"),
    Function("distance", (("a", ("space",)), ("b", ("space", list_of("space")))), "int",
             "The fewest connections between two spaces, or from a space to the nearest space of a list "
             "(none if there is no path).", "distance(Paris, Berlin)"),
    Function("playable", (("c", ("card",)),), "bool",
             "Whether a card's `playable when` condition holds now (true if it has none).",
             "playable(c)"),
    Function("units_at", (("where", WHERE), ("owner", ("side", "nation"))), list_of("unit"),
             "The units in a space or box belonging to a side or nation.", "units_at(s, cp)"),
    Function("pool", (("u", ("unit",)),), list_of("unit"),
             "Every piece sharing a unit's name (a corps pool), wherever they are.", "pool(GEc)"),
    Function("available", (("u", ("unit",)),), "int",
             "How many pieces of a unit's name have not yet entered play.", "available(GEc)"),
    Function("rp_of", (("c", ("card",)), ("n", ("nation", "rp_pool"))), "int",
             "The replacement points a card gives a nation (or pool) when played for RP.", "rp_of(c, fr)"),
    Function("distinct", (("xs", (ANY,)),), list_of(ANY),
             "A list without repeats, in first-seen order.", "distinct([u.nation for u in units_in(s)])"),
    Function("random_pick", (("xs", (ANY,)),), ANY,
             "Not a player decision: one item picked with the game's dice (the seeded generator).",
             "random_pick(hand(ap))"),
    Function("other", (("s", ("side",)),), "side",
             "The other playing side; none for a hostile side (its enemies are every other side: "
             "`enemies_of`).", "other(player)"),
    Function("enemy", (("p", ("side",)), ("x", ("side", "unit", "nation"))), "bool",
             "Whether a side, or the side of a unit or nation, is an enemy of side p: it is a side and not p. "
             "The playing sides are enemies of each other; a `hostile` side is an enemy of every side and "
             "every side of it; none (no side) is nobody's enemy and has none.", "enemy(player, s.control)"),
    Function("enemies_of", (("p", ("side",)),), list_of("side"),
             "Every side that is an enemy of p: the other playing side and every `hostile` side.",
             "any(s.control in enemies_of(player) for s in adjacent(t))"),
    Function("enemy_units_at", (("where", WHERE), ("p", ("side",))), list_of("unit"),
             "The units in a space or box that belong to an enemy of side p, a `hostile` side's included "
             "(with two playing sides and no hostile one: `units_at(where, other(p))`).",
             "len(enemy_units_at(t, player)) > 0"),
    Function("side_of", (("x", ("nation", "unit", "card")),), "side",
             "The side a nation, unit or card belongs to.", "side_of(it)"),
    Function("at_war", (("n", ("nation",)),), "bool", "Whether a nation has entered the war.", "at_war(it)"),
    Function("hand", (("s", ("side",)),), "pile", "A side's hand.", "hand(ap)"),
    Function("draw_pile", (("s", ("side",)),), "pile", "A side's draw pile.", "draw_pile(ap)"),
    Function("discard_pile", (("s", ("side",)),), "pile", "A side's discard pile.", "discard_pile(cp)"),
    Function("removed_pile", (("s", ("side",)),), "pile", "A side's removed (played `*`) cards.",
             "removed_pile(cp)"),
    Function("in_play", (("s", ("side",)),), "pile",
             "A side's cards in front of it: combat cards kept face up, lasting events.", "in_play(ap)"),
    Function("cards_in", (("p", ("pile",)),), list_of("card"), "The cards in a pile.", "cards_in(hand(ap))"),
    Function("played", (("c", ("card",)),), "bool",
             "Whether a card's event has been played this game.", "played('Race to the Sea')"),
    Function("stack_size", (("s", ("space",)),), "int", "How many units are in a space.", "stack_size(s)"),
    Function("lookup", (("t", ("table",)), ("row", (ANY,)), ("col", (ANY,))), ANY,
             "A table cell; also written t[row, col].", "lookup(army_fire, 15, 2)", optional_from=2),
    Function("column_index", (("t", ("table",)), ("key", (ANY,))), "int",
             "The position of the highest column whose key does not exceed a value.",
             "column_index(army_fire, 15)"),
    Function("row_index", (("t", ("table",)), ("key", (ANY,))), "int",
             "The position of the row whose key matches a value (ranges and N+ keys included).",
             "row_index(army_fire, 15)"),
    Function("row_at", (("t", ("table",)), ("i", ("int",)), ("col", (ANY,))), ANY,
             "A cell by row position, clamped to the table's edges (for column shifts).",
             "row_at(army_fire, i - 1, die)"),
    Function("clamp", (("x", ("int",)), ("lo", ("int",)), ("hi", ("int",))), "int",
             "A number held between two bounds.", "clamp(die + drm, 1, 6)"),
    Function("abs", (("x", ("int",)),), "int", "The absolute value.", "abs(vp - 10)"),
    Function("len", (("xs", (ANY,)),), "int", "How many items a list or pile holds.", "len(hand(ap))"),
    Function("option", (("name", ("text",)),), ANY,
             "A scenario option's value: true or false for an on/off option, a number for a `range` "
             "option, the chosen name as text (or none) for a `one of` option. The name is written as "
             "text, and some scenario must declare it (E0504); the value is what the game was started "
             "with (`--option`), else the declared default.", "option(\"eight_card_hands\")"),
    Function("adjacent_open", (("s", ("space",)), ("ns", (list_of("nation"),))), list_of("space"),
             "The spaces connected to a space by a solid line, or by a dotted line that names one of the "
             "given nations.", "adjacent_open(s, [ru, ro])"),
    Function("reach_along", (("ns", (list_of("nation"),)), ("starts", ("space", list_of("space"))),
                             ("within", (list_of("space"),))), list_of("space"),
             "The spaces reached from the starting spaces along solid lines and the dotted lines that name "
             "one of the given nations, entering only spaces of a list; the starts are included.",
             "reach_along([ru], sources, open_spaces)"),
    Function("supply_for", (("s", ("space",)),), ANY,
             "Whom a supply source feeds: the side or nation named by its `supply` mark on the map "
             "(none if the space is not a source, or its mark names no one).", "supply_for(Belgrade)"),
    Function("solid_adjacent", (("s", ("space",)),), list_of("space"),
             "The spaces connected to a space by a solid line (dotted lines left out).",
             "solid_adjacent(Sedan)"),
    Function("reduced_lf", (("u", ("unit",)),), "int",
             "The loss factor printed on a unit's reduced side (its full-side LF if it has none).",
             "reduced_lf(u)"),
    Function("subsets", (("xs", (ANY,)),), list_of(ANY),
             "Every non-empty sub-list of a short list (at most 8 items), keeping the list's order, "
             "shortest first.", "subsets(units_at(s, player))"),
    Function("best_fill", (("groups", (ANY,)), ("limit", ("int",))), "int",
             "The largest total not above a limit made by taking at most one number from each list of a "
             "list of lists (0 if none fits).", "best_fill([[3, 6], [1, 2]], 5)"),
]}

# How a card is used is the rules' business, not the engine's: there is no
# engine event for a card play.  The action phase raises the declared signal
# `action_taken(player, use, c)` after every action (rules/08-action-phase.pog),
# and `played(c)` tells whether an event was ever played.
EVENTS: dict[str, Event] = {e.name: e for e in [
    Event("game_started", (), "After the scenario's set-up, before the first phase."),
    Event("turn_started", (("t", "int"),), "At the start of each turn."),
    Event("phase_started", (("p", "phase"),), "When a phase of the sequence begins."),
    Event("phase_ended", (("p", "phase"),), "When a phase of the sequence ends."),
    Event("unit_eliminated", (("u", "unit"),), "After a unit is eliminated."),
    Event("control_changed", (("s", "space"), ("by", "side"), ("was", "side")),
          "After a space changes control: the space, the side now controlling it (none: no one) and the side "
          "that controlled it before (none: no one). A trigger may bind the first names only."),
    Event("unit_placed", (("u", "unit"),), "After a unit is placed on the map."),
    Event("turns_ended", (), "After the scenario's last turn, if no one has won: triggers decide the result."),
]}

CONSTANTS: dict[str, Constant] = {c.name: c for c in [
    Constant("spaces", list_of("space"), "Every space of the map."),
    Constant("units", list_of("unit"), "Every unit in play."),
    Constant("cards", list_of("card"), "Every strategy card of the scenario."),
    Constant("nations", list_of("nation"), "Every nation."),
    Constant("sides", list_of("side"), "The playing sides (a `hostile` side is not one of them)."),
    Constant("hostile_sides", list_of("side"),
             "The sides declared `hostile`: no player plays them, they are enemies of every side."),
    Constant("turn", "int", "The current turn number."),
    Constant("first_turn", "int", "The scenario's first turn."),
    Constant("last_turn", "int", "The scenario's last turn."),
]}

ATTRIBUTES: dict[str, dict[str, str]] = {
    "unit": {
        "name": "text", "nation": "nation", "side": "side", "type": "unit_type", "cf": "int", "lf": "int",
        "mf": "int", "full_cf": "int", "reduced": "bool", "location": ANY, "space": "space",
        "on_map": "bool", "near_east": "bool", "never_replaced": "bool", "rp": ANY, "army": "bool",
        "corps": "bool", "steps": "int",
    },
    "space": {
        "name": "text", "nation": "nation", "terrain": "terrain", "vp": "bool", "fort": "int",
        "fort_destroyed": "bool", "capital": "bool", "control": "side", "map": "map", "supply": "bool",
        "units": list_of("unit"), "port": list_of("side"), "trench": "int", "besieged": "bool",
    },
    "card": {
        "name": "text", "side": "side", "number": "int", "ops": "int", "sr": "int",
        "war_status": "int", "deck": "deck", "removed": "bool", "combat": "bool", "optional": "bool",
        "rp_nations": list_of(ANY), "reinforcements": list_of("unit"),
    },
    "nation": {"name": "text", "side": "side", "neutral": "bool", "minor": "bool", "at_war": "bool"},
    "side": {"name": "text", "hostile": "bool"},
    "box": {"name": "text", "units": list_of("unit")},
    "pile": {"cards": list_of("card"), "size": "int"},
}

# Attributes of engine-kept state that `set` may change (the rest are facts).
WRITABLE_ATTRIBUTES = {("space", "control"), ("space", "fort_destroyed"), ("nation", "at_war")}

# Names a parameter may give as its type.
TYPE_NAMES = set(ENTITY_KINDS) | set(SCALAR_KINDS) | {ANY}


@define
class Scope:
    """Local names visible at a point: parameters, lets, loop and choice variables."""

    names: dict[str, str] = field(factory=dict)
    parent: "Scope | None" = None

    def lookup(self, name: str) -> str | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def child(self) -> "Scope":
        return Scope({}, self)
