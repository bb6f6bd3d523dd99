"""`pogdsl play`: play a scenario at the terminal, or watch agents play it."""

from __future__ import annotations

import sys

from .common import whole_number
from .common import (EXIT_ERRORS, EXIT_OK, EXIT_USAGE, add_option_argument, add_root_option, options_from,
                     scenario_error)


def _err(text: str) -> None:
    print(f"pogdsl play: error: {text}", file=sys.stderr)


def _as_recorded(session):
    """The game at its last decision answered, for --save after Ctrl-C
    stopped the engine between two decisions (a second Ctrl-C is ignored
    while it is played again)."""
    import signal
    import threading

    from ..runtime.errors import BadSave

    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        print(f"saving the game at its last decision ({session.decisions_made} decisions made)", file=sys.stderr)
        return session.as_recorded()
    except BadSave as err:  # (a record that does not replay is a bug: say it, save nothing)
        _err(f"the game played so far cannot be saved: {err}")
        return session
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


def _terminal_prompts(humans: list[str]) -> dict:
    """The prompt_toolkit prompt of each side played by a person, when the
    person is at a terminal (stdin and stdout both one, not a dumb one); none
    for a pipe or a script, which keep plain `input()`.  In a hot-seat game
    each side keeps its own history, in memory: the arrow keys never show a
    player what the other looked up."""
    import os

    if not humans or not (sys.stdin.isatty() and sys.stdout.isatty()) or os.environ.get("TERM") == "dumb":
        return {}
    from ..agents.terminal import TerminalPrompt, history_path

    history = history_path() if len(humans) == 1 else None
    try:
        return {side: TerminalPrompt(history=history) for side in humans}
    except Exception:  # a terminal prompt_toolkit cannot drive (it says so in its own words): the plain prompt
        return {}


