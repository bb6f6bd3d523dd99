"""`pogdsl ladder`: every pairing of some players on both sides, on the same
seeds: the score matrix, ratings and the seat bias (pogdsl/sim/ladder.py)."""

from __future__ import annotations

import json
import sys

from .common import (
    EXIT_ERRORS,
    EXIT_OK,
    EXIT_USAGE,
    add_option_argument,
    add_root_option,
    games_and_workers_problem,
    options_from,
    scenario_error,
    whole_number,
)


def _err(text: str) -> None:
    print(f"pogdsl ladder: error: {text}", file=sys.stderr)


def parse_players(text: str, side: str) -> list[str] | str:
    """The players of --players A,B,C (specs as `play --ap` takes them), or
    the one-line message of a usage error."""
    from ..sim.ladder import same_player_twice
    from .simulate import batch_player_problem

    players = [p.strip() for p in text.split(",") if p.strip()]
    if len(players) < 2:
        return "--players needs at least two players, separated by commas (e.g. random,mcts:8)"
    for spec in players:
        problem = batch_player_problem(spec, side)
        if problem:
            return problem
    return same_player_twice(players) or players


def cmd_ladder(args) -> int:
    from ..opening import ScenarioError, open_scenario
    from ..sim.ladder import LadderError, play_ladder
    from ..sim.records import output_problem

    if args.out:
        problem = output_problem(args.out)
        if problem:
            _err(problem)
            return EXIT_USAGE
    if args.records:
        return _ladder_of_records(args)
    if args.scenario is None or args.players is None:
        _err("give a SCENARIO and --players to play, or --from FILE... to ladder games already played")
        return EXIT_USAGE
    for name, default in (("games", 20), ("seed", 0)):
        if getattr(args, name) is None:
            setattr(args, name, default)
    problem = games_and_workers_problem(args)
    if problem:
        _err(problem)
        return EXIT_USAGE
    chosen = options_from(args)
    try:
        opened = open_scenario(args.scenario, args.root, options=chosen)
    except ScenarioError as err:
        return scenario_error(err, _err)
    sides = [s.key for s in opened.world.sides]
    players = parse_players(args.players, sides[0])
    if isinstance(players, str):
        _err(players)
        return EXIT_USAGE
    total = len(players) ** 2 * args.games
    bar = None
    if args.progress or (args.progress is None and sys.stderr.isatty()):
        from tqdm import tqdm

        bar = tqdm(total=total, unit="game", file=sys.stderr, desc=f"ladder {args.scenario}", dynamic_ncols=True)
    try:
        summary = play_ladder(args.scenario, players, games=args.games, seed=args.seed, root=args.root,
                              workers=args.workers, options=chosen, progress=bar.update if bar else None)
    except LadderError as err:
        _err(str(err))
        return EXIT_USAGE
    finally:
        if bar:
            bar.close()
    return _show(summary, args)


def _show(summary: dict, args) -> int:
    """Print (and with --out save) a ladder; the exit status."""
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                json.dump(summary, f, indent=1)
                f.write("\n")
        except OSError as err:
            _err(f"cannot write {args.out}: {err.strerror or err}")
            return EXIT_USAGE
    if args.json:
        print(json.dumps(summary))
    else:
        print_ladder(summary)
        if args.out:
            print(f"  saved: {args.out}")
    if summary["interrupted"]:
        return 130
    return EXIT_ERRORS if summary["failed"] else EXIT_OK


def _ladder_of_records(args) -> int:
    """`ladder --from FILE...`: the ladder of games already played, read from
    `simulate --out` records (a file a pairing, or parts of one)."""
    from ..sim.ladder import LadderError, ladder_of_records, same_player_twice

    played_here = [flag for flag, value in (("--games", args.games), ("--seed", args.seed),
                                            ("--workers", args.workers), ("--option", args.option or None))
                  if value is not None]
    if played_here:
        _err(f"--from reads games already played: {', '.join(played_here)} would set how games are played")
        return EXIT_USAGE
    players = None
    if args.players:
        players = [p.strip() for p in args.players.split(",") if p.strip()]
        if len(players) < 2:
            _err("--players needs at least two different players, separated by commas")
            return EXIT_USAGE
        twice = same_player_twice(players)
        if twice:
            _err(twice)
            return EXIT_USAGE
    try:
        read = _read_records(args)
        if isinstance(read, int):
            return read
        summary = ladder_of_records(read, players)
    except LadderError as err:
        _err(str(err))
        return EXIT_ERRORS
    summary["files"] = [str(p) for p in args.records]
    return _show(summary, args)


