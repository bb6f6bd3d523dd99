"""The effects (verbs) of the vocabulary, compiled into step closures.

Every effect logs what it did with the rules in force at its step, so the log
of a game reads as a list of rule applications.
"""

from __future__ import annotations

from ..syntax import ast as A
from . import builtins as B
from .deps import UNCACHEABLE, Dependencies
from .errors import GameError
from .values import Entity, Pool, text_of


def compile_effect(compiler, step, names):
    node: A.Effect = step.node
    maker = _MAKERS[node.verb]
    return maker(compiler, step, node, names)


def _units(g, value, span, cites) -> list[Entity]:
    if isinstance(value, Entity) and value.kind == "unit":
        return [value]
    if isinstance(value, list) and all(isinstance(v, Entity) and v.kind == "unit" for v in value):
        return list(value)
    raise GameError(f"expected units, got {text_of(value)}", span, cites)


def _place(g, value, span, cites) -> int:
    if isinstance(value, Entity) and value.kind in ("space", "box"):
        return g.w.location(value)
    raise GameError(f"expected a space or box, got {text_of(value)}", span, cites)


def _keep_hostile_apart(g, u, loc, span, cites) -> None:
    """A hostile side's unit never shares a space with another side's units,
    nor any unit with a hostile side's: entering one of its spaces is an
    attack, not a move (checked only in games that declare a hostile side)."""
    if loc is None or not 0 <= loc < len(g.w.spaces):
        return
    side = u.data.side
    units = g.w.units
    for i in g.s["occ"][loc]:
        other = units[i].data.side
        if other is not side and ((side is not None and side.data.hostile)
                                  or (other is not None and other.data.hostile)):
            raise GameError(f"{text_of(u)} cannot enter {g.w.spaces[loc].key}: it holds {text_of(units[i])}, and "
                            "a hostile side's units share a space with no other side's", span, cites)


# ----------------------------------------------------------------- state
def _target_writer(compiler, node: A.Effect, names, step):
    """Functions (g, l, value) that assigns, (g, l) that reads the target, and
    (g, l) that names it for the log: `vp`, `rp_points[fr]`, `Sedan.trench`."""
    target = node.obj
    span, cites = step.span, step.cites
    w = compiler.w
    if isinstance(target, A.Ref):
        name = target.name.text
        if name in names:
            return (lambda g, l, v: l.__setitem__(name, v)), (lambda g, l: l.get(name)), (lambda g, l: name)
        decl = w.state_decls[name]
        area = f"var:{name}"
        bounded = _bounded(decl)

        def write(g, l, v):
            g.s["vars"][name] = _clamped(decl, v) if bounded else v
            g.touch(area)
        return write, (lambda g, l: g.s["vars"][name]), (lambda g, l: name)
    if isinstance(target, A.Index):
        name = target.obj.name.text
        decl = w.state_decls[name]
        area = f"var:{name}"
        key = compiler.expr(target.args[0], names)
        bounded = _bounded(decl)

        def write(g, l, v):
            k = key(g, l)
            g.s["vars"][name][B.scope_key(k)] = _clamped(decl, v) if bounded else v
            g.touch_entity(area, k)
        return write, (lambda g, l: B.read_scoped(g, name, key(g, l))), \
            (lambda g, l: f"{name}[{text_of(key(g, l))}]")
    # Attr: scoped state (`s.trench`) or an engine attribute (`s.control`).
    obj = compiler.expr(target.obj, names)
    attr = target.attr.text
    decl = w.state_decls.get(attr)
    area = f"var:{attr}"
    getter = B.attribute_getter(w, attr)
    if decl is not None and decl.scope is not None:
        bounded = _bounded(decl)

        def write(g, l, v):
            entity = obj(g, l)
            g.s["vars"][attr][B.scope_key(entity)] = _clamped(decl, v) if bounded else v
            g.touch_entity(area, entity)
        return write, (lambda g, l: getter(g, obj(g, l), span)), (lambda g, l: f"{text_of(obj(g, l))}.{attr}")

    def write_engine(g, l, v):
        entity = obj(g, l)
        if attr == "control" and entity.kind == "space":
            g.set_control(entity, v, cites)
        elif attr == "fort_destroyed" and entity.kind == "space":
            g.s["fort_destroyed"][entity.index] = bool(v)
            g.touch_entity("board", entity)
        elif attr == "at_war" and entity.kind == "nation":
            g.s["at_war"][entity.key] = bool(v)
            g.touch_entity("war", entity)  # (space filters test again only where it may matter)
        else:
            raise GameError(f"'{attr}' of {text_of(entity)} cannot be changed", span, cites)
    return write_engine, (lambda g, l: getter(g, obj(g, l), span)), (lambda g, l: f"{text_of(obj(g, l))}.{attr}")


def _bounded(decl) -> bool:
    """Whether a state variable keeps its values within bounds (a track):
    the writers of any other variable store a value as it is, with no call."""
    return decl is not None and decl.state_kind == "track" and decl.low is not None


