"""`pogdsl show`: the board of a scenario once its set-up has run, for a
person checking it by eye (or a script, with --json).

The scenario is compiled, its world built, and a game started and run to its
first decision — which comes after the whole set-up — then the requested
spaces, units, boxes, hands and tracks are printed, or the board is drawn
(--svg, --png) by pogdsl/board/svg.py.  Everything shown is read
from the interpreter's state and the world's facts; nothing here knows a rule
of any game.
"""

from __future__ import annotations

import json
import re
import sys

from ..numbers import digits_key
from .common import whole_number
from .common import (
    EXIT_ERRORS,
    EXIT_OK,
    EXIT_USAGE,
    add_option_argument,
    add_root_option,
    options_from,
    print_diagnostics,
)


class NotFound(Exception):
    """A name given on the command line matches nothing (exit status 2)."""


def _err(text: str) -> None:
    print(f"pogdsl show: error: {text}", file=sys.stderr)


# ---------------------------------------------------------------- names
def _normal(text: str) -> str:
    """Case, spaces, quotes and punctuation do not matter: 'bar-le-duc' finds 'Bar le Duc'."""
    return re.sub(r"[^0-9a-z]", "", text.lower())


def find(what: str, name: str, table: dict, scenario: str, also: list[str] = ()):
    """The entity of `table` (key → entity) that `name` names, matched case-insensitively;
    NotFound with a did-you-mean hint on a miss (`also`: more names the hint may offer)."""
    name = name.strip().strip("'\"")
    if name in table:
        return table[name]
    lowered = {k.lower(): v for k, v in table.items()}
    if name.lower() in lowered:
        return lowered[name.lower()]
    normal: dict[str, list] = {}
    for k, v in table.items():
        normal.setdefault(_normal(k), []).append(v)
    hits = normal.get(_normal(name), [])
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise NotFound(f"'{name}' could be any of {', '.join(sorted(h.key for h in hits))}: spell it out")
    raise NotFound(f"no {what} named '{name}' in {scenario}" + _hint(name, list(table) + list(also), what))


def _hint(name: str, names: list[str], what: str) -> str:
    from ..diagnostics import did_you_mean

    originals = {k.lower(): k for k in names}
    hint = did_you_mean(name.lower(), list(originals))
    if hint:
        close = hint[len("did you mean '"):-2]
        return f" (did you mean '{originals.get(close, close)}'?)"
    if len(names) <= 12:
        return f" ({what}s: {', '.join(names)})"
    return ""


def find_boxes(name: str, w, scenario: str) -> list:
    """A box instance ('reserve[cp]'), or every instance of a box kept per side ('reserve')."""
    by_decl: dict[str, list] = {}
    for b in w.boxes:
        by_decl.setdefault(b.data[0].key, []).append(b)
    for decl_key, instances in by_decl.items():
        if len(instances) > 1 and _normal(decl_key) == _normal(name):
            return instances
    return [find("box", name, w.by_kind.get("box", {}), scenario, also=list(by_decl))]


# ---------------------------------------------------------------- reading the state
def _text(value) -> str:
    from ..runtime.values import text_of

    return text_of(value)


def _key(value):
    """A value as plain JSON: entities by key, lists element-wise."""
    from ..runtime.values import Entity

    if isinstance(value, Entity):
        return value.key
    if isinstance(value, (list, tuple)):
        return [_key(v) for v in value]
    return value


def _factors(f) -> str | None:
    return "-".join(str(x) for x in f) if f else None


def _scoped_state(g, kind: str, entity) -> dict:
    """Every state variable kept per `kind` (per space, per unit...), read for one entity."""
    from ..runtime import builtins as B

    out = {}
    for name, decl in g.w.state_decls.items():
        if decl.scope is not None and decl.scope.text == kind:
            out[name] = B.read_scoped(g, name, entity)
    return out


def unit_info(g, u) -> dict:
    d = u.data
    loc = g.s["loc"][u.index]
    reduced = bool(g.s["reduced"][u.index])
    place = g.w.place_entity(loc)
    shown = d.reduced if (reduced and d.reduced) else d.full
    return {
        "name": u.key, "piece": u.index, "nation": _key(d.nation), "side": _key(d.side), "type": _key(d.type),
        "strength": "reduced" if reduced else "full", "factors": _factors(shown),
        "full": _factors(d.full), "reduced": _factors(d.reduced),
        "location": place.key if place is not None else None,
        "in_play": place is not None, "rp": _key(d.rp), "never_replaced": d.never_replaced,
        "near_east": d.near_east,
        "state": {k: _key(v) for k, v in _scoped_state(g, "unit", u).items() if v != g.w.state_start.get(k)},
    }


