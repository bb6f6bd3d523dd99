"""`pogdsl fit-evaluation`: the declared evaluation's term weights fitted
to the outcomes of played games, with intervals and held-out scores
(pogdsl/sim/evalfit.py)."""

from __future__ import annotations

import json
import sys

from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, games_and_workers_problem, scenario_error

RECORD_FIELDS = ("game", "seed", "winner", "reason", "turn", "error", "players", "terms", "terms_by_turn")


def _err(text: str) -> None:
    print(f"pogdsl fit-evaluation: error: {text}", file=sys.stderr)


def cmd_fit_evaluation(args) -> int:
    from ..opening import ScenarioError, open_scenario
    from ..sim.evalfit import FitError, fit_records
    from .common import options_from

    problem = games_and_workers_problem(args) or _fit_problem(args)
    if problem:
        _err(problem)
        return EXIT_USAGE
    chosen = options_from(args)
    try:
        opened = open_scenario(args.scenario, args.root, options=chosen)
    except ScenarioError as err:
        return scenario_error(err, _err)
    world = opened.world
    sides = [s.key for s in world.sides]
    terms = [(t.name, t.weight) for t in world.terms]
    if not terms:
        _err(f"scenario '{args.scenario}' declares no evaluation term: there is nothing to fit "
             "(docs/players.rst, 'Writing or changing an evaluation')")
        return EXIT_USAGE
    if len(sides) != 2:
        _err(f"scenario '{args.scenario}' has {len(sides)} playing sides: the fit is of one side's win against "
             "the other's, for two")
        return EXIT_USAGE
    if args.out and not args.out.parent.is_dir():  # found out now, not after the games are played
        _err(f"cannot write {args.out}: no folder {args.out.parent}")
        return EXIT_USAGE
    summary = None  # simulate's, when the games are played here
    if args.records_in:
        records = _read_records(args.records_in, [name for name, _ in terms])
        if isinstance(records, str):
            _err(records)
            return EXIT_USAGE
    else:
        played = _play(args, opened, chosen, sides, [name for name, _ in terms])
        if isinstance(played, int):
            return played
        records, summary = played
    from ..agents.evaluation import scale as declared_scale_of

    declared_scale = declared_scale_of(opened.new_game(0, log=False))
    try:
        fit = fit_records(records, terms, sides, float(args.scale or declared_scale), declared_scale=declared_scale,
                          folds=args.folds, resamples=args.bootstrap, seed=args.seed)
    except FitError as err:
        _err(f"the fit is undefined: {err}")
        return EXIT_ERRORS
    fit.update(scenario=args.scenario, agents=summary["agents"] if summary else _players(records, sides))
    if args.out:
        written = _write_fragment(args, opened, fit)
        if written:
            _err(written)
            return EXIT_ERRORS
        fit["out"] = str(args.out)
    if args.json:
        print(json.dumps(fit))
    else:
        print_fit(fit)
    if summary and summary.get("interrupted"):
        return 130
    return EXIT_OK


def _fit_problem(args) -> str | None:
    if args.scale is not None and args.scale < 1:
        return "--scale must be at least 1"
    if args.folds < 2:
        return "--folds must be at least 2"
    if args.bootstrap < 0:
        return "--bootstrap cannot be negative"
    if args.records_in and args.records_out:
        return "--from refits saved records: --records has nothing new to write"
    return None


def _play(args, opened, chosen: dict, sides: list[str], names: list[str]):
    """Play the games, each side's terms recorded at the end of each turn:
    (records, simulate's summary), or an exit status."""
    from ..sim import simulate
    from .simulate import agents_from

    agents = agents_from(args, sides)
    if isinstance(agents, str):
        _err(agents)
        return EXIT_USAGE
    records: list[dict] = []
    out = None
    if args.records_out:
        from ..safe_io import write_problem

        problem = write_problem(args.records_out)  # (a FIFO would block the games' writer)
        if problem:
            _err(f"cannot write {args.records_out}: {problem}")
            return EXIT_USAGE
        try:
            out = open(args.records_out, "w", encoding="utf-8")
        except OSError as err:
            _err(f"cannot write {args.records_out}: {err.strerror}")
            return EXIT_USAGE

    def keep(results):
        for r in results:
            rec = {k: r.get(k) for k in RECORD_FIELDS}
            rec["terms"] = names
            records.append(rec)
            if out is not None:
                out.write(json.dumps(rec) + "\n")
                out.flush()  # a run stopped halfway keeps every game it finished

    bar = None
    if args.progress or (args.progress is None and sys.stderr.isatty()):
        from tqdm import tqdm

        bar = tqdm(total=args.games, unit="game", file=sys.stderr, desc=f"fit-evaluation {args.scenario}",
                   dynamic_ncols=True)
    try:
        summary = simulate(args.scenario, games=args.games, seed=args.seed, root=args.root, workers=args.workers,
                           options=chosen, agents=agents, record_terms=True, on_results=keep,
                           progress=bar.update if bar else None)
    finally:
        if bar:
            bar.close()
        if out is not None:
            out.close()
    return records, summary


