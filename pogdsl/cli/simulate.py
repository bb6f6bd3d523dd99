"""`pogdsl simulate`: many games between computer players (random by default), in parallel."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

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
    print(f"pogdsl simulate: error: {text}", file=sys.stderr)


def one_line(text) -> str:
    """Text from a records file or a game, shown on one line of the summary
    (its newlines and control characters escaped)."""
    from ..safe_io import escape_controls

    return escape_controls(str(text), keep_lines=False)


def cmd_simulate(args) -> int:
    """`_simulate`, with the SIGTERM handler it sets put back afterwards:
    main() may be called again in the same process (tests, the fuzzer).
    (A run stopped by Ctrl-C ignores a second one to the end of the process:
    it arrives while the summary is printed, or as the process ends.)"""
    import signal
    import threading

    main = threading.current_thread() is threading.main_thread()
    previous = {signal.SIGTERM: signal.getsignal(signal.SIGTERM)} if main else {}
    try:
        return _simulate(args)
    finally:
        for number, handler in previous.items():
            if handler is not None:
                signal.signal(number, handler)


def _simulate(args) -> int:
    from ..opening import ScenarioError, open_scenario
    from ..sim import BackendMissing, require_backend

    problem = games_and_workers_problem(args)
    if problem:
        _err(problem)
        return EXIT_USAGE
    if args.first < 0:
        _err("--first must be 0 or more (the number of the run's first game)")
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
    from ..sim.records import output_problem

    if args.plot is not None:
        problem = plot_folder_problem(args.plot)
        if problem:
            _err(problem)
            return EXIT_USAGE
    chosen = options_from(args)
    outs = []
    if args.out:
        outs.append(args.out)
        if args.against:
            outs.append(against_path(args.out))
    for path in outs:
        problem = output_problem(path)
        if problem:
            _err(problem)
            return EXIT_USAGE
    if getattr(args, "without", None):
        from ..compiler import with_cards_out

        args.scenario = with_cards_out(args.scenario, args.without)
        if args.against:
            args.against = with_cards_out(args.against, args.without)
    opened = []
    for spec in [args.scenario] + ([args.against] if args.against else []):
        try:
            opened.append((spec, open_scenario(spec, args.root, options=chosen)))
        except ScenarioError as err:
            return scenario_error(err, _err)
    agents = agents_from(args, [s.key for s in opened[0][1].world.sides])
    if isinstance(agents, str):
        _err(agents)
        return EXIT_USAGE
    args.agents_chosen = agents

    from ..sim import stop_on_sigterm

    stop_on_sigterm()  # `kill PID` ends the run as Ctrl-C does: workers stopped, the games finished summarised
    summaries, played = [], []
    for (spec, scenario), out in zip(opened, outs or [None] * len(opened)):
        summary, records = _run(spec, scenario, out, chosen, args)
        summaries.append(summary)
        played.append(records)
        if summary.get("interrupted"):
            break  # Ctrl-C: the variant (if any) is not played
    interrupted = any(s.get("interrupted") for s in summaries)
    if interrupted:
        _ignore_ctrl_c()  # a second Ctrl-C while the games finished are summarised changes nothing
    write_failed = next((s["stopped_by"] for s in summaries if s.get("write_failed")), None)

    if args.against and not interrupted:
        from ..sim.compare import compare

        world = opened[0][1].world
        titles = {s.key: str(getattr(s.data.title, "text", s.data.title) or s.key) for s in world.sides}
        differences = compare(summaries[0], summaries[1], titles)
        written = []
        if args.plot and any(played):
            from ..sim.plots import plot_comparison

            written = _plot(lambda: plot_comparison(played[0], played[1], args.plot,
                                                    labels=(args.scenario, args.against)), args.plot)
            if written is None:
                return EXIT_ERRORS
        if args.json:
            out = {"base": summaries[0], "variant": summaries[1], "differences": differences}
            if args.plot:
                out["plots"] = [str(p) for p in written]
            print(json.dumps(out))
        else:
            for s in summaries:
                print_summary(s, args)
                print()
            print_differences(args.scenario, args.against, summaries, differences)
            if args.plot:
                print_plots(played, written)
        for path in outs:
            print(f"records: {path}", file=sys.stderr)
        return EXIT_ERRORS if any(s["failed"] for s in summaries) else EXIT_OK

    summary = summaries[0]
    written = []
    if args.plot and played[0]:
        from ..sim.plots import plot_records

        written = _plot(lambda: plot_records(played[0], args.plot, label=args.scenario), args.plot)
        if written is None:
            return EXIT_ERRORS
        summary["plots"] = [str(p) for p in written]
    if args.json:
        if len(summaries) == 2:  # Ctrl-C while the variant was played: nothing is compared
            print(json.dumps({"base": summary, "variant": summaries[1], "differences": None}))
        else:
            print(json.dumps(summary))
    else:
        print_summary(summary, args)
        if outs:
            print(f"  records: {outs[0]} (pogdsl report {outs[0]} summarises them again)")
        if args.plot:
            print_plots(played[:1], written)
        if args.against:  # stopped by Ctrl-C: the comparison is not made
            if len(summaries) == 2:
                print()
                print_summary(summaries[1], args)
            print(f"(interrupted: {args.against} was not played to the end, nothing is compared)")
    if write_failed:
        _err(write_failed)
        return EXIT_ERRORS
    if interrupted:  # as a shell reports a command stopped by Ctrl-C (SIGINT) or SIGTERM
        return 143 if any(s.get("stopped_by") == "SIGTERM" for s in summaries) else 130
    return EXIT_ERRORS if summary["failed"] else EXIT_OK


def _plot(draw, folder) -> list | None:
    """The figures DRAW writes, or None after a one-line error (a full disk,
    a file size limit, a FIFO where a figure goes)."""
    try:
        return draw()
    except OSError as err:
        where = f" {err.filename}" if getattr(err, "filename", None) else f" into {folder}"
        _err(f"cannot write the figures{where}: {err.strerror or err}")
        return None


def against_path(out: str) -> str:
    """Where the variant's records go with --against: FILE-against.EXT."""
    from pathlib import Path

    p = Path(out)
    return str(p.with_name(p.stem + "-against" + p.suffix))


