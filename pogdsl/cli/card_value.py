"""`pogdsl card-value`: a card's worth by restricted play — the scenario with
and without the card, on the same seeds, and the difference it makes to its
side's win rate, with its interval and whether it is significant."""

from __future__ import annotations

import json
import sys

from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, games_and_workers_problem, scenario_error


def _err(text: str) -> None:
    print(f"pogdsl card-value: error: {text}", file=sys.stderr)


def cmd_card_value(args) -> int:
    from ..compiler import with_cards_out
    from ..opening import ScenarioError, open_scenario
    from ..sim.compare import card_worth, compare
    from .common import options_from
    from .simulate import _run, _ignore_ctrl_c, agents_from, print_summary

    problem = games_and_workers_problem(args)
    if problem:
        _err(problem)
        return EXIT_USAGE
    chosen = options_from(args)
    without = with_cards_out(args.scenario, [args.card])
    opened = []
    for spec in (args.scenario, without):
        try:
            opened.append(open_scenario(spec, args.root, options=chosen))
        except ScenarioError as err:
            return scenario_error(err, _err)
    world = opened[0].world
    gone = {c.key for c in world.cards} - {c.key for c in opened[1].world.cards}
    card = next(c for c in world.cards if c.key in gone)
    side = card.data.side.text
    label = f"{side.upper()} {card.data.number}"
    agents = agents_from(args, [s.key for s in world.sides])
    if isinstance(agents, str):
        _err(agents)
        return EXIT_USAGE
    args.agents_chosen = agents
    args.plot = None
    summaries = []
    for spec, scenario in zip((args.scenario, without), opened):
        summary, _ = _run(spec, scenario, None, chosen, args)
        summaries.append(summary)
        if summary.get("interrupted"):
            _ignore_ctrl_c()
            print(f"(interrupted: {spec} was not played to the end, nothing is compared)", file=sys.stderr)
            return 130
    titles = {s.key: str(getattr(s.data.title, "text", s.data.title) or s.key) for s in world.sides}
    worth = card_worth(summaries[0], summaries[1], side, titles.get(side, side))
    worth.update(card=label, name=card.data.name.text)
    differences = compare(summaries[1], summaries[0], titles)  # with the card minus without it
    if args.json:
        print(json.dumps({"card": label, "name": card.data.name.text, "side": side, "worth": worth,
                          "with": summaries[0], "without": summaries[1], "differences": differences}))
    else:
        if args.verbose:
            for s in summaries:
                print_summary(s, args)
                print()
        base = summaries[0]
        print(f"{label} '{card.data.name.text}' ({titles.get(side, side)}) in {args.scenario}: "
              f"{base['games']} games with it and without it on the same seeds (seed {args.seed}); players: "
              + ", ".join(f"{k} {v}" for k, v in base["agents"].items()))
        print(f"  worth to its side: {worth['text']}")
        print("  every difference, with the card minus without it:")
        for d in differences:
            print(f"    {d['text']}")
        if min(s["finished"] for s in summaries) < 30:
            print("  (fewer than 30 games: the intervals are rough; play more games)")
    return EXIT_ERRORS if any(s["failed"] for s in summaries) else EXIT_OK


def register(sub) -> None:
    from ..sim import DEFAULT_MAX_DECISIONS
    from .common import add_option_argument, add_root_option, whole_number

    p = sub.add_parser(
        "card-value", help="a card's worth: its side's win rate with and without it, on the same seeds",
        description="Play N games of SCENARIO and N of SCENARIO without CARD (taken out of the game before the "
                    "deal, as `simulate --without CARD`), on the same seeds, and print the difference the card "
                    "makes to its side's win rate — with it minus without it — with Newcombe's 95% interval and "
                    "whether it is significant, then every other difference `simulate --against` reports. A "
                    "card's worth is a figure of the players: give them with --ap/--cp/--agent. A card the rules "
                    "name elsewhere cannot be taken out (the error says which rule names it).",
        epilog="Exit status: 0 all games finished, 1 some failed (or the sources have errors), 2 wrong usage, "
               "130 stopped by Ctrl-C.")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario name (NAME+RULESET applies a rule set)")
    p.add_argument("card", metavar="CARD", help="the card, by side and number ('AP 14') or by its name")
    p.add_argument("--games", "-n", type=whole_number, default=100, metavar="N",
                   help="games with the card and as many without it (default 100)")
    p.add_argument("--seed", type=whole_number, default=0, help="the run's seed (default 0)")
    p.add_argument("--workers", "-w", type=whole_number, default=None, metavar="W",
                   help="worker processes (default: all cores); 1 plays in this process")
    p.add_argument("--ap", metavar="AGENT", help="player for side ap (default: simulate's)")
    p.add_argument("--cp", metavar="AGENT", help="player for side cp")
    p.add_argument("--agent", metavar="SIDE=AGENT", action="append", help="player for any side (repeatable)")
    p.add_argument("--json", action="store_true",
                   help="print {\"card\", \"name\", \"side\", \"worth\", \"with\", \"without\", \"differences\"}")
    p.add_argument("--verbose", "-v", action="store_true", help="also print both runs' summaries")
    p.add_argument("--progress", action=__import__("argparse").BooleanOptionalAction, default=None,
                   help="show a progress bar on stderr (default: when stderr is a terminal)")
    p.set_defaults(max_steps=None, max_decisions=DEFAULT_MAX_DECISIONS, backend="local", out=None)
    add_option_argument(p, "; both runs play with them")
    add_root_option(p)
    p.set_defaults(func=cmd_card_value)
