"""`pogdsl bid`: the tournament bid (5.6.1) that brings the two sides
closest to even, with its interval (pogdsl/sim/bid.py)."""

from __future__ import annotations

import json
import sys

from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, games_and_workers_problem, scenario_error


def _err(text: str) -> None:
    print(f"pogdsl bid: error: {text}", file=sys.stderr)


def cmd_bid(args) -> int:
    from ..opening import ScenarioError
    from ..sim.bid import BidError, bid_scenario, find_bid
    from .common import options_from
    from .simulate import agents_from

    problem = games_and_workers_problem(args)
    if problem:
        _err(problem)
        return EXIT_USAGE
    chosen = options_from(args)
    try:
        _, opened, _, _ = bid_scenario(args.scenario, args.root, chosen)
    except ScenarioError as err:
        return scenario_error(err, _err)
    except BidError as err:
        _err(str(err))
        return EXIT_USAGE
    agents = agents_from(args, [s.key for s in opened.world.sides])
    if isinstance(agents, str):
        _err(agents)
        return EXIT_USAGE
    bar = None
    if args.progress or (args.progress is None and sys.stderr.isatty()):
        from tqdm import tqdm

        bar = tqdm(unit="game", file=sys.stderr, desc=f"bid {args.scenario}", dynamic_ncols=True)
    try:
        out = find_bid(args.scenario, games=args.games, seed=args.seed, root=args.root, workers=args.workers,
                       options=chosen, agents=agents, progress=bar.update if bar else None)
    except BidError as err:
        _err(str(err))
        return EXIT_USAGE
    finally:
        if bar:
            bar.close()
    if args.json:
        print(json.dumps(out))
    else:
        print_bid(out)
    if out["interrupted"]:
        return 130
    return EXIT_ERRORS if any(b["failed"] for b in out["bids"]) else EXIT_OK


def print_bid(out: dict) -> None:
    sides, titles = out["sides"], out["titles"]
    first = titles.get(sides[0], sides[0])
    if out["interrupted"]:
        print("interrupted (Ctrl-C): the bids played so far, no bid chosen")
    print(f"tournament bid for {out['scenario']} (played as {out['played_as']}): {out['games']} games a bid on the "
          f"same seeds (seed {out['seed']}); players: " + ", ".join(f"{k} {v}" for k, v in out["agents"].items()))
    print(f"  the {first}' score: their wins and half the games no side won, over the finished games "
          "(even is 50%)")
    width = max(len(b["text"]) for b in out["bids"]) if out["bids"] else 10
    for b in out["bids"]:
        s = b["score"]
        counts = ", ".join(f"{k} {v}" for k, v in b["results"].items())
        score = "—" if s["rate"] is None else (f"{100 * s['rate']:5.1f}% (95% CI {100 * s['low']:.1f} to "
                                              f"{100 * s['high']:.1f}%)")
        otherwise = f"; {b['played_otherwise']} played otherwise than with no bid" if b["bid"] else ""
        print(f"  {b['text']:<{width}}  {score}  [{counts}{otherwise}]")
    best = out.get("best")
    if best:
        i = best["interval"]

        def end(bid, limit, word):
            from ..sim.bid import describe_bid

            return describe_bid(bid, titles, sides) + (f" or {word} (the option's limit)" if limit else "")

        print(f"closest to even: {best['text']} (the {first} score {100 * best['score']['rate']:.1f}%)")
        if i["low"] == i["high"]:
            print("  95% interval: that bid only (every other bid played is unbalanced)")
        else:
            print(f"  95% interval: from {end(i['high'], i['high_is_limit'], 'more')} to "
                  f"{end(i['low'], i['low_is_limit'], 'more')} (the bids the games cannot tell from even)")


def register(sub) -> None:
    from .common import add_option_argument, add_root_option, whole_number

    p = sub.add_parser(
        "bid", help="the tournament VP bid (5.6.1) that brings the two sides closest to even, with its interval",
        description="Find the tournament bid of rule 5.6.1 for SCENARIO: the VP one side gives the other at the "
                    "end of the game that brings the two sides closest to even. The scenario takes the bid "
                    "through the options bid_side and vp_bid (the rule set tournament_bid: a scenario that does "
                    "not declare them is played as SCENARIO+tournament_bid). Each bid is played on the same "
                    "seeds, N games, and scored by the first side's score (wins plus half the games no side "
                    "won) with its 95% Wilson interval; the walk starts at no bid, steps toward the side the "
                    "games favour until the score crosses 50%, and goes on around the best bid while the score's "
                    "interval holds 50%: those bids are the bid's interval. Each bid is played again, not "
                    "rescored, since players may read it (see docs/balance.rst).",
        epilog="Exit status: 0 all games finished, 1 some failed (or the sources have errors), 2 wrong usage, "
               "130 stopped by Ctrl-C.")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario name, e.g. historical")
    p.add_argument("--games", "-n", type=whole_number, default=100, metavar="N", help="games a bid (default 100)")
    p.add_argument("--seed", type=whole_number, default=0, help="the seed of every bid's run (default 0)")
    p.add_argument("--workers", "-w", type=whole_number, default=None, metavar="W",
                   help="worker processes (default: all cores); 1 plays in this process")
    p.add_argument("--ap", metavar="AGENT", help="player for side ap (default: simulate's)")
    p.add_argument("--cp", metavar="AGENT", help="player for side cp")
    p.add_argument("--agent", metavar="SIDE=AGENT", action="append", help="player for any side (repeatable)")
    p.add_argument("--json", action="store_true",
                   help="print {\"bids\": [each bid played, with its score], \"best\": {\"bid\", \"interval\"}...}")
    p.add_argument("--progress", action=__import__("argparse").BooleanOptionalAction, default=None,
                   help="show a progress count on stderr (default: when stderr is a terminal)")
    add_option_argument(p, "; every bid plays with them (not bid_side and vp_bid: the bid sets those)")
    add_root_option(p)
    p.set_defaults(func=cmd_bid)
