"""What every command shares: exit codes and printing diagnostics."""

from __future__ import annotations

import sys
from pathlib import Path

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def print_diagnostics(comp, as_json: bool, stream=None) -> tuple[int, int]:
    from ..diagnostics import render

    stream = stream or sys.stderr
    items = comp.reporter.sorted()
    errors = sum(d.is_error for d in items)
    warnings = len(items) - errors
    if as_json:
        return errors, warnings
    for d in items:
        print(render(d, comp.sources), file=stream)
    return errors, warnings




def whole_number(text: str) -> int:
    """An argparse type: a whole number in the language's range
    (pogdsl/numbers.py), refused in one line otherwise."""
    import argparse

    from ..numbers import NumberError, parse_whole

    try:
        return parse_whole(text)
    except NumberError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_root_option(p) -> None:
    p.add_argument("--root", type=Path, default=None,
                   help="the project folder holding rules/, cards/ and scenarios/ (default: $POGDSL_HOME, "
                        "else the nearest folder up holding rules/ and scenarios/, else the checkout pogdsl runs from, "
                        "else the current folder); "
                        "in a built install its files extend the installed library")


def add_option_argument(p, note: str = "") -> None:
    p.add_argument("--option", "-o", metavar="NAME[=VALUE]", action="append", default=None, dest="option",
                   help="set one of the scenario's options (repeatable): NAME=on|off for an on/off option "
                        "(NAME alone means on), NAME=N for a number within its range, NAME=WORD for a choice "
                        "among names; an unknown NAME is reported with the names the scenario declares" + note)


def options_from(args) -> dict[str, str]:
    """--option NAME=VALUE items as NAME → VALUE (UsageError if malformed)."""
    from ..errors import UsageError

    out: dict[str, str] = {}
    for item in getattr(args, "option", None) or []:
        name, eq, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not name or (eq and not value) or not name.replace("_", "a").isalnum():
            raise UsageError(f"--option takes NAME=VALUE (or NAME alone for on), not '{item}'")
        if name in out and out[name] != (value if eq else "on"):
            raise UsageError(f"--option {name} is given twice, with different values")
        out[name] = value if eq else "on"
    return out


def games_and_workers_problem(args) -> str | None:
    """What is wrong with a batch command's --games and --workers (simulate,
    ladder, card-value, bid), or None."""
    if args.games < 1:
        return "--games must be at least 1"
    if args.workers is not None and args.workers < 1:
        return "--workers must be at least 1"
    return None


def scenario_error(err, say) -> int:
    """Report a ScenarioError as every command does — the located
    diagnostics when the sources have errors, then its one line through SAY
    (the command's own `error:` printer) — and return the exit status."""
    if err.text:
        print(err.text, file=sys.stderr)
    say(err.message)
    return EXIT_ERRORS
