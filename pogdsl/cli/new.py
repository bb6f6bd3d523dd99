"""`pogdsl new card SIDE NUMBER NAME`: a new card and a script that tries it.

The card is written into the current folder's (or --root's) cards/SIDE/, a
modder's folder that extends the installed library; the script into
scripts/.  Nothing of a game is written here: the card's deck, values and
citation default to the ones most of the library's cards of that side have,
and the script is found by playing the scenario — the card set as the side's
hand, every decision before the side's first one answered with its first
option — until a decision offers an option naming the card.  Both files pass
as written: `pogdsl check` and `pogdsl replay` are green before the modder
changes a line.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE

# Decisions played before giving up finding one that offers the card.
SEARCH_LIMIT = 400


def _err(text: str) -> int:
    print(f"pogdsl new: error: {text}", file=sys.stderr)
    return EXIT_USAGE


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "card"


def _most_common(values, fallback):
    counted = Counter(v for v in values if v is not None)
    return counted.most_common(1)[0][0] if counted else fallback


def card_source(side: str, number: int, name: str, deck: str, ops: int, sr: int, cites: str, script: str) -> str:
    return f"""\
# {side.upper()} {number} — {name}: a card of your own.
#
# Say what the card does in the note, in your own words; cite the rules its
# event applies; write the event with the language's effects
# (docs/writing-a-card.rst, docs/vocabulary.rst).  Then:
#   pogdsl check && pogdsl replay {script}
card {side} {number} '{name}' cites {cites} {{
  "What the card does, in your own words."
  deck {deck}
  ops {ops} sr {sr}

  event cites {cites} {{
    "What its event does."
    log "{name}: the event is not written yet"
  }}
}}
"""


def script_source(card_key: str, card_file: str, scenario: str, seed: int, side: str, hand: str,
                  answered: list[tuple[str, str]], offered: list[str]) -> str:
    lines = [f"# A test of {card_key} ({card_file}) in a position of its own:",
             "#   pogdsl replay THIS_FILE",
             "# Set the position with place / remove / set lines, play the card, then check",
             "# what its event did with expect lines (docs/playing.rst, \"Scripts\").",
             f"scenario {scenario}", f"seed {seed}", f"hand {side} {hand}"]
    lines += [f"{by}: {option}" for by, option in answered]
    lines += [f"# {side}'s options naming the card here:"] + [f"#   {o}" for o in offered]
    lines.append(f"expect legal {offered[0]}")
    return "\n".join(lines) + "\n"


def cmd_new_card(args) -> int:
    from ..compiler import compile_paths
    from ..opening import ScenarioError, open_scenario
    from ..runtime.errors import GameError
    from ..runtime.record import Event, Session, _quote

    side, name = args.side.lower(), " ".join(args.name.split())
    if not name or "'" in name or len(name) > 80:
        return _err("the card's name is 1 to 80 characters, without a single quote (')")
    if args.number < 1 or args.number > 999:
        return _err("the card's number runs from 1 to 999")
    root = (args.root or Path.cwd()).resolve()
    card_file = Path("cards") / side / f"{args.number:02d}-{slug(name)}.pog"
    script_file = Path("scripts") / f"{side}-{args.number:02d}-{slug(name)}.script"
    for path in (card_file, script_file):
        if (root / path).exists():
            return _err(f"{path} exists already: nothing was written")

    from ..project import find_root, library_files

    # (an empty folder extends nothing yet: read the library it will extend)
    comp = compile_paths(root=root if library_files(root) else find_root(root), check_scenarios=False)
    if not comp.ok:
        return _err("the library has errors; run `pogdsl check` first")
    program = comp.base
    sides = [s.key for s in program.all("side") if not s.hostile]
    if side not in sides:
        return _err(f"unknown side '{args.side}': the sides are {', '.join(sides)}")
    taken = program.decls["card"].get(f"{side} {args.number}")
    if taken is not None:
        return _err(f"{side.upper()} {args.number} is '{taken.name.text}' already ({taken.span.file}:"
                    f"{taken.span.line}); pick another number, or `replace` it in a scenario")
    own = [c for c in program.all("card") if c.side and c.side.text == side]
    deck = args.deck or _most_common((c.deck.text if c.deck else None for c in own), None)
    if deck is None:
        return _err("the library's cards have no deck to copy: give one with --deck")
    cites = args.cites or _most_common((c.cites[0].number for c in own if c.cites), None)
    if cites is None:
        return _err("the library's cards cite no rule to copy: give one with --cites")
    ops = args.ops if args.ops is not None else _most_common((c.ops for c in own), 2)
    sr = args.sr if args.sr is not None else _most_common((c.sr for c in own), 2)

    (root / card_file).parent.mkdir(parents=True, exist_ok=True)
    (root / card_file).write_text(card_source(side, args.number, name, deck, ops, sr, cites, str(script_file)),
                                  encoding="utf-8")
    try:
        opened = open_scenario(args.scenario, root, cache=False)
        found = _first_offer(opened, Session, Event, side, name, args.seed)
    except (ScenarioError, GameError) as err:
        (root / card_file).unlink()
        print(f"pogdsl new: error: the card does not compile or play in {args.scenario}: {err}", file=sys.stderr)
        return EXIT_ERRORS
    if found is None:
        (root / card_file).unlink()
        return _err(f"no decision of {side}'s in the first {SEARCH_LIMIT} of {args.scenario} offers the card "
                    "(is its deck in the scenario?): nothing was written")
    answered, offered = found
    (root / script_file).parent.mkdir(parents=True, exist_ok=True)
    (root / script_file).write_text(
        script_source(f"{side.upper()} {args.number} {name}", str(card_file), args.scenario, args.seed, side,
                      _quote(name), answered, offered), encoding="utf-8")
    print(f"wrote {card_file}\nwrote {script_file}\n"
          f"next: write the event, then `pogdsl check && pogdsl replay {script_file}`")
    return EXIT_OK


def _first_offer(opened, Session, Event, side: str, name: str, seed: int):
    """Play from SEED with the card as SIDE's hand, answering every decision
    with its first option, to the first of SIDE's decisions that offers an
    option naming the card: (the decisions answered, those options)."""
    session = Session.new(opened, seed, [Event("hand", 0, side, values=[name])])
    answered = []
    for _ in range(SEARCH_LIMIT):
        d = session.decision
        if d is None or session.game.over:
            return None
        if d.by == side:
            offered = [o for o in d.options if name.lower() in o.lower()]
            if offered:
                return answered, offered
        answered.append((d.by, d.options[0]))
        session.choose(d.options[0], by=d.by)
    return None


def register(sub) -> None:
    p = sub.add_parser(
        "new", help="scaffold a card of your own and a script that tries it",
        description="Write a new card, cards/SIDE/NN-NAME.pog, into the current folder (or --root: a folder of "
                    "your own extends the installed library) and a script, scripts/SIDE-NN-NAME.script, that "
                    "plays SCENARIO with the card as SIDE's hand up to SIDE's first decision offering it. Both "
                    "pass as written (`pogdsl check`, `pogdsl replay`); the card's deck, OPS, SR and citation "
                    "default to those most of the side's cards have. Nothing is overwritten.",
        epilog="Example: pogdsl new card ap 66 'Sacred Way'. Exit status: 0 written, 1 the card does not play, "
               "2 wrong usage (a taken number, an unknown side, a file that exists).")
    kinds = p.add_subparsers(dest="what", metavar="WHAT", required=True)
    c = kinds.add_parser("card", help="a strategy card", description="A strategy card and a script that tries it.")
    c.add_argument("side", metavar="SIDE", help="the side whose deck it joins (ap, cp)")
    c.add_argument("number", metavar="NUMBER", type=int, help="its number, one no card of SIDE has")
    c.add_argument("name", metavar="NAME", help="its name ('Sacred Way')")
    c.add_argument("--scenario", default="campaign", help="the scenario the script plays (default: campaign)")
    c.add_argument("--seed", type=int, default=1, help="the script's seed (default: 1)")
    c.add_argument("--deck", default=None, help="its deck (default: the one most of SIDE's cards are in)")
    c.add_argument("--ops", type=int, default=None, help="its OPS value")
    c.add_argument("--sr", type=int, default=None, help="its SR value")
    c.add_argument("--cites", default=None, help="the rule it cites (default: the one most of SIDE's cards cite)")
    c.add_argument("--root", type=Path, default=None, help="the folder to write into (default: the current one)")
    c.set_defaults(func=cmd_new_card)