def _units_at(g, place) -> list:
    units = g.w.units
    return [units[i] for i in g.s["occ"][g.w.location(place)]]


def space_info(g, sp) -> dict:
    w, s, d = g.w, g.s, sp.data
    connections = []
    for j, only in w.adjacency[sp.index]:
        other = w.spaces[j]
        connections.append({
            "space": other.key, "line": "solid" if only is None else "dotted",
            "only": sorted(only) if only is not None else None,
            "nation": _key(other.data.nation), "control": s["control"][j],
        })
    return {
        "name": sp.key, "map": _key(d.map), "nation": _key(d.nation), "terrain": _key(d.terrain),
        "vp": d.vp, "fort": d.fort or 0, "fort_destroyed": bool(s["fort_destroyed"][sp.index]),
        "capital": d.capital, "supply_source": d.supply, "supply_for": _key(d.supply_for),
        "ports": [p.key for p in d.ports if p is not None], "at": list(d.at) if d.at else None,
        "control": s["control"][sp.index],
        "state": {k: _key(v) for k, v in _scoped_state(g, "space", sp).items()},
        "units": [unit_info(g, u) for u in _units_at(g, sp)],
        "connections": connections,
    }


def box_info(g, box) -> dict:
    decl, side = box.data
    return {"name": box.key, "box": decl.key, "title": decl.title,
            "side": _key(side), "units": [unit_info(g, u) for u in _units_at(g, box)]}


def _card_info(c) -> dict:
    d = c.data
    return {"number": d.number, "name": d.name.text, "side": d.side.text if d.side else None,
            "deck": d.deck.text if d.deck else None, "ops": d.ops, "sr": d.sr, "war_status": d.war_status,
            "removed": bool(d.removed), "combat": bool(d.combat), "optional": bool(d.optional)}


def find_card(text: str, w):
    """A card named by side and number (`AP 6`) or by name; a name two cards
    bear is refused with both listed (pogdsl/cardref.py)."""
    from ..cardref import CardIndex

    try:
        return CardIndex.of_world(w).resolve(text).card
    except ValueError as err:
        raise NotFound(str(err)) from None


def card_info(g, card) -> dict:
    """A card's values and the pile it lies in (`hand:ap`, `draw:cp`, …)."""
    pile = next((p for p, cards in g.s["piles"].items() if card.index in cards), None)
    return {"key": f"{card.data.side.text.upper()} {card.data.number}", **_card_info(card), "pile": pile,
            "event": card.data.event is not None}


def print_card(info: dict) -> None:
    ws = f" ws {info['war_status']}" if info["war_status"] else ""
    marks = "".join([" *" if info["removed"] else "", " combat" if info["combat"] else "",
                     " optional" if info["optional"] else "", "" if info["event"] else " (no event written)"])
    print(f"{info['key']} {info['name']}: ops {info['ops']} sr {info['sr']}{ws}  {info['deck']}{marks}")
    print(f"  pile: {info['pile'] or 'none (not in the game)'}")


def hand_info(g, side) -> dict:
    piles = g.s["piles"]
    cards = [g.w.cards[i] for i in piles[f"hand:{side.key}"]]
    return {"side": side.key, "cards": [_card_info(c) for c in sorted(cards, key=lambda c: c.data.number)],
            "piles": {k: len(piles[f"{k}:{side.key}"]) for k in ("hand", "draw", "discard", "removed", "in_play")}}


def tracks_info(g) -> dict:
    from ..runtime import builtins as B

    w, s = g.w, g.s
    state = {}
    for name, decl in w.state_decls.items():
        start = w.state_start.get(name)
        if decl.scope is None:
            state[name] = {"kind": decl.state_kind, "value": _key(s["vars"][name]), "start": _key(start)}
            continue
        scope = decl.scope.text
        every = w.by_kind.get(scope, {})
        if scope in ("side", "nation") and every:
            values = {k: _key(B.read_scoped(g, name, e)) for k, e in every.items()}
        else:  # per space, per unit...: only the entries that left their start value
            values = {_scope_label(w, scope, k): _key(v) for k, v in s["vars"][name].items() if v != start}
        state[name] = {"kind": decl.state_kind, "per": scope, "start": _key(start), "values": values}
    return {"turn": s["turn"], "first_turn": w.first_turn, "last_turn": w.last_turn,
            "phase": s["phase"], "at_war": sorted(n for n, at in s["at_war"].items() if at), "state": state}