def _read_records(path, names: list[str]) -> list[dict] | str:
    """The records of an earlier run's --records FILE, or what is wrong with
    them (a FIFO, a device or a line of megabytes is refused without
    waiting on it: sim/records.py)."""
    from ..sim.records import RecordError, text_lines

    records = []
    try:
        for n, line in enumerate(text_lines(path), 1):
            problem = _record_problem(line, names)
            if isinstance(problem, str):
                return f"{path}:{n}: {problem}"
            if problem is not None:
                records.append(problem)
    except OSError as err:
        return f"cannot read {path}: {err.strerror}"
    except UnicodeDecodeError:
        return f"{path} is not a text file of JSON lines"
    except RecordError as err:
        return f"{path}: {err}"
    if not records:
        return f"{path} holds no record"
    return records


def _record_problem(line: str, names: list[str]) -> dict | str | None:
    """LINE's record, what is wrong with it, or None for a blank line."""
    if not line.strip():
        return None
    try:
        rec = json.loads(line)
    except ValueError:
        return "not a JSON record"
    if not isinstance(rec, dict) or not isinstance(rec.get("terms_by_turn"), list):
        return "not a record of `fit-evaluation --records` (no terms_by_turn)"
    if rec.get("terms") != names:
        return f"recorded with the terms {rec.get('terms')}, the scenario declares {names}: play the games again"
    if not _well_formed(rec):
        return f"its terms_by_turn are not each side's list of {len(names)} whole numbers (in the language's range)"
    return rec


def _well_formed(rec: dict) -> bool:
    n = len(rec["terms"])
    for snap in rec["terms_by_turn"]:
        if snap is None:
            continue
        if not isinstance(snap, dict) or not all(
                isinstance(v, list) and len(v) == n and all(_term_value(x) for x in v) for v in snap.values()):
            return False
    return True


def _term_value(x) -> bool:
    """A whole number a term can take (the language's range, well within a float's exact integers)."""
    from ..numbers import LIMIT

    return isinstance(x, int) and not isinstance(x, bool) and abs(x) < LIMIT


def _players(records: list[dict], sides: list[str]) -> dict:
    """Each side's player as the records name it ("mixed" when they differ)."""
    named = {side: {str((r.get("players") or {}).get(side, "?")) for r in records} for side in sides}
    return {side: next(iter(specs)) if len(specs) == 1 else "mixed" for side, specs in named.items()}


def _write_fragment(args, opened, fit: dict) -> str | None:
    """Write the fitted weights as a scenario extending SCENARIO, and check
    that it compiles; what went wrong, or None."""
    from ..opening import ScenarioError, open_scenario
    from ..sim.evalfit import fragment

    scenario = opened.world.scenario
    title = str(getattr(scenario.title, "text", scenario.title) or scenario.name)
    text = fragment(opened.key, title, [c.number for c in scenario.cites], fit)
    try:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as err:
        return f"cannot write {args.out}: {err.strerror}"
    try:
        open_scenario(str(args.out), args.root, cache=False)
    except ScenarioError as err:
        if err.text:
            print(err.text, file=sys.stderr)
        return f"the written {args.out} does not compile: {err.message}"
    return None


def print_fit(fit: dict) -> None:
    sides = fit["sides"]
    wins = ", ".join(f"{side} {fit['wins'][side]}" for side in sides)
    print(f"evaluation fit for {fit['scenario']}: {fit['games']} games ({fit['decisive']} decisive: {wins}), "
          f"{fit['positions']} positions (each side's terms at the end of each turn); players: "
          + ", ".join(f"{k} {v}" for k, v in fit["agents"].items()))
    scale_note = ("the declared scale" if fit["scale"] == fit["declared_scale"]
                  else f"the declared scale is {fit['declared_scale']:g}")
    print(f"  P({sides[0]} wins) = logistic(sum of weight x ({sides[0]}'s term - {sides[1]}'s) / "
          f"{fit['scale']:g} + seat) ({scale_note}; weights at least 0), fitted by maximum likelihood on the "
          "decisive games")
    width = max(len("term"), *(len(r["term"]) for r in fit["terms"]))
    between = f", 95% interval over {fit['resamples']} resamples of the games" if fit["resamples"] else ""
    print(f"  {'term':<{width}}  declared  fitted  (exact{between})")
    for r in fit["terms"]:
        if r["exact"] is None:
            detail = "the same difference between the sides in every position: not fitted, the declared weight kept"
        elif "low" in r:
            detail = f"({r['exact']:.2f}, {r['low']:.2f} to {r['high']:.2f})"
        else:
            detail = f"({r['exact']:.2f})"
        print(f"  {r['term']:<{width}}  {r['declared']:>8}  {r['fitted']:>6}  {detail}")
    seat = fit["seat"]
    between = f", 95% interval {seat['low']:+.2f} to {seat['high']:+.2f}" if seat["low"] is not None else ""
    print(f"  seat: {seat['logit']:+.2f}{between} (side {sides[0]}'s edge at an even evaluation, in the logistic's "
          "units: fitted, not written, as both sides judge by the same terms)")
    if fit["resamples_failed"]:
        print(f"  ({fit['resamples_failed']} of {fit['resamples']} resamples could not be fitted and are left out)")
    held = fit["held_out"]
    if held is None:
        print(f"  held-out scores: none ({fit['held_out_missing']})")
        return
    print(f"  held out ({fit['folds']} folds by game: each game's positions predicted by a fit without it):")
    from ..sim.evalfit import HELD_OUT

    notes = {"declared": " (as the players judge)",
             "declared, scale fitted": " (the declared weights' proportions; the scale and the seat fitted)",
             "fitted": " (the weights, whole, and the seat fitted)",
             "base rate": f" (the seat alone, no term read: the training games' share of {sides[0]} wins)"}
    for name in HELD_OUT:
        print(f"    {name:<22} log-loss {held[name]['log_loss']:.4f}  Brier {held[name]['brier']:.4f}"
              f"{notes.get(name, '')}")
    if fit.get("declared_best_scale"):
        print(f"  the declared weights predict best with evaluation_scale {fit['declared_best_scale']:.0f} "
              f"(declared: {fit['declared_scale']:g})")
    if "out" in fit:
        print(f"  wrote {fit['out']} (it compiles: a variant of {fit['scenario']} with the fitted weights)")


