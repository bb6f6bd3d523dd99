"""`pogdsl cards`: every strategy card of a scenario, its values, rules and tests."""

from __future__ import annotations

import json
from pathlib import Path

from ..numbers import rule_number_key
from .common import EXIT_ERRORS, EXIT_OK, add_root_option, print_diagnostics


def card_rules(decl) -> dict:
    """The rule numbers a card cites, by where: the card block, its
    `playable when`, its `event`, and each nested modifier/trigger/restriction."""
    return {
        "card": [c.number for c in decl.cites],
        "playable": [c.number for c in decl.playable_cites],
        "event": [c.number for c in decl.event_cites],
        "nested": {n.key: [c.number for c in n.cites] for n in decl.nested},
    }


def rule_key(number: str):
    return rule_number_key(number)


def all_rules(cites: dict) -> list[str]:
    numbers = set(cites["card"]) | set(cites["playable"]) | set(cites["event"])
    for nested in cites["nested"].values():
        numbers |= set(nested)
    return sorted(numbers, key=rule_key)


def event_note(decl) -> str | None:
    """The event's own note (the text its block opens with)."""
    return decl.event.note if decl.event is not None else None


def card_entry(decl, tests: list[str]) -> dict:
    """One card as `pogdsl cards --json` gives it."""
    cites = card_rules(decl)
    side = decl.side.text if decl.side else "?"
    return {
        "key": f"{side.upper()} {decl.number}",
        "side": side,
        "number": decl.number,
        "name": decl.name.text,
        "deck": decl.deck.text if decl.deck else None,
        "ops": decl.ops,
        "sr": decl.sr,
        "war_status": decl.war_status,
        "rp": {n.text: v for n, v in decl.rp},
        "removed": decl.removed,
        "combat": decl.combat,
        "optional": decl.optional,
        "reinforcements": [u.text for u in decl.reinforcements],
        "event": decl.event is not None,
        "note": decl.note,
        "event_note": event_note(decl),
        "nested": [{"kind": n.kind, "name": n.key, "note": n.note} for n in decl.nested],
        "cites": cites,
        "rules": all_rules(cites),
        "location": decl.span.location,
        "tests": tests,
    }


def catalogue(program, tests_folder: Path | None) -> dict:
    """Every card of PROGRAM (sorted by side and number) with the tests that
    name it; markers naming no card of the program are listed apart."""
    from ..testmarks import scan_tests

    scan = scan_tests(tests_folder) if tests_folder is not None else None
    decls = sorted(program.all("card"), key=lambda d: (d.side.text if d.side else "", d.number))
    cards = [card_entry(d, scan.for_card(f"{(d.side.text if d.side else '?').upper()} {d.number}") if scan else [])
             for d in decls]
    known = {c["key"] for c in cards}
    return {
        "scenario": program.scenario.key if program.scenario is not None else None,
        "cards": cards,
        "summary": {
            "cards": len(cards),
            "events": sum(c["event"] for c in cards),
            "tested": sum(bool(c["tests"]) for c in cards),
            "events_untested": sum(c["event"] and not c["tests"] for c in cards),
        },
        "unknown_markers": {k: v for k, v in (scan.tests.items() if scan else ()) if k not in known},
        "marker_problems": (scan.bad + scan.unreadable) if scan else [],
    }