def _clamped(decl, v):
    if _bounded(decl) and isinstance(v, int):
        return max(decl.low, min(decl.high, v))
    return v


def make_set(compiler, step, node, names):
    write, _, label = _target_writer(compiler, node, names, step)
    value = compiler.expr(node.arg("to"), names)
    if isinstance(node.obj, A.Ref) and node.obj.name.text in names:
        # A local (most sets): stored in the frame's locals without a call.
        local = node.obj.name.text

        def run_local(g, frame):
            l = frame["l"]
            v = value(g, l)
            if type(v) is int or type(v) is list:  # (a flag, an entity: nothing to check, no call)
                B.stored(g, v, step.span)
            l[local] = v
            if g.log_enabled:
                g.log(f"{local} = {text_of(v)}", step.cites, quiet=True)
        return run_local

    def run(g, frame):
        v = value(g, frame["l"])
        if type(v) is int or type(v) is list:  # (a flag, an entity: nothing to check, no call)
            B.stored(g, v, step.span)
        write(g, frame["l"], v)
        if g.log_enabled:
            g.log(f"{label(g, frame['l'])} = {text_of(v)}", step.cites, quiet=True)
    return run


def make_shift(compiler, step, node, names):
    write, read, label = _target_writer(compiler, node, names, step)
    amount = compiler.expr(node.arg("by"), names)

    def run(g, frame):
        l = frame["l"]
        n = amount(g, l)
        write(g, l, B.add(g, read(g, l), n, step.span))
        if g.log_enabled:
            g.log(f"{label(g, l)} {'+' if n >= 0 else ''}{n} → {text_of(read(g, l))}", step.cites)
    return run


# ----------------------------------------------------------------- units
def make_move(compiler, step, node, names):
    units, dest = compiler.expr(node.obj, names), compiler.expr(node.arg("to"), names)

    def run(g, frame):
        l = frame["l"]
        target = dest(g, l)
        loc = _place(g, target, step.span, step.cites)
        for u in _units(g, units(g, l), step.span, step.cites):
            if g.w.hostile_sides:
                _keep_hostile_apart(g, u, loc, step.span, step.cites)
            g.move_unit(u, loc)
        g.log(f"moved {text_of(units(g, l))} to {text_of(target)}", step.cites, quiet=True)
    return run


def make_place(compiler, step, node, names):
    units, dest = compiler.expr(node.obj, names), compiler.expr(node.arg("at"), names)
    strength = compiler.expr(node.arg("with"), names) if node.arg("with") is not None else None

    def run(g, frame):
        l = frame["l"]
        target = dest(g, l)
        loc = _place(g, target, step.span, step.cites)
        reduced = strength is not None and getattr(strength(g, l), "key", None) == "reduced"
        value = units(g, l)
        for u in (value if isinstance(value, list) else [value]):
            piece = g.take_piece(u, step)
            if g.w.hostile_sides:
                _keep_hostile_apart(g, piece, loc, step.span, step.cites)
            g.move_unit(piece, loc)
            g.s["reduced"][piece.index] = reduced
            g.touch_entity("board", piece)
            g.emit("unit_placed", (piece,))
        g.log(f"placed {text_of(value)} at {text_of(target)}{' (reduced)' if reduced else ''}", step.cites,
              quiet=True)
    return run


def make_reduce(compiler, step, node, names):
    units = compiler.expr(node.obj, names)
    by = compiler.expr(node.arg("by"), names) if node.arg("by") is not None else None

    def run(g, frame):
        l = frame["l"]
        steps = by(g, l) if by is not None else 1
        for u in _units(g, units(g, l), step.span, step.cites):
            for _ in range(steps):
                if g.s["loc"][u.index] is None or g.s["loc"][u.index] < 0:
                    break
                if not g.s["reduced"][u.index] and u.data.reduced:
                    g.s["reduced"][u.index] = True
                    g.touch_entity("board", u)
                    g.log(f"{u.key} reduced", step.cites)
                else:
                    g.eliminate(u, None, step.cites)
                    break
    return run


def make_restore(compiler, step, node, names):
    units = compiler.expr(node.obj, names)

    def run(g, frame):
        for u in _units(g, units(g, frame["l"]), step.span, step.cites):
            g.s["reduced"][u.index] = False
            g.touch_entity("board", u)
            g.log(f"{u.key} restored to full strength", step.cites)
    return run


def make_eliminate(compiler, step, node, names):
    units = compiler.expr(node.obj, names)
    box = compiler.expr(node.arg("to"), names) if node.arg("to") is not None else None

    def run(g, frame):
        l = frame["l"]
        loc = _place(g, box(g, l), step.span, step.cites) if box is not None else None
        for u in _units(g, units(g, l), step.span, step.cites):
            g.eliminate(u, loc, step.cites)
    return run


