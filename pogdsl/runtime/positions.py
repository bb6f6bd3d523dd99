"""Set-up lines of a script: a position put together by hand, so that a card
or a rule is tried in it with `pogdsl replay` and no Python.

    place 'GE 1' at Liege          a unit (or a free piece of a pool) onto a space or into a box
    place 'FR 3' at Verdun reduced the same, on its reduced side
    remove 'RU 2'                  a unit taken out of play
    set vp 14                      a state variable (`set vp to 14` reads the same)
    set trench[Verdun] 2           a state variable kept per space, side, nation…
    set control[Liege] cp          who controls a space (`none`: no one)
    set turn 5                     the turn
    set phase action               the phase: the turn goes on from the start of that phase

Each line changes the game's state through the interpreter's own writers
(`move_unit`, `set_control`, `touch`), so the values it remembers expire as
after an effect.  A line that names nothing, or gives a value of the wrong
kind, raises ValueError with a sentence a script reader can act on; the
caller names the script line.
"""

from __future__ import annotations

import re

from ..numbers import NumberError, parse_whole
from . import builtins as B
from .values import Entity

VERBS = ("place", "remove", "set")
_TARGET = re.compile(r"^(\w+)(?:\[(.+)\])?$")
_TRUE, _FALSE = ("true", "yes", "on"), ("false", "no", "off")


def apply_setup(game, verb: str, args: list[str]) -> None:
    if verb == "place":
        _place(game, args)
    elif verb == "remove":
        _remove(game, args)
    elif verb == "set":
        _set(game, args)
    else:
        raise ValueError(f"'{verb}' is not a set-up line: {', '.join(VERBS)}")


def _named(w, kind: str, name: str) -> Entity:
    found = w.by_kind.get(kind, {}).get(name)
    if found is None:
        lowered = {k.lower(): e for k, e in w.by_kind.get(kind, {}).items()}
        found = lowered.get(name.lower())
    if found is None:
        raise ValueError(f"no {kind} named '{name}'")
    return found


def _place(game, args: list[str]) -> None:
    reduced = bool(args) and args[-1].lower() == "reduced"
    words = args[:-1] if reduced else args
    at = [i for i, word in enumerate(words) if word.lower() == "at"]
    if len(at) != 1 or at[0] == 0 or at[0] == len(words) - 1:
        raise ValueError("`place` reads `place UNIT at SPACE` (or `… reduced`), e.g. place 'GE 1' at Liege")
    w = game.w
    unit = _named(w, "unit", " ".join(words[:at[0]]))  # (`GE 1` unquoted is one name)
    place = " ".join(words[at[0] + 1:])
    where = w.by_kind.get("space", {}).get(place) or w.by_kind.get("box", {}).get(place)
    if where is None:
        raise ValueError(f"no space or box named '{place}'")
    members = getattr(unit, "members", None)
    if members is not None:  # a pool: its first piece not in play
        free = [m for m in members if game.s["loc"][m.index] is None]
        if not free:
            raise ValueError(f"no {unit.key} is left to place: all {len(members)} are in play")
        unit = free[0]
    game.move_unit(unit, w.location(where))
    game.s["reduced"][unit.index] = reduced
    game.touch_entity("board", unit)


def _remove(game, args: list[str]) -> None:
    if not args:
        raise ValueError("`remove` reads `remove UNIT`, e.g. remove 'RU 2'")
    unit = _named(game.w, "unit", " ".join(args))
    pieces = getattr(unit, "members", [unit])
    placed = [p for p in pieces if game.s["loc"][p.index] is not None]
    if not placed:
        raise ValueError(f"{unit.key} is not in play")
    game.move_unit(placed[0], None)