def _run(spec: str, opened, out, chosen: dict, args):
    """Play one scenario's games: its summary, and (with --plot) what its
    figures read of them, a plots.PlotData (with --out the records are also
    written, game by game, as they finish)."""
    from ..sim import simulate
    from ..sim.records import RecordWriter, card_labels, plot_fields, to_record

    labels = card_labels(opened.world)
    options = opened.options_text()
    writer = None
    if out:
        try:
            writer = RecordWriter(out, labels, spec, options, args.seed)
        except OSError as err:
            from ..errors import UsageError

            raise UsageError(f"cannot write {out}: {err.strerror or err}") from None
    from ..sim.plots import PlotData

    played = PlotData()  # what the figures read of each game, added up: any --games in bounded memory

    def on_results(results: list[dict]) -> None:
        if writer:
            try:
                writer.write(results)
            except OSError as err:
                from ..safe_io import write_error_text
                from ..sim import RunStopped

                stopped.append(f"cannot write {out}: {write_error_text(err)}; the run stopped after "
                               f"{writer.count} games (the records written so far are kept)")
                raise RunStopped(stopped[-1]) from None
        if args.plot:
            for r in results:
                played.add(plot_fields(to_record(r, labels, spec, options, args.seed)))

    stopped: list[str] = []

    bar = None
    if args.progress or (args.progress is None and sys.stderr.isatty()):
        from tqdm import tqdm

        bar = tqdm(total=args.games, unit="game", file=getattr(sys.stderr, "raw", sys.stderr),  # (it draws with \r)
                   desc=f"simulate {one_line(spec)}",
                   dynamic_ncols=True)
    try:
        summary = simulate(spec, games=args.games, seed=args.seed, root=args.root,
                           workers=args.workers, max_steps=args.max_steps, max_decisions=args.max_decisions,
                           backend=args.backend, progress=bar.update if bar else None, options=chosen,
                           on_results=on_results if (writer or args.plot) else None,
                           # (card-value runs this with arguments of its own, which have no --first)
                           agents=getattr(args, "agents_chosen", None), first=getattr(args, "first", 0))
    finally:
        if bar:
            bar.close()
        if writer:
            writer.close()
    if stopped:
        summary["write_failed"] = True
    return summary, played