def make_remove_unit(compiler, step, node, names):
    units = compiler.expr(node.obj, names)

    def run(g, frame):
        for u in _units(g, units(g, frame["l"]), step.span, step.cites):
            g.move_unit(u, -1)
            g.log(f"{u.key} removed from the game", step.cites)
    return run


def make_destroy(compiler, step, node, names):
    space = compiler.expr(node.obj, names)

    def run(g, frame):
        s = space(g, frame["l"])
        g.s["fort_destroyed"][s.index] = True
        g.touch_entity("board", s)
        g.log(f"the fort in {s.key} is destroyed", step.cites)
    return run


# ----------------------------------------------------------------- cards
def _cards(value, span, cites) -> list[Entity]:
    if isinstance(value, Entity) and value.kind == "card":
        return [value]
    if isinstance(value, list) and all(isinstance(v, Entity) and v.kind == "card" for v in value):
        return list(value)
    raise GameError(f"expected cards, got {text_of(value)}", span, cites)


def make_put(compiler, step, node, names):
    cards, pile = compiler.expr_as(node.obj, names, ("card",)), compiler.expr(node.arg("into"), names)

    def run(g, frame):
        l = frame["l"]
        target = pile(g, l)
        for c in _cards(cards(g, l), step.span, step.cites):
            g.move_card(c, target.key)
    return run


def make_discard(compiler, step, node, names):
    cards = compiler.expr_as(node.obj, names, ("card",))

    def run(g, frame):
        for c in _cards(cards(g, frame["l"]), step.span, step.cites):
            g.move_card(c, f"discard:{c.data.side.text}")
    return run


def make_deal(compiler, step, node, names):
    cards, side = compiler.expr_as(node.obj, names, ("card",)), compiler.expr(node.arg("to"), names)

    def run(g, frame):
        l = frame["l"]
        s = side(g, l)
        for c in _cards(cards(g, l), step.span, step.cites):
            g.move_card(c, f"hand:{s.key}")
    return run


def make_draw(compiler, step, node, names):
    side, upto = compiler.expr(node.obj, names), compiler.expr(node.arg("to"), names)

    def run(g, frame):
        l = frame["l"]
        g.draw_to(side(g, l), upto(g, l), step.cites)
    return run


def make_shuffle(compiler, step, node, names):
    pile = compiler.expr(node.obj, names)
    into = compiler.expr(node.arg("into"), names) if node.arg("into") is not None else None

    def run(g, frame):
        l = frame["l"]
        source = pile(g, l)
        target = into(g, l) if into is not None else source
        g.shuffle_into(source.key, target.key)
    return run


def make_play(compiler, step, node, names):
    card = compiler.expr_as(node.obj, names, ("card",))

    def run(g, frame):
        c = card(g, frame["l"])
        if not (isinstance(c, Entity) and c.kind == "card"):
            raise GameError(f"expected a card, got {text_of(c)}", step.span, step.cites)
        g.play_event(c, step.cites)
    return run


# ----------------------------------------------------------------- game
def make_emit(compiler, step, node, names):
    call: A.Call = node.obj
    args = [compiler.expr(a, names) for a in call.args]
    signal = call.func.text

    def run(g, frame):
        l = frame["l"]
        g.emit(signal, tuple(a(g, l) for a in args))
    return run


def make_log(compiler, step, node, names):
    text = compiler.expr(node.obj, names)
    deps = compiler.__dict__.get("log_deps")
    if deps is None:
        deps = compiler.log_deps = Dependencies(compiler.w)
    if UNCACHEABLE in deps.of_expression(node.obj, names):
        # A line that draws on chance draws whether the log is kept or not:
        # the same game either way.
        def run_always(g, frame):
            g.log(text_of(text(g, frame["l"])), step.cites)
        return run_always

    def run(g, frame):
        if g.log_enabled:  # (a game played without a log writes no line)
            g.log(text_of(text(g, frame["l"])), step.cites)
    return run


def make_end_game(compiler, step, node, names):
    winner = compiler.expr(node.obj, names)
    because = compiler.expr(node.arg("because"), names) if node.arg("because") is not None else None
    kind = node.arg("as")  # `as NAME`: a result the scenario declares (a name, not a value)
    result = kind.name.text if isinstance(kind, A.Ref) else None

    def run(g, frame):
        l = frame["l"]
        side = winner(g, l)
        g.end_game(side, text_of(because(g, l)) if because else "", step.cites, result)
    return run


_MAKERS = {
    "set": make_set, "shift": make_shift, "move": make_move, "place": make_place, "reduce": make_reduce,
    "restore": make_restore, "eliminate": make_eliminate, "remove_unit": make_remove_unit,
    "destroy": make_destroy, "put": make_put, "discard": make_discard, "deal": make_deal,
    "draw": make_draw, "shuffle": make_shuffle, "play": make_play, "emit": make_emit, "log": make_log,
    "end_game": make_end_game,
}

assert Pool  # re-exported for effects that accept pools