def _scope_label(w, scope: str, key: str) -> str:
    if scope == "unit" and digits_key(key) is not None and int(key) < len(w.units):
        return f"{w.units[int(key)].key} #{key}"
    return key


def overview(g) -> dict:
    w, s = g.w, g.s
    per_side: dict = {}
    for u in w.units:
        side = u.data.side.key if u.data.side is not None else "none"
        place = w.place_entity(s["loc"][u.index])
        where = "not in play" if place is None else ("on the map" if place.kind == "space" else place.key)
        per_side.setdefault(side, {}).setdefault(where, 0)
        per_side[side][where] += 1
    piles = {side.key: {k: len(s["piles"][f"{k}:{side.key}"]) for k in ("hand", "draw", "discard")}
             for side in w.sides}
    return {"units": per_side, "cards": piles}


# ---------------------------------------------------------------- printing
def _unit_line(u: dict) -> str:
    strength = u["strength"]
    factors = u["factors"] or "?"
    extra = f" (full {u['full']})" if strength == "reduced" else ""
    kind = u["type"] or "unit"
    return f"{u['name']:<12} {u['nation'] or '-':<4} {kind:<6} {strength:<8} {factors}{extra}"


def _yes(flag) -> str:
    return "yes" if flag else "no"


def print_space(info: dict) -> None:
    print(f"{info['name']}  (space on the {info['map']} map)")
    fort = "none" if not info["fort"] else f"{info['fort']}" + (" (destroyed)" if info["fort_destroyed"] else "")
    supply = "no"
    if info["supply_source"]:
        supply = "yes" + (f" (for {info['supply_for']})" if info["supply_for"] else "")
    facts = [
        ("nation", info["nation"] or "none"), ("terrain", info["terrain"] or "none"),
        ("VP space", _yes(info["vp"])), ("fort", fort), ("capital", _yes(info["capital"])),
        ("supply source", supply), ("ports", ", ".join(info["ports"]) or "none"),
        ("coordinates", f"{info['at'][0]}, {info['at'][1]}" if info["at"] else "none"),
        ("control", info["control"] or "none"),
    ]
    facts += [(name, _text(value)) for name, value in info["state"].items()]
    width = max(len(k) for k, _ in facts)
    for k, v in facts:
        print(f"  {k:<{width}}  {v}")
    units = info["units"]
    print(f"  units ({len(units)}):" + ("" if units else " none"))
    for u in units:
        print(f"    {_unit_line(u)}")
    conns = info["connections"]
    print(f"  connections ({len(conns)}):")
    for c in sorted(conns, key=lambda c: (c["line"], c["space"])):
        line = "--" if c["line"] == "solid" else "~~"
        only = f"  dotted: only {', '.join(c['only'])}" if c["only"] else ""
        print(f"    {line} {c['space']:<20} {c['nation'] or '-':<4} control {c['control'] or 'none'}{only}")


def print_units(name: str, pieces: list[dict]) -> None:
    first = pieces[0]
    traits = [t for t, on in (("never replaced", first["never_replaced"]), ("near east", first["near_east"])) if on]
    rp = f", rebuilt from {first['rp']}" if first["rp"] and first["rp"] != first["nation"] else ""
    print(f"{name}  ({first['nation']} {first['type'] or 'unit'}, side {first['side']}{rp}"
          + (", " + ", ".join(traits) if traits else "") + ")")
    print(f"  factors  full {first['full']}" + (f", reduced {first['reduced']}" if first["reduced"] else ""))
    for p in pieces:
        where = p["location"] or "not in play"
        state = "".join(f", {k} {_text(v)}" for k, v in p["state"].items())
        label = f"piece #{p['piece']}" if len(pieces) > 1 else "location"
        strength = f", {p['strength']} {p['factors']}" if p["in_play"] else ""
        print(f"  {label:<10} {where}{strength}{state}")