def _set(game, args: list[str]) -> None:
    if len(args) == 3 and args[1].lower() == "to":
        args = [args[0], args[2]]
    if len(args) != 2:
        raise ValueError("`set` reads `set NAME VALUE` or `set NAME[KEY] VALUE`, e.g. set trench[Verdun] 2")
    m = _TARGET.match(args[0])
    if m is None:
        raise ValueError(f"cannot set '{args[0]}': write NAME or NAME[KEY]")
    name, key = m.group(1), m.group(2)
    w, s = game.w, game.s
    if name == "turn" and key is None:
        s["turn"] = _whole(args[1], "the turn")
        game.touch("turn")
        return
    if name == "phase" and key is None:
        _set_phase(game, args[1])
        return
    if name == "control" and key is not None:
        space = _named(w, "space", key)
        side = None if args[1].lower() == "none" else _named(w, "side", args[1])
        game.set_control(space, side, [])
        return
    decl = w.state_decls.get(name)
    if decl is None:
        raise ValueError(f"cannot set '{name}': not a state variable of this game, nor turn, phase or control[SPACE]")
    value = _value(w, decl, args[1])
    if decl.scope is None:
        if key is not None:
            raise ValueError(f"'{name}' is one value, not kept per anything: write `set {name} VALUE`")
        s["vars"][name] = value
        game.touch(f"var:{name}")
        return
    if key is None:
        raise ValueError(f"'{name}' is kept per {decl.scope.text}: write `set {name}[KEY] VALUE`")
    entity = _named(w, decl.scope.text, key)
    s["vars"][name][B.scope_key(entity)] = value
    game.touch_entity(f"var:{name}", entity)


def _set_phase(game, name: str) -> None:
    """Start phase NAME of the current turn afresh, as the sequence of play
    starts it (its `phase_started` triggers fire); what was running — the
    rest of the phase under way and the decision it waited for — is left
    off, as a position set by hand leaves it.  The phases after it follow in
    the sequence's order.  The caller runs the game on to its next decision."""
    from .interpreter import DRIVER

    w, s = game.w, game.s
    phases = list(w.sequence)
    found = name if name in phases else {p.lower(): p for p in phases}.get(name.lower())
    if found is None:
        raise ValueError(f"no phase '{name}' in this scenario's sequence of play: {', '.join(phases)}")
    if s["result"] is not None:
        raise ValueError("the game is over: no phase can be set")
    stack = s["stack"]
    driver = stack[0] if stack else None
    if driver is None or driver["code"] != DRIVER or driver["pc"] < 2:
        raise ValueError("the scenario's set-up is still running: set the phase after its last decision")
    if driver["pc"] > 3:
        raise ValueError("the last turn is over: no phase can be set")
    del stack[1:]
    driver["pc"] = 2  # (the driver's stage that starts the phase its `phase` local names)
    driver["l"]["phase"] = phases.index(found)
    s["pending"] = None
    s["phase"] = None


def _whole(text: str, what: str) -> int:
    try:
        return parse_whole(text)
    except NumberError as err:
        raise ValueError(f"{what} is a whole number: {err}") from None


def _value(w, decl, text: str):
    """TEXT as a value of the state DECL holds: a number for a track or a
    counter (kept within a track's range), a truth value for a flag, else a
    name of the declared kind, or none."""
    kind = decl.state_kind
    if kind in ("track", "counter") or (kind == "marker" and decl.low is not None):
        n = _whole(text, f"'{decl.key}'")
        if decl.low is not None and not decl.low <= n <= decl.high:
            raise ValueError(f"'{decl.key}' runs from {decl.low} to {decl.high}, not {n}")
        return n
    if kind in ("flag", "marker"):
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValueError(f"'{decl.key}' is true or false, not '{text}'")
    if text.lower() == "none":
        return None
    wanted = decl.type.type.text if decl.type is not None and decl.type.type is not None else None
    if wanted is None:
        try:
            return parse_whole(text)
        except NumberError:
            raise ValueError(f"'{decl.key}' takes a number or none here, not '{text}'") from None
    return _named(w, wanted, text)
