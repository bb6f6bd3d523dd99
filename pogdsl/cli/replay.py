"""`pogdsl replay`: play back a saved game or a script and check it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .common import whole_number
from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, add_option_argument, add_root_option, options_from


def _err(text: str) -> None:
    print(f"pogdsl replay: error: {text}", file=sys.stderr)


def cmd_replay(args) -> int:
    from ..agents import format_log_entry
    from ..runtime.errors import BadSave
    from ..runtime.record import load_any, script_text

    path = Path(args.file)
    try:
        os.stat(path)
    except FileNotFoundError:
        _err(f"no such file: {args.file}")
        return EXIT_USAGE
    except (OSError, ValueError):
        pass  # (a name too long, a loop of links, ...: the reader says why, as for a directory or a device)
    if args.script:
        from ..safe_io import write_problem

        problem = write_problem(args.script)
        if problem:  # said before a long game is replayed, not after
            _err(f"cannot write {args.script}: {problem}")
            return EXIT_ERRORS
    options = {"step_budget": args.max_steps} if args.max_steps else {}
    if args.max_decisions:
        options["max_decisions"] = args.max_decisions
    try:
        session = load_any(path, args.root, chosen=options_from(args), scenario=args.scenario,
                           under_current_rules=args.under_current_rules, **options)
    except BadSave as err:
        _err(str(err))
        return EXIT_ERRORS
    except RecursionError:
        _err(f"{args.file}: the game nested procedures too deeply")
        return EXIT_ERRORS
    g = session.game
    if args.log:
        for e in g.s["log"]:
            print(f"T{e['turn']} {e['phase'] or 'set-up'}: {format_log_entry(e)}")
    if args.script:
        from ..safe_io import write_file

        try:
            write_file(args.script, script_text(session, note=f"from {args.file}"))
        except OSError as err:
            _err(f"cannot write {args.script}: {err.strerror or err}")
            return EXIT_ERRORS
    if g.over:
        o = g.outcome
        ending = o.text() + (f" ({o.reason})" if o.reason else "")
    else:
        d = g.decision()
        ending = f"not over: turn {g.s['turn']}, {d.by} to choose {d.choice}" if d else "not over"
    played = session.opened.options_text()
    shown = " (options " + ", ".join(f"{k}={v}" for k, v in played.items()) + ")" if played else ""
    if args.under_current_rules and session.from_save:
        differs = ("the position now differs from the saved one" if session.replayed_differs
                   else "the position is the saved one")
        print(f"every decision of {args.file} is legal under the current rules; {differs}", file=sys.stderr)
    forced = session.forced()  # a game whose dice or hands were set by hand says so in its verdict
    verdict = f"OK, with {forced}:" if forced else "OK"
    print(f"{verdict} {args.file}: {session.opened.key}{shown}, seed {g.s['seed']}, {session.decisions_made} decisions, "
          f"{ending}; state {g.state_hash()[:16]}")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser(
        "replay", help="play back a saved game or a script and check it",
        description="Play FILE back from its first decision and check it: a saved game (JSON, from `pogdsl play "
                    "--save`) must reach exactly its saved state under the rules it was saved with (a save made under other rules is refused, naming the files that changed: --under-current-rules plays its decisions again under these); a script (plain text: "
                    "`scenario`, `seed`, `option`, `dice`, `hand`, set-up lines `place`, `remove` and `set`, `SIDE: OPTION` and "
                    "`expect` lines) must have every "
                    "decision legal and every `expect` hold. A file that is damaged, changed, from other rules, "
                    "or does not replay is reported with the reason (and the line, for a script). A save's seal is "
                    "a checksum, not a signature: what is verified is that its decisions replay from its seed to "
                    "its recorded state; a game whose dice or hands were set by hand is verified as \"OK, with "
                    "forced dice: ...\" (docs/playing.rst, \"Saves\").",
        epilog="Exit status: 0 the file replays and checks, 1 it does not (or cannot be read), 2 wrong usage.")
    p.add_argument("file", metavar="FILE", help="a saved game (.json) or a script")
    p.add_argument("--under-current-rules", action="store_true",
                   help="a save made under other rules (or by an older pogdsl): play its decisions again under the "
                        "current rules, and name the first one that is no longer legal (with the rule that forbids "
                        "it); the save's own state is then not required")
    p.add_argument("--scenario", metavar="SCENARIO",
                   help="the save's scenario from this name or .pog file (a save names its scenario by name only; "
                        "give the file of a scenario of your own here)")
    p.add_argument("--log", action="store_true", help="print the replayed game's log with its rules")
    p.add_argument("--script", metavar="OUT",
                   help="write the game as a plain-text script to OUT (whole or not at all: a directory, FIFO or "
                        "device is refused, and a failed write leaves OUT as it was)")
    p.add_argument("--max-steps", type=whole_number, default=None, metavar="N",
                   help="stop with an error after N steps without a decision")
    p.add_argument("--max-decisions", type=whole_number, default=None, metavar="N",
                   help="stop with an error after N decisions (default: the scenario's `limit decisions`, else "
                        "1,000 for each of its turns): give what the game was played with")
    add_option_argument(p, "; the FILE replays with the options it records (a save's \"options\", a script's "
                           "`option NAME VALUE` lines): --option sets the others, and may not contradict them")
    add_root_option(p)
    p.set_defaults(func=cmd_replay)