def cmd_play(args) -> int:
    from ..agents import make_agent, play
    from ..runtime.errors import BadSave, GameError
    from ..compiler import scenario_name
    from ..opening import ScenarioError, open_scenario
    from ..runtime.record import Session, load_any, script_text, write_save
    from ..safe_io import write_file, write_problem

    options = {"step_budget": args.max_steps} if args.max_steps else {}
    if args.max_decisions:
        options["max_decisions"] = args.max_decisions
    chosen = options_from(args)
    for flag, path in (("--save", args.save), ("--record", args.record)):
        problem = write_problem(path) if path else None
        if problem:  # said now, not after a game played to its end
            _err(f"{flag} {path}: {problem}")
            return EXIT_USAGE
    try:
        if args.load:
            session = load_any(args.load, args.root, chosen=chosen, scenario=args.scenario,
                               under_current_rules=args.under_current_rules, **options)
            if session.replayed_differs:
                print(f"{args.load}: replayed under the current rules; the position differs from the saved one",
                      file=sys.stderr)
            if args.scenario and scenario_name(args.scenario) not in (session.opened.spec, session.opened.key):
                _err(f"{args.load} is a game of '{session.opened.key}', not '{args.scenario}'")
                return EXIT_USAGE
            if args.seed is not None and args.seed != session.game.s["seed"]:
                _err(f"{args.load} was played with seed {session.game.s['seed']}; --seed cannot change it")
                return EXIT_USAGE
            forced = session.forced()
            print(f"loaded {args.load}: {session.opened.key}, turn {session.game.s['turn']}, "
                  f"{session.decisions_made} decisions" + (f", with {forced}" if forced else ""), file=sys.stderr)
        else:
            if not args.scenario:
                _err("which scenario? give SCENARIO or --load FILE")
                return EXIT_USAGE
            if args.under_current_rules:
                _err("--under-current-rules goes with --load FILE")
                return EXIT_USAGE
            opened = open_scenario(args.scenario, args.root, options=chosen)
            session = Session.new(opened, args.seed if args.seed is not None else 0, **options)
    except ScenarioError as err:
        return scenario_error(err, _err)
    except BadSave as err:
        _err(str(err))
        return EXIT_ERRORS
    except GameError as err:
        _err(f"the game stopped: {err}")
        return EXIT_ERRORS

    world = session.world
    sides = [s.key for s in world.sides]
    specs = {side: "random" for side in sides}
    if sides:
        specs[sides[0]] = "human"
    given = []
    if args.ap:
        given.append(("ap", args.ap))
    if args.cp:
        given.append(("cp", args.cp))
    for item in args.agent or []:
        side, eq, spec = item.partition("=")
        if not eq:
            _err(f"--agent takes SIDE=SPEC, not '{item}'")
            return EXIT_USAGE
        given.append((side.strip(), spec.strip()))
    for side, spec in given:
        if side not in specs:
            _err(f"this scenario has no side '{side}' (sides: {', '.join(sides)})")
            return EXIT_USAGE
        specs[side] = spec
    seed = session.game.s["seed"]
    prompts = {} if args.plain else _terminal_prompts(
        [side for side, spec in specs.items() if spec.strip().lower() == "human"])
    try:
        agents = {side: make_agent(spec, side, seed, **({"terminal": prompts[side]} if side in prompts else {}))
                  for side, spec in specs.items()}
    except ValueError as err:
        _err(str(err))
        return EXIT_USAGE
    except BadSave as err:
        _err(str(err))
        return EXIT_ERRORS
    for side, agent in agents.items():
        script = getattr(agent, "script", None)
        if script is not None and script.scenario and scenario_name(script.scenario) not in (
                session.opened.spec, session.opened.key):
            _err(f"{script.path} is a script for scenario '{script.scenario}', not '{session.opened.key}'")
            return EXIT_USAGE
        played = session.opened.options_text()
        differ = [f"{k}={v}" for k, v in getattr(script, "options", {}).items() if played.get(k, v) != v]
        if script is not None and differ:
            _err(f"{script.path} was played with option {', '.join(differ)}: give the same with --option")
            return EXIT_USAGE

    who = ", ".join(f"{side}: {agents[side]}" for side in sides)
    print(f"{world.scenario.key}: {getattr(world.scenario, 'title', None) or world.scenario.key}, seed {seed} "
          f"({who})", file=sys.stderr)
    if session.opened.options:
        print("options: " + ", ".join(f"{k}={v}" for k, v in session.opened.options_text().items()),
              file=sys.stderr)
    status, code = "over", EXIT_OK
    try:
        status = play(session, agents, show_log=args.log, trace=args.trace)
    except BadSave as err:  # a script that ran out or was refused
        _err(str(err))
        status, code = "stopped", EXIT_ERRORS
    except GameError as err:
        _err(f"the game stopped: {err}")
        status, code = "stopped", EXIT_ERRORS
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        status, code = "quit", 130
        if (args.save or args.record) and not session.at_rest():
            session = _as_recorded(session)

    g = session.game
    if g.over:
        o = g.outcome
        rules = f" [rule {', '.join(o.rules)}]" if o.rules else ""
        who_won = o.text()
        print(f"Game over: {who_won}" + (f" ({o.reason})" if o.reason else "") + rules)
        print(f"{session.decisions_made} decisions, final state {g.state_hash()[:16]}")
    elif status == "quit":
        print(f"stopped at turn {g.s['turn']} after {session.decisions_made} decisions")
    for path, writer in ((args.save, lambda p: write_save(session, p)),
                         (args.record, lambda p: write_file(p, script_text(session)))):
        if path and (g.s["pending"] is not None or g.over):
            try:
                writer(path)
                print(f"saved to {path}", file=sys.stderr)
            except OSError as err:
                _err(f"cannot write {path}: {err.strerror or err}")
                code = code or EXIT_ERRORS
    return code