def cmd_cards(args) -> int:
    from ..cardref import CardIndex
    from ..compiler import resolve_scenario
    from ..errors import UsageError
    from ..project import find_root

    comp, program = resolve_scenario(args.scenario, root=args.root)
    if comp.reporter.errors:
        print_diagnostics(comp, False)
        return EXIT_ERRORS
    root = (args.root or find_root()).resolve()
    tests = Path(args.tests) if args.tests is not None else root / "tests"
    if args.tests is not None and not tests.is_dir():
        raise UsageError(f"no such folder: {args.tests}")
    report = catalogue(program, tests if tests.is_dir() else None)
    cards = report["cards"]
    if args.card:
        index = CardIndex.of_decls(program.all("card"))
        wanted = []
        for text in args.card:
            try:
                ref = index.resolve(text)
            except ValueError as err:
                raise UsageError(str(err)) from None
            wanted.append(f"{ref.side.upper()} {ref.number}")
        cards = [c for key in wanted for c in cards if c["key"] == key]
    if args.missing:
        cards = [c for c in cards if not c["event"]]
    if args.untested:
        cards = [c for c in cards if c["event"] and not c["tests"]]
    report["cards"] = cards
    if args.json:
        print(json.dumps(report, indent=1))
        return EXIT_OK
    if args.card:
        for c in cards:
            print_card(c)
        return EXIT_OK
    s = report["summary"]
    print(f"scenario {report['scenario']}: {s['cards']} card{'s' * (s['cards'] != 1)}, {s['events']} with their "
          f"event written, {s['tested']} named by tests ({s['events_untested']} events without a test)")
    width = max((len(c["name"]) for c in cards), default=0)
    for c in cards:
        values = f"ops {c['ops']} sr {c['sr']}" + (f" ws {c['war_status']}" if c["war_status"] else "")
        flags = "".join(f for f, on in (("E", c["event"]), ("C", c["combat"]), ("R", c["removed"])) if on)
        tests = f"{len(c['tests'])} test{'s' * (len(c['tests']) != 1)}" if c["tests"] else "no test"
        print(f"  {c['key']:<6} {c['name']:<{width}}  {c['deck'] or '-':<12} {values:<15} {flags:<3} "
              f"{tests:<9} {c['location']}")
    print("flags: E event written, C combat card, R removed after its event")
    for key, nodes in report["unknown_markers"].items():
        print(f"note: {len(nodes)} test(s) marked card({key!r}), which is no card of this scenario: {nodes[0]}")
    for problem in report["marker_problems"]:
        print(f"note: {problem}")
    return EXIT_OK


def print_card(c: dict) -> None:
    print(f"{c['key']} {c['name']}" + (f" ({c['deck']} deck)" if c["deck"] else ""))
    if c["note"]:
        print(f"  {c['note']}")
    rp = " ".join(f"{k} {v}" for k, v in c["rp"].items())
    values = [f"ops {c['ops']}", f"sr {c['sr']}"] + ([f"rp {rp}"] if rp else []) + \
        ([f"war status {c['war_status']}"] if c["war_status"] else [])
    flags = [f for f, on in (("combat card", c["combat"]), ("removed after its event", c["removed"]),
                             ("optional", c["optional"])) if on]
    print("  " + ", ".join(values + flags))
    if c["reinforcements"]:
        print(f"  reinforcements: {', '.join(c['reinforcements'])}")
    print(f"  event: {'written' if c['event'] else 'not written'}" +
          (f" — {c['event_note']}" if c["event_note"] else ""))
    for n in c["nested"]:
        print(f"  {n['kind']} {n['name']}" + (f": {n['note']}" if n["note"] else ""))
    cites = c["cites"]
    parts = [f"{where} {', '.join(cites[where])}" for where in ("card", "playable", "event") if cites[where]]
    parts += [f"{name} {', '.join(numbers)}" for name, numbers in cites["nested"].items() if numbers]
    print(f"  rules: {', '.join(c['rules']) or 'none'}" + (f" ({'; '.join(parts)})" if parts else ""))
    print(f"  source: {c['location']}")
    print(f"  tests: {len(c['tests'])}" + "".join(f"\n    {t}" for t in c["tests"]))


def register(sub) -> None:
    p = sub.add_parser(
        "cards", help="list a scenario's strategy cards: values, event, rules and tests",
        description="List every strategy card of SCENARIO: side and number, name, deck, OPS/SR/war status/RP "
                    "values, whether it is a combat card or removed after its event, whether its event is "
                    "written, the rules it cites (the card block, its `playable when`, its event and its nested "
                    "modifiers and triggers), where it is defined, and the tests that name it with "
                    "@pytest.mark.card(\"AP 33\") (found by reading tests/**/*.py, without running them). "
                    "With CARD arguments, each card in full. A card is named by side and number (AP 6, cp 56) "
                    "or by its name; a name two cards bear must be written by number.",
        epilog="Exit status: 0 success, 1 the sources have errors, 2 wrong usage (unknown scenario or card).")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario name or .pog file")
    p.add_argument("card", nargs="*", metavar="CARD", help="only these cards, shown in full ('AP 6', Entrench …)")
    p.add_argument("--json", action="store_true",
                   help='print {"scenario", "cards": [{"key", "side", "number", "name", "deck", "ops", "sr", '
                        '"war_status", "rp", "removed", "combat", "event", "cites", "rules", "location", "tests", '
                        '...}], "summary", "unknown_markers", "marker_problems"}')
    p.add_argument("--missing", action="store_true", help="only the cards whose event is not written")
    p.add_argument("--untested", action="store_true", help="only the cards with an event but no test naming them")
    p.add_argument("--tests", metavar="DIR", default=None,
                   help="the folder of tests to read for card markers (default: ROOT/tests)")
    add_root_option(p)
    p.set_defaults(func=cmd_cards)