def print_box(info: dict) -> None:
    units = info["units"]
    title = f", {info['title']}" if info["title"] else ""
    print(f"{info['name']}  (box{title})")
    print(f"  units ({len(units)}):" + ("" if units else " none"))
    groups: dict[tuple, int] = {}
    for u in units:
        key = (u["name"], u["nation"], u["type"], u["strength"], u["factors"], u["full"])
        groups[key] = groups.get(key, 0) + 1
    for (name, nation, kind, strength, factors, full), n in groups.items():
        u = {"name": name, "nation": nation, "type": kind, "strength": strength, "factors": factors, "full": full}
        print(f"    {n:>2} × {_unit_line(u)}")


def print_hand(info: dict, waiting) -> None:
    cards = info["cards"]
    print(f"{info['side']}'s hand ({len(cards)} card{'s' * (len(cards) != 1)})")
    for c in cards:
        marks = "".join([" *" if c["removed"] else "", " combat" if c["combat"] else "",
                         " optional" if c["optional"] else ""])
        ws = f" ws {c['war_status']}" if c["war_status"] else ""
        print(f"  #{c['number']:<3} {c['name']:<38} ops {c['ops']} sr {c['sr']}{ws}  {c['deck']}{marks}")
    piles = info["piles"]
    print("  piles: " + ", ".join(f"{k.replace('_', ' ')} {n}" for k, n in piles.items()))
    if not cards and waiting is not None:
        print("  (nothing in hand yet at this decision: answer it with --answer to see the hands dealt)")


def print_tracks(info: dict) -> None:
    print(f"turn {info['turn']} (of {info['first_turn']}..{info['last_turn']}), phase {info['phase'] or 'set-up'}")
    print(f"  at war: {', '.join(info['at_war']) or 'none'}")
    for name, v in info["state"].items():
        if "per" not in v:
            print(f"  {name} = {_text(v['value'])}")
        else:
            entries = ", ".join(f"{k} {_text(x)}" for k, x in v["values"].items())
            label = f"  {name} (per {v['per']}, start {_text(v['start'])})"
            print(label + (f": {entries}" if entries else ": all at start"))


def print_overview(info: dict) -> None:
    for side, where in info["units"].items():
        print(f"  {side} units: " + ", ".join(f"{where_} {n}" for where_, n in sorted(where.items())))
    for side, piles in info["cards"].items():
        print(f"  {side} cards: " + ", ".join(f"{k} {n}" for k, n in piles.items()))
    print("  (see --space, --unit, --box, --hand and --tracks)")


