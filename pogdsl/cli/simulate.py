"""`pogdsl simulate`: many games with random agents (or mcts:N for a side), in parallel."""

from __future__ import annotations

import json
import sys

from .common import whole_number
from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, add_option_argument, add_root_option, options_from


def _err(text: str) -> None:
    print(f"pogdsl simulate: error: {text}", file=sys.stderr)


def cmd_simulate(args) -> int:
    from ..opening import ScenarioError, open_scenario
    from ..sim import BackendMissing, require_backend, simulate

    if args.games < 1:
        _err("--games must be at least 1")
        return EXIT_USAGE
    if args.workers is not None and args.workers < 1:
        _err("--workers must be at least 1")
        return EXIT_USAGE
    # A game needs at least one step between decisions and at least one
    # decision: a limit below that would only make every game fail.
    for flag, limit in (("--max-steps", args.max_steps), ("--max-decisions", args.max_decisions)):
        if limit is not None and limit < 1:
            _err(f"{flag} must be at least 1")
            return EXIT_USAGE
    try:
        require_backend(args.backend)
    except BackendMissing as err:
        _err(str(err))
        return EXIT_USAGE
    chosen = options_from(args)
    try:
        opened = open_scenario(args.scenario, args.root, options=chosen)
    except ScenarioError as err:
        if err.text:
            print(err.text, file=sys.stderr)
        _err(err.message)
        return EXIT_ERRORS
    agents = agents_from(args, [s.key for s in opened.world.sides])
    if isinstance(agents, str):
        _err(agents)
        return EXIT_USAGE

    bar = None
    if args.progress or (args.progress is None and sys.stderr.isatty()):
        from tqdm import tqdm

        bar = tqdm(total=args.games, unit="game", file=sys.stderr, desc=f"simulate {args.scenario}",
                   dynamic_ncols=True)
    try:
        summary = simulate(args.scenario, games=args.games, seed=args.seed, root=args.root,
                           workers=args.workers, max_steps=args.max_steps, max_decisions=args.max_decisions,
                           backend=args.backend, progress=bar.update if bar else None, options=chosen,
                           agents=agents)
    finally:
        if bar:
            bar.close()

    if args.json:
        print(json.dumps(summary))
    else:
        print_summary(summary, args)
    return EXIT_ERRORS if summary["failed"] else EXIT_OK


SIMULATE_AGENTS = ("random", "mcts")  # players that need no terminal and no file


def agents_from(args, sides: list[str]) -> dict[str, str] | str:
    """SIDE → agent spec from --ap, --cp and --agent SIDE=SPEC (the sides not
    named play at random), or the one-line message of a usage error."""
    from ..agents import make_agent

    given = [("ap", args.ap)] if args.ap else []
    given += [("cp", args.cp)] if args.cp else []
    for item in args.agent or []:
        side, eq, spec = item.partition("=")
        if not eq:
            return f"--agent takes SIDE=SPEC, not '{item}'"
        given.append((side.strip(), spec.strip()))
    agents = {}
    for side, spec in given:
        if side not in sides:
            return f"this scenario has no side '{side}' (sides: {', '.join(sides)})"
        if spec.partition(":")[0].strip().lower() not in SIMULATE_AGENTS:
            return f"simulate plays with random or mcts:N agents, not '{spec}'"
        try:
            make_agent(spec, side, 0)
        except ValueError as err:
            return str(err)
        if spec.strip().lower() != "random":
            agents[side] = spec.strip()
    return agents


