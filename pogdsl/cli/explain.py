"""`pogdsl explain`: why an option of a saved game's or a script's decision
is legal, forbidden or not offered; which blocks wrote a line of its log."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, add_option_argument, add_root_option, options_from


def _err(text: str) -> None:
    print(f"pogdsl explain: error: {text}", file=sys.stderr)


def cmd_explain(args) -> int:
    from ..runtime.errors import BadSave
    from ..runtime.record import load_any

    path = Path(args.file)
    try:
        os.stat(path)
    except FileNotFoundError:
        _err(f"no such file: {args.file}")
        return EXIT_USAGE
    except (OSError, ValueError):
        pass  # (the reader says why, as for a directory or a device)
    if args.at is not None and args.at < 0:
        _err(f"--at {args.at}: a number of decisions, 0 or more")
        return EXIT_USAGE
    log_line = _log_number(args.log)
    if log_line == "bad":
        _err(f"--log {args.log}: a log line's number (1 is the first) or `all`")
        return EXIT_USAGE
    try:
        session = load_any(path, args.root, chosen=options_from(args), scenario=args.scenario)
        session = _at(session, args.at)
    except BadSave as err:
        _err(str(err))
        return EXIT_ERRORS
    except _BadPosition as err:
        _err(str(err))
        return EXIT_USAGE
    except RecursionError:
        _err(f"{args.file}: the game nested procedures too deeply")
        return EXIT_ERRORS
    from ..runtime.errors import GameError

    try:
        if args.log is not None:
            return _explain_log(session, log_line, args)
        return _explain_option(session, " ".join(args.option_text), args)
    except GameError as err:  # a condition that cannot be worked out here stops with its location
        _err(f"{args.file}: {err}")
        return EXIT_ERRORS


class _BadPosition(Exception):
    pass


def _at(session, n: int | None):
    """The session as it stood after its N-th decision (None: at its end)."""
    from ..runtime.record import replay_events

    made = session.decisions_made
    if n is None or n == made:
        return session
    if n > made:
        raise _BadPosition(f"--at {n}: {session.path} has {made} decision{'s' if made != 1 else ''} "
                           f"(0 to {made})")
    decisions = [i for i, e in enumerate(session.events) if e.kind == "decision"]
    cut = decisions[n]  # the inputs between decision N and the next one stand at that position
    return replay_events(session.opened, session.game.s["seed"], session.events[:cut], session.path)


def _log_number(text: str | None):
    if text is None or text == "all":
        return None
    return int(text) if text.isdigit() and 0 < len(text) < 10 and int(text) > 0 else "bad"


def _explain_option(session, text: str, args) -> int:
    from ..explain import explain_option, forbidden_options

    g = session.game
    if g.s["pending"] is None:
        _err(f"{args.file}: there is no decision to explain at this position"
             + (" (the game is over)" if g.over else ""))
        return EXIT_ERRORS
    d = g.decision()
    made = session.decisions_made
    where = f"turn {g.s['turn']}, {made} decision{'s' if made != 1 else ''} made: {d.by} to choose {d.choice}"
    if not text:
        found = forbidden_options(g)
        if args.json:
            print(json.dumps({"position": where, "forbidden": [e.to_json() for e in found]}, indent=2))
            return EXIT_OK
        print(f"{where}; {len(found)} option{'s' if len(found) != 1 else ''} forbidden")
        for e in found:
            print(e.to_text())
        return EXIT_OK
    e = explain_option(g, text)
    if args.json:
        print(json.dumps({"position": where, **e.to_json()}, indent=2))
        return EXIT_OK if e.verdict not in ("unknown", "no decision") else EXIT_ERRORS
    if e.verdict in ("unknown", "no decision"):
        _err(e.headline)
        return EXIT_ERRORS
    print(f"{where}")
    print(e.to_text())
    return EXIT_OK


def _explain_log(session, number: int | None, args) -> int:
    from ..explain import trace_log
    from ..runtime.errors import BadSave

    try:
        lines = trace_log(session)
    except BadSave as err:
        _err(str(err))
        return EXIT_ERRORS
    if number is not None:
        if number > len(lines):
            _err(f"--log {number}: the log has {len(lines)} line{'s' if len(lines) != 1 else ''} at this position")
            return EXIT_USAGE
        lines = [lines[number - 1]]
    if args.json:
        print(json.dumps([line.to_json() for line in lines], indent=2))
    else:
        for line in lines:
            print(line.to_text())
    return EXIT_OK


def _words_anywhere(p) -> None:
    """Let OPTION's words stand after the options too (`explain FILE --at 3
    play 7 event`, as the usage reads): this command's parser reads its
    arguments intermixed (argparse otherwise takes no positional after an
    option once FILE is read)."""
    plain = type(p)

    class Intermixed(plain):
        _inside = False

        def parse_known_args(self, args=None, namespace=None):
            if self._inside:  # (parse_known_intermixed_args calls back here)
                return plain.parse_known_args(self, args, namespace)
            self._inside = True
            try:
                return self.parse_known_intermixed_args(args, namespace)
            finally:
                self._inside = False

    p.__class__ = Intermixed


def register(sub) -> None:
    p = sub.add_parser(
        "explain", help="why an option is legal, forbidden or not offered; which blocks wrote a log line",
        description="Play FILE (a save or a script, as `pogdsl replay` does) to a position, then say why OPTION, "
                    "an option of the decision pending there, is legal, forbidden or not offered at all, down "
                    "to the sub-condition that decided: the restriction or the choice's domain filter, the part "
                    "of its condition that was false (or true), the values it saw, where it is written, its "
                    "rules and its note. OPTION is matched as an answer is (the whole text in any case, or a "
                    "unique beginning); without OPTION, every forbidden option is listed with its reason. "
                    "With --log, the lines of the game's log are shown instead, each with the blocks that "
                    "wrote it (docs/explain.rst).",
        epilog="Exit status: 0 explained, 1 the file does not replay (or OPTION names no option: the nearest are "
               "suggested), 2 wrong usage (a missing file, a position the game does not have).")
    p.add_argument("file", metavar="FILE", help="a saved game (.json) or a script")
    p.add_argument("option_text", metavar="OPTION", nargs="*",
                   help="the option, as the game writes it or a unique beginning (quotes not needed)")
    p.add_argument("--at", type=int, default=None, metavar="N",
                   help="the position after the N-th decision of FILE (0: the first decision; default: where FILE "
                        "ends)")
    p.add_argument("--log", metavar="N|all", default=None,
                   help="show line N of the log (1 is the first; `all`: every line) with the blocks that wrote "
                        "it: the statement, its block (phase, procedure, card, trigger), where it was called "
                        "from, and their rules")
    p.add_argument("--json", action="store_true", help="print the explanation as JSON (docs/explain.rst)")
    p.add_argument("--scenario", metavar="SCENARIO",
                   help="the save's scenario from this name or .pog file (a save names its scenario by name only)")
    add_option_argument(p, "; FILE replays with the options it records")
    add_root_option(p)
    p.set_defaults(func=cmd_explain)
    _words_anywhere(p)