def _read_records(args):
    """The records of --from's files as a RecordsRead, or an exit status
    after a one-line error.  Every file must be of the same scenario (and
    SCENARIO's, when given) and options: a ladder compares players, not games."""
    import os

    from ..opening import ScenarioError, open_scenario
    from ..sim.ladder import RecordsRead
    from ..sim.records import RecordError, iter_records

    read, first = None, None
    for path in args.records:
        if not os.path.isfile(path):
            _err(f"{path} is {'a directory' if os.path.isdir(path) else 'not a file'}: give records files written "
                 "by `pogdsl simulate --out`")
            return EXIT_USAGE
        try:
            for n, rec in enumerate(iter_records(path), start=1):
                if first is None:
                    first = rec
                    if args.scenario is not None and rec["scenario"] != args.scenario:
                        _err(f"{path} holds games of {rec['scenario']}, not of {args.scenario}")
                        return EXIT_ERRORS
                    try:
                        opened = open_scenario(rec["scenario"], args.root, options=rec["options"])
                    except ScenarioError as err:
                        return scenario_error(err, lambda m: _err(f"{path}: its scenario: {m}"))
                    read = RecordsRead(rec["scenario"], [s.key for s in opened.world.sides], opened.options_text())
                    if len(read.sides) != 2:
                        _err(f"a ladder pairs players on two sides; {rec['scenario']} has {len(read.sides)}")
                        return EXIT_ERRORS
                elif n == 1 and (rec["scenario"], rec["options"]) != (first["scenario"], first["options"]):
                    _err(f"{path} holds games of {rec['scenario']} with options {rec['options']}, and "
                         f"{args.records[0]} of {first['scenario']} with {first['options']}: a ladder compares "
                         "players on the same games")
                    return EXIT_ERRORS
                read.add(rec, f"{path} record {n}")
        except RecordError as err:
            _err(f"{path}: {err}")
            return EXIT_ERRORS
        except OSError as err:
            _err(f"cannot read {path}: {err.strerror or err}")
            return EXIT_USAGE
    return read


def _pct(x: float | None) -> str:
    return "   —  " if x is None else f"{100 * x:5.1f}%"


def print_ladder(s: dict, out=None) -> None:
    out = out or sys.stdout
    players, sides = s["players"], s["sides"]
    if s.get("interrupted"):
        print(f"interrupted (Ctrl-C): the ladder is of the {len(s['pairings'])} pairings played (the last "
              "one stopped part way)", file=out)
    if s.get("files") is None:
        print(f"{s['scenario']} ladder: {len(players)} players, {s['games_a_pairing']} games a pairing on the same "
              f"seeds (seed {s['seed']}), {s['games']} games: {s['finished']} finished, {s['failed']} failed",
              file=out)
    else:
        sizes = s["pairing_sizes"]
        size = "no games" if not sizes else f"{sizes[0]}" if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}"
        seed = f"run seed {s['seed']}" if s["seed"] is not None else "several run seeds"
        print(f"{s['scenario']} ladder of {s['records']} games read from {len(s['files'])} records files: "
              f"{len(players)} players, {len(s['pairings'])} pairings of {size} games ({seed}): {s['finished']} "
              f"finished, {s['failed']} failed" + (f"; {s['left_out']} games of other players left out"
                                                  if s["left_out"] else ""), file=out)
    if s.get("options"):
        print("  options: " + ", ".join(f"{k}={v}" for k, v in s["options"].items()), file=out)
    print("  a win scores 1, a game no side wins ½ (draws count half); failed games are left out", file=out)
    print(file=out)
    width = max(12, *(len(p) for p in players))
    cell = 22
    print("score of the row player against the column player, on both sides (95% interval):", file=out)
    print(" " * (width + 2) + "".join(f"{p:>{cell}}" for p in players), file=out)
    for a in players:
        row = []
        for b in players:
            c = s["matrix"].get(a, {}).get(b)
            if a == b or c is None or not c["games"]:
                row.append(f"{'—':>{cell}}")
            else:
                row.append(f"{_pct(c['rate'])} ({100 * c['low']:.0f}–{100 * c['high']:.0f})".rjust(cell))
        print(f"  {a:<{width}}" + "".join(row), file=out)
    print(file=out)
    ratings = s["ratings"]
    print(f"ratings (Bradley–Terry with a side term, Elo scale, {ratings['anchor']} = 0; 95% interval):", file=out)
    for p, r in sorted(ratings["players"].items(), key=lambda kv: -kv[1]["elo"]):
        interval = "(anchor)" if p == ratings["anchor"] else f"({r['low']:+.0f} to {r['high']:+.0f})"
        print(f"  {p:<{width}} {r['elo']:+7.0f}  {interval}", file=out)
    print(file=out)
    side = ratings["side"]
    first = sides[0]
    print("seat bias (how much of a side's score is the side's, not the player's):", file=out)
    print(f"  between equal players {first} scores {_pct(side['expected'])} (95% interval "
          f"{100 * side['expected_low']:.1f} to {100 * side['expected_high']:.1f}%; the model's side term "
          f"{side['elo']:+.0f} Elo)", file=out)
    bias = s["seat_bias"]
    for p, c in bias["self_play"].items():
        print(f"  {p} against itself: {first} scores {_pct(c['rate'])} of {c['games']} games "
              f"(95% interval {100 * c['low']:.1f} to {100 * c['high']:.1f}%)", file=out)
    if bias["all_games"]:
        c = bias["all_games"]
        print(f"  all games: {first} scores {_pct(c['rate'])} (95% interval {100 * c['low']:.1f} to "
              f"{100 * c['high']:.1f}%)", file=out)
    print(file=out)
    print(f"pairings ({sides[0]} player vs {sides[1]} player: games each outcome):", file=out)
    for p in s["pairings"]:
        who = f"{p['players'][sides[0]]} vs {p['players'][sides[1]]}"
        counts = ", ".join(f"{k} {v}" for k, v in p["outcomes"].items())
        print(f"  {who:<{2 * width + 4}} {counts}" + (f", failed {p['failed']}" if p["failed"] else ""), file=out)
    if s.get("seconds") is not None:
        print(f"  {s['games']} games in {s['seconds']:.1f} s", file=out)