def print_differences(base: str, variant: str, summaries: list[dict], differences: list[dict]) -> None:
    print(f"{variant} against {base}, on the same {summaries[0]['games']} seeds "
          f"({summaries[1]['finished']} and {summaries[0]['finished']} games finished):")
    for d in differences:
        print(f"  {d['text']}")
    if not differences:
        print("  nothing to compare (no game finished)")
    elif min(s["finished"] for s in summaries) < 30:
        print("  (fewer than 30 games: the intervals of the means are rough; play more games)")


def plot_folder_problem(folder: Path) -> str | None:
    """Why figures cannot be written into `folder`, found before any game is
    played; None when they can."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        return "--plot needs matplotlib, which is not installed: pip install matplotlib"
    for parent in (folder, *folder.parents):
        if os.path.lexists(parent):
            if not os.path.isdir(parent):
                return f"--plot {folder}: {parent} is a file, not a folder"
            if not os.access(parent, os.W_OK):
                return f"--plot {folder}: {parent} cannot be written to"
            return None
    return None


def _ignore_ctrl_c() -> None:
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def print_plots(runs: list, written: list) -> None:
    """The figures written, for RUNS (each a PlotData, or a list of records)."""
    from ..sim.plots import PlotData

    runs = [r if isinstance(r, PlotData) else PlotData(r) for r in runs]
    if not written:
        print("plots: none (no game finished)")
        return
    print("plots:")
    for path in written:
        print(f"  {path}")
    if not any(r.final_vp for r in runs):
        print("  (the games' results carry no VP: the final VP and VP-over-turns figures are left out)")


def batch_player_problem(spec: str, side: str) -> str | None:
    """Why SPEC cannot play SIDE in a batch of games (an unknown or malformed
    spec, a person, a script), or None: any player agents.make_agent knows
    whose class says it plays from its seed alone (Agent.batch)."""
    from ..agents import make_agent

    try:
        agent = make_agent(spec, side, 0)
    except (ValueError, OSError) as err:
        return str(err) if isinstance(err, ValueError) else f"{spec}: {err.strerror or err}"
    except Exception as err:  # noqa: BLE001 - a player that cannot be made is a usage error, not a crash
        return f"cannot make player '{spec}': {type(err).__name__}: {err}"
    if not getattr(agent, "batch", True):
        return f"'{spec}' cannot play a batch of games (it needs a person or a file): use a computer player"
    return None


def agents_from(args, sides: list[str]) -> dict[str, str] | str:
    """SIDE → agent spec from --ap, --cp and --agent SIDE=SPEC (the sides not
    named play DEFAULT_PLAYER), or the one-line message of a usage error."""
    from ..sim import DEFAULT_PLAYER

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
        problem = batch_player_problem(spec, side)
        if problem:
            return problem
        agents[side] = spec.strip()
    return {side: agents.get(side, DEFAULT_PLAYER) for side in sides}


def print_summary(s: dict, args) -> None:
    out = sys.stdout
    if s.get("interrupted"):
        by = s.get("stopped_by") or "Ctrl-C"
        why = f"interrupted ({by})" if by in ("Ctrl-C", "SIGTERM") else "stopped"
        print(f"{why}: the summary is of the {s['games']} of {s['games_asked']} games "
              "finished before", file=out)
    part = f" (games {s['first']} on)" if s.get("first") else ""
    print(f"{one_line(s['scenario'])}: {s['games']} games, seed {s['seed']}{part}: {s['finished']} finished, "
          f"{s['failed']} failed", file=out)
    if s.get("agents"):  # a balance figure is a figure of its players
        print("  players: " + ", ".join(f"{k} {v}" for k, v in s["agents"].items()), file=out)
        for side, v in (s.get("agent_speed") or {}).items():
            if v["decisions_per_second"]:
                print(f"  {side} looked ahead at {v['decisions']} decisions in {v['seconds']:.1f} s: "
                      f"{v['decisions_per_second']:,.1f} decisions/s", file=out)
    if s.get("options"):
        print("  options: " + one_line(", ".join(f"{k}={v}" for k, v in s["options"].items())), file=out)
    if s["finished"]:
        from ..sim.stats import proportion

        kinds = s.get("result_kinds") or {}
        width = max(len(one_line(k)) for k in [*s["results"], *kinds])
        cis = s.get("win_intervals") or {}

        def line(name, n, ci):
            ci = ci or proportion(n, s["finished"])
            rate = 100.0 * n / s["finished"]
            interval = f"95% CI {100 * ci['low']:5.1f} to {100 * ci['high']:5.1f}%"
            print(f"  {one_line(name):<{width}}  {n:>6}  {rate:5.1f}%  ({interval})  {'#' * round(rate / 2.5)}", file=out)

        for side, n in s["results"].items():
            line(side, n, cis.get(side))
        if kinds:
            print("  results the scenario declares:", file=out)
            for kind, n in kinds.items():
                line(kind, n, (s.get("result_intervals") or {}).get(kind))
        if s["reasons"]:
            print("  endings:", file=out)
            rw = max(len(one_line(k or "(no reason)")) for k in s["reasons"])
            for k, n in s["reasons"].items():
                ci = (s.get("reason_intervals") or {}).get(k) or proportion(n, s["finished"])
                print(f"    {one_line(k or '(no reason)'):<{rw}}  {n:>6}  {100.0 * n / s['finished']:5.1f}%  "
                      f"(95% CI {100 * ci['low']:.1f} to {100 * ci['high']:.1f}%)", file=out)
        for key, label in (("final_vp", "final VP"), ("turns", "last turn"), ("decisions_per_game", "decisions")):
            d = s.get(key)
            if d:
                print(f"  {label:<10} {describe(d)}", file=out)
        if not s.get("turns"):
            print(f"  {s['mean_decisions']} decisions and {s['mean_turns']} turns a game on average", file=out)
    print_course(s, out)
    events = s.get("card_events") or {}
    if events:
        played = sum(1 for v in events.values() if v["played"])
        print(f"  card events: {played} of the {len(events)} written played at least once "
              f"({sum(v['played'] for v in events.values())} plays; --json gives them per card)", file=out)
    rate = s["decisions_per_second"]
    if s["seconds"] is not None:
        print(f"  {s['decisions']} decisions in {s['seconds']:.2f} s"
              + (f": {rate:,.0f} decisions/s" if rate else ""), file=out)
    if s["failures"]:
        print(f"failures ({s['failed']}):", file=out)
        for f in s["failures"][:20]:
            print(f"  game {f['game']} seed {f['seed']} [{f['kind']}]: {one_line(f['error'])}", file=out)
        if s["failed"] > 20:
            print(f"  ... and {s['failed'] - 20} more (see --json)", file=out)
        first = s["failures"][0]
        chosen = "".join(f" --option {k}={v}" for k, v in (s.get("options") or {}).items())
        root = getattr(args, "root", None)
        who = s.get("agents") or {"ap": "random", "cp": "random"}
        import shlex

        print(f"replay one with: pogdsl play {shlex.quote(s['scenario'])} --seed {first['seed']} "
              + " ".join(f"--agent {k}={v}" if k not in ("ap", "cp") else f"--{k} {v}" for k, v in who.items())
              + chosen + (f" --root {root}" if root else ""), file=out)


def _shares(outcomes: dict, games: int) -> str:
    return "  ".join(f"{k} {100.0 * n / games:5.1f}%" for k, n in outcomes.items() if n or k != "draw")


def print_course(s: dict, out) -> None:
    """Who won by the turn the game ended and by how it ended, the VP
    course and the VP by turn of each side's wins (sim/course.py)."""
    turns = s.get("by_end_turn") or []
    if len(turns) > 1:
        print("  by the turn the game ended (games, then each outcome's share of them):", file=out)
        for row in turns:
            print(f"    turn {row['turn']:>3}  {row['games']:>6}  {_shares(row['outcomes'], row['games'])}", file=out)
    reasons = s.get("by_reason") or {}
    if len(reasons) > 1:
        print("  by how the game ended:", file=out)
        width = max(len(k or "(no reason)") for k in reasons)
        for k, row in reasons.items():
            print(f"    {k or '(no reason)':<{width}}  {row['games']:>6}  {_shares(row['outcomes'], row['games'])}",
                  file=out)
    course = s.get("vp_course")
    if course:
        even = course["break_even"]
        print(f"  VP course: {even['high']} ahead above {even['cut']:g} VP, {even['low']} below (the cut that best "
              f"parts the final VP of the two sides' wins; {even['misplaced']} of {even['games']} on the wrong side)",
              file=out)
        if course["lead_changes"]:
            print(f"    lead changes a game: {describe(course['lead_changes'])}", file=out)
        if course["decided_turn"]:
            print(f"    the winner led for good from turn: {describe(course['decided_turn'])}"
                  + (f"; {course['won_from_behind']} won from behind" if course["won_from_behind"] else ""),
                  file=out)
        foretold = course["leader_wins"]
        if foretold:
            print("    the side ahead at the end of turn t wins: "
                  + ", ".join(f"{x['turn']}: {100 * x['rate']:.0f}%" for x in foretold if x["rate"] is not None),
                  file=out)
    by_winner = s.get("vp_by_winner") or {}
    if by_winner:
        print("  mean VP at the end of each turn, by outcome (games):", file=out)
        width = max(len(k) for k in by_winner) + 1
        for k, row in by_winner.items():
            # "of ap:", not "ap": a line that begins with an outcome's name is the results table's
            print(f"    of {k + ':':<{width}} ({row['games']:>5})  " + " ".join(f"{v:.1f}" for v in row["mean"]),
                  file=out)