# ---------------------------------------------------------------- the command
def cmd_show(args) -> int:
    from ..compiler import resolve_scenario
    from ..runtime.errors import GameError, IllegalOption
    from ..runtime.interpreter import Game
    from ..runtime.world import WorldError, build_world, option_values

    chosen = options_from(args)
    comp, program = resolve_scenario(args.scenario, root=args.root)  # UsageError: unknown scenario (exit 2)
    if comp.reporter.errors:
        print_diagnostics(comp, False)
        return EXIT_ERRORS
    options = option_values(program, chosen)  # OptionError (a UsageError): exit 2
    from ..compiler import program_with_options
    from ..graph.build import build_graph

    program = program_with_options(comp, comp.scenario_decl(program.scenario.key), options)
    graph = build_graph(program)
    name = program.scenario.key
    try:
        w = build_world(program, graph, options)
    except (WorldError, GameError) as err:
        _err(f"scenario '{name}' cannot be played: {err}")
        return EXIT_ERRORS

    # Every name is looked up before the game runs, so a typo fails fast.
    try:
        spaces = [find("space", n, w.by_kind.get("space", {}), name) for n in args.space or []]
        unit_names = [find("unit", n, w.by_kind.get("unit", {}), name) for n in args.unit or []]
        boxes = list(dict.fromkeys(b for n in args.box or [] for b in find_boxes(n, w, name)))
        sides = [find("side", n, w.by_kind.get("side", {}), name) for n in args.hand or []]
        cards = [find_card(n, w) for n in args.card or []]
    except NotFound as miss:
        _err(str(miss))
        return EXIT_USAGE

    from ..board.svg import output_problem

    problems = [problem for f in (args.svg, args.png) if f for problem in [output_problem(f)] if problem]
    if problems:
        _err(problems[0])
        return EXIT_USAGE
    if args.side is not None:
        try:
            args.side = find("side", args.side, w.by_kind.get("side", {}), name).key
        except NotFound as miss:
            _err(str(miss))
            return EXIT_USAGE
    if args.load:
        loaded = _load_game(args, name)
        if isinstance(loaded, int):
            return loaded
        game = loaded
        decision = game.decision()
    else:
        game = Game.new(w, seed=args.seed, log=False)
    try:
        if not args.load:
            decision = game.run()
        for answer in args.answer or []:
            if decision is None:
                _err(f"the game is over before the answer '{answer}': nothing left to answer")
                return EXIT_USAGE
            decision = game.choose(answer)
    except IllegalOption as err:
        options = game.legal_options()
        _err(f"{err.message}; the options are: " + "; ".join(f"{i}. {o}" for i, o in enumerate(options, 1)))
        return EXIT_USAGE
    except GameError as err:
        _err(f"the set-up stopped: {err}")
        return EXIT_ERRORS

    if args.svg or args.png:
        status = _draw(args, game)
        if status != EXIT_OK:
            return status

    s = game.s
    header = {
        "scenario": name, "seed": args.seed, "turn": s["turn"], "phase": s["phase"],
        "answers": list(args.answer or []),
        "decision": decision.to_json() if decision is not None else None,
        "outcome": s["result"],
    }
    report = dict(header)
    if spaces:
        report["spaces"] = [space_info(game, sp) for sp in spaces]
    if unit_names:
        report["units"] = []
        for u in unit_names:
            pieces = list(getattr(u, "members", None) or [u])
            report["units"].append({"name": u.key, "pieces": [unit_info(game, p) for p in pieces]})
    if boxes:
        report["boxes"] = [box_info(game, b) for b in boxes]
    if sides:
        report["hands"] = [hand_info(game, side) for side in sides]
    if cards:
        report["cards"] = [card_info(game, c) for c in cards]
    if args.tracks:
        report["tracks"] = tracks_info(game)
    selected = spaces or unit_names or boxes or sides or cards or args.tracks
    if not selected and (args.svg or args.png):
        return EXIT_OK  # the picture was asked for, and only it
    if not selected:
        report["overview"] = overview(game)

    if args.json:
        print(json.dumps(report, indent=1, default=_text))
        return EXIT_OK

    where = f"turn {s['turn']}, {s['phase'] or 'set-up'}"
    if decision is not None:
        stop = f"waiting for {decision.by} to choose '{decision.choice}' ({len(decision.options)} options)"
    elif s["result"] is not None:
        stop = f"game over: {s['result']['winner'] or 'draw'} ({s['result']['reason']})"
    else:
        stop = "no decision"
    answered = f", after answering {', '.join(args.answer)}" if args.answer else ""
    print(f"# {name}, seed {args.seed}{answered}: {where}, {stop}")
    blocks = 0

    def gap():
        nonlocal blocks
        if blocks:
            print()
        blocks += 1

    for info in report.get("spaces", []):
        gap()
        print_space(info)
    for unit in report.get("units", []):
        gap()
        print_units(unit["name"], unit["pieces"])
    for info in report.get("boxes", []):
        gap()
        print_box(info)
    for info in report.get("hands", []):
        gap()
        print_hand(info, decision)
    for info in report.get("cards", []):
        gap()
        print_card(info)
    if "tracks" in report:
        gap()
        print_tracks(report["tracks"])
    if "overview" in report:
        print_overview(report["overview"])
    return EXIT_OK


def _load_game(args, name: str):
    """The game of the save `args.load`, or an exit status after a one-line error."""
    from ..compiler import scenario_name
    from ..runtime.errors import BadSave, GameError
    from ..opening import ScenarioError
    from ..runtime.record import load_any

    try:
        session = load_any(args.load, args.root, chosen=options_from(args), scenario=args.scenario)
    except ScenarioError as err:
        _err(err.message)
        return EXIT_ERRORS
    except BadSave as err:
        _err(str(err))
        return EXIT_ERRORS
    except OSError as err:
        _err(f"cannot read {args.load}: {err.strerror or err}")
        return EXIT_USAGE
    except GameError as err:
        _err(f"{args.load}: the game stopped: {err}")
        return EXIT_ERRORS
    if scenario_name(args.scenario) not in (session.opened.spec, session.opened.key, name):
        _err(f"{args.load} is a game of '{session.opened.key}', not '{args.scenario}'")
        return EXIT_USAGE
    return session.game