def print_summary(s: dict, args) -> None:
    out = sys.stdout
    print(f"{s['scenario']}: {s['games']} games, seed {s['seed']}: {s['finished']} finished, "
          f"{s['failed']} failed", file=out)
    if s.get("agents"):
        print("  players: " + ", ".join(f"{k} {v}" for k, v in s["agents"].items()), file=out)
        for side, v in (s.get("agent_speed") or {}).items():
            if v["decisions_per_second"]:
                print(f"  {side} looked ahead at {v['decisions']} decisions in {v['seconds']:.1f} s: "
                      f"{v['decisions_per_second']:,.1f} decisions/s", file=out)
    if s.get("options"):
        print("  options: " + ", ".join(f"{k}={v}" for k, v in s["options"].items()), file=out)
    if s["finished"]:
        kinds = s.get("result_kinds") or {}
        width = max(len(k) for k in [*s["results"], *kinds])
        for side, n in s["results"].items():
            rate = 100.0 * n / s["finished"]
            print(f"  {side:<{width}}  {n:>6}  {rate:5.1f}%  {'#' * round(rate / 2.5)}", file=out)
        if kinds:
            print("  results the scenario declares:", file=out)
            for kind, n in kinds.items():
                rate = 100.0 * n / s["finished"]
                print(f"  {kind:<{width}}  {n:>6}  {rate:5.1f}%  {'#' * round(rate / 2.5)}", file=out)
        if s["reasons"]:
            print("  endings: " + ", ".join(f"{k or '(no reason)'} {v}" for k, v in s["reasons"].items()), file=out)
        print(f"  {s['mean_decisions']} decisions and {s['mean_turns']} turns a game on average", file=out)
    events = s.get("card_events") or {}
    if events:
        played = sum(1 for v in events.values() if v["played"])
        print(f"  card events: {played} of the {len(events)} written played at least once "
              f"({sum(v['played'] for v in events.values())} plays; --json gives them per card)", file=out)
    rate = s["decisions_per_second"]
    print(f"  {s['decisions']} decisions in {s['seconds']:.2f} s"
          + (f": {rate:,.0f} decisions/s" if rate else ""), file=out)
    if s["failures"]:
        print(f"failures ({len(s['failures'])}):", file=out)
        for f in s["failures"][:20]:
            print(f"  game {f['game']} seed {f['seed']} [{f['kind']}]: {f['error']}", file=out)
        if len(s["failures"]) > 20:
            print(f"  ... and {len(s['failures']) - 20} more (see --json)", file=out)
        first = s["failures"][0]
        chosen = "".join(f" --option {k}={v}" for k, v in options_from(args).items())
        who = s.get("agents") or {"ap": "random", "cp": "random"}
        print(f"replay one with: pogdsl play {args.scenario} --seed {first['seed']} "
              + " ".join(f"--agent {k}={v}" if k not in ("ap", "cp") else f"--{k} {v}" for k, v in who.items())
              + chosen + (f" --root {args.root}" if args.root else ""), file=out)


def register(sub) -> None:
    from ..sim import BACKENDS, DEFAULT_MAX_DECISIONS, DEFAULT_MAX_STEPS

    p = sub.add_parser(
        "simulate", help="play many games with random agents and summarise who wins",
        description="Play N games of SCENARIO with random agents on a local process pool and print the win "
                    "counts, how games ended, and decisions per second. Game i uses a seed derived from --seed "
                    "and i, so the same --seed gives the same results (apart from timings) with any number of "
                    "workers. Random players answer without listing every option: they try options in a random order "
                    "until one is legal, which picks as a uniform (or weighted) draw from the list would. "
                    "A game that reaches a dead end (a choice with no legal option), runs more than "
                    "--max-steps steps without a decision, or more than --max-decisions decisions is reported as "
                    "a failure with its seed.",
        epilog="Exit status: 0 all games finished, 1 some failed (or the sources have errors), 2 wrong usage.")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario name or .pog file; NAME+RULESET applies a rule set to scenario NAME")
    p.add_argument("--games", "-n", type=whole_number, default=100, metavar="N", help="how many games (default 100)")
    p.add_argument("--seed", type=whole_number, default=0, help="the run's seed (default 0)")
    p.add_argument("--workers", "-w", type=whole_number, default=None, metavar="W",
                   help="worker processes (default: all cores); 1 runs in this process")
    p.add_argument("--json", action="store_true",
                   help="print the summary as one JSON object (the last line of stdout); its \"card_events\" "
                        "gives, for each card whose event is written, how many times the event was played "
                        "and in how many games: {\"AP 6\": {\"name\", \"played\", \"games\"}}; its \"options\" "
                        "the value of each of the scenario's options the games played with")
    p.add_argument("--progress", action=__import__("argparse").BooleanOptionalAction, default=None,
                   help="show a progress bar on stderr (default: when stderr is a terminal)")
    p.add_argument("--max-steps", type=whole_number, default=None, metavar="N",
                   help="a game that runs N steps without a decision fails (default: the scenario's `limit steps`, "
                        f"else {DEFAULT_MAX_STEPS:,})")
    p.add_argument("--max-decisions", type=whole_number, default=DEFAULT_MAX_DECISIONS, metavar="N",
                   help=f"a game with more than N decisions fails (default {DEFAULT_MAX_DECISIONS:,})")
    p.add_argument("--ap", metavar="AGENT",
                   help="player for side ap: random (the default) | mcts:N (N random playouts a decision: "
                        "stronger, and about N times slower a decision) | mcts:N:D (each playout cut after D "
                        "decisions, default 30); seeded from each game's seed and the side, as `play --seed` is")
    p.add_argument("--cp", metavar="AGENT", help="player for side cp (same choices as --ap)")
    p.add_argument("--agent", metavar="SIDE=AGENT", action="append",
                   help="player for any side, e.g. --agent ap=mcts:100 (repeatable)")
    p.add_argument("--backend", choices=BACKENDS, default="local",
                   help="where games run: local (a process pool, the default), ray or dask (an existing "
                        "cluster from $RAY_ADDRESS / $DASK_SCHEDULER_ADDRESS, else a local one; needs the "
                        "pogdsl[ray] or pogdsl[dask] extra)")
    add_option_argument(p, "; every game plays with them, and the same --seed and options give the same games")
    add_root_option(p)
    p.set_defaults(func=cmd_simulate)