SPARKS = " ▁▂▃▄▅▆▇█"
ASCII_SPARKS = " .:-=+*%#"  # where standard output cannot print the bars


def _sparks() -> str:
    try:
        SPARKS.encode(sys.stdout.encoding or "ascii")
        return SPARKS
    except (UnicodeEncodeError, LookupError):
        return ASCII_SPARKS


def describe(d: dict) -> str:
    """One line for a distribution: mean, five numbers, a histogram as a
    sparkline between the least and the greatest value."""
    def num(x):
        return f"{x:g}" if isinstance(x, int) else f"{x:.4g}"

    top = max(b["count"] for b in d["histogram"]) or 1
    sparks = _sparks()
    spark = "".join(sparks[0 if not b["count"] else max(1, round(8 * b["count"] / top))] for b in d["histogram"])
    return (f"mean {num(d['mean'])} (sd {num(d['sd'])});  min {num(d['min'])}, q1 {num(d['q1'])}, "
            f"median {num(d['median'])}, q3 {num(d['q3'])}, max {num(d['max'])};  "
            f"{num(d['min'])} |{spark}| {num(d['max'])}")


def register(sub) -> None:
    from ..sim import BACKENDS, DEFAULT_MAX_DECISIONS, DEFAULT_MAX_STEPS, DEFAULT_PLAYER

    p = sub.add_parser(
        "simulate", help="play many games between computer players and summarise who wins, when and how",
        description=f"Play N games of SCENARIO between computer players ({DEFAULT_PLAYER} unless --ap/--cp/--agent "
                    "say otherwise; the summary names them) on a local process pool and print the win "
                    "rates of each side and of draws, each declared result and each way the games ended, each "
                    "with its 95% Wilson interval; the distribution (mean, quartiles, histogram) of the final "
                    "VP, the last turn and the decisions per game; who won by the turn the game ended and by how "
                    "it ended; the VP course (lead changes, the turn the winner led for good, how well the side "
                    "ahead at each turn foretells the winner) and the mean VP by turn of each side's wins "
                    "(docs/balance.rst); and decisions per second. Game i uses a seed derived from --seed "
                    "and i, so the same --seed gives the same results (apart from timings) with any number of "
                    "workers. Random players answer without listing every option: they try options in a random order "
                    "until one is legal, which picks as a uniform (or weighted) draw from the list would. "
                    "A game that reaches a dead end (a choice with no legal option), runs more than "
                    "--max-steps steps without a decision, or more than --max-decisions decisions is reported as "
                    "a failure with its seed.",
        epilog="Exit status: 0 all games finished, 1 some failed (or the sources have errors, or --out could not "
               "be written: the run stops there), 2 wrong usage, 130 stopped by Ctrl-C, 143 by SIGTERM (each after "
               "printing the summary of the games finished). Games are handed out as workers ask and summarised "
               "as they come: any --games runs in bounded memory.")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario name or .pog file; NAME+RULESET applies a rule set to scenario NAME")
    p.add_argument("--games", "-n", type=whole_number, default=100, metavar="N", help="how many games (default 100)")
    p.add_argument("--seed", type=whole_number, default=0, help="the run's seed (default 0)")
    p.add_argument("--first", type=whole_number, default=0, metavar="K",
                   help="play games K..K+N-1 of the seed (default 0): the very games a run of K+N games plays "
                        "last, so a long run can be played in parts — on several machines, or on after a stop — "
                        "and the parts' --out records joined (cat) and read by `pogdsl report`"),
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
                   help="a game with more than N decisions fails, named as a game that never ends, and the run "
                        "goes on (default: the scenario's `limit decisions`, else 1,000 for each of its turns)")
    p.add_argument("--ap", metavar="AGENT",
                   help=f"player for side ap (default {DEFAULT_PLAYER}): any computer player `play` takes (not "
                        "human or script): random | random:SEED | mcts:N (N random playouts a decision: stronger, and about N "
                        "times slower a decision) | mcts:N:D (each playout cut after D decisions, default 30) | ismcts:N "
                        "(information-set tree search over both sides' options where greedy finds its best options close, "
                        "N iterations a decision) | ismcts:N:H (each playout at most H decisions after the tree, "
                        "default 40) | ismcts:N:H:Z (a searched option overrides greedy's only when it leads by Z "
                        "standard errors; default 0, any lead) | ismcts:N:H:Z:F (its greedy plays F of its own "
                        "decisions on after each option, default 6; an empty number is its default: ismcts:16:::2); "
                        "seeded from each game's seed and the side, as `play --seed` is; the summary and the "
                        "records name each side's player")
    p.add_argument("--cp", metavar="AGENT", help="player for side cp (same choices as --ap)")
    p.add_argument("--agent", metavar="SIDE=AGENT", action="append",
                   help="player for any side, e.g. --agent ap=mcts:100 (repeatable)")
    p.add_argument("--backend", choices=BACKENDS, default="local",
                   help="where games run: local (a process pool, the default), ray or dask (an existing "
                        "cluster from $RAY_ADDRESS / $DASK_SCHEDULER_ADDRESS, else a local one; needs the "
                        "pogdsl[ray] or pogdsl[dask] extra)")
    p.add_argument("--out", metavar="FILE",
                   help="write one record per game to FILE as games finish: JSON lines (FILE.jsonl), or CSV if "
                        "FILE ends in .csv; each with its seed, winner, result, reason, final VP, VP by turn, last "
                        "turn, decisions, card events and failure (see docs/playing.rst); a full disk stops the run "
                        "with the games written so far kept; `pogdsl report FILE` "
                        "summarises them again; with --against the variant's go to FILE-against.EXT")
    p.add_argument("--against", metavar="VARIANT",
                   help="also play the scenario VARIANT on the same seeds (same --games, --seed, --option) and "
                        "report each difference, VARIANT minus SCENARIO, with its 95%% interval and whether it "
                        "is significant; --json then prints {\"base\", \"variant\", \"differences\"}")
    p.add_argument("--plot", type=Path, default=None, metavar="DIR",
                   help="write figures of the games to folder DIR (created if needed), each as PNG and SVG: "
                        "who won by the turn the game ended, the final VP, VP over turns, and VP over turns by who "
                        "won (with --against, the base and the variant side by side); `pogdsl report FILE --plot "
                        "DIR` draws them from saved records")
    p.add_argument("--without", metavar="CARD", action="append",
                   help="take CARD out of the game before the deal, e.g. --without 'AP 14' (side and number, or "
                        "the card's name; repeatable): it is in no deck, hand or pile. The scenario is then "
                        "'SCENARIO without AP 14', as the records name it and `play` takes it. A card the rules "
                        "name elsewhere cannot be taken out (the error says where). `pogdsl card-value` compares "
                        "the two on the same seeds")
    add_option_argument(p, "; every game plays with them, and the same --seed and options give the same games")
    add_root_option(p)
    p.set_defaults(func=cmd_simulate)