def _draw(args, game) -> int:
    """Write the board as SVG and/or PNG; a one-line error if a file cannot be written."""
    from ..board.svg import NoRasteriser, board_svg, svg_to_png, write_atomic

    svg = board_svg(game, args.side)
    try:
        if args.svg:
            write_atomic(args.svg, svg.encode("utf-8"))
            print(f"wrote {args.svg}", file=sys.stderr)
        if args.png:
            write_atomic(args.png, svg_to_png(svg))
            print(f"wrote {args.png}", file=sys.stderr)
    except OSError as err:
        _err(f"cannot write the picture: {err.strerror or err}")
        return EXIT_ERRORS
    except NoRasteriser as err:
        _err(str(err))
        return EXIT_ERRORS
    return EXIT_OK


EPILOG = """\
NAME matching ignores case, spaces and punctuation ('bar le duc' finds 'Bar le Duc');
a name that matches nothing ends with a did-you-mean hint and exit status 2.
A card is named by side and number ('AP 6', cp56) or by its name; a name two
cards bear (Withdrawal) must be written by number.
Each of --space, --unit, --box, --hand and --card may be given several times.

examples:
  pogdsl show campaign --space Sedan
  pogdsl show campaign --space paris --space liege --json
  pogdsl show campaign --unit 'GE 1' --unit GEc
  pogdsl show campaign --box 'reserve[cp]'     (or --box reserve for both sides)
  pogdsl show campaign --hand cp --answer 1    (answer the first decision, then look)
  pogdsl show campaign --card 'CP 1' --card Entrench    (refused: AP 12 or CP 6?)
  pogdsl show campaign --tracks
  pogdsl show campaign --svg board.svg --png board.png    (the board after set-up)
  pogdsl show campaign --load game.json --svg board.svg --side ap    (a saved position, AP's hand)

Exit status: 0 shown, 1 errors in the sources or a set-up that cannot run,
2 wrong usage (unknown scenario, space, unit, box, side or card, an illegal --answer,
a picture's folder that does not exist or a path that is a directory, an unreadable --load)."""


def register(sub) -> None:
    import argparse

    p = sub.add_parser(
        "show", help="show the board after a scenario's set-up: spaces, units, boxes, hands, tracks",
        description="Compile SCENARIO, start a game and run it to its first decision (which comes after\n"
                    "the whole set-up), then print what was asked for: a space's facts, control, markers,\n"
                    "units and connections; where every piece of a unit is; a box's contents; a side's\n"
                    "hand; the turn and every state variable.  With no selection, prints a summary.\n"
                    "--svg/--png draw the board instead (pogdsl/board/svg.py), from the set-up or from a\n"
                    "saved game (--load), for one side's eyes (--side).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", metavar="SCENARIO", help="a scenario name (e.g. campaign) or a .pog file declaring one")
    p.add_argument("--space", action="append", metavar="NAME",
                   help="a map space: nation, terrain, VP, fort, capital, supply, ports, map, coordinates, "
                        "control, markers (e.g. trench level), units (CF-LF-MF) and connections")
    p.add_argument("--unit", action="append", metavar="NAME",
                   help="a unit, or every piece of a corps name (e.g. GEc): factors, strength and location")
    p.add_argument("--box", action="append", metavar="NAME",
                   help="an off-map box such as 'reserve[cp]'; a box kept per side without [side] shows both")
    p.add_argument("--hand", action="append", metavar="SIDE", help="the cards in a side's hand, and its pile sizes")
    p.add_argument("--card", action="append", metavar="CARD",
                   help="a card ('AP 6', or its name): its values and the pile it lies in")
    p.add_argument("--tracks", action="store_true",
                   help="the turn, the nations at war and every state variable (tracks, counters, flags, markers)")
    p.add_argument("--seed", type=whole_number, default=0,
                   help="the game's seed: the shuffles of the set-up (default 0)")
    p.add_argument("--answer", action="append", metavar="OPTION",
                   help="answer the next decision (by number or option text) before showing; may be repeated")
    p.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    p.add_argument("--svg", metavar="FILE",
                   help="draw the board as SVG into FILE: both maps, control, units, forts, markers, the "
                        "tracks the scenario declares, boxes and pile sizes (written whole or not at all)")
    p.add_argument("--png", metavar="FILE", help="the same picture as PNG")
    p.add_argument("--side", metavar="SIDE",
                   help="draw the picture for SIDE: its hand is shown; other hands and the draw piles "
                        "only as numbers of cards (default: no hand at all)")
    p.add_argument("--load", metavar="SAVE",
                   help="show the position of a saved game (or a script) instead of the set-up; "
                        "--answer then answers its pending decisions")
    add_option_argument(p)
    add_root_option(p)
    p.set_defaults(func=cmd_show)