def register(sub) -> None:
    import argparse
    from pathlib import Path

    from .common import add_option_argument, add_root_option, whole_number

    p = sub.add_parser(
        "fit-evaluation",
        help="fit the evaluation's term weights to the outcomes of played games, with intervals and held-out scores",
        description="Play N games of SCENARIO (simulate's seeds and players), record each side's evaluation terms "
                    "at the end of every turn, and fit the terms' weights by maximum likelihood so that "
                    "P(first side wins) = logistic(sum of weight x (its term - the other side's) / scale) "
                    "predicts who won: a logistic regression on the term differences, over the positions of the "
                    "decisive games (draws are left out). The scale is the declared evaluation_scale unless "
                    "--scale sets another; the fitted weights are rounded to whole numbers, as the language "
                    "takes them. Prints each term's declared and fitted weight with a 95% interval from "
                    "resampling whole games, and the log-loss and Brier score of the declared and the fitted "
                    "weights on games held out of the fit (cross-validated by game: a game's positions are "
                    "never split). --out writes the fitted weights as a variant (edit term lines) and checks "
                    "that it compiles. See docs/players.rst.",
        epilog="Exit status: 0 fitted, 1 the sources have errors or the fit is undefined (no decisive game, "
               "every game won by the same side), 2 wrong usage (or a scenario that declares no term), 130 "
               "stopped by Ctrl-C (the games finished so far are fitted).")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario name, e.g. historical")
    p.add_argument("--games", "-n", type=whole_number, default=100, metavar="N", help="games to play (default 100)")
    p.add_argument("--seed", type=whole_number, default=0,
                   help="the run's seed (default 0): simulate's games, and the resamples and folds")
    p.add_argument("--workers", "-w", type=whole_number, default=None, metavar="W",
                   help="worker processes (default: all cores); 1 plays in this process")
    p.add_argument("--ap", metavar="AGENT", help="player for side ap (default: simulate's, greedy)")
    p.add_argument("--cp", metavar="AGENT", help="player for side cp")
    p.add_argument("--agent", metavar="SIDE=AGENT", action="append", help="player for any side (repeatable)")
    p.add_argument("--scale", type=whole_number, default=None, metavar="S",
                   help="fit the weights on this scale instead of the declared evaluation_scale (a larger one "
                        "gives whole weights finer steps; --out then replaces the scale too)")
    p.add_argument("--folds", type=whole_number, default=5, metavar="K",
                   help="cross-validation folds, by game (default 5; fewer when there are fewer decisive games)")
    p.add_argument("--bootstrap", type=whole_number, default=200, metavar="B",
                   help="resamples of the games for the intervals (default 200; 0: no intervals)")
    p.add_argument("--records", dest="records_out", type=Path, metavar="FILE.jsonl",
                   help="write each game's outcome and terms by turn as it ends, one JSON line a game")
    p.add_argument("--from", dest="records_in", type=Path, metavar="FILE.jsonl",
                   help="fit the records of an earlier --records run instead of playing games")
    p.add_argument("--out", type=Path, metavar="FILE.pog",
                   help="write a scenario extending SCENARIO with an `edit term NAME weight N` line for each "
                        "weight the fit changes, and check that it compiles")
    p.add_argument("--json", action="store_true", help="print the fit as JSON: {\"terms\": [...], \"held_out\": ...}")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show a progress bar on stderr (default: when stderr is a terminal)")
    add_option_argument(p, "; every game plays with them")
    add_root_option(p)
    p.set_defaults(func=cmd_fit_evaluation)