def register(sub) -> None:
    p = sub.add_parser(
        "play", help="play a scenario at the terminal, or watch agents play it",
        description="Play SCENARIO (a scenario name, or a .pog file declaring one). Each side is played by an "
                    "agent: `human` (you, at this terminal), `random` (seeded from --seed and the side, so a "
                    "game of `pogdsl simulate` can be played again), `random:SEED`, `greedy` (takes the option the "
                    "scenario's declared evaluation judges best after a short look-ahead, seeded like `random`; "
                    "against a person it says why, with the rules and terms behind its move), `mcts:N` (a player "
                    "that looks ahead with N random playouts a decision, seeded like `random`), `ismcts:N` (a player "
                    "that searches a tree of both sides' options, N iterations a decision, seeded likewise), or "
                    "`script:FILE` (the FILE's "
                    "`SIDE: OPTION` lines for that side, in order). By default the first side is human and the "
                    "others random. A human answers with an option's number or text; `help` at the prompt lists "
                    "the commands (options, more, space, unit, hand, card, tracks, log, why, undo, save, quit). At "
                    "a terminal the prompt keeps a history (arrow keys; also between games, in "
                    "$XDG_DATA_HOME/pogdsl/history, or $POGDSL_HISTORY, empty for none), Tab completes option texts, "
                    "commands and space, unit and card names (any case, a word's beginning or its letters in order), "
                    "a long list of options is grouped by space or unit and paged (`more`, `options N`), and the "
                    "bottom line shows whose decision it is and the tracks the scenario declares.",
        epilog="Exit status: 0 the game ended or was stopped, 1 the sources, a save or a script have errors (or "
               "the game reached a dead end), 2 wrong usage.")
    p.add_argument("scenario", metavar="SCENARIO", nargs="?",
                   help="scenario name or .pog file, NAME+RULESET for a rule set applied to NAME (optional with --load; a save names its scenario by name, so a "
                        "save of a scenario of your own needs its .pog file here)")
    p.add_argument("--seed", type=whole_number, default=None, help="the game's seed: dice, shuffles (default 0)")
    p.add_argument("--ap", metavar="AGENT",
                   help="agent for side ap: human | random | random:SEED | greedy (judges each option by the "
                        "declared evaluation; greedy:K looks at K options, greedy:K:F plays F (0 to 100) of its own decisions on "
                        "after each option of a decision that opens its action) | mcts:N (looks ahead with N random "
                        "playouts a decision; mcts:N:D cuts each after D decisions) | ismcts:N (information-set "
                        "tree search, N iterations a decision; ismcts:N:H plays each playout for at most H "
                        "decisions; ismcts:N:H:Z overrides greedy only by a lead of Z standard errors; ismcts:N:H:Z:F has "
                        "its greedy play F decisions on after each option, default 6) | script:FILE")
    p.add_argument("--cp", metavar="AGENT", help="agent for side cp (same choices as --ap)")
    p.add_argument("--agent", metavar="SIDE=AGENT", action="append",
                   help="agent for any side, e.g. --agent ap=random:7 (repeatable)")
    p.add_argument("--load", metavar="FILE",
                   help="continue a saved game, or the game a script leads to (replayed and checked first)")
    p.add_argument("--under-current-rules", action="store_true",
                   help="with --load: the save was made under other rules; play its decisions again under the "
                        "current ones (the first that is no longer legal is named) and continue from there")
    p.add_argument("--save", metavar="FILE",
                   help="save the game to FILE (JSON) when it ends, when you quit, or when Ctrl-C stops it (then "
                        "at its last decision); written whole or not at all: a failed save leaves FILE as it was")
    p.add_argument("--record", metavar="FILE",
                   help="also write the game as a plain-text script, replayable with `pogdsl replay` (written "
                        "whole or not at all, as --save)")
    p.add_argument("--trace", action="store_true",
                   help="before each decision, show which restrictions, modifiers, triggers and segments "
                        "applied, with their rules")
    p.add_argument("--log", action="store_true", help="print the game's log as it grows, with the rules cited")
    p.add_argument("--plain", action="store_true",
                   help="read a human's answers with a plain line prompt even at a terminal (no completion, status "
                        "line or paging; a pipe or a script always gets this one)")
    p.add_argument("--max-steps", type=whole_number, default=None, metavar="N",
                   help="stop with an error after N steps without a decision (a runaway loop)")
    p.add_argument("--max-decisions", type=whole_number, default=None, metavar="N",
                   help="stop with an error after N decisions, naming where the game asks again and again (a game "
                        "that never ends; default: the scenario's `limit decisions`, else 1,000 for each of its "
                        "turns); a game saved past the default needs the same option when loaded")
    add_option_argument(p, "; with --load, the saved game's options stand and --option may only add others; "
                           "--save and --record write the options down")
    add_root_option(p)
    p.set_defaults(func=cmd_play)