def register(sub) -> None:
    from ..agents import AGENT_SPECS

    p = sub.add_parser(
        "ladder", help="play every pairing of some players on both sides: win-rate matrix, ratings, seat bias",
        description="Play every ordered pairing of the --players on SCENARIO's two sides (each player against "
                    "each other on both sides, and against itself), N games a pairing on the same seeds "
                    "(game i of every pairing plays the seed `simulate --seed S` gives game i), and print: the "
                    "score of each player against each other over both sides with its 95% Wilson interval; a "
                    "rating for each player (a Bradley–Terry model with a side term, fitted by maximum "
                    "likelihood, on the Elo scale with the first player at 0, with its 95% interval from the "
                    "Fisher information); and the seat bias: the first side's expected score between equal "
                    "players (the model's side term), in each player's self-play games and over all games. "
                    "With --from it plays nothing and reads the games from `simulate --out` records instead, "
                    "so a ladder of costly players can be played pairing by pairing, in parts, on several "
                    "machines. "
                    "A win scores 1, a game no side wins (a draw, or a declared result like both_lose) ½ to "
                    "each; failed games are left out. See docs/balance.rst.",
        epilog="Exit status: 0 all games finished, 1 some failed (or the sources have errors), 2 wrong usage, "
               "130 stopped by Ctrl-C (after printing the ladder of the pairings played).")
    p.add_argument("scenario", metavar="SCENARIO", nargs="?",
                   help="scenario name or .pog file (NAME+RULESET applies a rule set); with --from, the "
                        "records name it (given, it must be theirs)")
    p.add_argument("--players", metavar="A,B,...",
                   help=f"the players, comma-separated, each a spec as `play --ap` takes it ({AGENT_SPECS}; "
                        "not human or script); the first is the ratings' anchor (0). Two spellings of one player "
                        "(ismcts:16:::2 and ismcts:16:40:0:2) are one player. Needed to play; with "
                        "--from, the players to rate, in this order (default: every player in the records)")
    p.add_argument("--from", dest="records", nargs="+", metavar="FILE",
                   help="play nothing: the ladder of the games in these records files, written by `simulate "
                        "--out` (one pairing a file, or its parts: `simulate --first`), of one scenario with "
                        "the same options; a pairing may hold any number of games, or none (no score shown); "
                        "the same game twice is refused")
    p.add_argument("--games", "-n", type=whole_number, default=None, metavar="N",
                   help="games a pairing (default 20); there are (players)² pairings")
    p.add_argument("--seed", type=whole_number, default=None, help="the seed of every pairing's run (default 0)")
    p.add_argument("--workers", "-w", type=whole_number, default=None, metavar="W",
                   help="worker processes (default: all cores); 1 plays in this process")
    p.add_argument("--json", action="store_true",
                   help="print the ladder as one JSON object: \"matrix\", \"ratings\", \"seat_bias\", \"pairings\"")
    p.add_argument("--out", metavar="FILE", help="also write that JSON object to FILE")
    p.add_argument("--progress", action=__import__("argparse").BooleanOptionalAction, default=None,
                   help="show a progress bar on stderr (default: when stderr is a terminal)")
    add_option_argument(p, "; every game plays with them")
    add_root_option(p)
    p.set_defaults(func=cmd_ladder)
